"""``rallyc render`` from the command line: maps, pages, road book, errors and exit codes."""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path

from typer.testing import CliRunner

from rallyc.commands.cli import app

ROOT = Path(__file__).resolve().parent.parent
RALLY1 = str(ROOT / "examples" / "rally-1.rally")
SVG = "{http://www.w3.org/2000/svg}"
runner = CliRunner()


def test_render_writes_one_svg_per_stage_asked(tmp_path: Path):
    out = tmp_path / "ss2.svg"
    res = runner.invoke(app, ["render", RALLY1, "--stage", "SS2", "-o", str(out), "--page", "a4", "--landscape"])
    assert res.exit_code == 0, res.output
    root = ET.parse(out).getroot()
    assert root.get("width") == "297.00mm"
    assert "SS2" in root.find(f"{SVG}title").text
    umask = os.umask(0)
    os.umask(umask)
    assert os.stat(out).st_mode & 0o777 == 0o666 & ~umask  # a new file gets the usual permissions


def test_render_to_stdout_and_same_bytes_twice():
    a = runner.invoke(app, ["render", RALLY1])
    b = runner.invoke(app, ["render", RALLY1])
    assert a.exit_code == 0 and a.stdout == b.stdout
    assert a.stdout.startswith("<?xml")


def test_real_scale_writes_numbered_pages(tmp_path: Path):
    out = tmp_path / "map.svg"
    res = runner.invoke(app, ["render", RALLY1, "--scale", "real", "-o", str(out)])
    assert res.exit_code == 0, res.output
    pages = sorted(tmp_path.glob("map-*.svg"), key=lambda p: int(p.stem.rpartition("-")[2]))
    assert len(pages) > 1 and not out.exists()
    first = ET.parse(pages[0]).getroot()
    assert "assembly" in "".join(first.itertext()) and first.find(f".//{SVG}g[@id='page-grid']") is not None
    for p in pages:
        root = ET.parse(p).getroot()
        assert {root.get("width"), root.get("height")} == {"210.00mm", "297.00mm"}
    res = runner.invoke(app, ["render", RALLY1, "--scale", "real"])
    assert res.exit_code == 2 and "-o" in res.output


def test_roadbook(tmp_path: Path):
    out = tmp_path / "book.svg"
    res = runner.invoke(app, ["render", RALLY1, "--roadbook", "-o", str(out)])
    assert res.exit_code == 0, res.output
    pages = sorted(tmp_path.glob("book-*.svg"))
    text = "".join(p.read_text(encoding="utf-8") for p in pages)
    assert len(pages) > 1 and "Pacenotes" in text and "Stage SS1" in text and "Stage SS3" in text
    for p in pages:  # --page honoured: every page is A4
        root = ET.parse(p).getroot()
        assert (root.get("width"), root.get("height")) == ("210.00mm", "297.00mm")


def test_unknown_stage_is_a_usage_error():
    res = runner.invoke(app, ["render", RALLY1, "--stage", "SS9"])
    assert res.exit_code == 2
    assert "no stage named `SS9`" in res.output and "SS1" in res.output


def test_missing_file_is_a_usage_error(tmp_path: Path):
    res = runner.invoke(app, ["render", str(tmp_path / "nope.rally")])
    assert res.exit_code == 2 and "no such file" in res.output


def test_file_with_errors_prints_diagnostics_and_writes_nothing(tmp_path: Path):
    bad = tmp_path / "bad.rally"
    bad.write_text('stage S1 {\n  202a\n  999z\n  203a\n}\n', encoding="utf-8")
    out = tmp_path / "out.svg"
    out.write_text("keep me", encoding="utf-8")
    res = runner.invoke(app, ["render", str(bad), "-o", str(out)])
    assert res.exit_code == 1
    assert "bad.rally:3:3: error[RC131]: `999z` is not a tile id" in res.output
    assert "1 error(s)" in res.output
    assert out.read_text(encoding="utf-8") == "keep me"  # nothing the user had is lost


def test_unwritable_output_is_an_io_error(tmp_path: Path):
    res = runner.invoke(app, ["render", RALLY1, "-o", str(tmp_path / "no" / "such" / "dir.svg")])
    assert res.exit_code == 2 and "cannot write" in res.output


GAME = str(ROOT / "examples" / "games" / "rally-5-ss1-jump-water.json")
RALLY5 = str(ROOT / "examples" / "rally-5.rally")


def test_record_overlay_draws_the_cars_of_a_replayed_round(tmp_path: Path):
    """The overlay shows what the rules interpreter's replay computed (CORE-MOVE: car, space, gear)."""
    from rallyc.records.load import load_record
    from rallyc.records.replay import replay_record

    report = replay_record(load_record(GAME), Path(GAME).parent)
    turns = [t for r in report.stages[0]["rounds"] if r["round"] <= 3 for t in r["turns"]]
    expected = {t["player"]: t for t in turns}
    out = tmp_path / "r3.svg"
    res = runner.invoke(app, ["render", RALLY5, "--record", GAME, "--round", "3", "-o", str(out)])
    assert res.exit_code == 0, res.output
    root = ET.parse(out).getroot()
    cars = {g.get("data-space"): g for g in root.iter(f"{SVG}g") if g.get("class") == "car"}
    assert sorted(cars) == sorted(t["end"] for t in expected.values())
    for t in expected.values():
        texts = [e.text for e in cars[t["end"]].iter(f"{SVG}text")]
        assert texts == [t["player"][0].upper() + str(t["gear"])]  # the driver's letter and gear
        assert cars[t["end"]].get("data-name") == t["player"]
        key = [e.text for e in root.iter(f"{SVG}text") if e.get("class") == "standings-row"]
        assert any(row.startswith(f"{t['player'][0].upper()}  {t['player']}   gear {t['gear']}") for row in key)
    assert "after round 3" in root.find(f"{SVG}title").text


def test_record_overlay_rejects_a_round_that_was_not_played():
    res = runner.invoke(app, ["render", RALLY5, "--record", GAME, "--round", "999"])
    assert res.exit_code == 2 and "rounds 1 to" in res.output
    res = runner.invoke(app, ["render", RALLY5, "--round", "2"])
    assert res.exit_code == 2 and "--record" in res.output


def test_record_of_another_stage_is_refused():
    res = runner.invoke(app, ["render", RALLY5, "--stage", "SS2", "--record", GAME])
    assert res.exit_code == 2 and "no stage SS2" in res.output


def test_record_of_another_design_is_refused():
    res = runner.invoke(app, ["render", RALLY1, "--record", GAME])
    assert res.exit_code == 2 and 'played on "Rally 5"' in res.output
