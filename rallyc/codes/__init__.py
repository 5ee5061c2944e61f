"""The registry of diagnostic codes: what each means, an example and the fix.

Codes are stable. Ranges: RC1xx syntax, includes and names; RC2xx geometry
(placement on the grid); RC3xx route (start, finish, reachability, guidelines);
RC4xx RX circuits; RC5xx inventory (boxes and copies); RC6xx road-effect tokens.
Each range lives in its own module; this package gathers them.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module

__all__ = ["CodeInfo", "all_codes", "get"]


@dataclass(frozen=True)
class CodeInfo:
    """What ``rallyc explain CODE`` prints."""

    code: str
    severity: str
    summary: str
    explanation: str
    example: str
    fix: str
    rules: tuple[str, ...] = ()


_MODULES = ("syntax", "geometry", "route", "rx", "inventory", "tokens", "interop")


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
