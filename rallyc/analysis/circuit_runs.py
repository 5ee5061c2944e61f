"""Simulated races on a circuit (RX, Ice, a custom Head-to-Head): each car's turns per lap, the lap it drove the
Joker in, and how its race ended; and the rules a circuit is raced under in the analysis (:func:`circuit_rules`).

A concern of its own beside a stage's runs (:mod:`rallyc.analysis.simulate`): a race run is measured in laps, the
Joker and places, a stage run in seconds of Time cards, corners and route steps; what both share, the seeds and the
runs spread over processes or a cluster, is :func:`rallyc.analysis.simulate.spread_runs`. (Was
``rallyc.analysis.rxsim``: it races Ice and custom races too.)

An RX race has no Time cards (RX-SETUP-10): a car's time is the number of its turns, one per round
(RX-ROUND-01..03), so lap times are counted in turns. Lap ``k`` runs from the car's ``k``-th
finish-line crossing to the next (the run from the Pre-grid to the line is not a lap, RX-END-01).

Run ``i`` of seed ``s`` is seeded from ``(s, i)`` alone (:func:`rallyc.analysis.simulate.run_seed`), so the
runs are the same whichever process plays them and however many processes there are.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from rallyc.analysis.circuit_driver import JokerDriver, StrongRxDriver
from rallyc.analysis.simulate import CARS, DriverKind, SimDriver, run_seed, spread_runs
from rallyc.rules.drivers.bot import RandomBot
from rallyc.rules.core.domain import JokerState, RaceStatus
from rallyc.model.options import in_force
from rallyc.rules.variants.custom import custom_race
from rallyc.rules.core.race import Race
from rallyc.rules.core.race_format import ICE, RX, RaceFormat
from rallyc.rules.core.stage import Player

__all__ = ["CarRace", "CircuitRules", "RaceRun", "circuit_rules", "simulate_races", "MAX_RACE_TURNS"]

#: a race still running after this many turns (all cars together) is stopped; its racing cars did not finish
MAX_RACE_TURNS = 2_000


@dataclass
class CarRace:
    """One car's race: its turns, its turns per lap, the lap of its Joker and how it ended."""

    name: str
    #: finished, retired, disqualified (no Joker, RX-JOKER-04) or road (still racing when play stopped)
    status: str
    #: finishing position (1 = winner) among the finishers, None when it did not finish
    position: int | None
    #: the car's turns from the Pre-grid until it finished (or play stopped)
    turns: int
    #: the car's turns from the Pre-grid to its first finish-line crossing (the start, not a lap)
    start: int | None
    #: the car's turns on each completed lap, in lap order
    laps: list[int] = field(default_factory=list)
    #: the lap (1-based) in which it entered the Joker, None if it never did
    joker_lap: int | None = None
    losses: int = 0
    #: the space of each Loss of Control, in race order
    loss_spaces: list[str] = field(default_factory=list)
    #: the Dashboard it raced with (``[dashboards.NAME]``: RX, ICE or the custom race's own)
    dashboard: str = ""


@dataclass
class RaceRun:
    """One simulated race: every car, in grid order (the first took Pole Position, RX-SETUP-06)."""

    index: int
    cars: list[CarRace]
    table_turns: int


@dataclass(frozen=True)
class CircuitRules:
    """The rules a circuit is raced under in the analysis: the race format (Dashboards, Damage bag, damage table)
    and the tires of the simulated cars, with why."""

    format: RaceFormat
    #: the tires (Dashboard side) of every simulated car
    tires: str
    #: the rulebook's reason, for the report
    why: str

    @property
    def name(self) -> str:
        """``rx``, ``ice`` or ``custom`` (a record's ``race.format``)."""
        return self.format.name

    def player(self, name: str, colour: str) -> Player:
        """A simulated car under these rules."""
        return Player(name, colour, self.format.car or "r6", self.tires)


def circuit_rules(track, design_options: dict | None = None) -> CircuitRules:
    """The race a circuit is analysed as, from what the design states and what the rulebooks say a circuit is:

    - the design's custom-race options (``race-type``, ``track-rules``, ``damage-bag``) make it that custom race, a
      Head-to-Head under Speed Track rules with R6 cars on Asphalt tires (CUSTOM-01/05/08/10); any other custom race
      is not a race and raises ValueError;
    - a circuit with a Joker lap is an RX circuit (TRACK-RX-07): RX Dashboards (RX-SETUP-03);
    - a circuit without a Joker whose road is all snow is an Ice track (ICE-01/02): ICE Dashboards, all on the ICE
      side (ICE-03), the GT Damage set, no weather (ICE-05);
    - any other circuit without a Joker is no RX circuit: it is raced as the circuit's own custom race, a
      Head-to-Head under Speed Track rules (CUSTOM-01: the choices a circuit leaves open)."""
    spaces = track.spaces.values()
    shortcuts = any(s.kind == "shortcut" for s in spaces)
    options = in_force(dict(design_options or {}), None)[0]
    custom = custom_race("circuit", options)
    if custom is not None:
        return CircuitRules(custom.race_format(shortcuts), "asphalt",
                            f"the design's custom race ({custom.race_type}, {custom.track_rules} Track rules, "
                            f"{custom.bag_for(shortcuts)} Damage set: CUSTOM-01): R6 cars on Asphalt tires")
    if any(s.joker for s in spaces):
        return CircuitRules(RX, "asphalt", "an RX race (a Joker lap: TRACK-RX-07): RX Dashboards on Asphalt tires (RX-SETUP-03)")
    if all(s.surface == "snow" for s in spaces):
        return CircuitRules(ICE, ICE.sides[0], "an Ice race (no Joker, all snow: ICE-01/02): ICE Dashboards, all on "
                                               "the ICE side (ICE-03), the GT Damage set, no weather (ICE-05)")
    # the standard Speed Track set (CUSTOM-18), the DIRT set where Shortcut tiles need it (CUSTOM-21)
    custom = custom_race("circuit", {"race-type": "head-to-head", "damage-bag": "dirt" if shortcuts else None})
    assert custom is not None
    return CircuitRules(custom.race_format(shortcuts), "asphalt",
                        f"a custom Head-to-Head under Speed Track rules, the choices a circuit leaves open (CUSTOM-01/05; "
                        f"no Joker lap, so no RX race: TRACK-RX-07): R6 cars on Asphalt tires, the {custom.bag_name} "
                        f"Damage set")


def joker_plan(index: int, grid: int, laps: int) -> int:
    """The lap on which the car on grid place ``grid`` (0-based) of run ``index`` plans to drive the Joker:
    every lap in turn, so that each lap's cost is measured on as many runs (RX-JOKER-01: its player's choice)."""
    return (index + grid) % max(1, laps) + 1


def _driver(kind: DriverKind, seed: int) -> SimDriver:
    if kind is DriverKind.strong:
        return StrongRxDriver(seed)
    if kind is DriverKind.greedy:
        return JokerDriver(seed)
    return RandomBot(seed)


def play_races(track, indices: list[int], *, seed: int, cars: int, kind: DriverKind,
               rules: CircuitRules | None = None) -> list[RaceRun]:
    """Play the races ``indices`` of a simulation on the circuit ``track`` (under ``rules``: by default those
    :func:`circuit_rules` reads from the track alone)."""
    rules = rules or circuit_rules(track)
    driver = _driver(kind, seed)
    players = [rules.player(n, c) for n, c in CARS[:cars]]
    out = []
    for i in indices:
        driver.rng.seed(run_seed(seed, i))
        race = Race(track, players, race_format=rules.format)
        if hasattr(driver, "plans"):  # the greedy and the strong driver follow a Joker plan
            driver.plans = {p.name: joker_plan(i, g, race.laps.laps) for g, p in enumerate(players)}
        out.append(_play(race, driver, i))
    return out


def _play(race: Race, driver: SimDriver, index: int) -> RaceRun:
    names = list(race.cars)
    turns = dict.fromkeys(names, 0)
    crossings: dict[str, list[int]] = {n: [] for n in names}
    joker: dict[str, int | None] = dict.fromkeys(names)
    losses: dict[str, list[str]] = {n: [] for n in names}
    table = 0
    while not race.is_over() and table < MAX_RACE_TURNS:
        name = race.to_move()
        if name is None:
            break
        before = race.cars[name].crossed
        _turn, out = driver.play_turn(race)  # type: ignore[arg-type]  # the bot plays a Race as it plays a Stage
        car = race.cars[name]
        table += 1
        turns[name] += 1
        if out.loc is not None:
            losses[name].append(out.loc.space)
        crossings[name] += [turns[name]] * (car.crossed - before)
        if joker[name] is None and car.joker in (JokerState.IN, JokerState.DONE):
            joker[name] = max(1, car.crossed)
    result = race.result()
    position = {n: k for k, n in enumerate(result.order, start=1)}
    out_cars = []
    for n in names:
        c = race.cars[n]
        at = crossings[n]
        laps = [b - a for a, b in zip(at, at[1:])]
        out_cars.append(CarRace(n, str(c.status), position.get(n), turns[n], at[0] if at else None, laps,
                                joker[n], len(losses[n]), losses[n], c.dashboard.name))
    return RaceRun(index, out_cars, table)


def simulate_races(track, runs: int, *, seed: int = 0, cars: int = 1, kind: DriverKind = DriverKind.strong,
                   jobs: int = 1, source: tuple[Path, str] | None = None,
                   rules: CircuitRules | None = None, cluster: str | None = None) -> list[RaceRun]:
    """``runs`` seeded races of ``cars`` cars (1 to 4) on ``track`` under ``rules`` (default: :func:`circuit_rules`
    of the track alone), in run order, spread over ``jobs`` processes when ``source`` (file, circuit name) lets
    each compile the track again, or on a Dask ``cluster``: same results."""
    return spread_runs(partial(play_races, rules=rules or circuit_rules(track)), track, runs, seed=seed, cars=cars,
                       kind=kind, jobs=jobs, source=source, cluster=cluster)


# keep the statuses' words in one place for the report
FINISHED, RETIRED, DISQUALIFIED, RACING = (str(RaceStatus.FINISHED), str(RaceStatus.RETIRED),
                                           str(RaceStatus.DISQUALIFIED), str(RaceStatus.ROAD))
