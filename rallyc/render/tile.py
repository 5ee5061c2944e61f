"""One tile, large, every space labelled: ``rallyc tiles show ID -o tile.svg``.

The tile is drawn unrotated (its printed edge A at the top) so it can be held
against the real one. Each road is compiled on its own as a one-step stage by
the compiler's own route builder, driven as the tileset describes it (entry ->
exit), so the outlines are exactly the spaces the rules interpreter uses. On a
tile with several roads, the first number of a space id is the road number
(``2.1.l`` = road 2, zone 1, lane l); on a one-road tile it is ``1``.
"""

from __future__ import annotations

import math

import networkx as nx

from rallyc.compiler.track import PlacedTile, Track
from rallyc.render.document import _pretty, new_drawing
from rallyc.render.geometry import fmt
from rallyc.render.scene import Box, _attrs, _text, build_scene
from rallyc.syntax import ast

__all__ = ["tile_track", "render_tile_svg"]

TILE_MM = 120.0


def _turn_word(turn: str | None) -> str | None:
    if turn and turn.startswith("left"):
        return "left"
    if turn and turn.startswith("right"):
        return "right"
    return None


def tile_track(tile_info, catalogue) -> Track:
    """A track holding every road of one tile at cell (0, 0), rotation 0, driven as described."""
    from rallyc.compiler.stage import compile_stage  # the compiler imports the checks: import late

    graph = nx.DiGraph()
    placed: list[PlacedTile] = []
    roads = tile_info.definition.roads
    for k, road in enumerate(roads, start=1):
        step = ast.Step(tile=ast.Ident(tile_info.id), turn=_turn_word(road.turn), road=k if len(roads) > 1 else None,
                        position=ast.Position(0, 0, 0))
        stage = ast.Stage(name=ast.Ident("tile"), title=None, items=[step])
        build = compile_stage(stage, catalogue)
        sub = build.track
        if sub is None or not sub.placed:
            continue
        p = sub.placed[0]
        placed.append(PlacedTile(k, p.tile, 0, 0, 0, k, p.entry, p.exit))
        mapping = {n: f"{k}.{n.partition('.')[2]}" for n in sub.graph.nodes}
        for n, data in sub.graph.nodes(data=True):
            graph.add_node(mapping[n], **{**data, "step": k})
        for a, b, data in sub.graph.edges(data=True):
            graph.add_edge(mapping[a], mapping[b], **data)
    if not placed:
        placed.append(PlacedTile(0, tile_info.id, 0, 0, 0, None, None, None, scenery=True))
    return Track(tile_info.id, "stage", graph, placed, title=tile_info.id)


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
