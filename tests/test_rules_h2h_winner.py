"""CUSTOM-05: in a Head-to-Head "the first car to cross the Finish Line wins the race" — under Technical Track rules
too, where Time cards are still taken (CUSTOM-14) but rank nothing. Seeded games where the winner took more
seconds of Time cards than the car behind it."""

from __future__ import annotations

from pathlib import Path

import pytest

import rallyc
from rallyc.records import replay_record
from rallyc.records.generate import bot_record
from rallyc.rules import Options, Player, Rally
from rallyc.rules.drivers.bot import RandomBot

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = [Player("Ann", "red"), Player("Bob", "blue")]


@pytest.fixture(scope="module")
def ss1():
    return rallyc.load(ROOT / "examples/rally-1.rally").tracks[0]


@pytest.mark.parametrize("seed", [38, 44])
def test_the_first_car_across_the_finish_line_wins_whatever_its_time_cards(ss1, seed):
    rally = Rally([ss1], PLAYERS, Options(race_type="head-to-head"))
    stage = rally.start_stage()
    bot = RandomBot(seed)
    while not stage.is_over():
        bot.play_turn(stage)
    first = stage.finishers[0]
    record = rally.end_stage()
    other = next(n for n in record.times if n != first)
    assert record.times[first] > record.times[other]  # more seconds of Time cards, and still the winner
    assert [name for name, _ in rally.classification()] == [first, other]


def test_a_recorded_head_to_head_is_classified_by_the_finish(ss1):
    record = bot_record([ss1], PLAYERS, seed=44, options=Options(race_type="head-to-head"))
    record["track"] = "rally-1.rally"
    report = replay_record(record, ROOT / "examples")
    assert report.ok
    assert [c["name"] for c in report.classification] == ["Bob", "Ann"]
