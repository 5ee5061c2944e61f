"""The map of a rally area: every tile once, every stage's road drawn, and a route line per stage.

Each stage over the area is drawn with :func:`rallyc.render.scene.build_scene` on the same hex
layout (a tile two stages share is drawn twice at the same place, so a junction tile shows the
road of every stage through it); then a route highlight layer draws one coloured line per stage,
from edge to edge through the middle of each tile it drives, with the stage's name at its start,
and a key. One stage alone is an ordinary stage map (``rallyc render FILE --stage SS1``).
"""

from __future__ import annotations

import math
from typing import Sequence

import svgwrite

from rallyc.compiler.stats import length_words
from rallyc.geometry.hexgrid import edge_index
from rallyc.render.document import MapOptions, new_drawing, to_string
from rallyc.render.geometry import HexLayout, fmt, path_d
from rallyc.render.scene import Box, build_scene

__all__ = ["render_area", "ROUTE_COLOURS"]

#: route colours, in stage order (colour-blind safe, after Okabe and Ito)
ROUTE_COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#f0e442", "#000000")


def _route_points(track, layout: HexLayout) -> list[tuple[float, float]]:
    pts: list[tuple[float, float]] = []
    for p in sorted((p for p in track.placed if not p.scenery), key=lambda p: p.step):
        if p.entry:
            pts.append(layout.edge_mid(p.q, p.r, edge_index(p.entry)))
        pts.append(layout.centre(p.q, p.r))
        if p.exit:
            pts.append(layout.edge_mid(p.q, p.r, edge_index(p.exit)))
    return pts


def render_area(title: str, author: str | None, tracks: Sequence, catalogue,
                options: MapOptions | None = None) -> str:
    """The SVG map of an area from the compiled tracks of its stages (in stage order)."""
    options = options or MapOptions()
    layout = HexLayout(options.tile_mm / math.sqrt(3), options.flat)
    R = layout.size
    dwg = new_drawing(1, 1, Box(0, 0, 1, 1))
    scenes = [build_scene(t, catalogue, tile_mm=options.tile_mm, flat=options.flat, show_ids=options.show_ids,
                          dwg=dwg, id_prefix=f"{t.name}-") for t in tracks]
    box = Box(min(s.tiles_box.x0 for s in scenes), min(s.tiles_box.y0 for s in scenes),
              max(s.tiles_box.x1 for s in scenes), max(s.tiles_box.y1 for s in scenes))
    routes = dwg.g(id="routes", fill="none")
    routes.attribs["class"] = "routes"
    width = 0.07 * R
    for i, t in enumerate(tracks):
        colour = ROUTE_COLOURS[i % len(ROUTE_COLOURS)]
        # side by side where stages share a road: each route a little off the centreline
        shift = (i - (len(tracks) - 1) / 2) * width * 1.2
        pts = [(x + shift, y + shift) for x, y in _route_points(t, layout)]
        if len(pts) < 2:
            continue
        line = dwg.path(d=path_d(pts, closed=False))
        line.attribs.update({"class": "route", "data-stage": t.name, "stroke": colour, "stroke-width": fmt(width),
                             "stroke-opacity": "0.75", "stroke-linecap": "round", "stroke-linejoin": "round"})
        routes.add(line)
        spread = (i - (len(tracks) - 1) / 2) * 0.4 * R  # the names side by side at a shared start
        label = dwg.text(t.name, insert=(fmt(pts[0][0] + spread), fmt(pts[0][1] + 0.2 * R)))
        label.attribs.update({"class": "route-label", "data-stage": t.name, "fill": colour,
                              "font-size": fmt(0.16 * R), "font-weight": "bold", "text-anchor": "middle",
                              "font-family": "sans-serif", "stroke": "#ffffff", "stroke-width": fmt(0.02 * R),
                              "paint-order": "stroke"})
        routes.add(label)
    pad = 0.2 * R
    head = [(title, 0.2 * R, "bold")] + ([(f"by {author}", 0.1 * R, None)] if author else []) + [
        (f"rally area - {len(tracks)} stage(s) over it", 0.12 * R, None)]
    key = [(f"{t.name}{(' ' + t.title) if t.title and t.title != t.name else ''}: {length_words(t)}",
            ROUTE_COLOURS[i % len(ROUTE_COLOURS)]) for i, t in enumerate(tracks)]
    head_h = sum(s * 1.25 for _, s, _ in head)
    key_h = len(key) * 0.14 * R * 1.3
    view = Box(box.x0 - pad, box.y0 - pad - head_h, box.x1 + pad, box.y1 + pad + key_h + pad)
    scale = 100.0 / options.tile_mm  # a tile about 10 cm wide on screen, as the stage maps
    out = new_drawing(view.width * scale, view.height * scale, view)
    out.add(svgwrite.base.Title(f"{title} - rally area"))
    bg = out.rect()
    bg.attribs.update({"x": fmt(view.x0), "y": fmt(view.y0), "width": fmt(view.width),
                       "height": fmt(view.height), "fill": "#ffffff"})
    out.add(bg)
    y = box.y0 - pad - head_h
    for text, size, weight in head:
        y += size * 1.25
        el = out.text(text, insert=(fmt(box.x0), fmt(y)))
        el.attribs.update({"font-size": fmt(size), "font-family": "sans-serif"})
        if weight:
            el.attribs["font-weight"] = weight
        out.add(el)
    for s in scenes:
        out.add(s.group)
    out.add(routes)
    y = box.y1 + pad
    for text, colour in key:
        y += 0.14 * R * 1.3
        swatch = out.rect()
        swatch.attribs.update({"x": fmt(box.x0), "y": fmt(y - 0.1 * R), "width": fmt(0.3 * R),
                               "height": fmt(0.08 * R), "fill": colour})
        out.add(swatch)
        el = out.text(text, insert=(fmt(box.x0 + 0.4 * R), fmt(y)))
        el.attribs.update({"font-size": fmt(0.12 * R), "font-family": "sans-serif", "class": "route-key"})
        out.add(el)
    return to_string(out)
