"""Page helpers of the maps: coordinates written to SVG, polylines as path data, centroids.

Where cells, roads and spaces lie is :mod:`rallyc.geometry.tile`, the one model shared with the
track files (interop); its names are re-exported here for the render modules.
"""

from __future__ import annotations

from itertools import chain
from typing import Sequence

from rallyc.geometry.tile import SQRT3, Centreline, HexLayout, Point, point_in_polygon

__all__ = ["Point", "HexLayout", "Centreline", "SQRT3", "fmt", "path_d", "point_in_polygon", "polygon_centroid"]


def fmt(value: float) -> str:
    """A coordinate with two decimals, never ``-0.00``."""
    text = f"{value:.2f}"
    return "0.00" if text == "-0.00" else text


def path_d(points: Sequence[Point], closed: bool = True) -> str:
    """SVG path data for a polyline (closed with ``Z`` when asked)."""
    if not points:
        return ""
    # one %-format of every coordinate (the same text as f"{x:.2f},{y:.2f}" point by point, faster)
    n = len(points)
    template = _PATH_TEMPLATES.get((n, closed))
    if template is None:
        template = _PATH_TEMPLATES[(n, closed)] = "M" + "L".join(["%.2f,%.2f"] * n) + ("Z" if closed else "")
    d = template % tuple(chain.from_iterable(points))
    # every number has two decimals, so "-0.00" occurs only as a whole number: written "0.00" as fmt does
    return d.replace("-0.00", "0.00") if "-0.00" in d else d


#: path_d's format string for each (number of points, closed)
_PATH_TEMPLATES: dict[tuple[int, bool], str] = {}


def polygon_centroid(points: Sequence[Point]) -> Point:
    """Area centroid of a simple polygon (falls back to the vertex mean when degenerate)."""
    area = cx = cy = 0.0
    n = len(points)
    for i in range(n):
        x0, y0 = points[i]
        x1, y1 = points[(i + 1) % n]
        cross = x0 * y1 - x1 * y0
        area += cross
        cx += (x0 + x1) * cross
        cy += (y0 + y1) * cross
    if abs(area) < 1e-9:
        return (sum(p[0] for p in points) / n, sum(p[1] for p in points) / n)
    return (cx / (3 * area), cy / (3 * area))
