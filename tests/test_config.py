"""Settings like ruff's: rallyc.toml or [tool.rallyc] in pyproject.toml (found upward from the checked file),
select/ignore of codes and the default boxes, --select/--ignore, and `# rallyc: ignore[CODE]` on a line.
Real files in a temporary project folder; the codes are those the files really draw."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import rallyc
from rallyc.commands.cli import app
from rallyc.project.config import ConfigError, find_config

#: RC308 (a short stage, line 1) and RC604 (a lone chicane token, line 7): two warnings
WARNINGS = """stage SS1 {
  202a
  205a
  206a
  208a left
  203a
  token chicane at 3.2.l
}
"""
#: 303a comes from the dirt-110 box: RC503 when the owned boxes are only dirt-core
OTHER_BOX = """stage SS1 {
  202a
  303a
  205a
  206a
  207a
  204a
  209a left
  212a
  203a
}
"""


def codes(run) -> list[tuple[str, int]]:
    return sorted((d.code, d.span.line) for d in run.diagnostics)


def cli(*args: str):
    return CliRunner().invoke(app, list(args), catch_exceptions=False)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "tracks").mkdir()
    (tmp_path / "tracks" / "warn.rally").write_text(WARNINGS, encoding="utf-8")
    (tmp_path / "tracks" / "box.rally").write_text(OTHER_BOX, encoding="utf-8")
    return tmp_path


def test_without_settings_every_code_is_reported(project):
    run = rallyc.check([project / "tracks" / "warn.rally"], settings=False)
    assert codes(run) == [("RC308", 1), ("RC604", 7)]
    assert run.ok  # warnings only
    assert codes(rallyc.check([project / "tracks" / "warn.rally"])) == codes(run)


def test_rallyc_toml_ignore_found_upward(project):
    (project / "rallyc.toml").write_text('ignore = ["RC308"]\n', encoding="utf-8")
    assert find_config(project / "tracks" / "warn.rally") == project / "rallyc.toml"
    assert codes(rallyc.check([project / "tracks" / "warn.rally"])) == [("RC604", 7)]


def test_pyproject_tool_table_select_by_prefix(project):
    (project / "pyproject.toml").write_text('[project]\nname = "club"\n\n[tool.rallyc]\nselect = ["RC6"]\n',
                                            encoding="utf-8")
    # the warnings of other codes (RC308) are left out; box.rally's error (RC201) never is
    assert codes(rallyc.check([project / "tracks"])) == [("RC201", 9), ("RC604", 7)]


def test_pyproject_without_the_table_is_passed_over(project):
    (project / "tracks" / "pyproject.toml").write_text('[project]\nname = "x"\n', encoding="utf-8")
    (project / "rallyc.toml").write_text('ignore = ["RC604"]\n', encoding="utf-8")
    assert find_config(project / "tracks" / "warn.rally") == project / "rallyc.toml"
    assert codes(rallyc.check([project / "tracks" / "warn.rally"])) == [("RC308", 1)]


def test_rallyc_toml_wins_over_pyproject_in_one_folder(project):
    (project / "pyproject.toml").write_text('[tool.rallyc]\nignore = ["RC308"]\n', encoding="utf-8")
    (project / "rallyc.toml").write_text('ignore = ["RC604"]\n', encoding="utf-8")
    assert codes(rallyc.check([project / "tracks" / "warn.rally"])) == [("RC308", 1)]


def test_command_line_select_replaces_and_ignore_adds(project):
    (project / "rallyc.toml").write_text('select = ["RC604"]\nignore = ["RC5"]\n', encoding="utf-8")
    warn = str(project / "tracks" / "warn.rally")
    assert codes(rallyc.check([warn], select=["RC308"])) == [("RC308", 1)]
    assert codes(rallyc.check([warn], select=["RC3,RC6"], ignore=["604"])) == [("RC308", 1)]
    r = cli("check", warn, "--select", "RC308,RC604", "--ignore", "RC308", "--format", "json")
    assert r.exit_code == 0 and '"RC604"' in r.stdout and '"RC308"' not in r.stdout


@pytest.mark.parametrize("line,comment,want", [
    (7, "# rallyc: ignore[RC604]", [("RC308", 1)]),
    (7, "# rallyc: ignore[rc604]", [("RC308", 1)]),
    (7, "# rallyc: ignore[RC308]", [("RC308", 1), ("RC604", 7)]),  # the code is not on that line
    (1, "# rallyc: ignore[RC604]", [("RC308", 1), ("RC604", 7)]),  # nor that code on this one
    (1, "# rallyc: ignore", [("RC604", 7)]),  # the bare form: every code of the line
    (1, "# rallyc: ignore[RC302, RC308]", [("RC604", 7)]),
])
def test_inline_ignore_on_the_line(project, line, comment, want):
    lines = WARNINGS.splitlines()
    lines[line - 1] += "  " + comment
    (project / "tracks" / "warn.rally").write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert codes(rallyc.check([project / "tracks" / "warn.rally"])) == want


def test_default_boxes_limit_files_that_declare_none(project):
    box = project / "tracks" / "box.rally"
    assert "RC503" not in {c for c, _ in codes(rallyc.check([box]))}
    (project / "rallyc.toml").write_text('boxes = ["dirt-core"]\n', encoding="utf-8")
    run = rallyc.check([box])
    assert ("RC503", 3) in codes(run) and not run.ok
    # the same rule for the commands that compile: export refuses the design
    assert cli("compile", str(box)).exit_code == 1
    # a file's own `boxes` line wins over the settings
    box.write_text("boxes dirt-core dirt-110\n" + OTHER_BOX, encoding="utf-8")
    assert "RC503" not in {c for c, _ in codes(rallyc.check([box]))}


@pytest.mark.parametrize("text,says", [
    ('ignore = "RC308"\n', "`ignore` must be a list of strings"),
    ('colour = ["red"]\n', "unknown key `colour`"),
    ('select = ["E501"]\n', "`E501` is not a code or a code prefix"),
    ('boxes = ["dirt-core", "dirt-999"]\n', "no box (tileset) named `dirt-999`"),
    ('ignore = [\n', "not valid TOML"),
])
def test_a_bad_settings_file_is_a_usage_error_naming_it(project, text, says):
    (project / "rallyc.toml").write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        rallyc.check([project / "tracks" / "warn.rally"])
    assert says in str(info.value) and str(project / "rallyc.toml") in str(info.value)
    r = cli("check", str(project / "tracks" / "warn.rally"))
    assert r.exit_code == 2
    assert r.stderr.startswith(f"rallyc check: {project / 'rallyc.toml'}") and says in r.stderr
    assert "Traceback" not in r.output


def test_a_bad_code_on_the_command_line_is_a_usage_error(project):
    r = cli("check", str(project / "tracks" / "warn.rally"), "--ignore", "W605")
    assert r.exit_code == 2 and "rallyc check: --ignore: `W605` is not a code" in r.stderr


def test_errors_are_never_ignored(project):
    run = rallyc.check([project / "tracks" / "box.rally"], select=["RC6"], ignore=["RC2"])
    assert codes(run) == [("RC201", 9)] and not run.ok


def test_codes_that_say_a_file_cannot_be_read_are_never_ignored(project):
    (project / "tracks" / "binary.rally").write_bytes(b"\x00\x01binary")
    run = rallyc.check([project / "tracks" / "binary.rally"], ignore=["RC1"])
    assert [d.code for d in run.diagnostics] == ["RC102"]
