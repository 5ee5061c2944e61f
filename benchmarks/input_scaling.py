"""Do the input paths scale linearly? Times at size N and 4N in one run, and their ratio (4 = linear, 16 = quadratic).

    python benchmarks/input_scaling.py            # N = 2,000 tiles (and 8,000), diagnostics 1,000 (and 4,000)
    python benchmarks/input_scaling.py --n 12500  # 12,500 and 50,000 tiles: the issue's long synthetic stage
    python benchmarks/input_scaling.py --files    # the issue's inputs through the CLI: time and peak memory
    python benchmarks/input_scaling.py --limits   # issue 32: inputs at and over the limits on what a file holds

Measured (issue 11): ``check`` of a synthetic stage written one tile per line and all on one line;
``stats`` of it (every step's spaces); quoting thousands of diagnostics (``render_text``); and
``check`` of a file of many small stages (at ``--n 5000`` the larger one is the issue's 1.99 MB file). Each figure is the
best of ``--repeat`` runs, in process, so start-up is not counted. ``fmt`` (format and re-parse to prove the
meaning kept, as ``rallyc fmt --check`` does) of the same stages.

``--limits`` (issue 32) writes the largest inputs the limits of :mod:`rallyc.syntax.limits` accept (10 stages of
2,000 tiles, 1,000 stages of 20 tiles, a stage of 2,000 tiles on one line, 2 MB of rally lines, a stage with 8,000
tokens) and the issue's inputs the 2 MB size limit accepted but that ran away (44,469 four-tile stages in 1.99 MB;
one stage of 250,000 tiles in 1.75 MB), and runs ``check --no-cache``, ``fmt --check``, ``stats`` and ``render`` on
each in a fresh process under a 512 MB address-space limit and a 60 s timeout: wall and CPU time, peak memory, exit
code (1 with RC101 for the files over a limit).

``--files`` writes the issue's inputs (a 50,000-tile stage one tile per line and on one line, a 1.99 MB
file of 8-tile stages) and runs ``rallyc check --no-cache``, ``rallyc fmt --check`` and ``rallyc stats`` on
each as a user would (a fresh process each: start-up included), printing the wall time and the peak
resident memory of the process.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
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
    from rallyc.project.loader import load_text

    check_loaded(load_text(text, "long.rally"))


def stats_text(text: str) -> None:
    from rallyc.compilation.pipeline import compile_loaded
    from rallyc.compiler.stats import track_stats
    from rallyc.project.loader import load_text

    result = compile_loaded(load_text(text, "long.rally"))
    for design in result.designs:
        for track in design.tracks:
            track_stats(track)


def fmt_text(text: str) -> None:
    from rallyc.syntax.formatter import format_text

    format_text(text, "long.rally")


#: the issue's inputs for ``--files``: name -> text maker
FILES = {
    "stage-50k-lines.rally": lambda: stage_text(50_000, False),
    "stage-50k-one-line.rally": lambda: stage_text(50_000, True),
    "stages-1.99MB.rally": lambda: many_statements(1_990_000),
}
COMMANDS = (("check", "--no-cache"), ("fmt", "--check"), ("stats",))

_PEAK = ("import resource, subprocess, sys; r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, "
         "stderr=subprocess.DEVNULL); print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")


def run_files(commands: tuple[tuple[str, ...], ...] = COMMANDS) -> None:
    """Each command on each of the issue's files in a fresh process: wall time, peak memory, exit code."""
    print(f"{'file':28} {'bytes':>9} {'command':20} {'time':>8} {'peak MB':>8} {'exit':>4}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, make in FILES.items():
            path = os.path.join(tmp, name)
            with open(path, "w", encoding="utf-8") as f:
                f.write(make())
            size = os.path.getsize(path)
            for cmd in commands:
                argv = [sys.executable, "-c", _PEAK, sys.executable, "-m", "rallyc", cmd[0], path, *cmd[1:]]
                t0 = time.perf_counter()
                out = subprocess.run(argv, capture_output=True, text=True, cwd=tmp).stdout.split()
                wall = time.perf_counter() - t0
                code, peak_kb = (int(out[0]), int(out[1])) if len(out) == 2 else (-1, 0)
                print(f"{name:28} {size:9d} {' '.join(cmd):20} {wall:7.1f}s {peak_kb / 1024:8.0f} {code:4d}",
                      flush=True)


def _stage(name: str, n: int, one_line: bool = False) -> str:
    tiles = ["202a"] + [STRAIGHTS[i % len(STRAIGHTS)] for i in range(n - 2)] + ["203a"]
    if one_line:
        return f"stage {name} {{ " + "; ".join(tiles) + " }\n"
    return f"stage {name} {{\n" + "".join(f"  {t}\n" for t in tiles) + "}\n"


def _tokens_stage() -> str:
    lines = ["stage T {"] + [f"  {t}" for t in ["202a"] + [STRAIGHTS[i % 4] for i in range(998)] + ["203a"]]
    return "\n".join(lines + [f"  token water at {2 + i % 990}.1" for i in range(8_000)]) + "\n}\n"


def _small_stages(size: int, tiles: int) -> str:
    out, i, total = [], 0, 0
    while True:
        s = _stage(f"S{i}", tiles)
        if total + len(s) > size:
            return "".join(out)
        out.append(s)
        total += len(s)
        i += 1


#: ``--limits``: name -> (text maker, over a limit?)
LIMIT_FILES = {
    "10-stages-of-2000-tiles.rally": (lambda: "".join(_stage(f"S{i}", 2_000 if i < 9 else 1_982) for i in range(10)),
                                      False),
    "1000-stages-of-19-tiles.rally": (lambda: "".join(_stage(f"S{i}", 19) for i in range(1_000)), False),
    "2000-tiles-one-line.rally": (lambda: _stage("L", 2_000, one_line=True), False),
    "2MB-of-rally-lines.rally": (lambda: "".join(f'rally "R{r}" {{\n' + f'  source "{"x" * 88}"\n' * 1_990 + "}\n"
                                                 for r in range(10)), False),
    "8000-tokens.rally": (_tokens_stage, False),
    "44469-four-tile-stages.rally": (lambda: _small_stages(1_990_000, 4), True),
    "250000-tile-stage.rally": (lambda: stage_text(250_000, False), True),
}
LIMIT_COMMANDS = (("check", "--no-cache"), ("fmt", "--check"), ("stats",), ("render", "--page", "a4", "-o", "map.svg"))

_BOUNDED = ("import resource, subprocess, sys, time\n"
            "def limit():\n    resource.setrlimit(resource.RLIMIT_AS, (512 * 2**20, 512 * 2**20))\n"
            "t = time.perf_counter()\n"
            "try:\n    r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, "
            "preexec_fn=limit, timeout=60).returncode\nexcept subprocess.TimeoutExpired:\n    r = 'timeout'\n"
            "u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
            "print(r, time.perf_counter() - t, u.ru_utime + u.ru_stime, u.ru_maxrss)")


def run_limits() -> None:
    """Each command on each ``--limits`` file in a fresh process (512 MB address space, 60 s)."""
    print(f"{'file':32} {'bytes':>9} {'command':14} {'wall':>7} {'cpu':>7} {'peak MB':>8} {'exit':>7}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, (make, _over) in LIMIT_FILES.items():
            path = os.path.join(tmp, name)
            with open(path, "w", encoding="utf-8") as f:
                f.write(make())
            size = os.path.getsize(path)
            for cmd in LIMIT_COMMANDS:
                argv = [sys.executable, "-c", _BOUNDED, sys.executable, "-m", "rallyc", cmd[0], path, *cmd[1:]]
                out = subprocess.run(argv, capture_output=True, text=True, cwd=tmp).stdout.split()
                code, wall, cpu, peak = out if len(out) == 4 else ("?", "0", "0", "0")
                print(f"{name:32} {size:9d} {cmd[0]:14} {float(wall):6.1f}s {float(cpu):6.1f}s "
                      f"{int(peak) / 1024:8.0f} {code:>7}", flush=True)


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
    ap.add_argument("--files", action="store_true",
                    help="run check/fmt/stats on the issue's 50,000-tile and 1.99 MB files (minutes)")
    ap.add_argument("--limits", action="store_true",
                    help="check/fmt/stats/render on inputs at and over the limits of what a file holds (issue 32)")
    args = ap.parse_args(argv)
    if args.limits:
        run_limits()
        return 0
    if args.files:
        run_files()
        return 0
    n = args.n
    rows = [
        ("check, one tile per line", lambda k: check_text(stage_text(k, False))),
        ("check, one line", lambda k: check_text(stage_text(k, True))),
        ("stats (every step's spaces)", lambda k: stats_text(stage_text(k, False))),
        ("fmt --check, one tile per line", lambda k: fmt_text(stage_text(k, False))),
        ("fmt --check, one line", lambda k: fmt_text(stage_text(k, True))),
        ("fmt --check, stages of 8 tiles, 100k bytes", lambda k: fmt_text(many_statements(100 * k))),
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
