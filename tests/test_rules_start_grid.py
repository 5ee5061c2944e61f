"""RX-SETUP-06/07: "Once there are no more spaces in a row, cars are placed in the row behind, starting with the
inside lane." Every car gets a place, on a circuit without a Pre-grid (Auto Tour Track 1, Ice Track 1) and in a
Head-to-Head on a stage (CUSTOM-05: all start together), and the race is played to its end and replays."""

from __future__ import annotations

from pathlib import Path

import pytest

import rallyc
from rallyc.records import replay_record
from rallyc.records.generate import bot_race_record, bot_record
from rallyc.records.replay import replay_race
from rallyc.rules import Options, Player, Race, Rally

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
FOUR = [Player("Ann", "red"), Player("Bob", "blue"), Player("Cleo", "green"), Player("Dan", "yellow")]


def _track(name: str):
    return rallyc.load(EXAMPLES / f"{name}.rally").tracks[0]


@pytest.mark.parametrize("name, front, behind", [
    ("track-1", ["1.2.l", "1.2.m", "1.2.r"], ["1.1.l"]),
    ("ice-track-1", ["1.2.l", "1.2.r"], ["1.1.l", "1.1.r"]),
])
def test_a_full_row_sends_the_next_car_to_the_row_behind(name, front, behind):
    race = Race(_track(name), FOUR, Options())
    assert [race.cars[p.name].space for p in FOUR] == front + behind


@pytest.mark.parametrize("name", ["track-1", "ice-track-1"])
def test_four_cars_race_from_two_rows_to_the_end(name):
    record = bot_race_record(_track(name), FOUR, seed=1)
    record["track"] = f"{name}.rally"
    assert replay_race(record, EXAMPLES).ok
    assert len(record["race"]["result"]["order"]) >= 3


def test_a_head_to_head_on_a_stage_starts_every_car_behind_the_line():
    ss1 = _track("rally-1")
    rally = Rally([ss1], FOUR, Options(race_type="head-to-head"))
    stage = rally.start_stage()
    assert sorted(car.space for car in stage.cars.values()) == ["1.1.l", "1.1.r", "1.2.l", "1.2.r"]
    record = bot_record([ss1], FOUR, seed=0, options=Options(race_type="head-to-head"))
    record["track"] = "rally-1.rally"
    report = replay_record(record, EXAMPLES)
    assert report.ok and len(report.classification) == 4
