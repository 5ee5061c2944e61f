"""Dice choice and placement: CORE-DICE, CORE-DAMAGE, CORE-MOVE (rulebook examples included)."""

from collections import Counter

import pytest

from rallyc.data import load_components
from rallyc.rules import IllegalMove
from rallyc.rules.core.dashboard import allowance
from helpers.rules import make_stage, put, turn, turn_of


def illegal(stage, t):
    with pytest.raises(IllegalMove) as exc:
        stage.play(t)
    return exc.value


def test_olivier_example_gear_dice_up_and_down():
    """CORE-DICE-01 CORE-DICE-06 CORE-DICE-08 CORE-DICE-09: 4th gear, then 5, 4, 3, 2; a Warning still moves."""
    st = make_stage()
    put(st, "A", "1.3.l", 4)
    turn_of(st, "A")
    out = st.play(turn("A", "gear5@1.4.l", "gear4@1.5.l:w", "gear3@1.6.l", "gear2@1.7.l"))
    assert out.path == ["1.4.l", "1.5.l", "1.6.l", "1.7.l"] and out.gear == 2 and out.warnings == 1


def test_gear_die_more_than_one_gear_away():
    """CORE-DICE-09"""
    st = make_stage()
    put(st, "A", "1.3.l", 4)
    turn_of(st, "A")
    assert illegal(st, turn("A", "gear6@1.4.l")).rule_id == "CORE-DICE-09"


def test_raphael_example_start_from_gear_0():
    """CORE-DICE-10 CORE-START-03: from Gear 0 the first die is Gear 1, then Gear 2."""
    st = make_stage()
    assert st.cars["A"].gear == 0
    e = illegal(st, turn("A", "gear2@1.2.l"))
    assert e.rule_id == "CORE-DICE-10" and e.path == "dice[0].die"
    out = st.play(turn("A", "gear1@1.2.l", "gear2@1.3.l"))
    assert out.gear == 2


def test_each_die_once():
    """CORE-DICE-05"""
    st = make_stage()
    put(st, "A", "1.3.l", 3)
    turn_of(st, "A")
    assert illegal(st, turn("A", "gear3@1.4.l", "gear3@1.5.l")).rule_id == "CORE-DICE-05"


def test_dice_counts_from_dashboard():
    """CORE-DICE-02 CORE-DICE-04: the R6 gravel column allows 2 Coast dice; a third is refused."""
    comp = load_components()
    dash = comp.dashboard("r6", "gravel")
    assert set(dash.columns) == {"gravel", "gravel-leader", "asphalt", "snow"}
    assert dash.columns["gravel"].coast == 2 and dash.columns["gravel"].warnings == 3
    st = make_stage()
    put(st, "A", "1.3.l", 3)
    turn_of(st, "A", ["B", "A"])
    put(st, "B", "1.9.r", 1)
    assert illegal(st, turn("A", "coast@1.4.l", "coast@1.5.l", "coast@1.6.l")).rule_id == "CORE-DICE-04"


def test_gear_dice_one_to_six():
    """CORE-DICE-07: one black Gear die per value 1 to 6 (the R6's top gear is 6)."""
    dash = load_components().dashboard("r6", "gravel")
    assert dash.top_gear == 6 and dash.columns["gravel"].gear == 6


def test_coast_keeps_gear_anywhere_in_the_move():
    """CORE-DICE-11 CORE-DICE-12: Coast at the start, middle and end; or only Coast dice."""
    st = make_stage()
    put(st, "B", "1.11.l", 1, status="road")
    put(st, "A", "1.3.l", 3)
    turn_of(st, "A", ["B", "A"])
    out = st.play(turn("A", "coast@1.4.l", "gear4@1.5.l", "coast@1.6.r:w"))
    assert out.gear == 4 and out.end == "1.6.r"


def test_coast_not_at_gear_0():
    """CORE-DICE-13"""
    st = make_stage()
    assert illegal(st, turn("A", "coast@1.2.l")).rule_id == "CORE-DICE-13"


def test_leader_uses_leader_dice():
    """CORE-DICE-03 CORE-DICE-14 CORE-DICE-15: the first player on gravel uses Leader dice, others Coast dice."""
    st = make_stage()
    put(st, "A", "1.6.l", 3)
    put(st, "B", "1.3.l", 3)
    turn_of(st, "A", ["A", "B"])
    assert illegal(st, turn("A", "coast@1.7.l")).rule_id == "CORE-DICE-15"
    out = st.play(turn("A", "leader@1.7.l", "leader@1.8.l"))
    assert out.gear == 3 and out.leader
    assert load_components().warning_faces["leader"] == load_components().warning_faces["coast"] + 1
    e = illegal(st, turn("B", "leader@1.4.l"))
    assert e.rule_id == "CORE-DICE-15"


def test_leader_rule_stops_once_a_car_finished():
    """CORE-DICE-16 (reading 1): after the first car crosses the finish line, the first player uses Coast dice."""
    st = make_stage()
    put(st, "A", "1.3.l", 3)
    st.cars["B"].status = "finished"
    st.finished_any = True
    turn_of(st, "A", ["A"])
    out = st.play(turn("A", "coast@1.4.l"))
    assert not out.leader


def test_georgina_example_brake_two_gears():
    """CORE-DICE-17 CORE-DICE-18: from 4th, Gear 2 with the Brake die on one space."""
    st = make_stage()
    put(st, "A", "1.3.l", 4)
    turn_of(st, "A")
    assert illegal(st, turn("A", "gear3+b@1.4.l")).rule_id == "CORE-DICE-18"
    out = st.play(turn("A", "gear2+b@1.4.l"))
    assert out.gear == 2 and out.path == ["1.4.l"]


def test_brake_not_alone_and_not_with_coast():
    """CORE-DICE-19 CORE-DICE-17"""
    st = make_stage()
    put(st, "A", "1.3.l", 4)
    turn_of(st, "A")
    assert illegal(st, turn("A", "brake@1.4.l")).rule_id == "CORE-DICE-19"
    assert illegal(st, turn("A", "leader+b@1.4.l")).rule_id == "CORE-DICE-17"


def test_brake_cannot_reach_gear_0():
    """CORE-DICE-20"""
    st = make_stage()
    put(st, "A", "1.3.l", 2)
    turn_of(st, "A")
    assert illegal(st, turn("A", "gear1+b@1.4.l")).rule_id == "CORE-DICE-20"


def test_patrick_example():
    """CORE-DICE-06: 5th -> 6, 5, 4, Brake to 2, Coast, 3: a 3rd gear Time card."""
    st = make_stage("N S N N N N N N N N N N N F N N")
    put(st, "B", "1.14.l", 1)
    put(st, "A", "1.3.l", 5)
    turn_of(st, "A", ["B", "A"])
    out = st.play(turn("A", "gear6@1.4.l", "gear5@1.5.l", "gear4@1.6.l", "gear2+b@1.7.l", "coast@1.8.l",
                       "gear3@1.9.l"))
    assert out.gear == 3 and out.card.gear == 3 and out.card.seconds == load_components().time_card_seconds(3)


def test_andrew_example_damage():
    """CORE-DAMAGE-01 CORE-DAMAGE-02 CORE-DAMAGE-03: a Gear and a Brake Damage token: five Gear dice, no Brake."""
    st = make_stage("N S N N N N N N N N N N N F N N")
    st.cars["A"].damage = Counter({"gear": 1, "brake": 1})
    put(st, "A", "1.3.l", 3)
    turn_of(st, "A")
    assert illegal(st, turn("A", "gear1+b@1.4.l")).rule_id == "CORE-DAMAGE-03"
    put(st, "A", "1.3.l", 1)
    e = illegal(st, turn("A", "gear1@1.4.l", "gear2@1.5.l", "gear3@1.6.l", "gear4@1.7.l", "gear5@1.8.l",
                         "gear6@1.9.l"))
    assert e.rule_id == "CORE-DAMAGE-02" and e.path == "dice[5].die"


def test_coast_damage_and_floor_zero():
    """CORE-DAMAGE-04 CORE-DAMAGE-05 CORE-DAMAGE-06: Coast/Leader damage removes Coast dice, never below 0;
    Green Flags do nothing."""
    dash = load_components().dashboard("r6", "gravel")
    a = allowance(dash, "gravel", False, False, Counter({"coast": 5, "green": 3, "brake": 2}))
    assert (a.coast, a.brake, a.gear) == (0, 0, 6)
    st = make_stage()
    st.cars["A"].damage = Counter({"coast": 2})
    put(st, "A", "1.3.l", 3)
    turn_of(st, "A", ["B", "A"])
    put(st, "B", "1.9.l", 1)
    assert illegal(st, turn("A", "coast@1.4.l")).rule_id == "CORE-DAMAGE-04"


def test_no_repair_during_stage():
    """CORE-DAMAGE-07: damage stays on the Dashboard from turn to turn."""
    st = make_stage()
    st.cars["A"].damage = Counter({"gear": 1})
    st.play(turn("A", "gear1@1.2.l"))
    assert st.cars["A"].damage["gear"] == 1


def test_one_car_per_space():
    """CORE-MOVE-01 CORE-MOVE-02: a space holds one car; no entering or passing through it."""
    st = make_stage()
    put(st, "B", "1.4.l", 3)
    put(st, "A", "1.3.l", 3)
    turn_of(st, "A", ["B", "A"])
    assert illegal(st, turn("A", "gear3@1.4.l")).rule_id == "CORE-MOVE-02"


def test_forward_straight_or_diagonal_only():
    """CORE-MOVE-03 CORE-MOVE-04 CORE-MOVE-05 CORE-MOVE-06: no sideways or backwards step, one die per space,
    lane changes as often as wanted."""
    st = make_stage()
    put(st, "A", "1.3.l", 3)
    turn_of(st, "A")
    assert illegal(st, turn("A", "gear3@1.3.r")).rule_id == "CORE-MOVE-04"
    assert illegal(st, turn("A", "gear3@1.4.l", "gear4@1.4.r")).rule_id == "CORE-MOVE-04"
    assert illegal(st, turn("A", "gear3@1.5.l")).rule_id == "CORE-MOVE-03"
    out = st.play(turn("A", "gear3@1.4.r", "gear4@1.5.l", "gear5@1.6.r", "gear6@1.7.l"))
    assert out.path == ["1.4.r", "1.5.l", "1.6.r", "1.7.l"]


def test_must_move_if_able():
    """CORE-MOVE-07"""
    st = make_stage()
    assert illegal(st, turn("A")).rule_id == "CORE-MOVE-07"


def test_yellow_example_blocked_at_start():
    """CORE-MOVE-09 CORE-MOVE-10 CORE-MOVE-11 CORE-TURNEND-03: Blue and Green take up the road: Yellow ends its
    turn on its space in its gear, with a card of the previous value."""
    st = make_stage(players=3)
    put(st, "A", "1.4.l", 3)
    put(st, "B", "1.4.r", 3)
    put(st, "C", "1.3.l", 2)
    turn_of(st, "C", ["A", "B", "C"])
    assert st.is_blocked("C")
    out = st.play(turn("C"))
    assert out.blocked and out.end == "1.3.l" and out.gear == 2 and out.card.seconds == st.cars["C"].cards[0].seconds


def test_red_example_blocked_part_way():
    """CORE-MOVE-08 CORE-MOVE-10 CORE-OVERTAKE-01: Red (3rd) can move one space into 4th, then cannot reach
    the gear to pull alongside Orange (6th)."""
    st = make_stage()
    put(st, "B", "1.5.r", 6)
    put(st, "A", "1.3.l", 3)
    turn_of(st, "A", ["B", "A"])
    plans = list(st.legal_plans("A", max_dice=3))
    assert plans and all(len(p) == 1 for p in plans)
    e = illegal(st, turn("A", "gear4@1.4.l", "gear5@1.5.l"))
    assert e.rule_id == "CORE-OVERTAKE-01" and e.path == "dice[1].to"
    out = st.play(turn("A", "gear4@1.4.l"))
    assert out.gear == 4
