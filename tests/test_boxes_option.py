"""``--boxes`` reads alike in every command that takes it: comma-separated lists and the option repeated, a box
given twice owned twice, and an unknown box refused with the boxes there are."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from rallyc.commands.cli import app
from rallyc.tiles.boxes import box_list, unknown_boxes

STAGE = "stage SS1 {\n  202a\n  210b left\n  205a\n}\n"


def _suggest(tmp_path, *boxes: str):
    f = tmp_path / "s.rally"
    f.write_text(STAGE, encoding="utf-8")
    return CliRunner().invoke(app, ["suggest", str(f), "-f", "json", *boxes])


def test_a_list_and_the_repeated_option_read_alike():
    assert box_list(["dirt-core,dirt-110"]) == box_list(["dirt-core", "dirt-110"]) == ["dirt-core", "dirt-110"]
    assert box_list(["dirt-core, dirt-110", "dirt-core"]) == ["dirt-core", "dirt-110", "dirt-core"]
    assert box_list([]) is None and box_list(None) is None and box_list([" , "]) is None


def test_suggest_takes_a_list_or_the_option_repeated(tmp_path):
    listed = _suggest(tmp_path, "--boxes", "dirt-core,dirt-110")
    repeated = _suggest(tmp_path, "-b", "dirt-core", "--boxes", "dirt-110")
    assert listed.exit_code == 0 and repeated.exit_code == 0, listed.output + repeated.output
    assert listed.output == repeated.output
    data = json.loads(listed.output)
    assert data["boxes"] == ["dirt-core", "dirt-110"]
    assert {s["box"] for s in data["suggestions"]} == {"dirt-core", "dirt-110"}


def test_a_box_given_twice_holds_twice_its_tiles(tmp_path):
    once = json.loads(_suggest(tmp_path, "--boxes", "dirt-core").output)["suggestions"]
    twice = json.loads(_suggest(tmp_path, "--boxes", "dirt-core,dirt-core").output)["suggestions"]
    left_once = {s["text"]: s["copies_left"] for s in once}
    left_twice = {s["text"]: s["copies_left"] for s in twice}
    # 210 is laid once: one core box has no 210 left, two have one; an unused tile: 1 copy, then 2
    assert "210a left" not in left_once and left_twice["210a left"] == 1
    assert left_once["216a left"] == 1 and left_twice["216a left"] == 2


def test_an_unknown_box_is_refused_with_the_boxes_in_scope(tmp_path):
    res = _suggest(tmp_path, "--boxes", "dirt-core,dirt-111")
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert "no box named dirt-111; boxes in scope: " in res.output
    assert "dirt-110" in res.output and "gt-core" in res.output
    assert unknown_boxes(["dirt-core"], ["dirt-core", "gt-core"]) is None
