"""The label placer's quick paths give the answers of the plain tests they replace.

``LabelIndex.place_by_clearance`` must choose (and file) exactly what ``place(by_clearance(...))`` does, and the
quick inside test of a hexagon must agree with the exact cross-product test, on boxes well inside, well
outside and straddling the edges; the maps of the published stages are compared byte for byte by
``benchmarks/render_snapshot.py`` (see docs/render.md).
"""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rallyc.render.geometry import HexLayout
from rallyc.render.labels import LabelIndex, Rect, _box_in_edges, _Convex, _edges, by_clearance
from rallyc.render.measure import rect_hits_polygon

LAYOUT = HexLayout(200.0 / math.sqrt(3))
R = LAYOUT.size


def _index(rng: random.Random, cells: list[tuple[int, int]]) -> LabelIndex:
    """An index with a road-like band across each cell and a few labels already placed."""
    index = LabelIndex(LAYOUT)
    for q, r in cells:
        cx, cy = LAYOUT.centre(q, r)
        a = rng.uniform(0, math.pi)
        ux, uy = math.cos(a), math.sin(a)
        half = rng.uniform(0.15, 0.3) * R
        length = rng.uniform(0.6, 1.0) * R
        index.add_polygon([(cx - ux * length + uy * half, cy - uy * length - ux * half),
                           (cx + ux * length + uy * half, cy + uy * length - ux * half),
                           (cx + ux * length - uy * half, cy + uy * length + ux * half),
                           (cx - ux * length - uy * half, cy - uy * length + ux * half)])
        for _ in range(rng.randint(0, 2)):
            x, y = cx + rng.uniform(-0.7, 0.7) * R, cy + rng.uniform(-0.7, 0.7) * R
            index.add_box(Rect.around((x, y), rng.uniform(0.05, 0.4) * R, rng.uniform(0.05, 0.2) * R))
    return index


def _ring(centre: tuple[float, float], radii: tuple[float, ...], count: int) -> list[tuple[float, float]]:
    out = []
    for rho in radii:
        if rho == 0:
            out.append(centre)
            continue
        for k in range(count):
            a = math.radians(15 + 360 * k / count)
            out.append((centre[0] + rho * R * math.cos(a), centre[1] + rho * R * math.sin(a)))
    return out


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), inside=st.booleans(), file_failed=st.booleans(),
       size=st.sampled_from([0.1, 0.3, 0.6, 1.2]), bounded=st.booleans())
def test_place_by_clearance_is_place_of_the_sorted_candidates(seed, inside, file_failed, size, bounded):
    rng = random.Random(seed)
    cells = [(0, 0), (1, 0), (0, 1), (-1, 1)]
    centre = LAYOUT.centre(0, 0)
    # samples as the map files them: points of a line through the cell, some repeated (ties in clearance)
    a = rng.uniform(0, math.pi)
    samples = [(centre[0] + math.cos(a) * t * R, centre[1] + math.sin(a) * t * R)
               for t in (rng.uniform(-0.9, 0.9) for _ in range(rng.randint(1, 20)))]
    samples += samples[: rng.randint(0, 3)]
    candidates = _ring(centre, (0.0, 0.3, 0.45, 0.58) if inside else (0.75, 0.95), 12 if inside else 18)
    candidates += candidates[: rng.randint(0, 2)]  # duplicate points: the stable order decides
    w, h = size * R * rng.uniform(0.5, 1.5), size * R * rng.uniform(0.3, 0.8)
    hexagon = LAYOUT.corners(0, 0) if inside else None
    plain, quick = _index(random.Random(seed), cells), _index(random.Random(seed), cells)
    if bounded:
        plain.bounds = quick.bounds = Rect(-1.2 * R, -1.5 * R, 1.2 * R, 1.5 * R)
    expected = plain.place(by_clearance(candidates, samples), w, h, inside=hexagon, file_failed=file_failed)
    got = quick.place_by_clearance(candidates, samples, w, h, inside=hexagon, file_failed=file_failed)
    assert got == expected
    assert quick.boxes == plain.boxes


def test_place_by_clearance_without_samples_keeps_the_order_given():
    index = LabelIndex(LAYOUT)
    candidates = _ring(LAYOUT.centre(0, 0), (0.3,), 12)
    assert index.place_by_clearance(candidates, [], 1.0, 1.0) == (candidates[0], True)


@pytest.mark.parametrize("flat", [True, False])
def test_quick_inside_test_agrees_with_the_cross_products(flat):
    layout = HexLayout(115.47, flat)
    rng = random.Random(7)
    for q, r in [(0, 0), (3, -2), (-40, 25)]:
        hexagon = layout.corners(q, r)
        region, edges = _Convex(hexagon), _edges(hexagon)
        cx, cy = layout.centre(q, r)
        corner_points = hexagon + [((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) for a, b in zip(hexagon, hexagon[1:])]
        for _ in range(4000):
            if rng.random() < 0.3:
                # a box with a corner on (or a hair from) a hexagon corner or edge middle
                px, py = rng.choice(corner_points)
                px += rng.choice([0.0, 1e-12, -1e-12, 1e-7, -1e-7])
                x0, y0 = px, py
                x1, y1 = cx + rng.uniform(-50, 50), cy + rng.uniform(-50, 50)
                x0, x1 = min(x0, x1), max(x0, x1)
                y0, y1 = min(y0, y1), max(y0, y1)
            else:
                x, y = cx + rng.uniform(-1.3, 1.3) * layout.size, cy + rng.uniform(-1.3, 1.3) * layout.size
                w, h = rng.uniform(0, 0.8) * layout.size, rng.uniform(0, 0.5) * layout.size
                x0, y0, x1, y1 = x - w / 2, y - h / 2, x + w / 2, y + h / 2
            assert region.holds_box(x0, y0, x1, y1) == _box_in_edges(x0, y0, x1, y1, edges)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_free_test_with_its_remembered_blockers_is_the_plain_test(seed):
    """``LabelIndex._clear`` tries first the label box and the road vertex that last kept a label out of the
    same cell: the answer is still the plain test over the cell's near boxes and road polygons, box after box
    filed in between."""
    rng = random.Random(seed)
    cells = [(0, 0), (1, 0), (0, 1), (-1, 1), (1, -1)]
    index = _index(rng, cells)
    pad = 0.01 * R
    for _ in range(120):
        q, r = rng.choice(cells)
        cx, cy = LAYOUT.centre(q, r)
        x, y = cx + rng.uniform(-0.9, 0.9) * R, cy + rng.uniform(-0.9, 0.9) * R
        w, h = rng.uniform(0.02, 0.9) * R, rng.uniform(0.02, 0.5) * R
        box = Rect.around((x, y), w, h)
        cell = LAYOUT.cell_at((x, y))
        plain = not any(box.x0 < o[2] and o[0] < box.x1 and box.y0 < o[3] and o[1] < box.y1
                        for o in index._boxes_near.get(cell, ())) and \
            not any(rect_hits_polygon(box.x0 - pad, box.y0 - pad, box.x1 + pad, box.y1 + pad, poly)
                    for *_, poly, _ in index._near_cell(*cell))
        assert index.free(box) == plain
        if rng.random() < 0.15:
            index.add_box(box)
