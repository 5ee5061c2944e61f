"""Start-up and compile-scaling figures, as ratios measured in one run (nothing is asserted).

Run: ``python benchmarks/startup.py [--repeat N] [--json] [--against DIR]`` in the environment where rallyc is
installed. ``--against DIR`` measures a second rallyc tree too (a worktree of another commit: ``git worktree add
--detach DIR main``), interleaved with this one in the same run, and prints both: before and after, measured
alike on a shared machine.

Every figure is given twice: CPU time (user + system, of the child process or of this one), which other
work on a shared machine hardly changes, and wall time. The ratios are computed on CPU time.

Start-up (new processes, interleaved so that load on the machine hits every command alike; the median
of N runs each, after one warm-up run that fills the user caches and Python's bytecode cache):

- ``python -c pass``: the interpreter alone;
- ``rallyc --version``: target at most 2 x ``python -c pass``;
- ``python -c "import networkx, lark, jsonschema, svgwrite, typer"``: the five dependencies;
- ``rallyc check examples/``: target at most 1.0 x the five dependencies (the results of the unchanged
  files come from the user cache, :mod:`rallyc.cache.check_results`);
- ``rallyc check --no-cache examples/``: every file parsed, compiled and checked again.

Compile scaling (in this process, the median of N runs): ``compile_loaded`` of one stage of 1,000 and of
10,000 road tiles (a straight, a curve left, a straight, a curve right, ... between a start and a
finish tile; parsing not included). Targets: 1,000 tiles at most 100 ms, 10,000 tiles at most 11 x
1,000 tiles.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEPS = "import networkx, lark, jsonschema, svgwrite, typer"


def _rallyc() -> list[str]:
    """The installed console script beside this interpreter (as a user runs it), else ``python -m rallyc``."""
    script = Path(sys.executable).parent / "rallyc"
    if script.exists():
        return [str(script)]
    found = shutil.which("rallyc")
    return [found] if found else [sys.executable, "-m", "rallyc"]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _once(argv: list[str], tree: Path = ROOT) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one run of ``argv`` in a new process, in ``tree`` with its rallyc first on the
    path (``PYTHONPATH``: the installed console script then runs that tree's code), with Python's bytecode cache
    written and read as in a user's install (``PYTHONDONTWRITEBYTECODE`` left out, as ``benchmarks/commands.py``
    does: with it set, every module without a fresh ``__pycache__`` is compiled again on every run; the warm-up run
    writes them)."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    c0, t0 = _children_cpu(), time.perf_counter()
    subprocess.run(argv, cwd=tree, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return _children_cpu() - c0, time.perf_counter() - t0


def startup(repeat: int, trees: tuple[Path, ...] = (ROOT,)) -> list[dict[str, tuple[float, float]]]:
    """Median (CPU ms, wall ms) of each start-up command, per tree; runs interleaved (commands and trees)."""
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "rallyc --version": _rallyc() + ["--version"],
        "import 5 dependencies": [sys.executable, "-c", DEPS],
        "rallyc check examples/": _rallyc() + ["check", "examples/"],
        "check --no-cache examples/": _rallyc() + ["check", "--no-cache", "examples/"],
    }
    for tree in trees:
        for argv in commands.values():  # warm-up: OS file cache, user caches (parser tables, tilesets)
            _once(argv, tree)
    times: list[dict[str, list[tuple[float, float]]]] = [{name: [] for name in commands} for _ in trees]
    for _ in range(repeat):
        for name, argv in commands.items():
            for tree, got in zip(trees, times):
                got[name].append(_once(argv, tree))
    return [{name: (statistics.median(c for c, _ in t) * 1000, statistics.median(w for _, w in t) * 1000)
             for name, t in got.items()} for got in times]


def stage_text(tiles: int) -> str:
    """One stage of ``tiles`` road tiles: start, then straight / left curve / straight / right curve ..., finish."""
    cycle = ["205a", "208a left", "206a", "208a right"]
    body = [cycle[i % len(cycle)] for i in range(tiles - 2)]
    return "stage Long {\n  202a\n" + "".join(f"  {t}\n" for t in body) + "  203a\n}\n"


def compile_scaling(repeat: int) -> dict[str, tuple[float, float]]:
    """Median (CPU ms, wall ms) of compiling a 1,000-tile and a 10,000-tile stage in this process (parsing
    excluded), through the library's :func:`rallyc.api.compile_loaded`."""
    sys.path.insert(0, str(ROOT))
    from rallyc.api import compile_loaded
    from rallyc.project.loader import load_text

    out = {}
    for tiles in (1000, 10000):
        loaded = load_text(stage_text(tiles), f"long-{tiles}.rally", base_dir=ROOT)
        result = compile_loaded(loaded)  # warm-up, and the stage must compile
        errors = [d for d in result.diagnostics if d.severity.value == "error"]
        if errors:
            raise SystemExit(f"the {tiles}-tile stage does not compile: {errors[0].code} {errors[0].message}")
        cpu, wall = [], []
        for _ in range(max(1, repeat if tiles == 1000 else repeat // 3)):
            c0, t0 = time.process_time(), time.perf_counter()
            compile_loaded(loaded)
            cpu.append(time.process_time() - c0)
            wall.append(time.perf_counter() - t0)
        out[f"compile {tiles} tiles"] = (statistics.median(cpu) * 1000, statistics.median(wall) * 1000)
    return out


def _compile_elsewhere(tree: Path, repeat: int) -> dict[str, tuple[float, float]]:
    """:func:`compile_scaling` of another tree, in a process of its own (its benchmark script, its code)."""
    out = subprocess.run([sys.executable, str(tree / "benchmarks" / "startup.py"), "--only", "compile", "--json",
                          "--repeat", str(repeat)], cwd=tree, env=dict(os.environ, PYTHONPATH=str(tree)),
                         capture_output=True, text=True, check=True)
    got = json.loads(out.stdout)
    return {name: (c, got["wall_ms"][name]) for name, c in got["cpu_ms"].items()}


def compile_scaling_of(trees: tuple[Path, ...], repeat: int, rounds: int = 3) -> list[dict[str, tuple[float, float]]]:
    """:func:`compile_scaling` of each tree, each in a process of its own, the trees taking turns ``rounds`` times;
    the median of the rounds' medians."""
    runs: list[list[dict[str, tuple[float, float]]]] = [[] for _ in trees]
    for _ in range(rounds):
        for tree, got in zip(trees, runs):
            got.append(_compile_elsewhere(tree, repeat))
    return [{name: (statistics.median(r[name][0] for r in got), statistics.median(r[name][1] for r in got))
             for name in got[0]} for got in runs]


def _ratios(cpu: dict[str, float]) -> dict[str, float]:
    ratios = {}
    if "rallyc --version" in cpu:
        ratios["--version / python -c pass (target <= 2)"] = cpu["rallyc --version"] / cpu["python -c pass"]
        ratios["check examples/ / import 5 dependencies (target <= 1.0)"] = (
            cpu["rallyc check examples/"] / cpu["import 5 dependencies"])
        ratios["check --no-cache examples/ / import 5 dependencies"] = (
            cpu["check --no-cache examples/"] / cpu["import 5 dependencies"])
    if "compile 1000 tiles" in cpu:
        ratios["compile 10,000 / 1,000 tiles (target <= 11)"] = cpu["compile 10000 tiles"] / cpu["compile 1000 tiles"]
    return ratios


def _against(other: Path, ns: argparse.Namespace) -> int:
    """Both trees' figures, measured interleaved: CPU ms (and wall ms) of ``other``, then of this tree."""
    trees = (other.resolve(), ROOT)
    figures: list[dict[str, tuple[float, float]]] = [{} for _ in trees]
    if ns.only != "compile":
        for mine, got in zip(figures, startup(ns.repeat, trees)):
            mine.update(got)
    if ns.only != "startup":
        for mine, got in zip(figures, compile_scaling_of(trees, ns.repeat)):
            mine.update(got)
    cpu = [{name: c for name, (c, _) in f.items()} for f in figures]
    ratios = [_ratios(c) for c in cpu]
    if ns.json:
        print(json.dumps({str(t): {"cpu_ms": c, "wall_ms": {n: w for n, (_, w) in f.items()}, "ratios": r}
                          for t, f, c, r in zip(trees, figures, cpu, ratios)}, indent=2, sort_keys=True))
        return 0
    print(f"CPU ms (wall ms); before = {trees[0]}, after = {trees[1]}")
    print(f"{'':<28} {'before':>17} {'after':>17}")
    for name in figures[0]:
        cells = [f"{f[name][0]:7.1f} ({f[name][1]:7.1f})" for f in figures]
        print(f"{name:<28} {cells[0]:>17} {cells[1]:>17}")
    for name in ratios[0]:
        print(f"{name:<60} {ratios[0][name]:6.2f} {ratios[1][name]:6.2f}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=15, help="runs per command (default 15)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--only", choices=["startup", "compile"], help="one half only")
    parser.add_argument("--against", type=Path, metavar="DIR",
                        help="also measure the rallyc tree in DIR (before), interleaved with this one (after)")
    ns = parser.parse_args(argv)
    if ns.against is not None:
        return _against(ns.against, ns)
    figures: dict[str, tuple[float, float]] = {}
    if ns.only != "compile":
        figures.update(startup(ns.repeat)[0])
    if ns.only != "startup":
        figures.update(compile_scaling(ns.repeat))
    cpu = {name: c for name, (c, _) in figures.items()}
    ratios = _ratios(cpu)
    if ns.json:
        print(json.dumps({"cpu_ms": cpu, "wall_ms": {n: w for n, (_, w) in figures.items()}, "ratios": ratios},
                         indent=2, sort_keys=True))
        return 0
    print(f"{'':<28} {'CPU ms':>9} {'wall ms':>9}")
    for name, (c, w) in figures.items():
        print(f"{name:<28} {c:9.1f} {w:9.1f}")
    for name, r in ratios.items():
        print(f"{name:<60} {r:6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
