"""Replay speed of this tree in pure Python against a Cython-compiled copy of it, measured interleaved.

Run: ``python benchmarks/compiled_speed.py [--rounds K] [--passes N] [--repeat R] [--modules M ...]
[--compiled DIR] [--keep] [--json]``.

What would compiling the referee's hot modules give, with the code as it is? The script copies the tree
(the files git knows, as they are in the work tree) into a temporary folder and compiles the modules named
(default: ``HOT``, the referee's per-turn modules and the record conversion) with Cython in place
(``cythonize``, ``language_level=3``, ``binding=True``, ``annotation_typing=False``; no type declarations
added, nothing changed in the sources), next to their ``.py`` files, so that ``import`` takes the compiled
module. ``annotation_typing=False`` keeps Python's semantics: by default Cython checks arguments against
their annotations (a ``DieKind``, a ``str`` enum, is refused where ``str`` is written) and makes ``float`` a
C double. The build takes several minutes on two cores; ``--compiled DIR`` measures a copy built before
instead (``--keep`` keeps the one built and prints where).

Then it measures both trees in turn, pure, compiled, pure, compiled, ... (``--rounds`` of each), each run in
a fresh process of this Python with the tree first on ``sys.path``, three figures as in ``replay_speed.py``
(CPU seconds, ``time.process_time``, each the best of R runs of N passes over ``examples/games``):

- ``cached``: reading, validating and refereeing every record, each track compiled once (the README's figure,
  ``replay_record(..., explain=False)``, the dice tables warmed by a first pass);
- ``referee only``: the records already loaded and their tracks given, the referee alone;
- ``load only``: reading and checking the records, nothing replayed.

Interleaving keeps the load of a shared machine from favouring one tree; the best of each tree's runs is
printed with the ratio, and each run's figures with ``--json``. Each measuring process checks that the
compiled modules are the ones it imported, and the reports of every record (``ReplayReport.to_json``) must be
the same in both trees (the script says so, and exits with status 1 when they are not).

Cython is not a dependency of rallyc: without it (``pip install cython``) or without a C compiler and the
Python headers the script says so and exits with status 2. Nothing is asserted; the figures go in
docs/speed.md and the report of the change.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: the modules compiled by default: the per-turn path of a replay (the schema check's functions are
#: generated at run time by ``exec`` and stay interpreted whatever is compiled)
HOT = [
    "rallyc/rules/core/rolling.py", "rallyc/rules/core/plans.py", "rallyc/rules/core/engine.py", "rallyc/rules/core/stage.py",
    "rallyc/rules/core/race.py", "rallyc/rules/core/timecards.py", "rallyc/rules/core/rx_laps.py", "rallyc/rules/variants/full_contact.py",
    "rallyc/rules/core/order.py", "rallyc/rules/core/turn.py", "rallyc/rules/core/outcome.py", "rallyc/rules/core/state.py",
    "rallyc/records/convert.py", "rallyc/records/report.py", "rallyc/records/replay.py", "rallyc/records/load.py",
]

#: run by ``setup.py build_ext --inplace`` in the copy: the module paths come after ``--``
_BUILD = """
import sys
from setuptools import setup
from Cython.Build import cythonize
split = sys.argv.index("--")
modules, sys.argv = sys.argv[split + 1:], sys.argv[:split]
directives = {"language_level": 3, "binding": True, "annotation_typing": False}
setup(ext_modules=cythonize(modules, compiler_directives=directives, quiet=True, nthreads=2))
"""

#: run in each measuring process: argv is the tree, passes, repeat, then the modules that must be compiled
_MEASURE = """
import hashlib, json, sys, time, importlib
from pathlib import Path
tree, passes, repeat, compiled = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
sys.path.insert(0, str(tree))
from rallyc.records import load_record, replay_record
from rallyc.records.replay import record_stages
for module in compiled:
    name = module.removesuffix(".py").replace("/", ".")
    path = importlib.import_module(name).__file__
    if path.endswith(".py"):
        raise SystemExit(f"{name} was imported from {path}, not compiled")
games = sorted((tree / "examples" / "games").glob("*.json"))
records = [load_record(g) for g in games]
turns = sum(len(d["race"]["turns"]) if "race" in d else sum(len(s["turns"]) for s in d["stages"])
            for d in records)
def cached():
    for g in games:
        assert replay_record(load_record(g), base_dir=g.parent, explain=False).ok, g
reports = hashlib.sha256()
for g in games:  # what the replays say, to compare the two trees' (and a first pass: the tables warmed)
    reports.update(json.dumps(replay_record(load_record(g), base_dir=g.parent, explain=False).to_json(),
                              sort_keys=True).encode())
prepared = []
for g, data in zip(games, records):
    tracks, _, flippers = record_stages(dict(data, stages=data.get("stages") or [{"turns": []}]), g.parent)
    prepared.append((data, tracks, flippers))
def referee():
    for data, tracks, flippers in prepared:
        if "race" in data:
            assert replay_record(data, tracks=tracks, explain=False).ok
        else:
            assert replay_record(data, tracks=tracks, flippers=flippers, explain=False).ok
def load():
    for g in games:
        load_record(g)
def best(fn):
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.process_time()
        for _ in range(passes):
            fn()
        times.append(time.process_time() - t0)
    return turns * passes / min(times)
print(json.dumps({"turns": turns, "reports": reports.hexdigest(), "cached": best(cached),
                  "referee only": best(referee), "load only": best(load)}))
"""

FIGURES = ("cached", "referee only", "load only")


def missing_tools() -> str | None:
    """Why a compiled copy cannot be built here, or None."""
    try:
        import Cython  # noqa: F401
    except ImportError:
        return "Cython is not installed (pip install cython); it is not a dependency of rallyc"
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler}) on the PATH"
    include = sysconfig.get_paths()["include"]
    if not Path(include, "Python.h").is_file():
        return f"the Python headers are missing ({include}/Python.h)"
    return None


def copy_tree(dest: Path) -> None:
    """The files git knows of this tree, as they are in the work tree, copied under ``dest``."""
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=True).stdout
    for name in listed.decode().split("\0"):
        if name and (ROOT / name).is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, dest / name)


def build(dest: Path, modules: list[str]) -> None:
    """Cythonize ``modules`` of the copy in ``dest`` in place (the build's output only if it fails)."""
    setup = dest / "_compiled_speed_setup.py"
    setup.write_text(_BUILD, encoding="utf-8")
    run = subprocess.run([sys.executable, setup.name, "build_ext", "--inplace", "-j", "2", "--", *modules],
                         cwd=dest, capture_output=True, text=True)
    if run.returncode:
        sys.stderr.write(run.stdout[-3000:] + run.stderr[-3000:])
        raise SystemExit(f"the Cython build failed (status {run.returncode})")


def measure(tree: Path, passes: int, repeat: int, compiled: list[str]) -> dict:
    """One measuring process on ``tree``: turns per second of each figure."""
    run = subprocess.run([sys.executable, "-c", _MEASURE, str(tree), str(passes), str(repeat), *compiled],
                         capture_output=True, text=True)
    if run.returncode:
        raise SystemExit(f"{tree}: the measuring run failed:\n{run.stderr[-3000:]}")
    return json.loads(run.stdout)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3, help="runs of each tree, interleaved")
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--modules", nargs="+", default=HOT, help="the tree's .py files to compile")
    ap.add_argument("--compiled", type=Path, help="a compiled copy built before (by --keep): no build")
    ap.add_argument("--keep", action="store_true", help="keep the compiled copy and print where it is")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.compiled is None and (why := missing_tools()):
        print(f"compiled_speed: {why}", file=sys.stderr)
        return 2
    tmp = None if args.compiled is not None else Path(tempfile.mkdtemp(prefix="rallyc-compiled-"))
    compiled = args.compiled.resolve() if tmp is None else tmp / "tree"
    try:
        if tmp is not None:
            copy_tree(compiled)
            build(compiled, args.modules)
        runs: dict[str, list[dict]] = {"pure": [], "compiled": []}
        for _ in range(args.rounds):
            runs["pure"].append(measure(ROOT, args.passes, args.repeat, []))
            runs["compiled"].append(measure(compiled, args.passes, args.repeat, args.modules))
    finally:
        if tmp is not None and not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    best = {tree: {f: max(r[f] for r in rs) for f in FIGURES} for tree, rs in runs.items()}
    same = len({r["reports"] for rs in runs.values() for r in rs}) == 1
    out = {"python": platform.python_version(), "machine": platform.machine(), "load": os.getloadavg(),
           "modules": args.modules, "rounds": args.rounds, "passes": args.passes, "repeat": args.repeat,
           "turns_per_pass": runs["pure"][0]["turns"], "same_reports": same, "runs": runs, "best": best}
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print(f"python {out['python']} on {out['machine']}: {len(args.modules)} module(s) compiled, {args.rounds} "
              f"interleaved runs of each tree, each the best of {args.repeat} x {args.passes} passes of "
              f"{out['turns_per_pass']} turns (load average now {out['load'][0]:.1f})")
        for f in FIGURES:
            pure, comp = best["pure"][f], best["compiled"][f]
            print(f"  {f:<13} pure {pure:>8,.0f} turns/s   compiled {comp:>8,.0f} turns/s   {comp / pure:.2f} x")
        print("  the same reports in both trees" if same else "  THE REPORTS DIFFER between the two trees")
    if args.keep and tmp is not None:
        print(f"the compiled copy is kept in {compiled}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
