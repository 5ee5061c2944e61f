"""``rallyc import`` and ``rallyc export``: outputs, atomic writes, exit codes (issue 6)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from rallyc.commands.cli import app

DATA = Path(__file__).parent / "data" / "interop"
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(*args: str):
    return CliRunner().invoke(app, list(args), catch_exceptions=False)


def test_import_to_stdout_with_warnings_on_stderr():
    r = run("import", str(DATA / "stage-tokens.json"))
    assert r.exit_code == 0
    assert r.stdout.startswith('rally "Token Test Stage" by "rallyc tests" {\n  stage SS1 {\n    202a at 0 0 rot 0\n')
    assert "warning[RC716]" in r.stderr and "stage-tokens.json:13:8" in r.stderr


def test_import_writes_the_output_file(tmp_path):
    out = tmp_path / "ice.rally"
    r = run("import", str(DATA / "ice-standees.rgt"), "-o", str(out))
    assert r.exit_code == 0 and r.stdout == ""
    text = out.read_text(encoding="utf-8")
    assert text.startswith('circuit "Ice Loop" {\n  laps 2\n') and "standee joker-exit at 7.2" in text
    assert [p.name for p in tmp_path.iterdir()] == ["ice.rally"]  # no temporary file left behind


def test_import_of_a_bad_file_writes_nothing_and_exits_1(tmp_path):
    out = tmp_path / "out.rally"
    out.write_text("keep me\n", encoding="utf-8")
    r = run("import", str(DATA / "bad-syntax.json"), "-o", str(out))
    assert r.exit_code == 1
    assert "bad-syntax.json:5:3: error[RC701]" in r.stderr
    assert out.read_text(encoding="utf-8") == "keep me\n"


def test_import_io_errors_exit_2(tmp_path):
    r = run("import", str(tmp_path / "missing.json"))
    assert r.exit_code == 2 and "error[RC001]" in r.stderr
    r = run("import", str(DATA / "stage-tokens.json"), "-o", str(tmp_path / "no" / "such" / "out.rally"))
    assert r.exit_code == 2 and "error[RC714]" in r.stderr


def test_import_of_an_empty_track_warns_and_says_the_result_fails_check(tmp_path):
    """Issue 11: import never exits 0 having written a file that fails check; it writes it and exits 1."""
    out = tmp_path / "empty.rally"
    r = run("import", str(DATA / "empty.json"), "-o", str(out))
    assert r.exit_code == 1 and "warning[RC713]" in r.stderr
    assert f"{out}:2:9: error[RC301]" in r.stderr and "does not pass `rallyc check`" in r.stderr
    assert out.exists() and run("check", str(out)).exit_code == 1


def test_export_rekee_one_stage_of_a_rally(tmp_path):
    out = tmp_path / "ss2.json"
    r = run("export", str(EXAMPLES / "rally-1.rally"), "--to", "rekee", "--stage", "SS2", "-o", str(out))
    assert r.exit_code == 0, r.stderr
    text = out.read_text(encoding="utf-8")
    doc = json.loads(text)
    assert list(doc) == ["title", "author", "tiles"] and doc["title"] == "Rally 1 SS2"
    assert doc["author"] == "Jean-Christophe Bouvier"
    assert all(list(t)[:4] == ["q", "r", "id", "dir"] for t in doc["tiles"])
    again = run("export", str(EXAMPLES / "rally-1.rally"), "--to", "rekee", "--stage", "SS2")
    assert again.stdout == text  # deterministic


def test_export_rgt(tmp_path):
    r = run("export", str(EXAMPLES / "rally-1.rally"), "--to", "rgt")
    assert r.exit_code == 0, r.stderr
    doc = json.loads(r.stdout)
    assert list(doc) == ["Path", "Name", "Author", "Tuiles", "lowResWidth", "lowResHeight"]
    assert doc["Tuiles"][0]["TuileId"] == "202A" and doc["Name"] == "Rally 1 SS1"


def test_export_unknown_stage_exits_2_and_broken_design_exits_1(tmp_path):
    """An unknown --stage is a usage error (2), as in compile, stats and render; a broken design is 1."""
    r = run("export", str(EXAMPLES / "rally-1.rally"), "--to", "rekee", "--stage", "SS9")
    assert r.exit_code == 2 and "error[RC712]" in r.stderr and "SS1, SS2, SS3" in r.stderr
    bad = tmp_path / "bad.rally"
    bad.write_text("stage S {\n  202a\n  299z\n}\n", encoding="utf-8")
    out = tmp_path / "out.json"
    r = run("export", str(bad), "--to", "rekee", "-o", str(out))
    assert r.exit_code == 1 and not out.exists()
    r = run("export", str(tmp_path / "missing.rally"), "--to", "rgt")
    assert r.exit_code == 2


def test_export_then_import_from_the_command_line(tmp_path):
    src = tmp_path / "stage.rally"
    r = run("import", str(DATA / "stage-tokens.json"), "-o", str(src))
    assert r.exit_code == 0
    shutil.copy(src, tmp_path / "copy.rally")
    exported = tmp_path / "stage.json"
    r = run("export", str(src), "--to", "rekee", "-o", str(exported))
    assert r.exit_code == 0, r.stderr
    back = run("import", str(exported))
    assert back.exit_code == 0 and back.stdout == src.read_text(encoding="utf-8")
