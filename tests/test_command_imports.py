"""Each command imports only what its work needs (issue 33, "instant to answer"): a guard on the import graph.

Each case runs one ``rallyc`` command line in a new process, through the console entry point as a user runs it,
and reads ``sys.modules`` when it is done: the heavy libraries and the rallyc layers a command has no use for
must not be there. (Times are measured by ``benchmarks/commands.py``, never asserted here; what each command
imports and why is in docs/startup.md.)
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers.paths import ROOT
from rallyc.commands import COMMANDS

#: what the guard watches: the five runtime dependencies, typer's pydantic, the extras, and rallyc's big layers
WATCHED = ("typer", "pydantic", "networkx", "lark", "jsonschema", "svgwrite", "pygls", "lsprotocol", "cairosvg",
           "rallyc.commands.cli", "rallyc.api", "rallyc.compiler", "rallyc.checks", "rallyc.render", "rallyc.records",
           "rallyc.rules", "rallyc.rules.core.machine", "rallyc.analysis", "rallyc.lsp",
           # the modules that declare the typer app's commands (rallyc.commands.COMMANDS)
           *sorted({f"rallyc.commands.{listed.module}" for listed in COMMANDS.values()}))

_RUN = """\
import sys
from rallyc.__main__ import main
sys.argv = ['rallyc', *sys.argv[1:]]
try:
    main()
except SystemExit as e:
    code = e.code
else:
    code = 0
sys.stdout.flush()
print('\\n' + str(code) + ' ' + ' '.join(m for m in {watched!r} if m in sys.modules), file=sys.stderr)
"""


def run(args: list[str], cache: Path) -> tuple[int, set[str]]:
    """(exit code, the watched modules imported) of ``rallyc ARGS`` in a new process, with ``cache`` as the user
    cache folder."""
    env = dict(os.environ, XDG_CACHE_HOME=str(cache))
    p = subprocess.run([sys.executable, "-c", _RUN.format(watched=WATCHED), *args], capture_output=True, text=True,
                       cwd=ROOT, env=env, stdin=subprocess.DEVNULL)
    code, *modules = p.stderr.splitlines()[-1].split()
    return int(code), set(modules)




def other_commands(*names: str) -> set[str]:
    """The modules declaring commands other than ``names``: a command imports its own module only."""
    return {f"rallyc.commands.{listed.module}" for n, listed in COMMANDS.items() if n not in names} - {
        f"rallyc.commands.{COMMANDS[n].module}" for n in names}


RALLY = "examples/rally-1.rally"
GAME = "examples/games/rally-4-full.json"

#: (command line, exit code, what it must not import)
CASES = [
    (["--version"], 0, set(WATCHED)),
    # a code or a rule explained: the codes' texts and the rulebook's statements, nothing of typer or the compiler
    (["explain", "RC130"], 0, set(WATCHED)),
    (["explain", "CORE-ROLL-09"], 0, set(WATCHED)),
    (["explain"], 0, set(WATCHED)),
    (["explain", "RC999"], 2, set(WATCHED)),
    # the usage: typer and the table of commands (rallyc.commands.COMMANDS), none of the commands' modules, no
    # parameter validation (pydantic), no library
    (["--help"], 0, set(WATCHED) - {"typer", "rallyc.commands.cli"}),
    # formatting reads the syntax only
    (["fmt", "--check", RALLY], 0, other_commands("fmt") | {
        "networkx", "jsonschema", "svgwrite", "lsprotocol", "rallyc.compiler", "rallyc.checks", "rallyc.render",
        "rallyc.records", "rallyc.rules", "rallyc.analysis", "rallyc.lsp"}),
    # compiling: the parser and the graph, no drawing, no referee, no record schemas
    (["compile", RALLY], 0, other_commands("compile") | {
        "jsonschema", "svgwrite", "lsprotocol", "rallyc.render", "rallyc.records", "rallyc.rules", "rallyc.analysis",
        "rallyc.lsp"}),
    (["stats", RALLY], 0, other_commands("stats") | {
        "jsonschema", "svgwrite", "lsprotocol", "rallyc.render", "rallyc.records", "rallyc.rules", "rallyc.analysis",
        "rallyc.lsp"}),
    # drawing a stage: svgwrite, but no referee and no record schemas (PDF/PNG only when asked for)
    (["render", "--stage", "SS1", RALLY], 0, other_commands("render") | {
        "jsonschema", "cairosvg", "lsprotocol", "rallyc.records", "rallyc.rules", "rallyc.analysis", "rallyc.lsp"}),
    # replaying a record: the referee and the record's schema (checked by jsonschema-rs: jsonschema only words the
    # messages of a record it refuses), no drawing, not the machine that steps a game from outside; of the other
    # commands' modules, only render's, which writes the --html viewer
    (["replay", GAME], 0, other_commands("replay", "render") | {
        "jsonschema", "svgwrite", "cairosvg", "lsprotocol", "rallyc.render", "rallyc.analysis", "rallyc.lsp",
        "rallyc.rules.core.machine"}),
    # the language server as an editor starts it (here on an empty input: it stops at once): pygls, nothing of
    # typer, and the parser and the compiler only once a document is open
    (["lsp"], 0, {"typer", "pydantic", "networkx", "lark", "jsonschema", "svgwrite", "rallyc.commands.cli", "rallyc.compiler",
                  "rallyc.checks", "rallyc.render", "rallyc.records", "rallyc.rules", "rallyc.analysis"}),
    # the next tile: the parser and the placement of the route, no graph of spaces (networkx), no check
    (["suggest", "benchmarks/data/stage-30.rally", "--after", "29"], 0, other_commands("suggest") | {
        "networkx", "jsonschema", "svgwrite", "lsprotocol", "rallyc.checks", "rallyc.render", "rallyc.records",
        "rallyc.rules", "rallyc.analysis", "rallyc.lsp"}),
    # listing tiles: the catalogue only
    (["tiles", "list"], 0, other_commands("tiles") | {
        "networkx", "jsonschema", "svgwrite", "lsprotocol", "rallyc.compiler", "rallyc.render", "rallyc.records",
        "rallyc.rules", "rallyc.analysis", "rallyc.lsp"}),
]


@pytest.mark.parametrize("args,code,never", CASES, ids=[" ".join(c[0]) or "(none)" for c in CASES])
def test_command_imports_only_what_it_needs(args, code, never, tmp_path):
    got_code, imported = run(args, tmp_path)
    assert got_code == code
    assert imported & never == set()


def test_a_cached_check_imports_neither_the_parser_nor_the_compiler(tmp_path):
    assert run(["check", RALLY], tmp_path)[0] == 0  # fills the user cache
    code, imported = run(["check", RALLY], tmp_path)
    assert code == 0
    assert imported & {"typer", "pydantic", "networkx", "lark", "jsonschema", "svgwrite", "rallyc.compiler",
                       "rallyc.checks", "rallyc.commands.cli"} == set()


@pytest.mark.parametrize("args,out,err,code", [
    (["explain", "RC130"], "RC130 (error): ", "", 0),
    (["explain", "130"], "RC130 (error): ", "", 0),
    (["explain", "CORE-ROLL-09"], "CORE-ROLL-09", "", 0),
    (["explain", "RC999"], "", "rallyc explain: unknown code RC999; ", 2),
    (["explain", "CORE-ROLL-99"], "", "rallyc explain: unknown rule or code CORE-ROLL-99; ", 2),
])
def test_explain_answers_as_documented(args, out, err, code):
    p = subprocess.run([sys.executable, "-m", "rallyc", *args], capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == code
    assert p.stdout.startswith(out) and (out or p.stdout == "")
    assert p.stderr.startswith(err) and (err or p.stderr == "")


def test_explain_without_a_code_lists_every_code_once():
    p = subprocess.run([sys.executable, "-m", "rallyc", "explain"], capture_output=True, text=True, cwd=ROOT)
    codes = [line.split()[0] for line in p.stdout.splitlines()]
    assert p.returncode == 0 and "RC130" in codes and len(codes) == len(set(codes)) > 100


def test_explain_options_go_to_typer():
    p = subprocess.run([sys.executable, "-m", "rallyc", "explain", "--help"], capture_output=True, text=True,
                       cwd=ROOT)
    assert p.returncode == 0 and p.stdout.startswith("Usage: rallyc explain [OPTIONS]")


def test_the_language_server_starts_without_typer(tmp_path):
    code, imported = run(["lsp"], tmp_path)
    assert code == 0 and {"pygls", "lsprotocol", "rallyc.lsp"} <= imported and "typer" not in imported


def test_the_usage_lists_each_command_as_its_own_help_begins():
    """``rallyc --help`` lists the commands from rallyc.commands.COMMANDS without importing their modules: each line
    begins as the first paragraph of that command's own ``--help`` (click shortens it to the line), and the table
    holds that paragraph whole."""
    from typer.testing import CliRunner

    from rallyc.commands.cli import app

    runner = CliRunner()
    top = runner.invoke(app, ["--help"], prog_name="rallyc")
    listed = top.output.split("Commands:\n", 1)[1].splitlines()
    assert top.exit_code == 0 and [line.split()[0] for line in listed] == list(COMMANDS)
    for line in listed:
        name, summary = line.split(None, 1)
        own = runner.invoke(app, [name, "--help"], prog_name="rallyc")
        first_paragraph = " ".join(own.output.split("\n\n")[1].split())
        assert own.exit_code == 0 and first_paragraph == COMMANDS[name].summary, name
        assert first_paragraph.startswith(summary.removesuffix("...")), name
