"""Shortcut spaces in a row: ``shortcut 5 5 from 1 to 3`` (224b's two spaces, each marked 5, in the art).

One limit per space; the spaces join zone 1 to zone 3 one after the other (``cut1`` -> ``cut2``), as the
compiler already chains the shortcuts of one road between the same zones.
"""

from __future__ import annotations

from pathlib import Path

from rallyc.compilation.pipeline import compile_loaded
from rallyc.project.loader import load_text
from rallyc.syntax import ast
from rallyc.syntax.formatter import format_text
from rallyc.syntax.parser import parse

ROOT = Path(__file__).resolve().parent.parent
SHARED_FACTS = ROOT / "tests" / "data" / "tile-layouts.tsv"

TILESET = """tileset mine {
  tile 900a gravel danger medium copies 1 {
    road B -> D left60 {
      slide
      corner inside 3 3 outside 4 4 4
      slide
      shortcut 5 4 from 1 to 3
    }
  }
}
"""


def _road(text: str) -> ast.RoadDef:
    doc, diags = parse(text, "t.rally")
    assert not [d for d in diags if d.severity.name == "ERROR"], diags
    return doc.tilesets[0].tiles[0].roads[0]


def test_one_statement_gives_one_shortcut_space_per_limit():
    cuts = _road(TILESET).shortcuts
    assert [(c.limit, c.from_zone, c.to_zone) for c in cuts] == [(5, 1, 3), (4, 1, 3)]
    assert cuts[0].span == cuts[1].span  # one statement: a diagnostic points at it


def test_fmt_keeps_a_row_on_one_line_and_separate_statements_apart():
    out, _ = format_text(TILESET.replace("      shortcut 5 4 from 1 to 3", "      shortcut   5 4  from 1 to 3"))
    assert out is not None and "      shortcut 5 4 from 1 to 3\n" in out
    two = TILESET.replace("      shortcut 5 4 from 1 to 3", "      shortcut 5 from 1 to 3\n      shortcut 4 from 1 to 3")
    out, _ = format_text(two)
    assert out == two


def test_the_spaces_are_a_row_from_the_first_zone_to_the_last():
    text = TILESET + "stage S {\n  202a\n  900a left\n  203a\n}\n"
    loaded = load_text(text, "t.rally")
    result = compile_loaded(loaded)
    track = result.designs[0].tracks[0]
    g = track.graph
    first, second = "2.cut1", "2.cut2"
    assert (track.spaces[first].limit, track.spaces[second].limit) == (5, 4)
    assert list(g.successors(first)) == [second]
    assert {track.spaces[p].zone for p in g.predecessors(first)} == {1}
    assert {track.spaces[s].zone for s in g.successors(second)} == {3}
    assert track.spaces[first].progress < track.spaces[second].progress


def test_a_bad_limit_is_told_for_its_space_and_bad_zones_once():
    text = TILESET.replace("shortcut 5 4 from 1 to 3", "shortcut 5 9 from 1 to 7")
    loaded = load_text(text + "stage S {\n  202a\n  900a left\n  203a\n}\n", "t.rally")
    result = compile_loaded(loaded)
    codes = [d.code for d in result.diagnostics]
    assert codes.count("RC150") == 1, codes


def test_224b_is_written_with_its_two_spaces():
    """The bundled 224b against the tile facts (tests/data/tile-layouts.tsv, a copy of the shared data): the
    shortcut from zone 1 to zone 3 is TWO spaces in a row, each marked 5."""
    import csv

    rows = {r["tile"]: r for r in csv.DictReader(SHARED_FACTS.read_text(encoding="utf-8").splitlines(),
                                                  delimiter="\t")}
    fact = rows["224b"]["features"]
    assert "shortcut:5 from zone 1 to zone 3" in fact and "TWO shortcut spaces in a row" in fact
    text = (ROOT / "tilesets" / "dirt-core.rally").read_text(encoding="utf-8")
    doc, _ = parse(text, "dirt-core.rally")
    tile = next(t for t in doc.tilesets[0].tiles if t.id.text == "224b")
    cuts = tile.roads[0].shortcuts
    assert [(c.limit, c.from_zone, c.to_zone) for c in cuts] == [(5, 1, 3), (5, 1, 3)]
