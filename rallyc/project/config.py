"""Project settings, like ruff's: ``rallyc.toml`` or ``[tool.rallyc]`` in ``pyproject.toml``.

The settings of a checked file come from the nearest folder, from the file's own folder upward, that
has a ``rallyc.toml`` (top-level keys) or a ``pyproject.toml`` with a ``[tool.rallyc]`` table; in one
folder ``rallyc.toml`` wins. Keys:

- ``select``: codes (``RC604``) or code prefixes (``RC6``, ``RC``) to report; default every code.
- ``ignore``: codes or prefixes not to report, applied after ``select``.
- ``boxes``: the boxes the designer owns, for files without a ``boxes`` line (limits tile copies).

A line of a track file that ends with ``# rallyc: ignore[RC604]`` (several codes: ``[RC604, RC302]``)
suppresses those codes on that line; ``# rallyc: ignore`` alone suppresses every code on it.

Errors (:data:`ALWAYS_REPORTED`) are never suppressed, by any of these: a file with an error is not compiled
(``rallyc compile`` writes nothing, the referee refuses it), so hiding one would let CI pass a track that
cannot be played. Settings that try to are answered with a warning (:func:`unignorable_settings`,
:func:`unignorable_inline`); the error is still reported and the check still fails.

Reading a settings file never raises anything but :class:`ConfigError`, which names the file, the
line when known, and what is wrong.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from rallyc.diagnostics import Diagnostic, Sources
from rallyc.model import codes as rc

__all__ = ["Config", "ConfigError", "ALWAYS_REPORTED", "find_config", "load_config", "code_filter",
           "suppressed_on_line", "filter_diagnostics", "unignorable_settings", "unignorable_inline"]

#: every error code (those that stop compilation, RC100 an internal error, and every other error): never
#: selected away or ignored. A design with an error is not compiled, so it cannot be played; an ignored
#: one would leave a track that cannot be played, or a file that was never checked, looking clean.
ALWAYS_REPORTED: frozenset[str] = frozenset(c for c in rc.CODES.values() if c.severity is rc.Severity.ERROR)

_CODE = re.compile(r"RC\d{0,3}")
_INLINE = re.compile(r"#\s*rallyc:\s*ignore(?:\[([^\]]*)\])?", re.IGNORECASE)
_KEYS = ("select", "ignore", "boxes")


class ConfigError(Exception):
    """A settings file that cannot be used: the message names the file (and line) and the fix."""


@dataclass(frozen=True)
class Config:
    """The settings in force for a file; the default (no file found) selects every code."""

    #: codes or prefixes to report (empty: every code)
    select: tuple[str, ...] = ()
    #: codes or prefixes not to report
    ignore: tuple[str, ...] = ()
    #: default boxes for files that declare none (None: not limited)
    boxes: tuple[str, ...] | None = None
    #: the file the settings came from (None: defaults)
    path: Path | None = field(default=None, compare=False)

    def with_cli(self, select: Iterable[str] | None = None, ignore: Iterable[str] | None = None) -> "Config":
        """These settings with the command line's: ``--select`` replaces ``select``, ``--ignore`` adds to ``ignore``."""
        sel = _codes(select, "--select") if select else self.select
        ign = self.ignore + (_codes(ignore, "--ignore") if ignore else ())
        return Config(sel, ign, self.boxes, self.path)


def _codes(values: Iterable[str], where: str) -> tuple[str, ...]:
    """Codes from a list whose items may themselves be comma-separated (``--ignore RC302,RC604``)."""
    out: list[str] = []
    for value in values:
        for raw in str(value).split(","):
            code = raw.strip().upper()
            if not code:
                continue
            if code.isdigit():
                code = "RC" + code
            if not _CODE.fullmatch(code):
                raise ConfigError(f"{where}: `{raw.strip()}` is not a code or a code prefix (like RC604 or RC6)")
            out.append(code)
    return tuple(out)


def code_filter(config: Config):
    """A predicate: is a diagnostic code reported under ``config``?"""
    select, ignore = config.select, config.ignore

    def reported(code: str) -> bool:
        if code in ALWAYS_REPORTED:
            return True
        if select and not any(code.startswith(s) for s in select):
            return False
        return not any(code.startswith(i) for i in ignore)

    return reported


def suppressed_on_line(line: str | None, code: str) -> bool:
    """True if a source line carries ``# rallyc: ignore`` (every code) or ``# rallyc: ignore[...]`` naming ``code``."""
    if not line or "rallyc" not in line or code in ALWAYS_REPORTED:
        return False
    return _names(line, code)


def unignorable_settings(config: Config, where: str) -> list[str]:
    """Warnings for settings that try to hide errors: an ``ignore`` entry that covers error codes, a ``select``
    that leaves some out, one line each as printed (``warning: --ignore RC130: errors cannot be ignored; ...``).
    ``where`` is put before the key: ``"--"`` for the command line's options, ``"PATH: "`` for a settings file."""
    out = []
    if config.select:
        left_out = sorted(c for c in ALWAYS_REPORTED if not any(c.startswith(s) for s in config.select))
        if left_out:
            out.append(f"warning: {where}select {','.join(config.select)}: errors cannot be left out; "
                       f"every error ({_some(left_out)}) is still reported")
    for code in config.ignore:
        covered = sorted(c for c in ALWAYS_REPORTED if c.startswith(code))
        if covered:
            out.append(f"warning: {where}ignore {code}: errors cannot be ignored; {_some(covered)} "
                       f"{'is' if len(covered) == 1 else 'are'} still reported")
    return out


def _some(codes: list[str]) -> str:
    """Codes named, the first few of a long list (``RC101, RC102, RC103 and 40 more error codes``)."""
    if len(codes) <= 4:
        return ", ".join(codes)
    return f"{', '.join(codes[:3])} and {len(codes) - 3} more error codes"


def unignorable_inline(diagnostics: Iterable[Diagnostic], sources: Sources) -> list[str]:
    """Warnings, located, for ``# rallyc: ignore`` comments on a line that reports an error they name (or every
    code, the bare form): the error is reported all the same."""
    out = []
    for d in diagnostics:
        if d.code not in ALWAYS_REPORTED or d.span is None:
            continue
        line = sources.line(d.span.file, d.span.line)
        if line and "rallyc" in line and _names(line, d.code):
            out.append(f"{d.span.file}:{d.span.line}:{d.span.column}: warning: `# rallyc: ignore` cannot hide an "
                       f"error; {d.code} is still reported")
    return list(dict.fromkeys(out))


def _names(line: str, code: str) -> bool:
    """True if ``line`` carries ``# rallyc: ignore`` (every code) or ``# rallyc: ignore[...]`` naming ``code``."""
    for m in _INLINE.finditer(line):
        if m.group(1) is None or code in {c.strip().upper() for c in m.group(1).split(",")}:
            return True
    return False


def filter_diagnostics(diagnostics: Iterable[Diagnostic], config: Config, sources: Sources) -> list[Diagnostic]:
    """The diagnostics reported under ``config`` and the inline ``# rallyc: ignore[...]`` comments."""
    reported = code_filter(config)
    out = []
    for d in diagnostics:
        if not reported(d.code):
            continue
        if d.span is not None and suppressed_on_line(sources.line(d.span.file, d.span.line), d.code):
            continue
        out.append(d)
    return out


def find_config(start: Path) -> Path | None:
    """The settings file for ``start`` (a file or folder): the nearest ``rallyc.toml`` or ``pyproject.toml``
    with ``[tool.rallyc]``, from ``start`` upward; None when there is none."""
    start = start.resolve()
    folder = start if start.is_dir() else start.parent
    return _find_from(folder)


def _find_from(folder: Path) -> Path | None:
    for d in (folder, *folder.parents):
        own = d / "rallyc.toml"
        if own.is_file():
            return own
        py = d / "pyproject.toml"
        if py.is_file() and _has_tool_table(py):
            return py
    return None


def _has_tool_table(path: Path) -> bool:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    return re.search(r"^\s*\[\s*tool\s*\.\s*rallyc\s*\]", text, re.M) is not None


def load_config(start: Path | None) -> Config:
    """The settings in force for ``start`` (defaults when ``start`` is None or no settings file is found)."""
    path = find_config(start) if start is not None else None
    return Config() if path is None else read_config(path)


def read_config(path: Path) -> Config:
    """Read one settings file; :class:`ConfigError` (naming the file and line) when it cannot be used."""
    try:
        text = path.read_bytes().decode("utf-8").removeprefix("\ufeff")
        data = tomllib.loads(text)
    except OSError as e:
        raise ConfigError(f"{path}: cannot read: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text; save it as UTF-8") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML: {e}") from None
    table = data.get("tool", {}).get("rallyc", {}) if path.name == "pyproject.toml" else data
    where = f"{path} [tool.rallyc]" if path.name == "pyproject.toml" else str(path)
    if not isinstance(table, dict):
        raise ConfigError(f"{where}: `rallyc` must be a table")
    unknown = sorted(set(table) - set(_KEYS))
    if unknown:
        raise ConfigError(f"{where}: unknown key `{unknown[0]}` (keys: {', '.join(_KEYS)})")
    lists = {}
    for key in _KEYS:
        value = table.get(key)
        if value is None:
            continue
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{where}: `{key}` must be a list of strings, like {key} = [\"RC604\"]"
                              if key != "boxes" else f"{where}: `boxes` must be a list of box names, "
                                                     "like boxes = [\"dirt-core\"]")
        lists[key] = value
    boxes = tuple(lists["boxes"]) if "boxes" in lists else None
    return Config(_codes(lists.get("select", ()), f"{where}: select"),
                  _codes(lists.get("ignore", ()), f"{where}: ignore"), boxes, path)
