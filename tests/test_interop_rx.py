"""RX circuits with fork tiles from Rekee/RGT files: the main loop, the Joker and the Pre-grid are
found from the tiles and the arches, and the import compiles (TRACK-RX-01, -03, -06, -07, -08).

The hand-made files of ``tests/data/interop/`` hold the rulebook's RX 1 (RGT) and RX 2 (Rekee)
with the tiles in another order than driving order and the arches placed by hand near (not on)
the lines; ``rx-no-joker-exit.json`` lacks the Joker's exit arch.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from rallyc.commands.cli import app
from rallyc.compilation.pipeline import compile_loaded
from rallyc.diagnostics import Severity, has_errors
from rallyc.interop import bundled_catalogue, import_text, read_track
from rallyc.interop.importer import split_tiles
from rallyc.interop.rximport import _arches
from rallyc.interop.rxlayout import rx_layouts
from rallyc.project.loader import load, load_text

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


def test_missing_joker_exit_arch_is_inferred_on_the_fork_where_the_joker_rejoins():
    """TRACK-RX-07 (RC740): no exit arch in the file. Issue 11: the import sets it at the entry line of the fork
    where the Joker rejoins the loop (415a, step 5), says so, and the circuit is the rulebook's RX 1."""
    out = _import("rx-no-joker-exit.json")
    assert out.text is not None and "standee joker-entry at 2.1" in out.text
    assert "standee joker-exit at 5.1" in out.text
    assert [d.code for d in out.diagnostics] == ["RC716", "RC740"]
    warning = out.diagnostics[1]
    assert warning.severity is Severity.WARNING and "`joker-exit`" in warning.message and "415a" in warning.message
    assert warning.span is not None and warning.span.line > 1  # on the 415A tile of the file
    layout = out.result.layout
    assert [d.info.id for d in layout.joker] == ["209b"] and [d.info.id for d in layout.pregrid] == ["401b"]
    _same_circuit(_track(out.text, "rx.rally"), _example("rx-1.rally"))


def _without_standees(example: str, fmt: str) -> str:
    """An example circuit exported to ``fmt`` with its standee tokens taken out (as editor files often are)."""
    from rallyc.interop import export_loaded

    text, _ = export_loaded(load(EXAMPLES / example), fmt)
    data = json.loads(text)
    key, tok_key, tok_id = ("Tuiles", "Tokens", "TokenId") if fmt == "rgt" else ("tiles", "tokens", "id")
    for t in data[key]:
        if tok_key in t:
            t[tok_key] = [k for k in t[tok_key] if k[tok_id] not in
                          ("whitedoor", "greendoor", "reddoor", "finish", "joker-entrance", "joker-exit")]
    return json.dumps(data)


def test_rulebook_circuits_without_standees_get_the_rulebooks_standees():
    """TRACK-RX-02, -04..-08 (RC740): RX 1 and RX 2 exported without arches import with the finish line and the
    Joker arches where the rulebook circuits have them, the loop written from the finish line, in both formats."""
    for example in ("rx-1.rally", "rx-2.rally"):
        want = _example(example)
        for fmt in ("rgt", "rekee"):
            out = import_text(_without_standees(example, fmt), f"x.{fmt}", CAT)
            assert out.text is not None, (example, fmt)
            assert sorted(d.code for d in out.diagnostics) == ["RC716", "RC740", "RC740", "RC740"], (example, fmt)
            assert not has_errors(out.diagnostics)
            assert [ln for ln in out.text.splitlines() if "standee" in ln] == \
                [ln for ln in (EXAMPLES / example).read_text(encoding="utf-8").splitlines()
                 if ln.startswith("  standee")], (example, fmt)
            _same_circuit(_track(out.text, "rx.rally"), want)


def test_windows_editor_rx_file_with_two_boxes_and_no_standees_imports_with_warnings_only(tmp_path):
    """Issue 11's real `.rgt` case: an RX circuit saved by the Windows editor (CRLF, a Windows `Path`, empty
    `Tokens`, both sides of 205 and 209 because its owner has two boxes) and no standee: written with the
    inferred standees, exit 0, and `rallyc check` passes (no inventory check without a `boxes` line)."""
    target = tmp_path / "rx.rally"
    r = CliRunner().invoke(app, ["import", str(DATA / "rx-editor-two-boxes.rgt"), "-o", str(target)],
                           catch_exceptions=False)
    assert r.exit_code == 0, r.output
    codes = re.findall(r"(error|warning)\[(RC\d+)\]", r.stderr)
    assert sorted(codes) == [("warning", "RC716")] + [("warning", "RC740")] * 3
    text = target.read_text(encoding="utf-8")
    assert "205a" in text and "205b" in text and "209a" in text and "209b" in text
    assert "standee finish at 1.1\n  standee joker-entry at 2.1\n  standee joker-exit at 5.1\n" in text
    assert "rx-editor-two-boxes.rgt:" in r.stderr and "Traceback" not in r.output
    r = CliRunner().invoke(app, ["check", str(target)], catch_exceptions=False)
    assert r.exit_code == 0, r.output


def test_cli_import_of_an_rx_file_whose_finish_cannot_be_inferred_writes_it_and_exits_1(tmp_path):
    """TRACK-RX-02 (RC741): no Pre-grid and no finish arch, so nothing tells where the finish line stands. The
    file is written with what could be inferred (the Joker arches), a located warning says why the finish is
    not, and the import exits 1 with check's error on the written file (RC403)."""
    target = tmp_path / "rx.rally"
    r = CliRunner().invoke(app, ["import", str(DATA / "rx-editor-no-pregrid.rgt"), "-o", str(target)],
                           catch_exceptions=False)
    assert r.exit_code == 1 and target.exists()
    assert "rx-editor-no-pregrid.rgt:1:1: warning[RC741]: the file has no finish-line standee (`whitedoor`)" \
        in r.stderr and "no Pre-grid" in r.stderr
    assert f"{target}:1:1: error[RC403]" in r.stderr and "Traceback" not in r.output
    text = target.read_text(encoding="utf-8")
    assert "standee joker-entry" in text and "standee joker-exit" in text and "standee finish" not in text
    assert CliRunner().invoke(app, ["check", str(target)]).exit_code == 1


def test_inferred_standees_do_not_depend_on_the_order_of_the_tiles():
    """Deterministic: the editor file's tiles in another order give the same text."""
    data = json.loads((DATA / "rx-editor-two-boxes.rgt").read_text(encoding="utf-8"))
    first = import_text(json.dumps(data), "a.rgt", CAT).text
    data["Tuiles"].reverse()
    assert import_text(json.dumps(data), "a.rgt", CAT).text == first


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
