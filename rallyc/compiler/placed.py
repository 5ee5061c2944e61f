"""A tile on the hex grid (:class:`PlacedTile`), apart from the track's graph: placing a route (and suggesting
its next tile) needs no networkx. :mod:`rallyc.compiler.track` re-exports it."""

from __future__ import annotations

from dataclasses import dataclass, field

from rallyc.diagnostics import Span
from rallyc.model.tiles import TileRole

__all__ = ["PlacedTile"]


@dataclass(frozen=True)
class PlacedTile:
    """A tile on the hex grid: one route step (or a filler / a circuit tile)."""

    step: int
    tile: str
    q: int
    r: int
    rot: int
    #: index (1-based) of the tile's road driven at this step, None for scenery
    road: int | None
    #: world edges where the road enters and leaves this tile (None for scenery / dead ends)
    entry: str | None
    exit: str | None
    scenery: bool = False
    span: Span | None = field(default=None, compare=False)
    #: the tile's roles (start, finish, Assistance), from its definition in the tileset
    roles: frozenset[TileRole] = frozenset()
