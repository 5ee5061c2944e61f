"""The registry of diagnostic codes: what each means, an example and the fix.

Each code is a symbol declared once in :mod:`rallyc.model.codes` (code, severity, summary, rule IDs,
whether it stops compilation); an entry here adds what ``rallyc explain`` prints about it. Codes are stable. Ranges: RC1xx syntax, includes and names; RC2xx geometry
(placement on the grid); RC3xx route (start, finish, reachability, guidelines);
RC4xx RX circuits; RC5xx inventory (boxes and copies); RC6xx road-effect tokens.
Each range lives in its own module; this package gathers them.

Every code carries an example that really shows it (``tests/test_explain_examples.py``
runs each one). What the example is depends on ``example_kind``:

- ``rally``: a complete rallyc file; ``rallyc check example.rally`` reports the code.
- ``files``: several files, ``{path: text}``; ``rallyc check`` on the first reports it.
- ``json``: a Rekee editor track file; ``rallyc import track.json`` reports it.
- ``export``: a rallyc file; ``rallyc export example.rally --to rgt`` reports it.
- ``api``: a rallyc file; the Python API ``rallyc.load("example.rally")`` raises it.
- ``shell``: the files a command needs, described in words (a missing, huge or binary
  file); ``command`` is the command line.
- ``internal``: a bug in rallyc itself; no input is known to cause it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from importlib import import_module

from rallyc.model.codes import Code

__all__ = ["CodeInfo", "EXAMPLE_KINDS", "all_codes", "get"]


@dataclass(frozen=True)
class CodeInfo:
    """What ``rallyc explain CODE`` prints."""

    #: the symbol (:mod:`rallyc.model.codes`): its text, severity, summary and rule IDs
    code: Code
    explanation: str
    #: the example's text, or ``{path: text}`` for ``example_kind="files"``
    example: str | Mapping[str, str]
    fix: str
    #: what ``example`` is: one of :data:`EXAMPLE_KINDS`
    example_kind: str = "rally"
    #: the command that shows the code on the example; empty: the kind's usual command
    command: str = ""

    @property
    def severity(self) -> str:
        """``error``, ``warning`` or ``note``, as declared with the code."""
        return self.code.severity.value

    @property
    def summary(self) -> str:
        """What the code means in a few words, as declared with the code."""
        return self.code.summary

    @property
    def rules(self) -> tuple[str, ...]:
        """The rule IDs the code enforces, as declared with the code."""
        return self.code.rules

    def example_files(self) -> dict[str, str]:
        """The files of the example by path (empty for ``shell`` and ``internal``)."""
        if isinstance(self.example, Mapping):
            return dict(self.example)
        name = _EXAMPLE_FILE.get(self.example_kind)
        return {name: self.example} if name else {}

    def example_command(self) -> str:
        """The command line (or Python call) that shows the code on the example; empty for ``internal``."""
        if self.command or self.example_kind in ("shell", "internal"):
            return self.command
        first = next(iter(self.example_files()), "")
        return {
            "rally": f"rallyc check {first}",
            "files": f"rallyc check {first}",
            "json": f"rallyc import {first}",
            "export": f"rallyc export {first} --to rgt",
            "api": f'python -c \'import rallyc; rallyc.load("{first}")\'',
        }[self.example_kind]


#: the kinds of example a code can have (see the module docstring)
EXAMPLE_KINDS = ("rally", "files", "json", "export", "api", "shell", "internal")
_EXAMPLE_FILE = {"rally": "example.rally", "json": "track.json", "export": "example.rally", "api": "example.rally"}


_MODULES = ("syntax", "tiles", "geometry", "route", "rx", "inventory", "tokens", "interop", "areas", "options")


def all_codes() -> dict[str, CodeInfo]:
    """Every registered code, sorted by code."""
    out: dict[str, CodeInfo] = {}
    for name in _MODULES:
        try:
            module = import_module(f"rallyc.codes.{name}")
        except ModuleNotFoundError as e:  # a range with no codes yet
            if e.name == f"rallyc.codes.{name}":
                continue
            raise
        for info in module.CODES:
            out[info.code] = info
    return dict(sorted(out.items()))


def get(code: str) -> CodeInfo | None:
    """The registered code, or None."""
    return all_codes().get(code.upper())
