"""``-`` is standard input/output and ``-f`` is ``--format`` on every command (issue 11)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from helpers.paths import EXAMPLES
from rallyc.commands.cli import app

RALLY = (EXAMPLES / "rally-1.rally").read_text(encoding="utf-8")
GAME = EXAMPLES / "games" / "rally-1-ss1-failed-flat-out.json"


def _run(*argv: str, stdin: str | None = None):
    result = CliRunner().invoke(app, [str(a) for a in argv], input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def test_import_reads_standard_input_and_writes_standard_output(tmp_path):
    exported = _run("export", EXAMPLES / "rally-1.rally", "--to", "rekee", "--stage", "SS1")
    assert exported.exit_code == 0
    result = _run("import", "-", "-o", "-", stdin=exported.stdout)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith('rally "') and "202a" in result.stdout
    assert not (tmp_path / "-").exists()


def test_export_reads_standard_input_and_writes_standard_output():
    result = _run("export", "-", "--to", "rgt", "-o", "-", stdin=RALLY)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["Tuiles"]


def test_tiles_list_and_show_read_a_project_from_standard_input():
    own = "tileset dirt-core {\n  tile 217a gravel danger high copies 3 {\n    road D -> B right60 {\n      slide\n    }\n  }\n}\n"
    listed = _run("tiles", "list", "-p", "-", "-f", "json", stdin=own)
    assert listed.exit_code == 0, listed.output
    row = next(r for r in json.loads(listed.stdout) if r["id"] == "217a")
    assert row["danger"] == "high" and row["copies"] == 3
    shown = _run("tiles", "show", "217a", "-p", "-", stdin=own)
    assert shown.exit_code == 0 and "danger high" in shown.stdout


def test_tiles_show_draws_to_standard_output():
    result = _run("tiles", "show", "217a", "-o", "-")
    assert result.exit_code == 0
    assert result.stdout.startswith("<?xml") and result.stdout.rstrip().endswith("</svg>")


def test_tiles_file_is_a_deprecated_alias_of_project(tmp_path):
    f = tmp_path / "r.rally"
    f.write_text(RALLY, encoding="utf-8")
    old = _run("tiles", "show", "217a", "--file", f)
    assert old.exit_code == 0 and "--file is deprecated" in old.output
    new = _run("tiles", "show", "217a", "--project", f)
    assert new.exit_code == 0 and "deprecated" not in new.output
    assert _run("tiles", "show", "217a", "--file", f, "-p", f).exit_code == 2


@pytest.mark.parametrize("argv", [
    ["check", str(EXAMPLES / "rally-1.rally")],
    ["stats", str(EXAMPLES / "rally-1.rally")],
    ["replay", str(GAME)],
    ["tiles", "list"],
])
def test_dash_f_is_format_everywhere(argv):
    result = _run(*argv, "-f", "json")
    assert result.exit_code in (0, 1), result.output
    json.loads(result.stdout)


def test_replay_format_is_a_choice():
    result = _run("replay", GAME, "--format", "yaml")
    assert result.exit_code == 2 and "'yaml' is not one of 'text', 'json'" in result.output
