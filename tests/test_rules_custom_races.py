"""Custom races (RX book, Customisable Races, CUSTOM-01..23) in play: the options in force make a game a custom
race (rallyc.rules.variants.custom.CustomRace), which is a variant of the one referee: a Time Trial on a stage under
Technical Track rules is the core stage; a Head-to-Head on a circuit under Speed Track rules is the race with each
player's own Rally car and the chosen Damage set. Real inputs: the Auto Tour 1 designs and their recorded custom
races (examples/games/auto-tour-1-event-*.json), RX 2 (a circuit with a Shortcut)."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys

import pytest

from helpers.paths import EXAMPLES, ROOT
from rallyc.records.load import RecordError, load_record, parse_record
from rallyc.records.generate import bot_race_record
from rallyc.records.replay import replay_record
from rallyc.rules.variants.custom import CustomRace, custom_race
from rallyc.rules.core.options import Options
from rallyc.rules.core.stage import Player

GAMES = EXAMPLES / "games"
TT_STAGE = GAMES / "auto-tour-1-event-1-ss1-time-trial.json"
H2H_CIRCUIT = GAMES / "auto-tour-1-event-2-track-1-head-to-head.json"


def rallyc(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rallyc", *args], capture_output=True, text=True, cwd=ROOT)


@pytest.mark.parametrize("path", [TT_STAGE, H2H_CIRCUIT], ids=["time-trial-stage", "head-to-head-circuit"])
def test_the_recorded_custom_races_replay(path):
    """CUSTOM-01 CUSTOM-04 CUSTOM-05 CUSTOM-06 CUSTOM-07: a custom Time Trial on a stage and a custom Head-to-Head on
    a circuit replay with exit 0 and no warning that an option is not refereed."""
    run = rallyc("replay", str(path))
    assert run.returncode == 0, run.stderr
    assert "not refereed" not in run.stderr
    data = load_record(path)
    report = replay_record(data, path.parent)
    assert report.ok
    if "race" in data:
        assert "Custom Head-to-Head" in run.stdout
        assert {p["car"] for p in data["players"]} <= {"r4", "r5", "r6"}  # each player's own Rally car (CUSTOM-10)


def test_what_each_choice_fixes():
    """CUSTOM-05..09, 13, 14, 18, 19: order of play, start, tokens, dice and damage by race type and track rules."""
    h2h = CustomRace("circuit", "head-to-head", "speed")
    tt = CustomRace("stage", "time-trial", "technical")
    assert h2h.order_of_priority == ("speed", "distance", "position") and h2h.start == "same-round"
    assert tt.order_of_priority == ("distance", "speed", "position") and tt.start == "staggered"
    assert (h2h.flat_out_tokens, tt.flat_out_tokens) == ("focus", "seconds")
    assert not h2h.surfaces_change_dice and tt.surfaces_change_dice
    assert (h2h.loss_of_control, tt.loss_of_control) == ("dashboard", "time-cards")
    assert (h2h.bag_name, tt.bag_name) == ("gt", "dirt")
    assert (h2h.referee, tt.referee) == ("race", "stage")
    assert h2h.race_format().car == "" and h2h.race_format().bag == "gt"
    assert CustomRace("circuit", "head-to-head", "speed", damage_bag="light").race_format(True).bag == "light"
    # a Time Trial under Speed Track rules: Time cards, one Dashboard column, Dashboard damage (rules.speed_trial)
    for racetrack in ("circuit", "stage"):
        c = CustomRace(racetrack, "time-trial", "speed")
        assert c.referee == "stage" and c.unplayable() is None and c.time_cards
        assert not c.surfaces_change_dice and c.loss_of_control == "dashboard" and c.bag_name == "gt"
        assert {"CUSTOM-13", "CUSTOM-18"} <= set(c.stage_rules()) and "CUSTOM-14" not in c.stage_rules()
        with pytest.raises(ValueError):
            c.race_format()
    # the Technical Head-to-Head is the core stage with Time cards (CUSTOM-14), not a race
    for racetrack in ("circuit", "stage"):
        c = CustomRace(racetrack, "head-to-head", "technical")
        assert c.referee == "stage" and c.time_cards and c.unplayable() is None
        with pytest.raises(ValueError):
            c.race_format()


def test_a_choice_left_open_takes_the_tracks_own():
    assert custom_race("stage", {}) is None
    assert custom_race("stage", {"damage-bag": "dirt"}) == CustomRace("stage", "time-trial", "technical", False, "dirt")
    assert custom_race("circuit", {"race-type": "head-to-head"}).track_rules == "speed"


def test_a_race_record_contradicting_its_design_is_located(tmp_path):
    """A record contradicting a fixed property of the design (its race type) is a located error, exit 1."""
    design = tmp_path / "t1.rally"
    design.write_text((EXAMPLES / "track-1.rally").read_text(encoding="utf-8").replace(
        "  laps 2\n", "  laps 2\n  options race-type head-to-head, track-rules speed, damage-bag light\n"), encoding="utf-8")
    rec = load_record(H2H_CIRCUIT)
    rec["track"] = "t1.rally"
    good = tmp_path / "good.json"
    good.write_text(json.dumps(rec, indent=1), encoding="utf-8")
    assert rallyc("replay", str(good)).returncode == 0
    rec["options"]["race_type"] = "time-trial"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(rec, indent=1), encoding="utf-8")
    run = rallyc("replay", str(bad))
    assert run.returncode == 1
    assert "$.options.race_type" in run.stderr and "race-type" in run.stderr and f"{bad}:" in run.stderr
    # the design's custom choices are in force without the record repeating them
    for key in ("race_type", "track_rules", "damage_bag"):
        rec["options"].pop(key)
    assert replay_record(rec, tmp_path).ok
    # ... and a design that fixes a Time Trial refuses a race on it (CUSTOM-06)
    design.write_text((EXAMPLES / "track-1.rally").read_text(encoding="utf-8").replace(
        "  laps 2\n", "  laps 2\n  options race-type time-trial\n"), encoding="utf-8")
    with pytest.raises(RecordError) as err:
        replay_record(rec, tmp_path)
    assert err.value.rule_id == "CUSTOM-06"


def test_a_race_type_contradicting_the_game_is_refused():
    """CUSTOM-05: a Head-to-Head recorded as stages; CUSTOM-06: a Time Trial recorded as a race; CUSTOM-01: a
    custom race in the RX format."""
    tt = load_record(TT_STAGE)
    bad = copy.deepcopy(tt)
    bad["options"]["race_type"] = "head-to-head"
    bad["options"]["track_rules"] = "speed"
    with pytest.raises(RecordError) as err:
        replay_record(bad, GAMES)
    assert (err.value.rule_id, err.value.path) == ("CUSTOM-05", "$.options.race_type")
    # under Technical Track rules a Head-to-Head is recorded stage by stage, but starts every car in round 1
    bad["options"]["track_rules"] = "technical"
    report = replay_record(bad, GAMES)
    assert report.error is not None and report.error.rule_id == "CORE-ORDER-03"
    h2h = load_record(H2H_CIRCUIT)
    bad = copy.deepcopy(h2h)
    bad["options"]["race_type"] = "time-trial"
    with pytest.raises(RecordError) as err:
        replay_record(bad, GAMES)
    assert (err.value.rule_id, err.value.path) == ("CUSTOM-06", "$.options.race_type")
    bad = copy.deepcopy(h2h)
    bad["race"]["format"] = "rx"
    with pytest.raises(RecordError) as err:
        replay_record(bad, GAMES)
    assert (err.value.rule_id, err.value.path) == ("CUSTOM-01", "$.race.format")
    bad = copy.deepcopy(tt)
    bad["options"]["track_rules"] = "speed"
    bad["options"]["damage_bag"] = "gt"
    with pytest.raises(RecordError) as err:
        replay_record(bad, GAMES)
    # the Speed Tracks' GT set chosen for a Time Trial on SS1, which has a Shortcut (CUSTOM-21)
    assert err.value.rule_id == "CUSTOM-21"
    bad = copy.deepcopy(tt)
    bad["options"]["damage_bag"] = "gt"
    with pytest.raises(RecordError) as err:
        replay_record(bad, GAMES)
    assert err.value.rule_id == "CUSTOM-19"


def test_the_custom_head_to_head_keeps_each_players_car():
    """CUSTOM-10: the race's players drive their own r4/r5/r6; an RX Dashboard is not a Rally car's."""
    rec = load_record(H2H_CIRCUIT)
    bad = copy.deepcopy(rec)
    bad["players"][0]["tires"] = "rain"
    with pytest.raises((RecordError, ValueError)):
        replay_record(parse_record(json.dumps(bad)), GAMES)


def test_a_shortcut_asks_for_the_dirt_bag():
    """CUSTOM-21: a race with Shortcut tiles (RX 2) refuses the GT Damage set; the DIRT set and the lighter one
    (CUSTOM-22) play."""
    import rallyc

    track = rallyc.load(EXAMPLES / "rx-2.rally").tracks[0]
    assert any(s.kind == "shortcut" for s in track.spaces.values())
    with pytest.raises(ValueError, match="CUSTOM-21"):
        CustomRace("circuit", "head-to-head", "speed", damage_bag="gt").race_format(True)
    players = [Player("Ann", "red", "r5", "asphalt"), Player("Bob", "blue", "r6", "gravel")]
    rec = bot_race_record(track, players, seed=1, options=Options(race_type="head-to-head", track_rules="speed",
                                                                  damage_bag="light"),
                          race_format=CustomRace("circuit", "head-to-head", "speed", False, "light").race_format(True),
                          header={"track": "../rx-2.rally"})
    assert replay_record(rec, GAMES).ok
    rec["options"]["damage_bag"] = "gt"
    with pytest.raises(RecordError) as err:
        replay_record(rec, GAMES)
    assert err.value.rule_id == "CUSTOM-21"


#: the bot's custom Head-to-Heads: (circuit, damage set, seeds); a small seeded slice, more with RALLYC_SLOW=1
SLOW = bool(os.environ.get("RALLYC_SLOW"))
BOT_RACES = [("track-1.rally", "gt", range(3 if not SLOW else 20)), ("track-2.rally", "light", range(2 if not SLOW else 20)),
             ("rx-2.rally", "dirt", range(1 if not SLOW else 10))]
BOT_CARS = [Player("Ann", "red", "r5", "asphalt"), Player("Bob", "blue", "r4", "snow"),
            Player("Cleo", "green", "r6", "gravel"), Player("Dan", "yellow", "r6", "asphalt")]


@pytest.mark.parametrize("circuit,bag,seeds", BOT_RACES, ids=[c for c, _, _ in BOT_RACES])
def test_bot_custom_head_to_heads_replay_cleanly(circuit, bag, seeds):
    """The seeded bot plays custom Head-to-Heads (Speed Track rules, Rally cars, each Damage set) to the end and
    every record replays cleanly."""
    import rallyc

    design = rallyc.load(EXAMPLES / circuit)
    track = design.tracks[0]
    from rallyc.rules.core.rx_order import grid
    from rallyc.rules.core.state import index_of

    n = min(len(grid(index_of(track))), len(BOT_CARS))
    custom = CustomRace("circuit", "head-to-head", "speed", damage_bag=bag)
    fmt = custom.race_format(any(s.kind == "shortcut" for s in track.spaces.values()))
    for seed in seeds:
        rec = bot_race_record(track, BOT_CARS[:n], seed=seed, options=Options(race_type="head-to-head",
                                                                             track_rules="speed", damage_bag=bag),
                              race_format=fmt, header={"track": f"../{circuit}"})
        report = replay_record(parse_record(json.dumps(rec)), GAMES)
        assert report.ok, (seed, report.error)
        assert report.result["order"] or report.result["retired"] or report.result["disqualified"]


def test_bot_custom_time_trials_replay_cleanly():
    """The seeded bot plays custom Time Trials on the Auto Tour 1 stages; every record replays cleanly."""
    import rallyc
    from rallyc.records.generate import bot_record

    design = rallyc.load(EXAMPLES / "auto-tour-1.rally")
    seeds = range(8) if SLOW else range(1)
    for track in design.tracks:
        for seed in seeds:
            rec = bot_record([track], BOT_CARS[:2], seed=seed, options=Options(race_type="time-trial",
                                                                                track_rules="technical"),
                             header={"track": "../auto-tour-1.rally", "design": design.title})
            rec["stages"][0]["stage"] = track.name
            report = replay_record(parse_record(json.dumps(rec)), GAMES)
            assert report.ok, (track.name, seed, report.error)


def test_the_weather_choice_and_advanced_rules_in_a_custom_race():
    """CUSTOM-16: the weather option in a custom Time Trial (Weather tokens in the DIRT bag, MC-WEATHER-01);
    CUSTOM-23: an advanced rule (Flying Start) in a custom race; both replay the recorded games."""
    from rallyc.rules.core import trace

    seen: set[str] = set()

    def grab(ids: tuple[str, ...]) -> None:
        seen.update(ids)

    trace.observe(grab)
    try:
        tt = load_record(GAMES / "auto-tour-1-event-3-ss2-time-trial.json")
        tt["options"]["weather"] = True
        assert replay_record(tt, GAMES).ok
        h2h = load_record(H2H_CIRCUIT)
        h2h["options"]["flying_start"] = True
        assert replay_record(h2h, GAMES).ok
    finally:
        trace.unobserve(grab)
    assert {"CUSTOM-16", "CUSTOM-23"} <= seen
