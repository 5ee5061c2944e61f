"""``rallyc tiles list`` and ``rallyc tiles show`` (exit codes 0 / 1 / 2, deterministic output)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from typer.testing import CliRunner

from rallyc.commands.cli import app
from rallyc.tiles.catalogue import BOX_TITLES, Catalogue, box_of
from rallyc.project.loader import bundled_tilesets

runner = CliRunner()
SVG = "{http://www.w3.org/2000/svg}"


def run(*args: str):
    return runner.invoke(app, list(args))


def test_list_json_has_every_tile_in_a_fixed_order():
    """TRACK-TILE-01: every bundled side, sorted by number then side, same bytes every run."""
    first = run("tiles", "list", "--format", "json")
    assert first.exit_code == 0, first.output
    rows = json.loads(first.stdout)
    assert len(rows) == 271
    assert [r["id"] for r in rows][:3] == ["101", "102a", "102b"]
    assert [r["id"] for r in rows] == sorted(r["id"] for r in rows)
    row = next(r for r in rows if r["id"] == "217b")
    assert row == {"id": "217b", "box": "dirt-core", "surface": "gravel", "danger": "low", "copies": 1,
                   "roads": ["B->D left60 3 zones limits 2,3 cut3"]}
    assert run("tiles", "list", "--format", "json").stdout == first.stdout


def test_list_one_box_as_text():
    result = run("tiles", "list", "--box", "dirt-the-climb")
    assert result.exit_code == 0
    ids = [line.split()[0] for line in result.stdout.splitlines()]
    assert ids == ["325a", "325b", "326a", "326b", "418a", "418b", "419a", "419b"]
    assert "dirt-the-climb" in result.stdout and "high" in result.stdout


def test_list_unknown_box_is_a_usage_error():
    result = run("tiles", "list", "--box", "dirt-cor")
    assert result.exit_code == 2
    assert "no box named `dirt-cor`" in result.stderr and "dirt-core" in result.stderr


def test_show_prints_the_roads_zones_and_features():
    """CORE-CORNER / CORE-SHORTCUT: 217b shows its corner limits and the shortcut."""
    result = run("tiles", "show", "217B")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "217b  gravel, danger low, 1 copy (box dirt-core)",
        "  road 1: B -> D left60, 2 lanes",
        "    zone 1: slide",
        "    zone 2: corner: inside 2 / outside 3 3 3",
        "    zone 3: slide",
        "    shortcut: limit 3, from zone 1 to zone 3",
    ]


def test_show_start_line_jump_and_fork():
    assert "-- start line after zone 2" in run("tiles", "show", "202a").stdout
    assert "zone 2: plain, jump 4" in run("tiles", "show", "205b").stdout
    out = run("tiles", "show", "402a").stdout
    assert "road 3: F -> A left120" in out and "entered across limit line 2" in out


def test_show_unknown_tile_exits_1_with_did_you_mean():
    result = run("tiles", "show", "217c")
    assert result.exit_code == 1
    assert "unknown tile `217c`" in result.stderr and "217a" in result.stderr
    assert result.stdout == ""


def test_show_svg(tmp_path):
    """With -o the tile is drawn: an SVG with one labelled outline per space of 217a (slide, corner
    inside 2 / outside 3 3 3, slide; no shortcut on this side)."""
    out = tmp_path / "217a.svg"
    result = run("tiles", "show", "217a", "-o", str(out))
    assert result.exit_code == 0, result.output
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    labels = sorted(e.text for e in root.iter(f"{SVG}text") if e.get("class") == "space-id")
    assert labels == sorted(["1.1.l", "1.1.r", "1.1.s1", "1.1.s2", "1.2.in1", "1.2.out1", "1.2.out2",
                             "1.2.out3", "1.3.l", "1.3.r", "1.3.s1", "1.3.s2"])


def test_a_project_tileset_replaces_the_bundled_one(tmp_path):
    """A user corrects a tile in a file of their own: `tileset dirt-core {...}` replaces that tile of the bundled box."""
    (tmp_path / "my-tiles.rally").write_text(
        'tileset dirt-core "my corrected core box" {\n'
        "  tile 217a gravel danger high copies 2 {\n"
        "    road B -> D left60 {\n      slide\n      corner inside 1 outside 2 2\n      slide\n    }\n  }\n}\n",
        encoding="utf-8")
    (tmp_path / "rally.rally").write_text('use "my-tiles.rally"\n', encoding="utf-8")
    result = run("tiles", "show", "217a", "--file", str(tmp_path / "rally.rally"))
    assert result.exit_code == 0, result.output
    assert "danger high, 2 copies" in result.stdout and "inside 1 / outside 2 2" in result.stdout
    # only that tile is replaced: the other tiles of the bundled box stay as they were
    other = run("tiles", "show", "218a", "--file", str(tmp_path / "rally.rally"))
    assert other.exit_code == 0, other.output
    assert "danger medium" in other.stdout


def test_box_of_and_titles():
    assert box_of(217) == "dirt-core"
    assert box_of("418b") == "dirt-the-climb"
    assert box_of("901a") == "gt-adrenaline"
    assert box_of("filler1a") == "scenery"
    assert box_of("999") is None
    catalogue = Catalogue.from_tilesets(bundled_tilesets())
    for tile in catalogue:
        assert box_of(tile.id) == tile.box, tile.id
    assert sorted(BOX_TITLES) == catalogue.boxes()
    assert all(catalogue.box_title(b) == BOX_TITLES[b] for b in catalogue.boxes())


@pytest.mark.parametrize("tile_id", ["101", "201a", "407a", "414a", "902a"])
def test_describe_every_shape(tile_id):
    tile = Catalogue.from_tilesets(bundled_tilesets()).get(tile_id)
    text = tile.describe()
    assert text.startswith(tile_id + "  ") and text.endswith("\n")
    assert text.count("  road ") == len(tile.roads)


def test_show_says_which_way_each_corner_of_a_double_hairpin_turns():
    """CORE-CORNER-03: 215a's two corners are separate, the first a right-hander, the second a left-hander."""
    lines = run("tiles", "show", "215a").stdout.splitlines()
    assert "    zone 2: corner (right-hander): inside 1 / outside 2 2 2" in lines
    assert "    zone 4: corner (left-hander): inside 1 / outside 2 2 2" in lines
