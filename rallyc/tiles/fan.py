"""The spaces of a plain fork (GT Adrenaline 151, 152) laid as one partition of its road surface.

A plain fork is a tile of three roads written with plain zones only: a straight main road between two
opposite edges and two links from a third edge (the branch edge) to the two ends of the main road, a
60 degree curve to the far end and a 120 degree hairpin to the near one (151a: D -> A, B -> D, B -> A). The
links share the zone at each of their edges with the road written before them
(:func:`rallyc.tiles.sharing.shared_spaces`: the branch-edge zone is one zone of both links, a link's zone at
a main-road edge is that main-road zone), but their other zones, drawn along their own centrelines, lie over
the main road and over each other. No printed layout of these tiles is known (``tilesets/gt-adrenaline.rally``),
so they are laid schematically on the road surface beside the main road, as a road from the branch edge that
forks onto the main road's kerb:

- the main road keeps its own spaces;
- the rest of the surface (from the branch edge, between the 60 degree link's inside kerb, the main road's
  kerb and the hairpin's inside kerb) is a patch spanned by those four sides (a Coons patch: ``s`` across,
  from the 60 degree link's side to the hairpin's, ``v`` along, from the branch edge to the main road's kerb);
- the branch-edge zone is the patch's first :data:`BRANCH_DEPTH` along, its lane spaces side by side across;
- the 60 degree link's other own zones share the rest of its half of the patch (``s`` below one half), the
  hairpin's the other half, one after the other along and their lane spaces side by side across, so each link
  leaves the branch-edge zone and reaches the main road's kerb beside the main-road zone it leads into;
- drawn with its main road and one link only (a circuit's loop on the main road, its Joker or Pre-grid on a
  link), that link spans the patch alone, up to where its outside kerb enters the main road.

The same construction in any frame (the tile's own, :data:`rallyc.tiles.shape.UNIT`, for the track files; a
placed tile on the page for the maps): :func:`fan_places` takes the roads' centrelines as written.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from itertools import accumulate
import math
from typing import Callable, Collection

from rallyc.geometry.hexgrid import edge_index
from rallyc.geometry.tile import Centreline, Point
from rallyc.syntax import ast
from rallyc.tiles.sharing import SpaceKey, lane_names, shared_spaces

__all__ = ["PlainFork", "FanSpace", "plain_fork", "fan_places", "BRANCH_DEPTH"]

#: the share of the patch, along, of the branch-edge zone
BRANCH_DEPTH = 0.3
#: points along (per zone) and across (per lane) an outline
_ALONG, _ACROSS = 16, 3


@dataclass(frozen=True)
class PlainFork:
    """The roles of a plain fork's roads (1-based road numbers) and its branch edge (own edge index)."""

    main: int
    link60: int
    hairpin: int
    branch: int


@dataclass(frozen=True)
class FanSpace:
    """Where a space of a plain fork lies: its outline, a point inside it (label, token) and the driving
    direction there along the road as written."""

    outline: list[Point]
    label: Point
    heading: Point


def plain_fork(tile: ast.TileDef) -> PlainFork | None:
    """The roles of ``tile``'s roads when it is a plain fork (see the module), else None."""
    roads = tile.roads
    if len(roads) != 3 or any(r.exit == "end" for r in roads):
        return None
    if any(not isinstance(z, ast.Zone) or z.kind != "plain" or z.merge for r in roads for z in r.zones):
        return None
    ends = [(edge_index(r.entry), edge_index(r.exit)) for r in roads]
    straight = [n for n, (a, b) in enumerate(ends, start=1) if (b - a) % 6 == 3]
    if len(straight) != 1:
        return None
    main = straight[0]
    main_edges = set(ends[main - 1])
    links = [n for n in (1, 2, 3) if n != main]
    branch = [set(ends[n - 1]) - main_edges for n in links]
    if any(len(b) != 1 for b in branch) or branch[0] != branch[1] or \
            any(len(set(ends[n - 1]) & main_edges) != 1 for n in links):
        return None
    edge = next(iter(branch[0]))
    turns = {n: min((ends[n - 1][1] - ends[n - 1][0]) % 6, (ends[n - 1][0] - ends[n - 1][1]) % 6) for n in links}
    link60 = [n for n in links if turns[n] == 2]
    hairpin = [n for n in links if turns[n] == 1]
    if len(link60) != 1 or len(hairpin) != 1:
        return None
    return PlainFork(main, link60[0], hairpin[0], edge)


class _Path:
    """A polyline walked by the fraction of its length."""

    def __init__(self, points: list[Point]):
        self.points = points
        self.cum = list(accumulate(map(math.dist, points, points[1:]), initial=0.0))

    def at(self, f: float) -> Point:
        s = min(max(f, 0.0), 1.0) * self.cum[-1]
        k = min(max(bisect_right(self.cum, s) - 1, 0), len(self.cum) - 2)
        seg = self.cum[k + 1] - self.cum[k]
        g = (s - self.cum[k]) / seg if seg else 0.0
        (ax, ay), (bx, by) = self.points[k], self.points[k + 1]
        return (ax + (bx - ax) * g, ay + (by - ay) * g)


class _Patch:
    """A Coons patch: ``left`` (s = 0) and ``right`` (s = 1) run along (v 0..1), ``entry`` (v = 0) and ``exit``
    (v = 1) across (s 0..1); the four share their corners."""

    def __init__(self, left: list[Point], right: list[Point], exit_: list[Point]):
        self.left, self.right, self.exit = _Path(left), _Path(right), _Path(exit_)
        self.c00, self.c01 = left[0], left[-1]
        self.c10, self.c11 = right[0], right[-1]

    def at(self, s: float, v: float) -> Point:
        lx, ly = self.left.at(v)
        rx, ry = self.right.at(v)
        xx, xy = self.exit.at(s)
        # the entry is the straight segment across the branch edge
        ex, ey = self.c00[0] + (self.c10[0] - self.c00[0]) * s, self.c00[1] + (self.c10[1] - self.c00[1]) * s
        w00, w10 = (1 - s) * (1 - v), s * (1 - v)
        w01, w11 = (1 - s) * v, s * v
        return ((1 - v) * ex + v * xx + (1 - s) * lx + s * rx
                - (w00 * self.c00[0] + w10 * self.c10[0] + w01 * self.c01[0] + w11 * self.c11[0]),
                (1 - v) * ey + v * xy + (1 - s) * ly + s * ry
                - (w00 * self.c00[1] + w10 * self.c10[1] + w01 * self.c01[1] + w11 * self.c11[1]))

    def cell(self, s0: float, s1: float, v0: float, v1: float) -> list[Point]:
        """The closed outline of ``s0..s1`` across and ``v0..v1`` along."""
        along = [v0 + (v1 - v0) * i / _ALONG for i in range(_ALONG + 1)]
        across = [s0 + (s1 - s0) * i / _ACROSS for i in range(_ACROSS + 1)]
        return ([self.at(s0, v) for v in along] + [self.at(s, v1) for s in across[1:]]
                + [self.at(s1, v) for v in reversed(along[:-1])] + [self.at(s, v0) for s in reversed(across[1:-1])])


def _towards(line: Centreline, from_start: bool, u: float) -> list[Point]:
    """The line ``u`` across the road, from its start (``from_start``) or from its end."""
    pts = line.kerb(0.0, 1.0, u)
    return pts if from_start else list(reversed(pts))


def fan_places(tile: ast.TileDef, fork: PlainFork, road: Callable[[int], tuple[Centreline, float]],
               roads: Collection[int] | None = None) -> dict[SpaceKey, FanSpace]:
    """Where the links' own spaces of the plain fork ``tile`` lie (keyed road, zone, lane as written), given
    each road's centreline as written and its width (``road(number)``), in any frame.

    ``roads``: the roads drawn (None: all). With the main road and one link only (a circuit whose loop takes
    the main road and whose branch one link), that link alone spans the patch: from its inside kerb to its
    outside kerb up to where that enters the main road, and the main road's kerb between them; its zones at
    the branch edge are its own then. Without the main road: nothing (each road keeps its own band)."""
    drawn = set(roads) if roads is not None else {fork.main, fork.link60, fork.hairpin}
    links = [n for n in (fork.link60, fork.hairpin) if n in drawn]
    if fork.main not in drawn or not links:
        return {}
    main_line, main_width = road(fork.main)
    rd = {n: tile.roads[n - 1] for n in (fork.main, fork.link60, fork.hairpin)}
    lines = {n: road(n) for n in links}
    outward = {n: edge_index(rd[n].entry) == fork.branch for n in links}

    def inside(n: int) -> list[Point]:
        """The inside kerb of a link (its bend's inside, as written), from the branch edge to the main road."""
        line, width = lines[n]
        return _towards(line, outward[n], width / 2 * line.inside_side(0.0, 1.0))

    left = inside(links[0])
    if len(links) == 2:
        right = inside(links[1])
    else:
        right = _outside_to(main_line, main_width, *lines[links[0]], outward[links[0]])
    # the main road's kerb on the branch side, from the left side's end to the right side's
    side = 1.0 if math.dist(main_line.at(0.5, main_width / 2), left[0]) < \
        math.dist(main_line.at(0.5, -main_width / 2), left[0]) else -1.0
    _, t0, _ = main_line.nearest(left[-1])
    _, t1, _ = main_line.nearest(right[-1])
    kerb = main_line.kerb(min(t0, t1), max(t0, t1), side * main_width / 2)
    if t0 > t1:
        kerb.reverse()
    patch = _Patch(left, right, kerb)
    shared = shared_spaces(tile)
    # the roads whose spaces a link's space may be: in the full fork, the other link's too (the branch-edge zone)
    others = {fork.main, fork.link60, fork.hairpin} if len(links) == 2 else {fork.main}
    out: dict[SpaceKey, FanSpace] = {}

    def own_zones(number: int, outward: bool) -> list[int]:
        """The link's zones as written, from the branch edge on, that are its own (not another road's)."""
        zones = list(range(1, len(rd[number].zones) + 1))
        if not outward:
            zones.reverse()
        return [z for z in zones if not any((number, z, name) in shared and shared[(number, z, name)].road in others
                                           for name in _names(tile, number, z))]

    def lay(number: int, zone: int, outward: bool, s0: float, s1: float, v0: float, v1: float) -> None:
        line, line_w = lines[number]
        names = _names(tile, number, zone)
        # the road's left as written at the branch edge: the patch's s = 0 corner or its s = 1 corner
        t_edge = 0.0 if outward else 1.0
        left_is_low = math.dist(line.at(t_edge, line_w / 2), patch.c00) < math.dist(line.at(t_edge, line_w / 2),
                                                                                      patch.c10)
        n = len(names)
        for i, name in enumerate(names):
            k = i if left_is_low else n - 1 - i
            a, b = s0 + (s1 - s0) * k / n, s0 + (s1 - s0) * (k + 1) / n
            outline = patch.cell(a, b, v0, v1)
            mid_s, mid_v = (a + b) / 2, (v0 + v1) / 2
            label = patch.at(mid_s, mid_v)
            p0, p1 = patch.at(mid_s, max(0.0, mid_v - 0.01)), patch.at(mid_s, min(1.0, mid_v + 0.01))
            hx, hy = p1[0] - p0[0], p1[1] - p0[1]
            norm = math.hypot(hx, hy) or 1.0
            heading = (hx / norm, hy / norm) if outward else (-hx / norm, -hy / norm)
            out[(number, zone, name)] = FanSpace(outline, label, heading)

    zones = {n: own_zones(n, outward[n]) for n in links}
    # the branch-edge zone: the first own zone of the link written first (the other's is that one)
    first = min(links)
    if zones[first]:
        lay(first, zones[first].pop(0), outward[first], 0.0, 1.0, 0.0, BRANCH_DEPTH)
    halves = [(0.0, 0.5), (0.5, 1.0)] if len(links) == 2 else [(0.0, 1.0)]
    for number, (s0, s1) in zip(links, halves):
        step = (1.0 - BRANCH_DEPTH) / max(1, len(zones[number]))
        for j, zone in enumerate(zones[number]):
            lay(number, zone, outward[number], s0, s1, BRANCH_DEPTH + j * step, BRANCH_DEPTH + (j + 1) * step)
    return out


def _outside_to(main: Centreline, main_width: float, line: Centreline, width: float, outward: bool) -> list[Point]:
    """The outside kerb of a link, from the branch edge to where it enters the main road (its kerb)."""
    u = -width / 2 * line.inside_side(0.0, 1.0)

    def on_main(t: float) -> bool:
        return main.nearest(line.at(t, u))[0] < main_width / 2

    start = 0.0 if outward else 1.0
    steps = 200
    prev = start
    hit = 1.0 - start
    for i in range(1, steps + 1):
        t = start + (hit - start) * i / steps
        if on_main(t):
            lo, hi = prev, t
            for _ in range(40):
                mid = (lo + hi) / 2
                if on_main(mid):
                    hi = mid
                else:
                    lo = mid
            hit = lo
            break
        prev = t
    pts = line.kerb(min(start, hit), max(start, hit), u)
    return pts if outward else list(reversed(pts))


def _names(tile: ast.TileDef, number: int, zone: int) -> tuple[str, ...]:
    road = tile.roads[number - 1]
    z = road.zones[zone - 1]
    return lane_names((z.lanes if isinstance(z, ast.Zone) else None) or road.lanes or 2) or ()
