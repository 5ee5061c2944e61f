"""Tile definitions written by the user are checked (RC15x); the bundled tilesets pass the same checks."""

from __future__ import annotations

import pytest

from rallyc.checks.tiles import check_tileset
from rallyc.project.loader import bundled_tilesets
from helpers.compiler import codes

STAGE = "stage S {\n  202a\n  206a\n  208a left\n  204a\n  203a\n}\n"


def tileset(road: str, header: str = "tile 205a gravel danger low copies 1") -> str:
    body = "".join(f"    {line}\n" for line in road.strip().splitlines())
    return f"tileset dirt-core {{\n  {header} {{\n{body}  }}\n}}\n" + STAGE


def errors(text: str) -> list[tuple[str, int | None]]:
    return [c for c in codes(text) if c[0].startswith("RC15")]


@pytest.mark.parametrize("name", sorted(bundled_tilesets()))
def test_bundled_tilesets_pass_the_tile_checks(name):
    """TRACK-TILE-02 TRACK-TILE-03: every bundled tile definition is well formed."""
    assert check_tileset(bundled_tilesets()[name]) == []


def test_shortcut_backwards_or_beyond_the_road():
    """CORE-SHORTCUT-03: a shortcut joins a zone to a later zone of the same road."""
    road = "road D -> A straight {\n  plain\n  plain\n  plain\n  shortcut 3 from 3 to 1\n  shortcut 2 from 1 to 4\n}"
    assert errors(tileset(road)) == [("RC150", 7), ("RC150", 8)]


def test_shortcut_from_a_zone_to_itself():
    road = "road D -> A straight {\n  plain\n  plain\n  shortcut 3 from 1 to 1\n}"
    assert errors(tileset(road)) == [("RC150", 6)]


def test_limits_and_jumps_are_gears():
    """CORE-CORNER-06 CORE-JUMP-01: limits and jumps run 1 to 6."""
    road = ("road B -> D left60 {\n  slide\n  corner inside 0 outside 3 3 3\n  plain jump 7\n"
            "  shortcut 9 from 1 to 3\n}")
    assert errors(tileset(road, "tile 217a gravel danger low copies 1")) == [
        ("RC151", 5), ("RC151", 6), ("RC151", 7)]


def test_per_lane_limits_count():
    """CORE-CORNER-09: one limit per lane, or one for all."""
    ok = "road D -> A straight {\n  plain limit 3\n  plain limit - 2\n  plain\n}"
    bad = "road D -> A straight {\n  plain limit 3 3 3\n  plain\n}"
    assert errors(tileset(ok)) == []
    assert errors(tileset(bad)) == [("RC152", 4)]


def test_road_enters_and_leaves_by_one_edge():
    assert errors(tileset("road D -> D straight {\n  plain\n}")) == [("RC153", 3)]


def test_road_without_zones():
    assert errors(tileset("road D -> A straight {\n  start\n}")) == [("RC154", 3)]


def test_lane_count():
    """TRACK-TILE-03: roads have 1 to 4 lanes."""
    assert errors(tileset("road D -> A straight lanes 5 {\n  plain\n}")) == [("RC155", 3)]
    assert errors(tileset("road D -> A straight {\n  plain lanes 0\n}")) == [("RC155", 4)]


def test_two_roads_between_the_same_edges():
    road = "road D -> A straight {\n  plain\n}\nroad A -> D straight {\n  plain\n}"
    assert errors(tileset(road)) == [("RC156", 6)]


def test_turn_contradicts_the_edges():
    assert errors(tileset("road D -> B left60 {\n  plain\n}")) == [("RC157", 3)]
    assert errors(tileset("road D -> B s-bend {\n  plain\n}")) == [("RC157", 3)]
    assert errors(tileset("road D -> B right60 {\n  plain\n}")) == []
    assert errors(tileset("road D -> B {\n  plain\n}")) == []
