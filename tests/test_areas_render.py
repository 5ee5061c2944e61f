"""`rallyc render` on a rally area: the whole area with a route line per stage, and each stage alone."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from typer.testing import CliRunner

from rallyc.commands.cli import app
from rallyc.compilation.pipeline import compile_loaded
from rallyc.project.loader import load

ROOT = Path(__file__).resolve().parent.parent
AREA_1 = str(ROOT / "examples" / "area-1.rally")
SVG = "{http://www.w3.org/2000/svg}"
runner = CliRunner()


def _svg(path: Path) -> ET.Element:
    return ET.fromstring(path.read_bytes())


def test_area_map_draws_every_tile_and_every_route(tmp_path: Path):
    out = tmp_path / "area.svg"
    res = runner.invoke(app, ["render", AREA_1, "--stage", "Col des Mines", "-o", str(out)])
    assert res.exit_code == 0, res.output
    root = _svg(out)
    routes = [e for e in root.iter(f"{SVG}path") if e.get("class") == "route"]
    assert [e.get("data-stage") for e in routes] == ["SS1", "SS2"]
    assert routes[0].get("stroke") != routes[1].get("stroke")
    cells = {(e.get("data-q"), e.get("data-r")) for e in root.iter(f"{SVG}path") if e.get("class") == "hex"}
    (area,) = compile_loaded(load(AREA_1)).areas
    assert {(str(p.q), str(p.r)) for p in area.placed} <= cells and len(cells) == 17
    keys = [e.text for e in root.iter(f"{SVG}text") if e.get("class") == "route-key"]
    assert keys == ["SS1 Left at the Y: 10 tiles (Short)", "SS2 Right at the Y: 10 tiles (Short)"]  # as `rallyc stats` says
    # element ids stay unique although the stages share tiles
    ids = [e.get("id") for e in root.iter() if e.get("id")]
    assert len(ids) == len(set(ids))
    again = tmp_path / "again.svg"
    runner.invoke(app, ["render", AREA_1, "--stage", "Col des Mines", "-o", str(again)])
    assert again.read_bytes() == out.read_bytes()


def test_one_stage_of_the_area_alone(tmp_path: Path):
    out = tmp_path / "ss2.svg"
    res = runner.invoke(app, ["render", AREA_1, "--stage", "SS2", "-o", str(out)])
    assert res.exit_code == 0, res.output
    hexes = [e for e in _svg(out).iter(f"{SVG}path") if e.get("class") == "hex"]
    assert sorted(e.get("data-tile") for e in hexes) == sorted(
        ["202a", "205a", "206a", "415b", "305a", "218a", "303a", "221a", "304a", "302a"])


def test_area_map_refuses_what_it_cannot_draw(tmp_path: Path):
    res = runner.invoke(app, ["render", AREA_1, "--stage", "Col des Mines", "--page", "a4",
                              "-o", str(tmp_path / "x.svg")])
    assert res.exit_code == 2 and "--page" in res.output
    assert not (tmp_path / "x.svg").exists()
    res = runner.invoke(app, ["render", AREA_1, "--stage", "Col des Mines", "--roadbook",
                              "-o", str(tmp_path / "rb.svg")])
    assert res.exit_code == 0, res.output
