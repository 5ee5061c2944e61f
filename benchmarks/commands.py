"""How long each interactive command takes, run as a user runs it: one new process per call (issue 33).

Run: ``python benchmarks/commands.py [--repeat N] [--json] [--against DIR]`` in the environment where rallyc is
installed (the console script beside this interpreter, else ``python -m rallyc``), from any folder: the commands
run in the repository, with its rallyc first on the path. ``--against DIR`` measures another rallyc tree too (a
worktree of another commit: ``git worktree add --detach DIR main``), its runs interleaved with this tree's, and
prints its figures beside: before and after, measured alike on a shared machine. Nothing is asserted; the
figures go in the README's table.

For each command: one warm-up run (it fills the user cache: parser tables, bundled tilesets, check results; and
Python's bytecode cache: the runs leave ``PYTHONDONTWRITEBYTECODE`` out of their environment),
then N runs (default 5), the commands taking turns so that load on the shared machine hits every one alike;
the figure is the median wall time of the whole process, with the median CPU time (user + system) beside it,
which other work on the machine hardly changes. Two steadier figures come from one more run under
``python -X importtime``: how many modules the command imports, and the sum of their own import times.
The machine's load average is printed with the table. ``--instructions`` also counts the machine instructions
of one run of each command under valgrind's callgrind (``python -m rallyc ...``, the user cache warm): a figure
that load on the machine does not change, so two trees compare on a busy machine where times do not (it needs
valgrind on the PATH and takes several minutes: valgrind runs Python about 50 times slower).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: (label, arguments of ``rallyc``, goal in seconds: issue 33's "instant to answer")
COMMANDS: list[tuple[str, list[str], float]] = [
    ("rallyc --version", ["--version"], 0.15),
    ("rallyc --help", ["--help"], 0.15),
    ("rallyc explain CORE-ROLL-09", ["explain", "CORE-ROLL-09"], 0.15),
    ("rallyc explain RC130", ["explain", "RC130"], 0.15),
    ("rallyc check rally-1", ["check", "examples/rally-1.rally"], 0.5),
    ("rallyc check --no-cache rally-1", ["check", "--no-cache", "examples/rally-1.rally"], 0.5),
    ("rallyc fmt --check rally-1", ["fmt", "--check", "examples/rally-1.rally"], 0.5),
    ("rallyc stats rally-1", ["stats", "examples/rally-1.rally"], 0.5),
    ("rallyc compile rally-1", ["compile", "examples/rally-1.rally"], 0.5),
    ("rallyc render rally-1", ["render", "examples/rally-1.rally"], 0.5),
    ("rallyc render --stage SS1 rally-1", ["render", "--stage", "SS1", "examples/rally-1.rally"], 0.5),
    ("rallyc replay rally-4-full", ["replay", "examples/games/rally-4-full.json"], 0.5),
    # issue 35: the next tile of a 30-tile stage (the file of this tree, so that --against times the same stage)
    ("rallyc suggest stage-30 --after 29", ["suggest", str(ROOT / "benchmarks/data/stage-30.rally"), "--after", "29"],
     0.3),
]

_IMPORT_LINE = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|")


def rallyc() -> list[str]:
    """The installed console script beside this interpreter (as a user runs it), else ``python -m rallyc``."""
    script = Path(sys.executable).parent / "rallyc"
    if script.exists():
        return [str(script)]
    found = shutil.which("rallyc")
    return [found] if found else [sys.executable, "-m", "rallyc"]


def _env(tree: Path) -> dict[str, str]:
    """The commands' environment: the tree's rallyc first on the path, and Python's bytecode cache written and read
    as in a user's install (``PYTHONDONTWRITEBYTECODE`` left out: with it set, every module the tree has no fresh
    ``__pycache__`` for is compiled again on every run, which a user never pays; the warm-up run writes them)."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def once(args: list[str], tree: Path = ROOT) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one ``rallyc ARGS`` in a new process, run in ``tree`` with its rallyc."""
    c0, t0 = _children_cpu(), time.perf_counter()
    subprocess.run(rallyc() + args, cwd=tree, env=_env(tree), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=False)
    return time.perf_counter() - t0, _children_cpu() - c0


def imports(args: list[str], tree: Path = ROOT) -> tuple[int, float]:
    """(modules imported, sum of their own import times in ms) of ``python -X importtime -m rallyc ARGS``."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "rallyc", *args], cwd=tree, env=_env(tree),
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    own = [int(m.group(1)) for m in map(_IMPORT_LINE.match, done.stderr.splitlines()) if m]
    return len(own), sum(own) / 1000


def instructions(args: list[str], tree: Path = ROOT) -> int:
    """Machine instructions of one ``python -m rallyc ARGS``, counted by callgrind (the whole process)."""
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-m",
                           "rallyc", *args], cwd=tree, env=_env(tree), stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, check=False)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"callgrind counted nothing for rallyc {' '.join(args)}: {done.stderr[-500:]}")
    return int(found.group(1))


def measure(repeat: int, trees: tuple[Path, ...] = (ROOT,), count: bool = False,
            only: str | None = None) -> list[list[dict]]:
    """Per tree, one row per command: medians of ``repeat`` runs (after a warm-up run each), its import figures,
    and with ``count`` its machine instructions. The runs are interleaved: commands and trees take turns.
    ``only``: the commands whose label contains this text."""
    commands = [c for c in COMMANDS if only is None or only in c[0]]
    for tree in trees:
        for _, args, _ in commands:
            once(args, tree)
    runs = [{label: [] for label, _, _ in commands} for _ in trees]
    for _ in range(repeat):
        for label, args, _ in commands:
            for tree, got in zip(trees, runs):
                got[label].append(once(args, tree))
    tables = []
    for tree, got in zip(trees, runs):
        rows = []
        for label, args, goal in commands:
            wall = statistics.median(w for w, _ in got[label])
            cpu = statistics.median(c for _, c in got[label])
            modules, import_ms = imports(args, tree)
            rows.append({"command": label, "goal_s": goal, "wall_s": round(wall, 3), "cpu_s": round(cpu, 3),
                         "modules": modules, "import_ms": round(import_ms, 1), "met": wall <= goal,
                         "instructions": instructions(args, tree) if count else None})
        tables.append(rows)
    return tables


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per command (default 5)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--instructions", action="store_true",
                        help="also count each command's machine instructions (valgrind's callgrind)")
    parser.add_argument("--against", type=Path, metavar="DIR",
                        help="also measure the rallyc tree in DIR (before), interleaved with this one (after)")
    parser.add_argument("--only", metavar="TEXT", help="only the commands whose label contains TEXT (e.g. suggest)")
    ns = parser.parse_args(argv)
    trees = (ns.against.resolve(), ROOT) if ns.against is not None else (ROOT,)
    load_before = os.getloadavg()
    tables = measure(ns.repeat, trees, ns.instructions, ns.only)
    load_after = os.getloadavg()
    if ns.json:
        print(json.dumps({"load_before": load_before, "load_after": load_after, "repeat": ns.repeat,
                          "trees": {str(t): rows for t, rows in zip(trees, tables)}}, indent=2))
        return 0
    print(f"median of {ns.repeat} runs each; load average {load_before[0]:.2f} before, {load_after[0]:.2f} after")
    for tree, rows in zip(trees, tables):
        print(f"\n{tree}:\n")
        counted = " instructions (millions) |" if ns.instructions else ""
        print(f"| command | goal | wall (median) | CPU (median) | modules imported | own import time |{counted}")
        print("| --- | --- | --- | --- | --- | --- |" + (" --- |" if ns.instructions else ""))
        for r in rows:
            mark = "" if r["met"] else " (not met)"
            count = f" {r['instructions'] / 1e6:,.0f} |" if ns.instructions else ""
            print(f"| `{r['command']}` | {r['goal_s']:.2f} s | {r['wall_s']:.3f} s{mark} | {r['cpu_s']:.3f} s | "
                  f"{r['modules']} | {r['import_ms']:.0f} ms |{count}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
