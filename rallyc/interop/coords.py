"""Coordinate conversions between the rallyc/Rekee axial grid and the RGT editor's grid.

Source: /work/shared/data/formats.md (checked there on worked examples).

- Cells: RGT uses offset rows with a mirrored X:
  ``r = Y - 52``, ``q = 81 - X - floor((Y + 1) / 2)`` and back
  ``Y = r + 52``, ``X = 81 - q - floor((Y + 1) / 2)``.
- Token offsets: RGT measures in hex circumradii in the tile's own frame, X mirrored:
  ``X = -sqrt(3) * (q + r / 2)``, ``Y = 1.5 * r``; back ``r = 2Y / 3``, ``q = -X / sqrt(3) - Y / 3``.
- Rotations: RGT token Orientation is in degrees (60 x Rekee dir).
"""

from __future__ import annotations

import math

__all__ = ["rgt_cell_to_axial", "axial_to_rgt_cell", "rgt_offset_to_axial", "axial_offset_to_rgt",
           "axial_offset_to_xy", "xy_to_axial_offset"]

_SQRT3 = math.sqrt(3.0)


def rgt_cell_to_axial(x: int, y: int) -> tuple[int, int]:
    """RGT (X, Y) -> axial (q, r)."""
    r = y - 52
    q = 81 - x - (y + 1) // 2
    return q, r


def axial_to_rgt_cell(q: int, r: int) -> tuple[int, int]:
    """Axial (q, r) -> RGT (X, Y)."""
    y = r + 52
    x = 81 - q - (y + 1) // 2
    return x, y


def rgt_offset_to_axial(x: float, y: float) -> tuple[float, float]:
    """RGT token offset (X, Y) -> axial offset (q, r)."""
    return -x / _SQRT3 - y / 3.0, 2.0 * y / 3.0


def axial_offset_to_rgt(q: float, r: float) -> tuple[float, float]:
    """Axial token offset (q, r) -> RGT offset (X, Y)."""
    return -_SQRT3 * (q + r / 2.0), 1.5 * r


def axial_offset_to_xy(q: float, r: float) -> tuple[float, float]:
    """Axial offset -> screen x, y (unit = hex circumradius, y down; pointy-top hexes).

    Edge A (neighbour (+1, 0)) lies at angle 0 (x axis), then clockwise on screen.
    """
    return _SQRT3 * (q + r / 2.0), 1.5 * r


def xy_to_axial_offset(x: float, y: float) -> tuple[float, float]:
    """Screen x, y -> axial offset (inverse of :func:`axial_offset_to_xy`)."""
    r = y / 1.5
    return x / _SQRT3 - r / 2.0, r
