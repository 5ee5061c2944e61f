"""The bot sweep: seeded games on every published stage and circuit, by every driver, under every rulebook option,
must all end, keep the invariants and replay.

Run: ``python benchmarks/bot_sweep.py [--seeds N] [--planned-seeds N] [--bag-seeds N] [--budget SECONDS] [--cars K]
[--only TEXT] [--drivers random,greedy,strong] [--progress] [--no-replay] [--json [FILE]]``.

The cases (:data:`CASES`, built by :func:`cases`) are (track, game form, options): every stage of
``examples/rally-*.rally`` and ``examples/auto-tour-1.rally`` as a DIRT stage; the RX circuits (``rx-1``, ``rx-2``) as
RX races; ``ice-track-1`` as an Ice race; the Auto Tour's circuits (``track-1``, ``track-2``) as the custom
Head-to-Head a circuit is by default; and every custom-race pairing (Head-to-Head or Time Trial, Technical or Speed
Track rules) on the Auto Tour's SS1 (a stage with a Shortcut) and on both Auto Tour circuits. Each case is played with
no option, each option of its form alone, and all the options of its form together (:data:`FORM_OPTIONS`). Each case is
played by the random bot (:class:`rallyc.rules.drivers.bot.RandomBot`) and by the greedy and strong drivers of
``rallyc analyze`` (:mod:`rallyc.analysis.simulate`, :mod:`rallyc.analysis.circuit_runs`; the strong one only where
:func:`drives` says), ``--seeds`` seeds each, the cheapest driver first; games not started when ``--budget`` seconds
are spent are counted as skipped. Then (``--bag-seeds``) the races under Full Contact (:func:`bag_cases`: their
impacts draw, so the Damage bag may run out, a Weather token be discarded first) are played by the random bot up to
that many seeds, four cars by default, after the budget (issue 31: the referee refused such games at seeds 10 to 26).

Every game is played under :func:`rallyc.rules.core.invariants.checking_invariants` and its record replayed. It counts:

- **stuck**: the game reached its turn bound (:func:`rallyc.rules.core.invariants.turn_bound`: it never ends);
- **tracebacks**: any exception other than a referee refusal (the game's label and seed, the traceback's last line);
- **refused**: a driver's turn the referee refused (a :class:`~rallyc.rules.core.errors.RulesError`, the driver's bug or the
  referee's: listed; the drivers play only what the referee offers, so none is expected);
- **violations**: any other broken invariant (:class:`~rallyc.rules.core.invariants.InvariantBroken`);
- **bad replays**: a record of a game that ended but does not replay cleanly.

Exit 1 when any of stuck, tracebacks, refused, violations or bad replays is not zero.
``tests/test_bot_published.py`` runs a seeded slice of it by default and the whole of it with ``RALLYC_SLOW=1``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import traceback
from dataclasses import dataclass, field, fields
from functools import lru_cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import rallyc  # noqa: E402
from rallyc.analysis.drivers import GreedyDriver, StrongDriver  # noqa: E402
from rallyc.analysis.circuit_driver import JokerDriver, StrongRxDriver  # noqa: E402
from rallyc.model.pairings import referee_of  # noqa: E402
from rallyc.records import parse_record, replay_record  # noqa: E402
from rallyc.records.generate import bot_race_record, bot_record  # noqa: E402
from rallyc.rules import Options, Player, RulesError  # noqa: E402
from rallyc.rules.drivers.bot import RandomBot  # noqa: E402
from rallyc.rules.variants.custom import CustomRace  # noqa: E402
from rallyc.rules.core.invariants import InvariantBroken, checking_invariants  # noqa: E402
from rallyc.rules.core.race_format import ICE, RX, RaceFormat  # noqa: E402

EXAMPLES = ROOT / "examples"
STAGE_FILES = [f.name for f in sorted(EXAMPLES.glob("rally-*.rally"))] + ["auto-tour-1.rally"]
COLOURS = ("red", "blue", "green", "yellow")
NAMES = ("Ann", "Bob", "Cat", "Dan")
#: the cars of a custom race: each player's own Rally car (the Auto Tour's field, TOUR-03)
RALLY_CARS = (("r5", "asphalt"), ("r4", "snow"), ("r6", "gravel"), ("r5", "gravel"))
#: a game longer than this many turns raises before the invariant's bound could (it never does: the bound is lower)
NO_LIMIT = 10**6
#: the default games per case of the random bot and of each planning driver, and the default time cap (seconds)
DEFAULT_SEEDS = 2
DEFAULT_PLANNED_SEEDS = 1
DEFAULT_BUDGET = 300.0
#: seeds of the random bot's games of the races under Full Contact (:func:`bag_cases`)
DEFAULT_BAG_SEEDS = 30

# -- the game forms and their options

#: each form's options, by label, as Options fields (``race_weather``: the RX Weather rule's start); each is played
#: alone, and all of them together (:func:`option_sets`)
FORM_OPTIONS: dict[str, dict[str, dict[str, Any]]] = {
    # a DIRT stage (core advanced rules, Monte-Carlo rules, Improvisation); checkpoints act between stages only
    "stage": {"flying-start": {"flying_start": True}, "redline": {"redline": True}, "sisu": {"sisu": "per-stage"},
              "one-shot": {"one_shot": True}, "handbrake": {"handbrake": True}, "weather": {"weather": "dry"},
              "improvisation": {"improvisation": True}},
    # an RX race (RX-ADV-01, RX Weather, Improvisation)
    "rx": {"flying-start": {"flying_start": True}, "redline": {"redline": True}, "full-contact": {"full_contact": True},
           "weather-dry": {"race_weather": "dry"}, "weather-wet": {"race_weather": "wet"},
           "improvisation": {"improvisation": True}},
    # an Ice race: no weather changes (ICE-05)
    "ice": {"flying-start": {"flying_start": True}, "redline": {"redline": True},
            "full-contact": {"full_contact": True},
            "improvisation": {"improvisation": True}},
    # a custom Head-to-Head under Speed Track rules: the race engine, no weather (RX Dashboards only)
    "custom-race": {"flying-start": {"flying_start": True}, "redline": {"redline": True},
                    "full-contact": {"full_contact": True}, "improvisation": {"improvisation": True}},
    # a custom race played as the core stage with Time cards (Time Trials, the Technical Head-to-Head)
    "custom-stage": {"flying-start": {"flying_start": True}, "redline": {"redline": True},
                     "sisu": {"sisu": "per-stage"}, "improvisation": {"improvisation": True}},
}
#: options of a form that do not go together with the others (weather words: one of them in "all")
EXCLUSIVE = {"weather-dry"}


def option_sets(form: str) -> list[tuple[str, dict[str, Any]]]:
    """(label, settings) of a form: none, each option alone, all together."""
    alone = FORM_OPTIONS[form]
    together: dict[str, Any] = {}
    for label, settings in alone.items():
        if label not in EXCLUSIVE:
            together.update(settings)
    return [("plain", {}), *alone.items(), ("all", together)]


# -- the cases


@dataclass(frozen=True)
class Case:
    """One (track, game form, options) to play."""

    #: examples/ file of the design
    file: str
    #: the stage's name, or None for the design's circuit
    track: str | None
    #: ``stage``, ``rx``, ``ice``, ``custom-race`` or ``custom-stage``
    form: str
    #: the options' label (``plain``, an option's name, ``all``)
    label: str
    #: Options fields, and ``race_weather`` (the RX Weather rule's start, a race's)
    settings: tuple[tuple[str, Any], ...] = ()
    #: the custom race's choices (race type, track rules, Damage set), None outside one
    custom: tuple[str, str, str | None] | None = None

    @property
    def name(self) -> str:
        where = f"{Path(self.file).stem}/{self.track}" if self.track else Path(self.file).stem
        form = f"custom {' '.join(c for c in self.custom if c)}" if self.custom else self.form
        return f"{where} [{form}] {self.label}"

    def options(self) -> Options:
        own = {k: v for k, v in self.settings if k != "race_weather"}
        if self.custom:
            own.update(race_type=self.custom[0], track_rules=self.custom[1], damage_bag=self.custom[2])
        return Options(**own)

    @property
    def race_weather(self) -> str | None:
        return dict(self.settings).get("race_weather")

    @property
    def is_race(self) -> bool:
        """Played by the race engine (laps or a Head-to-Head on a stage), not the core stage."""
        return self.form in ("rx", "ice", "custom-race")


def _cases_of(file: str, track: str | None, form: str, custom: tuple[str, str, str | None] | None = None
              ) -> list[Case]:
    return [Case(file, track, form, label, tuple(sorted(s.items())), custom) for label, s in option_sets(form)]


#: the custom-race pairings (race type, track rules, Damage set) played on the Auto Tour's stage and circuits
PAIRINGS: list[tuple[str, str, str | None]] = [
    ("head-to-head", "speed", None), ("head-to-head", "speed", "light"), ("head-to-head", "technical", None),
    ("time-trial", "speed", None), ("time-trial", "speed", "light"), ("time-trial", "technical", None)]


def cases() -> list[Case]:
    """Every (track, game form, options) of the sweep."""
    out: list[Case] = []
    for file in STAGE_FILES:
        for track in design(file).tracks:
            out += _cases_of(file, track.name, "stage")
    out += _cases_of("rx-1.rally", None, "rx") + _cases_of("rx-2.rally", None, "rx")
    out += _cases_of("ice-track-1.rally", None, "ice")
    for file, track in (("auto-tour-1.rally", "SS1"), ("track-1.rally", None), ("track-2.rally", None)):
        for pairing in PAIRINGS:
            form = "custom-race" if referee_of(pairing[0], pairing[1]) == "race" else "custom-stage"
            out += _cases_of(file, track, form, pairing)
    return out


@lru_cache(maxsize=None)
def design(file: str) -> Any:
    return rallyc.load(EXAMPLES / file)


def track_of(case: Case) -> Any:
    return next(t for t in design(case.file).tracks if case.track is None or t.name == case.track)


# -- the drivers


def make_driver(kind: str, case: Case, seed: int) -> Any:
    """The ``random``, ``greedy`` or ``strong`` driver of a game of ``case``, seeded, as ``rallyc analyze`` builds
    them (on a circuit raced with laps, the RX drivers); None where it does not drive (:func:`drives`)."""
    if kind == "random":
        return RandomBot(seed)
    lapped = case.is_race and track_of(case).kind == "circuit"
    if kind == "greedy":
        return JokerDriver(seed) if lapped else GreedyDriver(seed)
    return StrongRxDriver(seed) if lapped else StrongDriver(seed)


def drives(kind: str, case: Case) -> bool:
    """Does this driver play this case? The random and the greedy driver play every case (under Full Contact the
    planning drivers push only when their plan leaves them blocked, CORE-MOVE-07). The strong driver plays each
    track and form with no option, with all, and with Full Contact alone (its cost-to-go table is valued once per
    track and options, seconds each: every option alone would take it minutes), a race on a circuit (the RX driver)
    or on a stage (the stage driver, the positions valued by Time cards), and the core stage only on a stage (not a
    Time Trial or a Technical Head-to-Head lap by lap: it values a stage from its finish backwards, and a circuit's
    laps loop)."""
    if kind in ("random", "greedy"):
        return True
    on_circuit = track_of(case).kind == "circuit"
    return case.label in ("plain", "all", "full-contact") and (case.is_race or not on_circuit)


DRIVERS = ("random", "greedy", "strong")


# -- one game


@dataclass
class Sweep:
    """What a sweep found."""

    cases: int = 0
    games: int = 0
    finished: int = 0
    stuck: list[str] = field(default_factory=list)
    tracebacks: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    bad_replays: list[str] = field(default_factory=list)
    #: games left unplayed when the budget ran out
    skipped: int = 0
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not (self.stuck or self.tracebacks or self.refused or self.violations or self.bad_replays)

    def to_json(self) -> dict:
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["seconds"] = round(self.seconds, 1)
        return out


def players(case: Case, cars: int) -> list[Player]:
    """The field: R6 cars on gravel on a stage, the race format's cars on a circuit, each player's own Rally car
    in a custom race (TOUR-03)."""
    if case.form in ("rx", "ice"):
        fmt = race_format(case)
        tires = fmt.sides[0] if fmt is ICE else ("rain" if case.race_weather == "wet" else "asphalt")
        return [Player(NAMES[i], COLOURS[i], fmt.car or "r6", tires) for i in range(cars)]
    if case.custom or case.form.startswith("custom"):
        return [Player(NAMES[i], COLOURS[i], *RALLY_CARS[i]) for i in range(cars)]
    return [Player(NAMES[i], COLOURS[i]) for i in range(cars)]


def race_format(case: Case) -> RaceFormat:
    if case.form == "rx":
        return RX
    if case.form == "ice":
        return ICE
    track = track_of(case)
    shortcuts = any(s.kind == "shortcut" for s in track.spaces.values())
    race_type, rules, bag = case.custom or ("head-to-head", "speed", None)
    return CustomRace(track.kind, race_type, rules, damage_bag=bag).race_format(shortcuts)


def record_of(case: Case, driver: Any, seed: int, cars: int) -> dict:
    """Play the game and return its record (raises what the referee raises)."""
    track, field_ = track_of(case), players(case, cars)
    if case.is_race:
        return bot_race_record(track, field_, seed=seed, options=case.options(), bot=driver, max_turns=NO_LIMIT,
                               weather=case.race_weather, race_format=race_format(case))
    flippers = [design(case.file).flipper(track.name)] if case.options().weather else None
    return bot_record([track], field_, seed=seed, options=case.options(), header={}, bot=driver,
                      max_turns=NO_LIMIT, flippers=flippers)


def replay_problem(case: Case, record: dict) -> str | None:
    """Why the record does not replay cleanly, or None."""
    track = track_of(case)
    flippers = [design(case.file).flipper(track.name)] if case.options().weather and not case.is_race else None
    report = replay_record(parse_record(json.dumps(record)), tracks=[track], flippers=flippers, explain=False)
    return None if report.error is None else f"{report.error.path}: {report.error}"


def play(case: Case, kind: str, seed: int, cars: int, sweep: Sweep, driver: Any = None, replay: bool = True) -> None:
    """One game (by ``driver``, reseeded, or a new driver): played under the invariants and (``replay``) replayed;
    what went wrong counted in ``sweep``."""
    sweep.games += 1
    where = f"{case.name} {kind} seed {seed}"
    if driver is None:
        driver = make_driver(kind, case, seed)
    driver.rng.seed(seed)  # the same stream as a new driver of this seed
    try:
        with checking_invariants():
            record = record_of(case, driver, seed, cars)
            problem = replay_problem(case, record) if replay else None
    except InvariantBroken as exc:
        (sweep.stuck if exc.name == "ends" else sweep.violations).append(f"{where}: {exc}")
        return
    except RulesError as exc:
        sweep.refused.append(f"{where}: {exc}")
        return
    except Exception as exc:  # noqa: BLE001 - any other exception is a bug to list, with where it happened
        last = traceback.extract_tb(exc.__traceback__)[-1]
        sweep.tracebacks.append(f"{where}: {type(exc).__name__}: {exc} ({Path(last.filename).name}:{last.lineno})")
        return
    sweep.finished += 1
    if problem is not None:
        sweep.bad_replays.append(f"{where}: {problem}")


def bag_cases(chosen: list[Case]) -> list[Case]:
    """The races under Full Contact: each impact and Push Through draws Damage tokens, so a four-car race may empty
    the Damage bag (a Weather token discarded before, RX-WEATHER-07; reading empty_bag)."""
    return [c for c in chosen if c.is_race and dict(c.settings).get("full_contact")]


def run(seeds: int, cars: int = 4, budget: float | None = None, only: str = "",
        drivers: tuple[str, ...] = DRIVERS, planned_seeds: int = 1, progress: bool = False, replay: bool = True,
        bag_seeds: int = 0) -> Sweep:
    """Play the sweep: ``seeds`` games per case by the random bot, ``planned_seeds`` by the greedy and the strong
    driver (a planning driver's game takes seconds). One driver plays every seed of a case (its tables are pure
    functions of the game state, so sharing them changes no game).

    With a ``budget`` (seconds) no game starts once it is spent (counted as skipped): the drivers play in turn, the
    cheapest first, each until its share of the budget is spent (what one leaves goes to the next), every track
    with no option and with all first, then each option alone, so that a cut still covers every track and driver.
    Then, whatever the budget, the random bot plays the seeds from ``seeds`` to ``bag_seeds`` of :func:`bag_cases`."""
    chosen = sorted((c for c in cases() if only in c.name), key=lambda c: c.label not in ("plain", "all"))
    sweep = Sweep(cases=len(chosen))
    t0 = time.perf_counter()
    for k, kind in enumerate(drivers):
        deadline = None if budget is None else t0 + budget * (k + 1) / len(drivers)
        for case in (c for c in chosen if drives(kind, c)):
            driver = make_driver(kind, case, 0)
            for seed in range(seeds if kind == "random" else planned_seeds):
                if deadline is not None and time.perf_counter() > deadline:
                    sweep.skipped += 1
                    continue
                _play_one(case, kind, seed, cars, sweep, driver, replay, progress)
    if "random" in drivers:
        for case in bag_cases(chosen):
            driver = make_driver("random", case, 0)
            for seed in range(seeds, bag_seeds):
                _play_one(case, "random", seed, cars, sweep, driver, replay, progress)
    sweep.seconds = time.perf_counter() - t0
    return sweep


def _play_one(case: Case, kind: str, seed: int, cars: int, sweep: Sweep, driver: Any, replay: bool, progress: bool
              ) -> None:
    t, found = time.perf_counter(), problems(sweep)
    play(case, kind, seed, cars, sweep, driver, replay)
    if progress:
        what = "ok" if problems(sweep) == found else "NOT OK"
        print(f"{time.perf_counter() - t:6.2f} s  {case.name} {kind} seed {seed}: {what}", file=sys.stderr, flush=True)


def problems(sweep: Sweep) -> int:
    """Games that did not end cleanly so far (refused bot turns included)."""
    return sum(map(len, (sweep.stuck, sweep.tracebacks, sweep.refused, sweep.violations, sweep.bad_replays)))


def summary(sweep: Sweep) -> str:
    lines = [f"{sweep.cases} cases, {sweep.games} games ({sweep.skipped} skipped by the budget): {sweep.finished} "
             f"finished, {len(sweep.stuck)} stuck, {len(sweep.tracebacks)} tracebacks, {len(sweep.refused)} refused "
             f"bot turns, {len(sweep.violations)} invariant violations, {len(sweep.bad_replays)} bad replays "
             f"({sweep.seconds:.0f} s)"]
    for title, items in (("stuck", sweep.stuck), ("traceback", sweep.tracebacks), ("refused", sweep.refused),
                         ("violation", sweep.violations), ("bad replay", sweep.bad_replays)):
        lines += [f"  {title}: {line}" for line in items]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=DEFAULT_SEEDS,
                    help=f"games per case by the random bot (default {DEFAULT_SEEDS})")
    ap.add_argument("--budget", type=float, default=DEFAULT_BUDGET,
                    help=f"seconds after which no game starts (default {DEFAULT_BUDGET:.0f}; 0: no cap)")
    ap.add_argument("--planned-seeds", type=int, default=DEFAULT_PLANNED_SEEDS,
                    help=f"games per case by the greedy and the strong driver (default {DEFAULT_PLANNED_SEEDS})")
    ap.add_argument("--bag-seeds", type=int, default=DEFAULT_BAG_SEEDS,
                    help=f"games per race under Full Contact by the random bot, after the budget (default "
                         f"{DEFAULT_BAG_SEEDS}; 0: none beyond --seeds)")
    ap.add_argument("--cars", type=int, default=4)
    ap.add_argument("--progress", action="store_true", help="print each game and its seconds on stderr")
    ap.add_argument("--no-replay", action="store_true", help="only play (faster)")
    ap.add_argument("--only", default="", help="only the cases whose name contains this text")
    ap.add_argument("--drivers", default=",".join(DRIVERS), help="comma-separated: random,greedy,strong")
    ap.add_argument("--json", nargs="?", const="-", metavar="FILE", help="also write the figures as JSON (- : stdout)")
    args = ap.parse_args(argv)
    sweep = run(args.seeds, args.cars, args.budget or None, args.only, tuple(args.drivers.split(",")),
                args.planned_seeds, args.progress, not args.no_replay, args.bag_seeds)
    print(summary(sweep))
    if args.json:
        text = json.dumps(sweep.to_json(), indent=2, sort_keys=True)
        if args.json == "-":
            print(text)
        else:
            Path(args.json).write_text(text + "\n", encoding="utf-8")
    return 0 if sweep.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
