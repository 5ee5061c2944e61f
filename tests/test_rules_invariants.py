"""The invariants the referee checks after every turn when asked (`rallyc replay --check-invariants`): every
bundled game keeps them, bot games on every example track keep them and end, and a referee that breaks one is
named at the turn where it happens."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import rallyc
from rallyc.records import load_record, replay_record
from rallyc.rules import Options, Player, Race, Rally
from rallyc.rules.drivers.bot import RandomBot
from rallyc.rules.core.invariants import InvariantBroken, checking_invariants, turn_bound
from rallyc.rules.core.stage import Stage

ROOT = Path(__file__).resolve().parents[1]
GAMES = sorted((ROOT / "examples" / "games").glob("*.json"))
PLAYERS = [Player("Ann", "red"), Player("Bob", "blue"), Player("Cleo", "green")]


@pytest.mark.parametrize("game", [g for g in GAMES if "race" not in load_record(g)][:6], ids=lambda p: p.stem)
def test_every_bundled_stage_game_keeps_the_invariants(game):
    with checking_invariants():
        assert replay_record(load_record(game), game.parent).ok


@pytest.mark.parametrize("name", ["rally-1", "rally-4", "rally-5", "auto-tour-1"])
def test_bot_stages_keep_the_invariants_and_end(name):
    for track in rallyc.load(ROOT / "examples" / f"{name}.rally").tracks[:2]:
        stage = Rally([track], PLAYERS, Options(flying_start=True, sisu="per-stage")).start_stage()
        bot = RandomBot(7)
        with checking_invariants():
            while not stage.is_over():
                bot.play_turn(stage)
        assert len(stage.outcomes) <= turn_bound(stage)


@pytest.mark.parametrize("name, options", [("rx-1", Options()), ("rx-2", Options(full_contact=True)),
                                           ("ice-track-1", Options()), ("track-1", Options())])
def test_bot_races_keep_the_invariants_and_end(name, options):
    race = Race(rallyc.load(ROOT / "examples" / f"{name}.rally").tracks[0], PLAYERS, options)
    bot = RandomBot(11)
    with checking_invariants():
        while not race.is_over():
            bot.play_turn(race)


def test_a_referee_that_stacks_two_cars_is_caught_at_that_turn(monkeypatch, tmp_path):
    """A stage whose commit leaves the moving car on the space of a car ahead (no rule allows two cars on one space
    in a stage, CORE-MOVE-02): `replay --check-invariants` exits 3 naming the invariant; without it the replay
    does not notice."""

    class Stacking(Stage):
        def commit(self, car, turn, out, change):
            super().commit(car, turn, out, change)
            others = [c for c in self.cars.values() if c is not car and c.impedes and c.space]
            if self.round == 3 and others and car.impedes:
                car.space = others[0].space

    game = next(g for g in GAMES if g.name.startswith("rally-3"))
    monkeypatch.setattr("rallyc.rules.rally.Stage", Stacking)
    with pytest.raises(InvariantBroken) as err, checking_invariants():
        replay_record(load_record(game), game.parent)
    assert err.value.name == "space" and "cars on" in str(err.value)


def test_replay_check_invariants_on_the_command_line():
    game = next(g for g in GAMES if g.name.startswith("rx-2"))
    r = subprocess.run([sys.executable, "-m", "rallyc", "replay", "--check-invariants", str(game)],
                       capture_output=True, text=True)
    assert r.returncode == 0 and "Traceback" not in r.stderr


def test_a_crashed_car_put_back_where_another_car_stopped_keeps_the_invariants():
    """CORE-LOC-07 CORE-LOC-08 CORE-OVERTAKE-08: a crashed car beside the road impedes no one, so another car may stop
    on its space; at its next turn the crashed car is put back on that space (reading ``crashed_return``: the two share
    it until it moves off). A Technical Head-to-Head on the Auto Tour's SS1, four Rally cars, random bot seed 1: Bob
    crashes on 4.2.r (turn 15), Cat stops there (turn 19), Bob is put back (turn 20). The invariant took it for two
    cars on one space; the game keeps the invariants and ends."""
    from rallyc.records.generate import bot_record

    ss1 = next(t for t in rallyc.load(ROOT / "examples" / "auto-tour-1.rally").tracks if t.name == "SS1")
    four = [Player("Ann", "red", "r5", "asphalt"), Player("Bob", "blue", "r4", "snow"),
            Player("Cat", "green", "r6", "gravel"), Player("Dan", "yellow", "r5", "gravel")]
    options = Options(race_type="head-to-head", track_rules="technical")
    with checking_invariants():
        record = bot_record([ss1], four, seed=1, options=options, header={})
    turns = record["stages"][0]["turns"]
    assert turns[14]["player"] == "Bob" and turns[14]["card"]["zero"]["icon"] == "crash" and turns[14]["end"] == "4.2.r"
    assert turns[18]["player"] == "Cat" and turns[18]["end"] == "4.2.r"
    assert turns[19]["player"] == "Bob" and turns[19]["end"] == "4.2.r" and not turns[19]["dice"]
    assert all(t is not None for t in record["stages"][0]["times"].values())
