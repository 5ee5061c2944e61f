"""Placing labels off the road: a per-cell index of what must stay visible, and a first-fit placer.

Every road body, Assistance area and placed label is filed under the hex cells it touches, so a
label looks only at its own cell and the six around it: placing all labels of a stage is linear
in its length. A label is a box (model mm); a spot is valid when the box clears every road
polygon and every label placed before it (and, when asked, stays inside its own hexagon).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from rallyc.render.geometry import HexLayout, Point
from rallyc.render.measure import rect_hits_polygon

__all__ = ["Rect", "LabelIndex"]

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

    def cell_of(self, p: Point) -> tuple[int, int]:
        """The axial cell whose hexagon holds ``p``."""
        return self.layout.cell_at(p)

    def _cells_of(self, xs: Iterable[float], ys: Iterable[float]) -> set[tuple[int, int]]:
        xs, ys = list(xs), list(ys)
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
        step = self.layout.size * 0.8
        nx = max(1, math.ceil((x1 - x0) / step))
        ny = max(1, math.ceil((y1 - y0) / step))
        return {self.cell_of((x0 + (x1 - x0) * i / nx, y0 + (y1 - y0) * j / ny))
                for i in range(nx + 1) for j in range(ny + 1)}

    def add_polygon(self, poly: Sequence[Point]) -> None:
        """File a road-like area that no label may cover."""
        for cell in self._cells_of((p[0] for p in poly), (p[1] for p in poly)):
            self.polygons.setdefault(cell, []).append(poly)
        self._polys_near.clear()

    def add_box(self, box: Rect) -> None:
        """File a placed label so later labels keep clear of it."""
        for cell in self._cells_of((box.x0, box.x1), (box.y0, box.y1)):
            self.boxes.setdefault(cell, []).append(box)

    def _near(self, box: Rect):
        q, r = self.cell_of(((box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2))
        polys = self._polys_near.get((q, r))
        if polys is None:
            polys = []
            for dq, dr in _NEIGHBOURS:
                for poly in self.polygons.get((q + dq, r + dr), ()):
                    xs = [p[0] for p in poly]
                    ys = [p[1] for p in poly]
                    polys.append((min(xs), min(ys), max(xs), max(ys), poly))
            self._polys_near[(q, r)] = polys
        rects: list[Rect] = []
        for dq, dr in _NEIGHBOURS:
            rects += self.boxes.get((q + dq, r + dr), ())
        return polys, rects

    def free(self, box: Rect, inside: Sequence[Point] | None = None) -> bool:
        """True when ``box`` clears every filed polygon and label (and lies inside ``inside``)."""
        b = self.bounds
        if b is not None and not (b.x0 <= box.x0 and box.x1 <= b.x1 and b.y0 <= box.y0 and box.y1 <= b.y1):
            return False
        polys, rects = self._near(box)
        if any(box.hits(other) for other in rects):
            return False
        if inside is not None and not all(_in_convex((x, y), inside) for x in (box.x0, box.x1)
                                           for y in (box.y0, box.y1)):
            return False
        # a small gap between the text and the road edge: printed, touching reads as on the road
        pad = 0.01 * self.layout.size
        x0, y0, x1, y1 = box.x0 - pad, box.y0 - pad, box.x1 + pad, box.y1 + pad
        return not any(px0 < x1 and x0 < px1 and py0 < y1 and y0 < py1 and rect_hits_polygon(x0, y0, x1, y1, poly)
                       for px0, py0, px1, py1, poly in polys)

    def place(self, candidates: Sequence[Point], w: float, h: float,
              inside: Sequence[Point] | None = None, file_failed: bool = True) -> tuple[Point, bool]:
        """The first candidate centre where a ``w`` x ``h`` box is free, filed; (first candidate, False) if none
        (filed too unless ``file_failed`` is False)."""
        for at in candidates:
            box = Rect.around(at, w, h)
            if self.free(box, inside):
                self.add_box(box)
                return at, True
        at = candidates[0]
        if file_failed:
            self.add_box(Rect.around(at, w, h))
        return at, False


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
