"""One geometric model of where the spaces of a tile lie, for the maps (render) and the track files (interop).

Orientation convention (shared with the Rekee editor and the printed tiles)
---------------------------------------------------------------------------
Hexes are **flat-topped** and screen ``y`` grows downwards. Edge/direction
``A`` (neighbour offset (+1, 0)) is the **top** edge, then clockwise on screen:
``B`` upper-right (0, +1), ``C`` lower-right (-1, +1), ``D`` bottom (-1, 0),
``E`` lower-left (0, -1), ``F`` upper-left (+1, -1). This is the only choice that
makes both facts true: the printed tile has its edge A at the top, and the six
neighbour offsets run clockwise. So axial ``q`` points up the page and ``r``
points up-right. A tile placed with rotation ``rot`` is its printed artwork
turned ``rot * 60`` degrees clockwise.

``HexLayout(flat=False)`` turns the whole map 30 degrees anticlockwise (pointy
tops, edge A upper-right) for pages where that fits better; edges stay clockwise.
:meth:`HexLayout.centre` is linear in (q, r), so a fractional axial offset from a
cell centre (a token's position in a track file) is a page point and back
(:meth:`HexLayout.axial`).

Roads
-----
A road through a tile is a centreline from the middle of its entry edge to the
middle of its exit edge, in driving direction (:class:`Centreline`):

- opposite edges: a straight segment (an S-bend gets a sideways bulge, a double
  hairpin two);
- edges two apart (60 degree curve): an arc of radius ``1.5 R`` about the centre
  of the neighbouring cell across the edge between them; two roads side by side
  on one tile (414, GT 133b) keep near the chord between the edge middles instead
  (``gentle``: a short bend at each edge, straight between);
- adjacent edges (120 degree hairpin): an arc of radius ``R / 2`` about the hex
  corner the two edges share;
- a dead end (``-> end``, the Assistance tile): a segment to the tile centre.

``R`` is the circumradius (centre to corner). Points across the road are given
by ``u``: the signed distance from the centreline, positive to the driver's left.

Spaces
------
The zones share the length of the centreline in proportion to a weight (1 per
zone, a corner by its longer method: :func:`zone_weight`, :func:`zone_bounds`);
the road is :data:`LANE_WIDTH` ``R`` wide per lane of its widest zone
(:func:`road_width`); a zone's lane spaces are strips across it, left to right
as driven (:func:`lane_strip`); corner spaces follow each other along the inside
or the outside half of the road; slide halves and full-width spaces
(wide, junction) follow each other along the zone. The real artwork's
proportions are not measured.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from itertools import accumulate
from dataclasses import dataclass
from functools import cached_property
from typing import Sequence

__all__ = ["Point", "point_in_polygon", "HexLayout", "Centreline", "RoadForm", "SQRT3", "LANE_WIDTH", "zone_weight", "zone_bounds",
           "road_width", "lane_strip", "heading_steps"]

SQRT3 = math.sqrt(3.0)

Point = tuple[float, float]


def point_in_polygon(p: Point, poly: Sequence[Point]) -> bool:
    """``p`` lies inside the closed polygon ``poly`` (even-odd rule)."""
    x, y = p
    hit = False
    n = len(poly)
    for i in range(n):
        (x0, y0), (x1, y1) = poly[i], poly[(i + 1) % n]
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            hit = not hit
    return hit


#: width of one lane as a fraction of the circumradius R (the art: 2 lanes ~ 0.47 R)
LANE_WIDTH = 0.25
#: radius (in R) of the bends of a road drawn beside another on one tile (:func:`_hugging`): a little more
#: than half a 3-lane road, so that its inner kerb never folds and two 3-lane roads clear each other
GENTLE_RADIUS = 0.4


@dataclass(frozen=True)
class RoadForm:
    """How a road's centreline bends besides its edges (see :class:`Centreline`)."""

    #: +1 an S-bend swinging to the driver's left first, -1 to the right, 0 none
    bulge: int = 0
    #: 2 for a double hairpin (swings back the other way too)
    waves: int = 1
    #: a flat S between edges two apart (two roads side by side on one tile)
    gentle: bool = False
    #: a one-wave S-bend swinging deeper (a corner of limit 1-2)
    tight: bool = False


def zone_weight(inside: int, outside: int) -> float:
    """Share of the road's length a zone takes: 1, a corner (or limited section) by its longer method."""
    if inside or outside:
        return max(1.0, 0.6 * max(inside, outside))
    return 1.0


def zone_bounds(weights: Sequence[float]) -> list[float]:
    """Fraction of the road's length at each zone boundary: zone k spans ``bounds[k-1]..bounds[k]``."""
    weights = list(weights) or [1.0]
    total = sum(weights)
    bounds = [0.0]
    for w in weights:
        bounds.append(bounds[-1] + w / total)
    bounds[-1] = 1.0
    return bounds


def road_width(lanes: int, size: float) -> float:
    """Width of a road whose widest zone has ``lanes`` strips across it (never fewer than 2)."""
    return max(2, lanes) * LANE_WIDTH * size


def lane_strip(width: float, index: int, count: int) -> tuple[float, float]:
    """(u0, u1) across the road of strip ``index`` (0 = leftmost as driven) of ``count`` equal strips."""
    half = width / 2
    w = width / count
    return half - index * w, half - (index + 1) * w


def heading_steps(layout: "HexLayout", tangent: Point) -> float:
    """A direction on the page in 60-degree steps clockwise from the direction of edge A (0 <= x < 6)."""
    ax, ay = _unit(layout.edge_angle(0))
    tx, ty = tangent
    angle = math.atan2(ax * ty - ay * tx, ax * tx + ay * ty)
    return round((math.degrees(angle) / 60.0) % 6.0, 4) % 6.0


def _unit(angle: float) -> Point:
    return (math.cos(angle), math.sin(angle))


@dataclass(frozen=True)
class HexLayout:
    """Where cells, corners and edges are on the page.

    ``size`` is the circumradius ``R`` in drawing units (millimetres at real
    scale): a tile is ``2 R`` corner to corner and ``sqrt(3) R`` edge to edge.
    """

    size: float
    flat: bool = True

    @property
    def apothem(self) -> float:
        """Centre to edge middle."""
        return self.size * SQRT3 / 2

    def edge_angle(self, edge: int) -> float:
        """Screen angle (radians, clockwise from +x) from a cell centre to the middle of ``edge``."""
        base = -90.0 if self.flat else -60.0
        return math.radians(base + 60.0 * (edge % 6))

    @cached_property
    def _axes(self) -> tuple[float, float, float, float, float]:
        step = SQRT3 * self.size
        ax, ay = _unit(self.edge_angle(0))
        bx, by = _unit(self.edge_angle(1))
        return (step, ax, ay, bx, by)

    @cached_property
    def _corner_units(self) -> tuple[Point, ...]:
        return tuple(_unit(self.edge_angle(k) + math.radians(30)) for k in range(6))

    def centre(self, q: float, r: float) -> Point:
        """Centre of the cell (q, r)."""
        step, ax, ay, bx, by = self._axes
        return (step * (q * ax + r * bx), step * (q * ay + r * by))

    @cached_property
    def _inverse(self) -> tuple[float, float, float, float]:
        step = SQRT3 * self.size
        ax, ay = _unit(self.edge_angle(0))
        bx, by = _unit(self.edge_angle(1))
        det = (ax * by - ay * bx) * step
        return (by / det, -bx / det, -ay / det, ax / det)

    def axial(self, p: Point) -> tuple[float, float]:
        """The fractional axial coordinates of the page point ``p`` (inverse of :meth:`centre`)."""
        m00, m01, m10, m11 = self._inverse
        return (p[0] * m00 + p[1] * m01, p[0] * m10 + p[1] * m11)

    def cell_at(self, p: Point) -> tuple[int, int]:
        """The axial cell whose hexagon holds the page point ``p`` (cube rounding)."""
        m00, m01, m10, m11 = self._inverse
        fq = p[0] * m00 + p[1] * m01
        fr = p[0] * m10 + p[1] * m11
        fs = -fq - fr
        q, r, s = round(fq), round(fr), round(fs)
        dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
        if dq > dr and dq > ds:
            q = -r - s
        elif dr > ds:
            r = -q - s
        return (q, r)

    def corner(self, q: float, r: float, k: int) -> Point:
        """Corner ``k`` of a cell: the corner between edge ``k`` and edge ``k + 1``."""
        cx, cy = self.centre(q, r)
        ux, uy = self._corner_units[k % 6]
        return (cx + self.size * ux, cy + self.size * uy)

    def corners(self, q: float, r: float) -> list[Point]:
        """The six corners, starting between edges A and B, clockwise."""
        cx, cy = self.centre(q, r)
        size = self.size
        return [(cx + size * ux, cy + size * uy) for ux, uy in self._corner_units]

    def edge_mid(self, q: float, r: float, edge: int) -> Point:
        """Middle of an edge of a cell."""
        cx, cy = self.centre(q, r)
        ux, uy = _unit(self.edge_angle(edge))
        return (cx + self.apothem * ux, cy + self.apothem * uy)

    def towards(self, q: float, r: float, edge: int, fraction: float) -> Point:
        """The point ``fraction`` of the way from the centre to the middle of ``edge``."""
        cx, cy = self.centre(q, r)
        ux, uy = _unit(self.edge_angle(edge))
        return (cx + fraction * self.apothem * ux, cy + fraction * self.apothem * uy)


class Centreline:
    """A road's centreline through one cell, in driving direction, sampled by arc length.

    ``shape`` is ``straight``, ``curve60``, ``hairpin``, ``s-bend`` or ``dead-end``.
    ``pivot`` is the centre of the arc for curves (None otherwise).
    """

    SAMPLES = 48

    def __init__(self, layout: HexLayout, q: int, r: int, entry: int, exit: int | None,
                 *, bulge: int = 0, waves: int = 1, gentle: bool = False, tight: bool = False):
        """``entry``/``exit`` are world edge indexes (0 = A); ``exit`` None is a dead end.

        ``bulge`` (+1 left, -1 right, 0 none) bends a road between opposite edges
        into an S-bend that swings to that side of the driver first; ``waves=2``
        swings back to the other side too (a double hairpin). ``gentle`` draws a
        road between edges two apart as a flat S (two roads side by side on one
        tile, e.g. 414) instead of a circular arc. ``tight`` swings a one-wave S-bend
        deeper (a corner of limit 1-2, e.g. 214, against the shallow bulge of 226).
        """
        self.layout = layout
        R = layout.size
        start = layout.edge_mid(q, r, entry)
        self.pivot: Point | None = None
        self.radius: float | None = None
        if exit is None:
            self.shape = "dead-end"
            end = layout.centre(q, r)
            pts = [_lerp(start, end, i / self.SAMPLES) for i in range(self.SAMPLES + 1)]
        else:
            diff = (exit - entry) % 6
            end = layout.edge_mid(q, r, exit)
            if diff in (2, 4) and gentle:
                self.shape = "gentle"
                pts = _hugging(start, end, _unit(layout.edge_angle(entry) + math.pi), GENTLE_RADIUS * R,
                               self.SAMPLES)
            elif diff in (2, 4):
                self.shape = "curve60"
                mid = entry + (1 if diff == 2 else -1)
                self.pivot = layout.towards(q, r, mid, 2.0)
                self.radius = 1.5 * R
                pts = _arc(self.pivot, start, end, self.SAMPLES)
            elif diff in (1, 5):
                self.shape = "hairpin"
                self.pivot = layout.corner(q, r, entry if diff == 1 else exit)
                self.radius = R / 2
                pts = _arc(self.pivot, start, end, self.SAMPLES)
            elif diff == 3 and bulge:
                self.shape = "s-bend"
                dx, dy = end[0] - start[0], end[1] - start[1]
                length = math.hypot(dx, dy)
                lx, ly = dy / length, -dx / length   # driver's left on screen (y down)
                if waves == 2:
                    # a double hairpin (215): arcs, never tighter than the road is wide
                    pts = [(start[0] + dx * x / length + lx * y * bulge, start[1] + dy * x / length + ly * y * bulge)
                           for x, y in _serpentine(length, self.SAMPLES)]
                else:
                    # one wave: a tight S (limit 1-2) swings 0.5 R, a shallow bulge 0.3 R (the inner kerb's
                    # smallest radius stays above half the road width)
                    amp = (0.5 if tight else 0.3) * R * bulge
                    pts = []
                    fine = self.SAMPLES * 4   # fine: the ends must leave the edges square
                    for i in range(fine + 1):
                        t = i / fine
                        # leaves the edges square (zero slope at t = 0 and 1)
                        off = amp * math.sin(math.pi * t) ** 2
                        pts.append((start[0] + dx * t + lx * off, start[1] + dy * t + ly * off))
            else:
                self.shape = "straight"
                (sx, sy), (ex, ey) = start, end
                samples = self.SAMPLES
                # _lerp(start, end, i / samples) without the calls
                pts = [(sx + (ex - sx) * f, sy + (ey - sy) * f) for f in (i / samples for i in range(samples + 1))]
        self._pts = pts
        self._frame_cache: dict[tuple[float, float], list[tuple[float, float, float, float]]] = {}
        # running sums of the segment lengths, added left to right
        self._cum = list(accumulate(map(math.dist, pts, pts[1:]), initial=0.0))
        self.length = self._cum[-1]
        # one unit driving direction per sampled segment, computed once
        hypot = math.hypot
        # ((x1 - x0) / n, (y1 - y0) / n) with n = hypot(x1 - x0, y1 - y0) or 1.0, in one comprehension
        self._dirs: list[Point] = [((dx := x1 - x0) / (n := hypot(dx, (dy := y1 - y0)) or 1.0), dy / n)
                                   for (x0, y0), (x1, y1) in zip(pts, pts[1:])]

    @classmethod
    def of(cls, layout: HexLayout, q: int, r: int, entry: int, exit: int | None, form: RoadForm) -> "Centreline":
        """The centreline of a road of the given form (see :func:`rallyc.tiles.shape.road_form`)."""
        return cls(layout, q, r, entry, exit, bulge=form.bulge, waves=form.waves, gentle=form.gentle,
                   tight=form.tight)

    def nearest(self, p: Point) -> tuple[float, float, float]:
        """(distance, ``t``, ``u``) of the centreline point nearest to ``p``: its fraction of the length and
        the signed distance of ``p`` across the road (positive to the driver's left)."""
        best = (math.inf, 0.0, 0.0)
        x, y = p
        pts, cum, length = self._pts, self._cum, self.length or 1.0
        for i, (tx, ty) in enumerate(self._dirs):
            (ax, ay), (bx, by) = pts[i], pts[i + 1]
            seg = cum[i + 1] - cum[i]
            along = (x - ax) * tx + (y - ay) * ty
            along = 0.0 if along < 0.0 else (seg if along > seg else along)
            px, py = ax + tx * along, ay + ty * along
            dist = math.hypot(x - px, y - py)
            if dist < best[0] - 1e-12:
                best = (dist, (cum[i] + along) / length, (x - px) * ty - (y - py) * tx)
        return best

    def _locate(self, t: float) -> tuple[int, float]:
        """(segment, fraction along it) of the point at fraction ``t`` of the length."""
        s = min(max(t, 0.0), 1.0) * self.length
        cum = self._cum
        lo = min(max(bisect_right(cum, s) - 1, 0), len(cum) - 2)
        seg = cum[lo + 1] - cum[lo]
        return lo, (s - cum[lo]) / seg if seg else 0.0

    def point(self, t: float) -> Point:
        """The centreline point at fraction ``t`` (0 entry, 1 exit) of its length."""
        i, f = self._locate(t)
        return _lerp(self._pts[i], self._pts[i + 1], f)

    def points(self, n: int) -> list[Point]:
        """``[self.point(i / n) for i in range(n + 1)]`` (the same points), without the calls."""
        return [(x, y) for x, y, _, _ in self._sample(0.0, 1.0, n)]

    def tangent(self, t: float) -> Point:
        """Unit driving direction at ``t``."""
        return self._dirs[self._locate(t)[0]]

    def at(self, t: float, u: float) -> Point:
        """The point at ``t`` along the road and ``u`` across it (positive = driver's left)."""
        i, f = self._locate(t)
        x, y = _lerp(self._pts[i], self._pts[i + 1], f)
        tx, ty = self._dirs[i]
        return (x + ty * u, y - tx * u)

    def turning(self, t0: float, t1: float) -> float:
        """Signed heading change from ``t0`` to ``t1`` in radians (positive = to the left)."""
        a = self.tangent(t0)
        b = self.tangent(t1)
        # y grows downwards, so a left turn is a negative screen cross product
        return -math.atan2(a[0] * b[1] - a[1] * b[0], a[0] * b[0] + a[1] * b[1])

    def inside_side(self, t0: float, t1: float, default: int = 1) -> int:
        """+1 when the road bends left over [t0, t1], -1 when it bends right, else ``default``."""
        mid = (t0 + t1) / 2
        turn = self.turning(t0, mid) + self.turning(mid, t1)
        if abs(turn) < 1e-3:
            return default
        return 1 if turn > 0 else -1

    def _frames(self, t0: float, t1: float) -> list[tuple[float, float, float, float]]:
        """(x, y, tx, ty) of the centreline point and driving direction at each sample of ``kerb(t0, t1, u)``
        (kept: the lanes of a zone and both sides of a band sample the same stretch)."""
        key = (t0, t1)
        frames = self._frame_cache.get(key)
        if frames is None:
            n = max(1, math.ceil(abs(t1 - t0) * 24 * max(1.0, self.length / (2 * self.layout.size))))
            frames = self._frame_cache[key] = self._sample(t0, t1, n)
        return frames

    def _sample(self, t0: float, t1: float, n: int) -> list[tuple[float, float, float, float]]:
        """(x, y, tx, ty) at ``n + 1`` fractions evenly from ``t0`` to ``t1``: the same point as ``self.at(t, 0)``
        and the same direction as ``self.tangent(t)``, without the calls."""
        pts, dirs, cum, length = self._pts, self._dirs, self._cum, self.length
        last = len(cum) - 2
        dt = t1 - t0
        out = []
        for i in range(n + 1):
            t = t0 + dt * i / n
            # min(max(t, 0.0), 1.0) and min(max(k, 0), last) without the calls
            s = ((t if t <= 1.0 else 1.0) if t >= 0.0 else 0.0) * length
            k = bisect_right(cum, s) - 1
            if k < 0:
                k = 0
            elif k > last:
                k = last
            seg = cum[k + 1] - cum[k]
            f = (s - cum[k]) / seg if seg else 0.0
            (ax, ay), (bx, by) = pts[k], pts[k + 1]
            tx, ty = dirs[k]
            out.append((ax + (bx - ax) * f, ay + (by - ay) * f, tx, ty))
        return out

    def kerb(self, t0: float, t1: float, u: float) -> list[Point]:
        """Points along the line at ``u`` across the road, from ``t0`` to ``t1``."""
        return [(x + ty * u, y - tx * u) for x, y, tx, ty in self._frames(t0, t1)]

    def band(self, t0: float, t1: float, u0: float, u1: float) -> list[Point]:
        """Closed outline of the strip ``t0..t1`` along the road and ``u0..u1`` across it."""
        return self.kerb(t0, t1, u0) + list(reversed(self.kerb(t0, t1, u1)))

    def cross(self, t: float, u0: float, u1: float) -> list[Point]:
        """A segment across the road at ``t`` from ``u0`` to ``u1``."""
        return [self.at(t, u0), self.at(t, u1)]


def _serpentine(length: float, samples: int) -> list[Point]:
    """A double hairpin from (0, 0) to (``length``, 0) heading +x, in (along, left) coordinates.

    Arcs of one radius ``r``: 60 degrees left, 120 right, a straight run back across the axis, 120
    left, 60 right (zones 1-5 of 215 as printed); ``6 r sin 60 + 2 r (1 - cos 60) cos 60 / sin 60 =
    length`` makes it end on the axis, square to the exit edge.
    """
    theta = math.radians(60)
    s, c = math.sin(theta), math.cos(theta)
    r = length / (6 * s + 2 * (1 - c) * c / s)
    run = 2 * r * (1 - c) / s
    # (turn in radians, + left; or None for the straight run)
    pieces: list[float | None] = [theta, -2 * theta, None, 2 * theta, -theta]
    x = y = heading = 0.0
    pts: list[Point] = [(0.0, 0.0)]
    for turn in pieces:
        if turn is None:
            n = max(2, samples // 4)
            for i in range(1, n + 1):
                pts.append((x + math.cos(heading) * run * i / n, y + math.sin(heading) * run * i / n))
            x, y = pts[-1]
            continue
        n = max(4, round(samples * abs(turn) / math.pi))
        sign = 1.0 if turn > 0 else -1.0
        # centre of the arc: r to the left (or right) of the heading
        cx, cy = x - sign * r * math.sin(heading), y + sign * r * math.cos(heading)
        a0 = math.atan2(y - cy, x - cx)
        for i in range(1, n + 1):
            a = a0 + turn * i / n
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
        x, y = pts[-1]
        heading += turn
    pts[-1] = (length, 0.0)
    return pts


def _hugging(start: Point, end: Point, heading: Point, radius: float, samples: int) -> list[Point]:
    """A road between edges two apart that keeps near the chord between their middles (two roads side by
    side on one tile): it leaves ``start`` along ``heading`` (square to the edge), turns onto the chord's
    direction on an arc of ``radius``, runs parallel to the chord and turns out square to the exit edge on
    a second such arc. It strays ``radius (1 - cos 30)`` from the chord, so two such roads on one tile
    clear each other."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    # the side of the chord the entry heading leans to (+1 left of the chord, y down), and by how much
    side = 1.0 if (ux * heading[1] - uy * heading[0]) < 0 else -1.0
    theta = math.acos(max(-1.0, min(1.0, ux * heading[0] + uy * heading[1])))
    theta = min(theta, math.asin(min(1.0, length / (2 * radius))))
    x1, y1 = radius * math.sin(theta), radius * (1 - math.cos(theta))
    n = max(4, samples // 3)
    local: list[Point] = []
    for i in range(n + 1):  # heading theta -> 0 about the centre (0, y1 - ... ) below the path
        a = theta * (1 - i / n)
        local.append((x1 - radius * math.sin(a), y1 - radius * (1 - math.cos(a))))
    for i in range(1, n):
        local.append((x1 + (length - 2 * x1) * i / n, y1))
    for i in range(n + 1):
        a = theta * i / n
        local.append((length - x1 + radius * math.sin(a), y1 - radius * (1 - math.cos(a))))
    # left of the chord on screen (y down) is (uy, -ux)
    lx, ly = uy * side, -ux * side
    pts = [(start[0] + ux * x + lx * y, start[1] + uy * x + ly * y) for x, y in local]
    pts[0], pts[-1] = start, end
    return pts


def _lerp(a: Point, b: Point, f: float) -> Point:
    return (a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f)


def _arc(pivot: Point, start: Point, end: Point, samples: int) -> list[Point]:
    """Points on the short circular arc about ``pivot`` from ``start`` to ``end``."""
    a0 = math.atan2(start[1] - pivot[1], start[0] - pivot[0])
    a1 = math.atan2(end[1] - pivot[1], end[0] - pivot[0])
    sweep = (a1 - a0 + math.pi) % (2 * math.pi) - math.pi
    radius = math.dist(start, pivot)
    return [
        (pivot[0] + radius * math.cos(a0 + sweep * i / samples),
         pivot[1] + radius * math.sin(a0 + sweep * i / samples))
        for i in range(samples + 1)
    ]
