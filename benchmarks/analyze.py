"""Benchmarks of ``rallyc analyze``: speed, and the drivers compared on every published stage.

    python benchmarks/analyze.py speed [--runs 1000] [--jobs 2]
    python benchmarks/analyze.py drivers [--runs 30] [--json]
    python benchmarks/analyze.py par [--runs 200] [--table-runs 20] [--circuit-runs 40 (0: none)] [--circuit-table-runs 8]
    python benchmarks/analyze.py rx [--runs 40] [--table-runs 12]

``speed`` times N solo runs of the strong driver on the 18-tile stage ``benchmarks/data/long-18.rally``
(the issue's target: 1,000 runs in 30 s or less on 2 cores). ``drivers`` prints the median stage time of
the strong, greedy and random drivers on every stage of every example (same seeds for all three).
``par`` prints the par time of every example stage (strong driver, with the greedy driver's par on the same seeds and
the gain) and its riskiest corner, the rulebook's length class against the class of the measured playing time, and
the same for every example circuit (race in turns, under the rules ``rallyc analyze`` races it by), then a summary of
how the length classes agree: the tables of docs/analyze.md.
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
    from rallyc.analysis.circuit_runs import DISQUALIFIED, FINISHED, joker_plan, play_races
    from rallyc.rules.core.rx_order import grid
    from rallyc.rules.core.state import index_of

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


#: TRACK-RX-10..12 (4 players, Joker and Pre-grid excluded): tiles x laps of a short / medium / long race, minutes
RX_CLASSES = {"Short": (18, 30.0), "Medium": (24, 45.0), "Long": (32, 60.0)}


def rx_class(tile_laps: int) -> str:
    """The RX guideline's class nearest to this many tiles x laps (TRACK-RX-10..12)."""
    return min(RX_CLASSES, key=lambda c: (abs(RX_CLASSES[c][0] - tile_laps), RX_CLASSES[c][0]))


def rx_measured_class(minutes: float) -> str:
    """The RX class whose guideline playing time is nearest."""
    return min(RX_CLASSES, key=lambda c: (abs(RX_CLASSES[c][1] - minutes), RX_CLASSES[c][1]))


def _pm(value, error, digits: int = 0) -> str:
    if value is None:
        return "-"
    return f"{value:.{digits}f}" + (f" ± {error:.{digits}f}" if error is not None else "")


def par(runs: int, table_runs: int, jobs: int) -> list[dict]:
    """Every example stage: the strong driver's par, the greedy driver's on the same seeds, the gain, the riskiest
    corner, and the rulebook's class by tiles against the class of the measured playing time (four-car runs)."""
    rows = []
    for f, track in _stages():
        a = analyze_track(track, runs=runs, table_runs=table_runs, seed=0, jobs=jobs, source=(f, track.name),
                          against=DriverKind.greedy)
        top = a.corners[0] if a.corners else None
        g = a.against
        assert g is not None
        rows.append({"stage": f"{f.stem} {track.name}", "tiles": a.tiles, "par s (strong)": _pm(a.par, a.par_error),
                     "greedy s": _pm(g.par, g.par_error), "gain s": _pm(g.gain, g.gain_error),
                     "clean": f"{a.clean:.0%}", "riskiest corner": f"{top.where} {top.tile} {top.rate:.0%}" if top else "-",
                     "table turns": round(a.table_turns or 0), "turns/tile": round((a.table_turns or 0) / a.tiles, 2),
                     "minutes": round(a.playing_minutes or 0), "rulebook": a.rulebook_class,
                     "measured": a.measured_class, "agree": "yes" if a.measured_class == a.rulebook_class else "no"})
        print(rows[-1], file=sys.stderr)
    return rows


def circuits_par(runs: int, table_runs: int, jobs: int) -> list[dict]:
    """Every example circuit under the rules ``rallyc analyze`` races it by: the strong driver's race (turns), the
    greedy driver's on the same seeds, and the RX guideline's class (TRACK-RX-10..12) against the class of the
    measured playing time (a car's turns in the table races, times four players, at the stage's seconds a turn)."""
    from rallyc.analysis.report import TURN_SECONDS_AT_TABLE
    from rallyc.analysis.circuit_report import analyze_circuit

    rows = []
    for f, track in _circuits():
        design = rallyc.load(str(f))
        c = analyze_circuit(track, runs=runs, table_runs=table_runs, seed=0, jobs=jobs, source=(f, track.name),
                            design_options=design.options, against=DriverKind.greedy)
        g = c.against
        assert g is not None
        minutes = c.table_car_turns * 4 * TURN_SECONDS_AT_TABLE / 60 if c.table_car_turns else None
        tile_laps = c.tiles * c.laps
        measured = rx_measured_class(minutes) if minutes is not None else "-"
        rows.append({"circuit": f"{f.stem} {track.name}", "raced as": c.race_format,
                     "tiles x laps": f"{c.tiles} x {c.laps}", "race turns (strong)": _pm(c.race, c.race_error, 1),
                     "greedy turns": _pm(g.par, g.par_error, 1), "gain turns": _pm(g.gain, g.gain_error, 1),
                     "clean": f"{c.clean:.0%}", "table cars": c.table_cars,
                     "turns/car": "-" if c.table_car_turns is None else round(c.table_car_turns, 1),
                     "minutes (4 cars)": "-" if minutes is None else round(minutes),
                     "guideline": rx_class(tile_laps), "measured": measured,
                     "agree": "-" if minutes is None else "yes" if measured == rx_class(tile_laps) else "no"})
        print(rows[-1], file=sys.stderr)
    return rows


def agreement(stages: list[dict], circuits: list[dict]) -> list[str]:
    """The summary lines under the tables."""
    out = []
    by_class: dict[str, list[dict]] = {}
    for r in stages:
        by_class.setdefault(r["rulebook"], []).append(r)
    agree = sum(r["agree"] == "yes" for r in stages)
    out.append(f"Stages: the measured class agrees with the rulebook's on {agree} of {len(stages)}.")
    for cls in ("Short", "Medium", "Long"):
        rows = by_class.get(cls, [])
        if rows:
            out.append(f"- {cls} by the rulebook ({len(rows)} stages, {min(r['tiles'] for r in rows)}-"
                       f"{max(r['tiles'] for r in rows)} tiles): {statistics.mean(r['minutes'] for r in rows):.0f} min "
                       f"on average ({min(r['minutes'] for r in rows)}-{max(r['minutes'] for r in rows)}), "
                       f"{statistics.mean(r['turns/tile'] for r in rows):.2f} table turns a tile")
    timed = [r for r in circuits if r["agree"] != "-"]
    if not circuits:
        return out
    out.append(f"Circuits: the measured class agrees with the RX guideline's on "
               f"{sum(r['agree'] == 'yes' for r in timed)} of {len(timed)}.")
    return out


def _markdown(rows: list[dict]) -> list[str]:
    keys = list(rows[0])
    return ["| " + " | ".join(keys) + " |", "|" + "---|" * len(keys)] + \
        ["| " + " | ".join(str(row[k]) for k in keys) + " |" for row in rows]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("what", choices=("speed", "drivers", "par", "rx"))
    p.add_argument("--runs", type=int)
    p.add_argument("--table-runs", type=int)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--circuit-runs", type=int, default=40)
    p.add_argument("--circuit-table-runs", type=int, default=8)
    p.add_argument("--json", action="store_true")
    a = p.parse_args()
    if a.what == "speed":
        out: object = speed(a.runs or 1000, a.jobs)
    elif a.what == "drivers":
        out = drivers(a.runs or 30)
    elif a.what == "rx":
        out = rx(a.runs or 40, 12 if a.table_runs is None else a.table_runs)
    else:
        stages = par(a.runs or 200, 20 if a.table_runs is None else a.table_runs, a.jobs)
        # --circuit-runs 0: the stages only (the circuits' drivers are another matter)
        circuits = circuits_par(a.circuit_runs, a.circuit_table_runs, a.jobs) if a.circuit_runs else []
        if a.json:
            print(json.dumps({"stages": stages, "circuits": circuits}, indent=2))
        else:
            tables = _markdown(stages) + [""] + (_markdown(circuits) + [""] if circuits else [])
            print("\n".join(tables + agreement(stages, circuits)))
        return
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
