"""Rule coverage by what the referee prints: the share of each family's rule IDs that ``rallyc replay --explain
--format json`` names, over the bundled records and the corpus.

Run: ``python benchmarks/rule_coverage.py [--min 0.95] [--json]``. It replays every record of ``examples/games``
(its ``tours/`` included) and of ``tests/data/corpus`` (seeded bot games across the game forms and refused mutants
of real records, written by ``benchmarks/rule_corpus.py``) through the CLI in this process, and collects every rule
ID the JSON output names: a turn's ``applied``, a stage's, a race's or a tour's ``applied`` (what the setup and the
end of a stage or event applied) and a refusal's ``rule``. Per family of the rule inventory
(``tests/data/rules/INVENTORY.md``: CORE, MC, RX, CUSTOM, ICE, TOUR, IMPROV) it prints the IDs named out of those
the referee can apply: the inventory's IDs but those of kind ``track`` (properties of a track file, reported by
``rallyc check``) and those named in :data:`UNREACHABLE` (components this project does not model); then the IDs
left. Exit 1 when a family is under ``--min``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from typer.testing import CliRunner  # noqa: E402

from rallyc.commands.cli import app  # noqa: E402

INVENTORY = ROOT / "tests" / "data" / "rules" / "INVENTORY.md"
CORPUS = ROOT / "tests" / "data" / "corpus"
GAMES = ROOT / "examples" / "games"
FAMILIES = ("CORE", "MC", "RX", "CUSTOM", "ICE", "TOUR", "IMPROV")
#: rules no record can make the referee apply, and why (``tests/test_rule_coverage.py`` counts with this module)
UNREACHABLE = {
    "CUSTOM-11": "GT cars and their Dashboards are Rallyman: GT components: no GT car races here",
    "TOUR-04": "the Unlimited category's SET-UP profiles belong to The Climb expansion",
}


def inventory() -> dict[str, str]:
    """Rule ID -> its kind (setup, track, move, resolve, score, option)."""
    text = INVENTORY.read_text(encoding="utf-8")
    return {m.group(1): m.group(2).strip()
            for m in re.finditer(r"^\| ([A-Z]+(?:-[A-Z0-9]+)*-\d{2}) \|.*\|([^|]*)\|\s*$", text, re.M)}


def records() -> list[Path]:
    """The bundled records, then the corpus."""
    return (sorted(GAMES.glob("*.json")) + sorted((GAMES / "tours").glob("*.json"))
            + sorted(CORPUS.glob("*.json")))


def named_ids(data: Any) -> Iterator[str]:
    """Every rule ID a replay's JSON report names: the lists under ``applied`` and the ``rule`` of an error."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "applied" and isinstance(value, list):
                yield from (v for v in value if isinstance(v, str))
            elif key == "rule" and isinstance(value, str):
                yield value
            else:
                yield from named_ids(value)
    elif isinstance(data, list):
        for item in data:
            yield from named_ids(item)


def printed(paths: list[Path]) -> set[str]:
    """The rule IDs ``replay --explain --format json`` prints for ``paths``."""
    runner = CliRunner()
    seen: set[str] = set()
    for path in paths:
        result = runner.invoke(app, ["replay", str(path), "--explain", "--format", "json"])
        try:
            seen.update(named_ids(json.loads(result.stdout)))
        except json.JSONDecodeError:
            print(f"{path.relative_to(ROOT)}: no JSON report (exit {result.exit_code})", file=sys.stderr)
    return seen


def coverage(seen: set[str]) -> dict[str, dict[str, Any]]:
    """Per family: the IDs the referee can apply, those printed, and those left."""
    inv = inventory()
    out = {}
    for family in FAMILIES:
        reachable = sorted(rid for rid, kind in inv.items()
                           if rid.split("-")[0] == family and kind != "track" and rid not in UNREACHABLE)
        left = [rid for rid in reachable if rid not in seen]
        out[family] = {"reachable": len(reachable), "printed": len(reachable) - len(left),
                       "share": round(1 - len(left) / len(reachable), 3) if reachable else 1.0, "left": left}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--min", type=float, default=0.95, help="the share each family must reach (default 0.95)")
    parser.add_argument("--json", action="store_true", help="the figures as JSON")
    ns = parser.parse_args(argv)
    paths = records()
    figures = coverage(printed(paths))
    if ns.json:
        print(json.dumps(figures, indent=2, sort_keys=True))
    else:
        print(f"rule IDs printed by `replay --explain -f json` over {len(paths)} records:")
        for family, f in figures.items():
            print(f"  {family}: {f['printed']}/{f['reachable']} ({f['share']:.0%})"
                  + (f"; not printed: {' '.join(f['left'])}" if f["left"] else ""))
    return 0 if all(f["share"] >= ns.min for f in figures.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
