"""``rallyc.render.svgtext``: the SVG text of a drawing is exactly what svgwrite's ``tostring`` writes,
and the maps take the direct way (no fallback) for every element they use."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import svgwrite

from rallyc.project import loader as project
from rallyc.compilation.pipeline import compile_loaded
from rallyc.render import svgtext
from rallyc.render.document import new_drawing
from rallyc.render.legend import draw_legend, layout_legend, map_features
from rallyc.render.scene import Box, CarMark, build_scene
from rallyc.tiles.catalogue import Catalogue

ROOT = Path(__file__).resolve().parent.parent


def _direct(dwg: svgwrite.Drawing) -> str:
    out: list[str] = []
    svgtext._drawing(dwg, out)   # raises _Unknown where it would fall back
    return "".join(out)


@pytest.mark.parametrize("stem", ["rally-1", "rx-1", "auto-tour-1"])
def test_a_map_is_written_directly_and_as_svgwrite_writes_it(stem):
    loaded = project.load(ROOT / "examples" / f"{stem}.rally")
    catalogue = Catalogue.from_tilesets(loaded.tilesets)
    track = compile_loaded(loaded).designs[0].tracks[0]
    spaces = sorted(track.spaces)
    cars = [CarMark("red", spaces[0], 2, tuple(spaces[:3]), "Ann <&> \"x\""), CarMark("#123456", spaces[-1], None)]
    dwg = new_drawing(210.0, 297.0, Box(0, 0, 210, 297))
    dwg.add(svgwrite.base.Title("a title with <, & and \" in it"))
    scene = build_scene(track, catalogue, dwg=dwg, cars=cars)
    dwg.add(scene.group)
    dwg.add(draw_legend(dwg, layout_legend(map_features(track, catalogue, True), 180.0), (10.0, 250.0), 1.0))
    text = _direct(dwg)
    assert text == dwg.tostring()
    assert svgtext.svg_text(dwg) == text


def test_an_element_it_does_not_know_falls_back_to_svgwrite():
    dwg = svgwrite.Drawing(profile="full", debug=False)
    dwg.add(dwg.line((0, 0), (math.pi, 1)))
    dwg.add(dwg.style("circle { fill: red }"))
    with pytest.raises(svgtext._Unknown):
        _direct(dwg)
    assert svgtext.svg_text(dwg) == dwg.tostring()
