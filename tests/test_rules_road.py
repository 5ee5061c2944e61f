"""Road rules: CORE-CORNER, CORE-SLIDE, CORE-SHORTCUT, CORE-JUMP, CORE-WATER, CORE-OVERTAKE."""

from collections import Counter

import pytest

from rallyc.rules import IllegalMove
from rallyc.rules.core.state import index_of
from helpers.rules import make_stage, put, turn, turn_of

ROAD = "N S N N | D C(2,2;3,3,3)R D cut3(1,3) | N jump3 N N water N | C(3;4,4)R C(2;3,3)L | N N F N N"


def illegal(stage, t):
    with pytest.raises(IllegalMove) as exc:
        stage.play(t)
    return exc.value


def road(players=2, **opts):
    st = make_stage(ROAD, players, **opts)
    put(st, "B", "5.4.r", 1)  # far ahead, out of the way
    return st


def test_corner_spaces_and_methods():
    """CORE-CORNER-01 CORE-CORNER-04 CORE-CORNER-05: corner spaces have limits and no lane; the inside path is
    shorter with lower limits."""
    st = road()
    sp = st.index.spaces
    inside = [s for s in sp.values() if s.corner == "2.2" and s.method == "in"]
    outside = [s for s in sp.values() if s.corner == "2.2" and s.method == "out"]
    assert len(inside) < len(outside)
    assert max(s.limit for s in inside) < min(s.limit for s in outside)
    assert all(s.kind == "corner" and s.limit for s in inside + outside)


def test_no_switching_method_inside_a_corner():
    """CORE-CORNER-02"""
    st = road()
    put(st, "A", "2.1.r", 2)
    turn_of(st, "A", ["B", "A"])
    assert illegal(st, turn("A", "gear2@2.2.in1", "coast@2.2.out2")).rule_id \
        == "CORE-MOVE-03"


def test_adjacent_corners_are_separate():
    """CORE-CORNER-03: inside in the first corner, outside in the next."""
    st = road()
    put(st, "A", "3.6.r", 2)
    turn_of(st, "A", ["B", "A"])
    out = st.play(turn("A", "gear3@4.1.in1", "coast@4.2.out1"))
    assert out.path == ["4.1.in1", "4.2.out1"]


def test_quentin_example_speed_limit():
    """CORE-CORNER-06 CORE-CORNER-08: Gear 3 on a limit-3 space, then 4th on leaving it."""
    st = road()
    put(st, "A", "2.1.l", 3)
    turn_of(st, "A", ["B", "A"])
    out = st.play(turn("A", "gear3@2.2.out1", "coast@2.2.out2", "coast@2.2.out3", "gear4@2.3.l"))
    assert out.loc is None and out.gear == 4


def test_over_the_limit_is_a_loss_of_control():
    """CORE-CORNER-07 CORE-LOC-01 CORE-LOC-02 CORE-LOC-03: entering in a higher gear: LoC on that space, card of
    that gear turned to its 0 side."""
    st = road()
    put(st, "A", "2.1.l", 3)
    turn_of(st, "A", ["B", "A"])
    e = illegal(st, turn("A", "gear4@2.2.out1", "coast@2.2.out2"))
    assert e.rule_id == "CORE-LOC-02"
    from rallyc.rules import ZeroSide
    out = st.play(turn("A", "gear4@2.2.out1", zero=ZeroSide("spinout")))
    assert out.loc.space == "2.2.out1" and out.loc.gear == 4 and out.card.zero and out.card.gear == 4


def test_limits_off_corners():
    """CORE-CORNER-09: a speed limit on a plain space works the same."""
    st = make_stage("N S N N/2 N N F N")
    put(st, "A", "1.2.l", 3)
    turn_of(st, "A")
    from rallyc.rules import ZeroSide
    out = st.play(turn("A", "gear3@1.3.l", zero=ZeroSide("spinout")))
    assert out.loc and out.loc.space == "1.3.l"


def test_slide_zone():
    """CORE-SLIDE-01 CORE-SLIDE-02 CORE-SLIDE-03 CORE-SLIDE-04: entered by its lanes or slid through as two
    full-width spaces; no switching inside."""
    st = road()
    halves = [s for s in st.index.spaces.values() if s.zone_key == "2.1" and s.lane in ("s1", "s2")]
    assert len(halves) == 2
    put(st, "A", "1.3.l", 2)
    turn_of(st, "A", ["B", "A"])
    assert illegal(st, turn("A", "gear2@2.1.s1", "coast@2.1.r")).rule_id \
        in ("CORE-MOVE-04", "CORE-MOVE-03")
    out = st.play(turn("A", "gear2@2.1.s1", "coast@2.1.s2", "coast@2.2.in1"))
    assert out.path == ["2.1.s1", "2.1.s2", "2.2.in1"]


def test_shortcut_space_and_limit():
    """CORE-SHORTCUT-01 CORE-SHORTCUT-02 CORE-SHORTCUT-05 CORE-SHORTCUT-06: a limit-3 Shortcut draws a token;
    OK! goes on the Dashboard."""
    st = road()
    cut = st.index.spaces["2.cut1"]
    assert cut.kind == "shortcut" and cut.limit == 3
    put(st, "A", "2.1.r", 3)
    turn_of(st, "A", ["B", "A"])
    assert illegal(st, turn("A", "gear3@2.cut1")).rule_id == "CORE-SHORTCUT-05"
    out = st.play(turn("A", "gear3@2.cut1#ok"))
    assert out.tokens == ["ok"] and st.cars["A"].shortcut_ok == 1 and out.loc is None


def test_shortcut_over_limit():
    """CORE-SHORTCUT-02 CORE-SECONDS-09: the Shortcut's limit causes a LoC even when the die is secured."""
    from rallyc.rules import ZeroSide
    st = road()
    put(st, "A", "2.1.r", 4, seconds=5)
    turn_of(st, "A", ["B", "A"])
    out = st.play(turn("A", "gear4@2.cut1:s#ok", zero=ZeroSide("spinout")))
    assert out.loc and out.loc.space == "2.cut1"


def test_shortcut_connections():
    """CORE-SHORTCUT-03 CORE-SHORTCUT-04: entered from non-corner spaces (lanes or slide halves), never from a
    corner space, and only from the lane on the inside of the bend."""
    st = road()
    idx = index_of(st.track)
    assert "2.cut1" in idx.succ["2.1.r"] and "2.cut1" in idx.succ["2.1.s2"]
    assert all("2.cut1" not in idx.succ[s] for s in idx.spaces if idx.spaces[s].kind == "corner")
    assert "2.3.s1" in idx.succ["2.cut1"]
    assert "2.cut1" not in idx.succ["2.1.l"]


def test_shortcut_coast_damage():
    """CORE-SHORTCUT-07: a Coast/Leader Damage token from a Shortcut removes a Coast die from the next turn."""
    st = road()
    put(st, "A", "2.1.r", 3)
    turn_of(st, "A", ["B", "A"])
    st.play(turn("A", "gear3@2.cut1#coast"))
    assert st.cars["A"].damage["coast"] == 1


def test_shortcut_minus_one():
    """CORE-SHORTCUT-08 CORE-SHORTCUT-09 CORE-SHORTCUT-10: -1 lowers the tile's corner limits for everyone, not
    the Shortcut's; a limit down to 0 makes a space unusable; the drawer takes no damage."""
    st = road()
    put(st, "A", "2.1.r", 3)
    turn_of(st, "A", ["B", "A"])
    st.play(turn("A", "gear3@2.cut1#minus1"))
    assert st.minus1 == {2: 1} and not st.cars["A"].damage
    st.minus1 = {2: 2}
    put(st, "A", "2.1.r", 1)
    turn_of(st, "A", ["B", "A"])
    assert illegal(st, turn("A", "gear1@2.2.in1")).rule_id == "CORE-SHORTCUT-10"
    out = st.play(turn("A", "gear1@2.2.out1"))
    assert out.loc is None
    put(st, "A", "2.1.r", 3)
    turn_of(st, "A", ["B", "A"])
    out = st.play(turn("A", "gear3@2.cut1#ok"))
    assert out.loc is None  # the Shortcut keeps its limit 3


def test_jump_equal_gear_lands_one_further():
    """CORE-JUMP-01 CORE-JUMP-02: Gear 3 on a Gear 3 jump lands one space beyond."""
    st = road()
    assert st.index.spaces["3.2.l"].jump == 3
    put(st, "A", "3.1.l", 3)
    turn_of(st, "A", ["B", "A"])
    assert illegal(st, turn("A", "gear3@3.2.l")).rule_id == "CORE-JUMP-02"
    out = st.play(turn("A", "gear3@3.2.l>3.3.r", "coast@3.4.r"))
    assert out.path == ["3.3.r", "3.4.r"]


def test_jump_one_gear_higher_flies_over_cars():
    """CORE-JUMP-03: one gear higher lands two spaces beyond, ignoring a car in between."""
    st = road(3)
    put(st, "C", "3.3.l", 1)
    put(st, "A", "3.1.l", 4)
    turn_of(st, "A", ["B", "A", "C"])
    out = st.play(turn("A", "gear4@3.2.l>3.4.l"))
    assert out.end == "3.4.l" and out.loc is None


def test_jump_too_fast_and_warning():
    """CORE-JUMP-04 CORE-JUMP-05: two gears over, or a Warning on the jumping die: LoC on the landing space."""
    from rallyc.rules import ZeroSide
    st = road()
    put(st, "A", "3.1.l", 5)
    turn_of(st, "A", ["B", "A"])
    out = st.play(turn("A", "gear5@3.2.l>3.4.l", zero=ZeroSide("spinout")))
    assert out.loc and out.loc.space == "3.4.l" and "jump" in out.loc.cause
    st2 = road()
    put(st2, "A", "3.1.l", 3)
    turn_of(st2, "A", ["B", "A"])
    out = st2.play(turn("A", "gear3@3.2.l>3.3.l:w", zero=ZeroSide("spinout")))
    assert out.loc and out.loc.space == "3.3.l"


def test_jump_lower_gear_is_a_normal_space():
    """CORE-JUMP-06"""
    st = road()
    put(st, "A", "3.1.l", 2)
    turn_of(st, "A", ["B", "A"])
    assert illegal(st, turn("A", "gear2@3.2.l>3.3.l")).rule_id == "CORE-JUMP-06"
    out = st.play(turn("A", "gear2@3.2.l", "coast@3.3.l"))
    assert out.path == ["3.2.l", "3.3.l"]


def test_jump_cannot_land_on_a_car():
    """CORE-JUMP-07"""
    st = road(3)
    put(st, "C", "3.3.r", 1)
    put(st, "A", "3.1.l", 3)
    turn_of(st, "A", ["B", "A", "C"])
    assert illegal(st, turn("A", "gear3@3.2.l>3.3.r")).rule_id == "CORE-JUMP-07"


def test_jump_landing_in_a_corner_lane_of_choice():
    """CORE-JUMP-08"""
    st = make_stage("N S N jump3 C(2;3,3)R N N F N")
    put(st, "A", "1.2.l", 3)
    turn_of(st, "A")
    from rallyc.rules.core.plans import die_options, start_walk
    ctx, _ = st.context("A")
    lands = {p.space for p, _ in die_options(ctx, start_walk(ctx)) if p.jump}
    assert {"1.4.in1", "1.4.out1"} <= lands


def test_water_coast_or_gear_1_only():
    """CORE-WATER-01 CORE-WATER-02 CORE-WATER-03 CORE-WATER-05: Coast or Gear 1 (without Brake) through water;
    any die after it."""
    st = road()
    assert st.index.spaces["3.5.l"].water
    put(st, "A", "3.4.l", 2)
    turn_of(st, "A", ["B", "A"])
    assert illegal(st, turn("A", "gear2@3.5.l")).rule_id == "CORE-WATER-02"
    put(st, "A", "3.4.l", 3)
    assert illegal(st, turn("A", "gear1+b@3.5.l")).rule_id == "CORE-WATER-03"
    put(st, "A", "3.4.l", 2)
    out = st.play(turn("A", "coast@3.5.l", "gear3@3.6.l"))
    assert out.gear == 3


def test_water_movement_ends_before():
    """CORE-WATER-04 (reading 4): a car that cannot ford ends its movement before the water, in its gear."""
    st = road()
    put(st, "A", "3.3.l", 3)
    st.cars["A"].damage = Counter({"coast": 2})
    turn_of(st, "A", ["B", "A"])
    out = st.play(turn("A", "gear3@3.4.l"))
    assert out.end == "3.4.l" and out.gear == 3


def test_overtaking_gear_condition():
    """CORE-OVERTAKE-01 CORE-OVERTAKE-02: alongside a car in Gear 1-3 with a Gear 3 die, not a car in Gear 4;
    once alongside, any speed."""
    st = make_stage()
    put(st, "B", "1.4.r", 3)
    put(st, "A", "1.3.l", 3)
    turn_of(st, "A", ["B", "A"])
    out = st.play(turn("A", "gear3@1.4.l", "gear2@1.5.l"))
    assert out.gear == 2
    st = make_stage()
    put(st, "B", "1.4.r", 4)
    put(st, "A", "1.3.l", 3)
    turn_of(st, "A", ["B", "A"])
    assert illegal(st, turn("A", "gear3@1.4.l")).rule_id == "CORE-OVERTAKE-01"


def test_red_blue_yellow_diagonal_overtake():
    """CORE-OVERTAKE-03: Red in 5th pulls alongside Blue, then 6th diagonally alongside Yellow."""
    st = make_stage(players=3)
    put(st, "B", "1.5.l", 5)
    put(st, "C", "1.6.r", 6)
    put(st, "A", "1.4.r", 5)
    turn_of(st, "A", ["C", "B", "A"])
    out = st.play(turn("A", "gear5@1.5.r", "gear6@1.6.l", "coast@1.7.l"))
    assert out.end == "1.7.l"


def test_shortcut_adjacency_and_passing_a_corner():
    """CORE-OVERTAKE-04 CORE-OVERTAKE-07: a Shortcut is alongside its connected spaces; a car in a corner can be
    passed through the Shortcut."""
    st = road(3)
    put(st, "C", "2.2.out2", 3)
    put(st, "A", "2.1.r", 3)
    turn_of(st, "A", ["B", "C", "A"])
    out = st.play(turn("A", "gear3@2.cut1#ok", "coast@2.3.r"))
    assert out.end == "2.3.r"
    st = road(3)
    put(st, "C", "2.1.l", 4)
    put(st, "A", "1.3.l", 3)
    turn_of(st, "A", ["B", "C", "A"])
    e = illegal(st, turn("A", "gear3@2.1.r", "coast@2.cut1#ok"))
    assert e.rule_id == "CORE-OVERTAKE-01"
    st = road(3)
    put(st, "C", "2.3.r", 4)
    put(st, "A", "2.1.r", 3)
    turn_of(st, "A", ["B", "C", "A"])
    assert illegal(st, turn("A", "gear3@2.cut1#ok")).rule_id == "CORE-OVERTAKE-04"


def test_car_in_corner_same_method_only():
    """CORE-OVERTAKE-05"""
    st = road(3)
    put(st, "C", "2.2.out2", 3)
    put(st, "A", "2.1.l", 2)
    turn_of(st, "A", ["B", "C", "A"])
    assert illegal(st, turn("A", "gear2@2.2.in1")).rule_id == "CORE-OVERTAKE-05"
    out = st.play(turn("A", "gear2@2.2.out1"))
    assert out.end == "2.2.out1"


def test_sliding_car_same_method_only():
    """CORE-OVERTAKE-06"""
    st = road(3)
    put(st, "C", "2.1.s2", 3)
    put(st, "A", "1.3.l", 2)
    turn_of(st, "A", ["B", "C", "A"])
    assert illegal(st, turn("A", "gear2@2.1.l")).rule_id == "CORE-OVERTAKE-06"
    out = st.play(turn("A", "gear2@2.1.s1"))
    assert out.end == "2.1.s1"


def test_crashed_car_does_not_impede_spun_car_does():
    """CORE-OVERTAKE-08 CORE-OVERTAKE-09 CORE-LOC-06 CORE-LOC-07"""
    st = make_stage(players=3)
    put(st, "B", "1.4.l", 0, status="crashed")
    put(st, "C", "1.4.r", 0, status="spun")
    put(st, "A", "1.3.l", 2)
    turn_of(st, "A", ["A", "B", "C"])
    assert illegal(st, turn("A", "gear2@1.4.r")).rule_id == "CORE-MOVE-02"
    out = st.play(turn("A", "gear2@1.4.l", "gear3@1.5.l"))
    assert out.end == "1.5.l"


def test_corner_method_rule_limits_entering_not_cars_already_in_it():
    """CORE-OVERTAKE-05 regression (deadlock found by the random bot): a car crashed on the inside of a corner,
    another drove into the same corner on the outside while it was off the road; once the first is back, each
    drives on by its own method (the rule limits entering the corner), so the stage can still end."""
    st = road(3)
    put(st, "C", "2.2.in1", 0, status="crashed")
    put(st, "A", "2.1.r", 3)
    turn_of(st, "A", ["B", "C", "A"])
    assert st.play(turn("A", "gear3@2.2.out1")).end == "2.2.out1"  # the crashed car does not count
    # the crashed car is back on the road (Gear 0) and the car on the outside is still in the corner
    put(st, "C", "2.2.in1", 1, status="road")
    turn_of(st, "C", ["C", "A", "B"])
    assert st.play(turn("C", "gear1@2.2.in2")).end == "2.2.in2"
    assert st.play(turn("A", "gear3@2.2.out2")).end == "2.2.out2"
    # a third car entering the corner still keeps to the method of the cars in it
    put(st, "B", "2.1.l", 2)
    turn_of(st, "B", ["B", "C", "A"])
    assert illegal(st, turn("B", "gear2@2.2.in1")).rule_id == "CORE-OVERTAKE-05"
