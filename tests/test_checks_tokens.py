"""Tokens on spaces (TRACK-TOKEN-01..03, CORE-WATER-01, CORE-JUMP-01)."""

from __future__ import annotations

from helpers.compiler import codes, compile_text, stage, track_of

ROUTE = ("202a", "210b left", "205a", "227a right", "213a right", "208a left", "216a right", "219a left",
         "217a right", "203a", "201a")


def test_tokens_set_space_attributes():
    """A water token makes a water space; a zone token covers the zone's lane spaces; chicane keeps its limit."""
    t = track_of(stage(*ROUTE, "token water at 3.2.l", "token jump 4 at 3.3", "token chicane limit 2 at 6.1.r",
                       "token chicane at 6.2.l"))
    assert t.space("3.2.l").water and not t.space("3.2.r").water
    assert t.space("3.3.l").jump == 4 and t.space("3.3.r").jump == 4
    assert t.space("6.1.r").chicane == 2 and t.space("6.1.r").tokens == ("chicane limit 2",)


def test_token_on_printed_corner_limit():
    """TRACK-TOKEN-01 (RC602): a corner space has a printed speed limit."""
    assert codes(stage(*ROUTE, "token water at 2.1.in1")) == [("RC602", 13)]


def test_two_road_effect_tokens_on_one_space():
    """RC603: one token covers one space (Ambiguities #25)."""
    assert codes(stage(*ROUTE, "token water at 3.2.l", "token jump 3 at 3.2.l")) == [("RC603", 14)]


def test_token_on_missing_space():
    """RC601 for a step, a zone or a lane that is not there, with the choices in the hint."""
    result, _ = compile_text(stage(*ROUTE, "token water at 30.1", "token water at 3.9", "token mud at 3.1.s1"))
    found = [(d.code, d.span.line) for d in result.diagnostics]
    assert found == [("RC601", 13), ("RC601", 14), ("RC601", 15)]
    assert "l, r" in result.diagnostics[2].hint


def test_lone_chicane_without_limit_is_advice():
    """TRACK-TOKEN-03 (RC604, warning)."""
    result, _ = compile_text(stage(*ROUTE, "token chicane at 3.2.l"))
    assert [(d.code, d.severity.value, d.span.line) for d in result.diagnostics] == [("RC604", "warning", 13)]


def test_jump_token_needs_its_gear():
    assert codes(stage(*ROUTE, "token jump at 3.1")) == [("RC605", 13)]
