"""RX circuit checks (TRACK-RX-01..09) and the fork modelling (RX-FORK-02/03, TRACK-RX-03/08)."""

from __future__ import annotations

from pathlib import Path

from rallyc.compilation.pipeline import compile_loaded
from rallyc.project.loader import load
from helpers.compiler import codes

ROOT = Path(__file__).resolve().parent.parent
RX1 = (ROOT / "examples" / "rx-1.rally").read_text()


def _rx1():
    return compile_loaded(load(ROOT / "examples" / "rx-1.rally")).designs[0].track()


def test_rx1_is_a_closed_loop_with_laps():
    """TRACK-RX-01: the loop closes (lap edges from the last tile to the first)."""
    t = _rx1()
    laps = [(a, b) for a, b, d in t.graph.edges(data=True) if d.get("lap")]
    assert laps and all(a.startswith("10.") and b.startswith("1.") for a, b in laps)
    assert t.laps == 3 and t.lap_length == 10.0


def test_joker_leaves_and_rejoins_through_forks():
    """TRACK-RX-07/08: the Joker branch leaves the loop at the 408a fork through one lane and rejoins at 415a."""
    t = _rx1()
    joker = {s.id for s in t if s.joker}
    assert {s.step for s in t if s.joker} == {2, 5, 11}
    leaving = [(a, b) for a, b in t.graph.edges() if b in joker and a not in joker]
    assert leaving and {a for a, _ in leaving} == {"2.1.l"}
    rejoin = [(a, b) for a, b in t.graph.edges() if a in joker and b not in joker]
    assert rejoin and all(b.startswith("5.") for _, b in rejoin)


def test_half_line_spaces_and_limit_lines():
    """RX-FORK-02/03: the fork's half-line zone is two spaces; crossing the limit line gives the limit."""
    t = _rx1()
    halves = [s for s in t if s.kind == "half" and s.step == 2]
    assert len(halves) == 2 and {s.limit for s in halves} == {3}
    # the Pre-grid joins 404a through the limit-4 line into one lane only (merge zone)
    joins = [(a, b, d) for a, b, d in t.graph.edges(data=True) if t.space(a).pregrid and not t.space(b).pregrid]
    assert {b for _, b, _ in joins} == {"10.2.l"} and {d.get("limit") for *_, d in joins} == {4}


def test_cars_start_on_the_pregrid():
    """RX-START-01: the start spaces are the Pre-grid's grid slots (behind its line)."""
    t = _rx1()
    assert t.start_spaces and all(t.space(s).pregrid for s in t.start_spaces)


def test_one_lap_is_too_few():
    """TRACK-RX-09 (RC402) at the laps line."""
    line = RX1.splitlines().index("  laps 3") + 1
    assert codes(RX1.replace("laps 3", "laps 1")) == [("RC402", line)]


def test_circuit_not_closed():
    """TRACK-RX-01 (RC401): drop the last loop tile."""
    text = RX1.replace("  404a at -2 2 rot 4", "  #").replace("joker 11", "joker 10").replace("pregrid 12", "")
    text = text.replace("  401b at -1 1 rot 2", "  #")
    # reported on the 209b line (30): the loop now ends there without rejoining its first tile
    assert codes(text) == [("RC401", RX1.splitlines().index(next(l for l in RX1.splitlines()
                                                                    if l.startswith("  209b"))) + 1)]


def test_finish_standee_on_a_corner():
    """TRACK-RX-05 (RC404): the standee at the entry of a corner zone of the loop."""
    corner = next(s.corner for s in _rx1().ordered_spaces() if s.kind == "corner" and not s.joker)
    found = codes(RX1.replace("standee finish at 1.1", f"standee finish at {corner}"))
    line = RX1.splitlines().index("  standee finish at 1.1") + 1
    assert ("RC404", line) in found
    # that corner (step 4) is also between the Joker arches (RC405) and 4 tiles from the Pre-grid (RC409)
    assert sorted(found) == sorted([("RC404", line), ("RC405", line), ("RC409", line - 1)])


def test_finish_standee_between_joker_arches():
    """TRACK-RX-06 (RC405)."""
    line = RX1.splitlines().index("  standee finish at 1.1") + 1
    assert codes(RX1.replace("standee finish at 1.1", "standee finish at 3.1")) == [("RC405", line)]


def test_missing_joker_exit():
    """TRACK-RX-07 (RC406)."""
    line = RX1.splitlines().index('circuit "RX 1" by "JC Bouvier" {') + 1
    assert codes(RX1.replace("standee joker-exit at 5.1", "")) == [("RC406", line)]


def test_missing_finish_standee_without_printed_line():
    """TRACK-RX-04 (RC403)."""
    line = RX1.splitlines().index('circuit "RX 1" by "JC Bouvier" {') + 1
    assert codes(RX1.replace("standee finish at 1.1", "")) == [("RC403", line)]


def test_pregrid_too_far_from_the_start_line():
    """TRACK-RX-02 (RC409): move the finish standee 5 tiles after the Pre-grid fork."""
    text = RX1.replace("standee finish at 1.1", "standee finish at 6.1").replace(
        "standee joker-entry at 2.1", "standee joker-entry at 2.1")
    found = codes(text)
    line = RX1.splitlines().index(next(l for l in RX1.splitlines() if l.startswith("  401b"))) + 1
    assert found == [("RC409", line)]


def test_pregrid_meeting_a_tile_that_is_not_a_fork():
    """TRACK-RX-03 TRACK-RX-08 (RC408): the Pre-grid turned to face the S-bend 411a, which has no road to it."""
    line_text = next(l for l in RX1.splitlines() if l.startswith("  401b"))
    line = RX1.splitlines().index(line_text) + 1
    found = codes(RX1.replace(line_text, line_text.replace("rot 2", "rot 5")))
    assert found == [("RC408", line), ("RC409", line)]  # turned away, the Pre-grid joins nothing


def test_joker_arch_on_the_joker_tile_counts_from_its_fork():
    """TRACK-RX-06 (RC405): an entry arch on the Joker's own tile (209b, step 11) stands for the fork it
    leaves from (408a, step 2): the finish at 1.1 is outside the bypassed stretch, at 3.1 it is inside."""
    arch_on_joker = RX1.replace("standee joker-entry at 2.1", "standee joker-entry at 11.1")
    assert codes(arch_on_joker) == []
    finish_line = RX1.splitlines().index("  standee finish at 1.1") + 1
    inside = arch_on_joker.replace("standee finish at 1.1", "standee finish at 3.1")
    assert codes(inside) == [("RC405", finish_line)]
