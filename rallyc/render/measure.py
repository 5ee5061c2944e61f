"""Measuring a rendered map as it will print: text sizes in points, text boxes against the road.

Used by the tests (each "what a player sees" rule is a measurement on the SVG) and the
benchmarks. It reads only what the renderer writes: absolute coordinates (no transforms),
``<text>`` with ``x``, ``y`` (baseline), ``font-size`` and ``text-anchor``, and road bodies as
``<path class="road">`` polygons made of ``M``/``L``/``Z`` commands.

Text boxes are estimated without a font engine: ``0.62 em`` per character (``0.68`` bold) is
wider than DejaVu Sans and Arial on digits and capitals, so a box that clears the road here
clears it on paper.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Iterable, Iterator, Sequence

from rallyc.render.geometry import point_in_polygon

__all__ = ["PT_MM", "TextBox", "Measured", "measure", "parse_path", "boxes_cross_polygon", "rect_hits_polygon",
           "text_width"]

SVG = "{http://www.w3.org/2000/svg}"
#: one typographic point in millimetres
PT_MM = 25.4 / 72
_NUM = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")

Point = tuple[float, float]


def text_width(text: str, size: float, bold: bool = False) -> float:
    """A generous estimate of a text's advance width at font size ``size`` (same unit)."""
    return len(text) * size * (0.68 if bold else 0.62)


@dataclass(frozen=True)
class TextBox:
    """One text of the drawing: its words, its box (drawing units), its printed size and what it labels."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    size_pt: float
    #: class of the text and of every group it sits in, innermost first
    classes: tuple[str, ...]

    def overlaps(self, other: "TextBox") -> bool:
        """True when the two boxes share area."""
        return self.x0 < other.x1 and other.x0 < self.x1 and self.y0 < other.y1 and other.y0 < self.y1


@dataclass
class Measured:
    """A parsed SVG page: its print scale, its texts and its road polygons."""

    #: printed millimetres per drawing unit
    scale: float
    width_mm: float
    height_mm: float
    texts: list[TextBox]
    roads: list[list[Point]]
    root: ET.Element


def parse_path(d: str) -> list[Point]:
    """The vertices of an ``M x,y L x,y ... Z`` path (the only form the renderer writes for areas)."""
    nums = [float(n) for n in _NUM.findall(d)]
    return list(zip(nums[0::2], nums[1::2]))


def _mm(length: str) -> float:
    if length.endswith("mm"):
        return float(length[:-2])
    if length.endswith("cm"):
        return float(length[:-2]) * 10
    if length.endswith("in"):
        return float(length[:-2]) * 25.4
    return float(length.rstrip("px")) * 25.4 / 96


def _walk(el: ET.Element, classes: tuple[str, ...]) -> Iterator[tuple[ET.Element, tuple[str, ...]]]:
    own = tuple((el.get("class") or "").split())
    here = own + classes
    yield el, here
    for child in el:
        yield from _walk(child, here)


def measure(svg: str | bytes) -> Measured:
    """Parse one SVG page written by the renderer."""
    root = ET.fromstring(svg.encode("utf-8") if isinstance(svg, str) else svg)
    vb = [float(v) for v in root.get("viewBox", "0 0 1 1").split()]
    width_mm = _mm(root.get("width", f"{vb[2]}mm"))
    height_mm = _mm(root.get("height", f"{vb[3]}mm"))
    scale = width_mm / vb[2]
    texts: list[TextBox] = []
    roads: list[list[Point]] = []
    for el, classes in _walk(root, ()):
        if el.get("transform"):
            raise ValueError("measure reads absolute coordinates only: a transform was found")
        if el.tag == f"{SVG}text":
            words = "".join(el.itertext())
            size = float(el.get("font-size", "0"))
            x, y = float(el.get("x", "0")), float(el.get("y", "0"))
            bold = el.get("font-weight") == "bold"
            w = text_width(words, size, bold)
            anchor = el.get("text-anchor", "start")
            x0 = x - w / 2 if anchor == "middle" else x - w if anchor == "end" else x
            texts.append(TextBox(words, x0, y - 0.78 * size, x0 + w, y + 0.22 * size, size * scale / PT_MM, classes))
        elif el.tag == f"{SVG}path" and "road" in (el.get("class") or "").split():
            # a fork's surface is one path of several closed bodies (one ``M ... Z`` each)
            roads += [parse_path("M" + part) for part in el.get("d", "").split("M") if part.strip()]
    return Measured(scale, width_mm, height_mm, texts, roads, root)


def _segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    def orient(p: Point, q: Point, r: Point) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    d1, d2 = orient(c, d, a), orient(c, d, b)
    d3, d4 = orient(a, b, c), orient(a, b, d)
    return (d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0)


def rect_hits_polygon(x0: float, y0: float, x1: float, y1: float, poly: Sequence[Point]) -> bool:
    """True when the rectangle and the polygon share area (touching edges do not count)."""
    if not poly:
        return False
    px = [p[0] for p in poly]
    py = [p[1] for p in poly]
    if max(px) <= x0 or min(px) >= x1 or max(py) <= y0 or min(py) >= y1:
        return False
    if any(x0 < x < x1 and y0 < y < y1 for x, y in poly):
        return True
    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    if any(point_in_polygon(c, poly) for c in corners) or point_in_polygon(((x0 + x1) / 2, (y0 + y1) / 2), poly):
        return True
    n = len(poly)
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        for k in range(4):
            if _segments_cross(a, b, corners[k], corners[(k + 1) % 4]):
                return True
    return False


def boxes_cross_polygon(boxes: Iterable[TextBox], polygons: Sequence[Sequence[Point]]) -> list[TextBox]:
    """The text boxes that share area with any of ``polygons``."""
    return [b for b in boxes if any(rect_hits_polygon(b.x0, b.y0, b.x1, b.y1, poly) for poly in polygons)]


def overlapping_outlines(outlines: dict[str, Sequence[Point]], step: float, least: float
                         ) -> list[tuple[str, str, float]]:
    """The pairs of space outlines that share area: (id, id, common area) for every pair whose common area,
    sampled on a grid of ``step``, exceeds ``least``. Outlines that coincide (one place drawn for two ids:
    a fork's branch space that is a main-road space) are one place, not an overlap; touching edges share
    no area."""
    # an offset no edge of a drawing lies on, so that a shared edge puts its grid points on one side only
    ox, oy = step * 0.31830988, step * 0.27182818
    cells: dict[str, frozenset[tuple[int, int]]] = {}
    seen: dict[tuple, str] = {}
    for sid, poly in sorted(outlines.items()):
        if len(poly) < 3:
            continue
        key = tuple((round(x / step * 100), round(y / step * 100)) for x, y in poly)
        if key in seen:
            continue
        seen[key] = sid
        xs = [p[0] for p in poly]
        ys = [p[1] for p in poly]
        i0, i1 = math.floor((min(xs) - ox) / step), math.ceil((max(xs) - ox) / step)
        j0, j1 = math.floor((min(ys) - oy) / step), math.ceil((max(ys) - oy) / step)
        cells[sid] = frozenset((i, j) for i in range(i0, i1 + 1) for j in range(j0, j1 + 1)
                               if point_in_polygon((ox + i * step, oy + j * step), poly))
    ids = sorted(cells)
    out = []
    for n, a in enumerate(ids):
        for b in ids[n + 1:]:
            common = len(cells[a] & cells[b]) * step * step
            if common > least:
                out.append((a, b, common))
    return out
