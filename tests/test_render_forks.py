"""Fork and Y tiles (issue 13): the spaces of every road of the tile laid as one partition of its road
surface (rallyc.render.forks), measured on the drawn outlines: no two spaces share area, a branch's
half-line spaces stop at the main road's kerb, the Y's centre is three spaces."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from functools import lru_cache
from pathlib import Path

import pytest

from rallyc.project import loader as project
from rallyc.compilation.pipeline import compile_loaded
from rallyc.render.document import MapOptions, render_map
from rallyc.geometry.tile import lane_strip
from rallyc.render.geometry import HexLayout, point_in_polygon
from rallyc.render.measure import overlapping_outlines, parse_path
from rallyc.render.shapes import track_shapes
from rallyc.render.tile import render_tile_svg, tile_track
from rallyc.tiles.catalogue import Catalogue
from rallyc.tiles.fan import fan_places, plain_fork
from rallyc.tiles.shape import is_fork, tile_road

ROOT = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"
CAT = Catalogue.from_tilesets(project.bundled_tilesets())
UNIT = HexLayout(1.0)
#: every fork and Y side of the RX box
RX_FORKS = sorted(t.id for t in CAT if t.box == "dirt-rx" and t.roads and is_fork(t.definition))
#: every plain fork (a straight and two links from a third edge, plain zones only: rallyc.tiles.fan)
GT_FORKS = sorted(t.id for t in CAT if t.roads and plain_fork(t.definition) is not None)
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


def test_the_plain_forks_are_the_gt_adrenaline_forks():
    assert GT_FORKS == ["151a", "151b", "152a", "152b"]
    assert not set(GT_FORKS) & set(RX_FORKS)


def _own(track):
    """The links' own spaces of a plain fork (tiles show numbers its steps by road: road 1 is the main road):
    not drawn as another space of the tile."""
    shapes = track_shapes(track, UNIT, CAT).spaces
    main = {tuple(s.outline) for sid, s in shapes.items() if sid.startswith("1.")}
    outlines = [tuple(s.outline) for s in shapes.values()]
    return shapes, {sid: s for sid, s in shapes.items()
                    if not sid.startswith("1.") and tuple(s.outline) not in main
                    and (outlines.count(tuple(s.outline)) == 1 or sid.startswith("2."))}


@pytest.mark.parametrize("tile_id", GT_FORKS)
def test_a_gt_fork_is_one_partition_of_its_road_surface(tile_id):
    """The GT forks 151/152: no two spaces share area (before: 28 pairs on the a-sides, 14 on the b-sides, the
    links' middle zones drawn along their own centrelines over the main road and over each other), also on a
    turned page (the tile laid in the page's frame); the links' own spaces (the branch-edge zone both links
    share, each link's middle zone) lie beside the main road, fill the road surface there and meet its kerb."""
    info = CAT.get(tile_id)
    track = tile_track(info, CAT)
    assert _overlaps(track_shapes(track, UNIT, CAT)) == []
    turned = track_shapes(track, HexLayout(7.3, False), CAT)
    assert overlapping_outlines({sid: s.outline for sid, s in turned.spaces.items()}, STEP * 7.3,
                                LEAST * 7.3 * 7.3) == []
    shapes, own = _own(track)
    lanes = 3 if tile_id.endswith("a") else 2
    assert sorted({sid.rsplit(".", 1)[0] for sid in own}) == ["2.1", "2.2", "3.2"]
    assert len(own) == 3 * lanes
    main = tile_road(info.definition, 1)
    body = main.line.band(0.0, 1.0, main.width / 2, -main.width / 2)
    bands = [tile_road(info.definition, n).line.band(0.0, 1.0, main.width / 2, -main.width / 2) for n in (1, 2, 3)]
    for sid, s in own.items():
        assert point_in_polygon(s.label, s.outline), sid
        assert all(main.line.nearest(p)[0] >= main.width / 2 - 1e-3 for p in s.outline), sid
    # the road surface off the main road, sampled on a grid, is in one of the links' own spaces
    hexagon = UNIT.corners(0, 0)
    beside = covered = 0
    for i in range(-50, 51):
        for j in range(-50, 51):
            p = (i / 50, j / 50)
            if not point_in_polygon(p, hexagon) or point_in_polygon(p, body):
                continue
            if any(point_in_polygon(p, b) for b in bands):
                beside += 1
                covered += any(point_in_polygon(p, s.outline) for s in own.values())
    assert beside > 300 and covered >= 0.99 * beside
    # each link's middle zone reaches the main road's kerb
    for zone in ("2.2", "3.2"):
        assert min(main.line.nearest(p)[0] for sid, s in own.items() if sid.startswith(zone)
                   for p in s.outline) < main.width / 2 + 1e-6


@pytest.mark.parametrize("tile_id", GT_FORKS)
def test_a_gt_fork_link_leads_towards_the_main_road_zone_it_enters(tile_id):
    """The 60 degree link (road 2) enters the main road's zone at the far end (its zone 1, D), the hairpin (road
    3) the one at the near end (its zone 3, A): each link's middle zone lies on that side of the other's, its
    lanes left to right as driven, and the branch-edge zone's lanes left to right as driven from the edge."""
    track = tile_track(CAT.get(tile_id), CAT)
    _, own = _own(track)
    names = ("l", "m", "r") if tile_id.endswith("a") else ("l", "r")

    def mean(zone):
        labels = [own[f"{zone}.{n}"].label for n in names]
        return sum(p[1] for p in labels) / len(labels)

    assert mean("3.2") < mean("2.2")  # A is the top edge (y grows downwards)
    road = {r.road: r for r in track_shapes(track, UNIT, CAT).roads}
    for zone, number in (("2.1", 2), ("2.2", 2), ("3.2", 3)):
        line = road[number].centreline
        # the driver's right at the zone's lanes, the way the road runs there (turning, so seen at each label)
        labels = [own[f"{zone}.{n}"].label for n in names]
        for a, b in zip(labels, labels[1:]):
            _, t, _ = line.nearest(a)
            hx, hy = line.tangent(t)
            right = (-hy, hx)
            assert (b[0] - a[0]) * right[0] + (b[1] - a[1]) * right[1] > 0, (zone, a, b)


@pytest.mark.parametrize("link", [2, 3])
@pytest.mark.parametrize("tile_id", GT_FORKS)
def test_a_gt_fork_drawn_with_one_link_is_one_partition(tile_id, link):
    """Drawn with its main road and one link (a circuit's loop and its Joker or Pre-grid), the link spans the
    road surface beside the main road alone (its branch-edge zone its own): no space over another or over the
    main road, the link's band beside the main road covered."""
    tile = CAT.get(tile_id).definition
    fork = plain_fork(tile)
    assert fork is not None and (fork.main, fork.link60, fork.hairpin) == (1, 2, 3)
    places = fan_places(tile, fork, lambda n: (tile_road(tile, n).line, tile_road(tile, n).width), {1, link})
    assert sorted({(k[0], k[1]) for k in places}) == [(link, 1), (link, 2)]
    main = tile_road(tile, 1)
    outlines = {f"{road}.{zone}.{lane}": p.outline for (road, zone, lane), p in places.items()}
    for z in range(main.zones):
        for i in range(main.lanes[z]):
            u0, u1 = lane_strip(main.width, i, main.lanes[z])
            outlines[f"1.{z + 1}.{i}"] = main.line.band(main.bounds[z], main.bounds[z + 1], u0, u1)
    assert overlapping_outlines(outlines, STEP, LEAST) == []
    laid = tile_road(tile, link)
    band = laid.line.band(0.0, 1.0, laid.width / 2, -laid.width / 2)
    body = main.line.band(0.0, 1.0, main.width / 2, -main.width / 2)
    hexagon = UNIT.corners(0, 0)
    points = [(i / 50, j / 50) for i in range(-50, 51) for j in range(-50, 51)]
    beside = [p for p in points if point_in_polygon(p, hexagon) and point_in_polygon(p, band)
              and not point_in_polygon(p, body)]
    covered = [p for p in beside if any(point_in_polygon(p, place.outline) for place in places.values())]
    assert len(beside) > 150 and len(covered) >= 0.99 * len(beside)


def test_a_circuit_on_a_gt_fork_overlaps_nothing(tmp_path):
    """RX 1 with GT 151b in the place of 404a (the Pre-grid joins the loop by its 60 degree link): the loop takes
    the main road, the Pre-grid the link, whose own spaces lie beside the main road (before: 7 overlapping pairs
    at that cell, the link's zones drawn along its centreline over the main road)."""
    text = (ROOT / "examples" / "rx-1.rally").read_text(encoding="utf-8")
    assert "  404a at -2 2 rot 4" in text
    path = tmp_path / "gt-fork-circuit.rally"
    path.write_text(text.replace("  404a at -2 2 rot 4", "  151b at -2 2 rot 4"), encoding="utf-8")
    loaded = project.load(path)
    track = compile_loaded(loaded).designs[0].tracks[0]
    catalogue = Catalogue.from_tilesets(loaded.tilesets)
    steps = {p.step for p in track.placed if (p.q, p.r) == (-2, 2)}
    assert [p.tile for p in track.placed if (p.q, p.r) == (-2, 2)] == ["151b"]
    shapes = track_shapes(track, UNIT, catalogue)
    ids = {sid for sid in shapes.spaces if track.spaces[sid].step in steps}
    assert len({track.spaces[sid].road for sid in ids}) == 2
    assert _overlaps(shapes, ids) == []
