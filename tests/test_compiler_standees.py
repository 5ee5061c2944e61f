"""RX standees on the compiled Track (TRACK-RX-04, TRACK-RX-07): kept by the compiler, read by the
renderer and the exporter from the Track, never from the source file."""

from __future__ import annotations

import dataclasses
import json
import xml.etree.ElementTree as ET
from pathlib import Path

from rallyc.compilation.pipeline import compile_loaded
from rallyc.compiler.export import track_to_dict
from rallyc.compiler.track import Standee
from rallyc.interop import read_track
from rallyc.interop.exporter import export_track
from rallyc.project.loader import load, load_text
from rallyc.render.document import MapOptions, render_map
from rallyc.tiles.catalogue import Catalogue

ROOT = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"


def _compiled(name: str):
    loaded = load(ROOT / "examples" / name)
    return compile_loaded(loaded).designs[0].track(), Catalogue.from_tilesets(loaded.tilesets)


def test_circuit_track_keeps_its_standees_with_the_spaces_past_each_line():
    """TRACK-RX-04, TRACK-RX-07: RX 1's finish line and Joker arches, as written, on the Track."""
    track, _ = _compiled("rx-1.rally")
    got = [(s.kind, s.at, s.step, s.zone) for s in track.standees]
    assert got == [("finish", "1.1", 1, 1), ("joker-entry", "2.1", 2, 1), ("joker-exit", "5.1", 5, 1)]
    finish = track.standees[0]
    # the spaces just past the finish line are the ones the compiler marks as after the finish
    assert set(finish.spaces) == set(track.finish_spaces) and finish.spaces
    assert all(track.space(s).step == st.step for st in track.standees for s in st.spaces)
    assert finish.span is not None and finish.span.line > 1


def test_standee_on_a_zone_that_does_not_exist_keeps_no_spaces():
    """TRACK-RX-04 (RC407): a standee on zone 9 of a 3-zone tile is on the Track without spaces."""
    text = (ROOT / "examples" / "rx-1.rally").read_text().replace("standee joker-exit at 5.1",
                                                                   "standee joker-exit at 5.9")
    result = compile_loaded(load_text(text, "rx.rally", ROOT / "examples"))
    line = text.splitlines().index("  standee joker-exit at 5.9") + 1
    assert [(d.code, d.span.line) for d in result.diagnostics] == [("RC407", line)]
    exit_ = [s for s in result.designs[0].track().standees if s.kind == "joker-exit"]
    assert exit_ == [Standee("joker-exit", 5, 9, ())]


def test_stages_have_no_standees_and_json_lists_them_per_track():
    """TRACK-RX-04: `rallyc compile` JSON carries each track's standees in its graph data."""
    stage, _ = _compiled("rally-1.rally")
    assert stage.standees == []
    assert track_to_dict(stage)["graph"]["standees"] == []
    track, _ = _compiled("rx-2.rally")
    doc = json.loads(json.dumps(track_to_dict(track)))
    assert [(s["kind"], s["at"]) for s in doc["graph"]["standees"]] == [
        ("finish", "1.1"), ("joker-entry", "7.1"), ("joker-exit", "10.1")]
    assert doc["graph"]["standees"][0]["spaces"] == sorted(track.standees[0].spaces)


def _drawn(track, catalogue):
    svg = render_map(track, catalogue, title="t", author=None, stage_label="x", options=MapOptions())[0]
    root = ET.fromstring(svg.encode("utf-8"))
    return sorted((g.get("data-kind"), g.get("data-at")) for g in root.iter(f"{SVG}g")
                  if g.get("class") == "standee")


def test_renderer_draws_the_standees_of_the_track():
    """TRACK-RX-07: the map's arches follow Track.standees (a moved standee is drawn where it now is)."""
    track, cat = _compiled("rx-1.rally")
    assert _drawn(track, cat) == [("finish", "1.1"), ("joker-entry", "2.1"), ("joker-exit", "5.1")]
    track.standees = [dataclasses.replace(track.standees[0], step=3, zone=2)]
    assert _drawn(track, cat) == [("finish", "3.2")]
    track.standees = []
    assert _drawn(track, cat) == []


def test_exporter_writes_the_standees_of_the_track():
    """TRACK-RX-07: export turns Track.standees into arch tokens on the tiles of their steps."""
    track, cat = _compiled("rx-1.rally")
    tf, diags = export_track("RX 1", None, track.placed, [], track.standees, cat, "rekee")
    assert diags == []
    by_tile = {(t.q, t.r): [k.kind for k in t.tokens] for t in tf.tiles if t.tokens}
    cell = {p.step: (p.q, p.r) for p in track.steps}
    assert by_tile == {cell[1]: ["finish"], cell[2]: ["joker-entrance"], cell[5]: ["joker-exit"]}
    moved = [dataclasses.replace(track.standees[0], step=4)]
    tf, _ = export_track("RX 1", None, track.placed, [], moved, cat, "rekee")
    assert {(t.q, t.r) for t in tf.tiles if t.tokens} == {cell[4]}
    # written and read back, the arches are where the Track said
    from rallyc.interop import write_rekee
    again, d2 = read_track(write_rekee(tf), "again.json", cat)
    assert d2 == [] and [k.kind for t in again.tiles for k in t.tokens] == ["finish"]
