"""The referee explains itself: every outcome lists the rule IDs it applied (``Outcome.applied``), in the order
of the turn, so `replay --explain` can settle a table argument with one line."""

from pathlib import Path

import pytest

import rallyc
from rallyc.records import load_record, replay_record
from rallyc.rules import IllegalMove, Options, Player, ZeroSide
from rallyc.rules.core import trace
from rallyc.rules.core.dice import Die
from rallyc.rules.core.race import Race
from rallyc.rules.core.turn import Roll, Turn
from helpers.rules import make_stage, put, turn, turn_of

ROOT = Path(__file__).resolve().parents[1]
ROAD = "N S N N | D C(2,2;3,3,3)R D cut3(1,3) | N jump3 N N water N | C(3;4,4)R C(2;3,3)L | N N F N N"


def road():
    st = make_stage(ROAD, 2)
    put(st, "B", "5.4.r", 1)
    return st


def test_a_jump_two_gears_too_fast_reports_core_jump_04():
    """CORE-JUMP-04: Gear 5 on a Gear 3 jump lands two spaces on, with a Loss of Control there."""
    st = road()
    put(st, "A", "3.1.l", 5)
    turn_of(st, "A", ["B", "A"])
    out = st.play(turn("A", "gear5@3.2.l>3.4.l", zero=ZeroSide("spinout")))
    assert {"CORE-JUMP-03", "CORE-JUMP-04", "CORE-LOC-01", "CORE-LOC-06"} <= set(out.applied)
    assert "CORE-JUMP-05" not in out.applied and "CORE-ROLL-05" not in out.applied


def test_a_loss_of_control_on_the_third_warning_reports_core_roll_04():
    """CORE-ROLL-04 CORE-ROLL-05 CORE-DICE-17: Warnings accumulate; the third (the Brake pair's) is the LoC."""
    st = make_stage(players=2)
    put(st, "B", "1.11.r", 1)
    put(st, "A", "1.3.l", 4)
    turn_of(st, "A", ["B", "A"])
    out = st.play(turn("A", "gear4@1.4.l:w", "gear5@1.5.l", "gear3+b@1.6.l:w/w", "coast@1.7.l:-",
                       zero=ZeroSide("spinout")))
    assert out.loc is not None and out.warnings == 3
    applied = list(out.applied)
    assert {"CORE-ROLL-04", "CORE-ROLL-05", "CORE-DICE-17", "CORE-DICE-18", "CORE-LOC-03"} <= set(applied)
    assert applied.index("CORE-ROLL-04") < applied.index("CORE-LOC-01")  # in the order of the turn
    assert "CORE-CORNER-07" not in applied and "CORE-TURNEND-02" not in applied


def test_a_plain_move_reports_its_card_and_no_loss_of_control():
    """CORE-TURNEND-02 CORE-DICE-09: a plain move takes the card of its gear; nothing about a LoC is reported."""
    st = make_stage(players=2)
    put(st, "B", "1.11.r", 1)
    put(st, "A", "1.3.l", 2)
    turn_of(st, "A", ["B", "A"])
    out = st.play(turn("A", "gear3@1.4.l", "coast@1.5.l"))
    assert {"CORE-TURNEND-02", "CORE-DICE-09", "CORE-DICE-11", "CORE-DICE-06"} <= set(out.applied)
    assert not any(r.startswith("CORE-LOC") for r in out.applied)


def test_soft_tires_after_the_last_wear_marker_report_mc_soft_06():
    """MC-SOFT-06: from turn 7 the soft-tire Dashboard's own limit applies; turn 1 shows the T1 marker."""
    st = make_stage(cars=[("r6", "soft")])
    out = st.play(turn("A", "gear1@1.2.l"))
    assert {"MC-SOFT-03", "MC-SOFT-04"} <= set(out.applied)
    st = make_stage(cars=[("r6", "soft")])
    st.cars["A"].wear = 6
    out = st.play(turn("A", "gear1@1.2.l"))
    assert "MC-SOFT-06" in out.applied and "MC-SOFT-04" not in out.applied


def test_rx_turns_report_rx_rules():
    """RX-DICE-01 RX-ROLL-03: an RX turn reports the core movement and what RX changes (Focus, Gear marker)."""
    track = rallyc.load(ROOT / "examples/rx-1.rally").tracks[0]
    r = Race(track, [Player("Ann", "red")], Options())
    out = r.play(Turn("Ann", [Roll(Die("gear1", "12.3.l"), "ok"), Roll(Die("gear2", "12.4.l"), "ok")],
                      flat_out=True))
    assert {"RX-DICE-01", "RX-ROLL-03", "CORE-ROLL-10", "CORE-DICE-10"} <= set(out.applied)


def test_observers_hear_applied_and_refused_rules():
    """The trace observers get every outcome's rules and every refusal's rule; nothing once unobserved."""
    heard: list[tuple[str, ...]] = []
    trace.observe(heard.append)
    try:
        path = ROOT / "examples/games/rally-5-ss1-jump-water.json"
        report = replay_record(load_record(path), path.parent)
        assert report.ok
        st = make_stage(players=2)
        with pytest.raises(IllegalMove):
            st.play(turn("A", "gear3@1.2.l"))
    finally:
        trace.unobserve(heard.append)
    seen = {rid for batch in heard for rid in batch}
    assert {"CORE-JUMP-01", "CORE-WATER-03", "CORE-DICE-10", "CORE-STAGEEND-08"} <= seen
    n = len(heard)
    make_stage(players=2).play(turn("A", "gear1@1.2.l"))
    assert len(heard) == n


def test_a_lane_change_reports_core_move_05_and_a_straight_move_does_not():
    """CORE-MOVE-05 "A car may change lanes any number of times in one move": recorded where a die takes the car
    from one lane to the other, not on a move that keeps its lane."""
    st = make_stage(players=2)
    put(st, "B", "1.11.r", 1)
    put(st, "A", "1.3.l", 2)
    turn_of(st, "A", ["A", "B"])
    out = st.play(turn("A", "gear2@1.4.r", "gear3@1.5.l"))
    assert "CORE-MOVE-05" in out.applied
    st = make_stage(players=2)
    put(st, "B", "1.11.r", 1)
    put(st, "A", "1.3.l", 2)
    turn_of(st, "A", ["A", "B"])
    out = st.play(turn("A", "gear2@1.4.l", "gear3@1.5.l"))
    assert "CORE-MOVE-05" not in out.applied


def test_one_shot_reports_core_adv_16_for_the_leader_only():
    """CORE-ADV-16 "in a single-stage game the Leader dice of the Leader column may be replaced by normal Coast
    dice": the round's leader on gravel lays Coast dice, and the rule is recorded for it, not for the car behind."""
    st = make_stage(players=2, one_shot=True)
    put(st, "B", "1.2.r", 1)
    put(st, "A", "1.3.l", 1)
    turn_of(st, "A", ["A", "B"])
    out = st.play(turn("A", "gear1@1.4.l", "coast@1.5.l"))
    assert "CORE-ADV-16" in out.applied
    out = st.play(turn("B", "gear1@1.3.r"))
    assert "CORE-ADV-16" not in out.applied


def test_a_damage_draw_reports_the_bag_and_the_side_read():
    """CORE-SETUP-03/04: a Crash's tokens are checked against what the Damage bag holds and read on their Damage
    side; a turn that draws nothing records neither."""
    path = ROOT / "examples" / "games" / "rally-4-full.json"
    report = replay_record(load_record(path), base_dir=path.parent, explain=True)
    assert report.error is None
    turns = [t for st in report.to_json(explain=True)["stages"] for rnd in st["rounds"] for t in rnd["turns"]]
    drew = [t for t in turns if t["damage"]]
    assert drew and all({"CORE-SETUP-03", "CORE-SETUP-04"} <= set(t["applied"]) for t in drew)
    assert all("CORE-SETUP-03" not in t["applied"] for t in turns if not t["damage"] and not t["shortcut_tokens"])
