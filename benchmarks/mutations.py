"""The mutation run over the recorded games (issue 9): no accepted record may contradict the rules or the game's
card table.

Run: ``python benchmarks/mutations.py [--per-kind N] [--seed S]``. For every stage record in examples/games it
changes one thing at a time (a card's seconds, a die's space, a lane, a gear, a face; every site, or ``N`` of
each kind picked with ``S``), replays the mutant and counts it refused or accepted; an accepted mutant is
checked without the plan validator (rallyc.records.mutate.judge). Exit 1 on any contradiction.
``tests/test_mutation_records.py`` runs a seeded slice by default and this whole run with ``RALLYC_SLOW=1``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rallyc.records import load_record  # noqa: E402
from rallyc.records.mutate import Tally, judge, mutants  # noqa: E402
from rallyc.records.replay import record_stages  # noqa: E402

GAMES = sorted((ROOT / "examples" / "games").glob("*.json"))


def run(per_kind: int | None, seed: int) -> Tally:
    tally = Tally()
    for path in GAMES:
        rec = load_record(path)
        if "stages" not in rec:
            continue  # race records have no Time cards; their dice are covered by the RX tests
        tracks, _, _ = record_stages(rec, path.parent)
        for m in mutants(rec, random.Random(f"{seed}:{path.name}"), per_kind):
            verdict, why = judge(m, path.parent, tracks)
            tally.add(m.kind, verdict, f"{path.name}: {why}" if why else "")
    return tally


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-kind", type=int, default=None, help="mutants of each kind per record (default: all)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    t0 = time.perf_counter()
    tally = run(args.per_kind, args.seed)
    if args.json:
        print(json.dumps({"mutants": tally.mutants, "refused": tally.refused, "accepted": tally.accepted,
                          "contradictions": tally.contradictions}, indent=2, sort_keys=True))
    else:
        print("\n".join(tally.lines()) + f"\n({time.perf_counter() - t0:.0f} s)")
        for c in tally.contradictions:
            print("  " + c)
    return 1 if tally.contradictions else 0


if __name__ == "__main__":
    raise SystemExit(main())
