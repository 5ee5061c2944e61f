"""``rallyc suggest``: the next tile of every published stage is among the suggestions, with its words."""

from __future__ import annotations

import json
import pytest
from typer.testing import CliRunner

from helpers.paths import EXAMPLES as EXAMPLES_DIR, ROOT
from rallyc.commands.cli import app
from rallyc.suggest import Finish, SuggestError, suggest, suggest_stage
from rallyc.compiler.placement import place_route
from rallyc.project.loader import load, load_text
from rallyc.syntax import ast
from rallyc.tiles.catalogue import Catalogue

EXAMPLES = sorted(EXAMPLES_DIR.glob("*.rally"))


def _published_stages():
    out = []
    for path in EXAMPLES:
        loaded = load(path)
        stages = list(loaded.root.stages) + [s for r in loaded.root.rallies for s in r.stages]
        # a stage over an area (`area "..."`, `junction ...`) has no route of its own to cut
        stages = [s for s in stages if s.steps]
        if stages:
            out.append((path.name, loaded, stages))
    return out


PUBLISHED = _published_stages()


def test_there_are_published_stages():
    assert sum(len(s) for _, _, s in PUBLISHED) >= 21  # 6 rallies and the Auto Tour, 3 stages each


@pytest.mark.parametrize("name,loaded,stages", PUBLISHED, ids=[p[0] for p in PUBLISHED])
def test_every_next_step_is_suggested_with_its_words(name, loaded, stages):
    """Cut each published stage after every step: the tile the design puts next is suggested, the
    suggested words lay it exactly where the design does (cell, rotation, road, direction)."""
    catalogue = Catalogue.from_tilesets(loaded.tilesets)
    checked = 0
    for stage in stages:
        steps = stage.steps
        full = place_route(steps, stage.scenery, catalogue)
        assert full.complete, (name, stage.name.text)
        by_index = {ps.index: ps for ps in full.steps}
        for k in range(1, len(steps)):
            published = by_index[k + 1]
            result = suggest_stage(stage, catalogue, after=k)
            same = [s for s in result.suggestions if s.tile == published.info.id
                    and (s.road or 1) == published.driven.number and s.forward == published.driven.forward]
            assert len(same) == 1, (name, stage.name.text, k + 1, published.info.id)
            s = same[0]
            assert (s.q, s.r, s.rot) == (published.cell.q, published.cell.r, published.rot)
            written = steps[k]
            if written.turn:
                assert s.word == written.turn, (name, stage.name.text, k + 1)
            if written.reversed:
                assert s.word in ("reversed", "left", "right")
            # the words alone (route form, no `at`) lay the tile where the design has it
            step = ast.Step(ast.Ident(s.tile), s.word if s.word != "reversed" else None, s.word == "reversed",
                            s.road, None, written.span)
            again = place_route(steps[:k] + [step], [], catalogue)
            last = again.steps[-1]
            assert last.index == k + 1 and not again.diagnostics, again.diagnostics
            assert (last.cell, last.rot, last.driven.number, last.driven.forward) == \
                (published.cell, published.rot, published.driven.number, published.driven.forward)
            assert s.legal, (name, stage.name.text, k + 1, s.problems)
            checked += 1
        first = suggest_stage(stage, catalogue, after=0)
        assert steps[0].tile.text.lower() in {x.tile for x in first.suggestions}
    assert checked > 0


SS = """\
stage SS1 {
  202a
  210b left
  205a
}
"""


def _result(text: str, **kw):
    return suggest(load_text(text, "t.rally", base_dir=ROOT), **kw)


def test_features_limits_and_rank():
    r = _result(SS)
    assert r.after == 3 and r.road_tiles == 3 and not r.finish_laid
    hair = next(s for s in r.suggestions if s.text == "210b left")
    assert "hairpin left, limits 1/2" in hair.adds
    assert hair.finish is Finish.REACHABLE and hair.legal and hair.copies_left is None
    jumps = [s for s in r.suggestions if any(a.startswith("jump") for a in s.adds)]
    water = [s for s in r.suggestions if "water" in s.adds]
    assert jumps and water
    # legal ones first; a second start line is not legal and comes after them
    ranks = [s.legal for s in r.suggestions]
    assert ranks == sorted(ranks, reverse=True)
    start = next(s for s in r.suggestions if s.tile == "202a")
    assert not start.legal and any("RC302" in p for p in start.problems)
    # the finish tile says it is the finish; the stage is still short of the class guideline
    fin = next(s for s in r.suggestions if s.tile == "203a")
    assert fin.finish is Finish.HERE and not fin.length_ok


def test_boxes_limit_scope_and_copies():
    r = _result("boxes dirt-core\n" + SS)
    assert r.boxes == ["dirt-core"]
    assert {s.box for s in r.suggestions} == {"dirt-core"}
    # 210 and 205 are used once each; the others keep all their copies
    s210 = [s for s in r.suggestions if s.tile.startswith("210")]
    assert not s210 or all(s.copies_left == s210[0].copies_left for s in s210)
    over = _result(SS, boxes=["dirt-110"])
    assert {s.box for s in over.suggestions} == {"dirt-110"}


def test_overlap_is_reported():
    # two hairpins left bring the road back onto the start tile
    r = _result("stage SS1 {\n  202a\n  210b left\n  210a left\n}\n")
    assert (r.cell.q, r.cell.r) == (0, 0)
    assert r.suggestions and all(s.overlaps == "step 1 (202a)" and not s.legal for s in r.suggestions)
    assert all(any("RC206" in p for p in s.problems) for s in r.suggestions)


def test_a_tile_whose_exit_runs_into_the_route_is_ranked_after_legal_ones():
    r = _result("stage SS1 {\n  202a\n  210b left\n  205a\n  210a left\n}\n")
    blocked = [s for s in r.suggestions if any("RC207" in p for p in s.problems)]
    legal = [s for s in r.suggestions if s.legal]
    assert blocked and legal
    assert r.suggestions.index(blocked[0]) > r.suggestions.index(legal[-1])


def test_after_the_finish_the_assistance_is_first():
    r = _result("stage SS1 {\n  202a\n  205a\n  203a\n}\n")
    assert r.finish_laid
    assert r.suggestions[0].tile.startswith("201")
    assert r.suggestions[0].finish is Finish.PASSED


def test_errors():
    with pytest.raises(SuggestError, match="no stage SS9"):
        _result(SS, stage="SS9")
    with pytest.raises(SuggestError, match="--after takes 0..3"):
        _result(SS, after=7)
    with pytest.raises(SuggestError, match="no box named"):
        _result(SS, boxes=["nope"])


def test_cli_text_json_and_errors(tmp_path):
    f = tmp_path / "s.rally"
    f.write_text(SS)
    runner = CliRunner()
    res = runner.invoke(app, ["suggest", str(f), "--stage", "SS1", "--after", "2"])
    assert res.exit_code == 0, res.output
    assert "205a" in res.output and "finish:" in res.output.lower()
    res = runner.invoke(app, ["suggest", str(f), "--stage", "SS1", "-f", "json"])
    assert res.exit_code == 0
    data = json.loads(res.output)
    assert data["after"] == 3 and data["suggestions"][0]["legal"]
    again = runner.invoke(app, ["suggest", str(f), "--stage", "SS1", "-f", "json"])
    assert again.output == res.output  # deterministic
    res = runner.invoke(app, ["suggest", str(f), "--stage", "SS7"])
    assert res.exit_code == 2 and "no stage SS7" in res.output
    res = runner.invoke(app, ["suggest", str(tmp_path / "missing.rally")])
    assert res.exit_code == 2 and "Traceback" not in res.output


def test_cli_a_file_that_does_not_parse_and_a_dead_end(tmp_path):
    runner = CliRunner()
    cut = tmp_path / "cut.rally"
    cut.write_text("stage SS1 {\n  202a\n  205a\n", encoding="utf-8")
    res = runner.invoke(app, ["suggest", str(cut)])
    assert res.exit_code == 1 and "cut.rally:3:7: error[RC106]" in res.output
    end = tmp_path / "end.rally"
    end.write_text("stage SS1 {\n  202a\n  205a\n  203a\n  201a\n}\n", encoding="utf-8")
    res = runner.invoke(app, ["suggest", str(end)])
    assert res.exit_code == 0 and "step 4 is a dead end" in res.output and "no tile can follow" in res.output
    res = runner.invoke(app, ["suggest", str(end), "--after", "3", "-n", "1"])
    assert res.exit_code == 0 and "\n201a " in res.output  # after the finish: the Assistance tile first


def test_a_stage_over_an_area_is_refused_with_a_reason(examples_dir):
    loaded = load(examples_dir / "area-1.rally")
    with pytest.raises(SuggestError, match="route over an area"):
        suggest(loaded, "SS1")


def test_cli_takes_the_default_boxes_of_the_settings(tmp_path):
    (tmp_path / "rallyc.toml").write_text('boxes = ["dirt-core"]\n', encoding="utf-8")
    f = tmp_path / "s.rally"
    f.write_text(SS, encoding="utf-8")
    res = CliRunner().invoke(app, ["suggest", str(f), "-f", "json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["boxes"] == ["dirt-core"] and {s["box"] for s in data["suggestions"]} == {"dirt-core"}
    # --boxes replaces them
    res = CliRunner().invoke(app, ["suggest", str(f), "-f", "json", "--boxes", "dirt-110"])
    assert {s["box"] for s in json.loads(res.output)["suggestions"]} == {"dirt-110"}
