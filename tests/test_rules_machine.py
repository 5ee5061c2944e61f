"""The referee stepped from outside (rallyc.rules.core.machine): a whole stage of Rally 1 and a whole RX race played by
asking the machine what is pending and answering it, with undo, re-apply, and a state written and restored in the
middle of a turn. The answers come from the seeded random bot's own choices (its plan, its decisions, its chance)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import rallyc
from rallyc.records import replay_record
from rallyc.records.convert import record_format, rx_turn_to_json, turn_to_json
from rallyc.records.replay import replay_race
from rallyc.rules import IllegalMove, Options, Player
from rallyc.rules.core.dice import Face
from rallyc.rules.core.driver import Step
from rallyc.rules.core.machine import CHANCE, GameState, MachineError, Plan, Question
from rallyc.rules.core.race import Race
from rallyc.rules.core.stage import Stage
from rallyc.rules.core.turn import ZeroSide

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = [Player("Ann", "red"), Player("Bob", "blue"), Player("Cleo", "green")]


@pytest.fixture(scope="module")
def ss1():
    return rallyc.load(ROOT / "examples/rally-1.rally").tracks[0]


@pytest.fixture(scope="module")
def rx1():
    return rallyc.load(ROOT / "examples/rx-1.rally").tracks[0]


class Table:
    """Who answers at the table: each player lays a random legal plan and decides at random among the legal
    steps; chance is a seeded stream over the legal outcomes."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def answer(self, state: GameState) -> Any:
        p = state.pending()
        assert p is not None
        if p.question is Question.PLAN:
            plans = list(state.legal_plans(max_dice=4))
            if not plans:
                return Plan(())
            return self.rng.choice(plans[:40])
        if p.question is Question.DIE:
            legal = state.legal_actions()
            assert Step.ROLL in legal  # the next die may always be rolled
            return Step.ROLL if self.rng.random() < 0.8 else self.rng.choice(legal)
        if p.question is Question.FACE:
            faces = [f for f, _ in state.chance_outcomes()]
            return self.rng.choice(faces) if self.rng.random() < 0.35 else Face.OK
        if p.question is Question.TOKEN:
            return "ok"
        if p.question is Question.ZERO_SIDE:
            return ZeroSide("spinout")
        if p.question is Question.DAMAGE:
            return ["gear"] * p.details["count"]
        if p.question is Question.SPARE_TIRE:
            return False
        raise AssertionError(p)


def _play(state: GameState, table: Table, limit: int = 3000) -> int:
    steps = 0
    while not state.is_terminal() and steps < limit:
        step = table.answer(state)
        try:
            state.apply(step)
        except IllegalMove:
            assert state.pending() is not None and state.pending().question is Question.PLAN
            state.apply(Plan(()))  # a plan the rules refuse (a Flat Out's risk...) leaves the turn as it was
        steps += 1
    return steps


def test_a_whole_stage_played_by_stepping_the_machine(ss1):
    state = GameState(lambda: Stage(ss1, PLAYERS))
    assert state.pending().question is Question.PLAN and state.current_player() == "Ann"
    steps = _play(state, Table(1))
    assert state.is_terminal() and state.pending() is None and steps > 30
    outcomes = state.outcomes()
    assert {o.player for o in outcomes} == {"Ann", "Bob", "Cleo"}
    assert all(state.game.cars[n].status in ("finished", "retired") for n in ("Ann", "Bob", "Cleo"))
    with pytest.raises(MachineError):
        state.apply(Plan(()))


def test_a_whole_rx_race_played_by_stepping_the_machine(rx1):
    state = GameState(lambda: Race(rx1, PLAYERS, Options()))
    steps = _play(state, Table(2))
    assert state.is_terminal() and steps > 30
    race = state.game
    assert race.is_over() and all(car.crossed >= 1 or car.status != "road" for car in race.cars.values())


def _mid_turn(state: GameState, table: Table) -> None:
    """Step until a turn is under way with a die waiting to be rolled."""
    while True:
        p = state.pending()
        if p.question is Question.DIE and p.details["die"] >= 1:
            return
        step = table.answer(state)
        if p.question is Question.PLAN:
            step = Plan(step.dice)  # one by one
        try:
            state.apply(step)
        except IllegalMove:
            state.apply(Plan(()))


def test_undo_takes_one_step_back_and_reapplying_it_gives_the_same_state(ss1):
    state = GameState(lambda: Stage(ss1, PLAYERS))
    table = Table(3)
    _mid_turn(state, table)
    before = (state.pending(), json.dumps(state.to_json(), sort_keys=True))
    state.apply(Step.ROLL)
    assert state.pending().question is Question.FACE and state.current_player() == CHANCE
    assert [f for f, _ in state.chance_outcomes()] == [Face.OK, Face.WARNING]
    assert abs(sum(p for _, p in state.chance_outcomes()) - 1) < 1e-9
    state.apply(Face.OK)
    after = (state.pending(), json.dumps(state.to_json(), sort_keys=True))
    assert state.undo() == Face.OK
    assert state.undo() == Step.ROLL
    assert (state.pending(), json.dumps(state.to_json(), sort_keys=True)) == before
    state.apply(Step.ROLL)
    state.apply(Face.OK)
    assert (state.pending(), json.dumps(state.to_json(), sort_keys=True)) == after


def test_undo_goes_back_across_turns_to_the_start(ss1):
    state = GameState(lambda: Stage(ss1, PLAYERS))
    table = Table(4)
    for _ in range(25):
        try:
            state.apply(table.answer(state))
        except IllegalMove:
            state.apply(Plan(()))
    played = len(state.outcomes())
    assert played >= 1
    while state.history:
        state.undo()
    assert state.outcomes() == [] and state.pending().question is Question.PLAN
    with pytest.raises(MachineError):
        state.undo()


def test_a_state_written_mid_turn_is_restored_and_plays_on_the_same(ss1, rx1):
    for setup in (lambda: Stage(ss1, PLAYERS), lambda: Race(rx1, PLAYERS, Options())):
        state = GameState(setup)
        _mid_turn(state, Table(5))
        text = json.dumps(state.to_json())
        restored = GameState.from_json(setup, json.loads(text))
        assert restored.pending() == state.pending()
        assert json.dumps(restored.to_json()) == text
        a, b = Table(6), Table(6)
        _play(state, a)
        _play(restored, b)
        assert [o.to_json() if hasattr(o, "to_json") else vars(o) for o in state.outcomes()] == \
               [o.to_json() if hasattr(o, "to_json") else vars(o) for o in restored.outcomes()]


def test_a_refused_step_names_the_rule_and_changes_nothing(ss1):
    state = GameState(lambda: Stage(ss1, PLAYERS))
    plan = next(iter(state.legal_plans()))
    with pytest.raises(IllegalMove) as err:
        state.apply(Plan(plan.dice + plan.dice))  # the same die laid twice
    assert err.value.rule_id.startswith("CORE-")
    assert state.history == [] and state.pending().question is Question.PLAN
    state.apply(plan)
    assert state.pending().question is Question.DIE and state.pending().details["die"] == 0
    with pytest.raises(MachineError):
        state.apply("sideways")
    with pytest.raises(MachineError):
        state.apply(plan)
    assert state.history == [plan]


def test_the_games_played_by_stepping_replay_as_records(ss1, rx1):
    """The turns the machine played, written as a record, replay with the same outcome (a stage and an RX race)."""
    state = GameState(lambda: Stage(ss1, PLAYERS))
    _play(state, Table(7))
    outs = state.outcomes()
    players = [{"name": p.name, "colour": p.colour, "car": p.car, "tires": p.tires} for p in PLAYERS]
    record = {"format": record_format([o.turn for o in outs]), "design": "Rally 1", "track": "rally-1.rally",
              "players": players, "options": Options().to_dict(),
              "stages": [{"stage": ss1.name, "turns": [turn_to_json(o.turn, o) for o in outs]}]}
    report = replay_record(record, ROOT / "examples")
    assert report.ok and report.error is None
    assert sum(len(r["turns"]) for r in report.to_json()["stages"][0]["rounds"]) == len(outs) > 20

    race = GameState(lambda: Race(rx1, PLAYERS, Options()))
    _play(race, Table(8))
    outs = race.outcomes()
    result = race.game.result()
    record = {"format": record_format([o.turn for o in outs]), "design": "RX 1", "track": "rx-1.rally",
              "players": [{"name": p.name, "colour": p.colour, "car": "rx"} for p in PLAYERS],
              "options": {"flying_start": False, "redline": False},
              "race": {"turns": [rx_turn_to_json(o.turn, o) for o in outs],
                       "result": {"order": result.order, "disqualified": result.disqualified,
                                  "retired": result.retired}}}
    report = replay_race(record, ROOT / "examples")
    assert report.ok and len(outs) > 20
