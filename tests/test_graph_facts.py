"""Facts about the space graph taken from the rulebook text (CORE-MOVE, CORE-CORNER, CORE-SLIDE,
CORE-SHORTCUT, MC-HANDBRAKE, TRACK-TILE-03), checked on every stage of the examples and on small routes."""

from __future__ import annotations

from pathlib import Path

import pytest

from rallyc.compilation.pipeline import compile_loaded
from rallyc.project.loader import load
from helpers.compiler import compile_text, stage, track_of

ROOT = Path(__file__).resolve().parent.parent


def _example_tracks():
    out = []
    for f in sorted((ROOT / "examples").glob("*.rally")):
        result = compile_loaded(load(f))
        for d in result.designs:
            out.extend((f.name, t) for t in d.tracks)
    return out


TRACKS = _example_tracks()
SS = [pytest.param(t, id=f"{f}:{t.name}") for f, t in TRACKS]


def test_every_example_track_is_checked():
    """The graph facts below run on every track of every example (an example that stops compiling would
    otherwise drop out of the parameter lists silently): 6 rallies x 3 stages, Auto Tour 1's 3 stages and
    2 tracks, Ice Track 1, RX 1, RX 2, and the two stages over Area 1."""
    assert len(TRACKS) == 28
    assert {f for f, _ in TRACKS} == {p.name for p in (ROOT / "examples").glob("*.rally")}


@pytest.fixture(scope="module")
def s217():
    """217b driven left: slide, corner inside 2 / outside 3 3 3, slide, shortcut 3 from 1 to 3."""
    return track_of(stage("202a", "217b left", "205a", "203a"))


@pytest.mark.parametrize("track", SS)
def test_progress_strictly_increases_along_every_edge(track):
    """CORE-MOVE-04: each space entered has its front edge further along the road."""
    g = track.graph
    for a, b, d in g.edges(data=True):
        if d.get("lap"):
            continue
        assert g.nodes[b]["progress"] > g.nodes[a]["progress"], (a, b)


@pytest.mark.parametrize("track", SS)
def test_no_sideways_edge_within_a_zone(track):
    """CORE-MOVE-03: never sideways: no edge joins two spaces side by side in one zone (slide halves excepted)."""
    for a, b, d in track.graph.edges(data=True):
        sa, sb = track.space(a), track.space(b)
        if sa.zone_key == sb.zone_key and sa.kind != "corner" and sa.kind != "slide":
            assert sa.kind == "lane" and sa.progress < sb.progress, (a, b)


@pytest.mark.parametrize("track", SS)
def test_no_lane_change_inside_a_corner(track):
    """CORE-CORNER-02: inside and outside are separate paths; only handbrake edges cross, outside -> inside."""
    for a, b, d in track.graph.edges(data=True):
        sa, sb = track.space(a), track.space(b)
        if sa.corner and sa.corner == sb.corner and sa.method != sb.method:
            assert d.get("handbrake") is True, (a, b)
            assert (sa.method, sb.method) == ("out", "in")  # MC-HANDBRAKE-04


@pytest.mark.parametrize("track", SS)
def test_shortcuts_only_connect_non_corner_spaces(track):
    """CORE-SHORTCUT-03: a shortcut is entered from, and left to, non-corner spaces only."""
    for a, b in track.graph.edges():
        sa, sb = track.space(a), track.space(b)
        if sa.kind == "shortcut" or sb.kind == "shortcut":
            assert sa.kind != "corner" and sb.kind != "corner", (a, b)


@pytest.mark.parametrize("track", SS)
def test_handbrake_edges_only_forward_outside_to_inside_not_from_last(track):
    """MC-HANDBRAKE-01/02/04: outside -> inside, further along, never from the last outside space."""
    for a, b, d in track.graph.edges(data=True):
        if d.get("handbrake"):
            sa, sb = track.space(a), track.space(b)
            assert sa.method == "out" and sb.method == "in" and sa.corner == sb.corner
            assert sb.progress > sa.progress
            last_out = max(s for s in track.alongside(a) + [a] if track.space(s).method == "out")
            assert a != last_out


def test_corner_limits_as_printed(s217):
    """CORE-CORNER-04/05: 217 inside limit 2 (one space), outside limit 3 (three spaces)."""
    corner = [s for s in s217.spaces_of_step(2) if s.kind == "corner"]
    inside = sorted((s.id, s.limit) for s in corner if s.method == "in")
    outside = sorted((s.id, s.limit) for s in corner if s.method == "out")
    assert inside == [("2.2.in1", 2)]
    assert outside == [("2.2.out1", 3), ("2.2.out2", 3), ("2.2.out3", 3)]
    assert {s.corner for s in corner} == {"2.2"}


def test_corner_entered_on_either_method_from_either_lane(s217):
    """CORE-CORNER-01/02: no divider: both lanes before the corner lead to in1 and out1; no in->out edge."""
    for lane in ("2.1.l", "2.1.r"):
        assert {"2.2.in1", "2.2.out1"} <= set(s217.successors(lane))
    assert s217.successors("2.2.out1") == ["2.2.in1", "2.2.out2"]
    assert s217.move("2.2.out1", "2.2.in1")["handbrake"] is True
    assert s217.successors("2.2.in1") == sorted(["2.3.l", "2.3.r", "2.3.s1"])
    assert s217.move("2.2.out3", "2.2.in1") is None  # MC-HANDBRAKE-02


def test_slide_zone_offers_lane_and_slide_spaces(s217):
    """CORE-SLIDE-02/03/04: lane spaces and two full-width slide spaces, chosen on entering."""
    assert {"1.3.l", "1.3.r"} <= set(s217.predecessors("2.1.s1"))
    assert s217.move("1.3.l", "2.1.s1")["move"] == "slide"
    assert s217.successors("2.1.s1") == ["2.1.s2", "2.cut1"]  # and into the shortcut (CORE-SHORTCUT-04)
    # no switching inside the zone
    assert "2.1.l" not in s217.successors("2.1.s1") and "2.1.s2" not in s217.successors("2.1.l")
    assert {"2.2.in1", "2.2.out1"} <= set(s217.successors("2.1.s2"))


def test_shortcut_on_the_inside_of_the_bend(s217):
    """CORE-SHORTCUT-03/04: 217b driven left: the shortcut joins the left lane (and slide spaces) of zones 1 and 3."""
    cut = s217.space("2.cut1")
    assert cut.limit == 3 and cut.kind == "shortcut"
    assert s217.predecessors("2.cut1") == ["2.1.l", "2.1.s1", "2.1.s2"]
    assert s217.successors("2.cut1") == ["2.3.l", "2.3.s1"]


def test_reversed_road_mirrors_lanes_and_shortcut():
    """Driving 217b right (from its printed exit) puts the shortcut on the right lane, same zones 1 -> 3."""
    t = track_of(stage("202a", "217b right", "205a", "203a"))
    assert t.predecessors("2.cut1") == ["2.1.r", "2.1.s1", "2.1.s2"]
    assert t.successors("2.cut1") == ["2.3.r", "2.3.s1"]


def test_s_bend_shortcut_follows_the_side_of_its_corner():
    """CORE-SHORTCUT-03, CORE-ORDER-06: 214b (`corner right ...`) has its shortcut on the inside of the
    right-hand corner only; driven from its printed exit the same physical lane is the left one."""
    t = track_of(stage("202a", "214b", "205a", "203a"))
    assert t.predecessors("2.cut1") == ["2.1.r", "2.1.s1", "2.1.s2"]
    assert t.successors("2.cut1") == ["2.3.r", "2.3.s1"]
    assert t.move("2.1.r", "2.2.in1")["move"] == "straight"
    assert t.move("2.1.l", "2.2.in1")["move"] == "diagonal"
    back = track_of(stage("202a", "214b reversed", "205a", "203a"))
    assert back.predecessors("2.cut1") == ["2.1.l", "2.1.s1", "2.1.s2"]


def test_double_hairpin_corners_turn_opposite_ways():
    """CORE-CORNER-03: 215a's two hairpins are separate corners, the first right-handed, the second left."""
    t = track_of(stage("202a", "215a", "205a", "203a"))
    assert t.move("2.1.r", "2.2.in1")["move"] == "straight"
    assert t.move("2.3.l", "2.4.in1")["move"] == "straight"
    assert t.move("2.3.r", "2.4.in1")["move"] == "diagonal"


def test_lanes_straight_and_diagonal_never_back():
    """CORE-MOVE-03: same lane straight ahead, other lane diagonal."""
    t = track_of(stage("202a", "205a", "203a"))
    assert t.move("2.1.l", "2.2.l")["move"] == "straight"
    assert t.move("2.1.l", "2.2.r")["move"] == "diagonal"
    assert t.move("2.2.l", "2.1.l") is None
    assert t.move("2.1.l", "2.1.r") is None


def test_two_and_three_lane_joins():
    """TRACK-TILE-03: diagonal moves between 2-lane and 3-lane spaces are allowed."""
    from rallyc.compiler.graph import lane_moves
    assert lane_moves(2, 3) == {0: [(0, "straight"), (1, "diagonal")], 1: [(1, "diagonal"), (2, "straight")]}
    assert lane_moves(3, 2) == {0: [(0, "straight"), (1, "diagonal")], 1: [(0, "diagonal"), (1, "diagonal")],
                                2: [(0, "diagonal"), (1, "straight")]}
    assert lane_moves(2, 2) == {0: [(0, "straight"), (1, "diagonal")], 1: [(0, "diagonal"), (1, "straight")]}


def test_start_and_finish_spaces():
    """TRACK-STAGE-07: start spaces behind the Starting Line; spaces beyond the finish line."""
    t = track_of(stage("202a", "205a", "203a"))
    assert t.start_spaces == ["1.2.l", "1.2.r"]
    assert t.finish_spaces == ["3.3.l", "3.3.r"]
    assert t.space("3.3.l").past_finish and not t.space("3.2.l").past_finish


def test_wide_zone_single_space():
    """A full-width space (231a: limit 5) is entered from every lane and leads to every lane."""
    t = track_of(stage("202a", "231a", "203a"))
    w = t.space("2.2.w")
    assert w.kind == "wide" and w.limit == 5
    assert t.predecessors("2.2.w") == ["2.1.l", "2.1.r"]
    assert t.successors("2.2.w") == ["2.3.l", "2.3.r"]


def test_snow_full_width_spaces_are_entered_by_sliding():
    """MC-SNOW-01: on a snow b-side (311b: W1 W1 corner N) the full-width spaces are slide spaces."""
    t = track_of(stage("301b", "311b right", "304b", "302b"))
    wides = [s for s in t.spaces_of_step(2) if s.kind == "wide"]
    assert len(wides) == 2
    for w in wides:
        assert {t.move(p, w.id)["move"] for p in t.predecessors(w.id)} == {"slide"}


# ------------------------------------------------------------------ properties on random routes
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

CURVES = ["208a", "209a", "210a", "211a", "213a", "216a", "217b", "219a", "221b", "224b", "227a", "229b"]
STRAIGHTS = ["204a", "205a", "206a", "207a", "214b", "226b"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(CURVES + STRAIGHTS), st.sampled_from(["left", "right"])),
                min_size=1, max_size=8, unique_by=lambda t: t[0][:3]))
def test_random_routes_keep_the_graph_facts(route):
    """CORE-MOVE-03/04, CORE-CORNER-02, CORE-SHORTCUT-03 on random routes that do not overlap."""
    steps = ["202a"] + [t if t in STRAIGHTS else f"{t} {w}" for t, w in route] + ["203a"]
    result, _ = compile_text(stage(*steps))
    if any(d.severity.value == "error" for d in result.diagnostics):
        assert {d.code for d in result.diagnostics if d.severity.value == "error"} <= {"RC206"}
        return
    t = result.designs[0].tracks[0]
    g = t.graph
    for a, b, d in g.edges(data=True):
        assert g.nodes[b]["progress"] > g.nodes[a]["progress"]
        sa, sb = t.space(a), t.space(b)
        if sa.corner and sa.corner == sb.corner and sa.method != sb.method:
            assert d.get("handbrake") and (sa.method, sb.method) == ("out", "in")
        if "shortcut" in (sa.kind, sb.kind):
            assert "corner" not in (sa.kind, sb.kind)
    # every step joins the next edge to edge and the finish is reachable
    for p, q in zip(t.steps, t.steps[1:]):
        from rallyc.geometry.hexgrid import neighbour, opposite
        assert (q.q, q.r) == tuple(neighbour((p.q, p.r), p.exit)) and q.entry == opposite(p.exit)
    import networkx as nx
    assert any(nx.has_path(g, s, f) for s in t.start_spaces for f in t.finish_spaces)


def test_four_lane_gt_roads_have_four_lane_spaces():
    """TRACK-TILE-03: Rallyman: GT Team Challenge straights carry 4 lanes (l, ml, mr, r); lanes move
    straight ahead or diagonally to the neighbouring lane only."""
    result, _ = compile_text(stage("139a", "140a", "141a"))
    # a GT Team Challenge straight has no start or finish line: only those two errors
    assert sorted(d.code for d in result.diagnostics if d.severity.value == "error") == ["RC301", "RC303"]
    t = result.designs[0].track()
    assert [s.lane for s in t.spaces_of_step(2)] == ["l", "ml", "mr", "r"] * 3
    assert t.successors("1.3.ml") == ["2.1.l", "2.1.ml", "2.1.mr"]
    assert t.move("1.3.ml", "2.1.ml")["move"] == "straight"
    assert "2.1.r" not in t.successors("1.3.ml")
