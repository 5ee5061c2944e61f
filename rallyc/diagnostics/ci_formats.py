"""Diagnostics as CI systems read them: GitHub Actions workflow commands and GitLab Code Quality JSON.

``render_github`` writes one workflow command per diagnostic
(``::error title=rallyc (RC130),file=…,line=…,col=…,endLine=…,endColumn=…::message``),
the form ruff's ``--output-format github`` uses; GitHub shows them as annotations on
the pull request. ``render_gitlab`` writes a GitLab Code Quality report (a JSON array
of issues with a ``fingerprint`` each). Both are deterministic: diagnostics are sorted,
fingerprints are hashes of what the diagnostic says and where (its file, not its
line, so a problem keeps its fingerprint when lines above it move), numbered when
one file has the same problem twice.
"""

from __future__ import annotations

import hashlib
import json
from typing import Iterable

from rallyc.diagnostics import Diagnostic, Severity, sorted_diagnostics

__all__ = ["render_github", "render_gitlab", "fingerprint"]

_GITHUB_COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.NOTE: "notice"}

_GITLAB_SEVERITY = {Severity.ERROR: "major", Severity.WARNING: "minor", Severity.NOTE: "info"}


def _escape_data(text: str) -> str:
    """A workflow command's message: ``%``, CR and LF escaped (GitHub's toolkit rules)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    """A workflow command's property value: as the message, and ``:`` and ``,`` too."""
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render_github(diagnostics: Iterable[Diagnostic]) -> str:
    """GitHub Actions workflow commands, one line per diagnostic (hint on a second line of the message)."""
    out = []
    for d in sorted_diagnostics(diagnostics):
        props = [f"title={_escape_property(f'rallyc ({d.code})')}"]
        where = ""
        if d.span is not None:
            s = d.span
            props += [f"file={_escape_property(s.file)}", f"line={s.line}", f"col={s.column}",
                      f"endLine={s.end_line}", f"endColumn={s.end_column}"]
            where = f"{s.file}:{s.line}:{s.column}: "
        message = f"{where}{d.code} {d.message}" + (f"\nhint: {d.hint}" if d.hint else "")
        out.append(f"::{_GITHUB_COMMAND[d.severity]} {','.join(props)}::{_escape_data(message)}")
    return "".join(line + "\n" for line in out)


def fingerprint(d: Diagnostic, occurrence: int = 0) -> str:
    """A stable id of a problem: its code, file and message (not its line), and which occurrence it is."""
    key = "\x1f".join([d.code, d.span.file if d.span else "", d.message, str(occurrence)])
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]


def render_gitlab(diagnostics: Iterable[Diagnostic]) -> str:
    """A GitLab Code Quality report: a JSON array of issues (description, check_name, fingerprint,
    severity, location with path and begin/end lines)."""
    issues = []
    seen: dict[tuple, int] = {}
    for d in sorted_diagnostics(diagnostics):
        key = (d.code, d.span.file if d.span else "", d.message)
        n = seen.get(key, 0)
        seen[key] = n + 1
        issue: dict = {
            "type": "issue",
            "check_name": d.code,
            "description": f"{d.code} {d.message}" + (f" (hint: {d.hint})" if d.hint else ""),
            "categories": ["Bug Risk" if d.severity is Severity.ERROR else "Style"],
            "severity": _GITLAB_SEVERITY[d.severity],
            "fingerprint": fingerprint(d, n),
        }
        if d.span is not None:
            s = d.span
            issue["location"] = {"path": s.file, "positions": {
                "begin": {"line": s.line, "column": s.column}, "end": {"line": s.end_line, "column": s.end_column}}}
        else:
            issue["location"] = {"path": ".", "lines": {"begin": 1}}
        issues.append(issue)
    return json.dumps(issues, indent=2, sort_keys=True) + "\n"
