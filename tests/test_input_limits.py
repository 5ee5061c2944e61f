"""Bounded on any input (issue 32): a file the 2 MB size limit accepts is read within the limits on what one file
holds (rallyc.syntax.limits), or refused early with RC101 located at the statement that goes over, naming the
limit. The issue's inputs (44,469 four-tile stages in 1.99 MB; one stage of 250,000 tiles in 1.75 MB) ran for
minutes and past a gigabyte; `benchmarks/input_scaling.py --limits` times the largest accepted inputs."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from rallyc.commands.cli import app
from rallyc.syntax.limits import MAX_FILE_PIECES, MAX_STAGE_TILES, MAX_STATEMENT_BYTES, MAX_STATEMENTS
from rallyc.syntax.parser import parse

STRAIGHTS = ("205a", "206a", "205b", "206b")


def stage(name: str, tiles: int, one_line: bool = False) -> str:
    steps = ["202a"] + [STRAIGHTS[i % 4] for i in range(tiles - 2)] + ["203a"]
    if one_line:
        return f"stage {name} {{ " + "; ".join(steps) + " }\n"
    return f"stage {name} {{\n" + "".join(f"  {t}\n" for t in steps) + "}\n"


def rc101(text: str) -> list[tuple[int, str]]:
    _, diags = parse(text, "big.rally")
    return [(d.span.line, d.message) for d in diags if d.code == "RC101"]


def test_the_issues_files_are_refused_early_and_located(tmp_path):
    many = "".join(stage(f"S{i}", 4) for i in range(44_469))
    long = stage("Long", 250_000)
    assert len(many.encode()) < 2_000_000 and len(long.encode()) < 2_000_000
    for name, text, line, says in [("many.rally", many, 6 * MAX_STATEMENTS + 1, "more than 1,000 top-level statements"),
                                   ("long.rally", long, 1, "one statement (a stage, a rally with its stages, a "
                                                           "tileset) is at most 200 KB")]:
        (tmp_path / name).write_text(text, encoding="utf-8")
        r = CliRunner().invoke(app, ["check", "--no-cache", str(tmp_path / name)])
        assert r.exit_code == 1 and "Traceback" not in r.output
        assert r.output.startswith(f"{tmp_path / name}:{line}:1: error[RC101]: ") and says in r.output, r.output[:300]


@pytest.mark.parametrize("one_line", [False, True])
def test_tiles_of_a_stage(one_line):
    assert rc101(stage("S", MAX_STAGE_TILES, one_line)) == []
    assert rc101("# a long stage\n" + stage("S", MAX_STAGE_TILES + 1, one_line)) == [
        (2, f"{MAX_STAGE_TILES + 1:,} tiles in one stage; a stage, circuit or area has at most 2,000")]


def test_tiles_of_a_stage_in_a_rally():
    text = 'rally "R" {\n' + stage("SS1", 10) + stage("SS2", MAX_STAGE_TILES + 1) + "}\n"
    assert rc101(text) == [(14, "2,001 tiles in one stage; a stage, circuit or area has at most 2,000")]


def test_top_level_statements():
    # the 1,001st statement is refused (so the 1,000 before it were read)
    assert [line for line, _ in rc101("".join(stage(f"S{i}", 3) for i in range(MAX_STATEMENTS + 1)))] == [
        5 * MAX_STATEMENTS + 1]


def test_size_of_one_statement():
    comment = "  # " + "x" * 96 + "\n"
    fits = "stage S {\n  202a\n" + comment * ((MAX_STATEMENT_BYTES - 40) // 101) + "  203a\n}\n"
    assert len(fits.encode()) <= MAX_STATEMENT_BYTES and rc101(fits) == []
    over = "use dirt-core\n" + fits.replace("  203a", comment + "  203a")
    assert [line for line, _ in rc101(over)] == [2]


def test_statements_in_a_file():
    # 11 stages of 1,999 tiles: each within the stage limit, together over the file's
    per = MAX_STAGE_TILES - 1
    text = "".join(stage(f"S{i}", per) for i in range(MAX_FILE_PIECES // per + 1))
    found = rc101(text)
    assert len(found) == 1 and found[0][1].startswith("more than 20,000 statements")
    # the stage that goes over is refused (so the ten before it, 19,990 tiles, were read)
    assert found[0][0] == (MAX_FILE_PIECES // per) * (per + 2) + 1


def test_published_designs_are_far_below_the_limits(examples_dir):
    for path in sorted(examples_dir.glob("*.rally")):
        assert rc101(path.read_text(encoding="utf-8")) == [], path
