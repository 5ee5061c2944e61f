"""The turn as a state machine (rallyc.rules.core.rolling.OneByOne): plan, roll one die at a time, continue / stop /
re-plan, resolve; each step validated as it happens (CORE-ROLL-03..06, CORE-SECONDS-04/08, IMPROV-01..03)."""

import pytest

from helpers.rules import make_stage, put, turn_of
from rallyc.rules import IllegalMove
from rallyc.rules.core.dice import Die, DieKind, Face
from rallyc.rules.core.plans import check_plan
from rallyc.rules.core.rolling import OneByOne, Phase
from rallyc.rules.core.turn import Replan, Roll

SHORT = "N S N N N N N N N F N N"


def machine(gear=3, seconds=0, **options):
    st = make_stage(SHORT, **options)
    put(st, "B", "1.10.r", 1)
    put(st, "A", "1.3.l", gear, seconds=seconds)
    turn_of(st, "A", ["B", "A"])
    ctx, _ = st.context("A")
    dice = [Roll(Die(DieKind.GEAR3, "1.4.l")), Roll(Die(DieKind.GEAR4, "1.5.l")), Roll(Die(DieKind.GEAR5, "1.6.l"))]
    placed = check_plan(ctx, [r.die for r in dice])
    return st, OneByOne(st, ctx, dice, placed, sisu=False, mover=st.mover(st.cars["A"]))


def test_roll_one_die_at_a_time_then_stop():
    """CORE-ROLL-03 CORE-ROLL-06: each roll moves the car one die on; stopping ends the movement."""
    _, m = machine()
    assert m.phase is Phase.ROLL and m.i == 0
    m.roll(Face.OK)
    assert m.i == 1 and m.phase is Phase.ROLL and [p.space for p, _ in m.runner.resolved] == ["1.4.l"]
    m.roll(Face.WARNING)
    assert m.warnings == 1
    m.stop()
    assert m.phase is Phase.RESOLVE
    with pytest.raises(IllegalMove) as exc:
        m.roll(Face.OK)
    assert exc.value.rule_id == "CORE-ROLL-06"
    run = m.finish([], 0)
    assert run.stopped and [p.space for p, _ in run.resolved] == ["1.4.l", "1.5.l"]


def test_securing_is_checked_when_the_die_is_secured():
    """CORE-SECONDS-08: securing a die costs Second tokens the car must hold, refused at that step."""
    _, m = machine(seconds=0)
    with pytest.raises(IllegalMove) as exc:
        m.secure()
    assert exc.value.rule_id == "CORE-SECONDS-08"
    _, m = machine(seconds=3)
    m.secure()
    m.secure()
    assert m.i == 2 and m.runner.warnings == 0


def test_a_face_must_fit_its_die():
    """CORE-ROLL-02: a Gear die without the Brake has no Brake face."""
    _, m = machine()
    with pytest.raises(IllegalMove) as exc:
        m.roll(Face.OK, brake_face=Face.OK)
    assert exc.value.rule_id == "CORE-DICE-17"


def test_replan_needs_the_option_and_a_roll_before_it():
    """IMPROV-01: no re-plan without Improvisation, none before a roll, none twice in a row."""
    _, m = machine()
    m.roll(Face.OK)
    with pytest.raises(IllegalMove) as exc:
        m.replan(Replan(1, [Roll(Die(DieKind.GEAR4, "1.5.r"))]), 0)
    assert exc.value.rule_id == "IMPROV-01"

    _, m = machine(improvisation=True)
    assert not m.can_replan()
    with pytest.raises(IllegalMove) as exc:
        m.replan(Replan(0, [Roll(Die(DieKind.GEAR3, "1.4.r"))]), 0)
    assert exc.value.rule_id == "IMPROV-01"
    m.roll(Face.OK)
    assert m.can_replan()
    m.replan(Replan(1, [Roll(Die(DieKind.GEAR4, "1.5.r")), Roll(Die(DieKind.GEAR5, "1.6.r"))]), 0)
    assert [r.die.to for r in m.rolls] == ["1.4.l", "1.5.r", "1.6.r"] and m.paths[1] == "replans[0].dice[0]"
    assert not m.can_replan()  # the next step must be a roll first
    m.roll(Face.OK)
    m.roll(Face.OK)
    assert m.phase is Phase.RESOLVE and m.finish([], 1).resolved[-1][0].space == "1.6.r"


def test_replanned_dice_follow_the_usual_rules():
    """IMPROV-03: a re-planned die two gears up without the Brake is refused (CORE-DICE-09), located in the
    re-plan."""
    _, m = machine(improvisation=True)
    m.roll(Face.OK)
    with pytest.raises(IllegalMove) as exc:
        m.replan(Replan(1, [Roll(Die(DieKind.GEAR5, "1.5.l"))]), 0)
    assert exc.value.path.startswith("replans[0].dice[0]") and exc.value.rule_id.startswith("CORE-")
