"""The corpus's core and custom-race additions (``benchmarks/rule_corpus.py`` writes them beside the sweep's games).

Two kinds of records, each replayed before it is written:

- whole games the sweep's one-stage cases do not play (:func:`core_games`): two three-stage rallies with the
  Checkpoints option, Checkpoint penalties and the Spare Tire fitted between stages (CORE-ADV-09/10, CORE-RALLY-08),
  and a Technical Time Trial with the Monte-Carlo weather (CUSTOM-16); each must replay cleanly and print the rules
  it was picked for;
- refused mutants of real records (:func:`core_mutants`): a bundled or corpus record with one thing changed the way a
  careless or dishonest player would, which the referee must refuse with the rule named (dice secured in a Flat
  Out, dice re-laid after a Flying Start's Warning, a slow die jumping, a starting order naming a player twice, the
  Spare Tire used twice). A mutant the referee accepts, or refuses with another rule, stops the script: the refusal
  is the rule being applied.
"""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any, Callable, Iterator

from bot_sweep import ROOT, Case, design, players, record_of

from rule_coverage import named_ids

from rallyc.records import load_record, replay_record
from rallyc.records.generate import bot_record, write_record
from rallyc.rules import Options
from rallyc.rules.drivers.bot import RandomBot

GAMES = ROOT / "examples" / "games"
SEED = 1


def _rally_between(rally: Any, k: int) -> dict:
    """Between stages: each player takes k 5-second Checkpoint tokens (CORE-ADV-09), and a player whose car carries
    Coast/Leader Damage out of a stage without Assistance fits its Spare Tire (CORE-RALLY-08)."""
    stage = rally.current
    spare = [] if stage.track.has_assistance else sorted(
        n for n, car in stage.cars.items()
        if car.status != "retired" and car.spare and car.damage.get("coast", 0) > 0)
    return {"checkpoint": {n: (k + i) % 3 for i, n in enumerate(sorted(stage.cars))}, "spare_tire": spare}


def _checkpoint_rally(track_rel: str, seed: int) -> dict:
    """Rally 4's three stages (SS1 has no Assistance) with the Checkpoints option, the seeded random bot."""
    case = Case("rally-4.rally", None, "stage", "checkpoints")
    record = bot_record(list(design(case.file).tracks), players(case, 3), seed=seed, options=Options(checkpoints=True),
                        header={}, bot=RandomBot(seed), max_turns=10**6, between=_rally_between)
    record["track"] = track_rel
    record["title"] = f"Rally 4 with Checkpoints (random bot, seed {seed})"
    return record


def _weather_time_trial(track_rel: str) -> dict:
    """A Time Trial under Technical Track rules on the Auto Tour's SS1 with the Monte-Carlo weather (CUSTOM-16)."""
    case = Case("auto-tour-1.rally", "SS1", "custom-stage", "weather", (("weather", "dry"),),
                ("time-trial", "technical", None))
    record = record_of(case, RandomBot(SEED), SEED, 2)
    record["track"] = track_rel
    record["title"] = f"{case.name} (random bot, seed {SEED})"
    return record


def core_games(target: Path) -> list[tuple[str, dict, set[str]]]:
    """(file name, record, the rules its replay must print) of the whole games. The rallies' seeds are picked for what
    their games reach: seed 12 a Spare Tire between stages and a car overtaken beside a Shortcut while another is
    in a corner (CORE-OVERTAKE-04/07); seed 3 a jump landing in a corner (CORE-JUMP-08) and a Loss of Control on a
    rally stage's finishing turn (CORE-STAGEEND-07)."""
    def rel(file: str) -> str:
        return os.path.relpath(ROOT / "examples" / file, target.resolve()).replace(os.sep, "/")
    rally = rel("rally-4.rally")
    return [("core-rally-4-checkpoints-seed-12.json", _checkpoint_rally(rally, 12),
             {"CORE-ADV-09", "CORE-ADV-10", "CORE-RALLY-08", "CORE-OVERTAKE-04", "CORE-OVERTAKE-07"}),
            ("core-rally-4-checkpoints-seed-3.json", _checkpoint_rally(rally, 3),
             {"CORE-ADV-09", "CORE-ADV-10", "CORE-JUMP-08", "CORE-STAGEEND-07"}),
            ("core-auto-tour-1-ss1-custom-stage-time-trial-technical-weather.json",
             _weather_time_trial(rel("auto-tour-1.rally")), {"CUSTOM-16"})]


# -- refused mutants: (file name, source record, the change, the rule the referee must name)

def turns(record: dict) -> Iterator[dict]:
    """A record's turns, stage after stage (a race's: its ``race``)."""
    for stage in record.get("stages", [record.get("race", {})]):
        yield from stage.get("turns", [])


def _turn(record: dict, pred: Callable[[dict], bool]) -> dict:
    """The first turn of the record that ``pred`` holds for."""
    return next(t for t in turns(record) if pred(t))


def refusal_problem(path: Path, rule: str) -> str | None:
    """Why the record at ``path`` is not a refused mutant of ``rule`` (accepted, or refused under another rule), or
    None: the referee refuses it naming ``rule``."""
    report = replay_record(load_record(path), base_dir=path.parent, explain=False)
    got = None if report.error is None else report.error.rule_id
    return None if got == rule else f"{path.name}: expected a refusal under {rule}, got {got}: {report.error}"


def _flat_out_secured(r: dict) -> None:
    """A die secured with a Second token in a Flat Out (CORE-SECONDS-05: only when rolling one by one)."""
    _turn(r, lambda t: t.get("mode") == "flat-out")["dice"][0]["secured"] = True


def _relaid_after_flying_warning(r: dict) -> None:
    """Dice re-laid after a Flat Out whose Flying Start die showed a Warning (CORE-ADV-03: the Flying Start Warning
    ends the move after one space and the Flat Out's Loss of Control is ignored: nothing is re-laid)."""
    t = _turn(r, lambda t: t.get("mode") == "flat-out" and t["dice"][0]["die"] == "gear2"
              and t["dice"][0].get("face") == "warning" and "relaid" not in t)
    t["relaid"] = copy.deepcopy(t["dice"])


def _slow_die_jumps(r: dict) -> None:
    """A landing given to a Gear 1 move onto Rally 5 SS1's Gear 4 jump (8.3.l) (CORE-JUMP-06: a die lower than the
    Jump's gear treats it as a normal space)."""
    die = _turn(r, lambda t: any(d["to"] == "8.3.l" and d["die"] in ("gear1", "coast") for d in t.get("dice", ())))
    next(d for d in die["dice"] if d["to"] == "8.3.l")["land"] = "8.3.l"


def _order_misses_player(r: dict) -> None:
    """The second stage's starting order names a player twice and one not at all (CORE-SETUP-06)."""
    order = r["stages"][1]["order"]
    order[-1] = order[0]


def _spare_tire_twice(r: dict) -> None:
    """The Spare Tire card used a second time in a stage (CORE-SPARE-06: used once, recovered only through
    Assistance)."""
    for stage in r["stages"]:
        turns = stage["turns"]
        used = next((i for i, t in enumerate(turns) if t.get("spare_tire")), None)
        if used is None:
            continue
        name = turns[used]["player"]
        later = next(t for t in turns[used + 1:] if t["player"] == name and t.get("gear") == 1
                     and "zero" not in (t.get("card") or {}))
        later["spare_tire"] = True
        return


MUTANTS: list[tuple[str, str, Callable[[dict], None], str]] = [
    ("core-refused-flat-out-secured.json", "examples/games/rally-1-ss1-failed-flat-out.json", _flat_out_secured,
     "CORE-SECONDS-05"),
    ("core-refused-spare-tire-twice.json", "examples/games/rally-4-full.json", _spare_tire_twice,
     "CORE-SPARE-06"),
    ("core-refused-relaid-after-flying-warning.json", "tests/data/corpus/rally-5-ss1-stage-all.json",
     _relaid_after_flying_warning, "CORE-ADV-03"),
    ("core-refused-slow-die-jumps.json", "examples/games/rally-5-ss1-jump-water.json", _slow_die_jumps,
     "CORE-JUMP-06"),
    ("core-refused-order-misses-player.json", "examples/games/rally-4-full.json", _order_misses_player,
     "CORE-SETUP-06"),
]


def core_mutants(target: Path) -> list[tuple[str, dict, str]]:
    """(file name, record, rule) of the refused mutants, their track path relative to ``target``."""
    out = []
    for name, source, change, rule in MUTANTS:
        path = ROOT / source
        record = copy.deepcopy(json.loads(path.read_text(encoding="utf-8")))
        change(record)
        track = (path.parent / record["track"]).resolve()
        record["track"] = os.path.relpath(track, target.resolve()).replace(os.sep, "/")
        record["title"] = f"{record.get('title', path.stem)}: refused mutant ({rule}: {change.__doc__.split(' (')[0]})"
        out.append((name, record, rule))
    return out


def write(target: Path) -> list[str]:
    """Write the games and the mutants to ``target``; the problems found (a game not replaying cleanly, a mutant
    accepted or refused under another rule, a game whose replay no longer prints a rule it was picked for)."""
    problems = []
    for name, record, expect in core_games(target):
        path = target / name
        write_record(record, path)
        report = replay_record(load_record(path), base_dir=path.parent, explain=True)
        if report.error is not None:
            problems.append(f"{name}: does not replay: {report.error.path}: {report.error}")
        missing = expect - set(named_ids(report.to_json(explain=True)))
        if missing:
            problems.append(f"{name}: its replay no longer prints {' '.join(sorted(missing))}")
    for name, record, rule in core_mutants(target):
        path = target / name
        write_record(record, path)
        problem = refusal_problem(path, rule)
        if problem is not None:
            problems.append(problem)
    return problems
