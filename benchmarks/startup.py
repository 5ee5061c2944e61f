"""Start-up and compile-scaling figures, as ratios measured in one run (nothing is asserted).

Run: ``python benchmarks/startup.py [--repeat N] [--json]`` in the environment where rallyc is installed.

Every figure is given twice: CPU time (user + system, of the child process or of this one), which other
work on a shared machine hardly changes, and wall time. The ratios are computed on CPU time.

Start-up (new processes, interleaved so that load on the machine hits every command alike; the median
of N runs each, after one warm-up run that fills the user caches):

- ``python -c pass``: the interpreter alone;
- ``rallyc --version``: target at most 2 x ``python -c pass``;
- ``python -c "import networkx, lark, jsonschema, svgwrite, typer"``: the five dependencies;
- ``rallyc check examples/``: target at most 1.0 x the five dependencies (the results of the unchanged
  files come from the user cache, :mod:`rallyc.checkcache`);
- ``rallyc check --no-cache examples/``: every file parsed, compiled and checked again.

Compile scaling (in this process, the median of N runs): ``compile_loaded`` of one stage of 1,000 and of
10,000 road tiles (a straight, a curve left, a straight, a curve right, ... between a start and a
finish tile; parsing not included). Targets: 1,000 tiles at most 100 ms, 10,000 tiles at most 11 x
1,000 tiles.
"""

from __future__ import annotations

import argparse
import json
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


def _once(argv: list[str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one run of ``argv`` in a new process."""
    c0, t0 = _children_cpu(), time.perf_counter()
    subprocess.run(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return _children_cpu() - c0, time.perf_counter() - t0


def startup(repeat: int) -> dict[str, tuple[float, float]]:
    """Median (CPU ms, wall ms) of each start-up command, runs interleaved."""
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "rallyc --version": _rallyc() + ["--version"],
        "import 5 dependencies": [sys.executable, "-c", DEPS],
        "rallyc check examples/": _rallyc() + ["check", "examples/"],
        "check --no-cache examples/": _rallyc() + ["check", "--no-cache", "examples/"],
    }
    for argv in commands.values():  # warm-up: OS file cache, user caches (parser tables, tilesets)
        _once(argv)
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(repeat):
        for name, argv in commands.items():
            times[name].append(_once(argv))
    return {name: (statistics.median(c for c, _ in t) * 1000, statistics.median(w for _, w in t) * 1000)
            for name, t in times.items()}


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
    from rallyc.project import load_text

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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=15, help="runs per command (default 15)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--only", choices=["startup", "compile"], help="one half only")
    ns = parser.parse_args(argv)
    figures: dict[str, tuple[float, float]] = {}
    if ns.only != "compile":
        figures.update(startup(ns.repeat))
    if ns.only != "startup":
        figures.update(compile_scaling(ns.repeat))
    cpu = {name: c for name, (c, _) in figures.items()}
    ratios = {}
    if "rallyc --version" in cpu:
        ratios["--version / python -c pass (target <= 2)"] = cpu["rallyc --version"] / cpu["python -c pass"]
        ratios["check examples/ / import 5 dependencies (target <= 1.0)"] = (
            cpu["rallyc check examples/"] / cpu["import 5 dependencies"])
        ratios["check --no-cache examples/ / import 5 dependencies"] = (
            cpu["check --no-cache examples/"] / cpu["import 5 dependencies"])
    if "compile 1000 tiles" in cpu:
        ratios["compile 10,000 / 1,000 tiles (target <= 11)"] = cpu["compile 10000 tiles"] / cpu["compile 1000 tiles"]
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
