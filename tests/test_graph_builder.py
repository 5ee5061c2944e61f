"""The graph builder writes the DiGraph's own node and adjacency dicts (for speed): the graphs it makes
must be exactly the graphs networkx's public add_node/add_edge would make, on every published design."""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import pytest

from rallyc.compiler.graph import GraphBuilder
from rallyc.compilation.pipeline import compile_loaded
from rallyc.project.loader import load

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.rally"))


def _rebuilt(g: nx.DiGraph) -> nx.DiGraph:
    """The same nodes and moves, added one by one through networkx's public API, in the same order."""
    out = nx.DiGraph()
    for n, data in g.nodes(data=True):
        out.add_node(n, **data)
    for a, b, data in g.edges(data=True):
        out.add_edge(a, b, **data)
    return out


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_built_graphs_are_what_the_public_api_builds(path):
    tracks = [t for d in compile_loaded(load(path)).designs for t in d.tracks]
    assert tracks
    for track in tracks:
        g = track.graph
        again = _rebuilt(g)
        assert list(g.nodes(data=True)) == list(again.nodes(data=True))
        assert list(g.edges(data=True)) == list(again.edges(data=True))
        # predecessors are the same moves (one dict shared by both directions, as networkx does)
        assert all(g.pred[b][a] is g.succ[a][b] for a, b in g.edges())
        assert {n: set(g.predecessors(n)) for n in g} == {n: set(again.predecessors(n)) for n in again}


def test_a_space_takes_only_space_attributes():
    builder = GraphBuilder()
    with pytest.raises(TypeError, match="not a space attribute: colour"):
        builder._node("1.1.l", step=1, tile="205a", road=1, colour="red")
    assert "1.1.l" not in builder.graph


def _exact(result) -> list:
    """Every space and move of every track, in insertion order, with their attributes in order (floats as
    their exact repr), predecessors in order too."""
    out = []
    for design in result.designs:
        for track in design.tracks:
            g = track.graph
            out.append((track.name, [(n, repr(list(d.items()))) for n, d in g.nodes(data=True)],
                        [(n, repr([(m, list(a.items())) for m, a in s.items()])) for n, s in g.adjacency()],
                        [(n, list(p)) for n, p in g.pred.items()]))
    return out


LONG = "stage Long {\n  202a\n" + "".join(
    f"  {t}\n" for t in (["205a", "208a left", "206b", "208a right", "217b left", "215b", "213b right"] * 9)) + \
    "  203a\n}\n"


@pytest.mark.parametrize("path", EXAMPLES + [None], ids=[p.name for p in EXAMPLES] + ["long-65"])
def test_roads_laid_from_their_templates_are_the_roads_built_anew(path, monkeypatch):
    """A road laid again from its template (and the join to the next step copied) gives the very spaces, moves,
    orders and floats that building every step anew gives."""
    from rallyc.project.loader import load_text

    loaded = load(path) if path is not None else load_text(LONG, "long.rally", base_dir=ROOT)
    fast = compile_loaded(loaded)
    monkeypatch.setattr(GraphBuilder, "add_road", GraphBuilder._build_road)
    slow = compile_loaded(loaded)
    assert _exact(fast) == _exact(slow)
    assert [(d.code, d.message, d.span) for d in fast.diagnostics] == \
        [(d.code, d.message, d.span) for d in slow.diagnostics]
    if path is None:  # the long stage repeats its 7 roads (and runs over itself: RC206, the same either way)
        track = fast.designs[0].tracks[0]
        assert len(track.graph) > 600
