"""A circuit whose loop drives a fork's branch link onto the main road (RX 2: the loop takes 405a's B -> D link,
the Pre-grid its straight A -> D): the link's merge zone *is* the straight's zone 2 (tile-layouts.tsv 405a#2,
``H /4/ N3* N3``: "crossing the limit-4 line into the main road's zone-2 image-right-lane space (N3* = only that
space of the zone touches the branch), then main zone 3 (any lane)"), so the graph has one zone there, not two
(before: the loop's 12.2.* and the Pre-grid's 12.5.* at one place)."""

from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path

from rallyc.project import loader as project
from rallyc.compilation.pipeline import compile_loaded
from rallyc.render.geometry import HexLayout
from rallyc.render.shapes import track_shapes
from rallyc.tiles.catalogue import Catalogue

ROOT = Path(__file__).resolve().parent.parent


@lru_cache(maxsize=None)
def _rx2():
    loaded = project.load(ROOT / "examples" / "rx-2.rally")
    return compile_loaded(loaded).designs[0].tracks[0], Catalogue.from_tilesets(loaded.tilesets)


def test_the_link_s_merge_zone_is_the_straight_s_zone_2():
    track, _ = _rx2()
    fork = {sid: s for sid, s in track.spaces.items() if s.step == 12}
    assert sorted(fork) == ["12.1.l", "12.1.r", "12.2.l", "12.2.m", "12.2.r", "12.3.l", "12.3.m", "12.3.r",
                            "12.4.l", "12.4.m", "12.4.r"]
    g = track.graph
    # the Pre-grid's zone 1 of the straight (12.4) leads into its zone 2, which is the loop's 12.2, lane by lane
    assert sorted(g.successors("12.4.l")) == ["12.2.l", "12.2.m"]
    assert sorted(g.successors("12.4.m")) == ["12.2.l", "12.2.m", "12.2.r"]
    assert sorted(g.successors("12.4.r")) == ["12.2.m", "12.2.r"]
    assert all(fork[f"12.2.{x}"].pregrid is False for x in "lmr")


def test_from_the_half_line_the_loop_enters_one_space_across_the_limit_line():
    """RX-FORK-02, RX-FORK-03: the half-line spaces touch only the straight's lane on the branch's side (as
    driven towards D, the left lane: the image-right lane of the art), and the limit 4 holds for the move
    across the line, not for the space (a Pre-grid car entering 12.2.l from 12.4 has no limit there)."""
    track, _ = _rx2()
    g = track.graph
    for half in ("12.1.l", "12.1.r"):
        assert list(g.successors(half)) == ["12.2.l"]
        assert g.edges[half, "12.2.l"]["limit"] == 4
    assert "limit" not in g.edges["12.4.m", "12.2.l"]
    assert all(track.spaces[f"12.2.{x}"].limit is None for x in "lmr")
    # the zone leads on to zone 3 (any lane) lane by lane
    assert sorted(g.successors("12.2.l")) == ["12.3.l", "12.3.m"]
    assert sorted(g.successors("12.2.r")) == ["12.3.m", "12.3.r"]


def test_the_map_draws_the_zone_once_between_the_straight_s_zones_1_and_3():
    track, catalogue = _rx2()
    shapes = track_shapes(track, HexLayout(1.0), catalogue).spaces

    def mid(sid):
        xs, ys = zip(*shapes[sid].outline)
        return sum(xs) / len(xs), sum(ys) / len(ys)

    for lane in "lmr":
        a, b, c = mid(f"12.4.{lane}"), mid(f"12.2.{lane}"), mid(f"12.3.{lane}")
        # in a row along the straight, one zone apart
        assert abs(math.dist(a, c) - math.dist(a, b) - math.dist(b, c)) < 0.02
        assert 0.3 < math.dist(a, b) < 0.8
