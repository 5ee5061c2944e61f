"""The tiny entry point: `rallyc --version` and the plain forms of `rallyc check` run without importing typer,
print the same bytes and exit with the same codes as the typer app, and leave everything else to typer.
(Start-up times are measured by benchmarks/startup.py, never asserted here.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from helpers.paths import ROOT
from rallyc import __version__
from rallyc.commands.cli import app
from rallyc.commands.checking import OutputFormat, parse_check_args


def entry(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rallyc", *args], capture_output=True, cwd=cwd)


def imported_by(*args: str, cache: Path | None = None) -> set[str]:
    """The modules of interest that the entry point imported to run ``rallyc ARGS`` (with ``cache`` as the
    user cache folder)."""
    code = ("import sys\nfrom rallyc.__main__ import main\nsys.argv = ['rallyc', *sys.argv[1:]]\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print('\\n' + ' '.join(sorted(m for m in ('typer', 'pydantic', 'jsonschema', 'svgwrite', 'networkx',"
            " 'lark', 'rallyc.commands.cli') if m in sys.modules)), file=sys.stderr)")
    env = dict(os.environ, XDG_CACHE_HOME=str(cache)) if cache is not None else None
    p = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT, env=env)
    return set(p.stderr.splitlines()[-1].split())


def test_version_imports_nothing_but_rallyc():
    p = entry("--version")
    assert p.returncode == 0 and p.stdout == f"rallyc {__version__}\n".encode()
    assert imported_by("--version") == set()


def test_check_imports_only_what_checking_uses(tmp_path):
    assert imported_by("check", "--no-cache", "examples/", cache=tmp_path) == {"networkx", "lark"}
    # with every result kept in the user cache, not even the parser and the compiler
    assert imported_by("check", "examples/", cache=tmp_path) == {"networkx", "lark"}
    assert imported_by("check", "examples/", cache=tmp_path) == set()
    # anything the fast path does not read goes to typer
    assert "typer" in imported_by("check", "--help", cache=tmp_path)


@pytest.mark.parametrize("args", [
    ["check", "examples/"],
    ["check", "tests/bad", "--format", "json"],
    ["check", "--format=sarif", "tests/bad/unknown-tile.rally", "examples/rally-1.rally"],
    ["check", "-f", "json", "tests/bad", "--select", "RC1", "--ignore", "RC104,RC105"],
    ["check", "--", "tests/bad/unknown-tile.rally"],
    ["check", "missing.rally"],
    ["check", "examples/", "--ignore", "E501"],
])
def test_fast_path_prints_what_typer_prints(args):
    p = entry(*args)
    r = CliRunner().invoke(app, args, catch_exceptions=False)
    assert (p.returncode, p.stdout, p.stderr) == (r.exit_code, r.stdout_bytes, r.stderr_bytes)


def test_fast_path_writes_the_output_file(tmp_path):
    out = tmp_path / "report.json"
    p = entry("check", "tests/bad/unknown-tile.rally", "-o", str(out), "--format", "json")
    assert p.returncode == 1 and p.stdout == b""
    assert [d["code"] for d in json.loads(out.read_text(encoding="utf-8"))["diagnostics"]] == ["RC130"]
    # never over an input
    p = entry("check", str(out), "-o", str(out))
    assert p.returncode == 2 and b"would overwrite the input" in p.stderr


@pytest.mark.parametrize("args,want", [
    (["a.rally"], dict(paths=["a.rally"], fmt=OutputFormat.text, output=None, select=[], ignore=[], no_cache=False)),
    (["-", "--format", "json", "-o", "r.json", "--no-cache"],
     dict(paths=["-"], fmt=OutputFormat.json, output=Path("r.json"), select=[], ignore=[], no_cache=True)),
    (["--select=RC3", "d/", "--ignore", "RC308", "--ignore", "RC6"],
     dict(paths=["d/"], fmt=OutputFormat.text, output=None, select=["RC3"], ignore=["RC308", "RC6"],
          no_cache=False)),
    (["--", "--odd-name.rally"],
     dict(paths=["--odd-name.rally"], fmt=OutputFormat.text, output=None, select=[], ignore=[], no_cache=False)),
])
def test_parse_check_args_reads_the_plain_forms(args, want):
    assert parse_check_args(args) == want


@pytest.mark.parametrize("args", [[], ["--help"], ["a.rally", "-h"], ["a.rally", "--format", "xml"],
                                  ["a.rally", "--format"], ["a.rally", "-fjson"], ["a.rally", "--verbose"],
                                  ["a.rally", "-o", "x", "-o", "y"]])
def test_parse_check_args_leaves_the_rest_to_typer(args):
    assert parse_check_args(args) is None
