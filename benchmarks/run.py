"""Benchmarks: how long the main jobs take on the bundled examples.

Run: ``python benchmarks/run.py [--repeat N] [--json]``. Prints one line per job with the
best and median wall time over N runs. Nothing here is asserted; the figures go in the README.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rallyc.compiler import compile_loaded  # noqa: E402
from rallyc.project import bundled_tilesets, load  # noqa: E402
from rallyc.resources import tilesets_dir  # noqa: E402
from rallyc.syntax.formatter import format_text  # noqa: E402
from rallyc.syntax.parser import parse  # noqa: E402

EXAMPLES = sorted((ROOT / "examples").glob("*.rally"))
GAMES = sorted((ROOT / "examples" / "games").glob("*.json"))


def _time(fn, repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times)


def job_parse_tilesets() -> None:
    for f in sorted(tilesets_dir().glob("*.rally")):
        parse(f.read_text(encoding="utf-8"), f.name)


def job_format_examples() -> None:
    for f in EXAMPLES:
        format_text(f.read_text(encoding="utf-8"), f.name)


def job_compile_examples() -> None:
    for f in EXAMPLES:
        compile_loaded(load(f))


def job_render_examples() -> None:
    from rallyc.render import render_design_svg  # type: ignore[attr-defined]

    for f in EXAMPLES:
        result = compile_loaded(load(f))
        for design in result.designs:
            for track in design.tracks:
                render_design_svg(design, track)


def job_replay_games() -> None:
    from rallyc.records import replay_file  # type: ignore[attr-defined]

    for g in GAMES:
        replay_file(g)


def job_bot_games(n: int = 50) -> None:
    from rallyc.rules.bot import play_random_game  # type: ignore[attr-defined]

    for seed in range(n):
        play_random_game(seed)


JOBS = {
    "parse every bundled tileset (11 files)": job_parse_tilesets,
    "format every example": job_format_examples,
    "load + compile every example (with all checks)": job_compile_examples,
    "render every stage of every example to SVG": job_render_examples,
    "replay every recorded game": job_replay_games,
    "bot: 50 random legal games": job_bot_games,
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    bundled_tilesets()  # warm the parser and the bundled tilesets once, as a long-running process would
    results = []
    for name, fn in JOBS.items():
        try:
            best, median = _time(fn, args.repeat)
            results.append({"job": name, "best_s": round(best, 4), "median_s": round(median, 4)})
        except (ImportError, AttributeError) as e:
            results.append({"job": name, "skipped": f"not available: {e}"})
    if args.json:
        print(json.dumps({"python": platform.python_version(), "machine": platform.machine(),
                          "repeat": args.repeat, "results": results}, indent=2, sort_keys=True))
    else:
        print(f"python {platform.python_version()} on {platform.machine()}, best/median of {args.repeat}")
        for r in results:
            if "skipped" in r:
                print(f"  {r['job']:<52} skipped ({r['skipped']})")
            else:
                print(f"  {r['job']:<52} {r['best_s'] * 1000:9.1f} ms  {r['median_s'] * 1000:9.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
