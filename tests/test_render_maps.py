"""Rendering the published designs: one hexagon per tile, one outline per space, limits as printed.

Covers TRACK-TILE (tiles, spaces and speed limits as printed on the map) through the compiled graph.
"""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from pathlib import Path

import cairosvg  # a test extra: the PNG check below always runs
import pytest
from PIL import Image  # installed with cairosvg

from rallyc.project import loader as project
from rallyc.compilation.pipeline import compile_loaded
from rallyc.diagnostics import has_errors
from rallyc.render.document import MapOptions, render_map
from rallyc.render.roadbook import pacenotes, render_roadbook, tile_needs, turn_name
from rallyc.tiles.catalogue import Catalogue

from helpers.render import mini_track

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.rally"))
assert len(EXAMPLES) == 13, EXAMPLES  # the parametrized test below never runs on an empty list
SVG = "{http://www.w3.org/2000/svg}"


def _compiled(path: Path):
    loaded = project.load(path)
    result = compile_loaded(loaded)
    return result, Catalogue.from_tilesets(loaded.tilesets)


def _check_svg(text: str, track) -> ET.Element:
    root = ET.fromstring(text.encode("utf-8"))
    assert root.tag == f"{SVG}svg" and root.get("version") == "1.1"
    hexes = [e for e in root.iter(f"{SVG}path") if e.get("class") == "hex"]
    cells = {(p.q, p.r, p.tile) for p in track.placed}
    assert len(hexes) == len(cells)
    assert sorted((int(h.get("data-q")), int(h.get("data-r")), h.get("data-tile")) for h in hexes) == sorted(cells)
    outlines = [e.get("data-space") for e in root.iter(f"{SVG}path") if (e.get("class") or "").startswith("space")]
    assert sorted(outlines) == sorted(track.spaces)  # exactly one outline per space of the graph
    for e in root.iter(f"{SVG}path"):
        if (e.get("class") or "").startswith("space"):
            assert e.get("id") == f"space-{e.get('data-space')}"
    limits = {}
    for g in root.iter(f"{SVG}g"):
        if g.get("class") == "limit":
            assert g.get("data-space") not in limits
            limits[g.get("data-space")] = int(g.find(f"{SVG}text").text)
        elif g.get("class") == "limit limit-line":  # an RX fork's line: its number stands for these spaces'
            for sid in (g.get("data-spaces") or "").split():
                assert sid not in limits
                limits[sid] = int(g.find(f"{SVG}text").text)
    expected = {s.id: s.limit for s in track.spaces.values() if s.limit is not None}
    assert limits == expected
    return root


def test_hand_built_track_renders_every_space_and_limit():
    track = mini_track()
    catalogue = Catalogue.from_tilesets(project.bundled_tilesets())
    svg = render_map(track, catalogue, title="Mini", options=MapOptions())[0]
    root = _check_svg(svg, track)
    assert len([e for e in root.iter(f"{SVG}g") if e.get("class") == "start-line"]) == 1
    assert len([e for e in root.iter(f"{SVG}g") if e.get("class") == "finish-line"]) == 1
    dangers = {e.get("data-danger") for e in root.iter() if e.get("class") == "signpost"}
    assert dangers == {"low", "medium"}
    assert [e.get("data-space") for e in root.iter(f"{SVG}g") if e.get("class") == "jump"] == ["4.2.l", "4.2.r"]


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_every_example_renders(path: Path):
    result, catalogue = _compiled(path)
    assert not has_errors(result.diagnostics) and result.designs, [(d.code, d.message) for d in result.diagnostics]
    for design in result.designs:
        for track in design.tracks:
            svg = render_map(track, catalogue, title=design.title, author=design.author)[0]
            _check_svg(svg, track)


def test_rally_1_compiles_and_renders_all_stages():
    """The README example must always render (no skip)."""
    result, catalogue = _compiled(ROOT / "examples" / "rally-1.rally")
    assert not has_errors(result.diagnostics)
    design = result.designs[0]
    assert [t.name for t in design.tracks] == ["SS1", "SS2", "SS3"]
    for track in design.tracks:
        a = render_map(track, catalogue, title=design.title, author=design.author)[0]
        b = render_map(track, catalogue, title=design.title, author=design.author)[0]
        assert a == b  # deterministic
        _check_svg(a, track)


def test_committed_readme_example_is_up_to_date():
    result, catalogue = _compiled(ROOT / "examples" / "rally-1.rally")
    design = result.designs[0]
    svg = render_map(design.track("SS1"), catalogue, title=design.title, author=design.author,
                     stage_label="SS1")[0]
    committed = (ROOT / "examples" / "rally-1-ss1.svg").read_text(encoding="utf-8")
    assert committed == svg, (
        "examples/rally-1-ss1.svg is stale: run `rallyc render examples/rally-1.rally --stage SS1 "
        "-o examples/rally-1-ss1.svg` and commit it")


def test_text_from_the_track_file_stays_text():
    track = mini_track()
    svg = render_map(track, None, title='<script>alert("x")</script> & co', author="<b>me</b>")[0]
    root = ET.fromstring(svg.encode("utf-8"))
    assert not list(root.iter(f"{SVG}script"))
    assert "<script>" not in svg
    texts = [e.text for e in root.iter(f"{SVG}text")]
    assert '<script>alert("x")</script> & co' in texts
    assert "by <b>me</b>" in texts


def test_page_fit_sizes_the_svg_in_millimetres():
    track = mini_track()
    svg = render_map(track, None, title="t", options=MapOptions(page="a4", landscape=False))[0]
    root = ET.fromstring(svg)
    assert (root.get("width"), root.get("height")) == ("210.00mm", "297.00mm")
    svg = render_map(track, None, title="t", options=MapOptions(page="a4"))[0]  # a wide map: turned
    root = ET.fromstring(svg)
    assert (root.get("width"), root.get("height")) == ("297.00mm", "210.00mm")
    svg = render_map(track, None, title="t", options=MapOptions(page="letter", landscape=True))[0]
    root = ET.fromstring(svg)
    assert (root.get("width"), root.get("height")) == ("279.40mm", "215.90mm")


def test_real_scale_splits_into_overlapping_pages():
    track = mini_track()
    pages = render_map(track, None, title="t", options=MapOptions(page="a4", scale="real", tile_mm=200))
    assembly, pages = pages[0], pages[1:]
    assert len(pages) > 1
    assert ET.fromstring(assembly).find(f".//{SVG}g[@id='page-grid']") is not None
    boxes = []
    for n, svg in enumerate(pages, start=1):
        root = ET.fromstring(svg)
        pw, ph = float(root.get("width")[:-2]), float(root.get("height")[:-2])
        assert {pw, ph} == {210.0, 297.0}
        x, y, w, h = map(float, root.get("viewBox").split())
        assert (w, h) == (pw, ph)  # 1:1: one model millimetre per paper millimetre
        boxes.append((x, y, pw))
        label = next(e.text for e in root.iter(f"{SVG}text") if e.get("class") == "page-label")
        assert f"page {n} of {len(pages)}" in label
        assert any(e.get("class") == "overlap-mark" for e in root.iter(f"{SVG}path"))
        # every page still carries every space outline (clipped to its window)
        spaces = [e for e in root.iter(f"{SVG}path") if (e.get("class") or "").startswith("space")]
        assert len(spaces) == len(track.spaces)
    xs = sorted({x for x, _, _ in boxes})
    if len(xs) > 1:
        assert xs[1] - xs[0] == pytest.approx(boxes[0][2] - 20 - 15)  # printable width less the overlap


def test_svg_draws_as_png():
    """cairosvg (a test extra) must be able to draw the map: a PNG with ink on it."""
    track = mini_track()
    svg = render_map(track, None, title="t")[0]
    png = cairosvg.svg2png(bytestring=svg.encode("utf-8"), output_width=600)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(png)).convert("RGB")
    colours = img.getcolors(maxcolors=1 << 20)
    assert len(colours) > 20  # hexes, road, limits: not a blank page


def test_turn_names_from_world_edges():
    assert turn_name("D", "A") == "straight"
    assert turn_name("D", "B") == "right 60"
    assert turn_name("D", "F") == "left 60"
    assert turn_name("D", "C") == "right 120"
    assert turn_name("D", "E") == "left 120"
    assert turn_name("E", None) == "dead end"


def test_roadbook_lists_tiles_and_pacenotes():
    result, catalogue = _compiled(ROOT / "examples" / "rally-1.rally")
    design = result.designs[0]
    track = design.track("SS1")
    needs = {n.number: n for n in tile_needs(track, catalogue)}
    assert needs["210"].sides == ("210b",) and needs["210"].box == "dirt-core"
    assert not any(n.short for n in needs.values())
    notes = pacenotes(track)
    assert [n[0] for n in notes] == list(range(1, len(track.steps) + 1))
    hairpin = next(n for n in notes if n[1] == "210b")
    assert "corner in 1 / out 2,2" in hairpin[3]
    assert "START" in notes[0][3]
    pages = render_roadbook(design.tracks, catalogue, title=design.title, author=design.author)
    texts = " ".join(e.text or "" for svg in pages for e in ET.fromstring(svg).iter(f"{SVG}text"))
    assert "Stage SS3" in texts and "Boxes needed: dirt-core" in texts


TOKENS = '''rally "Tokens" by "test" {
  stage T1 {
    202a
    205a
    206a
    203a
    token water at 2.2.l
    token chicane limit 2 at 3.2.l
    token chicane at 3.2.r
    token haybale at 3.3.l
  }
}
'''


def test_tokens_are_drawn_on_their_spaces(tmp_path: Path):
    """TRACK-TOKEN-01/03: water and chicane tokens show on the spaces the compiler put them on."""
    f = tmp_path / "tokens.rally"
    f.write_text(TOKENS, encoding="utf-8")
    result, catalogue = _compiled(f)
    assert not has_errors(result.diagnostics), [str(d) for d in result.diagnostics]
    track = result.designs[0].tracks[0]
    svg = render_map(track, catalogue, title="Tokens")[0]
    root = _check_svg(svg, track)
    water = {e.get("data-space") for e in root.iter(f"{SVG}path") if e.get("class") == "water"}
    assert "2.2.l" in water
    chicanes = {g.get("data-space"): g.find(f"{SVG}text").text for g in root.iter(f"{SVG}g")
                if g.get("class") == "chicane"}
    assert chicanes == {"3.2.l": "2", "3.2.r": "C"}
    tokens = {e.get("data-space"): e.text for e in root.iter(f"{SVG}text") if e.get("class") == "token"}
    assert tokens == {"3.3.l": "haybale"}


@pytest.mark.parametrize("name,starts,finishes", [("rally-1.rally", 1, 1), ("rx-1.rally", 1, 1)])
def test_one_start_line_and_one_finish_line(name, starts, finishes):
    """TRACK-STAGE-07 TRACK-RX-04: a stage map shows its Starting Line once (RX 1: behind the Pre-grid's two
    rows of grid slots) and its finish line once."""
    result, catalogue = _compiled(ROOT / "examples" / name)
    design = result.designs[0]
    track = design.tracks[0]
    svg = render_map(track, catalogue, title=design.title)[0]
    root = ET.fromstring(svg)
    groups = [g.get("class") for g in root.iter("{http://www.w3.org/2000/svg}g")]
    assert groups.count("start-line") == starts and groups.count("finish-line") == finishes
