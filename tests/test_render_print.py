"""The maps as a player prints them: each "what was seen" of issue 13 measured on the SVG.

Every published stage and circuit in examples/ is drawn on A4 and measured with
``rallyc.render.measure``: text sizes in points at print size, every label's box against every
road polygon, the edge-A mark of every tile, the legend, the page orientation.
"""

from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path

import pytest

from rallyc.project import loader as project
from rallyc.compilation.pipeline import compile_loaded
from rallyc.render.document import MapOptions, render_map
from rallyc.render.geometry import HexLayout
from rallyc.render.measure import PT_MM, boxes_cross_polygon, measure, parse_path, rect_hits_polygon
from rallyc.tiles.catalogue import Catalogue

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.rally"))
SVG = "{http://www.w3.org/2000/svg}"
#: texts that belong on their space (they mark it): limit digits, chicanes, jumps, tokens, the cars
ON_SPACE = {"limit", "chicane", "jump", "token", "car"}


@lru_cache(maxsize=None)
def _designs(path: Path):
    loaded = project.load(path)
    result = compile_loaded(loaded)
    return result.designs, Catalogue.from_tilesets(loaded.tilesets)


def _maps() -> list[tuple[str, Path, str]]:
    out = []
    for path in EXAMPLES:
        designs, _ = _designs(path)
        for design in designs:
            for track in design.tracks:
                out.append((f"{path.stem}:{track.name}", path, track.name))
    return out


MAPS = _maps()
assert len(MAPS) == 28, len(MAPS)  # the 26 published stages and circuits, and the 2 stages of our area-1


def _track(path: Path, name: str):
    designs, catalogue = _designs(path)
    for design in designs:
        for track in design.tracks:
            if track.name == name:
                return design, track, catalogue
    raise KeyError(name)


@lru_cache(maxsize=None)
def _a4(path: Path, name: str, landscape: bool | None = None, scenery: bool = True) -> str:
    design, track, catalogue = _track(path, name)
    return render_map(track, catalogue, title=design.title, author=design.author,
                      options=MapOptions(page="a4", landscape=landscape, scenery=scenery))[0]


@pytest.mark.parametrize("key,path,name", MAPS, ids=[m[0] for m in MAPS])
def test_every_text_prints_at_6_pt_or_more(key, path, name):
    m = measure(_a4(path, name))
    assert abs(m.width_mm * m.height_mm - 210 * 297) < 1
    small = [(t.text, round(t.size_pt, 2), t.classes) for t in m.texts if t.size_pt < 6.0]
    assert not small


@pytest.mark.parametrize("key,path,name", MAPS, ids=[m[0] for m in MAPS])
def test_no_label_on_the_road_and_none_cut_off(key, path, name):
    """Tile ids, step numbers, the Assistance label, line words, standee words, edge-A letters, title and
    legend: none shares area with a road polygon, none runs off the page, no two labels overlap."""
    m = measure(_a4(path, name))
    labels = [t for t in m.texts if not ON_SPACE & set(t.classes)]
    assert len(labels) > 20 and m.roads
    assert not [(t.text, t.classes[:2]) for t in boxes_cross_polygon(labels, m.roads)]
    vb = [float(v) for v in m.root.get("viewBox").split()]
    outside = [t.text for t in m.texts if t.x0 < vb[0] or t.y0 < vb[1] or t.x1 > vb[0] + vb[2] or t.y1 > vb[1] + vb[3]]
    assert not outside
    tile_labels = [t for t in labels if {"tile-label", "step-label", "edge-a", "line-word", "standee-word",
                                         "assistance-label"} & set(t.classes)]
    clashes = [(a.text, b.text) for i, a in enumerate(tile_labels) for b in tile_labels[i + 1:] if a.overlaps(b)]
    assert not clashes


@pytest.mark.parametrize("key,path,name", MAPS, ids=[m[0] for m in MAPS])
def test_every_tile_shows_its_edge_a_above_the_road(key, path, name):
    """A bar on each road tile's printed edge A, drawn in the label layer (after the roads), and an ``A``
    beside it where there is room off the road (most tiles); else an arrow to edge A in the step label."""
    design, track, catalogue = _track(path, name)
    m = measure(_a4(path, name))
    layers = [g.get("id") for g in m.root.iter(f"{SVG}g") if g.get("id")]
    assert layers.index("labels") > layers.index("roads")
    labels = next(g for g in m.root.iter(f"{SVG}g") if g.get("id") == "labels")
    bars = [parse_path(e.get("d")) for e in labels.iter(f"{SVG}path") if e.get("class") == "edge-a-bar"]
    layout = HexLayout(200.0 / math.sqrt(3))
    cells = {(p.q, p.r, p.tile): p for p in track.placed if not p.scenery}
    assert len(bars) == len(cells)
    for p in cells.values():
        a, b = layout.corner(p.q, p.r, (p.rot - 1) % 6), layout.corner(p.q, p.r, p.rot)
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        assert any(math.dist(((x0 + x1) / 2, (y0 + y1) / 2), mid) < 0.5 for (x0, y0), (x1, y1) in bars), p
    letters = [t for t in m.texts if "edge-a" in t.classes]
    arrows = [t for t in m.texts if "step-label" in t.classes and any(a in t.text for a in "\u2191\u2197\u2198\u2193\u2199\u2196")]
    assert len(letters) + len(arrows) == len(cells)
    assert len(letters) >= 0.75 * len(cells)


@pytest.mark.parametrize("key,path,name", MAPS, ids=[m[0] for m in MAPS])
def test_the_page_orientation_prints_the_map_larger(key, path, name):
    chosen = measure(_a4(path, name)).scale
    assert chosen >= measure(_a4(path, name, False)).scale - 1e-9
    assert chosen >= measure(_a4(path, name, True)).scale - 1e-9


def test_some_maps_print_larger_in_landscape():
    turned = [key for key, path, name in MAPS if measure(_a4(path, name)).width_mm > 250]
    assert turned and len(turned) < len(MAPS)


def test_scenery_can_be_left_out_and_the_map_prints_larger():
    path = ROOT / "examples" / "rally-1.rally"
    with_scenery = measure(_a4(path, "SS3"))
    without = measure(_a4(path, "SS3", None, False))
    assert without.scale > with_scenery.scale * 1.05
    assert not any("scenery" in t.text for t in without.texts)
    assert any("scenery" in t.text for t in with_scenery.texts)


@pytest.mark.parametrize("name,wanted", [
    ("rally-1.rally", {"speed limit", "slide zone", "jump (gear)", "driving direction", "tile edge A", "start line",
                       "finish line", "Assistance", "danger low", "medium", "high", "scenery (optional)"}),
    ("rx-1.rally", {"start / finish line", "Joker lap", "Pre-grid", "RX standee", "tile edge A", "jump (gear)"}),
])
def test_the_legend_lists_what_the_map_uses(name, wanted):
    path = ROOT / "examples" / name
    key = next(m for m in MAPS if m[1] == path)
    m = measure(_a4(path, key[2]))
    legend = {t.text for t in m.texts if "legend" in t.classes}
    missing = wanted - legend
    # Rally 1 SS1 has no jump: its legend must not list one
    if name == "rally-1.rally":
        missing.discard("jump (gear)")
        assert "jump (gear)" not in legend
    assert not missing


def test_start_and_finish_lines_look_different():
    svg = _a4(ROOT / "examples" / "rally-1.rally", "SS1")
    m = measure(svg)
    groups = {g.get("class"): g for g in m.root.iter(f"{SVG}g") if g.get("class") in ("start-line", "finish-line")}
    start_fills = {e.get("fill") for e in groups["start-line"].iter(f"{SVG}path")}
    finish_fills = {e.get("fill") for e in groups["finish-line"].iter(f"{SVG}path")}
    assert "#111111" in finish_fills and "#111111" not in start_fills


def test_danger_levels_differ_in_shape_as_well_as_colour():
    svg = _a4(ROOT / "examples" / "rally-1.rally", "SS1")
    m = measure(svg)
    shapes: dict[str, set[str]] = {}
    for e in m.root.iter():
        if e.get("class") == "signpost":
            kind = e.tag.rpartition("}")[2]
            points = len(parse_path(e.get("d"))) if kind == "path" else 0
            shapes.setdefault(e.get("data-danger"), set()).add(f"{kind}{points}")
    assert set(shapes) == {"low", "medium", "high"}
    assert all(len(s) == 1 for s in shapes.values())
    assert len({next(iter(s)) for s in shapes.values()}) == 3


def test_measure_sees_a_label_on_the_road():
    """The measurement itself can fail: a box across a road polygon is found, one beside it is not."""
    road = [(0.0, 0.0), (10.0, 0.0), (10.0, 4.0), (0.0, 4.0)]
    assert rect_hits_polygon(2, 1, 3, 2, road)        # inside
    assert rect_hits_polygon(-1, -1, 11, 5, road)     # around
    assert rect_hits_polygon(9, 3, 12, 6, road)       # across a corner
    assert not rect_hits_polygon(0, 5, 10, 6, road)   # beside
    assert abs(PT_MM - 0.3528) < 1e-3


def test_a_slide_zone_is_one_zone_with_one_dashed_line():
    """The two slide halves keep their outlines (one per space, for ids and the overlay) but are not drawn
    as boxes over the lanes; each slide zone shows one dashed line across the road between its halves."""
    design, track, catalogue = _track(ROOT / "examples" / "rally-1.rally", "SS1")
    m = measure(_a4(ROOT / "examples" / "rally-1.rally", "SS1"))
    zones = {(s.step, s.zone) for s in track.spaces.values() if s.kind == "slide"}
    assert zones
    lines = [e for e in m.root.iter(f"{SVG}path") if e.get("class") == "slide-line"]
    assert len(lines) == len(zones)
    assert all(e.get("stroke-dasharray") for e in lines)
    halves = [e for e in m.root.iter(f"{SVG}path") if e.get("class") == "space slide"]
    assert len(halves) == 2 * len(zones) and all(e.get("stroke") == "none" for e in halves)
