"""A stage with tiles turned to their other side in place (Monte-Carlo Weather, MC-WEATHER-04/05):
same cells and rotations, the road on the same world edges, the other steps' spaces unchanged."""

from __future__ import annotations

import pytest

from rallyc.compiler import compile_flipped
from rallyc.compilation.pipeline import compile_loaded
from rallyc.compiler.flip import FlipError, flip_placement, other_side
from rallyc.compiler.placement import place_route
from rallyc.project.loader import load_text

ASPHALT = "stage T {\n  301a\n  304a\n  316a left\n  302a\n}\n"
SNOW = "stage T {\n  301a\n  304b\n  316b left\n  302a\n}\n"


def _design(src: str):
    result = compile_loaded(load_text(src, "<flip>"))
    assert not [d for d in result.diagnostics if d.severity.value == "error"], result.diagnostics
    return result.designs[0]


def _nodes(g, skip=frozenset({"span"})) -> dict:
    return {n: {k: v for k, v in d.items() if k not in skip} for n, d in g.nodes(data=True)}


def _edges(g) -> dict:
    return {(a, b): dict(d) for a, b, d in g.edges(data=True)}


def _step(sid: str) -> int:
    return int(sid.split(".")[0])


def test_other_side_names():
    """MC-WEATHER-04: the other side of a double-sided tile; one-faced tiles have none."""
    assert other_side("304a") == "304b"
    assert other_side("316b") == "316a"
    assert other_side("101") is None


def test_flip_keeps_cells_rotations_and_other_steps():
    """MC-WEATHER-04: 304a -> 304b keeps every cell and rotation; only step 2's tile changes, and the
    spaces and moves of the other steps are exactly as before."""
    design = _design(ASPHALT)
    before = design.track()
    after = design.flipper().track({2})
    assert [(p.step, p.q, p.r, p.rot, p.entry, p.exit) for p in after.placed] == \
        [(p.step, p.q, p.r, p.rot, p.entry, p.exit) for p in before.placed]
    assert [p.tile for p in after.placed] == ["301a", "304b", "316a", "302a"]
    keep = {n: d for n, d in _nodes(before.graph).items() if _step(n) != 2}
    assert {n: d for n, d in _nodes(after.graph).items() if _step(n) != 2} == keep
    inner = {e: d for e, d in _edges(before.graph).items() if _step(e[0]) != 2 and _step(e[1]) != 2}
    assert {e: d for e, d in _edges(after.graph).items() if _step(e[0]) != 2 and _step(e[1]) != 2} == inner
    flipped = [after.space(n) for n in after.graph.nodes if _step(n) == 2]
    assert flipped and {s.surface for s in flipped} == {"snow"} and {s.tile for s in flipped} == {"304b"}
    # the flipped step still joins its neighbours
    assert after.graph.has_edge("1.4.l", "2.1.l") and after.graph.has_edge("2.3.l", "3.1.l")


def test_flipped_step_has_the_snow_sides_zones():
    """MC-WEATHER-04, MC-SNOW-01: 316a (asphalt, lane zones) shown as 316b has the snow side's full-width
    spaces, entered by sliding, on the same world edges, driven the way its neighbours connect."""
    design = _design(ASPHALT)
    before, after = design.track(), design.flipper().track({3})
    assert not any(before.space(n).kind == "wide" for n in before.graph.nodes if _step(n) == 3)
    wide = sorted(n for n in after.graph.nodes if _step(n) == 3 and after.space(n).kind == "wide")
    assert wide == ["3.1.w", "3.2.w"]
    assert all(after.graph.edges[p, "3.1.w"]["move"] == "slide" for p in after.graph.predecessors("3.1.w"))
    assert set(after.graph.predecessors("3.1.w")) == {"2.3.l", "2.3.r"}
    last = max(int(n.split(".")[1]) for n in after.graph.nodes if _step(n) == 3)
    assert any(after.graph.has_edge(f"3.{last}.{lane}", "4.1.l") for lane in ("l", "r"))


def test_flip_picks_the_road_direction_by_its_edges():
    """MC-WEATHER-04: 302b is printed A -> D, 302a D -> A: the flipped finish tile is driven from the
    edge the previous step leads into, so the route still runs through it to the finish."""
    design = _design(ASPHALT)
    after = design.flipper().track({4})
    p4 = [p for p in after.placed if p.step == 4][0]
    assert p4.tile == "302b" and (p4.entry, p4.exit) == ("C", "F")
    assert after.finish_spaces and all(_step(s) == 4 for s in after.finish_spaces)
    last = max(int(n.split(".")[1]) for n in after.graph.nodes if _step(n) == 3)
    assert any(after.graph.has_edge(f"3.{last}.{lane}", "4.1.l") for lane in ("l", "r"))


def test_flip_back_restores_the_original_graph():
    """MC-WEATHER-05: flipping a tile twice shows its first side again: the stage written on the snow sides,
    flipped at steps 2 and 3, is exactly the stage written on the asphalt sides."""
    asphalt, snow = _design(ASPHALT), _design(SNOW)
    back = snow.flipper().track({2, 3})
    assert _nodes(back.graph) == _nodes(asphalt.track().graph)
    assert _edges(back.graph) == _edges(asphalt.track().graph)
    stage, cat = asphalt.flipper().stage, asphalt.flipper().catalogue
    placement = place_route(stage.steps, stage.scenery, cat)
    twice = flip_placement(flip_placement(placement, cat, {2, 3}), cat, {2, 3})
    assert [(s.info.id, s.rot, s.driven.number, s.driven.forward) for s in twice.steps] == \
        [(s.info.id, s.rot, s.driven.number, s.driven.forward) for s in placement.steps]
    assert _edges(compile_flipped(stage, cat, set()).graph) == _edges(asphalt.track().graph)


def test_flip_refused_without_a_road_on_the_same_edges():
    """MC-WEATHER-04: 416a's A-D road has no counterpart on 416b (B-E, C-F): that step cannot be shown on its
    other side; its C-F road can."""
    design = _design("stage B {\n  301a\n  416a road 1\n  302a\n}\n")
    flip = design.flipper()
    assert not flip.can_flip(2) and flip.can_flip(1)
    with pytest.raises(FlipError, match="416b has no road"):
        flip.track({2})
    other = _design("stage C {\n  301a at 0 0 rot 5\n  416a road 2 at 1 -1 rot 0\n  302a at 2 -2 rot 5\n}\n")
    assert other.flipper().can_flip(2)
    with pytest.raises(FlipError, match="no placed step 9"):
        flip.track({9})
