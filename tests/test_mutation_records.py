"""The mutation run over the recorded games: a card's seconds, a die's space, a lane, a gear or a face changed
in a record; no mutant the referee accepts may contradict the rules or the game's card table (checked without
the plan validator, rallyc.records.mutate). A seeded slice by default; every site with RALLYC_SLOW=1
(`python benchmarks/mutations.py` prints the counts)."""

import os
import random

import pytest

from helpers.paths import EXAMPLES
from rallyc.records import load_record
from rallyc.records.mutate import KINDS, Tally, judge, mutants
from rallyc.records.replay import record_stages

GAMES = [p for p in sorted((EXAMPLES / "games").glob("*.json")) if "stages" in load_record(p)]
PER_KIND = None if os.environ.get("RALLYC_SLOW") else 3


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_no_accepted_mutant_contradicts_the_rules(path):
    """CORE-TURNEND-04 CORE-MOVE-03 CORE-DICE-09: every edited card's seconds is refused; edited dice are refused
    or make a game that still keeps the rules."""
    rec = load_record(path)
    tracks, _, _ = record_stages(rec, path.parent)
    tally = Tally()
    for m in mutants(rec, random.Random(f"0:{path.name}"), PER_KIND):
        verdict, why = judge(m, path.parent, tracks)
        tally.add(m.kind, verdict, why)
    print("\n" + "\n".join(tally.lines()))
    assert not tally.contradictions, tally.contradictions
    assert tally.mutants["card-seconds"] and tally.accepted["card-seconds"] == 0
    assert sum(tally.refused[k] for k in KINDS if k != "card-seconds") > 0


def test_the_judge_catches_a_contradiction():
    """The judge's own checks can fail: a record whose card table is changed to disagree with its cards."""
    path = GAMES[0]
    rec = load_record(path)
    tracks, _, _ = record_stages(rec, path.parent)
    from rallyc.records.mutate import Mutant, _contradiction
    from rallyc.records.replay import replay_record
    from rallyc.rules.core.cards import CardTable
    from rallyc.data import load_components

    report = replay_record(rec, path.parent, tracks=tracks)
    assert report.ok
    table = CardTable.from_components(load_components())
    assert _contradiction(rec, report, tracks, table) == ""
    other = CardTable({g: (v[0] + 1,) for g, v in table.gears.items()}, table.zero, table.sisu, table.spare_tire)
    assert "not in the game's card table" in _contradiction(rec, report, tracks, other)
    assert judge(Mutant("face", "$", rec), path.parent, tracks)[0] == "accepted"
