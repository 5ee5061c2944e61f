"""Rolling, Seconds, End of the Turn, Loss of Control, Spare Tire, finishing, retiring (CORE-ROLL, CORE-SECONDS,
CORE-TURNEND, CORE-LOC, CORE-SPARE, CORE-STAGEEND, CORE-RETIRE)."""

from collections import Counter

import pytest

from rallyc.data import load_components
from rallyc.rules import IllegalMove, ZeroSide
from helpers.rules import make_stage, put, turn, turn_of

SHORT = "N S N N N N N N N F N N"


def illegal(stage, t):
    with pytest.raises(IllegalMove) as exc:
        stage.play(t)
    return exc.value


def ready(gear=3, space="1.3.l", seconds=0, text=SHORT, far="1.10.r"):
    st = make_stage(text)
    put(st, "B", far, 1)
    put(st, "A", space, gear, seconds=seconds)
    turn_of(st, "A", ["B", "A"])
    return st


def test_one_by_one_warnings_accumulate_to_loc():
    """CORE-ROLL-01 CORE-ROLL-02 CORE-ROLL-03 CORE-ROLL-04 CORE-ROLL-05 CORE-ROLL-08: the third Warning (the
    Brake die rolled with its Gear die) causes the LoC on its space."""
    st = ready(4)
    out = st.play(turn("A", "gear4@1.4.l:w", "gear5@1.5.l", "gear3+b@1.6.l:w/w", "coast@1.7.l:-",
                       zero=ZeroSide("spinout")))
    assert out.loc.space == "1.6.l" and out.loc.gear == 3 and out.warnings == 3


def test_stop_any_time_and_rolled_dice_apply():
    """CORE-ROLL-06 CORE-ROLL-07: the player stops before a die; a die after the stop cannot be rolled."""
    st = ready()
    assert illegal(st, turn("A", "gear3@1.4.l", "gear4@1.5.l:-", "gear5@1.6.l")).rule_id == "CORE-ROLL-06"
    assert illegal(st, turn("A", "gear3@1.4.l:w", "gear4@1.5.l:w",
                            "gear5@1.6.l:w", "gear6@1.7.l")).rule_id == "CORE-LOC-02"
    out = st.play(turn("A", "gear3@1.4.l:w", "gear4@1.5.l", "gear5@1.6.l:-"))
    assert out.stopped and out.end == "1.5.l" and out.gear == 4


def test_flat_out_success_earns_seconds():
    """CORE-ROLL-09 CORE-ROLL-10 CORE-ROLL-11 CORE-SECONDS-01 CORE-SECONDS-02: 1 s per Gear/Coast die rolled,
    Warnings included; none for the Brake die."""
    st = ready(4)
    out = st.play(turn("A", "gear5@1.4.l:w", "gear4@1.5.l", "gear2+b@1.6.l:o/w", "coast@1.7.l", flat_out=True))
    assert out.end == "1.7.l" and out.seconds_gained == 4 and st.cars["A"].seconds == 4


def test_flat_out_needs_every_face():
    """CORE-ROLL-10 CORE-SECONDS-05"""
    st = ready()
    assert illegal(st, turn("A", "gear3@1.4.l", "gear4@1.5.l:-", flat_out=True)).rule_id == "CORE-ROLL-10"
    assert illegal(st, turn("A", "gear3@1.4.l:s", flat_out=True)).rule_id == "CORE-SECONDS-05"


def test_gareth_example_failed_flat_out_relaid():
    """CORE-ROLL-12 CORE-ROLL-13 CORE-ROLL-14 CORE-ROLL-15 CORE-ROLL-16: three Warnings; the dice are re-laid
    (faces unchanged, another path, fewer dice) so the LoC falls in Gear 4 instead of 5; Seconds still earned."""
    st = ready(4)
    plan = ["gear5@1.4.l:w", "gear4@1.5.l:w", "coast@1.6.l:w",
            "gear3@1.7.l"]
    assert illegal(st, turn("A", *plan, flat_out=True)).rule_id == "CORE-ROLL-12"
    assert illegal(st, turn("A", *plan, flat_out=True, relaid=["gear5@1.4.l:o"])).rule_id == "CORE-ROLL-13"
    assert illegal(st, turn("A", *plan, flat_out=True, relaid=["gear3@1.4.r:o"])).rule_id == "CORE-ROLL-14"
    assert illegal(st, turn("A", *plan, flat_out=True,
                            relaid=["gear5@1.4.r:w", "gear4@1.5.r:w", "coast@1.6.r:w", "gear3@1.7.r:o"])).rule_id \
        == "CORE-ROLL-15"
    out = st.play(turn("A", *plan, flat_out=True, relaid=["gear5@1.4.r:w", "coast@1.5.r:w", "gear4@1.6.r:w"],
                       zero=ZeroSide("spinout")))
    assert out.flat_out_failed and out.loc.space == "1.6.r" and out.loc.gear == 4
    assert out.seconds_gained == 4 and st.cars["A"].seconds == 4


def test_only_flat_out_earns_seconds():
    """CORE-SECONDS-03"""
    st = ready()
    out = st.play(turn("A", "gear3@1.4.l", "gear4@1.5.l"))
    assert out.seconds_gained == 0 and st.cars["A"].seconds == 0


def test_jonathan_example_securing_costs():
    """CORE-SECONDS-04 CORE-SECONDS-06 CORE-SECONDS-07 CORE-SECONDS-08: three secured dice cost 1+2+3 = 6 s;
    a secured die is not rolled but moves the car."""
    st = ready(seconds=6)
    assert illegal(st, turn("A", "gear3@1.4.l:s", "gear4@1.5.l:s", "gear5@1.6.l:s", "gear6@1.7.l:s")).rule_id \
        == "CORE-SECONDS-08"
    out = st.play(turn("A", "gear3@1.4.l:s", "gear4@1.5.l:s", "gear5@1.6.l:s", seconds_spent=6))
    assert out.seconds_spent == 6 and out.end == "1.6.l" and st.cars["A"].seconds == 0


def test_secured_brake_roll_counts_both_dice():
    """CORE-SECONDS-10: the Gear and Brake dice of a roll are secured together: 1+2 = 3 s."""
    st = ready(4, seconds=2)
    assert illegal(st, turn("A", "gear2+b@1.4.l:s")).rule_id == "CORE-SECONDS-08"
    st = ready(4, seconds=3)
    out = st.play(turn("A", "gear2+b@1.4.l:s"))
    assert out.seconds_spent == 3


def test_unspent_seconds_cut_stage_time():
    """CORE-SECONDS-11 CORE-STAGEEND-08 CORE-STAGEEND-09: 3:00 of cards minus 5 s = 2:55; lowest time wins."""
    st = make_stage("N S N F N N")
    a, b = st.cars["A"], st.cars["B"]
    from rallyc.rules import Card
    a.cards = [Card(3, 90), Card(3, 90)]
    a.seconds = 5
    b.cards = [Card(2, 100), Card(2, 100)]
    a.status = b.status = "finished"
    res = st.result()
    assert res.times == {"A": 175, "B": 200}
    assert min(res.times, key=res.times.get) == "A"


def test_time_card_of_last_gear():
    """CORE-TURNEND-01 CORE-TURNEND-02 CORE-TURNEND-04 CORE-TURNEND-05: the card of the furthest Gear die; higher
    gear, fewer seconds; the top card is the next turn's gear."""
    comp = load_components()
    secs = [comp.time_card_seconds(g) for g in range(1, 7)]
    assert secs == sorted(secs, reverse=True)
    st = ready()
    out = st.play(turn("A", "gear3@1.4.l", "gear4@1.5.l", "coast@1.6.l"))
    assert out.card.gear == 4 and out.card.seconds == comp.time_card_seconds(4)
    assert st.cars["A"].gear == 4


def test_only_coast_repeats_previous_card():
    """CORE-TURNEND-03"""
    st = ready()
    prev = st.cars["A"].cards[-1]
    out = st.play(turn("A", "coast@1.4.l", "coast@1.5.l"))
    assert out.card.seconds == prev.seconds and out.gear == 3


def test_loc_card_zero_side():
    """CORE-LOC-03 CORE-LOC-04 CORE-LOC-05 CORE-LOC-11: a LoC card shows its 0 side, worth more than any gear;
    after a Spinout the car is in Gear 0."""
    comp = load_components()
    assert comp.assumption("zero_side_seconds") > max(comp.time_card_seconds(g) for g in range(1, 7))
    st = ready(4)
    t = turn("A", "gear4@1.4.l:w", "coast@1.5.l:w", "gear5@1.6.l:w")
    assert illegal(st, t).rule_id == "CORE-LOC-03"
    out = st.play(turn("A", "gear4@1.4.l:w", "coast@1.5.l:w", "gear5@1.6.l:w", zero=ZeroSide("spinout")))
    assert out.card.zero and out.card.seconds == comp.assumption("zero_side_seconds")
    assert st.cars["A"].gear == 0 and st.cars["A"].status == "spun"


def test_olivier_crash_example():
    """CORE-LOC-07 CORE-LOC-08 CORE-LOC-09 CORE-SETUP-02: a Crash in 4th on a red-signpost tile draws 3 tokens;
    the car waits beside the road and comes back on that space."""
    st = ready(4, text="N S N N | !high N N N N N F N N", far="2.7.r")
    zero = ZeroSide("crash", marks={"low": 1, "medium": 2, "high": 3})
    t = turn("A", "gear4@2.1.l:w", "coast@2.2.l:w", "gear5@2.3.l:w", zero=zero)
    assert illegal(st, t).rule_id == "CORE-LOC-09"
    t = turn("A", "gear4@2.1.l:w", "coast@2.2.l:w", "gear5@2.3.l:w", zero=zero, damage=["gear", "green", "brake"])
    out = st.play(t)
    car = st.cars["A"]
    assert out.damage == ["gear", "green", "brake"] and car.status == "crashed" and car.space == "2.3.l"
    assert not car.impedes
    turn_of(st, "A", ["B", "A"])
    out = st.play(turn("A", "gear1@2.4.l"))
    assert out.start == "2.3.l" and car.status == "road"


def test_spinout_no_damage():
    """CORE-LOC-06"""
    st = ready(4)
    t = turn("A", "gear4@1.4.l:w", "coast@1.5.l:w", "gear5@1.6.l:w", zero=ZeroSide("spinout"), damage=["gear"])
    assert illegal(st, t).rule_id in ("CORE-LOC-06", "CORE-LOC-09")


def test_sisu_card():
    """CORE-LOC-10: no damage, the car stays and restarts in the card's gear."""
    st = ready(4)
    out = st.play(turn("A", "gear4@1.4.l:w", "coast@1.5.l:w", "gear5@1.6.l:w", zero=ZeroSide("sisu", gear=3)))
    assert st.cars["A"].gear == 3 and st.cars["A"].status == "road" and out.card.icon == "sisu"


def test_spare_tire():
    """CORE-SPARE-01 CORE-SPARE-02 CORE-SPARE-03 CORE-SPARE-04 CORE-SPARE-05 CORE-SPARE-06"""
    st = ready(2)
    car = st.cars["A"]
    assert illegal(st, turn("A", "gear2@1.4.l", spare_tire=True)).rule_id == "CORE-SPARE-01"
    assert illegal(st, turn("A", "gear1@1.4.l", spare_tire=True)).rule_id == "CORE-SPARE-04"
    car.damage = Counter({"coast": 1})
    out = st.play(turn("A", "gear1@1.4.l", spare_tire=True))
    assert out.spare_tire and out.card.zero and car.gear == 0 and car.status == "tire" and not car.impedes
    assert car.damage["coast"] == 0 and not car.spare
    turn_of(st, "A", ["B", "A"])
    out = st.play(turn("A", "gear1@1.5.l"))
    assert out.start == "1.4.l"
    car.damage = Counter({"coast": 1})
    turn_of(st, "A", ["B", "A"])
    assert illegal(st, turn("A", "gear1@1.6.l", spare_tire=True)).rule_id == "CORE-SPARE-06"


def test_finishing_card_and_dice_beyond():
    """CORE-STAGEEND-02 CORE-STAGEEND-03 CORE-ORDER-09: the card is for the gear on the first space after the
    line; dice further neither change it nor earn Seconds; a finished car plays no more."""
    st = ready(3, space="1.7.l")
    out = st.play(turn("A", "gear3@1.8.l", "gear4@1.9.l", "gear5@1.10.l", flat_out=True))
    assert out.finished and out.card.gear == 4 and out.seconds_gained == 2
    assert st.cars["A"].status == "finished" and "A" not in [c.name for c in st.cars.values() if c.on_stage]


def test_loc_beyond_the_line_still_finishes():
    """CORE-STAGEEND-04 CORE-STAGEEND-05 CORE-STAGEEND-06: a one-off stage: the normal card, no damage."""
    st = ready(3, space="1.7.l")
    out = st.play(turn("A", "gear3@1.8.l:w", "gear4@1.9.l:w", "gear5@1.10.l:w"))
    assert out.finished and out.loc and out.card.gear == 4 and not out.card.zero
    assert out.card.seconds == load_components().time_card_seconds(4)


def test_loc_beyond_the_line_in_a_rally_takes_damage():
    """CORE-STAGEEND-07"""
    st = ready(3, space="1.7.l")
    st.one_off = False
    t = turn("A", "gear3@1.8.l:w", "gear4@1.9.l:w", "gear5@1.10.l:w")
    assert illegal(st, t).rule_id == "CORE-STAGEEND-07"
    out = st.play(turn("A", "gear3@1.8.l:w", "gear4@1.9.l:w", "gear5@1.10.l:w",
                       zero=ZeroSide("crash", marks={"low": 2}), damage=["gear", "coast"]))
    assert out.finished and out.damage == ["gear", "coast"]


def test_stage_ends_when_all_finished():
    """CORE-STAGEEND-01"""
    st = ready(3, space="1.7.l")
    st.cars["B"].status = "finished"
    assert not st.is_over()
    st.play(turn("A", "gear3@1.8.l", "gear4@1.9.l"))
    assert st.is_over() and st.to_move() is None


def test_retire_without_gear_dice():
    """CORE-RETIRE-01 CORE-RETIRE-02 CORE-RETIRE-03: six Gear Damage tokens: the car retires; its time is the
    slowest finisher's + 1 minute."""
    st = ready(4, text="N S N N | !high N N N N N F N N", far="2.7.r")
    st.cars["A"].damage = Counter({"gear": 4})
    out = st.play(turn("A", "gear4@2.1.l:w", "coast@2.2.l:w", "gear5@2.3.l:w",
                       zero=ZeroSide("crash", marks={"high": 2}), damage=["gear", "gear"]))
    assert out.retired and st.cars["A"].status == "retired" and not st.cars["A"].on_stage
    st.cars["B"].status = "finished"
    from rallyc.rules import Card
    st.cars["B"].cards = [Card(1, 50), Card(1, 50)]
    assert st.result().times == {"A": 160, "B": 100}


def test_relaid_plan_keeps_the_lowest_limit_of_the_flat_out():
    """CORE-ROLL-13 CORE-ROLL-14 CORE-ROLL-15 MC-WARN-02 (Ambiguity 19): a Flat Out over gravel (limit 3) and
    snow (limit 2) fails with 2 Warnings; re-laid to stop on gravel, the limit stays 2, so the Loss of Control
    falls on the second Warning and cannot be escaped by leaving the snow out."""
    st = make_stage("N S N N | N N N | ~snow N N N | N F N N")
    assert st.index.spaces["3.1.l"].surface == "snow"
    put(st, "B", "4.3.r", 1)
    put(st, "A", "2.1.l", 3)
    turn_of(st, "A", ["B", "A"])
    plan = ["gear3@2.2.l:w", "gear4@2.3.l:w", "gear5@3.1.l:o"]
    out = st.play(turn("A", *plan, flat_out=True, relaid=["gear3@2.2.l:w", "gear4@2.3.l:w"],
                       zero=ZeroSide("spinout")))
    assert out.flat_out_failed and out.loc.space == "2.3.l" and out.loc.gear == 4


def test_relaid_dice_are_the_rolled_dice_each_once_with_its_result():
    """CORE-ROLL-13, in the rulebook's words: "the player must first take all of the dice they rolled (without
    modifying their results) and lay them back out on the road as if they were planning a normal move. They do not
    have to follow the same path as they originally planned, or use all of their original dice, as long as enough
    are placed to cause a Loss of Control." Each re-laid die is one of the dice rolled, with the face it rolled, and
    each rolled die is laid at most once; a die left out is allowed."""
    plan = ["gear5@1.4.l:w", "gear4@1.5.l:w", "coast@1.6.l:w", "gear3@1.7.l"]

    def relay(*relaid: str):
        return turn("A", *plan, flat_out=True, relaid=list(relaid), zero=ZeroSide("spinout"))

    # a die's result is not modified: the Gear 4 die rolled a Warning, the Gear 3 die rolled OK
    assert illegal(ready(4), relay("gear5@1.4.r:w", "coast@1.5.r:w", "gear4@1.6.r:o")).rule_id == "CORE-ROLL-13"
    assert illegal(ready(4), relay("gear5@1.4.r:w", "gear4@1.5.r:w", "gear3@1.6.r:w")).rule_id == "CORE-ROLL-13"
    # one Coast die was rolled: it cannot be laid twice
    assert illegal(ready(4), relay("gear5@1.4.r:w", "coast@1.5.r:w", "coast@1.6.r:w")).rule_id == "CORE-ROLL-13"
    # another path (the right lane), the Gear 3 die left out: the third Warning falls on 1.6.r in Gear 4
    out = ready(4).play(relay("gear5@1.4.r:w", "gear4@1.5.r:w", "coast@1.6.r:w"))
    assert out.flat_out_failed and out.loc.space == "1.6.r" and out.loc.gear == 4
