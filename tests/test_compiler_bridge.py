"""The Bridge (MC-BRIDGE-01): a normal tile that lets two parts of the road cross one another. In the
tilesets that is 416/417 (two crossing roads); a route that drives one road of it and, later, the other
compiles with no overlap, with two separate sets of spaces that are not joined to each other."""

from __future__ import annotations

import networkx as nx

from rallyc.compilation.pipeline import compile_loaded
from rallyc.project.loader import load_text

# found by placing routes: out of the bridge's C-F road, three right turns lead back into its A-D road
LOOP = ["308a right", "310a right", "308a right"]


def _source(second: str = "416a road 1") -> str:
    steps = ["301a", "416a road 2", *LOOP, second, "302a"]
    return "stage Bridge {\n" + "".join(f"  {s}\n" for s in steps) + "}\n"


def _compile(src: str):
    result = compile_loaded(load_text(src, "<bridge>"))
    return result, [d for d in result.diagnostics if d.severity.value == "error"]


def _step(sid: str) -> int:
    return int(sid.split(".")[0])


def test_route_crossing_itself_over_the_bridge_compiles():
    """MC-BRIDGE-01, TRACK-TILE-06: step 2 and step 6 are one 416a on one cell, driven on its two roads:
    no RC206 overlap, no other error."""
    result, errors = _compile(_source())
    assert errors == []
    track = result.designs[0].track()
    first, second = [p for p in track.placed if p.step in (2, 6)]
    assert (first.tile, first.q, first.r, first.rot) == (second.tile, second.q, second.r, second.rot)
    assert {first.road, second.road} == {1, 2}
    assert {first.entry, first.exit}.isdisjoint({second.entry, second.exit})


def test_bridge_crossings_are_separate_and_not_joined():
    """MC-BRIDGE-01: each crossing has its own spaces; no move leads from one road of the bridge to the
    other; the route runs start -> first crossing -> loop -> second crossing -> finish."""
    result, _ = _compile(_source())
    track = result.designs[0].track()
    g = track.graph
    two = {n for n in g.nodes if _step(n) == 2}
    six = {n for n in g.nodes if _step(n) == 6}
    assert two and six and two.isdisjoint(six)
    for a, b in g.edges:
        assert {_step(a), _step(b)} != {2, 6}, f"{a} -> {b} joins the two roads of the bridge"
    assert {_step(p) for n in six for p in g.predecessors(n)} <= {5, 6}
    assert {_step(s) for n in two for s in g.successors(n)} <= {2, 3}
    start = track.start_spaces[0]
    finish = sorted(track.finish_spaces)[0]
    assert nx.has_path(g.subgraph(n for n in g.nodes if _step(n) != 6), start, "5.1.l")
    assert not nx.has_path(g.subgraph(n for n in g.nodes if _step(n) != 6), start, finish)
    assert nx.has_path(g, start, finish)


def test_another_tile_on_the_bridge_cell_is_an_overlap():
    """TRACK-TILE-06 (RC206): only the same tile, same rotation, another road is a crossing; a different tile
    on the bridge's cell still overlaps it."""
    _, errors = _compile(_source(second="304a"))
    assert [d.code for d in errors] == ["RC206"]
