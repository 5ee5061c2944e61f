"""Benchmarks of ``rallyc analyze``: speed, and the drivers compared on every published stage.

    python benchmarks/analyze.py speed [--runs 1000] [--jobs 2]
    python benchmarks/analyze.py drivers [--runs 30] [--json]
    python benchmarks/analyze.py par [--runs 200] [--table-runs 20]
    python benchmarks/analyze.py rx [--runs 40] [--table-runs 12]

``speed`` times N solo runs of the strong driver on the 18-tile stage ``benchmarks/data/long-18.rally``
(the issue's target: 1,000 runs in 30 s or less on 2 cores). ``drivers`` prints the median stage time of
the strong, greedy and random drivers on every stage of every example (same seeds for all three).
``par`` prints each example stage's par time, riskiest corner, and rulebook class against measured class.
``rx`` races every published RX circuit with the strong and the greedy driver (the same seeds and Joker plans):
the median solo race in turns, the cars disqualified for a missing Joker (RX-JOKER-04) in four-car races,
and the CPU seconds per race.
Nothing is asserted: the figures go to the README.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import rallyc  # noqa: E402
from rallyc.analysis import DriverKind, analyze_track  # noqa: E402
from rallyc.analysis.simulate import simulate  # noqa: E402


def _stages():
    for f in sorted((ROOT / "examples").glob("*.rally")):
        design = rallyc.load(str(f))
        for track in design.tracks:
            if track.kind == "stage":
                yield f, track


def _cpu() -> float:
    """CPU seconds of this process and of its finished child processes (the ``--jobs`` workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def speed(runs: int, jobs: int) -> dict:
    """Wall seconds of ``runs`` solo runs with ``jobs`` processes (the issue's figure), and the CPU seconds they
    took (this process and the workers): on a machine other jobs load, CPU / jobs is what the wall time would
    be on idle cores."""
    path = ROOT / "benchmarks" / "data" / "long-18.rally"
    track = rallyc.load(str(path)).track("LONG18")
    t0, c0 = time.perf_counter(), _cpu()
    result = simulate(track, runs, seed=0, jobs=jobs, source=(path, "LONG18"))
    seconds, cpu = time.perf_counter() - t0, _cpu() - c0
    times = [r.seconds for r in result if r.seconds is not None]
    return {"stage": "LONG18 (18 tiles)", "runs": runs, "jobs": jobs, "seconds": round(seconds, 2),
            "cpu_seconds": round(cpu, 2), "cpu_per_job": round(cpu / jobs, 2),
            "load_average": round(os.getloadavg()[0], 2), "par": statistics.median(times)}


def drivers(runs: int) -> list[dict]:
    rows = []
    for f, track in _stages():
        row = {"stage": f"{f.stem} {track.name}"}
        for kind in DriverKind:
            res = simulate(track, runs, seed=5, kind=kind)
            row[kind.value] = statistics.median(r.seconds if r.seconds is not None else 10**6 for r in res)
        rows.append(row)
        print(f"{row['stage']:<22} strong {row['strong']:>6} greedy {row['greedy']:>6} random {row['random']:>6}",
              file=sys.stderr)
    return rows


def _circuits():
    for f in sorted((ROOT / "examples").glob("*.rally")):
        design = rallyc.load(str(f))
        for track in design.tracks:
            if track.kind == "circuit":
                yield f, track


def rx(runs: int, table_runs: int) -> list[dict]:
    """Strong against greedy on every published RX circuit: solo races (median turns, finished share, CPU per
    race) and four-car races (cars disqualified for a missing Joker, cars that drove it on their planned lap)."""
    from rallyc.analysis.rxsim import DISQUALIFIED, FINISHED, joker_plan, play_races
    from rallyc.rules.rx_order import grid
    from rallyc.rules.state import index_of

    rows = []
    for f, track in _circuits():
        cars = min(4, len(grid(index_of(track))))  # Ice Track 1's Pre-grid holds two
        row: dict = {"circuit": f"{f.stem} {track.name}", "laps": track.laps, "table cars": cars}
        for kind in (DriverKind.strong, DriverKind.greedy):
            c0 = _cpu()
            solo = play_races(track, list(range(runs)), seed=7, cars=1, kind=kind)
            cpu = (_cpu() - c0) / runs
            turns = [r.cars[0].turns for r in solo if r.cars[0].status == FINISHED]
            table = play_races(track, list(range(table_runs)), seed=1, cars=cars, kind=kind) if table_runs else []
            raced = [(r.index, g, c) for r in table for g, c in enumerate(r.cars)]
            laps = int(track.laps or 2)
            row[f"{kind.value} race"] = statistics.median(turns) if turns else None
            row[f"{kind.value} finished"] = f"{len(turns)}/{runs}"
            row[f"{kind.value} disqualified"] = f"{sum(c.status == DISQUALIFIED for _, _, c in raced)}/{len(raced)}"
            on_plan = sum(c.joker_lap == joker_plan(i, g, laps) for i, g, c in raced)
            joker = any(s.joker for s in track.spaces.values())
            row[f"{kind.value} Joker on plan"] = f"{on_plan}/{len(raced)}" if joker else "no Joker"
            row[f"{kind.value} CPU s/solo race"] = round(cpu, 2)
        rows.append(row)
        print(row, file=sys.stderr)
    return rows


def par(runs: int, table_runs: int) -> list[dict]:
    rows = []
    for f, track in _stages():
        a = analyze_track(track, runs=runs, table_runs=table_runs, seed=0)
        top = a.corners[0] if a.corners else None
        rows.append({"stage": f"{f.stem} {track.name}", "tiles": a.tiles, "par": a.par,
                     "error": round(a.par_error or 0, 1), "clean": round(a.clean, 2),
                     "riskiest": f"{top.where} {top.tile} {top.rate:.0%}" if top else "-",
                     "rulebook": a.rulebook_class, "minutes": round(a.playing_minutes or 0, 1),
                     "measured": a.measured_class})
        print(rows[-1], file=sys.stderr)
    return rows


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("what", choices=("speed", "drivers", "par", "rx"))
    p.add_argument("--runs", type=int)
    p.add_argument("--table-runs", type=int)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--json", action="store_true")
    a = p.parse_args()
    if a.what == "speed":
        out: object = speed(a.runs or 1000, a.jobs)
    elif a.what == "drivers":
        out = drivers(a.runs or 30)
    elif a.what == "rx":
        out = rx(a.runs or 40, 12 if a.table_runs is None else a.table_runs)
    else:
        out = par(a.runs or 200, 20 if a.table_runs is None else a.table_runs)
    if a.json:
        print(json.dumps(out, indent=2))
    elif isinstance(out, list):
        keys = list(out[0])
        print("| " + " | ".join(keys) + " |")
        print("|" + "---|" * len(keys))
        for row in out:
            print("| " + " | ".join(str(row[k]) for k in keys) + " |")
    else:
        print(out)
        if a.what == "speed" and isinstance(out, dict):
            print(f"README: `rallyc analyze`, {out['runs']:,} solo runs of an 18-tile stage, --jobs {out['jobs']}: "
                  f"{out['seconds']} s wall ({out['cpu_per_job']} s CPU per process, load average "
                  f"{out['load_average']}; target 30 s)")


if __name__ == "__main__":
    main()
