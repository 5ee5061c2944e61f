"""Placing labels off the road: a per-cell index of what must stay visible, and a first-fit placer.

Every road body, Assistance area and placed label is filed under the hex cells it touches, so a
label looks only at its own cell and the six around it: placing all labels of a stage is linear
in its length. A label is a box (model mm); a spot is valid when the box clears every road
polygon and every label placed before it (and, when asked, stays inside its own hexagon).
"""

from __future__ import annotations

import math
from itertools import repeat
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from rallyc.render.geometry import HexLayout, Point
from rallyc.render.measure import _segments_cross

__all__ = ["Rect", "LabelIndex", "by_clearance"]

_NEIGHBOURS = ((0, 0), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))


@dataclass(frozen=True)
class Rect:
    """An axis-aligned box (model mm)."""

    x0: float
    y0: float
    x1: float
    y1: float

    @staticmethod
    def around(at: Point, w: float, h: float) -> "Rect":
        """The ``w`` x ``h`` box centred on ``at``."""
        return Rect(at[0] - w / 2, at[1] - h / 2, at[0] + w / 2, at[1] + h / 2)

    def hits(self, other: "Rect") -> bool:
        return self.x0 < other.x1 and other.x0 < self.x1 and self.y0 < other.y1 and other.y0 < self.y1


@dataclass
class LabelIndex:
    """Road polygons and placed labels filed by hex cell."""

    layout: HexLayout
    polygons: dict[tuple[int, int], list[Sequence[Point]]] = field(default_factory=dict)
    boxes: dict[tuple[int, int], list[Rect]] = field(default_factory=dict)
    #: when set, a label must lie inside it (the sheet shows this box)
    bounds: Rect | None = None
    #: per cell: (bounding box, polygon) of every road polygon filed in it and the six around it
    _polys_near: dict = field(default_factory=dict, repr=False)
    #: per cell: the labels filed in it and the six around it
    _boxes_near: dict = field(default_factory=dict, repr=False)
    #: per cell: each filed polygon prepared once for the rectangle test (``_prepared``)
    _prepared: dict = field(default_factory=dict, repr=False)
    #: each polygon a label must lie inside, prepared once (``_region``)
    _regions: dict = field(default_factory=dict, repr=False)
    #: the page-to-axial matrix of ``layout`` (m00, m01, m10, m11), for the cell lookups written inline
    _inverse: tuple[float, float, float, float] = field(init=False, repr=False)
    #: per cell: the label box of its near list that last kept a label out (``_clear`` tries it first: the
    #: candidates of one label mostly fail on the same box). A box stays in the near lists it is filed in (boxes
    #: are only ever added), so a blocker found once may be asked again
    _blockers: dict = field(default_factory=dict, repr=False)
    #: per cell: a vertex of a road polygon of its near list that was last inside a label's box (a box holding
    #: it hits that polygon: ``_clear`` tries it first too)
    _vertex_blockers: dict = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        (m00, m10), (m01, m11) = self.layout.axial((1.0, 0.0)), self.layout.axial((0.0, 1.0))
        self._inverse = (m00, m01, m10, m11)

    def cell_of(self, p: Point) -> tuple[int, int]:
        """The axial cell whose hexagon holds ``p``."""
        return self.layout.cell_at(p)

    def _cells_of(self, x0: float, y0: float, x1: float, y1: float) -> set[tuple[int, int]]:
        """The cells of a grid of points over the box (x0, y0)-(x1, y1), at most 0.8 R apart."""
        step = self.layout.size * 0.8
        nx = max(1, math.ceil((x1 - x0) / step))
        ny = max(1, math.ceil((y1 - y0) / step))
        m00, m01, m10, m11 = self._inverse
        cells = set()
        for i in range(nx + 1):
            px = x0 + (x1 - x0) * i / nx
            for j in range(ny + 1):
                py = y0 + (y1 - y0) * j / ny
                # HexLayout.cell_at((px, py)), written inline (the same arithmetic)
                fq = px * m00 + py * m01
                fr = px * m10 + py * m11
                fs = -fq - fr
                q, r, s = round(fq), round(fr), round(fs)
                dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
                if dq > dr and dq > ds:
                    q = -r - s
                elif dr > ds:
                    r = -q - s
                cells.add((q, r))
        return cells

    def add_polygon(self, poly: Sequence[Point]) -> None:
        """File a road-like area that no label may cover."""
        prepared = _prepared(poly)
        for cell in self._cells_of(*prepared[:4]):
            self.polygons.setdefault(cell, []).append(poly)
            self._prepared.setdefault(cell, []).append(prepared)
        self._polys_near.clear()

    def add_box(self, box: Rect) -> None:
        """File a placed label so later labels keep clear of it."""
        near = self._boxes_near
        x0, y0, x1, y1 = box.x0, box.y0, box.x1, box.y1
        cells = self._cells_of(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
        boxes = self.boxes
        for cell in cells:
            filed = boxes.get(cell)
            if filed is None:
                boxes[cell] = [box]
            else:
                filed.append(box)
        # each cell whose near list holds the box once (a box over several cells is near their neighbours),
        # as a plain (x0, y0, x1, y1) for ``_clear``
        plain = (x0, y0, x1, y1)
        if len(cells) == 1:
            (q, r), = cells
            around: Iterable[tuple[int, int]] = [(q - dq, r - dr) for dq, dr in _NEIGHBOURS]
        else:
            around = {(q - dq, r - dr) for q, r in cells for dq, dr in _NEIGHBOURS}
        for cell in around:
            filed = near.get(cell)
            if filed is None:
                near[cell] = [plain]
            else:
                filed.append(plain)

    def _near_cell(self, q: int, r: int) -> list:
        """(bounding box, prepared polygon) of every road polygon filed in cell (q, r) and the six around it."""
        polys = self._polys_near.get((q, r))
        if polys is None:
            polys = []
            for dq, dr in _NEIGHBOURS:
                polys += self._prepared.get((q + dq, r + dr), ())
            self._polys_near[(q, r)] = polys
        return polys

    def free(self, box: Rect, inside: Sequence[Point] | None = None) -> bool:
        """True when ``box`` clears every filed polygon and label (and lies inside ``inside``)."""
        return self._free(box.x0, box.y0, box.x1, box.y1, None if inside is None else self._region(inside))

    def _region(self, poly: Sequence[Point]) -> "_Convex":
        """``poly`` prepared for the inside test, once per polygon (a tile's hexagon serves several labels)."""
        key = tuple(poly)
        region = self._regions.get(key)
        if region is None:
            region = self._regions[key] = _Convex(poly)
        return region

    def _free(self, x0: float, y0: float, x1: float, y1: float, inside: "_Convex | None") -> bool:
        b = self.bounds
        if b is not None and not (b.x0 <= x0 and x1 <= b.x1 and b.y0 <= y0 and y1 <= b.y1):
            return False
        if inside is not None and not inside.holds_box(x0, y0, x1, y1):
            return False
        return self._clear(x0, y0, x1, y1)

    def _clear(self, x0: float, y0: float, x1: float, y1: float) -> bool:
        """``_free`` past the bounds and region tests: the box clears the labels and road polygons filed near it."""
        # HexLayout.cell_at of the box's centre, written inline (the same arithmetic)
        m00, m01, m10, m11 = self._inverse
        px, py = (x0 + x1) / 2, (y0 + y1) / 2
        fq = px * m00 + py * m01
        fr = px * m10 + py * m11
        fs = -fq - fr
        q, r, s = round(fq), round(fr), round(fs)
        dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
        if dq > dr and dq > ds:
            q = -r - s
        elif dr > ds:
            r = -q - s
        cell = (q, r)
        blocker = self._blockers.get(cell)
        if blocker is not None:
            bx0, by0, bx1, by1 = blocker
            if x0 < bx1 and bx0 < x1 and y0 < by1 and by0 < y1:
                return False
        for box in self._boxes_near.get(cell, ()):
            bx0, by0, bx1, by1 = box
            if x0 < bx1 and bx0 < x1 and y0 < by1 and by0 < y1:
                self._blockers[cell] = box
                return False
        # a small gap between the text and the road edge: printed, touching reads as on the road
        pad = 0.01 * self.layout.size
        x0, y0, x1, y1 = x0 - pad, y0 - pad, x1 + pad, y1 + pad
        vertex = self._vertex_blockers.get(cell)
        if vertex is not None and x0 < vertex[0] < x1 and y0 < vertex[1] < y1:
            return False  # _hits_prepared's first test, on the polygon that vertex is of
        polys = self._polys_near.get(cell)
        if polys is None:
            polys = self._near_cell(q, r)
        for px0, py0, px1, py1, poly, prep in polys:
            if px0 < x1 and x0 < px1 and py0 < y1 and y0 < py1:
                # _hits_prepared(x0, y0, x1, y1, poly, prep), noting the vertex when that is what hits
                for v in poly:
                    if x0 < v[0] < x1 and y0 < v[1] < y1:
                        self._vertex_blockers[cell] = v
                        return False
                if _hits_past_vertices(x0, y0, x1, y1, poly, prep):
                    return False
        return True

    def _sheet_limits(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) a filed box must lie within: the sheet's bounds, or unbounded without a sheet."""
        b = self.bounds
        if b is None:
            return -math.inf, -math.inf, math.inf, math.inf
        return b.x0, b.y0, b.x1, b.y1

    def place(self, candidates: Sequence[Point], w: float, h: float,
              inside: Sequence[Point] | None = None, file_failed: bool = True) -> tuple[Point, bool]:
        """The first candidate centre where a ``w`` x ``h`` box is free, filed; (first candidate, False) if none
        (filed too unless ``file_failed`` is False)."""
        region = None if inside is None else self._region(inside)
        hw, hh = w / 2, h / 2
        bx0, by0, bx1, by1 = self._sheet_limits()
        for ax, ay in candidates:
            # the box Rect.around(at, w, h) would give; the sheet's bounds and the region (``_free``'s first
            # two tests, the cheap ones) inline
            x0, y0, x1, y1 = ax - hw, ay - hh, ax + hw, ay + hh
            if not (bx0 <= x0 and x1 <= bx1 and by0 <= y0 and y1 <= by1):
                continue
            if region is not None and not region.holds_box(x0, y0, x1, y1):
                continue
            if self._clear(x0, y0, x1, y1):
                self.add_box(Rect(x0, y0, x1, y1))
                return (ax, ay), True
        at = candidates[0]
        if file_failed:
            self.add_box(Rect.around(at, w, h))
        return at, False


    def place_by_clearance(self, candidates: Sequence[Point], samples: Sequence[Point], w: float, h: float,
                           inside: Sequence[Point] | None = None, file_failed: bool = True) -> tuple[Point, bool]:
        """``place(by_clearance(candidates, samples), w, h, inside, file_failed)``, with the same answer and the
        same box filed, without measuring every candidate's clearance against every sample.

        The clearance of a candidate is at most its distance to a few of the samples (every fourth): that
        bound orders the candidates, each is tested free or not in that order, and a free candidate's exact
        clearance is measured; the first free candidate in the exact order is known as soon as its exact key
        beats the bound of every candidate not yet tested. When none is free, the candidate with the best
        exact key (``by_clearance``'s first) is found the same way and filed if asked.
        """
        if not samples:
            return self.place(candidates, w, h, inside, file_failed)
        dist = math.dist
        probe = samples[::4]
        # (sort key of by_clearance, index): the index breaks ties as the stable sort does. The bound's first
        # part is -(distance to the probe + 0.000501), never above the exact -round(distance, 3): rounding to
        # three decimals moves a number by 0.0005 at most (and the probe's distance is never below the exact)
        bound = sorted([(-0.000501 - min(map(dist, repeat(c), probe)), -c[1], -c[0], i)
                        for i, c in enumerate(candidates)])
        region = None if inside is None else self._region(inside)
        hw, hh = w / 2, h / 2
        bx0, by0, bx1, by1 = self._sheet_limits()
        best: tuple | None = None  # the best exact key of the free candidates found so far
        for k, key in enumerate(bound):
            if best is not None and best < key:
                break  # no candidate left can come before it
            ax, ay = candidates[key[3]]
            x0, y0, x1, y1 = ax - hw, ay - hh, ax + hw, ay + hh
            if not (bx0 <= x0 and x1 <= bx1 and by0 <= y0 and y1 <= by1):
                continue
            if region is not None and not region.holds_box(x0, y0, x1, y1):
                continue
            if not self._clear(x0, y0, x1, y1):
                continue
            exact = (-round(min(map(dist, repeat((ax, ay)), samples)), 3), key[1], key[2], key[3])
            if best is None or exact < best:
                best = exact
        if best is not None:
            ax, ay = candidates[best[3]]
            self.add_box(Rect(ax - hw, ay - hh, ax + hw, ay + hh))
            return (ax, ay), True
        # none is free: by_clearance's first candidate
        first: tuple | None = None
        for key in bound:
            if first is not None and first < key:
                break
            c = candidates[key[3]]
            exact = (-round(min(map(dist, repeat(c), samples)), 3), key[1], key[2], key[3])
            if first is None or exact < first:
                first = exact
        assert first is not None
        at = candidates[first[3]]
        if file_failed:
            self.add_box(Rect.around(at, w, h))
        return at, False


def by_clearance(candidates: Sequence[Point], samples: Sequence[Point]) -> list[Point]:
    """Candidates farthest from the road centrelines (``samples``) first (ties: lower, then right)."""
    if not samples:
        return list(candidates)
    dist = math.dist
    return sorted(candidates, key=lambda c: (-round(min(map(dist, repeat(c), samples)), 3), -c[1], -c[0]))


class _Convex:
    """A convex polygon (a hexagon) prepared for ``_box_in_edges``'s test, with a quick answer for most points.

    A point well inside the circle inscribed about the vertex mean is inside (every cross product of
    ``_box_in_edges`` has the same sign, far from its 1e-9 tolerance); a point well outside the circle
    through the farthest vertex is outside (one cross product has the other sign, and the cross products
    always sum to twice the polygon's signed area, so another has the polygon's sign). Points between the
    circles get the exact test. Same answer as ``_box_in_edges`` for every box.
    """

    __slots__ = ("edges", "cx", "cy", "in2", "out2")

    def __init__(self, poly: Sequence[Point]) -> None:
        self.edges = _edges(poly)
        n = len(poly)
        # (sums of lists, min and max of maps: the same numbers as the plain generator expressions, faster)
        cx = sum([p[0] for p in poly]) / n
        cy = sum([p[1] for p in poly]) / n
        self.cx, self.cy = cx, cy
        self.in2, self.out2 = -1.0, math.inf  # no quick answer
        if n < 3:
            return
        far = max(map(math.dist, repeat((cx, cy)), poly))
        lengths = [math.hypot(dx, dy) for _, _, dx, dy in self.edges]
        if min(lengths) <= 0:
            return
        # signed distance of the vertex mean from each edge's line
        dists = [(dx * (cy - ey) - dy * (cx - ex)) / n_ for (ex, ey, dx, dy), n_ in zip(self.edges, lengths)]
        if not (min(dists) > 0 or max(dists) < 0):
            return
        margin = 1e-6 * far
        # a point ``margin`` inside every edge line has cross products of at least margin x edge length
        if margin * min(lengths) < 1e-6:
            return
        near = min(map(abs, dists)) - margin
        if near > 0:
            self.in2 = near * near
        if _corners_wider_than_60(poly):
            # outside the far circle by ``margin``: some edge line is at least margin x sin(half the sharpest
            # corner) away on the outer side
            self.out2 = (far + margin) ** 2

    def holds_box(self, x0: float, y0: float, x1: float, y1: float) -> bool:
        """``_box_in_edges(x0, y0, x1, y1, edges)``."""
        cx, cy, in2, out2 = self.cx, self.cy, self.in2, self.out2
        # the corner farthest from the centre decides for the whole box when it is clearly in or out
        fx = x0 - cx if cx - x0 > x1 - cx else x1 - cx
        fy = y0 - cy if cy - y0 > y1 - cy else y1 - cy
        far = fx * fx + fy * fy
        if far < in2:
            return True
        if far > out2:
            return False
        for px, py in ((x0, y0), (x0, y1), (x1, y0), (x1, y1)):
            d2 = (px - cx) * (px - cx) + (py - cy) * (py - cy)
            if d2 < in2:
                continue
            if d2 > out2:
                return False
            if not _in_edges(px, py, self.edges):
                return False
        return True


def _corners_wider_than_60(poly: Sequence[Point]) -> bool:
    """``_sharpest_sine(poly) > 0.5`` (every interior angle wider than 60 degrees) from the corners' cosines, without
    ``acos`` and ``sin``: sin(acos(c) / 2) > 0.5 exactly when c < 0.5; a cosine within 1e-9 of 0.5 asks
    ``_sharpest_sine`` itself, so the answer is the same."""
    n = len(poly)
    for i in range(n):
        (ax, ay), (bx, by), (cx, cy) = poly[i - 1], poly[i], poly[(i + 1) % n]
        ux, uy, vx, vy = ax - bx, ay - by, cx - bx, cy - by
        nu, nv = math.hypot(ux, uy), math.hypot(vx, vy)
        if not nu or not nv:
            return False
        cos = (ux * vx + uy * vy) / (nu * nv)
        if -1e-9 < cos - 0.5 < 1e-9:
            return _sharpest_sine(poly) > 0.5
        if cos >= 0.5:
            return False
    return True


def _sharpest_sine(poly: Sequence[Point]) -> float:
    """The sine of half the polygon's sharpest interior angle."""
    n = len(poly)
    least = 1.0
    for i in range(n):
        (ax, ay), (bx, by), (cx, cy) = poly[i - 1], poly[i], poly[(i + 1) % n]
        ux, uy, vx, vy = ax - bx, ay - by, cx - bx, cy - by
        nu, nv = math.hypot(ux, uy), math.hypot(vx, vy)
        if not nu or not nv:
            return 0.0
        cos = max(-1.0, min(1.0, (ux * vx + uy * vy) / (nu * nv)))
        least = min(least, math.sin(math.acos(cos) / 2))
    return least


def _prepared(poly: Sequence[Point]) -> tuple:
    """A road polygon with what the rectangle test needs computed once: its bounding box (and its edges, a list
    filled when first needed)."""
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    # the edges are worked out by ``_hits_prepared`` the first time it needs them (a large label box usually
    # holds a vertex of the road and needs no edge)
    return (min(xs), min(ys), max(xs), max(ys), poly, [])


def _prepared_edges(poly: Sequence[Point]) -> list:
    """(ax, ay, bx, by, dx, dy, and the edge's bounding box) of each edge of ``poly``."""
    # (min(a, b) is ``a if a <= b else b`` and max(a, b) ``a if a >= b else b``, without the calls)
    return [(ax, ay, bx, by, bx - ax, by - ay, ax if ax <= bx else bx, ay if ay <= by else by,
             ax if ax >= bx else bx, ay if ay >= by else by)
            for (ax, ay), (bx, by) in zip(poly, [*poly[1:], poly[0]])]


def _hits_prepared(x0: float, y0: float, x1: float, y1: float, poly: Sequence[Point], edges: list) -> bool:
    """``measure.rect_hits_polygon(x0, y0, x1, y1, poly)`` (same result) on a prepared polygon whose bounding
    box is known to overlap the rectangle's."""
    if not poly:
        return False
    for x, y in poly:
        if x0 < x < x1 and y0 < y < y1:
            return True
    return _hits_past_vertices(x0, y0, x1, y1, poly, edges)


def _hits_past_vertices(x0: float, y0: float, x1: float, y1: float, poly: Sequence[Point], edges: list) -> bool:
    """``_hits_prepared`` for a box that holds no vertex of the polygon: the box's corners or centre inside it, or
    an edge crossing the box's."""
    if not poly:
        return False
    if not edges:
        edges += _prepared_edges(poly)
    # the corners and the centre inside the polygon (ray casting, as measure._inside): three heights
    cm = (x0 + x1) / 2
    for cy, xs in ((y0, (x0, x1)), (y1, (x1, x0)), ((y0 + y1) / 2, (cm,))):
        crossings = [ax + (cy - ay) * dx / dy for ax, ay, bx, by, dx, dy, _, _, _, _ in edges
                     if (ay > cy) != (by > cy)]
        for cx in xs:
            if sum(1 for c in crossings if cx < c) % 2:
                return True
    corners = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
    # two segments that cross (as measure._segments_cross decides) touch each other's bounding boxes
    m = 1e-6
    for ax, ay, bx, by, _, _, ex0, ey0, ex1, ey1 in edges:
        if ex1 < x0 - m or ex0 > x1 + m or ey1 < y0 - m or ey0 > y1 + m:
            continue
        for k in range(4):
            if _segments_cross((ax, ay), (bx, by), corners[k], corners[(k + 1) % 4]):
                return True
    return False


def _edges(poly: Sequence[Point]) -> list[tuple[float, float, float, float]]:
    """(x0, y0, x1 - x0, y1 - y0) of each edge of a polygon, for ``_in_edges``."""
    if not poly:
        return []
    return [(x0, y0, x1 - x0, y1 - y0) for (x0, y0), (x1, y1) in zip(poly, [*poly[1:], poly[0]])]


def _box_in_edges(x0: float, y0: float, x1: float, y1: float, edges: list[tuple[float, float, float, float]]) -> bool:
    """``_in_edges`` of the four corners (x0, y0), (x0, y1), (x1, y0), (x1, y1), in that order, in one call."""
    for px, py in ((x0, y0), (x0, y1), (x1, y0), (x1, y1)):
        sign = 0
        for ex, ey, dx, dy in edges:
            cross = dx * (py - ey) - dy * (px - ex)
            if -1e-9 < cross < 1e-9:
                continue
            s = 1 if cross > 0 else -1
            if sign and s != sign:
                return False
            sign = s
    return True


def _in_edges(px: float, py: float, edges: list[tuple[float, float, float, float]]) -> bool:
    """``_in_convex((px, py), poly)`` on the polygon's prepared edges (same result)."""
    sign = 0
    for x0, y0, dx, dy in edges:
        cross = dx * (py - y0) - dy * (px - x0)
        if abs(cross) < 1e-9:
            continue
        s = 1 if cross > 0 else -1
        if sign and s != sign:
            return False
        sign = s
    return True


def _in_convex(p: Point, poly: Sequence[Point]) -> bool:
    """True when ``p`` is inside (or on) a convex polygon listed clockwise on screen."""
    n = len(poly)
    sign = 0
    for i in range(n):
        (x0, y0), (x1, y1) = poly[i], poly[(i + 1) % n]
        cross = (x1 - x0) * (p[1] - y0) - (y1 - y0) * (p[0] - x0)
        if abs(cross) < 1e-9:
            continue
        s = 1 if cross > 0 else -1
        if sign and s != sign:
            return False
        sign = s
    return True
