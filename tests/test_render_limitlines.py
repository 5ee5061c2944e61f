"""RX fork tiles' speed-limit lines are drawn as lines with their number on them (issue 13: "limit *lines*
drawn as lines"), measured on the SVG: one ``<g class="limit limit-line">`` per line the tileset writes
(``limitline N``), its path along the main road's kerb where the branch's half-line spaces meet it, its
number on the line."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from rallyc.project import loader as project
from rallyc.compilation.pipeline import compile_loaded
from rallyc.render.document import MapOptions, render_map
from rallyc.render.measure import parse_path
from rallyc.render.tile import render_tile_svg
from rallyc.syntax import ast
from rallyc.tiles.catalogue import Catalogue

ROOT = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"
CAT = Catalogue.from_tilesets(project.bundled_tilesets())
FORKS = sorted(info.id for info in CAT
               if any(isinstance(i, ast.LimitLine) for road in info.definition.roads for i in road.items))


def _lines(svg: str) -> list[tuple[int, int, list[tuple[float, float]], tuple[float, float], str]]:
    """(step, limit, points of the line, centre of the number's ring, the number) of each limit line drawn."""
    out = []
    for g in ET.fromstring(svg).iter(f"{SVG}g"):
        if g.get("class") != "limit limit-line":
            continue
        path = g.find(f"{SVG}path")
        ring = g.find(f"{SVG}circle")
        text = g.find(f"{SVG}text")
        assert path is not None and ring is not None and text is not None
        out.append((int(g.get("data-step")), int(g.get("data-limit")), parse_path(path.get("d")),
                    (float(ring.get("cx")), float(ring.get("cy"))), text.text))
    return out


def _on_line(p: tuple[float, float], pts: list[tuple[float, float]]) -> float:
    """Distance from ``p`` to the polyline ``pts``."""
    best = math.inf
    for (ax, ay), (bx, by) in zip(pts, pts[1:]):
        dx, dy = bx - ax, by - ay
        f = max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / ((dx * dx + dy * dy) or 1.0)))
        best = min(best, math.hypot(ax + f * dx - p[0], ay + f * dy - p[1]))
    return best


def test_the_fork_tiles_are_the_ones_with_limit_lines():
    assert FORKS == ["402a", "402b", "403a", "403b", "404a", "404b", "405a", "405b", "406a", "406b", "407b",
                     "408a", "408b", "409b"]


@pytest.mark.parametrize("tile_id", FORKS)
def test_every_limit_line_of_a_fork_tile_is_drawn_with_its_number_on_it(tile_id):
    info = CAT.get(tile_id)
    written = Counter(i.value for road in info.definition.roads for i in road.items if isinstance(i, ast.LimitLine))
    lines = _lines(render_tile_svg(info, CAT))
    assert Counter(limit for _, limit, *_ in lines) == written
    for _, limit, pts, ring, number in lines:
        assert number == str(limit)
        assert len(pts) >= 2 and math.dist(pts[0], pts[-1]) > 1.0   # a line, not a dot (mm, tile 120 mm)
        assert _on_line(ring, pts) < 0.1   # the number sits on its line (a tenth of a mm)


def test_402a_prints_line_2_towards_edge_a_and_line_4_below_it_on_the_main_road_kerb():
    """402a: the branch from F meets the main road (A-D, upright) on its left kerb; line 2 leads into zone 1
    (towards edge A, the top), line 4 into zone 2; they meet at the junction point."""
    lines = {limit: pts for _, limit, pts, _, _ in _lines(render_tile_svg(CAT.get("402a"), CAT))}
    assert sorted(lines) == [2, 4]
    xs = {round(x, 1) for pts in lines.values() for x, _ in pts}
    assert len(xs) == 1   # both on one kerb of the straight main road
    two, four = lines[2], lines[4]
    assert max(y for _, y in two) <= min(y for _, y in four) + 0.01   # line 2 above line 4 ...
    assert math.dist(max(two, key=lambda p: p[1]), min(four, key=lambda p: p[1])) < 0.02   # ... meeting


@pytest.mark.parametrize("stem, expected", [("rx-1", {(2, 3), (10, 4)}), ("rx-2", {(7, 3), (10, 3), (12, 4)})])
def test_a_circuit_draws_the_limit_lines_of_its_forks(stem, expected):
    """RX 1: the Joker leaves 408a across line 3, the Pre-grid joins at 404a across line 4 (a limit the graph
    keeps on the moves across the line: no space had a number there before). RX 2: the Joker leaves 408a across
    line 3 and rejoins at 404b across line 3; the main loop takes 405a's branch, across line 4."""
    loaded = project.load(ROOT / "examples" / f"{stem}.rally")
    track = compile_loaded(loaded).designs[0].tracks[0]
    svg = render_map(track, Catalogue.from_tilesets(loaded.tilesets), title=stem, options=MapOptions(page="a4"))[0]
    lines = _lines(svg)
    assert {(step, limit) for step, limit, *_ in lines} == expected
    for _, limit, pts, ring, number in lines:
        assert number == str(limit) and _on_line(ring, pts) < 0.1


@pytest.mark.parametrize("stem", ["rx-1", "rx-2"])
def test_a_limit_line_number_is_printed_once_not_again_on_the_spaces_it_stands_for(stem):
    """The Joker leaves 408a across line 3, whose number is the half-line spaces' own limit (entered from the
    loop): the tile prints it once, on the line. The map did too, and also put a ring with 3 on each of the two
    half-line spaces beside it (the number three times in a few millimetres). Now those spaces have no ring; the
    line's group names them (``data-spaces``), and every other limited space keeps its ring, and the legend lists
    the line."""
    loaded = project.load(ROOT / "examples" / f"{stem}.rally")
    track = compile_loaded(loaded).designs[0].tracks[0]
    svg = render_map(track, Catalogue.from_tilesets(loaded.tilesets), title=stem, options=MapOptions(page="a4"))[0]
    root = ET.fromstring(svg)
    rings = {g.get("data-space") for g in root.iter(f"{SVG}g") if g.get("class") == "limit"}
    stood_for = {sid: int(g.get("data-limit")) for g in root.iter(f"{SVG}g") if g.get("class") == "limit limit-line"
                 for sid in (g.get("data-spaces") or "").split()}
    joker = {sid for sid, s in track.spaces.items() if s.kind == "half" and s.joker and s.limit == 3}
    assert joker and joker <= set(stood_for) and not joker & rings
    assert all(track.spaces[sid].limit == value for sid, value in stood_for.items())
    limited = {sid for sid, s in track.spaces.items() if s.limit is not None}
    assert rings == limited - set(stood_for)
    words = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "legend-text"]
    assert "speed-limit line" in words


def test_a_map_without_fork_tiles_has_no_limit_line_in_its_legend():
    loaded = project.load(ROOT / "examples" / "rally-1.rally")
    track = compile_loaded(loaded).designs[0].tracks[0]
    svg = render_map(track, Catalogue.from_tilesets(loaded.tilesets), title="r1", options=MapOptions(page="a4"))[0]
    words = [t.text for t in ET.fromstring(svg).iter(f"{SVG}text") if t.get("class") == "legend-text"]
    assert "speed limit" in words and "speed-limit line" not in words
