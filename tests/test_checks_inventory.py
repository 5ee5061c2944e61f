"""Inventory checks (TRACK-TILE-06): both sides of one physical tile, copies, declared boxes."""

from __future__ import annotations

from pathlib import Path

from helpers.compiler import codes, stage


def test_both_sides_of_one_tile_in_one_stage():
    """RC501 at the step that uses the second side (210 has one copy in the core box), with `boxes` only:
    without it no inventory check runs (issue 11: an owner may have two boxes)."""
    body = stage("202a", "210a left", "205a", "210b left", "206a", "207a", "203a")
    assert codes("boxes dirt-core\n" + body) == [("RC501", 6)]
    assert codes(body) == []


def test_tile_driven_twice_on_one_cell_is_one_physical_tile():
    """414b on two steps of Auto Tour 1 SS3 at one cell: no RC501/RC502."""
    assert codes((Path(__file__).resolve().parent.parent / "examples" / "auto-tour-1.rally").read_text()) == []


def test_copies_beyond_declared_boxes():
    """RC502 only with `boxes`: 205 is one tile in the core box."""
    body = stage("202a", "205a", "205a", "206a", "207a", "204a", "203a")
    assert codes("boxes dirt-core\n" + body) == [("RC502", 5)]
    assert codes(body) == []


def test_tile_from_a_box_not_declared():
    """RC503: 301a comes from dirt-110, which `boxes dirt-core` does not list."""
    found = codes("boxes dirt-core\n" + stage("202a", "205a", "206a", "207a", "204a", "301b", "203a"))
    assert found == [("RC302", 8), ("RC503", 8)]  # 301b is also a second start line


def test_a_box_listed_twice_holds_twice_its_tiles():
    """Two core boxes owned: 205 twice is within them (RC145 says the box is counted twice); three times is not."""
    twice = stage("202a", "205a", "205a", "206a", "207a", "204a", "203a")
    assert codes("boxes dirt-core dirt-core\n" + twice) == [("RC145", 1)]
    thrice = stage("202a", "205a", "205a", "205b", "206a", "207a", "204a", "203a")
    assert codes("boxes dirt-core dirt-core\n" + thrice) == [("RC145", 1), ("RC501", 6)]
