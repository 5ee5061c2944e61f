"""Placement of route steps on the hex grid (TRACK-TILE-01, TRACK-TILE-02)."""

from __future__ import annotations

from pathlib import Path

from rallyc.geometry.hexgrid import neighbour, opposite
from helpers.compiler import codes, compile_text, stage, track_of

TILES = """tileset t {
  tile 991a gravel danger low {
    road D -> A straight {
      plain
      start
      plain
    }
  }
  tile 992a gravel danger low {
    road D -> C right120 {
      corner inside 1 outside 2 2
    }
  }
  tile 993a gravel danger low {
    road D -> A straight {
      plain
      finish
      plain
    }
  }
}
"""


def test_first_step_is_printed_at_origin():
    """Step 1 lies on (0,0), rot 0, driven in its printed direction (entry D, exit A)."""
    t = track_of(TILES + stage("991a", "993a"))
    p = t.steps[0]
    assert (p.q, p.r, p.rot, p.entry, p.exit) == (0, 0, 0, "D", "A")
    assert (t.steps[1].q, t.steps[1].r) == tuple(neighbour((0, 0), "A")) == (1, 0)


def test_every_step_enters_across_the_previous_exit():
    """TRACK-TILE-02: consecutive tiles meet edge to edge."""
    t = track_of(TILES + stage("991a", "992a right", "992a left", "993a"))
    for a, b in zip(t.steps, t.steps[1:]):
        assert (b.q, b.r) == tuple(neighbour((a.q, a.r), a.exit))
        assert b.entry == opposite(a.exit)


def test_right_hairpin_turns_the_route_right():
    """A right120 hairpin driven as printed turns the route two edges clockwise."""
    t = track_of(TILES + stage("991a", "992a right", "993a"))
    a, h = t.steps[0], t.steps[1]
    assert a.exit == "A"
    # entering across D (from below) a right120 leaves by D+3+2 = C (clockwise of straight ahead A by two)
    assert h.entry == "D" and h.exit == "C"


def test_left_and_right_land_on_different_cells():
    """210b driven left vs right: the next tile lands on different cells (the turn word picks the direction)."""
    left = track_of(stage("202a", "210b left", "205a", "203a"))
    right = track_of(stage("202a", "210b right", "205a", "203a"))
    assert (left.steps[2].q, left.steps[2].r) != (right.steps[2].q, right.steps[2].r)
    assert left.steps[1].exit != right.steps[1].exit


def test_turn_word_left_is_right_driven_backwards():
    """A road printed `D -> C right120` is `right` driven D->C and `left` driven C->D."""
    t = track_of(TILES + stage("991a", "992a left", "993a"))
    h = t.steps[1]
    assert h.road == 1
    # driven backwards, the car enters by the tile's own C edge
    assert h.entry == "D" and h.rot == (3 - 2) % 6


def test_missing_turn_word_on_a_curve_is_located_with_choices():
    """RC201: a curve needs left/right in route form; the hint lists both spellings."""
    result, _ = compile_text(TILES + stage("991a", "992a", "993a"))
    d = next(d for d in result.diagnostics if d.code == "RC201")
    assert d.span.line == 24
    assert "`992a right`" in d.hint and "`992a left`" in d.hint


def test_straight_on_a_hairpin_is_rejected():
    """RC202: `straight` on a hairpin; the hint lists the valid words."""
    assert codes(TILES + stage("991a", "992a straight", "993a")) == [("RC202", 24), ("RC308", 22)]


def test_road_number_required_on_two_road_tile():
    """RC203: 414b has two separate roads; `road N` is required."""
    assert codes(stage("202a", "414b", "203a")) == [("RC203", 3), ("RC308", 1)]


def test_absolute_step_picks_the_road_that_faces_the_previous_step():
    """Absolute form: the direction comes from the geometry; a route step with `at` is checked."""
    t = track_of(stage("202a at 0 0 rot 0", "205a at 1 0 rot 3", "203a"))
    assert t.steps[1].rot == 3 and t.steps[1].entry == "D"
    assert codes(stage("202a at 0 0 rot 0", "205a at 2 2 rot 0", "203a")) == [("RC205", 3), ("RC308", 1)]


def test_absolute_step_with_no_road_facing_the_previous_step():
    """RC204: at this rotation the hairpin has no road on the edge facing the previous tile."""
    assert codes(stage("202a at 0 0 rot 0", "210b at 1 0 rot 2", "203a")) == [("RC204", 3), ("RC308", 1)]


def test_tile_driven_twice_on_its_two_roads_is_not_an_overlap():
    """Auto Tour 1 SS3 drives 414b at steps 2 and 5 (one physical tile, two roads)."""
    result, _ = compile_text((Path(__file__).resolve().parent.parent / "examples" / "auto-tour-1.rally").read_text())
    assert result.diagnostics == []
    ss3 = result.designs[0].track("SS3")
    cells = [(p.q, p.r) for p in ss3.steps if p.tile == "414b"]
    assert len(cells) == 2 and cells[0] == cells[1]


def test_route_running_into_itself_overlaps():
    """RC206: four right hairpins in a row bring the road back onto an earlier cell."""
    found = codes(stage("202a", "216a right", "216a right", "216a right", "216a right", "203a"))
    assert found == [("RC206", 5), ("RC206", 6), ("RC206", 7)]


def test_turn_word_contradicting_the_position_says_which_way_it_turns():
    """RC204: at this position 210b turns left, so no road driven `right` enters; the hint gives the spelling."""
    result, _ = compile_text(stage("202a at 0 0 rot 0", "210b right at 1 0 rot 1", "203a"))
    d = next(d for d in result.diagnostics if d.code == "RC204")
    assert d.span.line == 3 and "`210b left at 1 0 rot 1`" in d.hint
