"""How render time grows with stage length (issue 13: linear, 1,000 tiles in 1 s or less in-process).

Run: ``python benchmarks/render_scaling.py [--repeat N] [--sizes 18,100,300,1000,3000] [--json]``.
Each size is a compiled stage of that many road tiles (a start, straights, a finish) drawn
in-process as a page-fit A4 map (``render_map``); compiling is not timed. Prints the best and
median wall-clock time of N runs, the best CPU time (the process's own, steadier on a shared machine)
and the time per tile: a flat time per tile means linear. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rallyc.pipeline import compile_loaded  # noqa: E402
from rallyc.project import load_text  # noqa: E402
from rallyc.render.document import MapOptions, render_map  # noqa: E402
from rallyc.tiles.catalogue import Catalogue  # noqa: E402


def long_stage(tiles: int) -> str:
    """A stage of ``tiles`` road tiles: the start tile, straights, the finish tile."""
    body = "\n".join(["  202a"] + ["  205a"] * (tiles - 2) + ["  203a"])
    return f"use dirt-core\nstage Long {{\n{body}\n}}\n"


def compiled(tiles: int):
    loaded = load_text(long_stage(tiles), f"long-{tiles}.rally")
    result = compile_loaded(loaded)
    return result.designs[0].tracks[0], Catalogue.from_tilesets(loaded.tilesets)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--sizes", default="18,100,300,1000,3000")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows = []
    for n in (int(s) for s in args.sizes.split(",")):
        track, catalogue = compiled(n)
        times = []
        cpu = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            c0 = time.process_time()
            render_map(track, catalogue, title="Long", options=MapOptions(page="a4"))
            cpu.append(time.process_time() - c0)
            times.append(time.perf_counter() - t0)
        rows.append({"tiles": n, "best_s": min(times), "median_s": statistics.median(times),
                     "best_cpu_s": min(cpu), "ms_per_tile": 1000 * min(times) / n})
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        print(f"{'tiles':>6} {'best ms':>10} {'median ms':>10} {'cpu ms':>10} {'ms/tile':>8}")
        for r in rows:
            print(f"{r['tiles']:>6} {r['best_s'] * 1000:10.1f} {r['median_s'] * 1000:10.1f} "
                  f"{r['best_cpu_s'] * 1000:10.1f} {r['ms_per_tile']:8.3f}")


if __name__ == "__main__":
    main()
