"""A small hand-built Track for the renderer's tests (independent of the compiler).

Route: 202a (start) -> 211b (hairpin with shortcut) -> 217a (60 degree curve)
-> 205b (jump 4) -> 203a (finish) -> 201a (assistance), plus one filler.
"""

from __future__ import annotations

import networkx as nx

from rallyc.compiler.track import PlacedTile, Track


def _add(g: nx.DiGraph, sid: str, step: int, tile: str, zone, lane: str, kind: str, progress: float, **extra):
    data = dict(step=step, tile=tile, road=1, zone=zone, lane=lane, kind=kind, surface="gravel",
                danger="low", progress=progress)
    data.update(extra)
    g.add_node(sid, **data)


def mini_track() -> Track:
    g = nx.DiGraph()
    prog = 0.0

    def lanes(step, tile, zone, **extra):
        nonlocal prog
        prog += 1
        for lane in ("l", "r"):
            _add(g, f"{step}.{zone}.{lane}", step, tile, zone, lane, "lane", prog, **extra)

    def slide(step, tile, zone):
        lanes(step, tile, zone)
        for k in (1, 2):
            _add(g, f"{step}.{zone}.s{k}", step, tile, zone, f"s{k}", "slide", prog - 0.5 + 0.5 * k)

    def corner(step, tile, zone, inside, outside):
        nonlocal prog
        prog += 1
        for i, lim in enumerate(inside, 1):
            _add(g, f"{step}.{zone}.in{i}", step, tile, zone, f"in{i}", "corner", prog, limit=lim, method="in",
                 corner=f"{step}.{zone}")
        for i, lim in enumerate(outside, 1):
            _add(g, f"{step}.{zone}.out{i}", step, tile, zone, f"out{i}", "corner", prog, limit=lim,
                 method="out", corner=f"{step}.{zone}")

    lanes(1, "202a", 1)
    lanes(1, "202a", 2, start=True)
    lanes(1, "202a", 3)
    slide(2, "211b", 1)
    corner(2, "211b", 2, [1], [2, 2, 2])
    slide(2, "211b", 3)
    _add(g, "2.cut1", 2, "211b", None, "cut1", "shortcut", prog, limit=2)
    g.add_edge("2.1.l", "2.cut1", move="shortcut")
    g.add_edge("2.cut1", "2.3.l", move="shortcut")
    slide(3, "217a", 1)
    corner(3, "217a", 2, [2], [3, 3, 3])
    slide(3, "217a", 3)
    lanes(4, "205b", 1)
    lanes(4, "205b", 2, jump=4)
    lanes(4, "205b", 3, water=True)
    lanes(5, "203a", 1)
    lanes(5, "203a", 2)
    lanes(5, "203a", 3, past_finish=True, after_finish=True)
    placed = [
        PlacedTile(1, "202a", 0, 0, 0, 1, "D", "A"),
        PlacedTile(2, "211b", 1, 0, 0, 1, "D", "C"),
        PlacedTile(3, "217a", 0, 1, 4, 1, "F", "B"),
        PlacedTile(4, "205b", 0, 2, 1, 1, "E", "B"),
        PlacedTile(5, "203a", 0, 3, 1, 1, "E", "B"),
        PlacedTile(6, "201a", 0, 4, 1, 1, "E", None),
        PlacedTile(0, "902a", 1, 1, 0, None, None, None, scenery=True),
    ]
    return Track("SS1", "stage", g, placed, title="Mini <stage>")
