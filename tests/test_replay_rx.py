"""RX race records: bot races on RX 1 and RX 2 replay cleanly from JSON, the recorded example through
`rallyc replay`, and tampered records stop at a located illegal event."""

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

import rallyc
from rallyc.records.load import RecordError, parse_record
from rallyc.records.generate import bot_race_record
from rallyc.records.replay import replay_race, replay_record
from rallyc.rules import Player

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "examples/games/rx-1-race.json"
PLAYERS = [Player("Ann", "red"), Player("Bob", "blue"), Player("Cleo", "green"), Player("Dan", "yellow")]


def cli(*args):
    return subprocess.run([sys.executable, "-m", "rallyc", *args], capture_output=True, text=True, cwd=ROOT)


@pytest.fixture(scope="module")
def circuits():
    return {name: rallyc.load(ROOT / f"examples/{name}.rally").tracks[0] for name in ("rx-1", "rx-2")}


@pytest.mark.parametrize("name,seed,n", [("rx-1", 0, 2), ("rx-1", 1, 3), ("rx-1", 2, 4),
                                         ("rx-2", 0, 2), ("rx-2", 1, 3), ("rx-2", 3, 4)])
def test_bot_races_replay_from_json(circuits, name, seed, n):
    """RX-ROUND-01 RX-ORDER-01 RX-DICE-01 RX-END-04 RX-JOKER-04: random legal races end with every car
    finished, disqualified or retired, and their JSON replays to the same result."""
    track = circuits[name]
    rec = bot_race_record(track, PLAYERS[:n], seed=seed, header={"track": f"../{name}.rally"})
    data = parse_record(json.dumps(rec))
    report = replay_race(data, ROOT / "examples/games")
    assert report.ok, f"{report.error.path}: {report.error}"
    res = report.result
    assert sorted(res["order"] + res["disqualified"] + res["retired"]) == sorted(p.name for p in PLAYERS[:n])
    assert all(res["joker"][name] for name in res["order"])
    colours = [r["colour"] for r in report.rounds]
    assert colours[:4] == ["white", "black", "white", "black"]
    assert all(len(r["turns"]) == len(r["order"]) for r in report.rounds)


def test_recorded_race_replays_on_the_command_line():
    """RX-ROUND-01 RX-END-03 RX-JOKER-03: `rallyc replay` prints the rounds with their colour, each turn with
    its laps and Joker, the finishing order and the disqualified cars."""
    r = cli("replay", str(GAME))
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "Round 1 (white)" in out and "Round 2 (black)" in out and "Finishing order:" in out
    assert "Joker done" in out and "lap(s) done" in out and "DSQ" in out
    j = cli("replay", str(GAME), "--format", "json")
    data = json.loads(j.stdout)
    assert data["ok"] and data["race"]["result"]["order"]
    assert cli("replay", str(GAME)).stdout == out


def test_tampered_race_is_located():
    """RX-DICE-02 RX-END-03: a Gear 6 die and a wrong finishing order are reported with their JSON path."""
    data = json.loads(GAME.read_text(encoding="utf-8"))
    bad = copy.deepcopy(data)
    idx = next(i for i, t in enumerate(bad["race"]["turns"]) if t["dice"] and t["gear"] == 5)
    bad["race"]["turns"][idx]["dice"][-1]["die"] = "gear6"
    rep = replay_record(parse_record(json.dumps(bad)), GAME.parent)
    assert not rep.ok and rep.error.path.startswith(f"$.race.turns[{idx}].dice[")
    assert rep.error.rule_id == "RX-DICE-02"
    wrong = copy.deepcopy(data)
    wrong["race"]["result"]["order"] = list(reversed(wrong["race"]["result"]["order"])) + ["Nobody"]
    rep = replay_record(parse_record(json.dumps(wrong)), GAME.parent)
    assert rep.error.rule_id == "RX-END-03" and rep.error.path == "$.race.result.order"
    short = copy.deepcopy(data)
    short["race"]["turns"] = short["race"]["turns"][:-1]
    rep = replay_record(parse_record(json.dumps(short)), GAME.parent)
    assert rep.error.rule_id == "RX-END-03"  # the only finisher's turn is cut: nobody has won yet


def test_tampered_claims_and_cli_exit(tmp_path):
    """RX-ROUND-01 RX-JOKER-03 RX-SETUP-10: colour, Joker and a Time card in an RX turn are checked; exit 1
    with file:line:column."""
    data = json.loads(GAME.read_text(encoding="utf-8"))
    data["race"]["turns"][1]["colour"] = "black"
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(data, indent=1), encoding="utf-8")
    (tmp_path / "rx-1.rally").write_text((ROOT / "examples/rx-1.rally").read_text(encoding="utf-8"))
    data["track"] = "rx-1.rally"
    p.write_text(json.dumps(data, indent=1), encoding="utf-8")
    r = cli("replay", str(p))
    assert r.returncode == 1 and "$.race.turns[1].colour" in r.stderr and "RX-ROUND-01" in r.stderr
    assert f"{p}:" in r.stderr
    data["race"]["turns"][1]["colour"] = "white"
    data["race"]["turns"][0]["joker"] = "done"
    rep = replay_record(data, tmp_path)
    assert rep.error.rule_id == "RX-JOKER-03" and rep.error.path == "$.race.turns[0].joker"
    data["race"]["turns"][0]["joker"] = "todo"
    data["race"]["turns"][0]["card"] = {"gear": 1}
    with pytest.raises(RecordError, match="card"):  # the RX turn schema has no card
        parse_record(json.dumps(data))


def test_schema_race_or_stages():
    """RX-SETUP-10: a record has either `stages` or `race`; RX players drive RX cars."""
    data = json.loads(GAME.read_text(encoding="utf-8"))
    both = dict(data, stages=[{"turns": []}])
    with pytest.raises(RecordError):
        parse_record(json.dumps(both))
    neither = {k: v for k, v in data.items() if k != "race"}
    with pytest.raises(RecordError):
        parse_record(json.dumps(neither))
    r6 = copy.deepcopy(data)
    r6["players"][0]["car"] = "r6"
    with pytest.raises(RecordError) as e:
        replay_record(parse_record(json.dumps(r6)), GAME.parent)
    assert e.value.path == "$.players[0].car"
