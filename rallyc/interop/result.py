"""What an import produces: the route steps found on the grid and the design written from them.

Shared by the route importer (:mod:`rallyc.interop.importer`), the junction and area importer
(:mod:`rallyc.interop.areaimport`) and the RX importer (:mod:`rallyc.interop.rximport`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rallyc.diagnostics import Diagnostic, Span
from rallyc.compiler.roads import driven_entry, driven_exit
from rallyc.interop.model import TileRecord, TrackFile
from rallyc.syntax import ast
from rallyc.tiles.catalogue import TileInfo

__all__ = ["Drive", "ImportResult", "file_span", "title_of"]


@dataclass(frozen=True)
class Drive:
    """One route step as found on the grid: which tile, which road, which way round."""

    tile: TileRecord
    info: TileInfo
    road: int
    forward: bool

    @property
    def road_def(self) -> ast.RoadDef:
        return self.info.roads[self.road - 1]

    @property
    def exit_world(self) -> str | None:
        return driven_exit(self.road_def, self.forward, self.tile.rot)

    @property
    def entry_world(self) -> str:
        return driven_entry(self.road_def, self.forward, self.tile.rot)


@dataclass
class ImportResult:
    """The design as a document, the route found (empty in the absolute form) and the diagnostics."""

    document: ast.Document
    kind: str
    route: list[Drive] = field(default_factory=list)
    closed: bool = False
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: the RX reading written (RX form), else None
    layout: object | None = None
    #: for each statement of the stage or circuit block, in order: where it comes from in the file
    origins: list[Span | None] = field(default_factory=list)
    #: True when written from the routes through junction tiles (:mod:`rallyc.interop.areaimport`)
    junctions: bool = False


def file_span(track: TrackFile) -> Span | None:
    """Line 1 of the track's file (for what belongs to no tile or token), or None when nothing is located."""
    for t in track.tiles:
        if t.span is not None:
            return Span(t.span.file, 1, 1, 1, 2)
    return None


def title_of(track: TrackFile, fallback: str) -> str:
    """The file's title, or ``fallback`` when it has none."""
    return track.title.strip() or fallback
