"""Fork and Y tiles (issue 13): the spaces of every road of the tile laid as one partition of its road
surface (rallyc.render.forks), measured on the drawn outlines: no two spaces share area, a branch's
half-line spaces stop at the main road's kerb, the Y's centre is three spaces."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from functools import lru_cache
from pathlib import Path

import pytest

from rallyc import project
from rallyc.pipeline import compile_loaded
from rallyc.render.document import MapOptions, render_map
from rallyc.render.geometry import HexLayout
from rallyc.render.measure import overlapping_outlines, parse_path
from rallyc.render.shapes import track_shapes
from rallyc.render.tile import render_tile_svg, tile_track
from rallyc.tiles.catalogue import Catalogue
from rallyc.tiles.shape import is_fork

ROOT = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"
CAT = Catalogue.from_tilesets(project.bundled_tilesets())
UNIT = HexLayout(1.0)
#: every fork and Y side of the RX box
RX_FORKS = sorted(t.id for t in CAT if t.box == "dirt-rx" and t.roads and is_fork(t.definition))
#: area (in R^2, R = 1) above which two outlines overlap, sampled on a grid of 0.02 R
STEP, LEAST = 0.02, 0.002


def _overlaps(shapes, ids=None):
    """Pairs of drawn outlines sharing area: solid outlines pairwise, and a slide half (drawn as the dashed
    line of its zone) with anything but the lane spaces of its own zone."""
    spaces = {sid: s for sid, s in shapes.spaces.items() if ids is None or sid in ids}
    found = overlapping_outlines({sid: s.outline for sid, s in spaces.items()}, STEP, LEAST)
    out = []
    for a, b, _ in found:
        dashed = spaces[a].dashed or spaces[b].dashed
        if dashed and a.rpartition(".")[0] == b.rpartition(".")[0]:
            continue
        out.append((a, b))
    return out


def test_the_rx_box_has_its_fork_tiles():
    assert {"402a", "404a", "408a", "415a", "415b"} <= set(RX_FORKS) and len(RX_FORKS) == 18


@pytest.mark.parametrize("tile_id", RX_FORKS)
def test_no_space_of_a_fork_tile_overlaps_another(tile_id):
    shapes = track_shapes(tile_track(CAT.get(tile_id), CAT), UNIT, CAT)
    assert _overlaps(shapes) == []


@pytest.mark.parametrize("tile_id, lane", [("407a", "1.2.l"), ("409a", "1.2.r")])
def test_a_space_shared_by_position_is_drawn_once(tile_id, lane):
    """407a/409a write their junction as roads sharing spaces by position (tilesets/dirt-rx.rally): road 3's
    second `wide limit 2` space is road 1's limit-2 inner lane (X(2) of the layout notes), drawn there; before,
    it was drawn along road 3's own band over four lane spaces of road 1."""
    track = tile_track(CAT.get(tile_id), CAT)
    shapes = track_shapes(track, UNIT, CAT).spaces
    assert track.spaces["3.2.w"].limit == track.spaces[lane].limit == 2
    assert shapes["3.2.w"].outline == shapes[lane].outline


def test_the_measure_sees_overlapping_outlines():
    """The measure itself: two strips over each other overlap, two strips side by side do not, one outline
    drawn for two ids (a branch space that is a main-road space) is one place."""
    a = [(0.0, 0.0), (1.0, 0.0), (1.0, 0.2), (0.0, 0.2)]
    b = [(0.5, 0.1), (1.5, 0.1), (1.5, 0.3), (0.5, 0.3)]
    c = [(0.0, 0.2), (1.0, 0.2), (1.0, 0.4), (0.0, 0.4)]
    assert [(x, y) for x, y, _ in overlapping_outlines({"a": a, "b": b}, STEP, LEAST)] == [("a", "b")]
    assert overlapping_outlines({"a": a, "c": c}, STEP, LEAST) == []
    assert overlapping_outlines({"a": a, "a2": list(a)}, STEP, LEAST) == []


@pytest.mark.parametrize("tile_id", ["402a", "404a", "408a"])
def test_a_branch_takes_the_main_road_spaces_it_shares(tile_id):
    """The branch's merge zone and the zones after it are the main road's spaces: drawn as those; its
    half-line spaces are its own, beside the main road and touching its kerb."""
    track = tile_track(CAT.get(tile_id), CAT)
    shapes = track_shapes(track, UNIT, CAT).spaces
    main = {tuple(s.outline) for sid, s in shapes.items() if sid.startswith("1.")}
    merge = [s for s in track.spaces.values() if s.step > 1 and s.kind == "lane"]
    assert merge and all(tuple(shapes[s.id].outline) in main for s in merge)
    halves = [shapes[s.id] for s in track.spaces.values() if s.kind == "half"]
    assert len(halves) == 4  # two per branch, the same two spaces for both branches
    assert len({tuple(h.outline) for h in halves}) == 2
    body = [p for sid, s in shapes.items() if sid.startswith("1.") for p in s.outline]
    for h in halves:
        assert tuple(h.outline) not in main
        # it reaches the main road: a corner within 1% of R of a main-road outline point
        assert min(math.dist(p, q) for p in h.outline for q in body) < 0.01


@pytest.mark.parametrize("tile_id", ["415a", "415b"])
def test_the_y_centre_is_three_spaces_meeting_at_the_tile_centre(tile_id):
    track = tile_track(CAT.get(tile_id), CAT)
    shapes = track_shapes(track, UNIT, CAT).spaces
    centre = [shapes[s.id] for s in sorted(track.spaces.values(), key=lambda s: s.id) if s.kind == "junction"]
    assert len(centre) == 3 and len({tuple(c.outline) for c in centre}) == 3
    for c in centre:
        assert min(math.dist(p, (0.0, 0.0)) for p in c.outline) < 1e-9
    top, lower_left, lower_right = (c.label for c in centre)  # roads F-B, F-D, B-D
    assert top[1] < 0 < lower_left[1] and top[1] < 0 < lower_right[1]
    assert lower_left[0] < 0 < lower_right[0]


@lru_cache(maxsize=None)
def _published(stem: str):
    loaded = project.load(ROOT / "examples" / f"{stem}.rally")
    track = compile_loaded(loaded).designs[0].tracks[0]
    return track, Catalogue.from_tilesets(loaded.tilesets)


@pytest.mark.parametrize("stem", ["rx-1", "rx-2"])
def test_the_forks_of_the_published_circuits_overlap_nothing(stem):
    """Measured on the SVG the map writes: the space outlines of every fork tile's steps share no area."""
    track, catalogue = _published(stem)
    svg = render_map(track, catalogue, title=stem, options=MapOptions())[0]
    root = ET.fromstring(svg)
    fork_cells = {(p.q, p.r) for p in track.placed
                  if catalogue.get(p.tile) is not None and len(catalogue.get(p.tile).roads) > 1}
    steps = {p.step for p in track.placed if (p.q, p.r) in fork_cells}
    outlines = {}
    for el in root.iter(f"{SVG}path"):
        sid = el.get("data-space")
        if sid and "slide" not in (el.get("class") or "") and track.spaces[sid].step in steps:
            outlines[sid] = parse_path(el.get("d"))
    assert len(outlines) > 20
    R = MapOptions().tile_mm / math.sqrt(3)
    assert overlapping_outlines(outlines, STEP * R, LEAST * R * R) == []


@pytest.mark.parametrize("stem, step", [("rx-1", 2), ("rx-2", 7)])
def test_a_circuit_branch_s_own_spaces_lie_at_its_end_of_the_tile(stem, step):
    """The Joker leaves 408a by its branch: the graph numbers the branch's half-line spaces after the loop's
    zones (STEP.4.l/r), the map draws them at the branch's far edge (the one the loop road does not use).
    Before, on a link drawn from its far edge towards the loop, they were drawn at the loop's end, on the
    loop's zone-1 spaces (2.1.l/r on RX 1, 7.1.l/r on RX 2: two spaces at one place)."""
    track, catalogue = _published(stem)
    shapes = track_shapes(track, UNIT, catalogue)
    loop = next(r for r in shapes.roads if r.step == step and r.road == 1)
    branch = next(r for r in shapes.roads if r.step == step and r.road == 3)
    far = branch.centreline.point(0.0 if branch.entry not in (loop.entry, loop.exit) else 1.0)
    near = branch.centreline.point(1.0 if branch.entry not in (loop.entry, loop.exit) else 0.0)
    for sid in (f"{step}.4.l", f"{step}.4.r"):
        outline = shapes.spaces[sid].outline
        assert track.spaces[sid].kind == "half"
        assert min(math.dist(p, far) for p in outline) < 0.05
        assert math.dist(shapes.spaces[sid].label, far) < math.dist(shapes.spaces[sid].label, near)
        assert not set(outline) & set(shapes.spaces[f"{step}.1.{sid[-1]}"].outline)


def _designs():
    for path in sorted((ROOT / "examples").glob("*.rally")):
        yield path.stem


@pytest.mark.parametrize("stem", list(_designs()))
def test_no_two_spaces_of_a_published_design_are_drawn_at_one_place(stem):
    """Two graph spaces drawn with one outline are one place of the board as two spaces (a car on each at once):
    never, on every stage and circuit in examples/ (before: RX 2's 12.2.*/12.5.* on 405a, and the Joker's
    half-line spaces on 408a of RX 1 and RX 2 drawn on the loop's zone 1)."""
    loaded = project.load(ROOT / "examples" / f"{stem}.rally")
    catalogue = Catalogue.from_tilesets(loaded.tilesets)
    for design in compile_loaded(loaded).designs:
        for track in design.tracks:
            seen: dict[tuple, list[str]] = {}
            for sid, s in track_shapes(track, UNIT, catalogue).spaces.items():
                if not s.dashed:
                    seen.setdefault(tuple((round(x, 6), round(y, 6)) for x, y in s.outline), []).append(sid)
            assert [ids for ids in seen.values() if len(ids) > 1] == [], track.name


def test_tiles_show_draws_the_y_centre():
    svg = render_tile_svg(CAT.get("415a"), CAT)
    ids = [el.get("data-space") for el in ET.fromstring(svg).iter(f"{SVG}path") if el.get("data-space")]
    assert {"1.2.j", "2.2.j", "3.2.j"} <= set(ids)
