"""The patterns of the printed map: surfaces and road effects told apart without colour (issue 36).

Fills that meet on a map either differ by 3:1 in greyscale and by a CIEDE2000 of 20 or more for
protanopes, deuteranopes and tritanopes, or carry different patterns. Pale tiles cannot differ by 3:1
from one another nor from the roads on them, so each fill but the gravel tile's, the asphalt road's
and the snow road's carries a light motif of its own over its colour: a greyscale copy or a reader
who does not see the colour still tells gravel from the Joker lap.

A pattern is written once per drawing in a ``<defs>`` (``pattern_defs``) and named by ``fill``:
``url(#<prefix>pat-<name>)``. Its size is a fraction of the tile (``cell``), so that it looks the same
at every print scale.
"""

from __future__ import annotations

import re

from rallyc.render import style
from rallyc.render.geometry import fmt

__all__ = ["FILLS", "fill", "pattern_cell", "pattern_defs"]

#: the fill of each surface role: (colour, pattern name or "" for a plain colour)
FILLS: dict[str, tuple[str, str]] = {
    "tile-gravel": (style.TILE_FILL["gravel"], ""),
    "tile-asphalt": (style.TILE_FILL["asphalt"], "asphalt-tile"),
    "tile-snow": (style.TILE_FILL["snow"], "snow-tile"),
    "tile-none": (style.TILE_FILL["none"], "none-tile"),
    "scenery": (style.SCENERY_FILL, "scenery"),
    "road-gravel": (style.ROAD_FILL["gravel"], "gravel"),
    "road-asphalt": (style.ROAD_FILL["asphalt"], ""),
    "road-snow": (style.ROAD_FILL["snow"], ""),
    "road-none": (style.ROAD_FILL["none"], "assistance"),
    "joker": (style.JOKER_FILL, "joker"),
    "pregrid": (style.PREGRID_FILL, "pregrid"),
    "shortcut": (style.SHORTCUT_FILL, "shortcut"),
}

#: each pattern's motif in a 1 x 1 cell: SVG elements (coordinates in cell units, scaled when written), ink
_MOTIFS: dict[str, tuple[str, str]] = {
    # gravel: two grains a cell
    "gravel": ('<circle cx="0.25" cy="0.25" r="0.1" /><circle cx="0.75" cy="0.75" r="0.1" />', "#8a6d3b"),
    # asphalt tiles: a fine horizontal rule
    "asphalt-tile": ('<path d="M0,0.5L1,0.5" />', "#a3a3a3"),
    # snow tiles: a small cross
    "snow-tile": ('<path d="M0.35,0.5L0.65,0.5M0.5,0.35L0.5,0.65" />', "#7d9cc0"),
    # tiles without a surface (201a's Assistance): a vertical rule
    "none-tile": ('<path d="M0.5,0L0.5,1" />', "#b9a782"),
    # scenery: a diagonal hatch
    "scenery": ('<path d="M0,1L1,0M-0.5,0.5L0.5,-0.5M0.5,1.5L1.5,0.5" />', "#9fbd80"),
    # the Joker lap: broad stripes the other way
    "joker": ('<path d="M0,0L1,1M-0.5,0.5L0.5,1.5M0.5,-0.5L1.5,0.5" />', "#7b3fc4"),
    # the Pre-grid: a grid of small squares
    "pregrid": ('<path d="M0.3,0.3L0.7,0.3L0.7,0.7L0.3,0.7Z" />', "#4f86ad"),
    # shortcuts: open rings
    "shortcut": ('<circle cx="0.5" cy="0.5" r="0.22" />', "#8a6d3b"),
    # the Assistance area (and a road of no surface): a cross-hatch
    "assistance": ('<path d="M0,0L1,1M1,0L0,1" />', "#8f7a55"),
}

#: patterns of a whole tile: a wider cell (lighter, and the labels on them read as well)
_WIDE = {"asphalt-tile": 2.0, "snow-tile": 2.0, "none-tile": 2.0, "scenery": 2.0}

#: motifs drawn filled (the others are stroked)
_FILLED = {"gravel", "pregrid"}


def pattern_cell(R: float, print_scale: float) -> float:
    """The side of a pattern's cell (model mm) on a map of tiles of circumradius ``R`` printed at ``print_scale``
    printed mm per model mm: a twentieth of the tile, and never under 1.5 mm on paper."""
    return max(0.05 * R, 1.5 / print_scale)


def fill(role: str, prefix: str = "") -> str:
    """The ``fill`` attribute of a surface role (a colour, or the pattern over it)."""
    colour, name = FILLS[role]
    return f"url(#{prefix}pat-{name})" if name else colour


_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def _motif(name: str, cell: float) -> str:
    """The motif of pattern ``name`` for a cell of ``cell`` model mm (coordinates written scaled: the maps
    carry no transforms)."""
    elements, ink = _MOTIFS[name]
    scaled = _NUMBER.sub(lambda m: fmt(float(m.group()) * cell), elements)
    paint = f'fill="{ink}" stroke="none"' if name in _FILLED else \
        f'fill="none" stroke="{ink}" stroke-width="{fmt(0.1 * cell / _WIDE.get(name, 1.0))}"'
    return f'<g {paint}>{scaled}</g>'


def pattern_defs(prefix: str, cell: float) -> str:
    """``<defs>`` with every pattern of ``FILLS``, each ``cell`` model mm square, ids ``<prefix>pat-<name>``."""
    parts: list[str] = []
    for role, (colour, name) in FILLS.items():
        if not name or any(f'id="{prefix}pat-{name}"' in p for p in parts):
            continue
        side = cell * _WIDE.get(name, 1.0)
        c = fmt(side)
        parts.append(f'<pattern height="{c}" id="{prefix}pat-{name}" patternUnits="userSpaceOnUse" width="{c}">'
                     f'<rect fill="{colour}" height="{c}" width="{c}" x="0" y="0" />{_motif(name, side)}</pattern>')
    return f'<defs>{"".join(parts)}</defs>'
