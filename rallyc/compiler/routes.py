"""Every start-to-finish route over tiles laid on the grid, through junction tiles.

Tiles are *laid* (a cell and a rotation each), not driven: a road tile with
one road is driven along it, a junction tile (a Y junction 415, a fork 402-409)
has two ways on from whichever edge a car enters, and a route takes one of
them. A route starts on a start tile (:attr:`TileRole.START`, a printed start
line: 202, 301, 102 in the bundled boxes) driven the printed way (backwards
only when no route leaves it the printed way), takes one road at each junction,
reaches a finish tile (:attr:`TileRole.FINISH`) and goes on while there is one
way on (the Assistance area after the finish), never entering a tile twice.

The importer (``rallyc.interop``) and rally areas (:mod:`rallyc.compiler.area`)
both use :func:`find_routes`; a route's ``choices`` are the junctions where it
had two ways on and the turn word (left, right, straight) of the one it took.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from rallyc.compiler.roads import driven_entry, driven_exit, driven_turn
from rallyc.geometry.hexgrid import Hex, neighbour, opposite, world_to_own
from rallyc.model.tiles import TileRole
from rallyc.syntax import ast
from rallyc.tiles.catalogue import TileInfo

__all__ = ["Laid", "Drive", "Route", "find_routes", "turn_word", "MAX_ROUTES"]

#: routes searched at most (an area of a club has a handful; a maze of junctions stops here)
MAX_ROUTES = 64


@dataclass(frozen=True)
class Laid:
    """A tile laid on the grid: ``key`` says which (an area line number, a file's tile index)."""

    key: int
    info: TileInfo
    cell: Hex
    rot: int

    @property
    def number(self) -> str:
        return self.info.id[:3]

    @property
    def is_start(self) -> bool:
        return TileRole.START in self.info.roles

    @property
    def is_finish(self) -> bool:
        return TileRole.FINISH in self.info.roles


@dataclass(frozen=True)
class Drive:
    """One road of a laid tile, driven one way."""

    tile: Laid
    road: int
    forward: bool

    @property
    def road_def(self) -> ast.RoadDef:
        return self.tile.info.roads[self.road - 1]

    @property
    def entry_world(self) -> str:
        return driven_entry(self.road_def, self.forward, self.tile.rot)

    @property
    def exit_world(self) -> str | None:
        return driven_exit(self.road_def, self.forward, self.tile.rot)

    @property
    def turn(self) -> str:
        return driven_turn(self.road_def, self.forward)


def turn_word(turn: str) -> str:
    """The word a stage writes for a driven turn: ``left``, ``right`` or ``straight``."""
    if turn.startswith("left"):
        return "left"
    if turn.startswith("right"):
        return "right"
    return "straight"


@dataclass(frozen=True)
class Route:
    """A start-to-finish route: its drives in order and the road taken at each junction."""

    drives: tuple[Drive, ...]
    #: (key of the junction tile, turn word taken) wherever the route had two or more ways on
    choices: tuple[tuple[int, str], ...]

    @property
    def start(self) -> int:
        return self.drives[0].tile.key

    def choice_at(self, key: int) -> str | None:
        """The turn word taken at junction ``key`` (None when the route has no choice there)."""
        return next((w for k, w in self.choices if k == key), None)

    def keys(self) -> list[int]:
        return [d.tile.key for d in self.drives]


def _ways_in(tile: Laid, world_in: str) -> list[Drive]:
    """The drives of ``tile`` that enter by its world edge ``world_in``."""
    own = world_to_own(world_in, tile.rot)
    out = []
    for n, rd in enumerate(tile.info.roads, start=1):
        if rd.entry == own:
            out.append(Drive(tile, n, True))
        if rd.exit == own:
            out.append(Drive(tile, n, False))
    return out


def _starts(tile: Laid, forward: bool) -> list[Drive]:
    out = []
    for n, rd in enumerate(tile.info.roads, start=1):
        if forward or rd.exit != "end":
            out.append(Drive(tile, n, forward))
    return out


def find_routes(tiles: Sequence[Laid], limit: int = MAX_ROUTES) -> tuple[list[Route], bool]:
    """Every route from a start tile to a finish tile over ``tiles``; (routes, stopped at ``limit``).

    Routes come in a fixed order: by start tile (in ``tiles`` order), then depth first with the
    ways on at each junction in road order.
    """
    by_cell: dict[Hex, Laid] = {}
    for t in tiles:
        by_cell.setdefault(t.cell, t)
    routes: list[Route] = []
    for start in tiles:
        if not start.is_start or by_cell.get(start.cell) is not start:
            continue
        for forward in (True, False):
            found = _search(start, forward, by_cell, routes, limit)
            if found or len(routes) >= limit:
                break
        if len(routes) >= limit:
            return routes, True
    return routes, False


def _search(start: Laid, forward: bool, by_cell: dict[Hex, Laid], routes: list[Route], limit: int) -> bool:
    """Depth-first search from ``start``; appends to ``routes``; True when one was found."""
    found = False
    # (drives, choices, finished)
    stack: list[tuple[tuple[Drive, ...], tuple[tuple[int, str], ...], bool]] = [
        ((d,), (), False) for d in reversed(_starts(start, forward))]
    while stack:
        drives, choices, finished = stack.pop()
        cur = drives[-1]
        ways: list[Drive] = []
        out = cur.exit_world
        nxt = by_cell.get(neighbour(cur.tile.cell, out)) if out is not None else None
        if nxt is not None and out is not None and all(d.tile.cell != nxt.cell for d in drives):
            ways = _ways_in(nxt, opposite(out))
            if nxt.is_start:
                ways = []  # a route never crosses another start line
            elif finished and (len(ways) != 1 or nxt.is_finish):
                ways = []  # after the finish: on while there is one way on
        if not ways:
            if finished:
                routes.append(Route(drives, choices))
                found = True
                if len(routes) >= limit:
                    return True
            continue
        for d in reversed(ways):
            more = choices + ((d.tile.key, turn_word(d.turn)),) if len(ways) > 1 else choices
            stack.append((drives + (d,), more, finished or d.tile.is_finish))
    return found
