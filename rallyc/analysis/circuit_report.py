"""From simulated races on a circuit (RX, Ice or a custom Head-to-Head) to what a circuit designer reads: lap times,
the Joker lap's cost by lap, and the finishing distribution of each grid place (text and JSON, as for stages).

A concern of its own beside the stage's report (:mod:`rallyc.analysis.report`): a race is read by laps, the Joker
and the grid places, a stage by its corners, route steps and seconds; the statistics both read their times with
are one module, :mod:`rallyc.analysis.figures`. (Was ``rallyc.analysis.rxreport``: it reads Ice and custom races
too.)

Times are in turns (an RX race has no Time cards, RX-SETUP-10). The Joker's cost on lap ``k`` compares
the turns of lap ``k`` in the runs that drove the Joker in it with those of the runs that did not; the
race it leads to is the mean of the whole race's turns of the runs that took it then.
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import asdict, dataclass, field

from rallyc.analysis.circuit_runs import DISQUALIFIED, FINISHED, RETIRED, CarRace, CircuitRules, RaceRun, \
    circuit_rules, simulate_races
from rallyc.analysis.figures import DriverComparison, compare_figures, median_figures, percent, rounded
from rallyc.analysis.simulate import CARS, DriverKind
from rallyc.rules.core.rx_order import grid
from rallyc.rules.core.state import index_of

__all__ = ["JokerLap", "LapTimes", "GridPlace", "CircuitAnalysis", "analyse_circuit", "analyze_circuit", "circuit_text",
           "circuits_text"]


@dataclass(frozen=True)
class LapTimes:
    """Turns per lap over the runs that completed that lap."""

    lap: int
    runs: int
    median: float | None
    mean: float | None


@dataclass(frozen=True)
class JokerLap:
    """Driving the Joker on lap ``lap``: how often, what it costs on that lap, the race it leads to."""

    lap: int
    #: share of runs whose car drove the Joker on this lap
    share: float
    #: mean turns of this lap with the Joker in it, and without (None when no run did / every run did)
    with_joker: float | None
    without: float | None
    #: with_joker - without: the turns the Joker costs on this lap
    cost: float | None
    #: mean turns of the whole race of the runs that drove the Joker on this lap
    race_turns: float | None


@dataclass(frozen=True)
class GridPlace:
    """One grid place of the four-car races: its laps and how its races ended."""

    car: str
    grid: int
    laps: list[LapTimes]
    #: finishing position -> share of races; and the shares that retired, were disqualified, did not finish
    positions: dict[int, float]
    retired: float
    disqualified: float
    unfinished: float
    mean_position: float | None


@dataclass
class CircuitAnalysis:
    """The figures of one RX circuit from N solo races and M four-car races of one driver."""

    circuit: str
    laps: int
    tiles: int
    runs: int
    seed: int
    driver: str
    #: median turns of the solo race (Pre-grid to the end of the last lap) and its 95% error, spread
    race: float | None
    race_error: float | None
    p10: float | None
    p90: float | None
    finished: float
    clean: float
    start: float | None
    lap_times: list[LapTimes] = field(default_factory=list)
    joker: list[JokerLap] = field(default_factory=list)
    #: mean turns of a lap with the Joker in it minus a lap without (all laps together)
    joker_cost: float | None = None
    table_runs: int = 0
    grid: list[GridPlace] = field(default_factory=list)
    #: cars in each table race: four, or as many as the Pre-grid holds (Ice Track 1: two)
    table_cars: int = 0
    #: Losses of Control per solo race on each space (the heat map's colours)
    space_risk: dict[str, float] = field(default_factory=dict)
    #: the race format it was raced under (``rx``, ``ice``, ``custom``: :func:`rallyc.analysis.circuit_runs.circuit_rules`)
    race_format: str = "rx"
    #: why, in the rulebooks' words
    rules: str = ""
    #: mean turns of one car in the table races (the table's playing time)
    table_car_turns: float | None = None
    #: the same solo races (same seeds, same Joker plans) by another driver: its race in turns, the turns gained
    against: DriverComparison | None = None

    @property
    def stage(self) -> str:
        """The circuit's name (the heat map's title names it as it names a stage)."""
        return self.circuit

    def to_dict(self) -> dict:
        """JSON-ready figures (floats rounded, keys sorted by the writer)."""
        return rounded(asdict(self))


def _mean(values: list[int]) -> float | None:
    return sum(values) / len(values) if values else None


def _lap_times(cars: list[CarRace], laps: int) -> list[LapTimes]:
    out = []
    for k in range(laps):
        done = sorted(c.laps[k] for c in cars if len(c.laps) > k)
        out.append(LapTimes(k + 1, len(done), statistics.median(done) if done else None, _mean(done)))
    return out


def _joker_by_lap(cars: list[CarRace], laps: int) -> tuple[list[JokerLap], float | None]:
    out = []
    with_all: list[int] = []
    without_all: list[int] = []
    for k in range(1, laps + 1):
        took = [c for c in cars if c.joker_lap == k]
        lap_with = [c.laps[k - 1] for c in took if len(c.laps) >= k]
        lap_without = [c.laps[k - 1] for c in cars if c.joker_lap != k and len(c.laps) >= k]
        with_all += lap_with
        without_all += lap_without
        a, b = _mean(lap_with), _mean(lap_without)
        finished = [c.turns for c in took if c.status == FINISHED]
        out.append(JokerLap(k, len(took) / len(cars) if cars else 0.0, a, b,
                            None if a is None or b is None else a - b, _mean(finished)))
    a, b = _mean(with_all), _mean(without_all)
    return out, (None if a is None or b is None else a - b)


def _grid(table: list[RaceRun], laps: int) -> list[GridPlace]:
    out: list[GridPlace] = []
    if not table:
        return out
    for g, name in enumerate([c.name for c in table[0].cars], start=1):
        cars = [next(c for c in r.cars if c.name == name) for r in table]
        n = len(cars)
        pos = Counter(c.position for c in cars if c.position is not None)
        status = Counter(c.status for c in cars)
        places = [c.position for c in cars if c.position is not None]
        out.append(GridPlace(name, g, _lap_times(cars, laps), {p: pos[p] / n for p in sorted(pos)},
                             status[RETIRED] / n, status[DISQUALIFIED] / n,
                             sum(1 for c in cars if c.status not in (FINISHED, RETIRED, DISQUALIFIED)) / n,
                             _mean(places)))
    return out


def analyse_circuit(track, runs: list[RaceRun], *, seed: int, driver: str,
                    table: list[RaceRun] | None = None, rules: "CircuitRules | None" = None,
                    against: tuple[str, list[RaceRun]] | None = None) -> CircuitAnalysis:
    """The figures of one circuit from its solo races (the first car of each) and its four-car races (and, if
    given, the same solo races by another driver: ``(driver, races)``)."""
    laps = int(track.laps or 0)
    cars = [r.cars[0] for r in runs]
    n = len(cars)
    times = _finished_turns(cars)
    race, err, p10, p90 = median_figures(times)
    joker, cost = _joker_by_lap(cars, laps) if _has_joker(track) else ([], None)
    table = table or []
    return CircuitAnalysis(
        circuit=track.name, laps=laps, tiles=_circuit_tiles(track), runs=n, seed=seed, driver=driver,
        race=race, race_error=err, p10=p10, p90=p90,
        finished=_share(len(times), n), clean=_share(sum(c.losses == 0 for c in cars), n),
        start=_mean([c.start for c in cars if c.start is not None]), lap_times=_lap_times(cars, laps),
        joker=joker, joker_cost=cost,
        table_runs=len(table), grid=_grid(table, laps), table_cars=len(table[0].cars) if table else 0,
        space_risk=_space_risk(cars),
        race_format=rules.name if rules else "rx", rules=rules.why if rules else "",
        table_car_turns=_mean([c.turns for r in table for c in r.cars]),
        against=_compare(race, err, against[1], against[0]) if against else None)


def _finished_turns(cars: list[CarRace]) -> list[int]:
    """The turns of the cars that finished their race, sorted (a race's times)."""
    return sorted(c.turns for c in cars if c.status == FINISHED)


def _compare(race: float | None, race_error: float | None, runs: list[RaceRun], driver: str) -> DriverComparison:
    """The same solo races by ``driver`` against the analysed race (turns)."""
    cars = [r.cars[0] for r in runs]
    times = _finished_turns(cars)
    return compare_figures(driver, race, race_error, times, len(times), sum(c.losses == 0 for c in cars), len(cars))


def _circuit_tiles(track) -> int:
    """The circuit's tiles: the steps of its lap (not the Joker's, not the Pre-grid's)."""
    return len({s.step for s in track.spaces.values() if not s.joker and not s.pregrid})


def _has_joker(track) -> bool:
    """Whether the circuit has a Joker lap (a Joker space)."""
    return any(s.joker for s in track.spaces.values())


def _share(count: int, n: int) -> float:
    """``count`` of ``n`` runs as a share (0 without runs)."""
    return count / n if n else 0.0


def _space_risk(cars: list[CarRace]) -> dict[str, float]:
    """Losses of Control per solo race on each space that had one, by space."""
    n = len(cars)
    return {s: k / n for s, k in sorted(Counter(s for c in cars for s in c.loss_spaces).items())}


def _t(v: float | None, digits: int = 1) -> str:
    return "-" if v is None else f"{v:.{digits}f}"


def _signed(v: float | None) -> str:
    return "-" if v is None else f"{v:+.1f}"


def circuit_text(c: CircuitAnalysis) -> list[str]:
    """The text block of one circuit."""
    err = f" ± {c.race_error:.1f}" if c.race_error is not None else ""
    out = [f"{c.circuit}: race {_t(c.race)}{err} turns (10-90%: {_t(c.p10)}-{_t(c.p90)}), {c.laps} laps of "
           f"{c.tiles} tiles, {c.runs} solo runs of the {c.driver} driver, seed {c.seed}",
           *([f"  raced as {c.rules}"] if c.rules else []),
           f"  finished {percent(c.finished)}, without a Loss of Control {percent(c.clean)}, "
           f"{_t(c.start)} turns from the Pre-grid to the line",
           "  lap times (turns, median / mean): " + ", ".join(
               f"lap {lt.lap} {_t(lt.median)} / {_t(lt.mean)}" for lt in c.lap_times)]
    if not c.joker:
        out.append("  no Joker on this circuit")
    else:
        out.append(f"  Joker lap: {_signed(c.joker_cost)} turns on the lap it is driven; by lap:")
    for j in c.joker:
        out.append(f"    lap {j.lap}: driven in {percent(j.share)} of runs, {_t(j.with_joker)} turns with it vs "
                   f"{_t(j.without)} without ({_signed(j.cost)}), race {_t(j.race_turns)} turns")
    if c.against is not None:
        a = c.against
        line = (f"  against the {a.driver} driver (the same {c.runs} races' seeds and Joker laps): race {_t(a.par)}"
                f"{f' ± {a.par_error:.1f}' if a.par_error is not None else ''} turns, finished {percent(a.finished)}; ")
        if a.gain is None:
            out.append(line + "no race to compare")
        else:
            gain_err = f" ± {a.gain_error:.1f}" if a.gain_error is not None else ""
            out.append(line + f"the {c.driver} driver {'gains' if a.gain >= 0 else 'loses'} {abs(a.gain):.1f}"
                       f"{gain_err} turns")
    if c.grid:
        out.append(f"  {_CARS_WORDS.get(c.table_cars, str(c.table_cars))} cars ({c.table_runs} races), by grid "
                   f"place:")
        for g in c.grid:
            pos = ", ".join(f"{_ordinal(p)} {percent(s)}" for p, s in g.positions.items()) or "never finished"
            laps = " / ".join(_t(lt.mean) for lt in g.laps)
            out.append(f"    {g.car} (grid {g.grid}): laps {laps} turns; {pos}; retired {percent(g.retired)}, "
                       f"disqualified {percent(g.disqualified)}, mean place {_t(g.mean_position)}")
    return out


_CARS_WORDS = {2: "two", 3: "three", 4: "four"}


def _ordinal(n: int) -> str:
    return f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'}"


def analyze_circuit(track, *, runs: int = 40, table_runs: int = 8, seed: int = 0, jobs: int = 1,
                    driver: "DriverKind | None" = None, source=None,
                    design_options: dict | None = None, against: "DriverKind | None" = None,
                    cluster: str | None = None) -> CircuitAnalysis:
    """The figures of one compiled circuit: ``runs`` solo races and ``table_runs`` four-car races (fewer cars
    when the Pre-grid holds fewer), each car planning its Joker on every lap in turn (see
    :mod:`rallyc.analysis.circuit_runs`), under the rules :func:`~rallyc.analysis.circuit_runs.circuit_rules` reads from the track
    and ``design_options`` (an RX race, an Ice race or a custom Head-to-Head). ValueError when the design's options
    make a race that is not raced (a Time Trial, Technical Track rules). With ``against`` (another driver), the same
    solo races by that driver too, and the turns ``driver`` gains on it. The races spread over ``jobs`` processes or
    a Dask ``cluster`` (the same figures)."""
    asked = driver or DriverKind.strong
    cars = min(len(CARS), len(grid(index_of(track))))
    rules = circuit_rules(track, design_options)
    solo = simulate_races(track, runs, seed=seed, cars=1, kind=asked, jobs=jobs, source=source, rules=rules,
                          cluster=cluster)
    table = simulate_races(track, table_runs, seed=seed + 1, cars=cars, kind=asked, jobs=jobs, source=source,
                           rules=rules, cluster=cluster) if table_runs and cars > 1 else None
    other = (against.value, simulate_races(track, runs, seed=seed, cars=1, kind=against, jobs=jobs, source=source,
                                            rules=rules, cluster=cluster)) \
        if against is not None and against is not asked else None
    return analyse_circuit(track, solo, seed=seed, driver=asked.value, table=table, rules=rules, against=other)


def circuits_text(circuits: list[CircuitAnalysis]) -> str:
    """Every circuit's block, as text."""
    return "".join("\n".join(circuit_text(c)) + "\n" for c in circuits)
