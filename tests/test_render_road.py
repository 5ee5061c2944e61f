"""The road as printed (issue 13): shortcut strips, the 411a S-bend, the 401a/b checkered line and grid
bars, 214a told apart from 226a, fork and Y tiles drawn as one road surface.

Measured on the geometry the renderer draws (``track_shapes``) and on the SVG, with the bundled tiles
(``rallyc tiles show``) and the published stages and circuits in ``examples/``.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from functools import lru_cache
from pathlib import Path

import pytest

from rallyc.project import loader as project
from rallyc.compilation.pipeline import compile_loaded
from rallyc.render.document import MapOptions, render_map
from rallyc.render.geometry import HexLayout, Point
from rallyc.render.shapes import track_shapes
from rallyc.render.tile import TILE_MM, render_tile_svg, tile_track
from rallyc.tiles.catalogue import Catalogue

ROOT = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"
CAT = Catalogue.from_tilesets(project.bundled_tilesets())
LAYOUT = HexLayout(TILE_MM / math.sqrt(3))
R = LAYOUT.size
FORKS = ["402a", "404a", "408a", "415a", "415b"]


def _shapes(tile_id: str):
    track = tile_track(CAT.get(tile_id), CAT)
    return track, track_shapes(track, LAYOUT, CAT)


@lru_cache(maxsize=None)
def _published(stem: str):
    loaded = project.load(ROOT / "examples" / f"{stem}.rally")
    result = compile_loaded(loaded)
    catalogue = Catalogue.from_tilesets(loaded.tilesets)
    return [t for d in result.designs for t in d.tracks], catalogue


def _cross(p: Point, q: Point, a: Point, b: Point) -> bool:
    def orient(u, v, w):
        return (v[0] - u[0]) * (w[1] - u[1]) - (v[1] - u[1]) * (w[0] - u[0])
    d1, d2 = orient(a, b, p), orient(a, b, q)
    d3, d4 = orient(p, q, a), orient(p, q, b)
    return d1 * d2 < -1e-9 and d3 * d4 < -1e-9


def _simple(poly: list[Point]) -> bool:
    """No two non-adjacent edges of the closed polygon cross."""
    n = len(poly)
    edges = [(poly[i], poly[(i + 1) % n]) for i in range(n)]
    for i in range(n):
        for j in range(i + 2, n):
            if i == 0 and j == n - 1:
                continue
            if _cross(*edges[i], *edges[j]):
                return False
    return True


def _inside(p: Point, poly: list[Point]) -> bool:
    hit = False
    n = len(poly)
    for i in range(n):
        (x0, y0), (x1, y1) = poly[i], poly[(i + 1) % n]
        if (y0 > p[1]) != (y1 > p[1]) and p[0] < x0 + (p[1] - y0) * (x1 - x0) / (y1 - y0):
            hit = not hit
    return hit


def _gap(a: list[Point], b: list[Point]) -> float:
    return min(math.dist(p, q) for p in a for q in b)


# ---------------------------------------------------------------- shortcuts

SHORTCUT_TILES = sorted(t.id for t in CAT if any(r.shortcuts for r in t.definition.roads))


def test_the_shortcut_tiles_are_the_b_sides_with_a_printed_shortcut():
    assert {"211b", "214b", "215b", "217b", "224b", "226b"} <= set(SHORTCUT_TILES)


@pytest.mark.parametrize("tile_id", SHORTCUT_TILES)
def test_a_shortcut_is_a_simple_strip_off_the_lanes(tile_id):
    track, shapes = _shapes(tile_id)
    cuts = [s for s in shapes.spaces.values() if s.kind == "shortcut"]
    assert cuts, tile_id
    others = [s for s in shapes.spaces.values() if s.kind != "shortcut"]
    for cut in cuts:
        assert _simple(cut.outline), (tile_id, cut.id)   # 215b drew crossed outlines
        assert not any(_inside(o.label, cut.outline) for o in others), (tile_id, cut.id)
        assert not any(_inside(cut.label, r.centreline.band(0, 1, r.width / 2, -r.width / 2))
                       for r in shapes.roads), (tile_id, cut.id)


def test_224b_draws_its_two_shortcut_spaces_in_a_row_along_the_strip():
    """The art (shared/data/tile-layouts.tsv): the first space beside zone 1 and inside corner space #1, the
    second beside inside corner space #2 and zone 3, split where the line between the two inside corner
    spaces meets the strip; a car goes zone 1 -> cut1 -> cut2 -> zone 3."""
    track, shapes = _shapes("224b")
    first, second = sorted((s for s in shapes.spaces.values() if s.kind == "shortcut"), key=lambda s: s.id)
    g = track.graph
    assert g.has_edge(first.id, second.id) and not g.has_edge(second.id, first.id)
    assert {track.spaces[n].zone for n in g.predecessors(first.id)} == {1}
    assert {track.spaces[n].zone for n in g.successors(second.id)} == {3}
    inside = {s.lane: shapes.spaces[s.id].outline for s in track.spaces.values() if s.zone == 2 and s.method == "in"}
    zone = {z: [shapes.spaces[s.id].outline for s in track.spaces.values() if s.zone == z] for z in (1, 3)}
    near = 0.05 * R
    assert min(_gap(first.outline, o) for o in zone[1]) < near and _gap(first.outline, inside["in1"]) < near
    assert min(_gap(second.outline, o) for o in zone[3]) < near and _gap(second.outline, inside["in2"]) < near
    # each beside its own corner space: the first's middle nearer in1's, the second's nearer in2's
    mid = {s.lane: shapes.spaces[s.id].label for s in track.spaces.values() if s.zone == 2 and s.method == "in"}
    assert math.dist(first.label, mid["in1"]) < math.dist(first.label, mid["in2"])
    assert math.dist(second.label, mid["in2"]) < math.dist(second.label, mid["in1"])
    assert _simple(first.outline) and _simple(second.outline)
    assert not _inside(first.label, second.outline) and not _inside(second.label, first.outline)


@pytest.mark.parametrize("tile_id", ["214b", "217b", "226b"])
def test_a_shortcut_strip_runs_beside_the_zones_it_joins(tile_id):
    """From zone 1 to zone 3: the strip touches a space of zone 1 and a space of zone 3."""
    track, shapes = _shapes(tile_id)
    (cut,) = [s for s in shapes.spaces.values() if s.kind == "shortcut"]
    for zone in (1, 3):
        spaces = [shapes.spaces[s.id].outline for s in track.spaces.values() if s.zone == zone]
        assert min(_gap(cut.outline, o) for o in spaces) < 0.05 * R, (tile_id, zone)


def test_215b_draws_two_separate_shortcut_wedges_where_215a_has_its_islands():
    _, shapes = _shapes("215b")
    cuts = [s for s in shapes.spaces.values() if s.kind == "shortcut"]
    assert len(cuts) == 2
    a, b = cuts
    assert not any(_inside(p, b.outline) for p in a.outline)
    assert math.dist(a.label, b.label) > 0.5 * R


def test_the_double_hairpin_road_never_folds_over_itself():
    """215: the kerbs of the serpentine are simple curves (no loop where the road turns tightest)."""
    for tile_id in ("215a", "215b"):
        _, shapes = _shapes(tile_id)
        (road,) = shapes.roads
        assert _simple(road.centreline.band(0, 1, road.width / 2, -road.width / 2)), tile_id


# ---------------------------------------------------------------- S-bends

def _swing(tile_id: str) -> float:
    """The largest sideways distance of the centreline from the straight line between its ends."""
    _, shapes = _shapes(tile_id)
    line = shapes.roads[0].centreline
    a, b = line.point(0), line.point(1)
    length = math.dist(a, b)
    return max(abs((b[0] - a[0]) * (a[1] - p[1]) - (a[0] - p[0]) * (b[1] - a[1])) / length
               for p in (line.point(i / 50) for i in range(51)))


def test_411a_is_an_s_bend_with_its_limited_spaces_inside_and_outside():
    track, shapes = _shapes("411a")
    assert shapes.roads[0].centreline.shape == "s-bend"
    assert _swing("411a") > 0.2 * R
    line = shapes.roads[0].centreline
    inside = shapes.spaces["1.2.in1"].label
    outs = [shapes.spaces[f"1.2.out{k}"].label for k in (1, 2)]
    # the two outside spaces follow each other along the road, the inside one is across from them
    centre = line.point(0.5)
    side = [((p[0] - centre[0]) * line.tangent(0.5)[1] - (p[1] - centre[1]) * line.tangent(0.5)[0]) for p in
            [inside] + outs]
    assert side[0] * side[1] < 0 and side[0] * side[2] < 0
    assert math.dist(*outs) > 0.2 * R


def test_214a_and_226a_are_told_apart():
    """214a (limit 1 / 2) swings deep around its grass bulge; 226a (3 / 4) is a shallow bulge."""
    assert _swing("214a") - _swing("226a") > 0.15 * R
    ids = {t: sorted(s for s in _shapes(t)[1].spaces) for t in ("214a", "226a")}
    assert ids["214a"] != ids["226a"]   # three outside spaces against two


# ---------------------------------------------------------------- 401a/b

@pytest.mark.parametrize("tile_id", ["401a", "401b"])
def test_401_keeps_its_checkered_line_and_six_grid_bars(tile_id):
    root = ET.fromstring(render_tile_svg(CAT.get(tile_id), CAT))
    groups = [g for g in root.iter(f"{SVG}g") if g.get("class") == "checkered-line"]
    assert len(groups) == 1
    bars = [p for p in root.iter(f"{SVG}path") if p.get("class") == "grid-bars"]
    assert len(bars) == 1 and bars[0].get("d").count("M") == 6
    # the bars stand behind the line: in zones 1 and 2, at their ends nearer the line
    _, shapes = _shapes(tile_id)
    road = shapes.roads[0]
    (line_t,) = road.checkered
    assert line_t == pytest.approx(road.bounds[2])
    assert len(road.grid_bars) == 6


def test_rx1_pregrid_shows_the_grid_bars_and_the_line():
    tracks, catalogue = _published("rx-1")
    (svg,) = render_map(tracks[0], catalogue, title="RX 1", options=MapOptions(page="a4"))
    root = ET.fromstring(svg)
    bars = [p for p in root.iter(f"{SVG}path") if p.get("class") == "grid-bars"]
    assert len(bars) == 1 and bars[0].get("d").count("M") == 6
    start = [g for g in root.iter(f"{SVG}g") if g.get("class") == "start-line"]
    assert start and len(list(start[0].iter(f"{SVG}path"))) > 16   # the chequers and the start bar


# ---------------------------------------------------------------- forks

def _subpaths(d: str) -> list[list[Point]]:
    out = []
    for part in re.findall(r"M[^M]+", d):
        nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", part)]
        out.append(list(zip(nums[0::2], nums[1::2])))
    return out


@pytest.mark.parametrize("tile_id", FORKS)
def test_a_fork_is_one_road_surface_whose_kerbs_cross_no_arm(tile_id):
    root = ET.fromstring(render_tile_svg(CAT.get(tile_id), CAT))
    roads = [p for p in root.iter(f"{SVG}path") if "road" in (p.get("class") or "").split()]
    assert len(roads) == 1 and "fork-surface" in roads[0].get("class")
    assert len(_subpaths(roads[0].get("d"))) == 3
    _, shapes = _shapes(tile_id)
    bodies = []
    for r in shapes.roads:
        # each arm's body shrunk a little: a kerb on the surface's edge is not inside it
        bodies.append(r.centreline.band(0.03, 0.97, r.width / 2 - 0.03 * R, -r.width / 2 + 0.03 * R))
    (edges,) = [p for p in root.iter(f"{SVG}path") if p.get("class") == "road-edge"]
    points = [p for sub in _subpaths(edges.get("d")) for p in sub]
    assert points
    assert not [p for p in points if any(_inside(p, b) for b in bodies)]


@pytest.mark.parametrize("stem", ["rx-1", "rx-2"])
def test_forks_of_the_published_circuits_are_one_surface_each(stem):
    tracks, catalogue = _published(stem)
    track = tracks[0]
    (svg,) = render_map(track, catalogue, title=stem, options=MapOptions(page="a4"))
    root = ET.fromstring(svg)
    forks = [g for g in root.iter(f"{SVG}g") if g.get("class") == "fork"]
    fork_cells = {(p.q, p.r) for p in track.placed
                  if not p.scenery and len(CAT.get(p.tile).definition.roads) > 1
                  and p.tile[:3] in {"402", "404", "408", "415", "403", "405", "406", "407"}}
    assert fork_cells
    assert {(int(g.get("data-q")), int(g.get("data-r"))) for g in forks} >= fork_cells
    for g in forks:
        assert len([p for p in g.iter(f"{SVG}path") if "fork-surface" in (p.get("class") or "")]) == 1
