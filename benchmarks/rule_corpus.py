"""Write the corpus of seeded bot games that ``benchmarks/rule_coverage.py`` replays beside the bundled records.

Run: ``python benchmarks/rule_corpus.py [DIR]`` (default ``tests/data/corpus``; the folder is emptied of its
``*.json`` first). The games are cases of the bot sweep (:mod:`bot_sweep`: a published track, a game form, an option
set), played by the seeded random bot with two cars (three for Full Contact, where cars meet more): every game form
(a DIRT stage, an RX race, an Ice race, each custom-race pairing) with no option, each of its options alone and all
of them together, on a few tracks per form (:data:`TRACKS`: Shortcuts, jumps and water, the Monte-Carlo stage). Each record
names its track file (``track``, relative to the corpus folder) and is replayed before it is written: a record that
does not replay cleanly stops the script. Then the Monte-Carlo and RX games those cases do not reach
(:func:`mc_rx_games`: a two-stage rally on soft tires with tire changes, a stage with Road Effects tokens, whose
source ``mc-tokens.rally`` is written beside it, and a few sweep cases at other seeds and with four cars) and records
the referee must refuse with a given rule (:func:`mc_rx_refused`: one of those games changed in one place, named
``refused-<rule>-*.json``; a record refused otherwise, or accepted, stops the script). The core and custom-race
additions (rallies with Checkpoints, refused mutants of real records) are written by :mod:`rule_corpus_core`. Same
code, same corpus: nothing depends on time or the machine.
"""

from __future__ import annotations

import argparse
import copy
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bot_sweep import ROOT, Case, cases, record_of  # noqa: E402
from rule_corpus_core import refusal_problem, turns, write as write_core  # noqa: E402

import rallyc  # noqa: E402
from rallyc.records import load_record, replay_record  # noqa: E402
from rallyc.records.generate import bot_record, write_record  # noqa: E402
from rallyc.rules import Options, Player  # noqa: E402
from rallyc.rules.drivers.bot import RandomBot  # noqa: E402
from rallyc.rules.sketch import sketch, sketch_source  # noqa: E402

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


def corpus_record(case: Case, target: Path = DEFAULT, seed: int = SEED, cars: int | None = None) -> dict:
    """The case's game, played by the seeded random bot (two cars, three for Full Contact, unless ``cars``), with
    its track file named (relative to ``target``)."""
    field = cars or (3 if "full_contact" in dict(case.settings) else 2)
    record = record_of(case, RandomBot(seed), seed, field)
    record["track"] = os.path.relpath(ROOT / "examples" / case.file, target.resolve()).replace(os.sep, "/")
    if "race" in record and case.track:
        record["race"]["stage"] = case.track
    record["title"] = f"{case.name} (random bot, seed {seed}" + (f", {cars} cars)" if cars else ")")
    return record


# -- Monte-Carlo and RX games the sweep's cases above do not reach (issue 31: what the referee reports) -----------
# Seeded bot games, their seeds found once by playing seeds from 1 up and kept here (same code, same games): soft
# tires and tire changes over a two-stage rally, Road Effects tokens, a tile turned over twice, the RX forks, Full
# Contact's rarer pushes and Danger tokens; then records the referee refuses: a real game changed in one place.

#: a two-stage Monte-Carlo rally (sketches: mixed surfaces, corners), Assistance after SS1: soft tires fitted at the
#: start and renewed at Assistance, asphalt tires fitted on the R4 (MC-SOFT, MC-TIRE-03/04/06)
MC_RALLY = ["~asphalt N S N N | ~snow W C(2;3,3)L W N | ~gravel N C(1;2,2,2)R N | ~snow N C(2;3,3)L N | "
            "~asphalt N C(1;2,2)R N F N",
            "~asphalt N S N N | ~snow N W N N | ~gravel N N N | ~asphalt N N F N"]
#: the seed of MC_RALLY's game in which the soft-tired car uses its Spare Tire (MC-SOFT-08)
MC_RALLY_SEED = 11
#: a Monte-Carlo stage with Road Effects tokens: Water Hazard, Jump, Chicane with a limit and hay bales (MC-TOKEN)
MC_TOKENS = ("~gravel N S N N | N N N N | N N N N | N N N N | N N F N",
             ["water at 2.2.l", "jump 3 at 2.3.r", "chicane limit 2 at 3.2.l", "chicane at 3.2.r", "water at 4.3.r",
              "jump 2 at 4.2.l"])
#: (file, stage, form, options label, seed, cars) of sweep cases played beyond the corpus's own: a Weather tile
#: turned over twice (MC-WEATHER-05), RX 1's fork passed round another car (RX-FORK-04), a car pushed beside slide
#: spaces (RX-PUSH-13), Danger tokens (RX-DANGER-02, RX-DANGER-04/05), a Push Through onto a space two cars share
#: (RX-THROUGH-06)
MC_RX_CASES = [("auto-tour-1.rally", "SS2", "stage", "weather", 3, 2), ("rx-1.rally", None, "rx", "weather-dry", 1, 4),
               ("rx-1.rally", None, "rx", "all", 1, 4), ("ice-track-1.rally", None, "ice", "all", 1, 4),
               ("ice-track-1.rally", None, "ice", "all", 2, 4), ("rx-2.rally", None, "rx", "full-contact", 17, 4)]


def mc_rx_games(target: Path) -> dict[str, dict]:
    """File name -> record of the Monte-Carlo and RX games above; the token stage's source is written to
    ``target`` (``mc-tokens.rally``) for its record to name."""
    games: dict[str, dict] = {}
    tracks = [sketch(MC_RALLY[0], "SS1", assistance=True), sketch(MC_RALLY[1], "SS2")]
    players = [Player("Ann", "red", "r5", "asphalt"), Player("Bob", "blue", "r4", "gravel"),
               Player("Cat", "green", "r6", "soft")]
    games["mc-rally-soft-tires.json"] = bot_record(
        tracks, players, seed=MC_RALLY_SEED, options=Options(handbrake=True),
        header={"title": f"Monte-Carlo rally, soft tires and tire changes (random bot, seed {MC_RALLY_SEED})",
                "sketch": MC_RALLY, "assistance": [True, False]},
        tires={0: {"Ann": "soft"}, 1: {"Ann": "soft", "Bob": "asphalt"}})
    (target / "mc-tokens.rally").write_text(sketch_source(MC_TOKENS[0], "SS1", tokens=MC_TOKENS[1]),
                                            encoding="utf-8")
    token_stage = rallyc.load(target / "mc-tokens.rally").tracks[0]
    games["mc-tokens-ss1-stage.json"] = bot_record(
        [token_stage], [Player("Ann", "red", "r5", "gravel"), Player("Bob", "blue", "r4", "gravel"),
                        Player("Cat", "green")], seed=SEED,
        header={"title": f"Road Effects tokens (random bot, seed {SEED})", "track": "mc-tokens.rally"})
    by_key = {(c.file, c.track, c.form, c.label): c for c in cases()}
    for file, track, form, label, seed, cars in MC_RX_CASES:
        case = by_key[(file, track, form, label)]
        name = file_name(case).replace(".json", f"-seed-{seed}-{cars}-cars.json")
        games[name] = corpus_record(case, target, seed, cars)
    return games


def _gear_up(record: dict, player: str, top: int) -> dict:
    """``record`` with ``player``'s first Gear ``top`` die laid as the die above it."""
    bad = copy.deepcopy(record)
    die = next(d for t in turns(bad) if t["player"] == player for d in t.get("dice", []) if d["die"] == f"gear{top}")
    die["die"] = f"gear{top + 1}"
    return bad


def mc_rx_refused(played: dict[str, dict], target: Path = DEFAULT) -> list[tuple[str, dict, str]]:
    """(file name, record, the rule that refuses it): real games changed in one place. An R4 laying the Gear 5 die
    (MC-R4-02), an R5 the Gear 6 die (MC-R5-02), an RX car the Gear 6 die (RX-DICE-02)."""
    rally = played["mc-rally-soft-tires.json"]
    race = corpus_record(next(c for c in cases() if (c.file, c.form, c.label) == ("rx-2.rally", "rx", "plain")), target)
    return [("refused-mc-r4-02-gear-5.json", _gear_up(rally, "Bob", 4), "MC-R4-02"),
            ("refused-mc-r5-02-gear-6.json", _gear_up(rally, "Ann", 5), "MC-R5-02"),
            ("refused-rx-dice-02-gear-6.json", _gear_up(race, race["players"][0]["name"], 5), "RX-DICE-02"),
]


def replays(path: Path) -> bool:
    """The record at ``path`` replays cleanly (else why is printed)."""
    report = replay_record(load_record(path), base_dir=path.parent, explain=False)
    if report.error is not None:
        print(f"{path.name}: does not replay: {report.error.path}: {report.error}", file=sys.stderr)
    return report.error is None


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
        if not replays(path):
            return 1
        written += 1
    played = mc_rx_games(ns.target)
    for name, record in played.items():
        path = ns.target / name
        write_record(record, path)
        if not replays(path):
            return 1
        written += 1
    for name, record, rule in mc_rx_refused(played, ns.target):
        path = ns.target / name
        write_record(record, path)
        problem = refusal_problem(path, rule)
        if problem is not None:
            print(problem, file=sys.stderr)
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
