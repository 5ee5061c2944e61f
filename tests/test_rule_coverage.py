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


MC_ID = re.compile(r"\bMC-[A-Z0-9]+-\d{2}\b")


def mc_ids() -> set[str]:
    for path in CANDIDATES:
        if path.is_file():
            return set(re.findall(r"^\| (MC-[A-Z0-9]+-\d{2}) \|", path.read_text(encoding="utf-8"), re.M))
    raise AssertionError("INVENTORY.md not found")


def test_mc_rule_coverage():
    """Monte-Carlo rule IDs (MC-*) named by a test: at least 90%, as for the core rules (all 47 are named
    today). Every MC ID a test names must exist in INVENTORY.md."""
    ids = mc_ids()
    assert len(ids) == 47
    named = set()
    for path in (ROOT / "tests").glob("test_*.py"):
        if path.name == "test_rule_coverage.py":
            continue
        named |= set(MC_ID.findall(path.read_text(encoding="utf-8")))
    unknown = sorted(named - ids)
    assert not unknown, f"tests name MC rule IDs that INVENTORY.md does not have: {unknown}"
    missing = sorted(ids - named)
    print(f"Monte-Carlo rules named by tests: {len(ids) - len(missing)}/{len(ids)} "
          f"({1 - len(missing) / len(ids):.0%}); missing: {missing}")
    assert len(missing) <= len(ids) // 10, f"Monte-Carlo rules named by no test: {missing}"


RX_ID = re.compile(r"\bRX-[A-Z]+-\d{2}\b")


def test_rx_rule_coverage_report():
    """RX rule IDs named by a test: reported only (no threshold yet; Full Contact and RX Weather are not
    implemented). Every RX ID a test names must exist in INVENTORY.md."""
    for path in CANDIDATES:
        if path.is_file():
            ids = set(re.findall(r"^\| (RX-[A-Z]+-\d{2}) \|", path.read_text(encoding="utf-8"), re.M))
            break
    else:
        raise AssertionError("INVENTORY.md not found")
    assert len(ids) == 100
    named = set()
    for path in (ROOT / "tests").glob("test_*.py"):
        if path.name == "test_rule_coverage.py":
            continue
        named |= set(RX_ID.findall(path.read_text(encoding="utf-8")))
    unknown = sorted(named - ids)
    assert not unknown, f"tests name RX rule IDs that INVENTORY.md does not have: {unknown}"
    missing = sorted(ids - named)
    groups: dict[str, list[int]] = {}
    for rid in ids:
        group = rid.rsplit("-", 1)[0]
        groups.setdefault(group, [0, 0])
        groups[group][1] += 1
        if rid in named:
            groups[group][0] += 1
    per_group = ", ".join(f"{g} {a}/{b}" for g, (a, b) in sorted(groups.items()))
    print(f"RX rules named by tests: {len(ids) - len(missing)}/{len(ids)}; {per_group}; missing: {missing}")


OTHER_ID = re.compile(r"\b(?:CUSTOM|ICE|TOUR)-\d{2}\b")


def test_custom_ice_tour_coverage_report():
    """Customisable races, Ice racing and the Auto Tour (CUSTOM-*, ICE-*, TOUR-*) named by a test: reported
    only. Every such ID a test names must exist in INVENTORY.md."""
    for path in CANDIDATES:
        if path.is_file():
            ids = set(re.findall(r"^\| ((?:CUSTOM|ICE|TOUR)-\d{2}) \|", path.read_text(encoding="utf-8"), re.M))
            break
    else:
        raise AssertionError("INVENTORY.md not found")
    assert len(ids) == 23 + 6 + 11
    named = set()
    for path in (ROOT / "tests").glob("test_*.py"):
        if path.name == "test_rule_coverage.py":
            continue
        named |= set(OTHER_ID.findall(path.read_text(encoding="utf-8")))
    unknown = sorted(named - ids)
    assert not unknown, f"tests name rule IDs that INVENTORY.md does not have: {unknown}"
    for group in ("CUSTOM", "ICE", "TOUR"):
        mine = sorted(i for i in ids if i.startswith(group + "-"))
        missing = [i for i in mine if i not in named]
        print(f"{group} rules named by tests: {len(mine) - len(missing)}/{len(mine)}; missing: {missing}")
