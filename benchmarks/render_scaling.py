"""How render time grows with stage length (issue 13: linear, 1,000 tiles in 1 s or less in-process).

Run: ``python benchmarks/render_scaling.py [--repeat N] [--sizes 18,100,300,1000,3000] [--json]``.
Each size is a compiled stage of that many road tiles (a start, straights, a finish) drawn
in-process as a page-fit A4 map (``render_map``); compiling is not timed. Prints the best and
median wall-clock time of N runs, the best CPU time (the process's own, steadier on a shared machine)
and the time per tile: a flat time per tile means linear. Nothing is asserted.

``--against DIR`` measures before and after in one run: this tree and the rallyc tree ``DIR`` (a checkout
of another commit) each in a process of its own, the same stages, one render at a time in turn, ``--repeat``
rounds; prints each side's best CPU and wall-clock time per size and the ratio (this tree / ``DIR``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rallyc.compilation.pipeline import compile_loaded  # noqa: E402
from rallyc.project.loader import load_text  # noqa: E402
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


#: a worker of ``--against``: renders, on each size read from standard input, the stage of that many tiles
#: of the tree given, and answers with its CPU and wall-clock seconds
_WORKER = r"""
import sys, time
sys.path.insert(0, sys.argv[1])
from benchmarks.render_scaling import compiled
from rallyc.render.document import MapOptions, render_map
stages = {int(n): compiled(int(n)) for n in sys.argv[2].split(",")}
for track, catalogue in stages.values():
    render_map(track, catalogue, title="Long", options=MapOptions(page="a4"))
print("ready", flush=True)
for line in sys.stdin:
    track, catalogue = stages[int(line)]
    c0, t0 = time.process_time(), time.perf_counter()
    render_map(track, catalogue, title="Long", options=MapOptions(page="a4"))
    print(time.process_time() - c0, time.perf_counter() - t0, flush=True)
"""


def against(other: Path, sizes: list[int], repeat: int, as_json: bool) -> None:
    """This tree against ``other``, interleaved (see the module docstring)."""
    sides = {"this": ROOT, "against": other.resolve()}
    procs = {k: subprocess.Popen([sys.executable, "-c", _WORKER, str(v), ",".join(map(str, sizes))],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) for k, v in sides.items()}
    for p in procs.values():
        assert p.stdout is not None and p.stdout.readline().strip() == "ready"
    times: dict[tuple[str, int], list[tuple[float, float]]] = {(k, n): [] for k in sides for n in sizes}
    for _ in range(repeat):
        for n in sizes:
            for k, p in procs.items():
                assert p.stdin is not None and p.stdout is not None
                p.stdin.write(f"{n}\n")
                p.stdin.flush()
                cpu, wall = map(float, p.stdout.readline().split())
                times[(k, n)].append((cpu, wall))
    for p in procs.values():
        assert p.stdin is not None
        p.stdin.close()
        p.wait()
    rows = []
    for n in sizes:
        best = {k: (min(c for c, _ in times[(k, n)]), min(w for _, w in times[(k, n)])) for k in sides}
        rows.append({"tiles": n, "this_cpu_s": best["this"][0], "against_cpu_s": best["against"][0],
                     "this_wall_s": best["this"][1], "against_wall_s": best["against"][1],
                     "cpu_ratio": best["this"][0] / best["against"][0]})
    if as_json:
        print(json.dumps({"against": str(other), "rounds": repeat, "rows": rows}, indent=2))
        return
    print(f"this tree against {other}, {repeat} rounds, best of each")
    print(f"{'tiles':>6} {'cpu ms':>10} {'against':>10} {'ratio':>7} {'wall ms':>10} {'against':>10}")
    for r in rows:
        print(f"{r['tiles']:>6} {r['this_cpu_s'] * 1000:10.1f} {r['against_cpu_s'] * 1000:10.1f} "
              f"{r['cpu_ratio']:7.3f} {r['this_wall_s'] * 1000:10.1f} {r['against_wall_s'] * 1000:10.1f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--sizes", default="18,100,300,1000,3000")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--against", type=Path, help="a second rallyc tree, measured interleaved with this one")
    args = ap.parse_args()
    if args.against is not None:
        against(args.against, [int(s) for s in args.sizes.split(",")], args.repeat, args.json)
        return
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
