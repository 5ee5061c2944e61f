"""Plan enumeration speed: ``rallyc.rules.core.plans.legal_plans`` (the one description of a legal die, the record
validator's) on positions of the published stages.

Run: ``python benchmarks/plans.py [--repeat N] [--max-dice K]``. Positions: on every stage of every published
rally and the Auto Tour, the car put on every 8th space in gears 1 to 5 with another car on the road. Prints
plans per second (CPU time of this process, best of N), each position's plans listed from scratch (its
``OptionTable`` new), then with the tables of dice the Dashboard allows warm (what a driver's later turns see).
Before issue 29 a second plan walker (``PlanEnumerator``) did this; its figure on the same positions was
1,087,000 plans/s on a loaded machine (load 3.5) where ``legal_plans`` then made 259,000.
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
from rallyc.rules.core import plans  # noqa: E402
from rallyc.rules.core.plans import legal_plans  # noqa: E402
from rallyc.rules.core.state import Card  # noqa: E402

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

    def cold() -> int:
        plans._ALLOWED.clear()  # the Dashboard's table of allowed dice, filled as plans are listed
        return sum(1 for c in ctxs for _ in legal_plans(c, k))

    t_cold, n = _best(cold, args.repeat)
    t_warm, n_warm = _best(lambda: sum(1 for c in ctxs for _ in legal_plans(c, k)), args.repeat)
    assert n == n_warm, (n, n_warm)
    print(f"{len(ctxs)} positions on {len(FILES)} published designs, plans of up to {k} dice: {n} plans")
    print(f"  legal_plans, Dashboard table cold:  {n / t_cold:10.0f} plans/s")
    print(f"  legal_plans, Dashboard table warm:  {n / t_warm:10.0f} plans/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
