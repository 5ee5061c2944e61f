"""The Damage bag holds a fixed number of tokens of each kind, and a drawn token stays out (CORE-SETUP-02/03: 24
Gear, 6 Brake, 7 Coast/Leader, 11 Green Flag; RX-SETUP-02: 6 Green Flag, 18 Gear, 6 Brake, 6 Coast/Leader, 6 Boost,
6 Yellow Flag). A record that draws a seventh Green Flag in an RX race is refused where it draws it; bots draw only
what the bag still holds, and their games replay."""

from __future__ import annotations

import copy
import sys
import json
from collections import Counter
from pathlib import Path

import pytest

import rallyc
from rallyc.records import parse_record, replay_record
from rallyc.records.generate import bot_race_record
from rallyc.records.replay import replay_race
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


# -- a draw when the bag runs out (issue 31: the bots' own games refused by the referee)
#
# RX rulebook, RX Weather: "If a Weather token is drawn from the Damage bag for whatever reason, the weather changes"
# (RX-WEATHER-04); "Any further Weather tokens drawn during the race are ignored. Discard them and draw another token
# to replace them" (RX-WEATHER-07): a discarded token is out of the bag as any other. The rulebooks do not say what
# happens when the bag runs out; the referee's reading (empty_bag): the draw stops when the bag is empty. These games
# are the bots' own, from the sweep (benchmarks/bot_sweep.py), four cars: the referee refused them before.

sys.path.insert(0, str(ROOT / "benchmarks"))
import bot_sweep  # noqa: E402

#: (case, seed) of the sweep whose random-bot game the referee refused: a Weather token discarded, then the bag empty
#: (RX-IMPACT-01, RX-LOC-04); a Loss of Control drawing a Yellow Flag, then an impact in the same turn finding the bag
#: empty (the flag counted twice: "the Damage bag holds -1 token(s)")
REFUSED = [("rx-2 [rx] all", 10), ("rx-2 [rx] all", 19),
           ("track-1 [custom head-to-head speed light] all", 16),
           ("track-2 [custom head-to-head speed light] full-contact", 26),
           ("track-2 [custom head-to-head speed light] all", 21)]


def _bot_game(name: str, seed: int) -> tuple[dict, "bot_sweep.Case"]:
    case = next(c for c in bot_sweep.cases() if c.name == name)
    return bot_sweep.record_of(case, bot_sweep.make_driver("random", case, seed), seed, 4), case


def _replay(case, record):
    track = bot_sweep.track_of(case)
    return replay_record(parse_record(json.dumps(record)), tracks=[track], explain=False)


@pytest.mark.parametrize("name, seed", REFUSED, ids=[f"{n}-{s}" for n, s in REFUSED])
def test_the_bots_games_that_ran_the_bag_out_play_and_replay(name, seed):
    record, case = _bot_game(name, seed)
    report = _replay(case, record)
    assert report.error is None, f"{report.error.path}: {report.error}"


def test_an_impact_draw_stops_when_the_bag_is_empty_a_discarded_weather_token_included():
    """RX 2, all options (RX Weather: the bag holds 54 tokens), seed 10: at turn 57 Ann (Gear 4) pushes Bob (Gear 1):
    each draws 3 (RX-IMPACT-01). Bob draws 3, which leaves 3 in the bag; Ann draws a Weather token (the weather
    turned at turn 41: discarded, RX-WEATHER-07), then the bag's last 2 tokens. A fourth token listed is refused."""
    record, case = _bot_game("rx-2 [rx] all", 10)
    turns = record["race"]["turns"]
    push = turns[57]["dice"][0]["push"]
    assert push["damage"]["Bob"] == ["coast", "gear", "gear"] and push["impact"] == ["weather", "gear", "boost"]
    assert _replay(case, record).error is None
    more = copy.deepcopy(record)
    more["race"]["turns"][57]["dice"][0]["push"]["impact"].append("brake")
    error = _replay(case, more).error
    assert error.rule_id == "RX-SETUP-02" and "holds 3 token(s)" in error.message
    fewer = copy.deepcopy(record)  # the bag is not empty after two tokens: the third is drawn
    fewer["race"]["turns"][57]["dice"][0]["push"]["damage"]["Bob"].pop()
    assert _replay(case, fewer).error.rule_id == "RX-IMPACT-01"


def test_a_loss_of_control_draw_stops_when_the_bag_is_empty():
    """RX 2, all options, seed 19: at turn 43 a Loss of Control in Gear 5 on a medium tile draws 2 (RX-LOC-04): two
    Weather tokens, both discarded (the weather turned at turn 27), and the bag's last token."""
    record, case = _bot_game("rx-2 [rx] all", 19)
    turn = record["race"]["turns"][43]
    assert turn["damage"] == ["weather", "weather", "gear"]
    assert _replay(case, record).error is None
    short = copy.deepcopy(record)
    short["race"]["turns"][43]["damage"] = ["weather", "gear"]  # a token left in the bag: the draw goes on
    error = _replay(case, short).error
    assert error.rule_id == "RX-LOC-04" and "draws 2 Damage token(s)" in error.message


def test_a_yellow_flag_drawn_counts_once_against_the_bag():
    """Track 1, custom Head-to-Head under Speed Track rules with the light Damage set (CUSTOM-22) and all options,
    seed 16: at turn 44 Dan (Gear 4) pushes Ann (Gear 2) and loses control; his Loss of Control draws the bag's last
    2 tokens (a Green Flag and a Yellow Flag, RX-DAMAGE-03), so the impact draws none (RX-IMPACT-01 would be 2
    each). The Yellow Flag was counted twice (on the track and among the turn's tokens): the bag held -1 token and
    the bot's turn was refused."""
    record, case = _bot_game("track-1 [custom head-to-head speed light] all", 16)
    turns = record["race"]["turns"]
    assert turns[44]["damage"] == ["green", "yellow"] and turns[44]["dice"][1]["push"] == {"car": "Ann"}
    assert _replay(case, record).error is None
    more = copy.deepcopy(record)
    more["race"]["turns"][44]["dice"][1]["push"]["impact"] = ["gear"]
    error = _replay(case, more).error
    # Gear 4 into Gear 2: each would draw 2, but the bag is empty
    assert error.rule_id == "RX-IMPACT-01" and error.message == "Gear 4 into a Gear 2 marker: Dan draws 0 Damage " \
                                                                 "token(s), not 1"
