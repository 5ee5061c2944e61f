"""Tile roles are tileset data (issue 10): a start or finish line, a `service` zone and a tileset declared
`circuit` make a tile's roles; no tile number in Python decides them."""

from __future__ import annotations

from pathlib import Path

from rallyc.compiler.routes import Laid, find_routes
from rallyc.diagnostics import has_errors
from rallyc.geometry.hexgrid import Hex, neighbour
from rallyc.interop import import_text
from rallyc.interop.model import TileRecord, TrackFile
from rallyc.interop.importer import import_track
from rallyc.model.tiles import TileRole
from rallyc.compilation.pipeline import compile_loaded
from rallyc.project.loader import bundled_tilesets, load_text
from rallyc.syntax.formatter import format_document
from rallyc.syntax.parser import parse
from rallyc.tiles.catalogue import Catalogue

ROOT = Path(__file__).resolve().parent.parent

#: a club's own start and finish tiles: numbers no bundled box uses, roles from their printed lines
CLUB = """tileset club "Our own tiles" {
  tile 960a gravel danger low copies 1 {
    road D -> A straight {
      plain
      start
      plain
    }
  }
  tile 961a gravel danger low copies 1 {
    road D -> A straight {
      plain
      finish
      plain
    }
  }
}
"""


def _catalogue(extra: str = "") -> Catalogue:
    tilesets = bundled_tilesets()
    if extra:
        doc, diags = parse(extra, "club.rally")
        assert not diags
        tilesets.update({ts.name.text: ts for ts in doc.tilesets})
    return Catalogue.from_tilesets(tilesets)


def test_bundled_roles_follow_the_printed_lines_and_the_circuit_box():
    cat = _catalogue()
    starts = {t.number for t in cat if TileRole.START in t.roles}
    finishes = {t.number for t in cat if TileRole.FINISH in t.roles}
    assistance = {t.number for t in cat if TileRole.ASSISTANCE in t.roles}
    circuit = {t.number for t in cat if TileRole.CIRCUIT in t.roles}
    assert starts == {"102", "202", "301"}
    assert finishes == {"203", "302"}
    assert assistance == {"201"}
    assert circuit == {str(n) for n in range(401, 416)}
    assert all(t.box == "dirt-rx" for t in cat if TileRole.CIRCUIT in t.roles)


def test_a_new_start_and_finish_tile_is_data_only():
    cat = _catalogue(CLUB)
    start, finish = cat.get("960a"), cat.get("961a")
    assert start is not None and finish is not None
    assert start.roles == {TileRole.START} and finish.roles == {TileRole.FINISH}
    plain = cat.get("205a")
    assert plain is not None
    # each road runs D -> A: the next tile lies across edge A
    cells = [Hex(0, 0), neighbour(Hex(0, 0), "A"), neighbour(neighbour(Hex(0, 0), "A"), "A")]
    laid = [Laid(k, info, cell, 0) for k, (info, cell) in enumerate(zip((start, plain, finish), cells), start=1)]
    routes, stopped = find_routes(laid)
    assert not stopped
    assert [r.keys() for r in routes] == [[1, 2, 3]]
    # the same three tiles with a plain tile in place of the club's start: no route
    assert find_routes([Laid(1, plain, Hex(0, 0), 0)] + laid[1:]) == ([], False)


def test_an_area_over_club_start_and_finish_tiles_compiles():
    text = CLUB + """
area "Club" {
  960a at 0 0 rot 0
  205a
  961a
}

stage SS1 {
  area "Club"
}
"""
    result = compile_loaded(load_text(text, "club.rally", base_dir=ROOT))
    assert not has_errors(result.diagnostics), [(d.code, d.message) for d in result.diagnostics]


def test_circuit_is_written_back_by_the_formatter():
    text = 'tileset club "Our own tiles" circuit {\n  tile 962a asphalt danger low copies 1 {}\n}\n'
    doc, diags = parse(text, "club.rally")
    assert not diags and doc.tilesets[0].circuit
    assert format_document(doc) == text
    plain, _ = parse(CLUB, "club.rally")
    assert not plain.tilesets[0].circuit and " circuit" not in format_document(plain)


def test_an_open_track_of_circuit_tiles_imports_as_a_circuit_by_the_role():
    # two RX hairpins and no start tile, standee or closed loop: only the tiles' role says "circuit"
    track = TrackFile("open", "", [TileRecord("410a", 0, 0, 0), TileRecord("411a", 5, 5, 0)])
    assert import_track(track, _catalogue()).kind == "circuit"
    # the same box without the `circuit` declaration: read as a stage
    tilesets = bundled_tilesets()
    rx = tilesets["dirt-rx"]
    tilesets["dirt-rx"] = type(rx)(rx.name, rx.title, rx.tiles, rx.span, False)
    assert import_track(track, Catalogue.from_tilesets(tilesets)).kind == "stage"

