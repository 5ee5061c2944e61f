"""One tile, large, every space labelled: ``rallyc tiles show ID -o tile.svg``.

The tile is drawn unrotated (its printed edge A at the top) so it can be held
against the real one. The track drawn is :func:`rallyc.compiler.tile.tile_track`
(every road built on its own by the compiler's route builder), so the outlines
are exactly the spaces the rules interpreter uses.
"""

from __future__ import annotations

import math

from rallyc.compiler.tile import tile_track
from rallyc.render.document import _pretty, new_drawing
from rallyc.render.geometry import fmt
from rallyc.render.scene import Box, _attrs, _text, build_scene

__all__ = ["render_tile_svg"]

TILE_MM = 120.0


def render_tile_svg(tile_info, catalogue) -> str:
    """One tile as an SVG document: the hexagon, its roads, every space outlined and labelled with its id."""
    track = tile_track(tile_info, catalogue)
    scene = build_scene(track, catalogue, tile_mm=TILE_MM, show_ids=True)
    tb = scene.tiles_box
    R = TILE_MM / math.sqrt(3)
    pad = 0.12 * R
    head = 0.3 * R
    view = Box(tb.x0 - pad, tb.y0 - pad - head, tb.x1 + pad, tb.y1 + pad)
    dwg = new_drawing(view.width, view.height, view)
    from svgwrite.base import Title

    d = tile_info.definition
    danger = d.danger[0] if d.danger[0] == d.danger[1] else f"{d.danger[0]}/{d.danger[1]}"
    dwg.add(Title(f"tile {tile_info.id}"))
    bg = dwg.rect()
    bg.attribs.update({"x": fmt(view.x0), "y": fmt(view.y0), "width": fmt(view.width),
                       "height": fmt(view.height), "fill": "#ffffff"})
    dwg.add(bg)
    head_g = _attrs(dwg.g(), id="tile-head")
    head_g.add(_text(dwg, f"{tile_info.id}: {d.surface}, danger {danger}", (tb.x0, tb.y0 - pad - head * 0.65),
                     0.11 * R, anchor="start", weight="bold"))
    head_g.add(_text(dwg, f"box {tile_info.box}, {tile_info.copies} {'copy' if tile_info.copies == 1 else 'copies'}"
                          "; edge A at the top; space ids ROAD.ZONE.LANE",
                     (tb.x0, tb.y0 - pad - head * 0.65 + 0.13 * R), 0.055 * R, anchor="start", fill="#555555"))
    dwg.add(head_g)
    dwg.add(scene.group)
    edges = _attrs(dwg.g(), id="edge-letters")
    layout = scene.shapes.layout
    for k, letter in enumerate("ABCDEF"):
        if k == 0 and track.steps:
            continue  # the scene marks edge A of every road tile already
        edges.add(_text(dwg, letter, layout.towards(0, 0, k, 0.9), 0.07 * R, fill="#777777", weight="bold"))
    dwg.add(edges)
    return _pretty(dwg)
