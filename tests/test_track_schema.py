"""`rallyc compile` output: valid against schemas/track.schema.json, deterministic, exit codes 0/1/2."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

from rallyc.commands.cli import app
from rallyc.commands.build import compile_json
from rallyc.compilation.pipeline import compile_loaded
from rallyc.project.loader import load

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "schemas" / "track.schema.json").read_text())
EXAMPLES = sorted((ROOT / "examples").glob("*.rally"))
assert len(EXAMPLES) == 13, EXAMPLES  # the parametrized test below never runs on an empty list
runner = CliRunner()


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_output_is_valid(path):
    result = compile_loaded(load(path))
    assert not [d.code for d in result.diagnostics if d.severity.value == "error"]
    doc = json.loads(compile_json(result))
    jsonschema.validate(doc, SCHEMA)
    assert [t["graph"]["name"] for t in doc["tracks"]] == [t.name for d in result.designs for t in d.tracks]
    assert all(t["nodes"] for t in doc["tracks"])


def test_output_is_deterministic():
    path = ROOT / "examples" / "rally-1.rally"
    a = compile_json(compile_loaded(load(path)))
    b = compile_json(compile_loaded(load(path)))
    assert a == b
    doc = json.loads(a)
    ids = [n["id"] for n in doc["tracks"][0]["nodes"]]
    assert ids == sorted(ids)


def test_cli_compile_one_stage_to_file(tmp_path):
    out = tmp_path / "ss1.json"
    r = runner.invoke(app, ["compile", str(ROOT / "examples" / "rally-1.rally"), "--stage", "SS1", "-o", str(out)])
    assert r.exit_code == 0, r.output
    doc = json.loads(out.read_text())
    jsonschema.validate(doc, SCHEMA)
    assert [t["graph"]["name"] for t in doc["tracks"]] == ["SS1"]
    assert not list(tmp_path.glob(".*.tmp"))


def test_cli_compile_errors_exit_1_and_write_nothing(tmp_path):
    bad = tmp_path / "bad.rally"
    bad.write_text("stage S {\n  202a\n  210b\n  203a\n}\n")
    out = tmp_path / "out.json"
    r = runner.invoke(app, ["compile", str(bad), "-o", str(out)])
    assert r.exit_code == 1
    assert "bad.rally:3:3: error[RC201]: step 2: 210b turns left when driven one way" in r.output
    assert "1 error(s)" in r.output and not out.exists()


def test_cli_compile_missing_file_exits_2(tmp_path):
    r = runner.invoke(app, ["compile", str(tmp_path / "nope.rally")])
    assert r.exit_code == 2


def test_cli_unknown_stage_exits_2():
    r = runner.invoke(app, ["compile", str(ROOT / "examples" / "rally-1.rally"), "--stage", "SS9"])
    assert r.exit_code == 2 and "SS9" in r.output


def test_cli_stats_json():
    """TRACK-STAGE-01: Rally 1 SS1 is 10 road tiles, a Short stage."""
    r = runner.invoke(app, ["stats", str(ROOT / "examples" / "rally-1.rally"), "--stage", "SS1", "--format", "json"])
    assert r.exit_code == 0, r.output
    s = json.loads(r.stdout)["stages"][0]
    assert s["tiles"] == 10 and s["class"] == "Short"
    assert 0 < s["spaces"]["shortest"] <= s["spaces"]["longest"]
    assert s["pacenotes"][0] == "2: 210b hairpin left in 1/out 2"


def test_cli_stats_circuit_counts_loop_tiles():
    """TRACK-RX-10: the guideline counts the loop's tiles, Joker and Pre-grid excluded; laps reported."""
    r = runner.invoke(app, ["stats", str(ROOT / "examples" / "rx-1.rally"), "--format", "json"])
    assert r.exit_code == 0, r.output
    s = json.loads(r.stdout)["stages"][0]
    assert s["tiles"] == 10 and s["laps"] == 3
    assert 0 < s["spaces"]["shortest"] <= s["spaces"]["longest"]


def test_circuit_output_lists_its_standees():
    """TRACK-RX-04, TRACK-RX-07: RX 1's standees are in the graph data, valid against the schema."""
    doc = json.loads(compile_json(compile_loaded(load(ROOT / "examples" / "rx-1.rally"))))
    jsonschema.validate(doc, SCHEMA)
    standees = doc["tracks"][0]["graph"]["standees"]
    assert [(s["kind"], s["at"]) for s in standees] == [("finish", "1.1"), ("joker-entry", "2.1"),
                                                         ("joker-exit", "5.1")]
    bad = json.loads(json.dumps(doc))
    bad["tracks"][0]["graph"]["standees"][0]["kind"] = "podium"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, SCHEMA)
