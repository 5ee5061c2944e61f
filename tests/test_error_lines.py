"""Error lines have one form in every command (issue 32): `check`'s `file:line:col: error[CODE]: message`.

A game record's problem carries its rule ID in the brackets (`error[CORE-MOVE-03]`) and its JSON path before
the message; a problem without a code (a record the schema refuses, a `--rules` file that is not TOML) is
`file:line:col: error: message`. Real inputs: the recorded games of examples/games, broken by hand.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from rallyc.commands.cli import app

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "examples" / "games" / "rally-1-ss1-failed-flat-out.json"
TOUR = ROOT / "examples" / "games" / "tours" / "auto-tour-1.json"
#: check's form: place, severity with the code in brackets (or none), the message
LINE = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning)(\[(?P<code>[A-Z0-9-]+)\])?: "
                  r"(?P<message>.+)$")


def run(*args: str):
    r = CliRunner().invoke(app, [str(a) for a in args], catch_exceptions=False)
    return r.exit_code, r.stderr


def located(stderr: str) -> list[dict]:
    lines = [m.groupdict() for m in map(LINE.match, stderr.splitlines()) if m]
    assert lines, stderr
    return lines


def broken_game(tmp_path: Path, change) -> Path:
    data = json.loads(GAME.read_text(encoding="utf-8"))
    data["track"] = str((GAME.parent / data["track"]).resolve())
    change(data)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return bad


def test_check_prints_the_form():
    r = CliRunner().invoke(app, ["check", "--no-cache", str(ROOT / "tests" / "bad" / "unknown-tile.rally")])
    (first,) = located(r.stdout)
    assert (r.exit_code, first["line"], first["col"], first["sev"], first["code"]) == (1, "4", "3", "error", "RC130")


def test_replay_of_an_illegal_move(tmp_path):
    bad = broken_game(tmp_path, lambda d: d["stages"][0]["turns"][2]["dice"][0].__setitem__("to", "99.1.l"))
    code, err = run("replay", bad)
    (line,) = located(err)
    assert code == 1 and line["file"] == str(bad) and line["code"] == "CORE-MOVE-03"
    assert line["message"].startswith("$.stages[0].turns[2].dice[0].to: ")


def test_replay_of_a_record_the_schema_refuses(tmp_path):
    bad = broken_game(tmp_path, lambda d: d["stages"][0]["turns"][1]["dice"][0].__setitem__("die", "gear9"))
    code, err = run("replay", bad)
    (line,) = located(err)
    assert code == 1 and line["file"] == str(bad) and line["code"] is None
    assert line["message"].startswith("$.stages[0].turns[1].dice[0].die: schema: ")
    assert not err.startswith("error:")


def test_replay_with_a_rules_file_that_is_not_toml(tmp_path):
    rules = tmp_path / "rules.toml"
    rules.write_text("[assumptions\n", encoding="utf-8")
    code, err = run("replay", GAME, "--rules", rules)
    (line,) = located(err)
    assert code == 2 and line["file"] == str(rules) and line["message"].startswith("not valid TOML")


def test_replay_of_a_tour_with_a_bad_event(tmp_path):
    data = json.loads(TOUR.read_text(encoding="utf-8"))
    for event in data["events"]:
        event["record"] = str((TOUR.parent / event["record"]).resolve())
    data["events"][0]["tour_seconds"] = {name: seconds + 7 for name, seconds in data["events"][0]["tour_seconds"].items()}
    bad = tmp_path / "tour.json"
    bad.write_text(json.dumps(data, indent=1), encoding="utf-8")
    code, err = run("replay", bad)
    (line,) = located(err)
    assert code == 1 and line["file"] == str(bad) and line["code"] and line["code"].startswith("TOUR-")


def test_render_with_a_record_the_schema_refuses(tmp_path):
    bad = broken_game(tmp_path, lambda d: d.__setitem__("players", 5))
    code, err = run("render", ROOT / "examples" / "rally-1.rally", "--stage", "SS1", "--record", bad,
                    "-o", tmp_path / "map.svg")
    (line,) = located(err)
    assert code == 2 and line["file"] == str(bad) and line["message"] == "$.players: schema: 5 is not of type 'array'"
    assert not err.startswith("rallyc render:")


def test_render_of_a_record_that_stops_warns_in_the_form(tmp_path):
    bad = broken_game(tmp_path, lambda d: d["stages"][0]["turns"][2]["dice"][0].__setitem__("to", "99.1.l"))
    code, err = run("render", ROOT / "examples" / "rally-1.rally", "--stage", "SS1", "--record", bad,
                    "-o", tmp_path / "map.svg")
    (line,) = located(err)
    assert code == 0 and line["sev"] == "warning" and line["code"] == "CORE-MOVE-03"
    assert line["message"].startswith("the replay stops at $.stages[0].turns[2].dice[0].to: ")


def test_import_prints_the_form(tmp_path):
    bad = tmp_path / "track.json"
    bad.write_text('{"tiles": 3}', encoding="utf-8")
    code, err = run("import", bad)
    (line,) = located(err)
    assert (code, line["code"]) == (1, "RC704")
