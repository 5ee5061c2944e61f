"""Replay of the recorded games in examples/games and the `rallyc replay` command."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rallyc.records import load_record, replay_record
from rallyc.records.replay import format_time

ROOT = Path(__file__).resolve().parents[1]
GAMES = sorted((ROOT / "examples" / "games").glob("*.json"))


def rallyc(*args):
    return subprocess.run([sys.executable, "-m", "rallyc", *args], capture_output=True, text=True, cwd=ROOT)


def test_at_least_five_games():
    assert len(GAMES) >= 5


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_recorded_game_replays(path):
    """CORE-STAGEEND-01 CORE-RALLY-01: every recorded game on the published stages replays with exit 0."""
    data = load_record(path)
    report = replay_record(data, path.parent)
    assert report.ok, f"{report.error.path}: {report.error}"
    if "race" in data:  # an RX race (RX-END-03): a finishing order instead of a rally classification
        assert report.result["order"]
    else:
        assert report.classification


def test_full_rally_carries_damage_and_assistance():
    """CORE-RALLY-02 CORE-RALLY-03 CORE-RALLY-04 CORE-RALLY-11 CORE-RALLY-13 CORE-RALLY-14: the 3-stage rally."""
    path = ROOT / "examples/games/rally-4-full.json"
    report = replay_record(load_record(path), path.parent)
    assert report.ok
    ss1, ss2, ss3 = report.stages
    assert not ss1["assistance"] and ss2["assistance"]
    assert any(c["damage"] for c in ss1["carried"].values())
    assert all(not c["damage"] for c in ss2["carried"].values())
    overall = {n: ss1["times"][n] for n in ss1["times"]}
    assert ss2["order"] == sorted(overall, key=lambda n: (overall[n], ss1["order"].index(n)))
    totals = {n: ss1["times"][n] + ss2["times"][n] + ss3["times"][n] for n in overall}
    assert {r["name"]: r["overall"] for r in report.classification} == totals


def test_cli_replay_ok_and_text():
    path = GAMES[0]
    r = rallyc("replay", str(path))
    assert r.returncode == 0, r.stderr
    assert "Round 1:" in r.stdout and "Stage times:" in r.stdout and "Rally classification:" in r.stdout


def test_cli_replay_json_is_deterministic():
    path = GAMES[0]
    a = rallyc("replay", str(path), "--format", "json")
    b = rallyc("replay", str(path), "--format", "json")
    assert a.returncode == 0 and a.stdout == b.stdout
    assert json.loads(a.stdout)["ok"] is True


def test_cli_illegal_move_located(tmp_path):
    """CORE-MOVE-03: a die moved off the graph is reported with the JSON path and the rule."""
    data = json.loads(GAMES[0].read_text())
    data["track"] = str((GAMES[0].parent / data["track"]).resolve())
    data["stages"][0]["turns"][2]["dice"][0]["to"] = "99.1.l"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    r = rallyc("replay", str(bad))
    assert r.returncode == 1
    assert "$.stages[0].turns[2].dice[0].to" in r.stderr and "CORE-MOVE-03" in r.stderr
    assert "Traceback" not in r.stderr


def test_cli_bad_json_line_column(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "rallyc-game/1",\n  "players": [}\n')
    r = rallyc("replay", str(bad))
    assert r.returncode == 1
    assert f"{bad}:2:" in r.stderr and "invalid JSON" in r.stderr and "Traceback" not in r.stderr


def test_cli_schema_violation_path(tmp_path):
    data = json.loads(GAMES[0].read_text())
    data["stages"][0]["turns"][1]["dice"][0]["die"] = "gear9"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    r = rallyc("replay", str(bad))
    assert r.returncode == 1
    assert "$.stages[0].turns[1].dice[0].die" in r.stderr and "schema" in r.stderr


def test_cli_rules_override(tmp_path):
    """Assumptions are overridable with --rules; the cards a record states must match the game's card table."""
    data = json.loads(GAMES[0].read_text())
    data["track"] = str((GAMES[0].parent / data["track"]).resolve())
    for st in data["stages"]:
        st.pop("times", None)
        for t in st["turns"]:
            t.get("card", {}).pop("seconds", None)
    data.pop("classification", None)
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps(data))
    rules = tmp_path / "my-rules.toml"
    rules.write_text('[assumptions.time_card_seconds]\nvalue = { "1" = 55 }\n')
    a = json.loads(rallyc("replay", str(plain), "--format", "json").stdout)
    b = json.loads(rallyc("replay", str(plain), "--format", "json", "--rules", str(rules)).stdout)
    assert a["ok"] and b["ok"]
    assert a["stages"][0]["times"] != b["stages"][0]["times"]
    # CORE-TURNEND-04: a record's cards must match the game's card table; a rallyc-game/1 record stating 50 s
    # Gear 1 cards contradicts a table of 55 s, a rallyc-game/2 record declares its own table
    stated = json.loads(rallyc("replay", str(GAMES[0]), "--format", "json", "--rules", str(rules)).stdout)
    assert not stated["ok"] and stated["error"]["rule"] == "CORE-TURNEND-04"
    own = json.loads(GAMES[0].read_text())
    own["track"] = data["track"]
    own["format"] = "rallyc-game/2"
    own["cards"] = {"gears": {"1": 50}}
    (tmp_path / "own.json").write_text(json.dumps(own))
    stated = json.loads(rallyc("replay", str(tmp_path / "own.json"), "--format", "json", "--rules", str(rules)).stdout)
    assert stated["ok"] and stated["stages"][0]["times"] == a["stages"][0]["times"]
    bad = tmp_path / "bad.toml"
    bad.write_text("[assumptions.nonsense]\nvalue = 1\n")
    r = rallyc("replay", str(GAMES[0]), "--rules", str(bad))
    assert r.returncode == 2 and "unknown assumption" in r.stderr


def test_stage_time_format():
    """CORE-STAGEEND-08: 3:00 minus 5 s of Second tokens is 2:55."""
    assert format_time(180 - 5) == "2:55"


def test_monte_carlo_game_on_auto_tour_ss2():
    """MC-TIRE-02 MC-DICE-01 MC-SNOW-01 MC-HANDBRAKE-01 MC-BOOST-01 MC-R4-01 MC-R5-01: the recorded game on Auto
    Tour 1 SS2 (asphalt and snow tiles) with an R5 on asphalt tires, an R6 on snow tires and an R4 on gravel
    tires, Handbrake turns on, replays and shows Boosts, Handbrake turns, snow slides and changes of surface."""
    from rallyc import load as load_design
    from rallyc.records.examples import features

    path = ROOT / "examples/games/auto-tour-1-ss2-monte-carlo.json"
    data = load_record(path)
    assert {(p["car"], p["tires"]) for p in data["players"]} == {("r5", "asphalt"), ("r6", "snow"), ("r4", "gravel")}
    assert data["options"]["handbrake"] is True
    report = replay_record(data, path.parent)
    assert report.ok, f"{report.error.path}: {report.error}"
    tracks = [t for t in load_design(ROOT / "examples/auto-tour-1.rally").tracks if t.name == "SS2"]
    assert {"boost", "handbrake", "snow-slide", "surface-change"} <= features(data, tracks)
    r = rallyc("replay", str(path))
    assert r.returncode == 0, r.stderr


def test_readme_names_every_assumption_and_reading():
    """CORE-DICE-02 MC-TIRE-02: every named assumption and reading of the rules data is listed in docs/referee.md
    rules section (unknown numbers are never silent)."""
    from rallyc.data import load_components

    text = (ROOT / "docs" / "referee.md").read_text(encoding="utf-8")
    section = text[text.index("<!-- rules:start -->"):text.index("<!-- rules:end -->")]
    raw = load_components().raw
    missing = [f"{kind}.{name}" for kind in ("assumptions", "readings") for name in raw[kind]
               if f"`{kind}.{name}`" not in section]
    assert not missing, f"docs/referee.md rules section lacks {missing}"
