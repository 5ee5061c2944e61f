"""Benchmarks: how long the main jobs take on the bundled examples.

Run: ``python benchmarks/run.py [--repeat N] [--json]``. Prints one line per job with the
best and median wall time over N runs. Nothing here is asserted; the figures go in the README.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rallyc.compilation.pipeline import compile_loaded  # noqa: E402
from rallyc.project.loader import bundled_tilesets, load  # noqa: E402
from rallyc.data.resources import tilesets_dir  # noqa: E402
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


def _compiled() -> list[tuple[object, object, object]]:
    """(design, track, catalogue) of every stage of every example, compiled once."""
    from rallyc.tiles.catalogue import Catalogue

    out = []
    for f in EXAMPLES:
        loaded = load(f)
        catalogue = Catalogue.from_tilesets(loaded.tilesets)
        for design in compile_loaded(loaded).designs:
            out.extend((design, track, catalogue) for track in design.tracks)
    return out


def job_render_examples() -> None:
    from rallyc.render.document import render_map

    for design, track, catalogue in COMPILED:
        render_map(track, catalogue, title=design.title, author=design.author)


def job_replay_games() -> None:
    from rallyc.records import load_record, replay_record

    for g in GAMES:
        report = replay_record(load_record(g), base_dir=g.parent)
        assert report.ok, g


def job_bot_games(n: int = 50) -> None:
    from rallyc.records import parse_record, replay_record
    from rallyc.records.generate import bot_record
    from rallyc.rules import Options, Player

    players = [Player("A", "red"), Player("B", "blue"), Player("C", "green")]
    for seed in range(n):
        record = bot_record(BOT_TRACKS, players, seed=seed, options=Options(), header={"sketch": [BOT_SKETCH]})
        report = replay_record(parse_record(json.dumps(record)), tracks=BOT_TRACKS)
        assert report.ok, seed


def job_cli_check_examples() -> None:
    """The whole command as CI runs it, Python start-up included."""
    subprocess.run([sys.executable, "-m", "rallyc", "check", str(ROOT / "examples")], check=True,
                   capture_output=True)


BOT_SKETCH = "N S N N | !medium D C(2;3,3,3)R D cut3(1,3) | N jump4 water N | !high D C(1;2,2)L D | N F N N"
COMPILED: list = []
BOT_TRACKS: list = []


JOBS = {
    "`rallyc check examples/` (new process)": job_cli_check_examples,
    "parse every bundled tileset (11 files)": job_parse_tilesets,
    "format every example": job_format_examples,
    "load + compile every example (with all checks)": job_compile_examples,
    "render every stage of every example to SVG": job_render_examples,
    "replay every recorded game in examples/games": job_replay_games,
    "bot: play + JSON + replay 50 random legal games": job_bot_games,
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    bundled_tilesets()  # warm the parser and the bundled tilesets once, as a long-running process would
    from rallyc.rules.sketch import sketch

    COMPILED.extend(_compiled())
    BOT_TRACKS.append(sketch(BOT_SKETCH, "SS1"))
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
