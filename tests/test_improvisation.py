"""Improvisation (IMPROV-01..03): re-planning the dice not yet rolled while rolling one by one.

The recorded example (examples/games/rally-2-ss1-improvisation.json, rallyc-game/2) replays; records that
re-plan where the rules do not allow it are refused with the rule; `legal_replans` gives the re-plans of a
half-rolled turn; bot games with the option re-plan and replay cleanly (a seeded slice; more with
RALLYC_SLOW=1); `rallyc check` no longer says the option is not refereed.
"""

import copy
import json
import os
import subprocess
import sys

import pytest

import rallyc
from helpers.paths import EXAMPLES
from rallyc.records import load_record, parse_record, replay_record
from rallyc.records.generate import bot_race_record, bot_record
from rallyc.records.load import RecordError
from rallyc.records.replay import record_stages
from rallyc.rules import Options, Player
from rallyc.rules.core.dice import Die
from rallyc.rules.core.plans import check_plan
from rallyc.rules.core.stage import Stage
from rallyc.rules.core.turn import Replan, Roll, Turn

GAME = EXAMPLES / "games" / "rally-2-ss1-improvisation.json"
ROOT = EXAMPLES.parent
N = 40 if os.environ.get("RALLYC_SLOW") else 6


def _replay(rec: dict):
    tracks, _, flippers = record_stages(rec, GAME.parent)
    return replay_record(rec, GAME.parent, tracks=tracks, flippers=flippers)


def _replanned(rec: dict) -> list[tuple[int, dict]]:
    return [(i, t) for i, t in enumerate(rec["stages"][0]["turns"]) if t.get("replans")]


def _error(rec: dict) -> tuple[str, str]:
    rep = _replay(rec)
    assert rep.error is not None, "the mutated record was accepted"
    return rep.error.rule_id, rep.error.path


def test_the_example_replays_and_explains_its_replans():
    """IMPROV-01 IMPROV-02 IMPROV-03: the example is rallyc-game/2, re-plans (adding dice too) and replays."""
    rec = load_record(GAME)
    assert rec["format"] == "rallyc-game/2" and rec["options"]["improvisation"] is True
    assert len(_replanned(rec)) >= 3
    assert any(len(rp["dice"]) > len(t["dice"]) - rp["after"] for _, t in _replanned(rec) for rp in t["replans"])
    r = subprocess.run([sys.executable, "-m", "rallyc", "replay", "--explain", str(GAME)], capture_output=True,
                       text=True, cwd=ROOT)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "IMPROV-01, IMPROV-02, IMPROV-03" in r.stdout


def test_replans_without_the_option_are_refused():
    rec = load_record(GAME)
    rec["options"]["improvisation"] = False
    i, _ = _replanned(rec)[0]
    assert _error(rec) == ("IMPROV-01", f"$.stages[0].turns[{i}].replans[0]")


def test_a_replan_follows_a_roll():
    """IMPROV-01: `after` must be where the player is, right after a roll (not before any die, not later)."""
    rec = load_record(GAME)
    i, t = _replanned(rec)[0]
    t["replans"][0]["after"] += 1
    rule, path = _error(rec)
    assert rule in ("IMPROV-01", "CORE-ROLL-06") and path.startswith(f"$.stages[0].turns[{i}]")


def test_a_die_taken_back_has_no_face():
    """IMPROV-01: the dice re-planned were not rolled: a face on one of them is refused."""
    rec = load_record(GAME)
    i, t = _replanned(rec)[0]
    k = t["replans"][0]["after"]
    assert k < len(t["dice"]), "the example's first re-plan takes dice back"
    t["dice"][k]["face"] = "ok"
    rule, path = _error(rec)
    assert (rule, path) == ("IMPROV-01", f"$.stages[0].turns[{i}].dice[{k}].face")


def test_replanned_dice_follow_the_usual_rules():
    """IMPROV-03: a re-planned die laid on a space not ahead is refused with the placement rule, located in
    the re-plan."""
    rec = load_record(GAME)
    i, t = _replanned(rec)[0]
    first = t["replans"][0]["dice"][0]
    first["to"] = t["dice"][0]["to"]  # back onto the turn's first space
    rule, path = _error(rec)
    assert rule.startswith("CORE-") and path.startswith(f"$.stages[0].turns[{i}].replans[0].dice[0]")


def test_an_empty_replan_and_a_flat_out_replan_are_refused():
    rec = load_record(GAME)
    i, t = _replanned(rec)[0]
    t["replans"][0]["dice"] = []
    assert _error(rec) == ("IMPROV-02", f"$.stages[0].turns[{i}].replans[0].dice")
    rec = load_record(GAME)
    i, t = _replanned(rec)[0]
    t["mode"] = "flat-out"
    rule, path = _error(rec)
    assert rule in ("IMPROV-01", "CORE-ROLL-10")


def test_replans_need_format_2():
    rec = load_record(GAME)
    rec["format"] = "rallyc-game/1"
    with pytest.raises(RecordError, match="rallyc-game/2"):
        _replay(rec)


def test_legal_replans_of_a_half_rolled_turn():
    """`legal_replans(done)` lists every legal rest of the plan after the dice rolled; the example's first
    re-plan is among them, and each listed one makes a legal plan."""
    rec = load_record(GAME)
    tracks, _, _ = record_stages(rec, GAME.parent)
    players = [Player(p["name"], p["colour"]) for p in rec["players"]]
    stage = Stage(tracks[0], players, Options(improvisation=True))
    t = rec["stages"][0]["turns"][0]
    assert t.get("replans"), "the example's first turn re-plans"
    after = t["replans"][0]["after"]
    done = [Die(d["die"], d["to"], d.get("brake", False), d.get("land"), d.get("boost", False))
            for d in t["dice"][:after]]
    replans = list(stage.legal_replans(done, max_dice=after + 3))
    want = tuple(Die(d["die"], d["to"], d.get("brake", False), d.get("land"), d.get("boost", False))
                 for d in t["replans"][0]["dice"])
    assert want in replans
    ctx, _ = stage.context()
    for rest in replans[:50]:
        assert len(check_plan(ctx, done + list(rest))) == after + len(rest)


def test_the_referee_never_writes_into_the_drivers_turn():
    """The bot's re-plans go into the copy the referee plays (outcome.turn), never the turn handed in."""
    rec = load_record(GAME)
    tracks, _, _ = record_stages(rec, GAME.parent)
    from rallyc.rules.drivers.bot import RandomBot

    bot = RandomBot(3, replan=1.0)
    stage = Stage(tracks[0], [Player("Ann", "red"), Player("Bob", "blue")], Options(improvisation=True))
    bot._stage = stage
    seen = 0
    for _ in range(12):
        mine = bot.turn(stage)
        before = copy.deepcopy(mine)
        out = stage.play(mine, driver=bot)
        assert mine == before
        seen += bool(out.turn and out.turn.replans)
    assert seen


@pytest.mark.parametrize("seed", range(N))
def test_bot_stage_games_with_improvisation_replay(seed):
    design = rallyc.load(EXAMPLES / "rally-1.rally")
    tracks = design.tracks[:1]
    rec = bot_record(tracks, [Player("A", "red"), Player("B", "blue")], seed=seed,
                     options=Options(improvisation=True, flying_start=seed % 2 == 0),
                     header={"track": "../rally-1.rally", "design": design.title})
    rep = replay_record(parse_record(json.dumps(rec)), tracks=tracks)
    assert rep.ok, rep.error
    assert rec["format"] == ("rallyc-game/2" if any("replans" in t for t in rec["stages"][0]["turns"])
                             else "rallyc-game/1")


@pytest.mark.parametrize("seed", range(max(2, N // 3)))
def test_bot_rx_races_with_improvisation_replay(seed):
    track = rallyc.load(EXAMPLES / "rx-1.rally").tracks[0]
    rec = bot_race_record(track, [Player("A", "red"), Player("B", "blue")], seed=seed,
                          options=Options(improvisation=True),
                          header={"track": "../rx-1.rally"})
    assert rec["options"]["improvisation"] is True
    rep = replay_record(parse_record(json.dumps(rec)), EXAMPLES / "games", tracks=[track])
    assert rep.ok, rep.error
    assert any("replans" in t for t in rec["race"]["turns"])


def test_a_turn_object_replays_its_played_dice():
    """Turn.played(): the dice laid, each re-plan replacing the dice not yet rolled."""
    a, b, c = (Roll(Die("gear1", "1.1.l")), Roll(Die("gear2", "1.2.l")), Roll(Die("gear2", "1.2.r")))
    t = Turn("Ann", dice=[a, b], replans=[Replan(1, [c])])
    assert t.played() == [a, c]


def test_check_no_longer_warns_that_improvisation_is_not_refereed(tmp_path):
    text = (EXAMPLES / "rally-1.rally").read_text(encoding="utf-8").rstrip()
    p = tmp_path / "r.rally"
    p.write_text(text[:-1] + "  options improvisation\n}\n", encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "rallyc", "check", str(p)], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "RC160" not in r.stdout + r.stderr and "RC161" not in r.stdout + r.stderr
