"""Every documented command runs (issue 32).

The command lines of the fenced shell blocks (```sh, ```bash, ```console: its `$ ` lines) of README.md and
docs/*.md, and of every command's `--help` epilog, each run on the bundled examples in a temporary folder:
the exit code the line documents (a comment that begins `# exit N`, else 0), and no traceback. A line marked
`# not run: install`, `# not run: tests`, `# not run: slow` or `# not run: by hand` is not run (the slow ones
run with RALLYC_SLOW=1; a measurement longer than the slow suite's 20 minutes is run by hand, and a shorter form of
it is marked slow beside it; in the README's prose the mark is an HTML comment, `<!-- not run: slow -->`). The commands run in this process (typer's test runner); the files the documentation names
(`my-rally.rally`, `game.json`, `my-stage.json`, ...) are made from the README and the examples first.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import click
import pytest
import typer.main
from typer.testing import CliRunner

from rallyc.commands.cli import app

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SLOW = bool(os.environ.get("RALLYC_SLOW"))
_SHELL = {"sh", "bash", "shell", "console"}
_NOT_RUN = re.compile(r"#.*\bnot run: (install|tests|slow|by hand)\b")
#: the documented exit code: a comment that begins `# exit N` (`# CI: exit 1 when ...` describes a case only)
_EXIT = re.compile(r"#\s*exit (\d)\b")


@dataclass(frozen=True)
class Documented:
    """One documented command line and where it is written."""

    where: str
    line: str

    @property
    def not_run(self) -> str | None:
        m = _NOT_RUN.search(self.line)
        return m.group(1) if m else None

    @property
    def exit_code(self) -> int:
        m = _EXIT.search(self.line)
        return int(m.group(1)) if m else 0


def _fenced(path: Path) -> list[Documented]:
    """The command lines of a Markdown file's shell blocks."""
    out = []
    lines = path.read_text(encoding="utf-8").splitlines()
    info = None
    for n, line in enumerate(lines, 1):
        stripped = line.strip()
        if stripped.startswith("```"):
            info = stripped[3:].strip().split(" ")[0] if info is None else None
            continue
        if info not in _SHELL or not stripped or stripped.startswith("#"):
            continue
        if info == "console":
            if not stripped.startswith("$ "):
                continue
            stripped = stripped[2:]
        out.append(Documented(f"{path.relative_to(ROOT)}:{n}", stripped))
    return out


def _epilogs() -> list[Documented]:
    """The example lines of every command's ``--help`` epilog."""
    out = []

    def walk(command: click.Command, name: str) -> None:
        for line in (command.epilog or "").splitlines():
            stripped = line.strip()
            if stripped.startswith("rallyc ") or "| rallyc " in stripped:
                out.append(Documented(f"rallyc {name} --help", stripped))
        for sub_name, sub in sorted(getattr(command, "commands", {}).items()):
            walk(sub, f"{name} {sub_name}".strip())

    walk(typer.main.get_command(app), "")
    return out


def _pictures() -> list[Documented]:
    """The commands that made the README's pictures (in its "Pictures" section, in backquotes)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Pictures", 1)[1].split("\n## ", 1)[0]
    out = []
    for line in section.splitlines():
        for command in re.findall(r"\(`(rallyc [^`]+)`\)", line):
            slow = "<!-- not run: slow -->" in line  # the README's mark, out of sight
            out.append(Documented("README.md Pictures", command + ("  # not run: slow" if slow else "")))
    return out


DOCUMENTED = [d for path in DOCS for d in _fenced(path)] + _epilogs() + _pictures()
assert len(DOCUMENTED) > 60, len(DOCUMENTED)  # the test below never runs on an empty list


def _readme_design() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    m = re.search(r"<!-- lang:start -->.*?```rally\n(.*?)```", readme, re.S)
    assert m is not None
    return m.group(1)


def _invoke(args: list[str], stdin: bytes | None = None):
    return CliRunner().invoke(app, args, input=stdin, catch_exceptions=False)


@pytest.fixture(scope="module")
def prepared(tmp_path_factory) -> Path:
    """A folder with the bundled examples and tilesets and every file the documentation names."""
    here = tmp_path_factory.mktemp("documented")
    shutil.copytree(ROOT / "examples", here / "examples")
    shutil.copytree(ROOT / "tilesets", here / "tilesets")
    (here / "benchmarks").symlink_to(ROOT / "benchmarks")  # `python benchmarks/...` lines (they read the repository)
    design = _readme_design()
    for name in ("my-rally.rally", "stage.rally", "messy.rally"):
        (here / name).write_text(design, encoding="utf-8")
    game = json.loads((ROOT / "examples" / "games" / "rally-1-ss1-failed-flat-out.json").read_text(encoding="utf-8"))
    game["track"] = "examples/rally-1.rally"
    (here / "game.json").write_text(json.dumps(game, indent=1), encoding="utf-8")
    # the smallest complete record, as docs/referee.md shows it
    smallest = re.search(r"```json\n(\{\"format\": \"rallyc-game/1\",\n \"players\".*?)```",
                         (ROOT / "docs" / "referee.md").read_text(encoding="utf-8"), re.S)
    assert smallest is not None
    (here / "smallest.json").write_text(smallest.group(1), encoding="utf-8")
    # a reading other than the default, one that game.json was played under too (the `--rules` file of
    # docs/referee.md changes the Time-card seconds, which the game's cards contradict)
    (here / "my-rules.toml").write_text('[readings.leader_rule_ends]\nvalue = "finished-player-only"\n',
                                        encoding="utf-8")
    for args in (["export", "my-rally.rally", "--to", "rekee", "-o", "my-stage.json"],
                 ["export", "examples/rx-1.rally", "--to", "rgt", "-o", "rx-finland.rgt"],
                 # a finished game at the table (docs/play.md): bots in both seats, rallyc rolls
                 ["play", "examples/rally-1.rally", "--players", "Ann,Bob", "--seat", "Ann=random", "--seat",
                  "Bob=greedy", "--dice", "auto", "--journal", "game.jsonl"]):
        old = os.getcwd()
        os.chdir(here)
        try:
            assert _invoke(args).exit_code == 0, args
        finally:
            os.chdir(old)
    return here


@pytest.fixture
def folder(prepared: Path, tmp_path: Path) -> Path:
    """A fresh copy of the prepared folder: a command that writes files never changes what the next one reads."""
    here = tmp_path / "work"
    shutil.copytree(prepared, here)
    return here


def _run(line: str, folder: Path) -> tuple[int, str]:
    """Run one documented line in ``folder``: `rallyc ...` in this process (with `cat F |`, `< F` and `> F`),
    anything else (`python benchmarks/...`) in a shell."""
    words = shlex.split(line, comments=True)
    stdin: bytes | None = None
    if words[:1] == ["cat"] and "|" in words:
        stdin = (folder / words[1]).read_bytes()
        words = words[words.index("|") + 1:]
    out_file = None
    if ">" in words:
        out_file = words[words.index(">") + 1]
        words = words[:words.index(">")]
    if "<" in words:
        stdin = (folder / words[words.index("<") + 1]).read_bytes()
        words = words[:words.index("<")]
    if words[0] != "rallyc":
        p = subprocess.run(line, shell=True, cwd=folder, capture_output=True, text=True,
                           env=dict(os.environ, PYTHONPATH=str(ROOT),
                                    PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"))
        return p.returncode, p.stdout + p.stderr
    r = _invoke(words[1:], stdin)
    if out_file is not None:
        (folder / out_file).write_bytes(r.stdout_bytes)
    return r.exit_code, r.output


#: the lines run: all but those marked (the README's install and test commands; the long runs unless RALLYC_SLOW=1)
RUN = [d for d in DOCUMENTED if d.not_run is None or (d.not_run == "slow" and SLOW)]


@pytest.mark.parametrize("doc", RUN, ids=lambda d: f"{d.where}: {d.line}")
def test_every_documented_command_runs(doc, folder, monkeypatch):
    monkeypatch.chdir(folder)
    code, output = _run(doc.line, folder)
    assert "Traceback" not in output, output
    assert code == doc.exit_code, f"{doc.where}: `{doc.line}` exited {code}, documented {doc.exit_code}\n{output}"
    assert "deprecated" not in output, output


def test_the_marks_are_only_the_four_kinds():
    """A typo in a mark would silently leave a line out."""
    for doc in DOCUMENTED:
        if "not run" in doc.line:
            assert doc.not_run is not None, doc


def test_the_collection_sees_the_readme_and_every_epilog():
    wheres = {d.where.split(":")[0] for d in DOCUMENTED}
    assert "README.md" in wheres and "rallyc check --help" in wheres and "rallyc tiles list --help" in wheres
    marked = [d for d in DOCUMENTED if d.not_run is not None]
    never = [d for d in marked if d.not_run != "slow"]
    assert len(never) <= 5, never  # few lines are never run: installs, the test run, a measurement of an hour
    assert len(marked) - len(never) <= 10, marked  # and few only in the slow suite: the long analyses


def test_the_analyze_help_says_the_seconds_a_turn_the_analysis_uses():
    from rallyc.analysis.report import TURN_SECONDS_AT_TABLE
    from rallyc.commands.analyze import ANALYZE_EPILOG

    assert f"an assumed {TURN_SECONDS_AT_TABLE:.0f} s a turn" in ANALYZE_EPILOG
