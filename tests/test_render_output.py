"""Printing many pages: real scale (assembly page, no empty page, tile numbers on every page), the road
book on real pages, one PDF with stable bytes, PNG by content, and pages of an earlier run."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from PIL import Image
from typer.testing import CliRunner

from rallyc.project import loader as project
from rallyc.commands.cli import app
from rallyc.compilation.pipeline import compile_loaded
from rallyc.render.document import MapOptions, render_map
from rallyc.render.measure import measure, parse_path, rect_hits_polygon
from rallyc.render.roadbook import pacenotes, render_roadbook
from rallyc.tiles.catalogue import Catalogue

ROOT = Path(__file__).resolve().parent.parent
RALLY1 = ROOT / "examples" / "rally-1.rally"
SVG = "{http://www.w3.org/2000/svg}"
runner = CliRunner()


def _design(path: Path):
    loaded = project.load(path)
    result = compile_loaded(loaded)
    return result.designs[0], Catalogue.from_tilesets(loaded.tilesets)


def _real_pages():
    design, catalogue = _design(RALLY1)
    track = design.track("SS1")
    return track, render_map(track, catalogue, title=design.title, author=design.author,
                             options=MapOptions(page="a4", scale="real"))


def _window(root: ET.Element) -> tuple[float, float, float, float]:
    rect = root.find(f"{SVG}defs/{SVG}clipPath/{SVG}rect")
    x, y = float(rect.get("x")), float(rect.get("y"))
    return x, y, x + float(rect.get("width")), y + float(rect.get("height"))


def test_real_scale_has_an_assembly_page_first_and_no_page_without_road():
    track, pages = _real_pages()
    assembly = ET.fromstring(pages[0])
    grid = assembly.find(f".//{SVG}g[@id='page-grid']")
    assert grid is not None and assembly.find(f".//{SVG}g[@id='legend']") is not None
    numbers = [e.text for e in grid.iter(f"{SVG}text")]
    assert numbers == [str(n) for n in range(1, len(pages))]
    for svg in pages[1:]:
        m = measure(svg)
        x0, y0, x1, y1 = _window(m.root)
        assert any(rect_hits_polygon(x0, y0, x1, y1, road) for road in m.roads), "a page with no road on it"
        assert not [e for e in m.root.iter(f"{SVG}g") if e.get("id") == "legend"]  # legend: assembly page only


def test_every_real_page_names_each_tile_it_shows():
    """A tile whose hexagon shows on a page has its number on that page: its own label, or a repeat."""
    track, pages = _real_pages()
    for svg in pages[1:]:
        m = measure(svg)
        x0, y0, x1, y1 = _window(m.root)
        shown = set()
        for e in m.root.iter(f"{SVG}path"):
            if e.get("class") == "hex" and not e.get("id", "").startswith("scenery"):
                hexagon = parse_path(e.get("d"))
                # more than a sliver of the tile on the page
                inner = (x0 + 25, y0 + 25, x1 - 25, y1 - 25)
                if rect_hits_polygon(*inner, hexagon):
                    shown.add(e.get("data-tile"))
        named = {t.text.split()[0] for t in m.texts if "tile-label" in t.classes
                 and x0 <= t.x0 and t.x1 <= x1 and y0 <= t.y0 and t.y1 <= y1}
        assert shown <= named, (shown - named)


def test_overlap_notes_are_written_in_the_margins():
    track, pages = _real_pages()
    for svg in pages[1:]:
        m = measure(svg)
        x0, y0, x1, y1 = _window(m.root)
        notes = [t for t in m.texts if "overlap-note" in t.classes or "page-label" in t.classes]
        assert notes
        for t in notes:
            assert t.y1 <= y0 or t.y0 >= y1, t.text  # above or below the printed map, never on it


def test_pdf_holds_assembly_real_pages_and_road_book_with_the_same_bytes_twice(tmp_path: Path):
    out = tmp_path / "ss1.pdf"
    args = ["render", str(RALLY1), "--stage", "SS1", "--scale", "real", "--format", "pdf", "-o", str(out)]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    first = out.read_bytes()
    assert first.startswith(b"%PDF")
    track, pages = _real_pages()
    design, catalogue = _design(RALLY1)
    book = render_roadbook([track], catalogue, title=design.title)
    count = int(re.search(rb"/Type /Pages\s*/Kids \[[^\]]*\]\s*/Count (\d+)", first).group(1))
    assert count == len(pages) + len(book)
    assert b"20000101000000" in first  # the fixed creation date, not today
    res = runner.invoke(app, args)
    assert res.exit_code == 0 and out.read_bytes() == first


def test_png_is_compared_by_content():
    res = runner.invoke(app, ["render", str(RALLY1), "--page", "a4", "--format", "png"])
    assert res.exit_code == 0, res.output
    img = Image.open(io.BytesIO(res.stdout_bytes)).convert("RGB")
    assert img.size[0] < img.size[1]  # Rally 1 SS1 prints portrait
    colours = dict((c, n) for n, c in img.getcolors(maxcolors=1 << 22))
    white = colours.get((255, 255, 255), 0)
    assert 0.2 < white / (img.size[0] * img.size[1]) < 0.9  # a page with a map on it
    assert any(r > 200 and g < 60 and b < 60 for (r, g, b) in colours)  # the red of speed limits


def test_missing_cairosvg_is_a_clear_usage_error(monkeypatch, tmp_path: Path):
    import rallyc.render.export as export

    def missing():
        raise export.ExportUnavailable(export.MISSING)

    monkeypatch.setattr(export, "_cairo", missing)
    out = tmp_path / "m.pdf"
    res = runner.invoke(app, ["render", str(RALLY1), "--format", "pdf", "-o", str(out)])
    assert res.exit_code == 2 and "pip install 'rallyc[pdf]'" in res.output and not out.exists()
    assert "Traceback" not in res.output


def test_a_later_run_with_fewer_pages_removes_only_the_pages_it_wrote(tmp_path: Path):
    out = tmp_path / "map.svg"
    mine = tmp_path / "map-99.svg"
    mine.write_text("the user's own file", encoding="utf-8")
    res = runner.invoke(app, ["render", str(RALLY1), "--scale", "real", "--tile-mm", "300", "-o", str(out)])
    assert res.exit_code == 0, res.output
    many = sorted(tmp_path.glob("map-*.svg"))
    res = runner.invoke(app, ["render", str(RALLY1), "--scale", "real", "--tile-mm", "100", "-o", str(out)])
    assert res.exit_code == 0, res.output
    few = sorted(tmp_path.glob("map-*.svg"))
    assert len(few) < len(many)
    numbers = sorted(int(p.stem.rpartition("-")[2]) for p in few if p != mine)
    assert numbers == list(range(1, len(numbers) + 1))  # no stale page of the first run is left
    assert mine.read_text(encoding="utf-8") == "the user's own file"  # never written by rallyc: kept
    res = runner.invoke(app, ["render", str(RALLY1), "-o", str(out)])  # one page: the list goes too
    assert res.exit_code == 0 and out.exists()
    assert sorted(tmp_path.glob("map-*.svg")) == [mine]
    assert not (tmp_path / ".map.pages").exists()


def test_road_book_names_s_bends_rotations_and_hides_internal_ids():
    design, catalogue = _design(ROOT / "examples" / "rally-4.rally")
    notes = pacenotes(design.tracks[0], catalogue)
    assert [n[2] for n in notes if n[1] == "214a"] == ["S-bend"]
    for _, _, _, text in notes:
        assert not re.search(r"\((?:j|w|l|r|in\d|out\d)\)", text), text
    pages = render_roadbook(design.tracks, catalogue, title=design.title, page="a4")
    texts = [e.text or "" for svg in pages for e in ET.fromstring(svg).iter(f"{SVG}text")]
    assert any("rot " in t and ": A " in t for t in texts)
    thumbs = [g for svg in pages for g in ET.fromstring(svg).iter(f"{SVG}g") if g.get("class") == "thumbnail"]
    assert len(thumbs) == sum(len(t.steps) for t in design.tracks)


def test_road_book_marks_scenery_optional_and_needs_only_the_core_box():
    design, catalogue = _design(RALLY1)
    pages = render_roadbook([design.track("SS1")], catalogue, title=design.title)
    texts = [e.text or "" for svg in pages for e in ET.fromstring(svg).iter(f"{SVG}text")]
    assert any(t.startswith("Boxes needed: dirt-core (scenery only, optional") for t in texts)
    assert any("901a" in t and "(scenery, optional)" in t for t in texts)


def test_road_book_of_a_circuit_gives_laps_joker_and_pre_grid():
    design, catalogue = _design(ROOT / "examples" / "rx-1.rally")
    pages = render_roadbook(design.tracks, catalogue, title=design.title, page="letter", landscape=True)
    root = ET.fromstring(pages[0])
    assert (root.get("width"), root.get("height")) == ("279.40mm", "215.90mm")
    info = next(e.text for e in root.iter(f"{SVG}text") if e.get("class") == "roadbook-info")
    assert info.startswith("3 laps; Joker lap on steps #2, #5, #11; Pre-grid on steps #") and "#12" in info
