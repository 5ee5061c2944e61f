"""One tile on its own: a track holding every road of the tile, as ``rallyc tiles show`` draws it.

Each road is built on its own as a one-step stage by the route builder, driven as the tileset
describes it (entry -> exit), so its spaces are exactly the ones the rules interpreter uses. On a
tile with several roads, the first number of a space id is the road number (``2.1.l`` = road 2,
zone 1, lane l); on a one-road tile it is ``1``.
"""

from __future__ import annotations

import networkx as nx

from rallyc.compiler.stage import build_stage
from rallyc.compiler.track import PlacedTile, Track
from rallyc.syntax import ast
from rallyc.tiles.catalogue import Catalogue, TileInfo

__all__ = ["tile_track"]


def _turn_word(turn: str | None) -> str | None:
    """The step word that drives a road of this turn as printed."""
    if turn and turn.startswith("left"):
        return "left"
    if turn and turn.startswith("right"):
        return "right"
    return None


def tile_track(tile_info: TileInfo, catalogue: Catalogue) -> Track:
    """A track holding every road of one tile at cell (0, 0), rotation 0, driven as described."""
    graph = nx.DiGraph()
    placed: list[PlacedTile] = []
    roads = tile_info.definition.roads
    for k, road in enumerate(roads, start=1):
        step = ast.Step(tile=ast.Ident(tile_info.id), turn=_turn_word(road.turn), road=k if len(roads) > 1 else None,
                        position=ast.Position(0, 0, 0))
        stage = ast.Stage(name=ast.Ident("tile"), title=None, items=[step])
        build = build_stage(stage, catalogue)
        sub = build.track
        if sub is None or not sub.placed:
            continue
        p = sub.placed[0]
        placed.append(PlacedTile(k, p.tile, 0, 0, 0, k, p.entry, p.exit, roles=p.roles))
        mapping = {n: f"{k}.{n.partition('.')[2]}" for n in sub.graph.nodes}
        for n, data in sub.graph.nodes(data=True):
            graph.add_node(mapping[n], **{**data, "step": k})
        for a, b, data in sub.graph.edges(data=True):
            graph.add_edge(mapping[a], mapping[b], **data)
    if not placed:
        placed.append(PlacedTile(0, tile_info.id, 0, 0, 0, None, None, None, scenery=True))
    return Track(tile_info.id, "stage", graph, placed, title=tile_info.id)
