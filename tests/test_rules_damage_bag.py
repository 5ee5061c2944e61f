"""The Damage bag holds a fixed number of tokens of each kind, and a drawn token stays out (CORE-SETUP-02/03: 24
Gear, 6 Brake, 7 Coast/Leader, 11 Green Flag; RX-SETUP-02: 6 Green Flag, 18 Gear, 6 Brake, 6 Coast/Leader, 6 Boost,
6 Yellow Flag). A record that draws a seventh Green Flag in an RX race is refused where it draws it; bots draw only
what the bag still holds, and their games replay."""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path

import pytest

import rallyc
from rallyc.records.race import bot_race_record, replay_race
from rallyc.rules import Options, Player

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "examples" / "games"
FOUR = [Player("Ann", "red"), Player("Bob", "blue"), Player("Cleo", "green"), Player("Dan", "yellow")]


def test_a_seventh_green_flag_is_refused_where_it_is_drawn():
    record = json.loads((GAMES / "rx-2-full-contact.json").read_text())
    bad = copy.deepcopy(record)
    bad["race"]["turns"][69]["damage"] = ["green"]
    report = replay_race(bad, GAMES)
    assert not report.ok and report.error.rule_id == "RX-SETUP-02"
    assert report.error.path == "$.race.turns[69].damage[0]" and "6 green token(s)" in report.error.message
    assert replay_race(record, GAMES).ok


@pytest.mark.parametrize("seed", range(6))
def test_bots_draw_only_what_the_bag_holds_and_their_races_replay(seed):
    track = rallyc.load(ROOT / "examples" / "rx-2.rally").tracks[0]
    record = bot_race_record(track, FOUR, seed=seed, options=Options(full_contact=True))
    record["track"] = "rx-2.rally"
    drawn = Counter(d for t in record["race"]["turns"] for d in t.get("damage", []))
    assert drawn["green"] <= 6 and drawn["brake"] <= 6 and drawn["yellow"] <= 6
    report = replay_race(record, ROOT / "examples")
    assert report.ok, report.error
