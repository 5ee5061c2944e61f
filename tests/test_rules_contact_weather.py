"""Full Contact with the RX Weather rule (RX-ADV-01, RX-IMPACT-01, RX-WEATHER-03/04/07): a Weather token drawn as
impact damage turns every Dashboard over like one drawn at a Shortcut or a Loss of Control; a later one is
discarded and another token drawn. Real inputs: seeded bot races on RX 2 (its Shortcut and fork) and the recorded
Full Contact race examples/games/rx-2-full-contact.json."""

from __future__ import annotations

import copy
import json
import os

import pytest

from helpers.paths import EXAMPLES
from rallyc.records.load import load_record, parse_record
from rallyc.records.generate import bot_race_record
from rallyc.records.replay import replay_record
from rallyc.rules.core.options import Options
from rallyc.rules.core.stage import Player

GAMES = EXAMPLES / "games"
SLOW = bool(os.environ.get("RALLYC_SLOW"))
CARS = [Player("Ann", "red", "rx", "asphalt"), Player("Bob", "blue", "rx", "rain"),
        Player("Cleo", "green", "rx", "asphalt"), Player("Dan", "yellow", "rx", "rain")]


def _race(seed: int) -> dict:
    import rallyc

    track = rallyc.load(EXAMPLES / "rx-2.rally").tracks[0]
    rec = bot_race_record(track, CARS, seed=seed, options=Options(full_contact=True), weather="dry",
                          header={"track": "../rx-2.rally"})
    return json.loads(json.dumps(rec))


def _impacts(turn: dict) -> list[dict]:
    return [d.get("push") or d.get("through") for d in turn.get("dice", []) + turn.get("relaid", [])
            if d.get("push") or d.get("through")]


@pytest.mark.parametrize("seed", range(12 if SLOW else 2))
def test_bot_full_contact_races_in_the_weather_replay_cleanly(seed):
    rec = _race(seed)
    report = replay_record(parse_record(json.dumps(rec)), GAMES)
    assert report.ok, report.error
    assert report.weather == "dry"


def test_a_weather_token_drawn_for_an_impact_turns_the_weather():
    """Seed 1 of the bot: Bob's impact draw is a Weather token, the first of the race: the Dashboards turn to Wet
    (RX-WEATHER-04). Recorded as a Damage token instead, the weather the record claims is refused."""
    rec = _race(1)
    i, turn = next((i, t) for i, t in enumerate(rec["race"]["turns"]) if t.get("weather"))
    own = "weather" in turn.get("damage", []) or any(d.get("token") == "weather" for d in turn.get("dice", []))
    assert not own and any("weather" in (c.get("impact", []) + sum(c.get("damage", {}).values(), []))
                           for c in _impacts(turn))
    report = replay_record(rec, GAMES)
    assert report.ok
    turned = [t for r in report.rounds for t in r["turns"] if t["weather"]]
    assert [t["weather"] for t in turned] == ["wet"]
    assert "RX-WEATHER-04" in turned[0]["applied"]
    bad = copy.deepcopy(rec)
    for c in _impacts(bad["race"]["turns"][i]):
        c["impact"] = ["gear" if t == "weather" else t for t in c.get("impact", [])]
        c["damage"] = {n: ["gear" if t == "weather" else t for t in ts] for n, ts in c.get("damage", {}).items()}
    report = replay_record(bad, GAMES)
    assert report.error is not None
    assert (report.error.rule_id, report.error.path) == ("RX-WEATHER-04", f"$.race.turns[{i}].weather")


def test_a_later_weather_token_is_replaced():
    """RX-WEATHER-07: once the weather has turned, a Weather token drawn for an impact is discarded and another
    drawn: it does not count as one of the impact's tokens."""
    for seed in range(12):
        rec = _race(seed)
        turned = False
        for i, t in enumerate(rec["race"]["turns"]):
            later = turned and any("weather" in c.get("impact", []) for c in _impacts(t))
            turned = turned or bool(t.get("weather"))
            if not later:
                continue
            report = replay_record(rec, GAMES)
            applied = [x for r in report.rounds for x in r["turns"]][i]["applied"]
            assert "RX-WEATHER-07" in applied
            bad = copy.deepcopy(rec)
            c = next(c for c in _impacts(bad["race"]["turns"][i]) if "weather" in c.get("impact", []))
            kept = [x for x in c["impact"] if x != "weather"]
            if not kept:
                continue
            # a counted token taken out: the Weather token does not stand in for it, the draw is one short
            c["impact"] = [x for x in c["impact"] if x == "weather"] + kept[1:]
            report = replay_record(bad, GAMES)
            assert report.error is not None and report.error.rule_id in ("RX-IMPACT-01", "RX-THROUGH-08")
            assert "RX-WEATHER-07" in report.error.message
            return
    pytest.fail("no bot race drew a second Weather token for an impact")


def test_no_weather_token_in_the_bag_without_the_weather_rule():
    """RX-WEATHER-03: the recorded Full Contact race has no Weather rule: an impact drawing a Weather token is
    refused."""
    rec = load_record(GAMES / "rx-2-full-contact.json")
    i, c = next((i, c) for i, t in enumerate(rec["race"]["turns"]) for c in _impacts(t) if c.get("impact"))
    c["impact"][0] = "weather"
    report = replay_record(rec, GAMES)
    assert report.error is not None and report.error.rule_id == "RX-WEATHER-03"
    assert report.error.path.startswith(f"$.race.turns[{i}].")
