"""Write the corpus of seeded bot games that ``benchmarks/rule_coverage.py`` replays beside the bundled records.

Run: ``python benchmarks/rule_corpus.py [DIR]`` (default ``tests/data/corpus``; the folder is emptied of its
``*.json`` first). The games are cases of the bot sweep (:mod:`bot_sweep`: a published track, a game form, an option
set), played by the seeded random bot with two cars (three for Full Contact, where cars meet more): every game form
(a DIRT stage, an RX race, an Ice race, each custom-race pairing) with no option, each of its options alone and all
of them together, on a few tracks per form (:data:`TRACKS`: Shortcuts, jumps and water, the Monte-Carlo stage). Each record
names its track file (``track``, relative to the corpus folder) and is replayed before it is written: a record that
does not replay cleanly stops the script. The core and custom-race additions (rallies with Checkpoints, refused
mutants of real records) are written by :mod:`rule_corpus_core`. Same code, same corpus: nothing depends on time or
the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bot_sweep import ROOT, Case, cases, record_of  # noqa: E402
from rule_corpus_core import write as write_core  # noqa: E402

from rallyc.records import load_record, replay_record  # noqa: E402
from rallyc.records.generate import write_record  # noqa: E402
from rallyc.rules.bot import RandomBot  # noqa: E402

DEFAULT = ROOT / "tests" / "data" / "corpus"
#: the tracks the corpus plays each form on (file, stage or None for the circuit); a form's cases elsewhere are left
TRACKS = {
    "stage": [("rally-4.rally", "SS1"), ("rally-5.rally", "SS1"), ("auto-tour-1.rally", "SS2")],
    "rx": [("rx-2.rally", None)],
    "ice": [("ice-track-1.rally", None)],
    "custom-race": [("auto-tour-1.rally", "SS1"), ("track-1.rally", None)],
    "custom-stage": [("auto-tour-1.rally", "SS1"), ("track-1.rally", None)],
}
SEED = 1


def chosen() -> list[Case]:
    """The sweep's cases the corpus plays (:data:`TRACKS`)."""
    picked = []
    for case in cases():
        for file, track in TRACKS.get(case.form, ()):
            if case.file == file and (track is None or case.track == track):
                picked.append(case)
                break
    return picked


def file_name(case: Case) -> str:
    """A record's file name from its case: ``rally-5-ss1-stage-sisu.json``."""
    words = [Path(case.file).stem, case.track or "", case.form, *(c for c in (case.custom or ()) if c), case.label]
    return "-".join(w.lower().replace(" ", "-") for w in words if w) + ".json"


def corpus_record(case: Case, target: Path = DEFAULT) -> dict:
    """The case's game, played by the seeded random bot, with its track file named (relative to ``target``)."""
    cars = 3 if "full_contact" in dict(case.settings) else 2
    record = record_of(case, RandomBot(SEED), SEED, cars)
    record["track"] = os.path.relpath(ROOT / "examples" / case.file, target.resolve()).replace(os.sep, "/")
    if "race" in record and case.track:
        record["race"]["stage"] = case.track
    record["title"] = f"{case.name} (random bot, seed {SEED})"
    return record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("target", type=Path, nargs="?", default=DEFAULT, help="the corpus folder")
    ns = parser.parse_args(argv)
    ns.target.mkdir(parents=True, exist_ok=True)
    for old in ns.target.glob("*.json"):
        old.unlink()
    written = 0
    for case in chosen():
        path = ns.target / file_name(case)
        write_record(corpus_record(case, ns.target), path)
        report = replay_record(load_record(path), base_dir=path.parent, explain=False)
        if report.error is not None:
            print(f"{path.name}: does not replay: {report.error.path}: {report.error}", file=sys.stderr)
            return 1
        written += 1
    problems = write_core(ns.target)
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    print(f"{written} records written to {ns.target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
