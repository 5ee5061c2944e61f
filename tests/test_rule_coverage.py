"""Which rule IDs of the rule inventory (tests/data/rules/INVENTORY.md, a copy of shared/rules/INVENTORY.md)
the tests name.

At least 90% of the core (CORE-*) and Monte-Carlo (MC-*) rule IDs must be named by a test; RX, the
customisable races, Ice racing and the Auto Tour are reported. Every ID a test names must exist.
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
INVENTORY = ROOT / "tests" / "data" / "rules" / "INVENTORY.md"


def inventory_ids(family: str) -> set[str]:
    """The rule IDs of a family (a regex for the part before the number, e.g. ``CORE-[A-Z]+``)."""
    text = INVENTORY.read_text(encoding="utf-8")
    return set(re.findall(rf"^\| ({family}-\d{{2}}) \|", text, re.M))


def named_in_tests(family: str) -> set[str]:
    """The IDs of a family that appear in the test sources (this file left out)."""
    pattern = re.compile(rf"\b{family}-\d{{2}}\b")
    named: set[str] = set()
    for path in (ROOT / "tests").glob("test_*.py"):
        if path.name != "test_rule_coverage.py":
            named |= set(pattern.findall(path.read_text(encoding="utf-8")))
    return named


def coverage(family: str, size: int) -> tuple[set[str], list[str]]:
    """(IDs, IDs named by no test) of a family, after checking its size and that no test names an unknown ID."""
    ids = inventory_ids(family)
    assert len(ids) == size
    named = named_in_tests(family)
    unknown = sorted(named - ids)
    assert not unknown, f"tests name rule IDs that INVENTORY.md does not have: {unknown}"
    return ids, sorted(ids - named)


def report(label: str, ids: set[str], missing: list[str]) -> None:
    groups: dict[str, list[int]] = {}
    for rid in ids:
        counts = groups.setdefault(rid.rsplit("-", 1)[0], [0, 0])
        counts[1] += 1
        counts[0] += rid not in missing
    per_group = ", ".join(f"{g} {a}/{b}" for g, (a, b) in sorted(groups.items()))
    print(f"{label} rules named by tests: {len(ids) - len(missing)}/{len(ids)} "
          f"({1 - len(missing) / len(ids):.0%}); {per_group}; missing: {missing}")


@pytest.mark.parametrize("label,family,size", [("core", "CORE-[A-Z]+", 197), ("Monte-Carlo", "MC-[A-Z0-9]+", 47)])
def test_rule_coverage(label, family, size):
    """At least 90% of the core and of the Monte-Carlo rule IDs are named by a test (all are, today)."""
    ids, missing = coverage(family, size)
    report(label, ids, missing)
    assert len(missing) <= len(ids) // 10, f"{label} rule IDs named by no test: {' '.join(missing)}"


@pytest.mark.parametrize("label,family,size", [("RX", "RX-[A-Z]+", 100), ("CUSTOM", "CUSTOM", 23),
                                               ("ICE", "ICE", 6), ("TOUR", "TOUR", 11)])
def test_rule_coverage_report(label, family, size):
    """RX (Full Contact is not implemented), customisable races, Ice racing, the Auto Tour: reported only."""
    ids, missing = coverage(family, size)
    report(label, ids, missing)
