"""rallyc: Rallyman: DIRT tracks as code.

A text language for tiles, stages, rallies and RX circuits; a compiler to a
graph of every space a car can drive; a rules referee for recorded games; and
printable SVG maps.

    >>> import rallyc
    >>> design = rallyc.load("examples/rally-1.rally")      # doctest: +SKIP
    >>> track = design.track("SS1")                          # doctest: +SKIP
    >>> rallyc.check(["examples/"]).ok                       # doctest: +SKIP
    True

The functions are those of :mod:`rallyc.api` (check, compile, format, load, import_track, export,
replay), loaded on first use so that ``import rallyc`` (and ``rallyc --version``) stays cheap.
"""

from __future__ import annotations

__version__ = "0.1.0"

#: the library API, re-exported from :mod:`rallyc.api`
API = ("check", "compile", "format", "load", "import_track", "export", "replay", "CheckResult", "Compilation")

__all__ = ["__version__", *API]


def __getattr__(name: str):
    if name in API:
        # start-up (PEP 562): the API module, and through it the compiler, only when one of its names is used
        from rallyc import api

        return getattr(api, name)
    raise AttributeError(f"module 'rallyc' has no attribute {name!r}")
