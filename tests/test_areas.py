"""Rally areas and junction stages: the language (parse, fmt), one graph per stage from the shared
tiles, the checks RC230-RC239, and fork branch links on point-to-point stages."""

from __future__ import annotations

from pathlib import Path

from rallyc.compilation.pipeline import compile_loaded
from rallyc.project.loader import load, load_text
from rallyc.syntax import ast
from rallyc.syntax.formatter import format_text
from rallyc.syntax.parser import parse

ROOT = Path(__file__).resolve().parent.parent
AREA_1 = ROOT / "examples" / "area-1.rally"

ROUTE_FORM = """use dirt-core
use dirt-110
use dirt-rx

rally "Same, tile by tile" {
  stage SS1 {
    202a at 0 0 rot 0
    205a
    206a
    415b left road 1
    207a
    208a right
    204a
    217a left
    209a right
    203a
    201a
  }
  stage SS2 {
    202a at 0 0 rot 0
    205a
    206a
    415b right road 2
    305a
    218a left
    303a
    221a left
    304a
    302a
    token water at 7.1.l
  }
}
"""


def _compile(text: str):
    return compile_loaded(load_text(text, "t.rally", base_dir=ROOT))


def _codes(result) -> list[str]:
    return [d.code for d in result.diagnostics]


def _graph_facts(track):
    g = track.graph
    nodes = sorted((n, tuple(sorted((k, str(v)) for k, v in d.items() if k != "span"))) for n, d in g.nodes(data=True))
    edges = sorted((a, b, tuple(sorted((k, str(v)) for k, v in d.items()))) for a, b, d in g.edges(data=True))
    return nodes, edges


def test_area_parses_and_formats_idempotently():
    text = AREA_1.read_text(encoding="utf-8")
    doc, diags = parse(text, "area-1.rally")
    assert not diags
    area = doc.areas[0]
    assert area.title == "Col des Mines" and area.author == "rallyc" and len(area.steps) == 17
    stage = doc.rallies[0].stages[1]
    assert stage.area.title == "Col des Mines"
    assert [(p.junction.text, p.turn) for p in stage.picks] == [("415b", "right")]
    out, diags = format_text(text, "area-1.rally")
    assert out == text  # the bundled example is in canonical layout
    again, _ = format_text(out, "area-1.rally")
    assert again == out


def test_fmt_canonical_order_and_spans():
    text = 'area "A" {\n  415b road 1 left at 0 0 rot 0\n}\nstage SS1 {\n  area "A"\n  from 202a\n  junction 2 straight\n}\n'
    out, diags = format_text(text, "x.rally")
    assert not diags
    assert "  415b left road 1 at 0 0 rot 0\n" in out and "  from 202a\n" in out and "  junction 2 straight\n" in out
    doc, _ = parse(text, "x.rally")
    pick = doc.stages[0].picks[0]
    assert (pick.span.line, pick.junction.span.column) == (7, 12)
    assert isinstance(doc.stages[0].route_from, ast.RouteFrom)


def test_one_graph_per_stage_equals_the_stage_written_tile_by_tile():
    """Each stage over the area compiles to exactly the graph of the same stage written as a route."""
    over = compile_loaded(load(AREA_1))
    assert not [d for d in over.diagnostics if d.severity.value == "error"], over.diagnostics
    by_hand = _compile(ROUTE_FORM)
    assert not by_hand.diagnostics
    for a, b in zip(over.designs[0].tracks, by_hand.designs[0].tracks):
        assert a.name == b.name
        assert _graph_facts(a) == _graph_facts(b)
    assert [(p.q, p.r, p.rot, p.tile) for p in over.designs[0].tracks[1].placed] == \
        [(p.q, p.r, p.rot, p.tile) for p in by_hand.designs[0].tracks[1].placed]


def test_area_design_lists_tiles_once_and_each_stage_route():
    result = compile_loaded(load(AREA_1))
    (area,) = result.areas
    road = [p for p in area.placed if not p.scenery]
    assert len(road) == 17 and len({(p.q, p.r) for p in road}) == 17
    assert area.routes == {"SS1": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], "SS2": [1, 2, 3, 4, 12, 13, 14, 15, 16, 17]}
    assert set(area.tracks) == {"SS1", "SS2"}


def test_stage_spans_point_at_the_area_lines():
    result = compile_loaded(load(AREA_1))
    ss2 = result.designs[0].tracks[1]
    junction = next(p for p in ss2.placed if p.tile == "415b")
    assert junction.span.line == 13  # the 415b line of the area


def test_inventory_counted_once_for_the_area():
    """The shared tiles are laid once: with `boxes`, 202a (used by both stages) is one copy."""
    text = "boxes dirt-core dirt-110 dirt-rx\n" + AREA_1.read_text(encoding="utf-8")
    result = _compile(text)
    assert not [c for c in _codes(result) if c.startswith("RC50")]
    # a tile that really is laid twice is counted twice
    twice = text.replace("  302a  # finish of SS2\n", "  302a  # finish of SS2\n  205a at -3 0 rot 0\n")
    result = _compile(twice)
    assert "RC502" in _codes(result)


def test_checks_are_located():
    base = AREA_1.read_text(encoding="utf-8")
    cases = {
        "RC230": base.replace('area "Col des Mines"\n    junction 415b left', 'area "Col des Mine"\n    junction 415b left'),
        "RC231": base.replace("junction 415b left", "junction 205a left"),
        "RC233": base.replace("junction 415b left", "junction 415b straight"),
        "RC234": base.replace("    junction 415b left\n", ""),
        "RC236": base.replace("    junction 415b left\n", "    junction 415b left\n    205a\n"),
        "RC237": base.replace("  201a  # assistance\n", "  201a  # assistance\n  204a at 1 0 rot 0\n"),
        "RC239": base + '\narea "Col des Mines" {\n  202a at 9 9 rot 0\n}\n',
    }
    for code, text in cases.items():
        result = _compile(text)
        hits = [d for d in result.diagnostics if d.code == code]
        assert hits, (code, _codes(result))
        assert hits[0].span is not None and hits[0].span.line > 1, code
    result = _compile(cases["RC234"])
    hint = next(d.hint for d in result.diagnostics if d.code == "RC234")
    assert "`junction 415b left`" in hint and "`junction 415b right`" in hint
    result = _compile(cases["RC233"])
    hint = next(d.hint for d in result.diagnostics if d.code == "RC233")
    assert "left or right" in hint


def test_unused_area_tiles_warned_only_when_every_stage_resolves():
    base = AREA_1.read_text(encoding="utf-8")
    one = base.replace('  stage SS2 "Right at the Y" {\n    area "Col des Mines"\n    junction 415b right\n'
                       '    token water at 7.1.l\n  }\n', "")
    result = _compile(one)
    assert _codes(result).count("RC238") == 6
    broken = one.replace("junction 415b left", "junction 415b straight")
    assert "RC238" not in _codes(_compile(broken))


def test_junction_by_area_number_and_from():
    base = AREA_1.read_text(encoding="utf-8")
    text = base.replace("junction 415b left", "from 1\n    junction 4 left")
    result = _compile(text)
    assert not [d for d in result.diagnostics if d.severity.value == "error"], result.diagnostics
    assert [p.tile for p in result.designs[0].tracks[0].placed][3] == "415b"


def test_fork_branch_link_on_a_stage_joins_like_a_circuit_fork():
    """RX-FORK-02/03 on a point-to-point stage: the half-line spaces reach only the main-road lane on the
    branch side, across an edge carrying the line's limit; the far lane is not a space of this stage."""
    text = "use dirt-core\nuse dirt-rx\nstage SS1 {\n  202a\n  205a\n  402a right road 2\n  206a\n  207a\n  203a\n}\n"
    result = _compile(text)
    assert not [d for d in result.diagnostics if d.severity.value == "error"], result.diagnostics
    g = result.designs[0].tracks[0].graph
    assert "3.2.l" not in g
    assert sorted(g.successors("3.1.l")) == ["3.2.r"] and sorted(g.successors("3.1.r")) == ["3.2.r"]
    assert g.edges["3.1.l", "3.2.r"]["limit"] == 4
    assert g.nodes["3.2.r"]["limit"] is None
    # leaving the main road into the branch: only the near lane reaches the half-line spaces
    back = "use dirt-core\nuse dirt-rx\nstage SS1 {\n  202a\n  205a\n  402a left road 2\n  206a\n  207a\n  203a\n}\n"
    result = _compile(back)
    assert not [d for d in result.diagnostics if d.severity.value == "error"], result.diagnostics
    g = result.designs[0].tracks[0].graph
    halves = [n for n, d in g.nodes(data=True) if d["step"] == 3 and d["kind"] == "half"]
    preds = {p for h in halves for p in g.predecessors(h)}
    assert len(preds) == 1 and all(g.nodes[h]["limit"] == 4 for h in halves)
