"""One geometric model of a tile's spaces (issue 10): the maps and the track files put every space of every
bundled tile in the same place (rallyc.geometry.tile, laid out per tile road by rallyc.tiles.shape)."""

from __future__ import annotations

import math

import pytest

from rallyc.compiler.tile import tile_track
from rallyc.geometry.tile import HexLayout, heading_steps, lane_strip, point_in_polygon, zone_bounds, zone_weight
from rallyc.interop import roadgeom
from rallyc.project.loader import bundled_tilesets
from rallyc.render.measure import overlapping_outlines
from rallyc.render.shapes import track_shapes
from rallyc.tiles.catalogue import Catalogue
from rallyc.tiles.shape import UNIT, crossing_roads, side_by_side, tile_road

CATALOGUE = Catalogue.from_tilesets(bundled_tilesets())
ROAD_TILES = [t for t in CATALOGUE if t.roads and not t.is_scenery]


@pytest.mark.parametrize("info", ROAD_TILES, ids=lambda t: t.id)
def test_the_map_and_the_track_files_put_every_space_in_one_place(info):
    track = tile_track(info, CATALOGUE)
    drawn_shapes = track_shapes(track, HexLayout(1.0), CATALOGUE)
    # each road: the same centreline, zone boundaries and width
    by_road = {r.step: r for r in drawn_shapes.roads}
    for number in range(1, len(info.roads) + 1):
        drawn = by_road.get(number)
        if drawn is None:
            continue
        laid = tile_road(info.definition, number)
        assert drawn.width == pytest.approx(laid.width)
        assert list(laid.bounds) == pytest.approx(drawn.bounds)
        for t in (0.0, 0.25, 0.5, 0.75, 1.0):
            assert math.dist(drawn.centreline.point(t), laid.line.point(t)) < 1e-9
    # each space: a token written for it lies in its outline on the map and reads back onto it; on a fork the
    # map draws a branch's space that is another road's space (from a shared edge up to the merge zone, a Y's
    # arm) in that road's place (rallyc.render.forks), and the track files put its token there; a plain fork's
    # (GT 151, 152) links' own spaces lie beside the main road (rallyc.tiles.fan), their tokens too
    shapes = drawn_shapes.spaces
    checked = 0
    for space in track.spaces.values():
        if space.kind != "lane" or space.zone is None or space.lane not in ("l", "m", "r", "ml", "mr"):
            continue
        road = space.step  # tile_track numbers its steps by road
        q, r, _ = roadgeom.token_offset(info.definition, road, True, space.zone, space.lane)
        point = UNIT.centre(q, r)
        assert point_in_polygon(point, shapes[space.id].outline), (space.id, point)
        found = roadgeom.locate(info.definition, q, r, [road])
        assert found is not None and found.driven(True, roadgeom.zone_count(info.definition, road)) == \
            (space.zone, space.lane), space.id
        checked += 1
    for space in track.spaces.values():
        if space.zone is None or space.kind not in ("corner", "wide", "junction"):
            continue
        # a token for the whole zone: at the zone's middle, read back as the whole zone
        q, r, _ = roadgeom.token_offset(info.definition, space.step, True, space.zone, None)
        found = roadgeom.locate(info.definition, q, r, [space.step])
        assert found is not None and found.zone == space.zone and found.lane is None, space.id
        checked += 1
    assert checked or not track.spaces


#: grid step and least common area (in R and R^2, R = 1) of two outlines that overlap
STEP, LEAST = 0.02, 0.002


def _overlapping(info) -> list[tuple[str, str, float]]:
    """The pairs of spaces of a tile side drawn over each other: solid outlines pairwise, and a slide half
    (drawn as the dashed line of its zone) with anything but the lane spaces of its own zone; the spaces of
    two roads that cross (one over the other: a bridge) are left out."""
    shapes = track_shapes(tile_track(info, CATALOGUE), HexLayout(1.0), CATALOGUE).spaces
    crossing = crossing_roads(info.definition)
    out = []
    for a, b, area in overlapping_outlines({sid: s.outline for sid, s in shapes.items()}, STEP, LEAST):
        if (shapes[a].dashed or shapes[b].dashed) and a.rpartition(".")[0] == b.rpartition(".")[0]:
            continue
        roads = tuple(sorted(int(x.split(".")[0]) for x in (a, b)))  # tile_track numbers its steps by road
        if roads in crossing:
            continue
        out.append((a, b, round(area, 3)))
    return out


@pytest.mark.parametrize("info", ROAD_TILES, ids=lambda t: t.id)
def test_no_space_outline_overlaps_another(info):
    """Every tile side: no two spaces share area beyond LEAST (sampled on a STEP grid), a space drawn for two
    graph ids (a fork branch's space that is a main-road space) being one place."""
    assert _overlapping(info) == []


def test_the_crossings_are_the_tiles_whose_roads_cross():
    """Only roads that share no edge and whose centrelines cross lie over each other: the Monte-Carlo bridge
    (416, 417) and the GT sides whose two roads cross (their spaces overlap where they cross)."""
    crossing = {t.id for t in ROAD_TILES if crossing_roads(t.definition)}
    assert {"416a", "416b", "417a", "417b"} <= crossing
    assert not crossing & {"412a", "412b", "413a", "414a", "414b", "133a", "139b", "147b"}
    assert all(side_by_side(CATALOGUE.get(t).definition) for t in crossing)
    # left out of the test above, the crossing tiles do have spaces over each other
    info = CATALOGUE.get("416a")
    shapes = track_shapes(tile_track(info, CATALOGUE), HexLayout(1.0), CATALOGUE).spaces
    assert overlapping_outlines({sid: s.outline for sid, s in shapes.items()}, STEP, LEAST)


def test_roads_side_by_side_clear_each_other():
    """Two roads between edges two apart on one tile (GT 133a, 139b, 414) keep near the chord of their edges: their
    centrelines stay farther apart than half their widths added, and they leave their edges square."""
    for tile_id in ("133a", "139b", "414a", "414b"):
        info = CATALOGUE.get(tile_id)
        laid = [tile_road(info.definition, n) for n in range(1, len(info.roads) + 1)]
        a, b = laid[0], laid[1]
        gap = min(math.dist(p, q) for p in a.line.points(96) for q in b.line.points(96))
        assert gap > (a.width + b.width) / 2, tile_id
        for road in laid:
            if road.line.shape == "gentle":
                start, end = road.line.point(0.0), road.line.point(1.0)
                # the first direction points at the tile centre (square to the edge), the last away from it
                tx, ty = road.line.tangent(0.0)
                assert tx * -start[0] + ty * -start[1] == pytest.approx(math.hypot(*start), rel=1e-3)
                tx, ty = road.line.tangent(1.0)
                assert tx * end[0] + ty * end[1] == pytest.approx(math.hypot(*end), rel=1e-3)


def test_standees_stand_on_zone_boundaries_and_face_the_driving_direction():
    info = CATALOGUE.get("205a")
    assert info is not None
    zones = roadgeom.zone_count(info.definition, 1)
    for zone in range(1, zones + 1):
        for forward in (True, False):
            q, r, d = roadgeom.standee_offset(info.definition, 1, forward, zone)
            found = roadgeom.locate(info.definition, q, r)
            assert found is not None and found.driven_boundary(forward, zones) == zone
            # 205a runs D -> A (bottom to top): forward faces edge A (0), reversed edge D (3)
            assert d == pytest.approx(0.0 if forward else 3.0, abs=1e-6) or d == pytest.approx(6.0, abs=1e-6)


def test_shared_functions():
    assert zone_weight(0, 0) == 1.0 and zone_weight(1, 3) == pytest.approx(1.8) and zone_weight(1, 1) == 1.0
    assert zone_bounds([1.0, 2.0, 1.0]) == [0.0, 0.25, 0.75, 1.0]
    assert lane_strip(0.75, 0, 3) == pytest.approx((0.375, 0.125))
    layout = HexLayout(1.0)
    for edge in range(6):
        ux, uy = math.cos(layout.edge_angle(edge)), math.sin(layout.edge_angle(edge))
        assert heading_steps(layout, (ux, uy)) == pytest.approx(edge % 6)
    assert layout.axial(layout.centre(0.25, -0.5)) == pytest.approx((0.25, -0.5))


def test_a_token_beside_every_road_is_off_the_road():
    info = CATALOGUE.get("205a")
    assert info is not None
    # across the tile from the road, near the corner between edges B and C
    assert roadgeom.locate(info.definition, *UNIT.axial(UNIT.corner(0, 0, 1))) is None


@pytest.mark.parametrize("info", [CATALOGUE.get(t) for t in ("205a", "217a", "210a", "214a", "215a", "201a", "414b")],
                         ids=lambda t: t.id)
def test_points_are_the_centreline_points_bit_for_bit(info):
    """``Centreline.points(n)`` (the map's centreline samples, computed in one loop) gives exactly the floats of
    ``point(i / n)``: the map's bytes depend on them."""
    track = tile_track(info, CATALOGUE)
    for road in track_shapes(track, HexLayout(7.3, False), CATALOGUE).roads:
        line = road.centreline
        for n in (1, 16, 37):
            assert line.points(n) == [line.point(i / n) for i in range(n + 1)]


@pytest.mark.parametrize("tile_id, branch, main", [
    ("402a", (2, 2, "r"), (1, 2, "r")),   # the merge zone of the F -> D link is main zone 2's F-side lane
    ("402a", (3, 2, "l"), (1, 1, "r")),   # the F -> A link's merge zone, driven the other way round
    ("405a", (2, 2, "l"), (1, 2, "l")),   # RX 2's loop: the B -> D link onto main zone 2 (3 lanes)
    ("407a", (3, 2, None), (1, 2, "l")),  # road 3's `wide limit 2` is road 1's limit-2 inner lane (X(2))
])
def test_a_token_on_a_shared_space_goes_where_the_map_draws_it(tile_id, branch, main):
    """A space of a fork's branch that is a main-road space: the track file's token goes on the main road's
    space (turned the branch's way), and reads back as the branch's space when the step drives the branch."""
    tile = CATALOGUE.get(tile_id).definition
    q, r, d = roadgeom.token_offset(tile, branch[0], True, branch[1], branch[2])
    mq, mr, md = roadgeom.token_offset(tile, main[0], True, main[1], main[2])
    assert (q, r) == (mq, mr)
    same_way = tile.roads[branch[0] - 1].exit == tile.roads[main[0] - 1].exit
    assert d == pytest.approx(md if same_way else (md + 3) % 6, abs=1e-6)
    found = roadgeom.locate(tile, q, r, [branch[0]])
    zones = roadgeom.zone_count(tile, branch[0])
    assert found is not None and (found.road, *found.driven(True, zones)) == branch
    # read with the main road driven, the same token is the main road's space
    found = roadgeom.locate(tile, q, r, [main[0]])
    assert found is not None and (found.road, *found.driven(True, roadgeom.zone_count(tile, main[0]))) == main
