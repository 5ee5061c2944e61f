"""Machine instructions per replayed turn on examples/games, counted by valgrind's callgrind.

Run: ``python benchmarks/replay_instructions.py [TREE ...]`` (default: this repository). Each tree (a clone or
worktree of rallyc) is measured in a process of its own, under ``valgrind --tool=callgrind``, all at once;
the last line gives each tree's count against the first's.

What is counted: two cached passes (tracks compiled and the dice tables warmed by two passes before, as
``replay_speed.py``'s ``cached`` figure; loading, validation and the referee, ``explain=False``), and only those:
the passes run inside ``functools.reduce``, and callgrind collects only while that C function is on the
stack (``--toggle-collect``). The count is the same from run to run whatever else the machine is doing,
so two versions compare on a loaded machine where timings do not; unlike ``replay_ops.py`` it sees the work
done in C (dict look-ups, allocations, JSON). It takes about four minutes (valgrind runs Python about 50 times
slower) and needs valgrind on the PATH.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: run in the measured process, with the tree's path as its argument
_PASSES = """
import functools, json, sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from rallyc.records import load_record, replay_record
games = sorted(Path(sys.argv[1], "examples", "games").glob("*.json"))
def turns_of(data):
    return len(data["race"]["turns"]) if "race" in data else sum(len(s["turns"]) for s in data["stages"])
turns = 2 * sum(turns_of(json.loads(g.read_text(encoding="utf-8"))) for g in games)
def one(kept, game):
    replay_record(load_record(game), base_dir=game.parent, explain=False)
    return kept
for _ in range(2):
    for game in games:
        replay_record(load_record(game), base_dir=game.parent, explain=False)
for _ in range(2):
    functools.reduce(one, games, None)
print("TURNS", turns)
"""


def measure(trees: list[Path]) -> list[tuple[int, int]]:
    """(instructions, turns) of the measured passes of each tree, the trees measured side by side."""
    with tempfile.TemporaryDirectory(prefix="rallyc-instr-") as tmp:
        script = Path(tmp) / "passes.py"
        script.write_text(_PASSES, encoding="utf-8")
        runs = []
        for i, tree in enumerate(trees):
            out = Path(tmp) / f"callgrind.{i}.out"
            runs.append(subprocess.Popen(
                ["valgrind", "--tool=callgrind", "--toggle-collect=functools_reduce", f"--callgrind-out-file={out}",
                 sys.executable, str(script), str(tree)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
        got = []
        for tree, run in zip(trees, runs):
            stdout, stderr = run.communicate()
            collected = re.search(r"Collected : (\d+)", stderr)
            turns = re.search(r"TURNS (\d+)", stdout)
            if run.returncode or collected is None or turns is None:
                raise SystemExit(f"{tree}: the measured run failed:\n{stderr[-2000:]}")
            got.append((int(collected.group(1)), int(turns.group(1))))
        return got


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trees", nargs="*", type=Path, help="rallyc trees to measure (default: this one)")
    ap.add_argument("--json", action="store_true", help="the figures as JSON")
    ns = ap.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not on the PATH (Debian: apt install valgrind)")
    trees = [t.resolve() for t in ns.trees] or [ROOT]
    got = measure(trees)
    first = got[0][0] / got[0][1]
    rows = [{"tree": str(t), "instructions": n, "turns": turns, "per_turn": round(n / turns),
             "against_first": round(first / (n / turns), 3)} for t, (n, turns) in zip(trees, got)]
    if ns.json:
        print(json.dumps(rows, indent=2))
        return
    for row in rows:
        print(f"{row['tree']}: {row['per_turn']:,} instructions a turn ({row['turns']} turns), "
              f"{row['against_first']:.3f} x the first tree's speed")


if __name__ == "__main__":
    main()
