"""AST to Track: placement of tiles on the hex grid and the graph of spaces.

Public entry points (owned by the compiler work; see ../shared/DESIGN.md):

- ``compile_loaded(loaded) -> CompileResult``: every design of a loaded file,
  compiled, with all diagnostics (names, geometry, route, RX, inventory, tokens).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rallyc.compiler.track import PlacedTile, Space, Track
from rallyc.diagnostics import Diagnostic

__all__ = ["CompileResult", "Design", "compile_loaded", "Track", "Space", "PlacedTile"]


@dataclass
class Design:
    """A compiled rally, one-off stage or circuit."""

    #: ``rally``, ``stage`` or ``circuit``
    kind: str
    title: str
    author: str | None
    #: the stages in driving order (a circuit or a one-off stage has one)
    tracks: list[Track]
    options: dict[str, str | int | None] = field(default_factory=dict)
    meta: dict[str, str] = field(default_factory=dict)

    def track(self, name: str | None = None) -> Track:
        """The stage with this name (the first when None)."""
        if name is None:
            return self.tracks[0]
        for t in self.tracks:
            if t.name == name:
                return t
        raise KeyError(name)


@dataclass
class CompileResult:
    designs: list[Design]
    diagnostics: list[Diagnostic]


def compile_loaded(loaded) -> CompileResult:
    """Compile every design of a loaded file (placeholder until the compiler lands: no designs)."""
    return CompileResult([], [])
