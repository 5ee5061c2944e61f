"""Rule coverage by behaviour: which rule IDs of the rule inventory (tests/data/rules/INVENTORY.md, a copy of
the shared inventory) the referee itself reported during the test session, or `check` reported for a code.

The session hook (tests/helpers/rule_trace.py) collects the IDs the referee reported: the rules an outcome
applied (`Outcome.applied`) and the rule a refusal named (`IllegalMove.rule_id`). `check` is run on the
repository's published designs and bad files, and the rules of the codes it reports count too. IDs merely
written in a test's text do not count. At least 90% of the core (CORE-*) and of the Monte-Carlo (MC-*) rules
must be covered; of RX, the customisable races, Ice racing, the Auto Tour and Improvisation at least 95% of the
rules a test can reach (the rest are named in UNREACHABLE). The figures per family and the rules left, with why, are
printed (`pytest -s tests/test_rule_coverage.py`).

This module runs last in its session. In a session that did not run every test module (e.g. this file alone),
it first runs the referee's test modules in a child pytest to collect the IDs.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from functools import lru_cache

import pytest

from helpers import rule_trace
from helpers.paths import BAD, EXAMPLES, ROOT

INVENTORY = ROOT / "tests" / "data" / "rules" / "INVENTORY.md"
#: the modules the child session runs when this one is partial
REFEREE_TESTS = ["tests/test_rules_*.py", "tests/test_replay*.py", "tests/test_bot.py", "tests/test_bot_mc.py"]

#: why a rule of each inventory kind may be left uncovered
WHY = {
    "setup": "setup at the table (components laid out before play): nothing happens in a turn to referee",
    "track": "a printed fact of the track: `check` reports it only where a code names it",
    "option": "an optional rule no test game plays to this point",
    "move": "a movement rule no test turn reaches",
    "resolve": "a resolution rule no test turn reaches",
    "score": "a scoring rule no test game reaches",
}


@lru_cache(maxsize=1)
def inventory() -> dict[str, str]:
    """Rule ID -> its kind (setup, track, move, resolve, score, option), every family."""
    text = INVENTORY.read_text(encoding="utf-8")
    return {m.group(1): m.group(2).strip() for m in re.finditer(r"^\| ([A-Z]+(?:-[A-Z0-9]+)*-\d{2}) \|.*\|([^|]*)\|\s*$",
                                                               text, re.M)}


def family_ids(family: str) -> set[str]:
    """The IDs of a family (a regex for the part before the number, e.g. ``CORE-[A-Z]+``)."""
    pattern = re.compile(rf"^{family}-\d{{2}}$")
    return {rid for rid in inventory() if pattern.match(rid)}


def _full_session() -> bool:
    every = {p.name for p in (ROOT / "tests").glob("test_*.py")} - {rule_trace.COVERAGE_MODULE}
    return every <= rule_trace.MODULES


@lru_cache(maxsize=1)
def referee_reported(tmp: str) -> frozenset[str]:
    """The rule IDs the referee reported: this session's, the pytest-xdist workers' (``RALLYC_RULE_IDS``, written by
    the controller), or a child session's over the referee's tests."""
    given = os.environ.get("RALLYC_RULE_IDS")
    if given:
        with open(given, encoding="utf-8") as f:
            return frozenset(line for line in f.read().split() if line)
    if _full_session():
        return frozenset(rule_trace.SEEN)
    out = os.path.join(tmp, "rule-ids.txt")
    files = sorted(str(p.relative_to(ROOT)) for pat in REFEREE_TESTS for p in ROOT.glob(pat))
    env = dict(os.environ, RALLYC_RULE_TRACE=out)
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *files], cwd=ROOT,
                         env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-3000:]
    with open(out, encoding="utf-8") as f:
        return frozenset(line for line in f.read().split() if line) | frozenset(rule_trace.SEEN)


@lru_cache(maxsize=1)
def check_reported() -> frozenset[str]:
    """The rules of the codes `check` reports on the published designs and the bad files."""
    from rallyc.api import check
    from rallyc.codes import all_codes

    run = check([str(EXAMPLES), str(BAD)], settings=False, cache=False)
    codes = all_codes()
    return frozenset(rid for d in run.diagnostics if d.code in codes for rid in codes[d.code].rules)


@pytest.fixture(scope="module")
def covered(tmp_path_factory) -> frozenset[str]:
    return referee_reported(str(tmp_path_factory.mktemp("trace"))) | check_reported()


def report(label: str, ids: set[str], covered: frozenset[str]) -> list[str]:
    """Print the figures of a family per group and the rules left with why; return the rules left."""
    left = sorted(ids - covered)
    groups: dict[str, list[int]] = {}
    for rid in ids:
        counts = groups.setdefault(rid.rsplit("-", 1)[0], [0, 0])
        counts[1] += 1
        counts[0] += rid in covered
    per_group = ", ".join(f"{g} {a}/{b}" for g, (a, b) in sorted(groups.items()))
    print(f"\n{label} rules covered by behaviour: {len(ids) - len(left)}/{len(ids)} "
          f"({1 - len(left) / len(ids):.0%}); {per_group}")
    for rid in left:
        print(f"  {rid} ({inventory()[rid]}): {WHY.get(inventory()[rid], 'not reached by any test')}")
    return left


def test_inventory_copy_is_whole():
    """The copied inventory has every family the coverage is measured on, with the known sizes."""
    sizes = {f: len(family_ids(f)) for f in ("CORE-[A-Z]+", "MC-[A-Z0-9]+", "RX-[A-Z]+", "CUSTOM", "ICE", "TOUR",
                                            "IMPROV")}
    assert sizes == {"CORE-[A-Z]+": 197, "MC-[A-Z0-9]+": 47, "RX-[A-Z]+": 100, "CUSTOM": 23, "ICE": 6, "TOUR": 11,
                     "IMPROV": 3}


def test_the_referee_reports_only_inventory_rules(covered):
    """Every rule ID the referee or a code reports exists in the inventory (no typo in a rule ID)."""
    unknown = sorted(covered - set(inventory()))
    assert not unknown, f"rule IDs not in the inventory: {unknown}"
    assert covered, "the referee reported no rule at all"


@pytest.mark.parametrize("label,family", [("core", "CORE-[A-Z]+"), ("Monte-Carlo", "MC-[A-Z0-9]+")])
def test_rule_coverage(covered, label, family):
    """At least 90% of the core and of the Monte-Carlo rules are applied or refused by the referee in the tests
    (or reported by `check` for a code)."""
    ids = family_ids(family)
    left = report(label, ids, covered)
    assert len(left) <= len(ids) // 10, f"{label} rules no test made the referee apply or refuse: {' '.join(left)}"


#: the rules of the RX book's families no test can make the referee apply, and why: they lean on components or
#: rulebooks this project does not model (named assumptions, docs/custom-races.md)
UNREACHABLE = {
    "CUSTOM-11": "GT cars and GT/GT-R Dashboards (their Warning penalty) are Rallyman: GT components: no GT car races "
                 "here, so no record can state one (every other pairing and Damage set is refereed)",
    "TOUR-04": "the Unlimited category's SET-UP profiles belong to The Climb expansion: no Unlimited car in the DIRT "
               "boxes, so a tour record states a car category (TOUR-03, refereed) but no SET-UP profile the referee "
               "could drive",
}


@pytest.mark.parametrize("label,family", [("RX", "RX-[A-Z]+"), ("CUSTOM", "CUSTOM"), ("ICE", "ICE"), ("TOUR", "TOUR"),
                                          ("IMPROV", "IMPROV")])
def test_rule_coverage_of_the_rx_book(covered, label, family):
    """RX (Full Contact included), customisable races, Ice racing, the Auto Tour and Improvisation: at least 95% of
    each family's rules are applied or refused by the referee in the tests (or reported by `check`), counting only
    the rules a test can reach; the ones left are named, with why, in UNREACHABLE."""
    ids = family_ids(family)
    left = report(label, ids, covered)
    for rid in left:
        if rid in UNREACHABLE:
            print(f"  {rid}: named assumption: {UNREACHABLE[rid]}")
    reachable = ids - set(UNREACHABLE)
    missed = sorted(set(left) - set(UNREACHABLE))
    assert len(reachable) - len(missed) >= 0.95 * len(reachable), \
        f"{label} rules no test made the referee apply or refuse: {' '.join(missed)}"
