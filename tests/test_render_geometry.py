"""The map geometry: hex orientation, roads through a cell, space outlines of a hand-built track."""

from __future__ import annotations

import math

import pytest

from rallyc.geometry.hexgrid import neighbour
from rallyc.render.geometry import SQRT3, Centreline, HexLayout, fmt, path_d, polygon_centroid
from rallyc.render.shapes import track_shapes

from helpers.render import mini_track

L = HexLayout(10.0)


def test_edge_a_is_the_top_and_edges_run_clockwise():
    """Rekee convention: A (+1,0) top, then clockwise on screen (y down)."""
    cx, cy = L.centre(0, 0)
    angles = []
    for k in range(6):
        nq, nr = neighbour((0, 0), k)
        x, y = L.centre(nq, nr)
        # the neighbour across edge k lies beyond the middle of edge k
        mx, my = L.edge_mid(0, 0, k)
        assert math.isclose(math.dist((x, y), (cx, cy)), SQRT3 * 10.0)
        assert math.isclose(math.dist((mx, my), ((x + cx) / 2, (y + cy) / 2)), 0.0, abs_tol=1e-9)
        angles.append(math.degrees(math.atan2(y - cy, x - cx)) % 360)
    assert angles[0] == pytest.approx(270)  # straight up on screen
    # clockwise on screen (y down) = increasing screen angle
    assert [round((a - angles[0]) % 360) for a in angles] == [0, 60, 120, 180, 240, 300]


def test_flat_top_hexagon_has_a_horizontal_top_edge():
    corners = L.corners(0, 0)
    top = sorted(corners, key=lambda p: p[1])[:2]
    assert top[0][1] == pytest.approx(top[1][1])
    assert math.dist(*top) == pytest.approx(10.0)


def test_pointy_layout_turns_edge_a_to_upper_right():
    p = HexLayout(10.0, flat=False)
    x, y = p.edge_mid(0, 0, 0)
    assert x > 0 and y < 0


@pytest.mark.parametrize("entry,exit,shape,turn", [
    (3, 0, "straight", 0.0), (3, 1, "curve60", -60.0), (3, 5, "curve60", 60.0),
    (3, 2, "hairpin", -120.0), (3, 4, "hairpin", 120.0),
])
def test_centreline_joins_edge_middles_with_the_right_turn(entry, exit, shape, turn):
    line = Centreline(L, 0, 0, entry, exit)
    assert line.shape == shape
    assert math.dist(line.point(0), L.edge_mid(0, 0, entry)) < 1e-9
    assert math.dist(line.point(1), L.edge_mid(0, 0, exit)) < 1e-9
    assert math.degrees(line.turning(0, 1)) == pytest.approx(turn, abs=4)
    if shape == "curve60":
        assert line.radius == pytest.approx(15.0)
    if shape == "hairpin":
        assert line.radius == pytest.approx(5.0)


def test_s_bend_leaves_its_edges_square():
    line = Centreline(L, 0, 0, 3, 0, bulge=1)
    assert line.shape == "s-bend"
    tx, ty = line.tangent(0.0)
    assert abs(tx) < 0.05 and ty < 0
    assert line.inside_side(0.35, 0.65) == -1  # swings left, so its middle turns right


def test_numbers_have_two_decimals_and_no_negative_zero():
    assert fmt(-0.001) == "0.00"
    assert path_d([(0, 0), (1.005, -2)]) .startswith("M0.00,0.00L")
    assert polygon_centroid([(0, 0), (2, 0), (2, 2), (0, 2)]) == pytest.approx((1, 1))


def test_every_space_gets_one_outline_inside_its_tile():
    track = mini_track()
    shapes = track_shapes(track, L)
    assert sorted(shapes.spaces) == sorted(track.spaces)
    R = L.size
    cells = {p.step: (p.q, p.r) for p in track.placed}
    for sid, sh in shapes.spaces.items():
        q, r = cells[track.space(sid).step]
        c = L.centre(q, r)
        assert all(math.dist(p, c) <= R * 1.02 for p in sh.outline), sid
        assert len(sh.outline) >= 3


def test_corner_inside_spaces_are_on_the_inside_of_the_bend():
    """217a driven F -> B is a left 60: its inside space lies nearer the curve's centre."""
    track = mini_track()
    shapes = track_shapes(track, L)
    road = next(r for r in shapes.roads if r.step == 3)
    pivot = road.centreline.pivot
    d_in = math.dist(shapes.spaces["3.2.in1"].label, pivot)
    d_out = min(math.dist(shapes.spaces[f"3.2.out{k}"].label, pivot) for k in (1, 2, 3))
    assert d_in < d_out


def test_shortcut_wedge_lies_inside_the_hairpin():
    track = mini_track()
    shapes = track_shapes(track, L)
    road = next(r for r in shapes.roads if r.step == 2)
    pivot = road.centreline.pivot
    cut = shapes.spaces["2.cut1"]
    assert math.dist(cut.label, pivot) < road.centreline.radius - road.width / 2


def test_start_and_finish_lines_come_from_the_graph():
    track = mini_track()
    shapes = track_shapes(track, L)
    roads = {r.step: r for r in shapes.roads}
    assert roads[1].start_after == [2]
    assert roads[5].finish_before == [3]
    assert roads[6].dead_end
