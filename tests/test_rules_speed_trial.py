"""A Time Trial under Speed Track rules (RX book, Customisable Races: CUSTOM-06/08/13), rallyc.rules.variants.speed_trial: the
core stage with Time cards and Second tokens, one Dashboard column (the tires fitted) on every surface, a Loss of
Control whose consequences are the Dashboard's (reading custom_speed_trial_loc), and the Speed Tracks' Damage sets
with their Yellow Flags (CUSTOM-18/22, RX-DAMAGE-03..08, rallyc.rules.variants.yellow_flags). Real inputs: the Auto Tour 1 designs
and the recorded games examples/games/auto-tour-1-ss1-speed-time-trial.json (a stage) and
auto-tour-1-track-1-speed-time-trial.json (a circuit), written by ``python -m rallyc.records.custom_examples``;
mutations of them are refused with the rule they break."""

from __future__ import annotations

import copy
import json
import os

import pytest

from helpers.paths import EXAMPLES
from helpers.records import rallyc, refused
from rallyc.records.load import load_record, parse_record
from rallyc.records.replay import replay_record
from rallyc.rules.core.options import Options
from rallyc.rules.core.stage import Player

GAMES = EXAMPLES / "games"
ON_STAGE = GAMES / "auto-tour-1-ss1-speed-time-trial.json"
ON_CIRCUIT = GAMES / "auto-tour-1-track-1-speed-time-trial.json"
SLOW = bool(os.environ.get("RALLYC_SLOW"))
CARS = [Player("Ann", "red", "r5", "asphalt"), Player("Bob", "blue", "r4", "snow")]


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
    assert "RX-DAMAGE-03" in run.stdout and "RX-DAMAGE-08" in run.stdout  # a Yellow Flag placed, then taken off
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
    from rallyc.rules.variants.speed_trial import SpeedTimeTrial

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
    bad["stages"][0]["turns"][i]["damage"][0] = "boost"  # no Boost Damage in the light set
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
    assert rec["options"]["damage_bag"] == "light"  # SS1 has a Shortcut: the lighter Shortcut set (CUSTOM-22)
    bad = copy.deepcopy(rec)
    bad["options"]["damage_bag"] = "gt"  # a race with a Shortcut uses the DIRT set or the lighter one
    assert refused(bad) == ("CUSTOM-21", "$.options.damage_bag")
    del bad["options"]["damage_bag"]  # left open: the DIRT set, which a track with Shortcut tiles must use (CUSTOM-21)
    assert refused(bad)[0] == "CORE-SETUP-03"  # (it holds no Yellow Flag: the record drew one)
    bad = copy.deepcopy(rec)
    bad["options"]["damage_bag"] = "dirt"  # no Yellow Flag in the DIRT set
    j = next(k for k, t in enumerate(rec["stages"][0]["turns"]) if "yellow" in t.get("damage", []))
    assert refused(bad) == ("CORE-SETUP-03",
                            f"$.stages[0].turns[{j}].damage[{rec['stages'][0]['turns'][j]['damage'].index('yellow')}]")
    bad = copy.deepcopy(rec)
    bad["options"]["weather"] = True  # surfaces are cosmetic
    assert refused(bad) == ("CUSTOM-16", "$.options.weather")
    # replayed under Technical Track rules
    bad = copy.deepcopy(rec)
    bad["options"]["track_rules"] = "technical"  # with Time cards the light set is not refereed (CUSTOM-19) ...
    assert refused(bad) == ("CUSTOM-19", "$.options.damage_bag")
    bad["options"]["damage_bag"] = "dirt"  # ... and with the DIRT set the surface's column gives the dice: Bob's
    assert refused(bad) == ("MC-DICE-04", "$.stages[0].turns[4].dice[1].die")  # Snow tires take Leader dice on asphalt


def test_a_speed_time_trial_over_several_stages_is_refused():
    """CUSTOM-01: a Time Trial under Speed Track rules is refereed on one racetrack (one stage or one circuit)."""
    rec = load_record(GAMES / "rally-4-full.json")
    rec["options"].update(race_type="time-trial", track_rules="speed")
    assert refused(rec) == ("CUSTOM-01", "$.stages[1]")


# -- bot games
SPEED_TRACKS = [("auto-tour-1.rally", "SS1", "dirt", range(8 if SLOW else 1)),
                ("auto-tour-1.rally", "SS2", "light", range(8 if SLOW else 1)),
                ("track-1.rally", None, None, range(8 if SLOW else 1)), ("track-2.rally", None, "light", range(8 if SLOW else 1))]


@pytest.mark.parametrize("design,stage,bag,seeds", SPEED_TRACKS, ids=[f"{d}-{s}-{b}" for d, s, b, _ in SPEED_TRACKS])
def test_bot_speed_time_trials_replay_cleanly(design, stage, bag, seeds):
    """The bot plays a Speed Time Trial with the one engine; its record replays cleanly and every car is timed."""
    from rallyc.records.custom_examples import custom_example

    for seed in seeds:
        rec = custom_example(design, stage, "time-trial", "speed", bag, CARS, seed, EXAMPLES)
        report = replay_record(parse_record(json.dumps(rec)), GAMES)
        assert report.ok, (seed, report.error)
        assert set(report.stages[0]["times"]) == {"Ann", "Bob"}


def test_a_yellow_flag_bars_moving_alongside():
    """RX-DAMAGE-03 RX-DAMAGE-04 RX-DAMAGE-06 RX-DAMAGE-08: on Track 1 with the GT set, Bob's Yellow Flag on his tile
    bars Ann from a space alongside him (he is in Gear 1); without the flag she may go there; beside a car she was
    already alongside when the flag was placed she moves normally; Bob's flag goes to his Dashboard when he starts his
    next turn in Gear 0."""
    from rallyc.rules.core.cards import CardTable
    from rallyc.rules.core.dice import Die
    from rallyc.rules.core.domain import CarStatus
    from rallyc.rules.core.errors import IllegalMove
    from rallyc.rules.core.plans import check_plan
    from rallyc.rules.rally import Rally
    from rallyc.rules.core.state import Card

    track = _track("track-1.rally")
    stage = Rally([track], CARS, Options(race_type="time-trial", track_rules="speed")).start_stage()
    assert stage.damage_bag().get("yellow") == 6  # the GT set (CUSTOM-18)
    idx = stage.index
    # Ann on a, one move from b; Bob on o, alongside b: lane spaces, no corner
    a, b, o = next((a, b, o) for a, b in track.graph.edges for o in sorted(idx.alongside[b])
                   if idx.spaces[a].kind == idx.spaces[b].kind == idx.spaces[o].kind == "lane"
                   and idx.spaces[a].step != 1 and o not in idx.alongside[a])
    table = CardTable.from_components(stage.components)
    ann, bob = stage.cars["Ann"], stage.cars["Bob"]
    ann.space, ann.status, ann.cards = a, CarStatus.ROAD, [Card(2, table.gears[2][0])]
    bob.space, bob.status, bob.cards = o, CarStatus.ROAD, [Card(1, table.gears[1][0])]
    stage.order, stage.position = ["Ann", "Bob"], 0
    die = [Die("gear2", b)]
    ctx, _ = stage.context("Ann")
    assert check_plan(ctx, die)  # no flag: alongside a slower car is allowed (CORE-OVERTAKE-01)
    step = idx.spaces[o].step
    stage.yellow = {step: ["Bob"]}
    ctx, _ = stage.context("Ann")
    with pytest.raises(IllegalMove) as err:
        check_plan(ctx, die)
    assert err.value.rule_id == "RX-DAMAGE-04"
    assert all(p[-1].to != b for p in stage.legal_plans(max_dice=1))
    stage.yellow_pairs = {step: {frozenset(("Ann", "Bob"))}}  # alongside when the flag was placed
    ctx, _ = stage.context("Ann")
    assert check_plan(ctx, die)
    bob.cards.append(Card(1, table.zero, True))  # Bob in Gear 0: his own flag goes to his Dashboard
    assert stage._in_force(bob) == {} and stage._in_force(ann) == {step: ["Bob"]}


def test_a_speed_time_trial_is_a_tour_event(tmp_path):
    """TOUR-05 TOUR-06 TOUR-09: a Time Trial under Speed Track rules is an event of an Auto Tour like any custom race:
    its final times (Second tokens deducted) go on the score sheet and set the next event's starting order, which the
    recorded Head-to-Head on Track 1 (Bob in pole) does not follow."""
    tour = json.loads((GAMES / "tours" / "auto-tour-1.json").read_text(encoding="utf-8"))
    tour["events"] = [{"race_type": "time-trial", "record": str(ON_STAGE)},
                      {"race_type": "head-to-head", "record": str(GAMES / "auto-tour-1-event-2-track-1-head-to-head.json")}]
    for key in ("standings", "winner"):
        tour.pop(key, None)
    path = tmp_path / "tour.json"
    path.write_text(json.dumps(tour), encoding="utf-8")
    run = rallyc("replay", "--format", "json", str(path))
    assert run.returncode == 1, run.stdout + run.stderr
    out = json.loads(run.stdout)
    times = replay_record(load_record(ON_STAGE), GAMES).stages[0]["times"]
    assert out["tour"]["events"][0]["seconds"] == times
    assert (out["error"]["rule"], out["error"]["path"]) == ("TOUR-09", "$.events[1].record")
