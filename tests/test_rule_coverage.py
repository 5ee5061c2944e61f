"""Rule coverage by what the referee prints: the share of each family's rule IDs that ``rallyc replay --explain
--format json`` names over the bundled records (examples/games) and the corpus (tests/data/corpus, written by
benchmarks/rule_corpus.py), counted by the one script that reports it, ``benchmarks/rule_coverage.py``.

An ID counts when a replay's JSON names it: a turn's ``applied``, a stage's, race's or tour's ``applied``, or a
refusal's ``rule``. A rule the referee applies in its internal trace but does not print does not count. Each family
must reach its floor (:data:`FLOORS`), and docs/referee.md names, with why, exactly the IDs left.
"""

from __future__ import annotations

import re
import sys
from functools import lru_cache
from typing import Any

import pytest

from helpers.paths import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

import rule_coverage  # noqa: E402

#: the share of its reachable IDs each family's output must name
FLOORS = {"CORE": 0.95, "MC": 0.95, "RX": 0.95, "CUSTOM": 0.95, "ICE": 0.95, "TOUR": 0.95, "IMPROV": 0.95}


@lru_cache(maxsize=1)
def seen() -> frozenset[str]:
    """The rule IDs the replays print (every record replayed once per session)."""
    return frozenset(rule_coverage.printed(rule_coverage.records()))


def figures() -> dict[str, dict[str, Any]]:
    """The script's figures per family."""
    return rule_coverage.coverage(set(seen()))


def test_inventory_copy_is_whole():
    """The copied inventory has every family the coverage is measured on, with the known sizes."""
    inv = rule_coverage.inventory()
    sizes = {f: sum(1 for rid in inv if rid.split("-")[0] == f) for f in rule_coverage.FAMILIES}
    assert sizes == {"CORE": 197, "MC": 47, "RX": 100, "CUSTOM": 23, "ICE": 6, "TOUR": 11, "IMPROV": 3}


def test_the_referee_prints_only_inventory_rules():
    """Every rule ID a replay prints exists in the inventory (no typo in a rule ID), and some are printed."""
    unknown = sorted(seen() - set(rule_coverage.inventory()))
    assert seen() and not unknown, f"rule IDs not in the inventory: {unknown}"


@pytest.mark.parametrize("family,floor", sorted(FLOORS.items()))
def test_rule_coverage_by_output(family, floor):
    """Each family's share of printed IDs reaches its floor; the IDs left are printed (``pytest -s``)."""
    f = figures()[family]
    print(f"\n{family}: {f['printed']}/{f['reachable']} ({f['share']:.0%}); not printed: {' '.join(f['left'])}")
    assert f["printed"] >= floor * f["reachable"] - 1e-9, \
        f"{family}: {f['printed']}/{f['reachable']} printed, under {floor:.0%}; not printed: {' '.join(f['left'])}"


def _documented_left() -> dict[str, set[str]]:
    """The IDs docs/referee.md lists as not printed, per family: those in backquotes in its "Rule IDs not printed"
    section."""
    text = (ROOT / "docs" / "referee.md").read_text(encoding="utf-8")
    section = text.split("## Rule IDs not printed", 1)[1].split("\n## ", 1)[0]
    out: dict[str, set[str]] = {f: set() for f in rule_coverage.FAMILIES}
    for rid in re.findall(r"`([A-Z]+(?:-[A-Z0-9]+)*-\d{2})`", section):
        out[rid.split("-")[0]].add(rid)
    return out


@pytest.mark.parametrize("family", rule_coverage.FAMILIES)
def test_docs_name_the_ids_not_printed(family):
    """docs/referee.md lists exactly the IDs of the family the script finds not printed, each with why, and its
    figure is the script's."""
    f = figures()[family]
    assert _documented_left()[family] == set(f["left"]), "docs/referee.md's list of IDs not printed is not current"
    text = (ROOT / "docs" / "referee.md").read_text(encoding="utf-8")
    assert f"| {family} | {f['printed']}/{f['reachable']} | {f['share']:.0%} |" in text, \
        f"docs/referee.md's table does not say {family} {f['printed']}/{f['reachable']}"
