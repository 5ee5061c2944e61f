"""Route checks of a stage, each with its exact code and line (TRACK-STAGE-*, TRACK-TILE-*)."""

from __future__ import annotations

from helpers.compiler import codes, compile_text, stage

GOOD = ("202a", "210b left", "205a", "227a right", "213a right", "208a left", "216a right", "219a left",
        "217a right", "203a", "201a")


def test_published_shaped_stage_is_clean():
    assert codes(stage(*GOOD)) == []


def test_no_start_line():
    """TRACK-STAGE-07 (RC301), located at the stage name."""
    assert codes(stage("205a", "210b left", "206a", "207a", "209a left", "203a")) == [("RC301", 1)]


def test_two_start_lines():
    """TRACK-STAGE-07 (RC302) at the second start tile (202b is also the other side of 202a: RC501 with boxes)."""
    assert codes(stage("202a", "202b", "205a", "206a", "207a", "203a")) == [("RC302", 3)]
    assert codes("boxes dirt-core\n" + stage("202a", "202b", "205a", "206a", "207a", "203a")) == \
        [("RC302", 4), ("RC501", 4)]


def test_no_finish_line():
    """TRACK-STAGE-07 / CORE-STAGEEND-01 (RC303)."""
    assert codes(stage("202a", "205a", "206a", "207a", "204a", "209a left")) == [("RC303", 1)]


def test_two_finish_lines():
    """RC304 at the second finish tile (203b is also the other side of 203a: RC501 with boxes)."""
    assert codes(stage("202a", "205a", "206a", "207a", "204a", "203a", "203b")) == [("RC304", 8)]


def test_finish_before_start_is_unreachable():
    """RC305: the finish must come after the start in driving order (CORE-MOVE-04)."""
    assert codes(stage("203a", "205a", "206a", "207a", "204a", "202a")) == [("RC305", 2)]


def test_start_line_at_the_entry_edge_has_no_space_behind_it():
    """RC311 (TRACK-STAGE-07): the start spaces are behind the Starting Line; here there are none."""
    tiles = "tileset t {\n  tile 991a gravel danger low {\n    road D -> A straight {\n      start\n" \
            "      plain\n      plain\n    }\n  }\n}\n"
    assert codes(tiles + stage("991a", "205a", "206a", "207a", "204a", "203a")) == [("RC311", 11)]


def test_assistance_before_finish():
    """TRACK-STAGE-08 (RC309): the Assistance tile is a dead end after the finish; RC307 for tiles after it."""
    found = codes(stage("202a", "205a", "201a", "206a", "203a"))
    assert sorted(found) == [("RC307", 5), ("RC308", 1), ("RC309", 4)]  # RC308: 4 road tiles, a short stage


def test_two_assistance_tiles():
    """TRACK-STAGE-08: the Assistance tile is a dead end, so nothing can follow it (RC307 at the second)."""
    assert codes(stage(*GOOD[:-1], "201a", "201b")) == [("RC307", 13)]


def test_stage_length_guideline_warnings():
    """TRACK-STAGE-01..03 (RC308, warning): 3 road tiles is far below a Short stage."""
    result, _ = compile_text(stage("202a", "205a", "203a"))
    d = next(d for d in result.diagnostics if d.code == "RC308")
    assert d.severity.value == "warning" and d.span.line == 1 and "10 tiles" in d.message


def test_stats_class_nearest():
    from rallyc.compiler.stats import stage_class
    assert [stage_class(n) for n in (8, 12, 13, 16, 17, 25)] == ["Short", "Short", "Medium", "Medium", "Long", "Long"]


def test_rally_with_no_stages():
    """RC310 at the rally line."""
    assert codes('rally "R" {\n  options flying-start\n}\n') == [("RC310", 1)]


def test_overlap_is_located_at_the_step_that_lands_second():
    """TRACK-TILE-06 (RC206): the route runs back onto its own cell."""
    found = codes(stage("202a", "216a right", "216a right", "216a right", "216a right", "203a"))
    # steps 4, 5 and 6 (lines 5-7) land on the cells of steps 1, 2 and 3
    assert found == [("RC206", 5), ("RC206", 6), ("RC206", 7)]


def test_scenery_on_the_road():
    """RC206: a filler on a cell of the route."""
    assert codes(stage("202a", "205a", "206a", "203a", "scenery 902a at 1 0 rot 0")) == [("RC206", 6), ("RC308", 1)]


def test_road_into_scenery_before_the_finish():
    """RC207: the road of step 2 leads into a filler (the route continues elsewhere only in absolute form)."""
    found = codes(stage("202a at 0 0 rot 0", "205a", "scenery 902a at 2 0 rot 0"))
    assert found == [("RC207", 3), ("RC303", 1), ("RC308", 1)]


def test_road_runs_into_tile_edge_without_road_absolute_form():
    """RC204 (TRACK-TILE-02): the next tile's rotation puts no road on the facing edge."""
    assert codes(stage("202a at 0 0 rot 0", "210b at 1 0 rot 2", "203a")) == [("RC204", 3), ("RC308", 1)]


def test_wrong_turn_word_names_the_valid_choices():
    result, _ = compile_text(stage("202a", "216a straight", "203a"))
    d = next(d for d in result.diagnostics if d.code == "RC202")
    assert d.span.line == 3 and "`216a right`" in d.hint and "`216a left`" in d.hint


def test_unknown_tile_is_reported_once_and_the_stage_not_built():
    """Unknown tiles come from the name check; the stage is not placed (no RC2xx cascade)."""
    result, _ = compile_text(stage("202a", "299z", "203a"))
    assert [(d.code, d.span.line) for d in result.diagnostics] == [("RC131", 3)]  # 299z: no such side letter
    assert result.designs[0].tracks == []


TILES = """tileset t {
  tile 991a gravel danger low {
    road D -> A straight lanes 1 {
      plain
      plain
    }
  }
  tile 992a gravel danger low {
    road D -> A straight {
      plain
      plain
      plain
      shortcut 3 from 1 to 2
    }
  }
}
"""


def test_lane_count_mismatch_at_a_join():
    """TRACK-TILE-03 (RC208): a 1-lane road meets a 2-lane road (only equal or 2 <-> 3 may join)."""
    found = codes(TILES + stage("202a", "991a", "205a", "206a", "207a", "204a", "203a"))
    assert found == [("RC208", 19), ("RC208", 20)]  # into 991a (step 2) and out of it (step 3)


def test_unreachable_space_is_a_warning_on_its_step():
    """RC306: a shortcut between adjacent zones can never be entered (CORE-MOVE-04: its front edge is not ahead)."""
    result, _ = compile_text(TILES + stage("202a", "992a", "205a", "206a", "207a", "204a", "203a"))
    d = [d for d in result.diagnostics if d.code == "RC306"]
    assert [(x.severity.value, x.span.line) for x in d] == [("warning", 19)] and "2.cut1" in d[0].message
