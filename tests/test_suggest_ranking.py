"""``rallyc suggest`` ranks by what published designers lay next (issue 35), learnt from the bundled designs.

The held-out test fits the ranking without two published rallies and suggests every step of theirs: the figure
is measured on designs the counts never saw (``benchmarks/suggest_ranking.py`` prints it for every design left
out in turn)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from helpers.paths import EXAMPLES
from rallyc.cli import app
from rallyc.ranking import PUBLISHED, Ranking, published_steps
from rallyc.suggest import held_out_ranks

HELD_OUT = ("rally-2", "rally-5")


def _top(ranks, n: int) -> int:
    return sum(1 for *_, r in ranks if r is not None and r < n)


def test_the_published_steps_are_every_step_of_the_published_stages():
    steps = published_steps()
    assert {s.design for s in steps} == {name.removesuffix(".rally") for name, _ in PUBLISHED}
    assert len({(s.design, s.stage) for s in steps}) == 19  # Rally 1-6 SS1-SS3 and Auto Tour 1's SS3
    assert len(steps) == 202
    # published designers stay in the boxes the stage uses and lay each tile once
    counts = Ranking.fit(steps)
    assert counts.new_box <= 1 and counts.number_again == 0
    assert counts.after_finish == {"assistance": counts.after_finish["assistance"]} != {}


def test_on_designs_it_never_saw_the_designers_tile_ranks_higher_than_in_tile_order():
    learnt = held_out_ranks(HELD_OUT)
    unlearnt = held_out_ranks(HELD_OUT, learn=False)  # every candidate alike: the tile-number order
    assert len(learnt) == len(unlearnt) == 63
    # every designer's tile is a legal suggestion
    assert all(r is not None for *_, r in learnt)
    top5 = _top(learnt, 5)
    # measured: 12 of 63 (19%) against 4 of 63; issue 35 asks for half, which this ranking does not reach
    assert top5 > _top(unlearnt, 5)
    assert top5 / len(learnt) >= 0.15
    assert sorted(r for *_, r in learnt)[len(learnt) // 2] < sorted(r for *_, r in unlearnt)[len(unlearnt) // 2]


def test_each_suggestion_says_why_in_published_counts():
    path = EXAMPLES / "rally-1.rally"
    res = CliRunner().invoke(app, ["suggest", str(path), "-s", "SS1", "--after", "9", "-f", "json"])
    assert res.exit_code == 0, res.output
    first = json.loads(res.output)["suggestions"][0]
    # after 9 road tiles, the published finish (203a) comes first, with the share of stages that ended there
    assert first["text"] == "203a" and first["character"] == "finish"
    assert first["why"].startswith("the finish after 9 road tiles: ") and "published stages" in first["why"]
    res = CliRunner().invoke(app, ["suggest", str(path), "-s", "SS1", "--after", "4", "-n", "3"])
    lines = res.output.splitlines()
    whys = [line for line in lines if line.startswith("    why: ")]
    assert len(whys) == 3 and all(" of " in w and "published" in w for w in whys)
    assert "after a bend, as in " in whys[0]  # step 4 of Rally 1's SS1 is 227a, a bend
