"""A Time Trial under Speed Track rules (RX book, Customisable Races: CUSTOM-06/08/13), rallyc.rules.speed_trial: the
core stage with Time cards and Second tokens, one Dashboard column (the tires fitted) on every surface, and a Loss of
Control whose consequences are the Dashboard's (reading custom_speed_trial_loc). Real inputs: the Auto Tour 1 designs
and the recorded games examples/games/auto-tour-1-ss1-speed-time-trial.json (a stage) and
auto-tour-1-track-1-speed-time-trial.json (a circuit), written by ``python -m rallyc.records.custom_examples``;
mutations of them are refused with the rule they break."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys

import pytest

from helpers.paths import EXAMPLES, ROOT
from rallyc.records.load import RecordError, load_record, parse_record
from rallyc.records.replay import replay_record
from rallyc.rules.options import Options
from rallyc.rules.stage import Player

GAMES = EXAMPLES / "games"
ON_STAGE = GAMES / "auto-tour-1-ss1-speed-time-trial.json"
ON_CIRCUIT = GAMES / "auto-tour-1-track-1-speed-time-trial.json"
SLOW = bool(os.environ.get("RALLYC_SLOW"))
CARS = [Player("Ann", "red", "r5", "asphalt"), Player("Bob", "blue", "r4", "snow")]


def rallyc(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rallyc", *args], capture_output=True, text=True, cwd=ROOT)


def refused(rec: dict) -> tuple[str | None, str]:
    """The rule and path of the record's first error (a located refusal or the replay's first illegal event)."""
    try:
        report = replay_record(parse_record(json.dumps(rec)), GAMES)
    except RecordError as exc:
        return exc.rule_id, exc.path
    assert report.error is not None, "the mutant was accepted"
    return report.error.rule_id, report.error.path


def _track(design: str, name: str | None = None):
    import rallyc

    return next(t for t in rallyc.load(EXAMPLES / design).tracks if name is None or t.name == name)


def _dashboard_locs(rec: dict) -> list[int]:
    """The turns with a Loss of Control before the finish (their card states no seconds: the "0" side's)."""
    return [i for i, t in enumerate(rec["stages"][0]["turns"])
            if "card" in t and "seconds" not in t["card"] and "zero" not in t["card"]]


# -- the recorded games
@pytest.mark.parametrize("path", [ON_STAGE, ON_CIRCUIT], ids=["stage", "circuit"])
def test_the_speed_time_trials_replay(path):
    """CUSTOM-06 CUSTOM-08 CUSTOM-13: exit 0; a staggered start, a Time card every turn, the lowest time first; a
    Loss of Control takes the "0" side's seconds and draws Damage tokens from the Dashboard (no icon read); no Leader
    dice and no per-surface limits (surfaces are cosmetic)."""
    run = rallyc("replay", "--explain", str(path))
    assert run.returncode == 0, run.stdout + run.stderr
    assert "CUSTOM-08" in run.stdout and "CUSTOM-13" in run.stdout and "RX-LOC-04" in run.stdout
    assert "CORE-DICE-15" not in run.stdout and "MC-DICE-01" not in run.stdout and "CORE-LOC-05" not in run.stdout
    assert "CUSTOM-14" not in run.stdout  # the Time cards time the race; they give no Loss-of-Control consequence
    rec = load_record(path)
    report = replay_record(rec, GAMES)
    assert report.ok
    stage = report.stages[0]
    assert stage["rounds"][0]["order"] == ["Ann"]  # staggered (CUSTOM-06)
    turns = [t for r in stage["rounds"] for t in r["turns"]]
    locs = [t for t in turns if t["card"]["zero"] and not t["finished"]]
    assert locs and any(t["damage"] for t in locs)
    for t in locs:  # the "0" side's seconds, no icon, Gear 0 after it, the car on its space
        assert t["card"]["seconds"] == 60 and t["card"]["icon"] is None and t["gear"] == 0
        assert "spinout" not in t["text"] and "crash" not in t["text"]
    finished = {n: t for n, t in stage["times"].items() if stage["detail"][n]["status"] == "finished"}
    assert finished
    for name, time in stage["times"].items():
        d = stage["detail"][name]
        if name in finished:
            assert time == d["cards"] - d["tokens"]  # Second tokens deducted (CUSTOM-07)
        else:  # retired: the Dashboard's damage took its last Gear die (CORE-RETIRE-01/03)
            assert d["status"] == "retired" and time == max(finished.values()) + 60
    assert report.classification[0]["overall"] == min(stage["times"].values())


def test_a_speed_track_reads_one_column_on_every_surface():
    """CUSTOM-08: on SS2 (asphalt and snow) a car on Snow tires takes its Snow column's dice on asphalt too (3 Coast
    dice, Warning limit 3); under Technical Track rules the Asphalt column's (Leader dice, limit 2, CUSTOM-09)."""
    from rallyc.rules.rally import Rally
    from rallyc.rules.speed_trial import SpeedTimeTrial

    ss2 = _track("auto-tour-1.rally", "SS2")
    bob = [Player("Bob", "blue", "r4", "snow")]
    speed = Rally([ss2], bob, Options(race_type="time-trial", track_rules="speed", damage_bag="dirt")).start_stage()
    tech = Rally([ss2], bob, Options()).start_stage()
    assert isinstance(speed, SpeedTimeTrial) and not isinstance(tech, SpeedTimeTrial)
    for s in ("asphalt", "snow"):
        col = speed.column_for(s, False, speed.cars["Bob"])
        assert (col.coast, col.leader, col.warnings) == (3, 0, 3)
    assert tech.column_for("asphalt", False, tech.cars["Bob"]).leader == 3
    ctx, leader = speed.context("Bob")
    assert not leader and not ctx.allowances and set(ctx.limits.values()) == {3}
    ctx, _ = tech.context("Bob")
    assert ctx.allowances and set(ctx.limits.values()) == {2, 3}


# -- mutations refused with the rule they break
def test_speed_time_trial_mutations_are_refused():
    rec = load_record(ON_STAGE)
    locs = _dashboard_locs(rec)
    i = next(k for k in locs if rec["stages"][0]["turns"][k].get("damage"))
    at = f"$.stages[0].turns[{i}]"
    bad = copy.deepcopy(rec)
    bad["stages"][0]["turns"][i]["card"]["zero"] = {"icon": "spinout"}  # the card's back is not read
    assert refused(bad) == ("CUSTOM-13", f"{at}.card.zero")
    bad = copy.deepcopy(rec)
    bad["stages"][0]["turns"][i]["damage"].pop()  # the Dashboard's cell draws a set number of tokens
    assert refused(bad) == ("RX-LOC-04", f"{at}.damage")
    bad = copy.deepcopy(rec)
    bad["stages"][0]["turns"][i]["damage"][0] = "boost"  # no Boost Damage in the DIRT set
    assert refused(bad) == ("CORE-SETUP-03", f"{at}.damage[0]")
    bad = copy.deepcopy(rec)
    bad["stages"][0]["turns"][i]["card"]["seconds"] = 30  # the "0" side's seconds
    assert refused(bad) == ("CORE-LOC-04", f"{at}.card.seconds")
    bad = copy.deepcopy(rec)
    bad["stages"][0]["turns"][i]["card"]["gear"] -= 1  # the card of the gear at the Loss of Control
    assert refused(bad) == ("CORE-LOC-03", f"{at}.card.gear")
    bad = copy.deepcopy(rec)
    bad["stages"][0]["turns"][i]["gear"] = 1  # the car restarts from Gear 0 (RX-LOC-03)
    assert refused(bad) == ("CORE-TURNEND-05", f"{at}.gear")
    bad = copy.deepcopy(rec)
    bad["stages"][0]["times"]["Ann"] += 5
    assert refused(bad) == ("CORE-STAGEEND-08", "$.stages[0].times.Ann")
    bad = copy.deepcopy(rec)
    bad["options"]["damage_bag"] = "gt"  # the GT set's Yellow Flags are not refereed with Time cards yet
    assert refused(bad) == ("CUSTOM-18", "$.options.damage_bag")
    bad["options"]["damage_bag"] = "light"
    assert refused(bad) == ("CUSTOM-22", "$.options.damage_bag")
    bad = copy.deepcopy(rec)
    bad["options"]["weather"] = True  # surfaces are cosmetic
    assert refused(bad) == ("CUSTOM-16", "$.options.weather")
    # replayed under Technical Track rules, the first Loss of Control's consequences are the Time card's
    bad = copy.deepcopy(rec)
    bad["options"]["track_rules"] = "technical"
    assert refused(bad) == ("CORE-LOC-03", f"$.stages[0].turns[{locs[0]}].card.zero")


def test_a_speed_time_trial_over_several_stages_is_refused():
    """CUSTOM-01: a Time Trial under Speed Track rules is refereed on one racetrack (one stage or one circuit)."""
    rec = load_record(GAMES / "rally-4-full.json")
    rec["options"].update(race_type="time-trial", track_rules="speed", damage_bag="dirt")
    assert refused(rec) == ("CUSTOM-01", "$.stages[1]")


# -- bot games
SPEED_TRACKS = [("auto-tour-1.rally", "SS1", range(8 if SLOW else 1)), ("auto-tour-1.rally", "SS2", range(8 if SLOW else 1)),
                ("track-1.rally", None, range(8 if SLOW else 1)), ("track-2.rally", None, range(8 if SLOW else 1))]


@pytest.mark.parametrize("design,stage,seeds", SPEED_TRACKS, ids=[f"{d}-{s}" for d, s, _ in SPEED_TRACKS])
def test_bot_speed_time_trials_replay_cleanly(design, stage, seeds):
    """The bot plays a Speed Time Trial with the one engine; its record replays cleanly and every car is timed."""
    from rallyc.records.custom_examples import custom_example

    for seed in seeds:
        rec = custom_example(design, stage, "time-trial", "speed", "dirt", CARS, seed, EXAMPLES)
        report = replay_record(parse_record(json.dumps(rec)), GAMES)
        assert report.ok, (seed, report.error)
        assert set(report.stages[0]["times"]) == {"Ann", "Bob"}
