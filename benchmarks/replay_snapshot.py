"""Snapshot every replay the referee gives, to prove a change to the referee byte-identical.

Run: ``python benchmarks/replay_snapshot.py DIR [--per-kind N | --all]``, change the code, run it again into
another folder and compare with ``diff -r`` (nothing printed: byte-identical).

What it writes:

- for every record of ``examples/games`` (and its ``tours/``): ``rallyc replay`` as text, ``--format json``,
  ``--explain`` and ``--format json --explain``, through typer's test runner in this process;
- for every record, one-change mutants (``rallyc.records.mutate``: a card's seconds, a die's space, a lane, a
  gear, a face; on stage turns and on race turns alike), seeded, ``N`` of each kind per game record (default 25;
  ``--all``: every site): each mutant's report as JSON with its rule IDs, or the record error's text, one line
  per mutant in ``DIR/mutants/<record>.jsonl``; each is replayed twice, without rule IDs (``explain=False``,
  the CLI's default path) and with them, and both lines are written.

The snapshot depends on nothing but the code and the examples (paths are relative to the repository).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from snapshot_outputs import InProcess, _write  # noqa: E402
from snapshot_target import prepare  # noqa: E402

from rallyc.records import load_record, replay_record  # noqa: E402
from rallyc.records.load import RecordError  # noqa: E402
from rallyc.records.mutate import KINDS, _mutate, mutation_sites  # noqa: E402

GAMES = ROOT / "examples" / "games"


def _records() -> list[Path]:
    return sorted(GAMES.glob("*.json")) + sorted((GAMES / "tours").glob("*.json"))


def _mutants(rec: dict[str, Any], rng: random.Random, per_kind: int | None) -> Iterator[tuple[str, str, dict]]:
    sites = mutation_sites(rec)
    for kind in KINDS:
        chosen = sites[kind]
        if per_kind is not None and len(chosen) > per_kind:
            chosen = rng.sample(chosen, per_kind)
        for where in chosen:
            m = _mutate(rec, kind, where, rng)
            if m is not None:
                yield kind, where, m


#: the top-level folders of a replay snapshot
ENTRIES = frozenset({"examples", "mutants"})


def _report(data: dict, base: Path, explain: bool) -> Any:
    try:
        return replay_record(data, base, explain=explain).to_json(explain=explain)
    except RecordError as exc:
        return f"RecordError {exc}"


def snapshot(target: Path, per_kind: int | None) -> int:
    """Write the snapshot into ``target`` (an empty folder: :func:`snapshot_target.prepare`); the number of
    replays."""
    run, count = InProcess(), 0
    for game in _records():
        path = game.relative_to(ROOT).as_posix()
        for name, extra in (("text", []), ("json", ["--format", "json"]), ("explain", ["--explain"]),
                            ("json-explain", ["--format", "json", "--explain"])):
            args = ["replay", path, *extra]
            _write(target / path, f"replay-{name}", args, run(args))
            count += 1
    (target / "mutants").mkdir()
    for game in sorted(GAMES.glob("*.json")):  # the Auto Tour file is a tour, not a game record
        rec = load_record(game)
        lines = []
        for kind, where, m in _mutants(rec, random.Random(f"snapshot:{game.name}"), per_kind):
            for explain in (False, True):
                lines.append(json.dumps({"kind": kind, "where": where, "explain": explain,
                                         "report": _report(m, game.parent, explain)}, sort_keys=True))
                count += 1
        (target / "mutants" / f"{game.stem}.jsonl").write_text("\n".join(lines) + "\n")
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("target", type=Path, help="an empty or new folder, or a replay snapshot written before (emptied first)")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--per-kind", type=int, default=25, help="mutants of each kind per record (default 25)")
    group.add_argument("--all", action="store_true", help="every mutation site")
    ns = parser.parse_args(argv)
    target = prepare(parser, ns.target, ROOT, ENTRIES)
    os.chdir(ROOT)
    os.environ.update(COLUMNS="80", NO_COLOR="1")
    count = snapshot(target, None if ns.all else ns.per_kind)
    print(f"{count} replays written to {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
