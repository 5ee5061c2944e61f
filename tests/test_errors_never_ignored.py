"""No setting hides an error (issue 32): `--select`, `--ignore`, the settings file and `# rallyc: ignore` choose
among warnings only. A design with an error is not compiled, so a CI that could hide one would go green on a
track nobody can play. Real broken tracks from tests/bad, checked in every output format; each attempt to hide
the error is answered by a warning on standard error."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import rallyc
from rallyc.commands.cli import app

ROOT = Path(__file__).resolve().parents[1]
BAD = ROOT / "tests" / "bad"

#: (file in tests/bad, the error it really draws, its line): a name error, a route error that stops the
#: stage from being driven, a file that stops compilation (blocks nested too deep)
BROKEN = [("unknown-tile.rally", "RC130", 4), ("absolute-tile-after-dead-end.rally", "RC307", 2),
          ("deep-nesting.rally", "RC103", None)]

#: how a CI tries to hide CODE: command-line options, a settings file's text, an inline comment
HIDING = {
    "--select RC6": (["--select", "RC6"], None, False),
    "--ignore CODE": (["--ignore", "{code}"], None, False),
    "--ignore RC": (["--ignore", "RC"], None, False),
    "rallyc.toml select": ([], 'select = ["RC6"]\n', False),
    "rallyc.toml ignore": ([], 'ignore = ["{code}"]\n', False),
    "inline ignore[CODE]": ([], None, True),
}


def cli(*args: str):
    return CliRunner().invoke(app, list(args), catch_exceptions=False)


def _project(tmp_path: Path, name: str, code: str, settings: str | None, inline: bool, line: int | None) -> Path:
    track = tmp_path / name
    shutil.copy(BAD / name, track)
    if inline:
        lines = track.read_text(encoding="utf-8").split("\n")
        lines[line - 1] += f"  # rallyc: ignore[{code}]"
        track.write_text("\n".join(lines), encoding="utf-8")
    if settings is not None:
        (tmp_path / "rallyc.toml").write_text(settings.format(code=code), encoding="utf-8")
    return track


def _reported(fmt: str, out: str) -> list[str]:
    """The codes a report in ``fmt`` shows."""
    if fmt == "json":
        return [d["code"] for d in json.loads(out)["diagnostics"]]
    if fmt == "sarif":
        return [r["ruleId"] for r in json.loads(out)["runs"][0]["results"]]
    if fmt == "gitlab":
        return [i["check_name"] for i in json.loads(out)]
    if fmt == "github":
        return [part.split(")")[0] for part in out.split("::error title=rallyc (")[1:]]
    return [part.split("]")[0] for part in out.split("error[")[1:]]


#: every broken track with every way to hide its error (a file that stops compilation has no line for a comment)
CASES = [(name, code, line, how) for name, code, line in BROKEN for how in HIDING if line or not HIDING[how][2]]


@pytest.mark.parametrize("fmt", ["text", "json", "github", "gitlab", "sarif"])
@pytest.mark.parametrize("name,code,line,how", CASES)
def test_an_error_is_reported_and_fails_the_check_whatever_hides_it(tmp_path, name, code, line, how, fmt):
    args, settings, inline = HIDING[how]
    track = _project(tmp_path, name, code, settings, inline, line)
    r = cli("check", "--no-cache", "--format", fmt, str(track), *[a.format(code=code) for a in args])
    assert r.exit_code == 1, r.output
    assert code in _reported(fmt, r.stdout)
    assert "warning:" in r.stderr and "still reported" in r.stderr
    assert "Traceback" not in r.stderr


def test_the_warnings_name_what_tried_to_hide_the_error(tmp_path):
    track = _project(tmp_path, "unknown-tile.rally", "RC130", 'ignore = ["RC13"]\n', True, 4)
    r = cli("check", "--no-cache", str(track), "--ignore", "RC130")
    assert r.exit_code == 1
    assert r.stderr.splitlines() == [
        "warning: --ignore RC130: errors cannot be ignored; RC130 is still reported",
        f"warning: {tmp_path / 'rallyc.toml'}: ignore RC13: errors cannot be ignored; RC130, RC131 are still reported",
        f"{track}:4:3: warning: `# rallyc: ignore` cannot hide an error; RC130 is still reported",
    ]


def test_the_fast_entry_point_keeps_the_error_too(tmp_path):
    """`python -m rallyc check` without typer (the pre-commit hook's path) gives the same answer."""
    track = _project(tmp_path, "unknown-tile.rally", "RC130", None, False, None)
    p = subprocess.run([sys.executable, "-m", "rallyc", "check", "--no-cache", str(track), "--select", "RC6",
                        "--format", "github"], capture_output=True, text=True)
    assert p.returncode == 1 and "::error title=rallyc (RC130)" in p.stdout
    assert "warning: --select RC6: errors cannot be left out" in p.stderr


def test_warnings_are_still_chosen_by_the_settings(tmp_path):
    """What select and ignore are for: a warning is hidden, the check passes, nothing is said."""
    track = tmp_path / "warn.rally"
    track.write_text("stage SS1 {\n  202a\n  205a\n  206a\n  208a left\n  203a\n  token chicane at 3.2.l\n}\n",
                     encoding="utf-8")
    r = cli("check", "--no-cache", str(track), "--ignore", "RC308,RC604")
    assert (r.exit_code, r.stderr) == (0, "")
    assert "no problems" in r.stdout


def test_the_api_keeps_the_error():
    run = rallyc.check([BAD / "unknown-tile.rally"], ignore=["RC1"], select=["RC6"], cache=False)
    assert [d.code for d in run.diagnostics] == ["RC130"] and not run.ok
    assert len(run.warnings) == 2


@pytest.mark.parametrize("code,says", [("RC130", True), ("RC103", True), ("RC100", True), ("RC604", False),
                                       ("RC308", False)])
def test_explain_says_which_codes_cannot_be_ignored(code, says):
    r = cli("explain", code)
    assert r.exit_code == 0
    assert ("An error cannot be ignored" in r.stdout) is says
