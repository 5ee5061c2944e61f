"""Where the speed-limit lines of the RX fork tiles are drawn (RX-FORK-03, RX-FORK-05).

A fork tile (402-409) prints a solid line with a circled number where a branch's half-line zone meets
the main road: crossing it, the next space entered counts as having that limit, either way
(``limitline N`` in the tileset, between the branch's ``half`` zone and its ``merge`` zone). The compiler puts
that limit on the graph's edges from the half-line spaces to the space entered (joining the main road) or on
the half-line spaces (entered from the main road), not on a space of the main road, so the map drew no
number where a branch joins; the value is read from the graph here. The line lies on the main road's kerb, along the stretch the branch's half-line spaces meet
(their junction end, as :mod:`rallyc.render.forks` lays them), within the main-road zone of the space the
branch enters across it (402a: line 2 beside zone 1, line 4 beside zone 2, the two meeting at the junction
point, as printed).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from rallyc.compiler.track import Track
from rallyc.render.geometry import Point
from rallyc.render.shapes import RoadShape, TrackShapes

__all__ = ["LimitLine", "limit_lines"]


@dataclass(frozen=True)
class LimitLine:
    """One speed-limit line as drawn: its limit, the route step of its tile and its points (page mm)."""

    value: int
    step: int
    points: tuple[Point, ...]
    #: where its number is printed: the middle of the line
    at: Point
    #: the half-line spaces whose own limit is the line's (entered from the main road): the line stands for
    #: their number, which the map does not print a second time
    spaces: tuple[str, ...] = ()


def _value(track: Track, halves: list[str], entered: list[str]) -> int | None:
    """The line's limit: on the edges between the half-line spaces and the spaces entered, or on the half-line
    spaces (one value), else None."""
    graph = track.graph
    found = {graph.edges[a, b]["limit"] for h in halves for n in entered for a, b in ((h, n), (n, h))
             if graph.has_edge(a, b) and graph.edges[a, b].get("limit") is not None}
    if not found:
        found = {track.spaces[h].limit for h in halves}
    return found.pop() if len(found) == 1 and None not in found else None


def _across(road: RoadShape, value: int, spaces: tuple[str, ...]) -> LimitLine:
    """A limit line across ``road`` at the end of its half-line zone that faces the road's other zones."""
    z = road.kinds.index("half") + 1
    toward_exit = any(k != "half" for k in road.kinds[z:])
    t = road.bounds[z] if toward_exit else road.bounds[z - 1]
    half = road.width / 2
    line = road.centreline
    return LimitLine(value, road.step, tuple(line.cross(t, half, -half)), line.at(t, 0.0), spaces)


class _Meeting(NamedTuple):
    """Where a branch's half-line zone meets its main road's kerb: the main road, the kerb's side, t of the space
    entered, the limit, the lowest and highest t of the stretch, the branch's route step, the half-line spaces
    with the line's limit."""

    main: RoadShape
    side: float
    t: float
    value: int
    lo: float
    hi: float
    step: int
    limited: tuple[str, ...]


def limit_lines(track: Track, shapes: TrackShapes) -> list[LimitLine]:
    """Every speed-limit line of the fork tiles of ``track``, in route order."""
    by_cell: dict[tuple[int, int], list[RoadShape]] = {}
    for road in shapes.roads:
        if road.fork and road.cell is not None:
            by_cell.setdefault(road.cell, []).append(road)
    if not by_cell:
        return []
    halves_of: dict[tuple[int, int], list[str]] = {}
    for s in track.spaces.values():
        if s.kind == "half" and s.id in shapes.spaces:
            halves_of.setdefault((s.step, s.road), []).append(s.id)
    out: list[LimitLine] = []
    for arms in by_cell.values():
        mains = [r for r in arms if r.kinds and "half" not in r.kinds]
        found: list[_Meeting] = []
        for road in arms:
            if "half" not in road.kinds or not mains:
                continue
            met = _meeting(track, shapes, road, mains, halves_of.get((road.step, road.road or 0), []))
            if isinstance(met, _Meeting):
                found.append(met)
            elif met is not None:
                out.append(met)
        for group in _stretches(found):
            out += _stretch_lines(group)
    return sorted(out, key=lambda x: (x.step, x.value, x.points))


def _meeting(track: Track, shapes: TrackShapes, road: RoadShape, mains: list[RoadShape], halves: list[str]
             ) -> "_Meeting | LimitLine | None":
    """Where branch ``road``'s half-line spaces meet the main road's kerb; the line across the branch where they
    do not reach it; None where the branch has no limit line."""
    graph = track.graph
    # the spaces entered across the line: the half-line spaces' neighbours of the same step that are not
    # half-line spaces
    entered = sorted({n for h in halves for n in (*graph.successors(h), *graph.predecessors(h))
                      if n in track.spaces and n in shapes.spaces and track.spaces[n].step == road.step
                      and track.spaces[n].kind != "half"})
    value = _value(track, halves, entered) if halves and entered else None
    if value is None:
        return None
    limited = tuple(sorted(h for h in halves if track.spaces[h].limit == value))
    label = shapes.spaces[entered[0]].label
    main = min(mains, key=lambda m: m.centreline.nearest(label)[0])
    line = main.centreline
    half = main.width / 2
    _, t, u = line.nearest(label)
    side = 1.0 if u >= 0 else -1.0
    R = shapes.layout.size
    meets = [tp for h in halves for _, tp, up in map(line.nearest, shapes.spaces[h].outline)
             if abs(up - side * half) < 0.02 * R]
    if meets:
        return _Meeting(main, side, t, value, min(meets), max(meets), road.step, limited)
    # the half-line spaces do not reach the main road (a circuit's branch zones drawn at its far edge): the
    # line across the branch where its half-line zone ends towards the junction
    return _across(road, value, limited)


def _stretches(found: list[_Meeting]) -> list[list[_Meeting]]:
    """The branches that meet the kerb along one stretch (402a's two, from one half-line zone), together."""
    groups: list[list[_Meeting]] = []
    for f in sorted(found, key=lambda f: f[2]):
        group = next((g for g in groups if g[0][0] is f[0] and g[0][1] == f[1]
                      and f[4] < max(x[5] for x in g) and min(x[4] for x in g) < f[5]), None)
        if group is None:
            groups.append([f])
        else:
            group.append(f)
    return groups


def _stretch_lines(group: list[_Meeting]) -> list[LimitLine]:
    """The lines of one stretch: each branch takes the part nearer the zone it enters, cut at the boundary
    between those zones (kept inside the stretch's middle half when the drawing puts that boundary off it)."""
    main, side = group[0].main, group[0].side
    lo, hi = min(f.lo for f in group), max(f.hi for f in group)
    if hi - lo < 1e-3:
        return []
    cuts = [lo]
    for a, b in zip(group, group[1:]):
        edge = next((x for x in main.bounds if a.t < x <= b.t), (a.t + b.t) / 2)
        margin = (hi - lo) / 4
        cuts.append(min(max(edge, lo + margin), hi - margin))
    cuts.append(hi)
    line = main.centreline
    u = side * main.width / 2
    return [LimitLine(f.value, f.step, tuple(line.kerb(t0, t1, u)), line.at((t0 + t1) / 2, u), f.limited)
            for f, t0, t1 in zip(group, cuts, cuts[1:]) if t1 - t0 >= 1e-3]
