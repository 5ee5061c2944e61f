"""rallyc: Rallyman: DIRT tracks as code.

A text language for tiles, stages, rallies and RX circuits; a compiler to a
graph of every space a car can drive; a rules referee for recorded games; and
printable SVG maps.

    >>> import rallyc
    >>> design = rallyc.load("examples/rally-1.rally")      # doctest: +SKIP
    >>> track = design.track("SS1")                          # doctest: +SKIP
"""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["load", "__version__"]


def load(path, stage: str | None = None):
    """Load and compile a track file: the first design (rally, stage or circuit) it defines.

    With ``stage``, the design that holds a stage of that name, with only that
    stage in its ``tracks``. Raises :class:`rallyc.diagnostics.DiagnosticError`
    carrying the diagnostics when the file has errors (warnings are allowed),
    and ``KeyError`` when no stage has that name.
    """
    from dataclasses import replace

    from rallyc.compiler import compile_loaded
    from rallyc.diagnostics import Diagnostic, DiagnosticError, has_errors
    from rallyc.project import load as load_project

    loaded = load_project(path)
    result = compile_loaded(loaded)
    if has_errors(result.diagnostics):
        raise DiagnosticError([d for d in result.diagnostics if d.severity.value == "error"])
    if not result.designs:
        raise DiagnosticError([Diagnostic.error("RC312", f"{path} defines no stage, rally or circuit", None,
                                                "pass the file that holds the design")])
    if stage is None:
        return result.designs[0]
    for design in result.designs:
        for track in design.tracks:
            if track.name == stage:
                return replace(design, tracks=[track])
    raise KeyError(stage)
