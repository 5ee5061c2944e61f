"""RX circuits with fork tiles from Rekee/RGT files: the main loop, the Joker and the Pre-grid are
found from the tiles and the arches, and the import compiles (TRACK-RX-01, -03, -06, -07, -08).

The hand-made files of ``tests/data/interop/`` hold the rulebook's RX 1 (RGT) and RX 2 (Rekee)
with the tiles in another order than driving order and the arches placed by hand near (not on)
the lines; ``rx-no-joker-exit.json`` lacks the Joker's exit arch.
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from rallyc.cli import app
from rallyc.pipeline import compile_loaded
from rallyc.diagnostics import Severity, has_errors
from rallyc.interop import bundled_catalogue, import_text, read_track
from rallyc.interop.importer import split_tiles
from rallyc.interop.rximport import _arches
from rallyc.interop.rxlayout import rx_layouts
from rallyc.project import load, load_text

DATA = Path(__file__).parent / "data" / "interop"
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
CAT = bundled_catalogue()


def _track(text: str, name: str):
    result = compile_loaded(load_text(text, name))
    assert not has_errors(result.diagnostics), [(d.code, d.message) for d in result.diagnostics]
    return result.designs[0].tracks[0]


def _example(name: str):
    return compile_loaded(load(EXAMPLES / name)).designs[0].tracks[0]


def _same_circuit(got, want):
    nodes = lambda t: {n: {k: v for k, v in d.items() if k != "span"} for n, d in t.graph.nodes(data=True)}  # noqa: E731
    edges = lambda t: {(a, b): dict(d) for a, b, d in t.graph.edges(data=True)}  # noqa: E731
    assert nodes(got) == nodes(want)
    assert edges(got) == edges(want)
    assert [(s.kind, s.at) for s in sorted(got.standees, key=lambda s: s.kind)] == \
        [(s.kind, s.at) for s in sorted(want.standees, key=lambda s: s.kind)]


def _import(name: str):
    return import_text((DATA / name).read_text(encoding="utf-8"), name, CAT)


def test_hand_made_rekee_rx2_imports_as_the_rulebook_circuit():
    """TRACK-RX-01/03/07/08: loop from the finish arch's tile, Joker between the arches, Pre-grid."""
    out = _import("rx-hand.json")
    assert [d.code for d in out.diagnostics] == ["RC716"]  # laps are not in the file
    assert "  joker 13\n  pregrid 14\n" in out.text and out.text.splitlines()[2].startswith("  411a ")
    _same_circuit(_track(out.text, "rx-hand.rally"), _example("rx-2.rally"))


def test_hand_made_rgt_rx1_with_the_entrance_arch_on_the_joker_tile():
    """TRACK-RX-07: an arch found on the Joker tile is written on the fork where the Joker leaves."""
    out = _import("rx-hand.rgt")
    assert [d.code for d in out.diagnostics] == ["RC716"]
    assert "standee joker-entry at 2.1" in out.text and "joker 11" in out.text and "pregrid 12" in out.text
    _same_circuit(_track(out.text, "rx-hand.rally"), _example("rx-1.rally"))


def test_import_does_not_depend_on_the_order_of_the_tiles_in_the_file():
    """Deterministic output: the same tiles listed backwards give the same text."""
    data = json.loads((DATA / "rx-hand.json").read_text(encoding="utf-8"))
    data["tiles"].reverse()
    again = import_text(json.dumps(data), "reversed.json", CAT)
    assert again.text == _import("rx-hand.json").text


def test_missing_joker_exit_arch_is_left_out_and_the_circuit_written():
    """TRACK-RX-07 (RC406): no exit arch. Issue 11: the import writes the best file it can (what the file
    holds); the missing arch is check's error on the written circuit, not a reason to write nothing."""
    out = _import("rx-no-joker-exit.json")
    assert out.text is not None and "standee joker-entry" in out.text and "joker-exit" not in out.text
    assert not [d for d in out.diagnostics if d.severity is Severity.ERROR]
    # the reading is still the rulebook's: the Joker is 209b, the Pre-grid 401b
    layout = out.result.layout
    assert [d.info.id for d in layout.joker] == ["209b"] and [d.info.id for d in layout.pregrid] == ["401b"]


def test_cli_import_of_the_bad_rx_file_writes_it_and_exits_1_with_checks_error(tmp_path):
    """TRACK-RX-07 (RC406) through the CLI: the file is written, exit 1 with check's located diagnostic."""
    target = tmp_path / "rx.rally"
    r = CliRunner().invoke(app, ["import", str(DATA / "rx-no-joker-exit.json"), "-o", str(target)],
                           catch_exceptions=False)
    assert r.exit_code == 1 and target.exists()
    assert f"{target}:1:1: error[RC406]: the Joker has no exit arch" in r.stderr and "Traceback" not in r.output
    assert CliRunner().invoke(app, ["check", str(target)]).exit_code == 1


def test_cli_import_then_check_of_a_hand_made_rx_file(tmp_path):
    """TRACK-RX-01..09: what `rallyc import` writes for an RX file passes `rallyc check`."""
    target = tmp_path / "rx.rally"
    r = CliRunner().invoke(app, ["import", str(DATA / "rx-hand.rgt"), "-o", str(target)], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(app, ["check", str(target)], catch_exceptions=False)
    assert r.exit_code == 0, r.output


def test_finish_arch_decides_the_direction_round_the_loop():
    """TRACK-RX-06: readings with the finish arch inside the stretch the Joker bypasses come last."""
    track, _ = read_track((DATA / "rx-hand.rgt").read_text(encoding="utf-8"), "rx-hand.rgt", CAT)
    road_tiles, _ = split_tiles(track, CAT)
    layouts = rx_layouts(road_tiles, _arches(track))
    best = layouts[0]
    assert best.misfits == 0 and [d.info.id for d in best.loop[:3]] == ["208a", "408a", "204a"]
    # the same loop driven the other way round exists as a reading, ranked lower
    assert any([d.info.id for d in lay.loop[:2]] == ["208a", "404a"] for lay in layouts[1:])


def test_tiles_that_close_no_loop_stay_in_the_absolute_form():
    """TRACK-RX-01: without a closed loop nothing is inferred; every tile is written at its cell."""
    data = json.loads((DATA / "rx-hand.json").read_text(encoding="utf-8"))
    data["tiles"] = [t for t in data["tiles"] if t["id"] != "315A"]
    out = import_text(json.dumps(data), "open.json", CAT)
    assert out.text is not None and out.result.layout is None
    assert "joker" not in out.text.replace("standee joker", "") and "pregrid" not in out.text
