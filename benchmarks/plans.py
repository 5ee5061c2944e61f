"""Plan enumeration speed: the dedicated enumerator (rallyc.rules.enumerate) against the validator-based
``legal_plans``, on the same positions of the published stages, in one run.

Run: ``python benchmarks/plans.py [--repeat N] [--max-dice K]``. Positions: on every stage of every published
rally and the Auto Tour, the car put on every 8th space in gears 1 to 5 with another car on the road. Prints
plans per second (CPU time of this process, best of N) for both and their ratio. The issue's target is
300,000 plans/s for the enumerator.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import rallyc  # noqa: E402
from rallyc.rules import Player, Stage  # noqa: E402
from rallyc.rules.enumerate import PlanEnumerator  # noqa: E402
from rallyc.rules.plans import legal_plans  # noqa: E402
from rallyc.rules.state import Card  # noqa: E402

FILES = sorted((ROOT / "examples").glob("rally-*.rally")) + [ROOT / "examples" / "auto-tour-1.rally"]


def contexts():
    out = []
    for f in FILES:
        for track in rallyc.load(f).tracks:
            st = Stage(track, [Player("A", "red"), Player("B", "blue")])
            ids = sorted(st.index.spaces)
            b = st.cars["B"]
            b.space, b.status, b.cards = ids[len(ids) // 2], "road", [Card(3, 30)]
            for k, sid in enumerate(ids[::8]):
                if sid == b.space:
                    continue
                a = st.cars["A"]
                a.space, a.status, a.cards = sid, "road", [Card(1 + k % 5, 10)]
                st.order, st.position = ["B", "A"], 1
                out.append(st.context("A")[0])
    return out


def _best(fn, repeat: int) -> tuple[float, int]:
    best, n = float("inf"), 0
    for _ in range(repeat):
        t0 = time.process_time()
        n = fn()
        best = min(best, time.process_time() - t0)
    return best, n


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--max-dice", type=int, default=4)
    args = ap.parse_args()
    ctxs = contexts()
    k = args.max_dice
    t_old, n_old = _best(lambda: sum(1 for c in ctxs for _ in legal_plans(c, k)), args.repeat)
    t_new, n_new = _best(lambda: sum(1 for c in ctxs for _ in PlanEnumerator(c).plans(k)), args.repeat)
    t_cnt, n_cnt = _best(lambda: sum(PlanEnumerator(c).count(k) for c in ctxs), args.repeat)
    assert n_old == n_new == n_cnt, (n_old, n_new, n_cnt)
    print(f"{len(ctxs)} positions on {len(FILES)} published designs, plans of up to {k} dice: {n_old} plans")
    print(f"  legal_plans (record validator):     {n_old / t_old:10.0f} plans/s")
    print(f"  PlanEnumerator.plans (tables):      {n_new / t_new:10.0f} plans/s  ({t_old / t_new:.1f}x)")
    print(f"  PlanEnumerator.count (no tuples):   {n_cnt / t_cnt:10.0f} plans/s  ({t_old / t_cnt:.1f}x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
