"""Python bytecodes executed per replayed turn on examples/games, by file and by function.

Run: ``python benchmarks/replay_ops.py [--top N] [--json]``.

One cached pass (tracks compiled and the dice tables warmed by a first pass, as ``replay_speed.py``'s
``cached`` figure; ``explain=False``) is traced opcode by opcode (``frame.f_trace_opcodes``). The count does not
depend on the clock nor on what else the machine is doing, so it compares two versions of the code on a loaded
machine where timings do not; it does not see work done in C (JSON parsing, dict look-ups, allocations), so a
change is confirmed by ``replay_speed.py`` on a quiet machine.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rallyc.records import load_record, replay_record  # noqa: E402

GAMES = sorted((ROOT / "examples" / "games").glob("*.json"))


def _turns(path: Path) -> int:
    data = json.loads(path.read_text(encoding="utf-8"))
    if "race" in data:
        return len(data["race"]["turns"])
    return sum(len(s["turns"]) for s in data["stages"])


def count() -> tuple[int, collections.Counter]:
    """The turns of one pass and the bytecodes executed per (file, function) while replaying them."""
    for g in GAMES:
        replay_record(load_record(g), base_dir=g.parent, explain=False)
    ops: collections.Counter = collections.Counter()
    root = str(ROOT) + "/"

    def local(frame, event, arg):  # type: ignore[no-untyped-def]
        if event == "opcode":
            code = frame.f_code
            ops[(code.co_filename.replace(root, ""), code.co_name)] += 1
        return local

    def tracer(frame, event, arg):  # type: ignore[no-untyped-def]
        frame.f_trace_opcodes = True
        frame.f_trace_lines = False
        return local

    sys.settrace(tracer)
    try:
        for g in GAMES:
            replay_record(load_record(g), base_dir=g.parent, explain=False)
    finally:
        sys.settrace(None)
    return sum(_turns(g) for g in GAMES), ops


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--top", type=int, default=30, help="functions listed (default 30)")
    ap.add_argument("--json", action="store_true", help="the figures as JSON")
    args = ap.parse_args()
    turns, ops = count()
    total = sum(ops.values())
    by_file: collections.Counter = collections.Counter()
    for (f, _), n in ops.items():
        by_file[f] += n
    if args.json:
        print(json.dumps({"turns": turns, "bytecodes": total, "per_turn": round(total / turns, 1),
                          "by_file": dict(by_file.most_common())}, indent=2, sort_keys=True))
        return
    print(f"{turns} turns, {total:,} bytecodes, {total / turns:,.0f} per turn")
    print("by file:")
    for f, n in by_file.most_common(15):
        print(f"  {100 * n / total:5.1f}%  {n / turns:7.1f}/turn  {f}")
    print("by function:")
    for (f, fn), n in ops.most_common(args.top):
        print(f"  {100 * n / total:5.1f}%  {n / turns:7.1f}/turn  {f}:{fn}")


if __name__ == "__main__":
    main()
