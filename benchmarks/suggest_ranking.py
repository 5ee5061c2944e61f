"""How well ``rallyc suggest`` ranks: the published designer's next tile among the top 5, on designs the ranking
never saw (issue 35).

Run: ``python benchmarks/suggest_ranking.py [--top N]``. Leave one design out: for each published design (a rally
of the rulebooks, or Auto Tour 1's SS3), the ranking is fitted on the others (:mod:`rallyc.suggest.ranking_fit`: the counts
and the weights) and every step of its stages is suggested (the stage up to that step and the rally's earlier
stages, no scenery); the figure is the share of steps whose
designer's tile (its road and direction) is among the first N legal suggestions. Also printed: the same with
nothing learnt (the stage's boxes first, then the tiles in number order), the fixed held-out set of
``tests/test_suggest_ranking.py`` (Rally 2 and Rally 5) and, with ``--verbose``, the rank of each step.
``--write-weights`` fits the weights on every published design and writes ``rallyc/data/suggest-weights.json``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rallyc.suggest.ranking import PUBLISHED, WEIGHTS_PATH  # noqa: E402
from rallyc.suggest.ranking_fit import held_out_ranks, weights_file  # noqa: E402

#: the held-out set of the test
TEST_HELD_OUT = ("rally-2", "rally-5")


def share(ranks: list, top: int) -> tuple[int, int]:
    """(steps whose tile is in the top ``top``, steps)."""
    return sum(1 for *_, r in ranks if r is not None and r < top), len(ranks)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--top", type=int, default=5)
    ap.add_argument("--verbose", action="store_true", help="the rank of every step")
    ap.add_argument("--write-weights", action="store_true",
                    help=f"fit the weights on every published design and write them to {WEIGHTS_PATH.name}, then stop")
    args = ap.parse_args()
    if args.write_weights:
        WEIGHTS_PATH.write_text(weights_file(), encoding="utf-8")
        print(f"wrote {WEIGHTS_PATH}")
        return
    every = []
    for name, _ in PUBLISHED:
        design = Path(name).stem
        ranks = held_out_ranks([design])
        hit, n = share(ranks, args.top)
        print(f"{design:<12} top {args.top}: {hit:>3} of {n:>3} steps")
        every += ranks
    hit, n = share(every, args.top)
    known = [r for *_, r in every if r is not None]
    print(f"leave one design out: top {args.top} in {hit} of {n} held-out steps ({hit / n:.0%}); top 1 in "
          f"{share(every, 1)[0]}; median rank {statistics.median(known) + 1:.0f}")
    plain = held_out_ranks([Path(name).stem for name, _ in PUBLISHED], learn=False)
    hit, n = share(plain, args.top)
    print(f"nothing learnt (the stage's boxes first, then tile-number order): top {args.top} in {hit} of {n} "
          f"steps ({hit / n:.0%}); top 1 in {share(plain, 1)[0]}")
    test = [r for r in every if r[0] in TEST_HELD_OUT]
    fixed = held_out_ranks(TEST_HELD_OUT)
    hit, n = share(fixed, args.top)
    print(f"held out together ({', '.join(TEST_HELD_OUT)}): top {args.top} in {hit} of {n} steps ({hit / n:.0%})"
          f" [{share(test, args.top)[0]} when each is left out alone]")
    if args.verbose:
        for design, stage, step, rank in every:
            print(design, stage, step, "-" if rank is None else rank + 1)


if __name__ == "__main__":
    main()
