"""What compiling a file gives: its designs (rallies, one-off stages, circuits) with their tracks."""

from __future__ import annotations

from dataclasses import dataclass, field

from rallyc.compiler.flipper import Flipper
from rallyc.compiler.track import PlacedTile, Track
from rallyc.diagnostics import Diagnostic
from rallyc.syntax import ast
from rallyc.tiles.catalogue import Catalogue

__all__ = ["Design", "AreaDesign", "CompileResult"]


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
    #: per stage name: (the stage's AST, the tile catalogue), to recompile it with tiles flipped
    sources: dict[str, tuple[ast.Stage, Catalogue]] = field(default_factory=dict, repr=False, compare=False)

    def flipper(self, name: str | None = None) -> Flipper | None:
        """What recompiling the stage ``name`` (the first when None) with flipped tiles needs; None when
        the stage was not compiled from a route (circuits) or the design was built by hand."""
        track = self.track(name)
        src = self.sources.get(track.name)
        return Flipper(*src) if src is not None else None

    def track(self, name: str | None = None) -> Track:
        """The stage with this name (the first when None)."""
        if name is None:
            return self.tracks[0]
        for t in self.tracks:
            if t.name == name:
                return t
        raise KeyError(name)


@dataclass
class AreaDesign:
    """A rally area: its tiles (laid once) and the stages that run over it, each with its route."""

    title: str
    author: str | None
    #: every tile of the area (road tiles with no road driven, then scenery)
    placed: list[PlacedTile]
    #: stage name -> the steps of its route, as area tile numbers in driving order
    routes: dict[str, list[int]] = field(default_factory=dict)
    #: stage name -> its compiled track
    tracks: dict[str, Track] = field(default_factory=dict)


@dataclass
class CompileResult:
    """Every design of a file and every diagnostic found compiling it, in the order found."""

    designs: list[Design]
    diagnostics: list[Diagnostic]
    #: the rally areas of the file (and of the files it uses), in file order
    areas: list[AreaDesign] = field(default_factory=list)
