"""At least 90% of the core rule IDs (CORE-*) of shared/rules/INVENTORY.md are named by a test."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CANDIDATES = [ROOT / "shared/rules/INVENTORY.md", ROOT.parent / "shared/rules/INVENTORY.md",
              Path("/work/shared/rules/INVENTORY.md")]
ID = re.compile(r"\bCORE-[A-Z]+-\d{2}\b")


def core_ids() -> set[str]:
    for path in CANDIDATES:
        if path.is_file():
            text = path.read_text(encoding="utf-8")
            return {m for m in re.findall(r"^\| (CORE-[A-Z]+-\d{2}) \|", text, re.M)}
    raise AssertionError("INVENTORY.md not found")


def test_core_rule_coverage():
    ids = core_ids()
    assert len(ids) == 197
    named = set()
    for path in (ROOT / "tests").glob("test_*.py"):
        if path.name == "test_rule_coverage.py":
            continue
        named |= set(ID.findall(path.read_text(encoding="utf-8")))
    missing = sorted(ids - named)
    share = 1 - len(missing) / len(ids)
    print(f"core rules named by tests: {len(ids) - len(missing)}/{len(ids)} ({share:.0%}); missing: {missing}")
    assert share >= 0.90, f"only {share:.0%} of CORE rule IDs are named by a test; missing: {' '.join(missing)}"
