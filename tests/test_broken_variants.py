"""Broken variants of the published designs: one edit to a good example, one exact diagnostic.

Each test copies an example from examples/ into tmp_path, makes one edit a designer could make by
mistake (a curve turned the wrong way, a tile swapped for the other side of a tile already in the
stage, a tile left out, two tiles on one cell, an RX circuit without its Joker exit arch...), compiles
it and asserts the code and the line of the diagnostic. The line is found from the edited text, so
comments in the examples can change without breaking these tests.
"""

from __future__ import annotations

from pathlib import Path

from rallyc.codes import all_codes
from rallyc.compilation.pipeline import compile_loaded
from rallyc.project.loader import load

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _variant(tmp_path: Path, name: str, old: str | None, new: str = "",
             boxes: str | None = None) -> tuple[str, list[tuple[str, int]]]:
    """Apply one edit (``old`` must occur once; None: no edit) and compile: the text and its errors
    as (code, line). ``boxes``: a `boxes` line put before the design (inventory checks run only with it)."""
    text = (EXAMPLES / name).read_text(encoding="utf-8")
    if boxes is not None:
        text = text.replace('\nrally "', f'\nboxes {boxes}\n\nrally "', 1)
    if old is not None:
        assert text.count(old) == 1, f"the edit must hit one place in {name}: {old!r}"
        text = text.replace(old, new)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    loaded = load(path)
    result = compile_loaded(loaded)
    diags = [d for d in [*loaded.diagnostics, *result.diagnostics] if d.severity == "error"]
    for d in diags:
        assert d.code in all_codes(), f"{d.code} is not registered in rallyc/codes"
    return text, [(d.code, d.span.line if d.span else 0) for d in diags]


def _line(text: str, fragment: str, after: str | None = None) -> int:
    """The 1-based line of the one line that contains ``fragment`` (the first one after the line
    containing ``after``, when given)."""
    lines = text.splitlines()
    start = 0 if after is None else _line(text, after)
    hits = [i for i, line in enumerate(lines, start=1) if fragment in line and i > start]
    if after is None:
        assert len(hits) == 1, f"{fragment!r} is on lines {hits}"
    assert hits, f"{fragment!r} not found"
    return hits[0]


def test_the_untouched_examples_compile_clean(tmp_path):
    """The baseline: without the edit the files below compile with no error."""
    for name in ("rally-1.rally", "ice-track-1.rally"):
        _, errors = _variant(tmp_path, name, None)
        assert errors == []


def test_curve_turned_the_wrong_way_runs_the_route_onto_the_start_tile(tmp_path):
    """TRACK-STAGE-07: Rally 1 SS1 with its first hairpin taken right instead of left: the route folds
    back and step 8 (219a) lands on the start tile's cell (RC206 on the 219a line)."""
    text, errors = _variant(tmp_path, "rally-1.rally", "# start\n    210b left  # hairpin",
                            "# start\n    210b right  # hairpin")
    assert ("RC206", _line(text, "219a left  # hairpin")) in errors
    assert {code for code, _ in errors} == {"RC206"}


def test_turn_word_against_an_absolute_rotation_is_rejected(tmp_path):
    """Ice Track 1 with 322b (driven left at rot 0) marked `right`: no road of 322b driven right
    enters from the start tile at that rotation (RC204 on the 322b line)."""
    text, errors = _variant(tmp_path, "ice-track-1.rally", "  322b at 0 0 rot 0", "  322b right at 0 0 rot 0")
    assert errors == [("RC204", _line(text, "322b right at 0 0 rot 0"))]


def test_tile_swapped_for_the_other_side_of_a_tile_already_used(tmp_path):
    """TRACK-TILE-06: Rally 1 SS1 with 217a replaced by 227b, the other side of the 227a already in
    the stage (same road edges, so the layout still fits): both sides of one tile (RC501), with the core box
    declared (without `boxes` no inventory check runs: the owner may have two boxes)."""
    edit = ("    217a right  # limits 2/3\n    203a  # finish\n    201a", "    227b right\n    203a  # finish\n    201a")
    text, errors = _variant(tmp_path, "rally-1.rally", *edit, boxes="dirt-core")
    assert [e for e in errors if e[0] == "RC501"] == [("RC501", _line(text, "227b right"))]
    assert _variant(tmp_path, "rally-1.rally", *edit)[1] == []


def test_tile_left_out_of_a_circuit(tmp_path):
    """Ice Track 1 without 307b: the road of 309b now leads to an empty cell, not to the next tile
    written (RC205 on the 323b line, the one after the gap)."""
    text, errors = _variant(tmp_path, "ice-track-1.rally", "  307b at -2 1 rot 2  # jump 3\n", "")
    assert errors == [("RC205", _line(text, "323b at -3 2 rot 4"))]


def test_tile_left_out_of_a_stage_shifts_the_route_onto_the_scenery(tmp_path):
    """Rally 1 SS1 without its straight 205a: every later tile moves up one cell and 219a now lies
    under the 905a filler (RC206 on the scenery line)."""
    old = "    210b left  # hairpin, limits 1/2\n    205a\n"
    text, errors = _variant(tmp_path, "rally-1.rally", old, "    210b left  # hairpin, limits 1/2\n")
    assert errors == [("RC206", _line(text, "scenery 905a at 1 -1 rot 3"))]


def test_two_tiles_on_one_cell(tmp_path):
    """A filler laid on the cell of Ice Track 1's 322b (RC206 on the scenery line)."""
    text, errors = _variant(tmp_path, "ice-track-1.rally", "  laps 2\n", "  laps 2\n  scenery 902a at 0 0 rot 0\n")
    assert errors == [("RC206", _line(text, "scenery 902a at 0 0 rot 0"))]


def test_stage_without_its_finish_tile(tmp_path):
    """TRACK-STAGE-07, TRACK-STAGE-08: Rally 1 SS1 without 203a has no finish line (RC303 on the stage
    line) and its Assistance tile no longer comes after a finish (RC309 on the 201a line)."""
    text, errors = _variant(tmp_path, "rally-1.rally", "# limits 2/3\n    203a  # finish\n    201a",
                            "# limits 2/3\n    201a")
    assert sorted(errors) == sorted([("RC303", _line(text, "stage SS1 {")),
                                     ("RC309", _line(text, "201a  # assistance", after="stage SS1 {"))])


def test_circuit_of_one_lap(tmp_path):
    """TRACK-RX-09: a race of fewer than 2 laps (RC402 on the laps line)."""
    text, errors = _variant(tmp_path, "ice-track-1.rally", "  laps 2\n", "  laps 1\n")
    assert errors == [("RC402", _line(text, "laps 1"))]


def test_rx_circuit_without_its_joker_exit_arch(tmp_path):
    """TRACK-RX-07: RX 1 with the red Joker exit arch removed (RC406 on the circuit line)."""
    text, errors = _variant(tmp_path, "rx-1.rally", "  standee joker-exit at 5.1\n", "")
    assert ("RC406", _line(text, 'circuit "RX 1"')) in errors
