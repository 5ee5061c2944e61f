"""Located diagnostics: what is wrong, where, and what to do about it.

Every stage of the pipeline reports problems as :class:`Diagnostic` values
instead of raising, so one run can report many problems. A diagnostic points at
a :class:`Span` of a source file; the renderers here print it for humans
(``file:line:col: error[CODE]: message`` with the source line and a caret),
as JSON, or as SARIF 2.1.0 for CI systems.
"""

from __future__ import annotations

import json
import re
from urllib.parse import quote as quote_uri
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from rallyc.model.codes import Code, Severity

__all__ = [
    "Severity",
    "Span",
    "Diagnostic",
    "DiagnosticError",
    "Sources",
    "render_text",
    "render_json",
    "render_sarif",
    "has_errors",
]


@dataclass(frozen=True, order=True)
class Span:
    """A range of a source file. Lines and columns count from 1; ``end_*`` is exclusive."""

    file: str
    line: int
    column: int
    end_line: int
    end_column: int

    @classmethod
    def point(cls, file: str, line: int, column: int) -> "Span":
        """A one-character span."""
        return cls(file, line, column, line, column + 1)

    def to_dict(self) -> dict:
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
        }

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True)
class Diagnostic:
    """One problem: a stable code, a severity, where, what, and a hint on what to do."""

    code: str
    severity: Severity
    message: str
    span: Span | None
    hint: str | None = None
    related: tuple[tuple[Span, str], ...] = field(default=())

    @classmethod
    def of(cls, code: Code, message: str, span: Span | None, hint: str | None = None,
           related: Iterable[tuple[Span, str]] = ()) -> "Diagnostic":
        """A diagnostic of ``code`` (a symbol of :mod:`rallyc.model.codes`) with the severity declared for it."""
        return cls(code, code.severity, message, span, hint, tuple(related))

    @classmethod
    def error(cls, code: str, message: str, span: Span | None, hint: str | None = None,
              related: Iterable[tuple[Span, str]] = ()) -> "Diagnostic":
        return cls(code, Severity.ERROR, message, span, hint, tuple(related))

    @classmethod
    def warning(cls, code: str, message: str, span: Span | None, hint: str | None = None,
                related: Iterable[tuple[Span, str]] = ()) -> "Diagnostic":
        return cls(code, Severity.WARNING, message, span, hint, tuple(related))

    def sort_key(self) -> tuple:
        s = self.span
        return (s.file, s.line, s.column, self.code, self.message) if s else ("", 0, 0, self.code, self.message)

    def to_dict(self) -> dict:
        out: dict = {
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
            "span": self.span.to_dict() if self.span else None,
            "hint": self.hint,
        }
        if self.related:
            out["related"] = [{"span": s.to_dict(), "message": m} for s, m in self.related]
        return out


class DiagnosticError(Exception):
    """Raised where a stage cannot go on; carries the diagnostics found so far."""

    def __init__(self, diagnostics: Sequence[Diagnostic]):
        self.diagnostics = list(diagnostics)
        super().__init__("; ".join(d.message for d in self.diagnostics))


class Sources:
    """The text of every file read in a run, so diagnostics can quote source lines."""

    def __init__(self) -> None:
        self._text: dict[str, str] = {}
        #: each file's lines, split once on first use (quoting thousands of diagnostics stays linear)
        self._lines: dict[str, list[str]] = {}

    def add(self, file: str, text: str) -> None:
        self._text[file] = text
        self._lines.pop(file, None)

    def get(self, file: str) -> str | None:
        return self._text.get(file)

    def files(self) -> list[str]:
        """The names of the files held, sorted."""
        return sorted(self._text)

    def update(self, other: "Sources") -> None:
        """Add every file of ``other``."""
        self._text.update(other._text)
        for name in other._text:
            self._lines.pop(name, None)

    def line(self, file: str, line: int) -> str | None:
        """Line ``line`` (from 1) of a file, without its line ending; lines end at ``\\n`` only, as the parser counts."""
        lines = self._lines.get(file)
        if lines is None:
            text = self._text.get(file)
            if text is None:
                return None
            lines = self._lines[file] = text.split("\n")
            if lines and lines[-1] == "":
                lines.pop()
        if line < 1 or line > len(lines):
            return None
        return lines[line - 1].removesuffix("\r")


def has_errors(diagnostics: Iterable[Diagnostic]) -> bool:
    """True if any diagnostic is an error."""
    return any(d.severity is Severity.ERROR for d in diagnostics)


def sorted_diagnostics(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Diagnostics in file, line, column order (stable output)."""
    return sorted(diagnostics, key=Diagnostic.sort_key)


def _shown(ch: str) -> str:
    """One printable character for ``ch``: C0 controls and DEL as their Unicode control pictures (ESC -> U+241B),
    other characters that are not printable (C1 controls, noncharacters, bidi overrides) as U+FFFD."""
    if ch.isprintable():
        return ch
    code = ord(ch)
    if code < 0x20:
        return chr(0x2400 + code)
    if code == 0x7F:
        return "\u2421"
    return "\ufffd"


_UNPRINTABLE = re.compile(r"[^\t\x20-\x7e]")


def printable_line(text: str) -> str:
    """A source line safe to print on a terminal: tabs as spaces, control and unprintable characters replaced
    one for one (so a caret under the line still points at the right column)."""
    text = text.replace("\t", " ")
    if _UNPRINTABLE.search(text) is None:
        return text
    return "".join(c if c.isprintable() else _shown(c) for c in text)


def _quote(sources: Sources | None, span: Span) -> list[str]:
    if sources is None:
        return []
    text = sources.line(span.file, span.line)
    if text is None:
        return []
    column, end_column = span.column, span.end_column
    if len(text) > 200:  # a window of 200 characters around the column (a whole stage can be one line)
        start = max(0, min(column - 1 - 80, len(text) - 200))
        head = "..." if start else ""
        tail = "..." if start + 200 < len(text) else ""
        text = head + text[start:start + 200] + tail
        column += len(head) - start
        end_column += len(head) - start
    text = printable_line(text)
    col = max(1, min(column, len(text) + 1))
    if span.end_line == span.line:
        width = max(1, min(end_column, len(text) + 1) - col)
    else:
        width = max(1, len(text) + 1 - col)
    gutter = f"{span.line:>5} | "
    return [gutter + text, " " * (len(gutter) - 2) + "| " + " " * (col - 1) + "^" + "~" * (width - 1)]


def render_text(diagnostics: Iterable[Diagnostic], sources: Sources | None = None) -> str:
    """Human-readable report: one block per diagnostic, then a summary line."""
    out: list[str] = []
    diags = sorted_diagnostics(diagnostics)
    for d in diags:
        where = f"{d.span}: " if d.span else ""
        out.append(f"{where}{d.severity.value}[{d.code}]: {d.message}")
        if d.span:
            out.extend(_quote(sources, d.span))
        for span, msg in d.related:
            out.append(f"  note: {span}: {msg}")
        if d.hint:
            out.append(f"  hint: {d.hint}")
    errors = sum(1 for d in diags if d.severity is Severity.ERROR)
    warnings = sum(1 for d in diags if d.severity is Severity.WARNING)
    if diags:
        out.append(f"{errors} error(s), {warnings} warning(s)")
    return "\n".join(out) + ("\n" if out else "")


def render_json(diagnostics: Iterable[Diagnostic], files: Sequence[str] = ()) -> str:
    """Machine-readable report (schema: schemas/diagnostics.schema.json)."""
    diags = sorted_diagnostics(diagnostics)
    doc = {
        "version": 1,
        "files": sorted(set(files)),
        "diagnostics": [d.to_dict() for d in diags],
        "summary": {
            "errors": sum(1 for d in diags if d.severity is Severity.ERROR),
            "warnings": sum(1 for d in diags if d.severity is Severity.WARNING),
        },
    }
    return json.dumps(doc, indent=2, sort_keys=True) + "\n"


_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.NOTE: "note"}


def render_sarif(diagnostics: Iterable[Diagnostic], version: str, rules: dict[str, str] | None = None,
                 help: dict[str, str] | None = None) -> str:
    """SARIF 2.1.0 log with one run of the rallyc tool.

    ``rules`` maps each code to its one-line summary and ``help`` to how to fix it
    (both from the code registry). Columns count Unicode code points.
    """
    diags = sorted_diagnostics(diagnostics)
    rules = rules or {}
    help = help or {}
    codes = sorted({d.code for d in diags})
    rule_index = {c: i for i, c in enumerate(codes)}
    results = []
    for d in diags:
        result: dict = {
            "ruleId": d.code,
            "ruleIndex": rule_index[d.code],
            "level": _SARIF_LEVEL[d.severity],
            "message": {"text": d.message + (f" (hint: {d.hint})" if d.hint else "")},
        }
        if d.span:
            result["locations"] = [_sarif_location(d.span)]
        if d.related:
            result["relatedLocations"] = [
                dict(_sarif_location(s), id=i, message={"text": m}) for i, (s, m) in enumerate(d.related)
            ]
        results.append(result)
    log = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "rallyc",
                        "version": version,
                        "rules": [_sarif_rule(c, rules.get(c, c), help.get(c)) for c in codes],
                    }
                },
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }
    return json.dumps(log, indent=2, sort_keys=True) + "\n"


def _sarif_rule(code: str, summary: str, fix: str | None) -> dict:
    rule: dict = {"id": code, "name": code, "shortDescription": {"text": summary}}
    if fix:
        rule["help"] = {"text": fix}
    return rule


def _sarif_location(span: Span) -> dict:
    return {
        "physicalLocation": {
            "artifactLocation": {"uri": quote_uri(span.file.replace("\\", "/"), safe="/:")},
            "region": {
                "startLine": span.line,
                "startColumn": span.column,
                "endLine": span.end_line,
                "endColumn": max(span.end_column, span.column + 1) if span.end_line == span.line else span.end_column,
            },
        }
    }
