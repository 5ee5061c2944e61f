"""The spaces of a fork or Y tile (RX 402-409, 415) laid as one partition of its road surface.

Each road of a fork tile is drawn along its own centreline (:mod:`rallyc.render.shapes`), so where
two roads share a stretch of road their bands lie over each other. The compiled graph says which
spaces are the same: on a circuit a branch's zones from the loop up to its ``merge`` zone *are* the
loop's spaces (:mod:`rallyc.compiler.circuit`), and the branch's own zones are numbered after the
loop road's. This module puts every space of a fork tile in one place, none over another:

- a road's zones at an edge that a road laid before it also uses (``rallyc tiles show`` builds every
  road on its own, so both have spaces there) take that road's outlines: from the edge up to the
  ``merge`` zone onto a main road, the half-line zone shared by two branches, the one zone of an arm
  of a Y;
- a branch's half-line spaces run from their edge to the kerb of the road(s) laid without a half-line
  zone (the main road), where the speed-limit lines are: never onto it;
- the centre of a Y (415) is cut into one space per road from the middle of each arm's cross line to
  the tile centre (top, lower left, lower right as printed), each bounded by its road's inside kerb;
- a full-width (``wide``) space of a later road that lies on a lane space of a road laid before it, with
  the same speed limit, is that space (407a/409a write their junction as roads sharing spaces by position:
  road 3's ``wide limit 2`` after the C edge is road 1's limit-2 inner lane, ``X(2)`` of the layout notes);
- a plain fork (GT 151, 152: a straight main road and two links from a third edge, plain zones only) drawn
  with its main road and one or both links lays its links' own spaces beside the main road as
  :mod:`rallyc.tiles.fan` says, in the tile's place on the page (a cell that draws one road, as a stage
  drives one, keeps that road's own band).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from rallyc.compiler.track import Space, Track
from rallyc.geometry.hexgrid import edge_index, own_to_world
from rallyc.geometry.tile import Centreline, HexLayout, Point, lane_strip
from rallyc.render.geometry import point_in_polygon, polygon_centroid
from rallyc.render.outlines import RoadShape, SpaceShape
from rallyc.tiles.catalogue import TileInfo
from rallyc.tiles.fan import fan_places, plain_fork
from rallyc.tiles.shape import tile_road
from rallyc.tiles.sharing import shared_run

__all__ = ["ForkArm", "fork_kinds", "branch_zones", "lay_fork"]

_LANES = {"l": 0, "ml": 1, "m": 2, "mr": 3, "r": 4}
_SWAP = {"l": "r", "r": "l", "ml": "mr", "mr": "ml", "s1": "s2", "s2": "s1"}


@dataclass
class ForkArm:
    """One road of a fork tile as drawn, with its spaces (graph space, drawn shape)."""

    road: RoadShape
    spaces: list[tuple[Space, SpaceShape]]


def fork_kinds(road_def, reversed_: bool) -> tuple[str, ...]:
    """The zones of a tile's road as driven: ``merge`` for a merge zone, else the zone's kind."""
    kinds = [("merge" if getattr(z, "merge", False) else z.kind) for z in road_def.zones]
    return tuple(reversed(kinds) if reversed_ else kinds)


def branch_zones(track: Track, group: Sequence[Space], described: int) -> dict[int, int]:
    """Graph zone -> zone as driven, for a fork road whose graph zones are numbered after the loop road's
    (its own zones only: the others are the loop's spaces). Empty when the zones are the road's own."""
    own = sorted({s.zone for s in group if s.zone is not None})
    if not own or own[-1] <= described or len(own) > described:
        return {}
    # the zones shared with the loop come after the own ones when the last own zone leads into another
    # road's space of the same step (the branch joins the loop), else before (it leaves the loop)
    last = [s.id for s in group if s.zone == own[-1]]
    roads = {s.road for s in group}
    joins = any(track.spaces[n].step == group[0].step and track.spaces[n].road not in roads
                for sid in last for n in track.graph.successors(sid) if n in track.spaces)
    first = 1 if joins else described - len(own) + 1
    return {z: first + i for i, z in enumerate(own)}


def _driven(road: RoadShape, space: Space) -> int | None:
    return None if space.zone is None else road.zone_map.get(space.zone, space.zone)


def _from_end(road: RoadShape, edge: int) -> list[int]:
    """The zones (as driven, 1-based) counted from the road's end at world edge ``edge``."""
    n = len(road.kinds)
    return list(range(1, n + 1)) if edge == road.entry else list(range(n, 0, -1))


def lay_fork(arms: list[ForkArm], layout: HexLayout, tile: TileInfo | None = None, rot: int = 0) -> None:
    """Lay the spaces of the roads of one fork tile (in the order drawn) as one partition (see the module);
    ``tile`` and ``rot``: the tile side and its rotation, for a plain fork."""
    if not any(a.road.kinds for a in arms):
        return
    for arm in arms:
        _own_zones_where_they_lie(arm)
    laid: set[str] = set()
    if tile is not None:
        _plain_fork(arms, layout, tile, rot, laid)
    mains = [a.road for a in arms if a.road.kinds and "half" not in a.road.kinds]
    for k, arm in enumerate(arms):
        # in the order drawn: a later road takes the outlines of the spaces it shares, once laid
        _take_shared(arm, arms[:k], laid)
        if mains and arm.road not in mains:
            _half_spaces(arm, mains, laid)
        _by_position(arm, arms[:k], laid)
    _centre(arms, layout, laid)


def _plain_fork(arms: list[ForkArm], layout: HexLayout, info: TileInfo, rot: int, laid: set[str]) -> None:
    """A plain fork drawn with its main road and a link or two: the links' own spaces where :mod:`rallyc.tiles.fan`
    lays them (the other spaces of the links are then laid as the roads they are, by :func:`_take_shared`)."""
    tile = info.definition
    fork = plain_fork(tile)
    if fork is None:
        return
    cell = arms[0].road.cell
    assert cell is not None
    q, r = cell

    def written(number: int) -> tuple[Centreline, float]:
        road = tile.roads[number - 1]
        entry, exit_ = (edge_index(own_to_world(e, rot)) for e in (road.entry, road.exit))
        return Centreline(layout, q, r, entry, exit_), tile_road(tile, number).width * layout.size

    places = fan_places(tile, fork, written, {a.road.road for a in arms if a.road.road is not None})
    for arm in arms:
        road = arm.road
        number = road.road
        if number is None:
            continue
        described = tile.roads[number - 1]
        reversed_ = road.entry != edge_index(own_to_world(described.entry, rot))
        n = len(described.zones)
        for s, sh in arm.spaces:
            z = _driven(road, s)
            if z is None:
                continue
            lane = _SWAP.get(s.lane, s.lane) if reversed_ and s.lane else s.lane
            place = places.get((number, n + 1 - z if reversed_ else z, lane))
            if place is None:
                continue
            sh.outline = list(place.outline)
            sh.label = place.label
            laid.add(sh.id)


def _own_zones_where_they_lie(arm: ForkArm) -> None:
    """A circuit branch's own zones (``zone_map``, see :func:`branch_zones`) at the end of the road where zones
    of their kind are: a road drawn the other way round from the way the branch is driven (RX 1's Joker leaves
    408a by a link drawn from its far edge) has its half-line zone at the other end."""
    road = arm.road
    if not road.zone_map or not road.kinds:
        return
    own = sorted(road.zone_map)
    kinds = {z: {s.kind for s, _ in arm.spaces if s.zone == z} for z in own}

    def fits(first: int) -> bool:
        return all(("half" in kinds[z]) == (road.kinds[first + i - 1] == "half") for i, z in enumerate(own))

    first = road.zone_map[own[0]]
    if fits(first):
        return
    other = len(road.kinds) - len(own) + 1 if first == 1 else 1
    if fits(other):
        road.zone_map = {z: other + i for i, z in enumerate(own)}


def _take_shared(arm: ForkArm, before: list[ForkArm], laid: set[str]) -> None:
    road = arm.road
    for edge in (road.entry, road.exit):
        if edge is None:
            continue
        for other in before:
            o = other.road
            if edge not in (o.entry, o.exit) or not o.kinds:
                continue
            mine, theirs = _from_end(road, edge), _from_end(o, edge)
            run = shared_run([road.kinds[z - 1] for z in mine], [o.kinds[z - 1] for z in theirs])
            if not run:
                continue
            same_way = (edge == road.entry) == (edge == o.entry)
            for i in range(run):
                targets = [(s, sh) for s, sh in other.spaces if _driven(o, s) == theirs[i]]
                if not targets:
                    # the other road has no spaces there (a loop's zone on a fork whose other road is a
                    # Pre-grid): lay them as its lanes would lie
                    _lay_on(arm, mine[i], o, theirs[i], same_way, laid)
                    continue
                for s, sh in arm.spaces:
                    if _driven(road, s) != mine[i] or sh.id in laid or not targets:
                        continue
                    lane = s.lane if same_way else _SWAP.get(s.lane, s.lane)
                    match = next((t for t in targets if t[0].lane == lane and t[0].kind == s.kind), None)
                    if match is None:
                        kin = [t for t in targets if t[0].kind == s.kind] or targets
                        match = min(kin, key=lambda t: _dist2(t[1].label, sh.label))
                    sh.outline = list(match[1].outline)
                    if not point_in_polygon(sh.label, sh.outline):
                        sh.label = match[1].label
                    laid.add(sh.id)
            break


def _by_position(arm: ForkArm, before: list[ForkArm], laid: set[str]) -> None:
    """A ``wide`` space of ``arm`` lying on a lane space of a road laid before it, with the same limit, takes
    that space's outline (the nearest one when several qualify)."""
    for s, sh in arm.spaces:
        if s.kind != "wide" or sh.id in laid:
            continue
        found = [(t, th) for other in before for t, th in other.spaces
                 if t.kind == "lane" and t.limit == s.limit and t.limit is not None
                 and (point_in_polygon(th.label, sh.outline) or point_in_polygon(sh.label, th.outline))]
        if not found:
            continue
        _, match = min(found, key=lambda p: _dist2(p[1].label, sh.label))
        sh.outline = list(match.outline)
        sh.label = match.label
        laid.add(sh.id)


def _lay_on(arm: ForkArm, zone: int, other: RoadShape, their_zone: int, same_way: bool, laid: set[str]) -> None:
    """The lane spaces of ``arm``'s zone ``zone`` laid across ``other``'s zone ``their_zone`` (the same stretch)."""
    road = arm.road
    lanes = sorted(((s, sh) for s, sh in arm.spaces if _driven(road, s) == zone and s.kind in ("lane", "half")
                    and sh.id not in laid), key=lambda p: _LANES.get(p[0].lane, 9), reverse=not same_way)
    t0, t1 = other.bounds[their_zone - 1], other.bounds[their_zone]
    line = other.centreline
    for i, (s, sh) in enumerate(lanes):
        u0, u1 = lane_strip(other.width, i, len(lanes))
        sh.outline = line.band(t0, t1, u0, u1)
        sh.label = line.at((t0 + t1) / 2, (u0 + u1) / 2)
        laid.add(sh.id)


def _half_spaces(arm: ForkArm, mains: list[RoadShape], laid: set[str]) -> None:
    """A branch's half-line spaces, from their edge to the main road's kerb (never onto it)."""
    road = arm.road
    line = road.centreline
    bodies = [m.centreline.band(0.0, 1.0, m.width / 2, -m.width / 2) for m in mains]
    by_zone: dict[int, list[tuple[Space, SpaceShape]]] = {}
    for s, sh in arm.spaces:
        z = _driven(road, s)
        if s.kind == "half" and z is not None and sh.id not in laid:
            by_zone.setdefault(z, []).append((s, sh))
    for z, spaces in by_zone.items():
        t0, t1 = road.zone_span(spaces[0][0].zone or z)
        # the edge end of the zone, and the way towards the junction (where the road's other zones are)
        at_entry = any(k != "half" for k in road.kinds[z:])
        far, end = (t0, 1.0) if at_entry else (t1, 0.0)
        spaces.sort(key=lambda p: p[0].lane)
        for i, (s, sh) in enumerate(spaces):
            u0, u1 = lane_strip(road.width, i, len(spaces))
            h0 = _meets(line, far, end, u0, bodies)
            h1 = _meets(line, far, end, u1, bodies)
            sh.outline = line.kerb(far, h0, u0) + list(reversed(line.kerb(far, h1, u1)))
            sh.label = line.at((far + (h0 + h1) / 2) / 2, (u0 + u1) / 2)
            laid.add(sh.id)


def _meets(line, far: float, end: float, u: float, bodies: list[list[Point]]) -> float:
    """The ``t`` where the line ``u`` across the road, followed from ``far`` towards ``end``, first enters one
    of ``bodies`` (``end`` when it never does)."""
    steps = 200
    prev = far
    for i in range(1, steps + 1):
        t = far + (end - far) * i / steps
        if any(point_in_polygon(line.at(t, u), b) for b in bodies):
            lo, hi = prev, t
            for _ in range(30):
                mid = (lo + hi) / 2
                if any(point_in_polygon(line.at(mid, u), b) for b in bodies):
                    hi = mid
                else:
                    lo = mid
            return lo
        prev = t
    return end


def _centre(arms: list[ForkArm], layout: HexLayout, laid: set[str]) -> None:
    """A Y's centre: one space per road, from the middles of its two arms' cross lines to the tile centre."""
    junctions = [(arm, s, sh) for arm in arms for s, sh in arm.spaces if s.kind == "junction" and sh.id not in laid]
    if not junctions:
        return
    cell = arms[0].road.cell
    assert cell is not None
    centre = layout.centre(*cell)
    lines: dict[int, tuple[Point, Point, Point]] = {}
    for arm in arms:
        road = arm.road
        half = road.width / 2
        for edge, t in ((road.entry, road.bounds[1]), (road.exit, road.bounds[-2])):
            if edge is not None and edge not in lines:
                line = road.centreline
                lines[edge] = (line.at(t, half), line.at(t, 0.0), line.at(t, -half))
    edge_zones = [sh.outline for arm in arms for s, sh in arm.spaces
                  if s.kind != "junction" and _driven(arm.road, s) in (1, len(arm.road.kinds))]
    for arm, s, sh in junctions:
        road = arm.road
        if road.entry is None or road.exit is None:
            continue
        line = road.centreline
        a, b = road.zone_span(s.zone if s.zone is not None else 2)
        u_in = road.width / 2 * line.inside_side(a, b)
        x, y = lines[road.entry], lines[road.exit]
        x_in = min((x[0], x[2]), key=lambda p: _dist2(p, line.at(a, u_in)))
        y_in = min((y[0], y[2]), key=lambda p: _dist2(p, line.at(b, u_in)))
        kerb = [p for p in line.kerb(a, b, u_in)[1:-1] if not any(point_in_polygon(p, o) for o in edge_zones)]
        sh.outline = [x_in, *kerb, y_in, y[1], centre, x[1]]
        sh.label = polygon_centroid(sh.outline)
        laid.add(sh.id)


def _dist2(a: Point, b: Point) -> float:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2
