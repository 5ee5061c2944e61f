"""Do the input paths scale linearly? Times at size N and 4N in one run, and their ratio (4 = linear, 16 = quadratic).

    python benchmarks/input_scaling.py            # N = 2,000 tiles (and 8,000), diagnostics 1,000 (and 4,000)
    python benchmarks/input_scaling.py --n 12500  # 12,500 and 50,000 tiles: the issue's long synthetic stage

Measured (issue 11): ``check`` of a synthetic stage written one tile per line and all on one line;
``stats`` of it (every step's spaces); quoting thousands of diagnostics (``render_text``); and
``check`` of a file of many small stages (at ``--n 5000`` the larger one is the issue's 1.99 MB file). Each figure is the
best of ``--repeat`` runs, in process, so start-up is not counted.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

STRAIGHTS = ("205a", "206a", "205b", "206b")


def stage_text(n: int, one_line: bool) -> str:
    """A stage of ``n`` straight tiles between a start and a finish (no boxes: no inventory check)."""
    tiles = ["202a"] + [STRAIGHTS[i % len(STRAIGHTS)] for i in range(n)] + ["203a"]
    if one_line:
        return "stage Long { " + "; ".join(tiles) + " }\n"
    return "stage Long {\n" + "".join(f"  {t}\n" for t in tiles) + "}\n"


def many_statements(size: int) -> str:
    """About ``size`` bytes of small top-level statements (stages of 8 tiles, one tile per line)."""
    one = "stage S{i} {{\n  202a\n  205a\n  206a\n  208a left\n  204a\n  205b\n  206b\n  203a\n}}\n"
    out, i, total = [], 0, 0
    while True:
        s = one.format(i=i)
        if total + len(s) > size:
            break
        out.append(s)
        total += len(s)
        i += 1
    return "".join(out)


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def check_text(text: str) -> None:
    from rallyc.api import check_loaded
    from rallyc.project import load_text

    check_loaded(load_text(text, "long.rally"))


def stats_text(text: str) -> None:
    from rallyc.compiler import compile_loaded
    from rallyc.compiler.stats import track_stats
    from rallyc.project import load_text

    result = compile_loaded(load_text(text, "long.rally"))
    for design in result.designs:
        for track in design.tracks:
            track_stats(track)


def quote_diagnostics(n: int) -> None:
    from rallyc.diagnostics import Diagnostic, Sources, Span, render_text

    lines = [f"  205a  # line {i}" for i in range(n)]
    sources = Sources()
    sources.add("f.rally", "\n".join(lines) + "\n")
    diags = [Diagnostic.warning("RC308", "x", Span("f.rally", i + 1, 3, i + 1, 7)) for i in range(n)]
    render_text(diags, sources)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=2_000, help="tiles of the smaller stage (the larger has 4N)")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    n = args.n
    rows = [
        ("check, one tile per line", lambda k: check_text(stage_text(k, False))),
        ("check, one line", lambda k: check_text(stage_text(k, True))),
        ("stats (every step's spaces)", lambda k: stats_text(stage_text(k, False))),
        ("quote 10k diagnostics", lambda k: quote_diagnostics(10 * k)),
        ("check, stages of 8 tiles, 100k bytes", lambda k: check_text(many_statements(100 * k))),
    ]
    check_text(stage_text(10, False))  # warm up: bundled tilesets, grammar tables
    print(f"{'path':40} {'N=' + str(n):>10} {'4N=' + str(4 * n):>11} {'ratio':>6}")
    for label, fn in rows:
        small = best(lambda: fn(n), args.repeat)
        large = best(lambda: fn(4 * n), args.repeat)
        print(f"{label:40} {small:9.2f}s {large:10.2f}s {large / small:6.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
