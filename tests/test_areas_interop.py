"""Importing and exporting junction stages and rally areas (Rekee JSON and RGT), files made the way the
editors write them (tests/data/interop: compact Rekee JSON with the editor's ``active_pos``; RGT with a
Windows ``Path``, upper-case DIRT ids and CRLF line ends)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from rallyc.compilation.pipeline import compile_loaded
from rallyc.diagnostics import has_errors
from rallyc.interop import export_loaded, import_text
from rallyc.project.loader import load, load_text
from rallyc.syntax import ast
from rallyc.syntax.parser import parse

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).parent / "data" / "interop"


def _import(name: str):
    out = import_text((DATA / name).read_text(encoding="utf-8"), name)
    assert out.text is not None, [(d.code, d.message) for d in out.diagnostics]
    return out


def _compile_text(text: str):
    result = compile_loaded(load_text(text, "imported.rally", base_dir=ROOT))
    assert not has_errors(result.diagnostics), [(d.code, d.message) for d in result.diagnostics]
    return result


def _graph(track):
    nodes = tuple(sorted((n, tuple(sorted((k, str(v)) for k, v in d.items() if k != "span")))
                         for n, d in track.graph.nodes(data=True)))
    edges = tuple(sorted((a, b, tuple(sorted((k, str(v)) for k, v in d.items())))
                         for a, b, d in track.graph.edges(data=True)))
    return nodes, edges


def _tracks(result):
    return [t for d in result.designs for t in d.tracks]


@pytest.mark.parametrize("name", ["junction-stage.json", "junction-stage.rgt"])
def test_junction_stage_imports_as_a_stage_in_route_form(name):
    """A point-to-point stage through a fork's branch link (start 202a, finish 203a): one stage, not a circuit."""
    out = _import(name)
    assert out.result.kind == "stage"
    doc, _ = parse(out.text, "x.rally")
    (rally,) = doc.rallies
    (stage,) = rally.stages
    assert stage.area is None and stage.steps[0].position is not None
    assert all(s.position is None for s in stage.steps[1:])  # route form after the first tile
    fork = next(s for s in stage.steps if s.tile.text == "402a")
    assert (fork.turn, fork.road) == ("right", 2)
    assert "laps" not in out.text and "circuit" not in out.text
    result = _compile_text(out.text)
    assert [d for d in result.diagnostics if d.severity.value != "note"] == []
    (track,) = _tracks(result)
    assert track.start_spaces and track.finish_spaces
    assert any("water" in d["tokens"] for _, d in track.graph.nodes(data=True))
    # the fork joins as on a circuit: the half-line spaces reach one main-road lane, across the line's limit
    halves = [n for n, d in track.graph.nodes(data=True) if d["step"] == 4 and d["kind"] == "half"]
    targets = {s for h in halves for s in track.graph.successors(h)}
    assert len(halves) == 2 and len(targets) == 1
    assert all(track.graph.edges[h, t].get("limit") == 4 for h in halves for t in targets)


@pytest.mark.parametrize("name", ["area.json", "area.rgt"])
def test_area_imports_as_an_area_and_one_stage_per_route(name):
    out = _import(name)
    assert out.result.kind == "area"
    assert [d.code for d in out.diagnostics] == ["RC730"]
    doc, _ = parse(out.text, "x.rally")
    (area,) = doc.areas
    assert area.title == "Forêt de Chaux club area" and area.author == "ASA Jura"
    assert len(area.steps) == 18 and all(s.position is not None for s in area.steps)
    stages = doc.rallies[0].stages
    assert [s.name.text for s in stages] == ["SS1", "SS2", "SS3", "SS4"]
    said = [([f.tile.text for f in s._of(ast.RouteFrom)], [(p.junction.text, p.turn) for p in s.picks])
            for s in stages]
    assert said == [(["202a"], [("415b", "left")]), (["202a"], [("415b", "right")]),
                    (["301a"], [("415b", "left")]), (["301a"], [("415b", "right")])]
    result = _compile_text(out.text)
    assert [d.code for d in result.diagnostics] == []
    tracks = _tracks(result)
    assert len(tracks) == 4 and all(t.start_spaces and t.finish_spaces for t in tracks)
    # the water token lies on 303a, a tile of the two stages that take the right road
    wet = [t.name for t in tracks if any("water" in d["tokens"] for _, d in t.graph.nodes(data=True))]
    assert wet == ["SS2", "SS4"]
    (compiled_area,) = result.areas
    shared = Counter(k for r in compiled_area.routes.values() for k in r)
    assert shared[4] == 4  # the Y junction 415b is driven by all four stages


def test_a_tile_on_no_route_is_kept_in_the_area_and_said():
    text = (DATA / "area.json").read_text(encoding="utf-8").replace(
        '{"q":7,"r":0,"id":"302a","dir":5}', '{"q":7,"r":0,"id":"302a","dir":5},{"q":-4,"r":4,"id":"204a","dir":0}')
    out = import_text(text, "area.json")
    assert out.text is not None
    warned = [d for d in out.diagnostics if d.code == "RC731"]
    assert len(warned) == 1 and "204a at -4 4" in warned[0].message and warned[0].span is not None
    assert "204a at -4 4 rot 0" in out.text
    result = compile_loaded(load_text(out.text, "x.rally"))
    assert not has_errors(result.diagnostics)
    assert [d.code for d in result.diagnostics] == ["RC238"]


@pytest.mark.parametrize("fmt", ["rekee", "rgt"])
def test_area_export_round_trips_to_the_same_graphs(fmt):
    """export writes the whole area (every tile once); import(export(x)) compiles to the same stage graphs."""
    loaded = load(ROOT / "examples" / "area-1.rally")
    original = compile_loaded(loaded)
    text, diags = export_loaded(loaded, fmt)
    assert text is not None and not has_errors(diags)
    back = import_text(text, f"area.{fmt}")
    assert back.text is not None and back.result.kind == "area"
    again = _compile_text(back.text)
    assert sorted(_graph(t) for t in _tracks(again)) == sorted(_graph(t) for t in _tracks(original))
    assert {t.name for t in _tracks(again)} == {"SS1", "SS2"}
    # the area's tiles come back once each
    tiles = lambda r: sorted((p.tile, p.q, p.r, p.rot) for p in r.areas[0].placed)  # noqa: E731
    assert tiles(again) == tiles(original)


@pytest.mark.parametrize("fmt", ["rekee", "rgt"])
def test_imported_area_round_trips(fmt, tmp_path):
    first = _import("area.json")
    src = tmp_path / "a.rally"
    src.write_text(first.text, encoding="utf-8")
    loaded = load(src)
    original = compile_loaded(loaded)
    text, _ = export_loaded(loaded, fmt)
    again = _compile_text(import_text(text, f"a.{fmt}").text)
    assert [_graph(t) for t in _tracks(again)] == [_graph(t) for t in _tracks(original)]


def test_one_stage_over_an_area_exports_as_a_junction_stage():
    loaded = load(ROOT / "examples" / "area-1.rally")
    text, _ = export_loaded(loaded, "rekee", "SS2")
    back = import_text(text, "ss2.json")
    assert back.result.kind == "stage"
    again = _compile_text(back.text)
    original = compile_loaded(loaded).designs[0].track("SS2")
    assert _graph(_tracks(again)[0]) == _graph(original)
    # the area by its title
    text, _ = export_loaded(loaded, "rekee", "Col des Mines")
    assert text.count('"id"') == 18  # 17 tiles and the water token
