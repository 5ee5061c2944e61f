"""The shape of a tile's roads, read from its definition, for the one model of where spaces lie.

:mod:`rallyc.geometry.tile` draws a road from its edges and a :class:`RoadForm`; this module
says which form a road of a tile has (an S-bend's side, a double hairpin, two roads side by side)
and lays a road of a tile out in the tile's own frame, so the maps (which read the form here and
the spaces from the compiled graph) and the track files (which place tokens on a tile's spaces,
:mod:`rallyc.interop.roadgeom`) put every space in the same place.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rallyc.geometry.hexgrid import edge_index
from rallyc.geometry.tile import Centreline, HexLayout, RoadForm, road_width, zone_bounds, zone_weight
from rallyc.syntax import ast

__all__ = ["road_form", "side_by_side", "is_fork", "crossing_roads", "checkered_lines", "TileRoad", "tile_road",
           "UNIT"]

#: the tile's own frame: circumradius 1, flat top, own edge A up, centre at the origin
UNIT = HexLayout(1.0)


def side_by_side(tile: ast.TileDef) -> bool:
    """True for tiles with several roads that share no edge (drawn as parallel roads, e.g. 414)."""
    if len(tile.roads) < 2:
        return False
    ends = [e for road in tile.roads for e in (road.entry, road.exit) if e != "end"]
    return len(ends) == len(set(ends))


def is_fork(tile: ast.TileDef) -> bool:
    """True for a fork or Y tile: several roads sharing edges (drawn as one road surface)."""
    return len(tile.roads) > 1 and not side_by_side(tile)


def crossing_roads(tile: ast.TileDef) -> frozenset[tuple[int, int]]:
    """The pairs of roads (1-based, lower first) of a tile whose roads share no edge and whose centrelines cross:
    one road runs over the other (the Monte-Carlo bridge, MC-BRIDGE-01; GT sides whose two roads the catalogue
    gives as crossing), so their spaces lie over each other where they cross."""
    if not side_by_side(tile):
        return frozenset()
    lines = [tile_road(tile, n).line for n in range(1, len(tile.roads) + 1)]
    found = set()
    for i in range(len(lines)):
        for j in range(i + 1, len(lines)):
            if _polylines_cross(lines[i].points(64), lines[j].points(64)):
                found.add((i + 1, j + 1))
    return frozenset(found)


def _polylines_cross(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> bool:
    def orient(p, q, r) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    for p, q in zip(a, a[1:]):
        for r, s in zip(b, b[1:]):
            if (orient(r, s, p) > 0) != (orient(r, s, q) > 0) and (orient(p, q, r) > 0) != (orient(p, q, s) > 0):
                return True
    return False


def road_form(tile: ast.TileDef, road: ast.RoadDef, reversed_: bool, opposite: bool, cornered: bool) -> RoadForm:
    """How ``road`` of ``tile`` bends, driven reversed or not: ``opposite`` when it runs between opposite
    edges, ``cornered`` when it has corner (or limited) spaces."""
    bulge, waves, tight = 0, 1, False
    if road.turn in ("s-bend", "other") and opposite and cornered:
        # an S-bend that swings left first has a right-hander in its middle; the tile says which way its
        # (first) corner turns (`corner right ...`), else a right-hander is assumed; a double hairpin
        # ("other") swings back the other way too
        sides = [i.side for i in road.items if isinstance(i, ast.Corner) and i.side]
        described = -1 if sides and sides[0] == "left" else 1
        bulge = -described if reversed_ else described
        if road.turn == "other":
            waves = 2
        # a corner of limit 1-2 (214) swings deeper than a shallow bulge (226, 411)
        tight = any(i.inside and min(i.inside) <= 2 for i in road.items if isinstance(i, ast.Corner))
    return RoadForm(bulge, waves, side_by_side(tile), tight)


def checkered_lines(road: ast.RoadDef) -> list[int]:
    """Where the road prints a checkered line (401a/b): the number of zones before each, as written."""
    out: list[int] = []
    zones = 0
    for item in road.items:
        if isinstance(item, (ast.Zone, ast.Corner)):
            zones += 1
        elif isinstance(item, ast.Line) and item.kind == "checkered":
            out.append(zones)
    return out


@dataclass(frozen=True)
class TileRoad:
    """One road of a tile laid out in the tile's own frame (:data:`UNIT`), in its written direction."""

    line: Centreline
    #: fraction of the length at each zone boundary (zone k spans bounds[k-1]..bounds[k])
    bounds: tuple[float, ...]
    width: float
    #: lane spaces of each zone (0 where the zone has none: corners, wide, half, junction, service)
    lanes: tuple[int, ...]

    @property
    def zones(self) -> int:
        return len(self.bounds) - 1


def tile_road(tile: ast.TileDef, number: int) -> TileRoad:
    """Road ``number`` (1-based) of ``tile`` in the tile's own frame, as written."""
    road = tile.roads[number - 1]
    entry = edge_index(road.entry)
    exit_ = None if road.exit == "end" else edge_index(road.exit)
    opposite = exit_ is not None and (exit_ - entry) % 6 == 3
    zones = road.zones
    cornered = any(isinstance(z, ast.Corner) for z in zones)
    form = road_form(tile, road, False, opposite, cornered)
    weights: list[float] = []
    lanes: list[int] = []
    # strips across the road in each zone, as the compiled graph has them (lane and half spaces; a
    # `limited` section's spaces are lane spaces)
    across = 0
    for z in zones:
        if isinstance(z, ast.Corner):
            weights.append(zone_weight(len(z.inside), len(z.outside)))
            lanes.append(0)
            if z.kind == "limited":
                across = max(across, len(z.inside) + len(z.outside))
            continue
        weights.append(zone_weight(0, 0))
        n = (z.lanes or road.lanes or 2) if z.kind in ("plain", "slide") else 0
        lanes.append(n)
        # a `merge` zone of a fork branch has one space (the main road's, on the junction side)
        across = max(across, 2 if z.kind == "half" else (min(n, 1) if z.merge else n))
    return _laid(entry, exit_, form, tuple(weights), across, tuple(lanes))


@lru_cache(maxsize=1024)
def _laid(entry: int, exit_: int | None, form: RoadForm, weights: tuple[float, ...], across: int,
          lanes: tuple[int, ...]) -> TileRoad:
    line = Centreline.of(UNIT, 0, 0, entry, exit_, form)
    return TileRoad(line, tuple(zone_bounds(weights)), road_width(across, UNIT.size), lanes)
