"""The modules moved off the package root (issue 30) keep their public names at the old place for one release, with
a DeprecationWarning naming the new place; the new places and the command line warn about nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "rally-1.rally"


def _python(code: str, *warnings: str) -> subprocess.CompletedProcess[str]:
    flags = [f"-W{w}" for w in warnings]
    return subprocess.run([sys.executable, *flags, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)


@pytest.mark.parametrize(("old", "new"), [
    ("import rallyc.pipeline", "rallyc.compilation.pipeline"),
    ("import rallyc.config", "rallyc.project.config"),
    ("import rallyc.cli", "rallyc.commands.cli"),
    ("from rallyc.project import load", "rallyc.project.loader"),
])
def test_an_old_path_warns_naming_the_new_one(old, new):
    run = _python(old, "error::DeprecationWarning")
    assert run.returncode == 1
    assert "DeprecationWarning" in run.stderr and new in run.stderr


def test_the_documented_lower_level_names_still_compile_a_design():
    """docs/api.md's lower-level calls, spelt as before the move: the design compiles as it does today."""
    run = _python("import rallyc.project, rallyc.pipeline\n"
                  f"result = rallyc.pipeline.compile_loaded(rallyc.project.load({str(EXAMPLE)!r}))\n"
                  "print([t.name for d in result.designs for t in d.tracks])", "default::DeprecationWarning")
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "['SS1', 'SS2', 'SS3']"
    assert run.stderr.count("rallyc's issue 30") == 2  # rallyc.pipeline imported, rallyc.project.load read


def test_the_old_config_error_is_what_check_raises(tmp_path):
    (tmp_path / "rallyc.toml").write_text('select = ["E501"]\n', encoding="utf-8")  # not a code
    (tmp_path / "a.rally").write_text(EXAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    run = _python("import rallyc, rallyc.config\n"
                  "try:\n"
                  f"    rallyc.check([{str(tmp_path / 'a.rally')!r}])\n"
                  "except rallyc.config.ConfigError as e:\n"
                  "    print('ConfigError:', e)\n", "ignore::DeprecationWarning")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("ConfigError:")


def test_the_old_typer_app_runs_the_commands():
    run = _python("from typer.testing import CliRunner\nimport rallyc.cli\n"
                  f"r = CliRunner().invoke(rallyc.cli.app, ['check', {str(EXAMPLE)!r}])\n"
                  "print(r.exit_code)", "ignore::DeprecationWarning")
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "0"


def test_the_new_places_and_the_command_line_import_no_alias():
    run = _python("import rallyc.compilation.pipeline, rallyc.project.loader, rallyc.project.config, "
                  "rallyc.commands.cli, rallyc.suggest.ranking_fit, rallyc.cache.check_results", "error::DeprecationWarning")
    assert run.returncode == 0, run.stderr
    check = subprocess.run([sys.executable, "-W", "error::DeprecationWarning", "-m", "rallyc", "check",
                            str(EXAMPLE)], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert check.returncode == 0, check.stderr
