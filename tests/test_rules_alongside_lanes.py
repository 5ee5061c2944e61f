"""Alongside means side by side, in another lane of the same zone (CORE-OVERTAKE, RX-DAMAGE-04): on 411a (RX 2's
first tile) the speed-limited zone has an inside lane of one space and an outside lane of two, one behind the other.
The two outside spaces are not alongside each other; taking them for alongside made a Yellow Flag there forbid two
cars sharing a space to move at all, and a Full Contact race never ended (RX 2, random bot, seed 139)."""

from __future__ import annotations

from pathlib import Path

import pytest

import rallyc
from rallyc.rules import Options, Player, Race
from rallyc.rules.drivers.bot import RandomBot
from rallyc.rules.core.state import index_of

ROOT = Path(__file__).resolve().parents[1]
FOUR = [Player("Ann", "red"), Player("Bob", "blue"), Player("Cleo", "green"), Player("Dan", "yellow")]


@pytest.fixture(scope="module")
def rx2():
    return rallyc.load(ROOT / "examples/rx-2.rally").tracks[0]


def test_spaces_one_behind_the_other_in_a_lane_are_not_alongside(rx2):
    index = index_of(rx2)
    assert sorted(index.alongside["1.2.in1"]) == ["1.2.out1", "1.2.out2"]
    assert index.alongside["1.2.out1"] == ["1.2.in1"] and index.alongside["1.2.out2"] == ["1.2.in1"]


@pytest.mark.parametrize("weather", ["dry", "wet"])
def test_the_full_contact_race_of_seed_139_ends(rx2, weather):
    race = Race(rx2, FOUR, Options(full_contact=True), weather=weather)
    bot = RandomBot(139)
    turns = 0
    while not race.is_over() and turns < 600:
        bot.play_turn(race)
        turns += 1
    assert race.is_over(), f"still racing after {turns} turns"
