"""Replay speed on examples/games, in one process: turns per second, loading and validation included.

Run: ``python benchmarks/replay_speed.py [--passes N] [--repeat R] [--json]``.

Figures are CPU seconds of this process (``time.process_time``). Each pass reads every record of ``examples/games`` from disk (``load_record``: JSON parsing and schema
validation) and replays it (``replay_record``: the track file, then every turn). Three figures, each the
best of R runs of N passes:

- ``cached``: tracks compiled once per process (``rallyc.records.tracks``), the way a long-running
  process or a club's batch replays a season; the report of ``rallyc replay`` without ``--explain`` (the
  rule IDs of each turn are not worked out, ``replay_record(..., explain=False)``);
- ``explained``: the same with each turn's rule IDs (``rallyc replay --explain``);
- ``recompiled``: the track cache cleared before every record, as every record used to compile its track;
- ``referee only``: records already loaded and tracks given, the referee alone;
- ``load only``: reading and checking the records (JSON, duplicate keys, schema), nothing replayed.

Two figures that move little with the load of a shared machine follow: the Python function calls per turn
of one cached pass (``cProfile``'s count: it does not depend on the clock), and the share of the cached
passes' CPU time spent in the cyclic garbage collector (``gc.callbacks``).

The last line is the README's figure (``cached``: loading, validation and the referee, each track compiled once)
(issue 9's target of 20,000 turns/s was retired by issue 29: docs/speed.md).

Nothing is asserted; the figures go in docs/speed.md and the report of the change.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import platform
import pstats
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rallyc.records import load_record, replay_record  # noqa: E402
from rallyc.records.replay import record_stages  # noqa: E402
from rallyc.records.tracks import clear_cache  # noqa: E402

GAMES = sorted((ROOT / "examples" / "games").glob("*.json"))


def turns_of(data: dict) -> int:
    """The turns a record holds (stage turns, or race turns)."""
    if "race" in data:
        return len(data["race"]["turns"])
    return sum(len(s["turns"]) for s in data["stages"])


def _pass(recompile: bool, explain: bool = False) -> None:
    for g in GAMES:
        if recompile:
            clear_cache()
        report = replay_record(load_record(g), base_dir=g.parent, explain=explain)
        assert report.ok, g


def _referee_pass(prepared) -> None:
    for data, tracks, flippers in prepared:
        report = replay_record(data, tracks=tracks, flippers=flippers, explain=False) if "race" not in data else \
            replay_record(data, tracks=tracks, explain=False)
        assert report.ok


def _load_pass() -> None:
    for g in GAMES:
        load_record(g)


def _best(fn, passes: int, repeat: int) -> float:
    """The best CPU time of ``repeat`` runs of ``passes`` passes: CPU time, not wall time, so that other
    processes on a shared machine do not count (the work is single-threaded and does no I/O wait to speak of)."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        for _ in range(passes):
            fn()
        best = min(best, time.process_time() - t0)
    return best


def _calls_per_turn(turns_per_pass: int) -> float:
    """Python function calls per turn of one cached pass (a count: the same on a busy machine)."""
    _pass(False)  # the recompiled runs leave one file in the cache: compile the others again first
    prof = cProfile.Profile()
    prof.enable()
    _pass(False)
    prof.disable()
    calls = pstats.Stats(prof).total_calls
    return calls / turns_per_pass


def _collector_share(passes: int) -> float:
    """The share of ``passes`` cached passes' CPU time spent in the cyclic garbage collector."""
    _pass(False)
    spent = [0.0]
    started = [0.0]

    def on_collect(phase: str, info: dict) -> None:
        if phase == "start":
            started[0] = time.process_time()
        else:
            spent[0] += time.process_time() - started[0]

    gc.callbacks.append(on_collect)
    try:
        t0 = time.process_time()
        for _ in range(passes):
            _pass(False)
        total = time.process_time() - t0
    finally:
        gc.callbacks.remove(on_collect)
    return spent[0] / total if total else 0.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--passes", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    records = [load_record(g) for g in GAMES]
    turns = sum(turns_of(d) for d in records) * args.passes
    clear_cache()
    t0 = time.process_time()
    _pass(False)  # the first pass compiles every track once
    first = time.process_time() - t0
    prepared = []
    for g, data in zip(GAMES, records):
        tracks, _, flippers = record_stages(dict(data, stages=data.get("stages") or [{"turns": []}]), g.parent)
        prepared.append((data, tracks, flippers))
    figures = {
        "cached": _best(lambda: _pass(False), args.passes, args.repeat),
        "explained": _best(lambda: _pass(False, explain=True), args.passes, args.repeat),
        "recompiled": _best(lambda: _pass(True), args.passes, args.repeat),
        "referee only": _best(lambda: _referee_pass(prepared), args.passes, args.repeat),
        "load only": _best(_load_pass, args.passes, args.repeat),
    }
    calls = _calls_per_turn(turns // args.passes)
    collector = _collector_share(args.passes)
    out = {"python": platform.python_version(), "machine": platform.machine(), "games": len(GAMES),
           "turns_per_pass": turns // args.passes, "passes": args.passes, "repeat": args.repeat,
           "first_pass_s": round(first, 3), "clock": "process_time (CPU seconds)",
           "results": {k: {"seconds": round(v, 3), "turns_per_s": round(turns / v)} for k, v in figures.items()},
           "calls_per_turn": round(calls, 1), "collector_share": round(collector, 3)}
    if args.json:
        print(json.dumps(out, indent=2, sort_keys=True))
    else:
        print(f"python {out['python']} on {out['machine']}: {len(GAMES)} records, {out['turns_per_pass']} turns "
              f"per pass, best of {args.repeat} x {args.passes} passes (first pass, compiling: {first:.2f} s)")
        for k, v in out["results"].items():
            print(f"  {k:<14} {v['turns_per_s']:>8} turns/s  ({v['seconds']:.2f} s CPU)")
        print(f"  {calls:.0f} Python function calls per turn (cProfile, one cached pass); "
              f"{100 * collector:.0f}% of the cached passes' CPU time in the garbage collector")
        ratio = out["results"]["recompiled"]["seconds"] / out["results"]["cached"]["seconds"]
        print(f"  the track cache makes replaying examples/games {ratio:.2f}x as fast")
        cached = out["results"]["cached"]
        print(f"README: replay examples/games in-process (load, validate, referee; tracks compiled once): "
              f"{cached['turns_per_s']:,} turns/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
