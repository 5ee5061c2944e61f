"""Reading Rekee JSON and RGT track files: formats, coordinates, tokens, located diagnostics (issue 6).

The files under tests/data/interop/ are hand-made in both formats; coordinate
checks are the worked examples of shared/data/formats.md.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rallyc.codes import all_codes
from rallyc.diagnostics import Severity
from rallyc.interop import bundled_catalogue, import_text, read_track
from rallyc.interop.coords import (axial_offset_to_rgt, axial_to_rgt_cell, rgt_cell_to_axial,
                                   rgt_offset_to_axial)
from rallyc.interop.jsonpos import JSONSyntaxError, parse
from rallyc.interop.reader import RGT_TOKENS, parse_rekee_token
from rallyc.interop.writer import rgt_tile_id, rgt_token_code
from rallyc.syntax import ast
from rallyc.syntax.parser import parse as parse_rallyc

DATA = Path(__file__).parent / "data" / "interop"
CAT = bundled_catalogue()


def _read(name: str):
    path = DATA / name
    return read_track(path.read_text(encoding="utf-8"), name, CAT)


def _import(name: str):
    return import_text((DATA / name).read_text(encoding="utf-8"), name, CAT)


def _where(diags):
    return [(d.code, d.span.line, d.span.column) for d in diags]


# ------------------------------------------------------------------ coordinates (formats.md checks)

@pytest.mark.parametrize("xy,qr", [((54, 52), (1, 0)), ((55, 52), (0, 0)), ((54, 53), (0, 1)),
                                   ((53, 53), (1, 1)), ((55, 53), (-1, 1))])
def test_rgt_cell_checks(xy, qr):
    assert rgt_cell_to_axial(*xy) == qr
    assert axial_to_rgt_cell(*qr) == xy


def test_rgt_cell_conversion_is_a_bijection_near_the_origin():
    for q in range(-9, 10):
        for r in range(-9, 10):
            assert rgt_cell_to_axial(*axial_to_rgt_cell(q, r)) == (q, r)


def test_rgt_token_offset_check():
    x, y = axial_offset_to_rgt(0.33, 0.0)
    assert round(x, 7) == -0.5715768 and y == 0.0
    q, r = rgt_offset_to_axial(-0.5715768, 0.0)
    assert abs(q - 0.33) < 1e-7 and r == 0.0
    q, r = rgt_offset_to_axial(*axial_offset_to_rgt(-0.1917, 0.1333))
    assert abs(q + 0.1917) < 1e-12 and abs(r - 0.1333) < 1e-12


# ------------------------------------------------------------------ ids and token codes

def test_tile_id_spellings_aliases_case_and_variants():
    track, diags = _read("stage-tokens.json")
    assert diags == []
    ids = [(t.raw_id, t.id) for t in track.tiles]
    assert ("206A-2", "206a") in ids and ("203A-1", "203a") in ids
    assert ("filler1a", "902a") in ids and ("PODIUM", "905a") in ids
    assert ("207a", "207a") in ids  # written in the array form
    # dir is taken mod 6
    assert {t.id: t.rot for t in track.tiles}["206a"] == 3 and {t.id: t.rot for t in track.tiles}["201a"] == 1


def test_rgt_ids_upper_case_dirt_lower_case_gt():
    track, diags = _read("stage-tokens.rgt")
    assert diags == []
    assert [t.id for t in track.tiles][:3] == ["202a", "206a", "208a"]
    assert rgt_tile_id("202a") == "202A" and rgt_tile_id("103b") == "103b" and rgt_tile_id("901a") == "901a"
    assert rgt_tile_id("902a") == "902A"


def test_every_rgt_token_code_maps_and_maps_back():
    assert len(RGT_TOKENS) == 21
    for code, (kind, print_) in RGT_TOKENS.items():
        assert rgt_token_code(kind, print_) == code
    assert RGT_TOKENS["ice3"] == ("water", "snow") and RGT_TOKENS["asphalt1"] == ("chicane-limit", "asphalt")
    assert rgt_token_code("mud-spray", None) is None


def test_rekee_token_ids():
    assert parse_rekee_token("water-gravel") == ("water", "gravel")
    assert parse_rekee_token("chicane-limit") == ("chicane-limit", None)
    assert parse_rekee_token("Chicane Limit Snow") == ("chicane-limit", "snow")
    assert parse_rekee_token("oxygen-3") == ("oxygen-3", None)
    assert parse_rekee_token("cloud-gravel") is None
    assert parse_rekee_token("oxygen") is None


# ------------------------------------------------------------------ import: every token kind

EXPECTED_STAGE = """\
rally "Token Test Stage" by "rallyc tests" {
  stage SS1 {
    202a at 0 0 rot 0
    206a reversed
    208a right
    207a
    203a
    201a
    scenery 902a at 0 1 rot 2
    scenery 905a at 1 1 rot 0
    token water at 2.4
    token chicane limit 2 at 2.3.l
    token chicane at 2.2
    token jump 4 at 2.1
    token oxygen 2 at 3.1
    token oxygen 3 at 3.2
    token mud at 3.3
    token climb-ascent at 4.1
    token climb-descent at 4.2
    token cloud at 4.3
    token oxygen 1 at 4.4
  }
}
"""


def test_import_rekee_stage_with_every_road_token():
    """Route form with turn words; tokens on the spaces they lie on (reversed tile: zones counted as driven)."""
    out = _import("stage-tokens.json")
    # the files carry no number on jump and chicane-limit tokens: the assumed values are reported
    assert _where(out.diagnostics) == [("RC716", 11, 8), ("RC716", 13, 8)]
    assert out.text == EXPECTED_STAGE
    doc, diags = parse_rallyc(out.text, "x.rally")
    assert diags == [] and isinstance(doc.items[0], ast.Rally)


def test_import_rgt_stage_gives_the_same_design_without_mud():
    """RGT has no mud-spray code; otherwise the same stage as the Rekee file."""
    out = _import("stage-tokens.rgt")
    assert [d.code for d in out.diagnostics] == ["RC716", "RC716"]
    assert out.text == EXPECTED_STAGE.replace("    token mud at 3.3\n", "")


def test_import_standees_make_a_circuit():
    """RX arches (finish, joker entrance/exit) become standees on the line at the entry of a zone."""
    for name in ("ice-standees.json", "ice-standees.rgt"):
        out = _import(name)
        assert [d.code for d in out.diagnostics] == ["RC716"], name  # laps are not in the file
        lines = out.text.splitlines()
        assert lines[0] == 'circuit "Ice Loop" {'
        assert lines[1:5] == ["  laps 2", "  301b at 0 1 rot 4", "  322b left", "  309b left"]
        assert lines[-4:] == ["  standee finish at 1.2", "  standee joker-entry at 4.1",
                              "  standee joker-exit at 7.2", "}"]


def test_token_print_other_than_tile_surface_warns():
    text = json.dumps({"title": "p", "tiles": [
        {"q": 0, "r": 0, "id": "202a", "dir": 0},
        {"q": 1, "r": 0, "id": "205a", "dir": 0, "tokens": [{"id": "water-snow", "q": 0, "r": 0, "dir": 0}]},
        {"q": 2, "r": 0, "id": "203a", "dir": 0}]})
    out = import_text(text, "p.json", CAT)
    assert [(d.code, d.severity) for d in out.diagnostics] == [("RC709", Severity.WARNING)]
    assert "token water at 2.2" in out.text


def test_duplicate_cell_keeps_the_later_tile_with_a_warning():
    out = _import("duplicate-cell.json")
    assert _where(out.diagnostics) == [("RC708", 6, 5)]
    assert out.diagnostics[0].related[0][0].line == 5
    assert "205a" in out.text and "204a" not in out.text


def test_unchained_stage_is_written_in_absolute_form():
    text = json.dumps({"title": "gap", "tiles": [
        {"q": 0, "r": 0, "id": "202a", "dir": 0}, {"q": 3, "r": 0, "id": "203a", "dir": 0}]})
    out = import_text(text, "gap.json", CAT)
    assert [d.code for d in out.diagnostics] == ["RC710"]
    assert "202a at 0 0 rot 0" in out.text and "203a at 3 0 rot 0" in out.text


def test_format_is_told_by_content_not_extension():
    rgt_text = (DATA / "stage-tokens.rgt").read_text(encoding="utf-8")
    track, diags = read_track(rgt_text, "renamed.json", CAT)
    assert diags == [] and track.format == "rgt"


# ------------------------------------------------------------------ bad files: exact code and location

def test_json_syntax_error_line_and_column():
    out = _import("bad-syntax.json")
    assert _where(out.diagnostics) == [("RC701", 5, 3)]
    assert out.text is None


def test_missing_keys_rekee():
    out = _import("bad-missing-keys.json")
    assert _where(out.diagnostics) == [("RC703", 5, 5), ("RC703", 7, 17), ("RC703", 8, 5)]
    msgs = [d.message for d in out.diagnostics]
    assert "`tiles[1]` has no `id`" in msgs[0] and "`tiles[2].tokens[0]` has no `q`" in msgs[1]
    assert out.text is None


def test_missing_keys_rgt():
    out = _import("bad-missing-keys.rgt")
    assert _where(out.diagnostics) == [("RC703", 4, 7)]
    assert "Orientation" in out.diagnostics[0].message


def test_unknown_tile_ids():
    out = _import("bad-unknown-tile.json")
    assert _where(out.diagnostics) == [("RC705", 5, 28), ("RC705", 6, 28)]
    assert "tiles[1].id" in out.diagnostics[0].message and out.diagnostics[0].hint.startswith("did you mean")


def test_wrong_types():
    out = _import("bad-types.json")
    assert _where(out.diagnostics) == [("RC704", 2, 12), ("RC704", 4, 11), ("RC704", 5, 28), ("RC704", 5, 40),
                                       ("RC704", 6, 56), ("RC704", 7, 5)]
    assert "`tiles[1].dir` must be a whole number, not 1.5" in out.diagnostics[3].message


def test_unknown_token_and_tokens_off_the_road():
    """A token that lies on no space is reported, never dropped silently (TRACK-TOKEN-01)."""
    out = _import("bad-tokens.rgt")
    assert _where(out.diagnostics) == [("RC706", 8, 65), ("RC707", 9, 12), ("RC707", 13, 21)]
    assert "scenery" in out.diagnostics[2].message


def test_not_a_track_file():
    out = _import("not-a-track.json")
    assert _where(out.diagnostics) == [("RC702", 1, 1)]


def test_json_positions():
    node = parse('{\n  "a": [1,\n    {"b": "x"}]\n}')
    b = node.value["a"].value[1].value["b"]
    assert (b.path, b.line, b.column) == ("a[1].b", 3, 11)
    with pytest.raises(JSONSyntaxError) as e:
        parse('{"a": }')
    assert (e.value.line, e.value.column) == (1, 7)


def test_interop_codes_are_registered():
    codes = all_codes()
    emitted = {"RC701", "RC702", "RC703", "RC704", "RC705", "RC706", "RC707", "RC708", "RC709", "RC710",
               "RC711", "RC712", "RC713", "RC714", "RC715", "RC716"}
    assert emitted <= set(codes)


# ------------------------------------------------------------------ never a traceback

from hypothesis import given, settings, strategies as st  # noqa: E402

_json = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(
        st.sampled_from(["title", "author", "tiles", "Tuiles", "q", "r", "id", "dir", "tokens", "X", "Y",
                         "Orientation", "TuileId", "Tokens", "TokenId", "Name"]), kids, max_size=5),
    max_leaves=20)


@settings(max_examples=150, deadline=None)
@given(_json)
def test_any_json_gives_diagnostics_not_exceptions(value):
    text = json.dumps(value, indent=1)
    out = import_text(text, "fuzz.json", CAT)
    assert out.text is not None or out.diagnostics
    for d in out.diagnostics:
        assert d.code in all_codes()


def test_deep_nesting_is_a_syntax_error_not_a_crash():
    out = import_text("[" * 5000 + "]" * 5000, "deep.json", CAT)
    assert [d.code for d in out.diagnostics] == ["RC701"]


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(["205a", "208a", "210b", "217a", "402a", "414b", "201a", "902a"]),
       st.integers(0, 5), st.floats(-1, 1), st.floats(-1, 1),
       st.sampled_from(["water", "jump-snow", "chicane-limit-asphalt", "oxygen-2", "finish", "joker-exit"]))
def test_token_anywhere_on_any_tile_is_placed_or_reported(tile, rot, q, r, token):
    """A token is given a space or an RC707 error, whatever the tile and offset (TRACK-TOKEN-01)."""
    text = json.dumps({"title": "t", "tiles": [{"q": 0, "r": 0, "id": tile, "dir": rot,
                                                "tokens": [{"id": token, "q": q, "r": r, "dir": 0}]}]})
    out = import_text(text, "t.json", CAT)
    codes = {d.code for d in out.diagnostics}
    placed = out.text is not None and (" at 1." in out.text)
    assert placed or "RC707" in codes
