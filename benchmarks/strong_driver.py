"""The strong driver, today's against an earlier tree's, side by side in one run: speed and par times.

    python benchmarks/strong_driver.py --old TREE [--runs 1000] [--jobs 2] [--repeat 3]
                                       [--stage-runs 200] [--stages all|none|NAME,...] [--json]

``TREE`` is a checkout of the earlier driver (e.g. ``git worktree add ../base-5332eeb 5332eeb``). Each
measurement runs in a fresh process with ``PYTHONPATH`` set to its tree, old and new alternating, so both meet
the same load:

- **speed**: ``simulate`` of ``--runs`` solo runs of the 18-tile stage ``benchmarks/data/long-18.rally`` with
  ``--jobs`` processes (what ``rallyc analyze`` plays), ``--repeat`` times: the median wall and CPU seconds
  (this process and its workers) and the load average beside them;
- **par**: the mean and median stage time of those runs (seeds 0 to ``--runs`` - 1) and how many runs end in
  the same stage time under both drivers; then the same for ``--stage-runs`` solo runs of every published stage
  (``examples/*.rally``), the new driver's mean against the old one's.

Nothing is asserted: the figures go to ``docs/analyze.md`` and the README. On a machine that other jobs load,
prefer the CPU seconds (CPU / jobs is the wall time idle cores would give).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LONG18 = ("benchmarks/data/long-18.rally", "LONG18")

#: run in a fresh interpreter with PYTHONPATH=<tree>: simulate the stages given on stdin, print JSON
_CHILD = r"""
import json, os, resource, sys, time
from pathlib import Path
import rallyc
from rallyc.analysis.simulate import simulate

def cpu():
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime

job = json.load(sys.stdin)
out = []
for path, name in job["stages"]:
    t0, c0 = time.perf_counter(), cpu()
    track = rallyc.load(path).track(name)
    runs = simulate(track, job["runs"], seed=0, jobs=job["jobs"], source=(Path(path), name))
    out.append({"stage": name, "wall": time.perf_counter() - t0, "cpu": cpu() - c0,
                "load": os.getloadavg()[0], "seconds": [r.seconds for r in runs]})
print(json.dumps(out))
"""


def measure(tree: Path, stages: list[tuple[str, str]], runs: int, jobs: int) -> list[dict]:
    """Simulate ``stages`` with the driver of ``tree`` in a fresh process (paths relative to this tree)."""
    job = {"stages": [(str(ROOT / p), n) for p, n in stages], "runs": runs, "jobs": jobs}
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run([sys.executable, "-c", _CHILD], input=json.dumps(job), capture_output=True, text=True,
                          env=env, cwd=tree, check=True)
    return json.loads(done.stdout)


def published() -> list[tuple[str, str]]:
    """Every stage of the examples (path relative to the tree, name)."""
    sys.path.insert(0, str(ROOT))
    import rallyc

    out = []
    for f in sorted((ROOT / "examples").glob("*.rally")):
        for track in rallyc.load(str(f)).tracks:
            if track.kind == "stage":
                out.append((str(f.relative_to(ROOT)), track.name))
    return out


def _mean(seconds: list) -> float | None:
    done = [s for s in seconds if s is not None]
    return statistics.mean(done) if done else None


def compare(old: list, new: list) -> dict:
    """Par figures of the same runs by both drivers."""
    m_old, m_new = _mean(old), _mean(new)
    return {"mean old": round(m_old, 2) if m_old is not None else None,
            "mean new": round(m_new, 2) if m_new is not None else None,
            "change %": round(100 * (m_new - m_old) / m_old, 2) if m_old and m_new is not None else None,
            "median old": statistics.median(s for s in old if s is not None),
            "median new": statistics.median(s for s in new if s is not None),
            "same runs": f"{sum(a == b for a, b in zip(old, new))}/{len(old)}"}


def speed(old_tree: Path, runs: int, jobs: int, repeat: int) -> dict:
    """Median wall and CPU seconds of ``runs`` solo runs of LONG18 by each driver, alternating, and the par."""
    got: dict[str, list[dict]] = {"old": [], "new": []}
    for _ in range(repeat):
        for which, tree in (("old", old_tree), ("new", ROOT)):
            got[which].append(measure(tree, [LONG18], runs, jobs)[0])
            r = got[which][-1]
            print(f"  {which}: {r['wall']:.2f} s wall, {r['cpu']:.2f} s CPU, load {r['load']:.2f}", file=sys.stderr)
    row: dict = {"stage": "LONG18 (18 tiles)", "runs": runs, "jobs": jobs, "repeats": repeat}
    for which in ("old", "new"):
        row[f"{which} wall s"] = round(statistics.median(r["wall"] for r in got[which]), 2)
        row[f"{which} CPU s"] = round(statistics.median(r["cpu"] for r in got[which]), 2)
    row["load"] = f"{min(r['load'] for v in got.values() for r in v):.1f}-" \
                  f"{max(r['load'] for v in got.values() for r in v):.1f}"
    row.update(compare(got["old"][0]["seconds"], got["new"][0]["seconds"]))
    return row


def stages(old_tree: Path, which: list[tuple[str, str]], runs: int) -> list[dict]:
    """Every stage of ``which``: the mean stage time of ``runs`` solo runs by each driver (one process each)."""
    rows = []
    for path, name in which:
        old, new = measure(old_tree, [(path, name)], runs, 1)[0], measure(ROOT, [(path, name)], runs, 1)[0]
        row = {"stage": f"{Path(path).stem} {name}", "runs": runs, **compare(old["seconds"], new["seconds"]),
               "old CPU s": round(old["cpu"], 2), "new CPU s": round(new["cpu"], 2)}
        rows.append(row)
        print(row, file=sys.stderr)
    return rows


def _markdown(rows: list[dict]) -> str:
    keys = list(rows[0])
    return "\n".join(["| " + " | ".join(keys) + " |", "|" + "---|" * len(keys)] +
                     ["| " + " | ".join(str(r[k]) for k in keys) + " |" for r in rows])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--old", type=Path, required=True, help="a checkout of the earlier driver")
    p.add_argument("--runs", type=int, default=1000)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--stage-runs", type=int, default=200)
    p.add_argument("--stages", default="all", help="all, none, or stage names (SS1 of every example: rally-1:SS1)")
    p.add_argument("--json", action="store_true")
    a = p.parse_args()
    out = {"speed": speed(a.old.resolve(), a.runs, a.jobs, a.repeat)}
    chosen = [] if a.stages == "none" else published()
    if a.stages not in ("all", "none"):
        names = set(a.stages.split(","))
        chosen = [(f, n) for f, n in chosen if f"{Path(f).stem}:{n}" in names]
    out["stages"] = stages(a.old.resolve(), chosen, a.stage_runs) if chosen else []
    if a.json:
        print(json.dumps(out, indent=2))
        return
    print(_markdown([out["speed"]]))
    if out["stages"]:
        print()
        print(_markdown(out["stages"]))


if __name__ == "__main__":
    main()
