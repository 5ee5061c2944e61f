"""``render_tile_svg``: one tile, every space outlined and labelled with its id (for ``rallyc tiles show``)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from rallyc.project import loader as project
from rallyc.compiler.tile import tile_track
from rallyc.render.tile import render_tile_svg
from rallyc.tiles.catalogue import Catalogue

SVG = "{http://www.w3.org/2000/svg}"
CAT = Catalogue.from_tilesets(project.bundled_tilesets())


@pytest.mark.parametrize("tile_id", ["211b", "217a", "214b", "215b", "414b", "402a", "201a", "902a", "231a"])
def test_tile_shows_every_space_with_its_id(tile_id):
    info = CAT.get(tile_id)
    track = tile_track(info, CAT)
    svg = render_tile_svg(info, CAT)
    root = ET.fromstring(svg)
    outlines = [e.get("data-space") for e in root.iter(f"{SVG}path") if (e.get("class") or "").startswith("space")]
    assert sorted(outlines) == sorted(track.spaces)
    labels = [e.text for e in root.iter(f"{SVG}text") if e.get("class") == "space-id"]
    assert sorted(labels) == sorted(track.spaces)
    hexes = [e for e in root.iter(f"{SVG}path") if e.get("class") == "hex"]
    assert len(hexes) == 1
    assert tile_id in svg


def test_tile_spaces_match_the_tileset_definition():
    """211b: slide, corner inside 1 outside 2 2 2, slide, shortcut 2 (TRACK-TILE layout as written)."""
    info = CAT.get("211b")
    track = tile_track(info, CAT)
    assert sorted(track.spaces) == sorted([
        "1.1.l", "1.1.r", "1.1.s1", "1.1.s2", "1.2.in1", "1.2.out1", "1.2.out2", "1.2.out3",
        "1.3.l", "1.3.r", "1.3.s1", "1.3.s2", "1.cut1"])
    limits = {s.id: s.limit for s in track.spaces.values() if s.limit is not None}
    assert limits == {"1.2.in1": 1, "1.2.out1": 2, "1.2.out2": 2, "1.2.out3": 2, "1.cut1": 2}


def test_two_road_tile_numbers_spaces_by_road():
    info = CAT.get("414b")
    track = tile_track(info, CAT)
    assert {sid.split(".")[0] for sid in track.spaces} == {"1", "2"}


def test_every_bundled_tile_draws_one_outline_per_space():
    for info in CAT:
        track = tile_track(info, CAT)
        root = ET.fromstring(render_tile_svg(info, CAT))
        outlines = [e for e in root.iter(f"{SVG}path") if (e.get("class") or "").startswith("space")]
        assert len(outlines) == len(track.spaces), info.id
