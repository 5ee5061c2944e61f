"""Which spaces of a fork tile's roads are another road's spaces, in the tile's own terms.

A fork or Y tile (RX 402-409, 415; GT 151, 152) is written as several roads sharing edges, each with all
its zones, but where two roads lie on the same stretch of road they are the same spaces: the map draws
them once (:mod:`rallyc.render.forks`, on the compiled graph's spaces) and the track files put a token for
such a space where the map draws it (:mod:`rallyc.interop.roadgeom`). The rules, in the order the roads are
written (a later road takes the places of an earlier one):

- at an edge that an earlier road also uses, the zones from that edge are that road's zones: up to the
  ``merge`` zone onto a main road, the ``half`` zone two branches share, else the one zone at the edge;
  lane for lane (``l`` is ``l`` when both roads run the same way there, else ``r``);
- a ``wide`` zone of a later road lying on a lane space of an earlier road with the same speed limit is
  that lane space (407a/409a: road 3's second ``wide limit 2`` is road 1's limit-2 inner lane).

:func:`shared_spaces` gives, for each such space (road, zone, lane as written), the space it is, after
following chains (a space that is a space that is another road's).
"""

from __future__ import annotations

from dataclasses import dataclass

from rallyc.geometry.tile import lane_strip
from rallyc.syntax import ast
from rallyc.tiles.shape import is_fork, tile_road

__all__ = ["SharedSpace", "shared_spaces", "shared_run", "lane_names", "zone_kinds"]

_SWAP = {"l": "r", "r": "l", "ml": "mr", "mr": "ml"}

#: (road, zone, lane) as written: road and zone 1-based, lane a name (``l``, ``m``, ``r``...) or None for a
#: space across the whole zone
SpaceKey = tuple[int, int, "str | None"]


@dataclass(frozen=True)
class SharedSpace:
    """The space another road's space is: road, zone and lane as written, and whether the two roads run
    the same way there (as written)."""

    road: int
    zone: int
    lane: str | None
    same_way: bool


def lane_names(count: int) -> tuple[str, ...] | None:
    """The lane names of a zone of ``count`` lane spaces, left to right (None for other counts)."""
    return {2: ("l", "r"), 3: ("l", "m", "r"), 4: ("l", "ml", "mr", "r")}.get(count)


def zone_kinds(road: ast.RoadDef) -> list[str]:
    """The zones of a road as written: ``merge`` for a merge zone, else the zone's kind."""
    return ["merge" if z.merge else z.kind for z in road.zones]


def _lanes_of(road: ast.RoadDef, zone: ast.Zone | ast.Corner) -> tuple[str, ...]:
    """The lane (or half-line) spaces across a zone, left to right as written (none for whole-zone spaces)."""
    if isinstance(zone, ast.Corner):
        return ()
    if zone.kind == "half":
        return ("l", "r")
    if zone.kind in ("plain", "slide"):
        return lane_names(zone.lanes or road.lanes or 2) or ()
    return ()


def _from_end(road: ast.RoadDef, edge: str) -> list[int]:
    n = len(road.zones)
    return list(range(1, n + 1)) if edge == road.entry else list(range(n, 0, -1))


def shared_run(mine: list[str], theirs: list[str]) -> int:
    """How many zones from a common edge two roads of a fork share: the same spaces on both (``mine`` and
    ``theirs``: each road's zone kinds counted from that edge). The map lays them once
    (:mod:`rallyc.render.forks`)."""
    if not mine or not theirs:
        return 0
    if mine[0] == "half" or theirs[0] == "half":
        if mine[0] != theirs[0]:
            return 0
        n = 0
        while n < min(len(mine), len(theirs)) and mine[n] == theirs[n] == "half":
            n += 1
        return n
    if "merge" in mine and "half" not in theirs:
        return mine.index("merge") + 1
    if "merge" in theirs and "half" not in mine:
        return theirs.index("merge") + 1
    return 1


def shared_spaces(tile: ast.TileDef) -> dict[SpaceKey, SharedSpace]:
    """Each space of a fork tile that is another road's space (see the module), keyed as written."""
    if not is_fork(tile):
        return {}
    roads = tile.roads
    out: dict[SpaceKey, SharedSpace] = {}

    def resolve(key: SpaceKey, same_way: bool) -> SharedSpace:
        found = out.get(key)
        if found is None:
            return SharedSpace(key[0], key[1], key[2], same_way)
        return SharedSpace(found.road, found.zone, found.lane, found.same_way == same_way)

    for k, road in enumerate(roads, start=1):
        kinds = zone_kinds(road)
        for edge in (road.entry, road.exit):
            if edge == "end":
                continue
            for j, other in enumerate(roads[:k - 1], start=1):
                if edge not in (other.entry, other.exit):
                    continue
                mine, theirs = _from_end(road, edge), _from_end(other, edge)
                their_kinds = zone_kinds(other)
                run = shared_run([kinds[z - 1] for z in mine], [their_kinds[z - 1] for z in theirs])
                if not run:
                    continue
                same_way = (edge == road.entry) == (edge == other.entry)
                for i in range(run):
                    names = _lanes_of(road, road.zones[mine[i] - 1])
                    targets = _lanes_of(other, other.zones[theirs[i] - 1])
                    for name in names:
                        target = name if same_way else _SWAP.get(name, name)
                        if (k, mine[i], name) not in out and target in targets:
                            out[(k, mine[i], name)] = resolve((j, theirs[i], target), same_way)
                break
        _by_position(tile, k, out, resolve)
    return out


def _by_position(tile: ast.TileDef, k: int, out: dict[SpaceKey, SharedSpace], resolve) -> None:
    """A ``wide`` zone of road ``k`` lying on an earlier road's lane space of the same limit is that space."""
    road = tile.roads[k - 1]
    laid = tile_road(tile, k)
    for z, zone in enumerate(road.zones, start=1):
        if zone.kind != "wide" or (k, z, None) in out or not zone.limits or zone.limits[0] is None:
            continue
        limit = zone.limits[0]
        t0, t1 = laid.bounds[z - 1], laid.bounds[z]
        centre = laid.line.at((t0 + t1) / 2, 0.0)
        best: tuple[float, SpaceKey, bool] | None = None
        for j in range(1, k):
            other = tile.roads[j - 1]
            theirs = tile_road(tile, j)
            for z2, zone2 in enumerate(other.zones, start=1):
                names = _lanes_of(other, zone2)
                if not names or zone2.kind == "half" or not isinstance(zone2, ast.Zone):
                    continue
                a, b = theirs.bounds[z2 - 1], theirs.bounds[z2]
                for i, name in enumerate(names):
                    lim = zone2.limits[i] if zone2.limits and i < len(zone2.limits) else None
                    if lim != limit:
                        continue
                    u0, u1 = lane_strip(theirs.width, i, len(names))
                    spot = theirs.line.at((a + b) / 2, (u0 + u1) / 2)
                    # the lane's middle on the wide zone, or the wide zone's middle on the lane
                    _, t, u = laid.line.nearest(spot)
                    on_wide = t0 <= t <= t1 and abs(u) <= laid.width / 2
                    _, t2, v = theirs.line.nearest(centre)
                    on_lane = a <= t2 <= b and min(u0, u1) <= v <= max(u0, u1)
                    if not (on_wide or on_lane):
                        continue
                    d = (spot[0] - centre[0]) ** 2 + (spot[1] - centre[1]) ** 2
                    if best is None or d < best[0]:
                        tx, ty = laid.line.tangent((t0 + t1) / 2)
                        sx, sy = theirs.line.tangent((a + b) / 2)
                        best = (d, (j, z2, name), tx * sx + ty * sy > 0)
        if best is not None:
            out[(k, z, None)] = resolve(best[1], best[2])

