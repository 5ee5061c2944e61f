"""Simulated runs of a stage by a driver: what happened in each, as plain numbers to aggregate.

Run ``i`` of a simulation with seed ``s`` is played with the driver's random stream seeded from
``(s, i)`` alone, so the runs are the same whichever process plays them and however many processes
there are (``jobs``); the results come back in run order.
"""

from __future__ import annotations

import gc
import os
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import Enum
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Union

from rallyc.analysis.drivers import GreedyDriver, StrongDriver
from rallyc.analysis.cluster import cluster_map
from rallyc.analysis.load import TrackSource
from rallyc.data.components import load_components
from rallyc.rules.drivers.bot import RandomBot
from rallyc.rules.core.options import Options
from rallyc.rules.core.stage import Player, Stage

if TYPE_CHECKING:  # pragma: no cover
    from rallyc.analysis.drivers import PlanningDriver

__all__ = ["DriverKind", "LossRecord", "Run", "SimDriver", "simulate", "run_seed", "RunProgress"]

#: who drives a simulated car: the random bot or a planning driver (greedy, strong)
SimDriver = Union[RandomBot, "PlanningDriver"]

#: the player names and colours of simulated cars (CORE-SETUP-06: one colour each)
CARS = (("Car 1", "red"), ("Car 2", "blue"), ("Car 3", "green"), ("Car 4", "yellow"))
#: a stage that has not ended after this many turns is counted as not finished
MAX_TURNS = 400


class DriverKind(str, Enum):
    """Who drives the simulated cars."""

    strong = "strong"
    greedy = "greedy"
    random = "random"


@dataclass(frozen=True)
class LossRecord:
    """One Loss of Control: where, in which gear, and the corner it happened in (None off corners)."""

    space: str
    gear: int
    corner: str | None
    zone: str


@dataclass
class Run:
    """One simulated stage: the first car's time and what it went through."""

    index: int
    #: stage time of car 1 (cards minus unspent Second tokens), None if it retired or never finished
    seconds: int | None
    turns: int
    finished: bool
    losses: list[LossRecord] = field(default_factory=list)
    damage: int = 0
    #: seconds of car 1's Time cards spread over the route steps its turns drove through
    step_seconds: dict[int, float] = field(default_factory=dict)
    #: turns all cars took together (the table's playing time)
    table_turns: int = 0


def run_seed(seed: int, index: int) -> int:
    """The random seed of run ``index`` of a simulation seeded ``seed`` (independent of process and order)."""
    return (seed * 1_000_003 + index * 7_919 + 17) & 0x7FFF_FFFF


#: the drivers of the last tracks this process played, the last used last: (the track's id, who drives) -> (the
#: track, its driver). A simulation's runs come to a worker in tasks (a cluster's, or of :data:`CHUNK_RUNS` runs while
#: progress is shown), and the driver's memos serve every task on the same track; the track is held so that its id
#: is not reused while its entry lives
_DRIVERS: "OrderedDict[tuple[int, DriverKind], tuple[Any, SimDriver]]" = OrderedDict()
#: how many drivers a process keeps
KEEP_DRIVERS = 2


def _driver(track, kind: DriverKind) -> SimDriver:
    """The driver of ``kind`` that last played ``track`` in this process, or a new one (seeded run by run)."""
    key = (id(track), kind)
    got = _DRIVERS.get(key)
    if got is not None and got[0] is track:
        _DRIVERS.move_to_end(key)
        return got[1]
    driver: SimDriver = StrongDriver() if kind is DriverKind.strong else \
        GreedyDriver() if kind is DriverKind.greedy else RandomBot()
    _DRIVERS[key] = (track, driver)
    while len(_DRIVERS) > KEEP_DRIVERS:
        _DRIVERS.popitem(last=False)
    return driver


def play_runs(track, indices: list[int], *, seed: int, cars: int, kind: DriverKind) -> list[Run]:
    """Play the runs ``indices`` of a simulation on ``track`` (with the process's driver of the track: its caches
    are pure functions of the game state, so sharing it between runs and tasks changes no result)."""
    driver = _driver(track, kind)
    players = [Player(n, c) for n, c in CARS[:cars]]
    components = load_components()
    out = []
    with fewer_collections():
        for i in indices:
            driver.rng.seed(run_seed(seed, i))
            stage = Stage(track, players, Options(), components)
            out.append(_play(stage, driver, i, players[0].name))
    return out


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Run the cyclic garbage collector less often while the block runs: the strong driver's memos grow to
    millions of small tuples, none in a reference cycle, and with the default thresholds the collector walked them
    again and again (about a third of a simulation's CPU). A run's garbage waits for the next collection (500 runs
    of an 18-tile stage peaked at 213 MB against 209 MB with the default thresholds); they are put back after."""
    before = gc.get_threshold()
    gc.set_threshold(100_000, 20, 10)
    try:
        yield
    finally:
        gc.set_threshold(*before)


@contextmanager
def frozen_tables() -> Iterator[None]:
    """Keep the cyclic garbage collector off every object this process holds while the block runs (``gc.freeze``;
    put back after): the tables :func:`value_tables` valued before the runs (some 750,000 small tuples on an
    18-tile stage), which every full collection of the process, and of each process forked from it, walked again
    (a third of a worker's CPU in 500 runs of that stage)."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _play(stage: Stage, driver: SimDriver, index: int, me: str) -> Run:
    spaces = stage.index.spaces
    run = Run(index, None, 0, False)
    steps: dict[int, float] = {}
    while not stage.is_over() and run.table_turns < MAX_TURNS:
        turn, out = driver.play_turn(stage)
        run.table_turns += 1
        if out.player != me:
            continue
        run.turns += 1
        run.damage += len(out.damage)
        if out.loc is not None:
            sp = spaces[out.loc.space]
            run.losses.append(LossRecord(out.loc.space, out.loc.gear, sp.corner, sp.zone_key))
            steps[sp.step] = steps.get(sp.step, 0.0) + out.card.seconds
            continue
        path = [s for s in out.path if s in spaces] or [out.end]
        share = out.card.seconds / len(path)
        for s in path:
            steps[spaces[s].step] = steps.get(spaces[s].step, 0.0) + share
    result = stage.result()
    run.finished = me in result.finished
    run.seconds = result.times.get(me) if run.finished else None
    run.step_seconds = dict(sorted(steps.items()))
    return run


#: the track the last simulation spread over processes played, by its source: a worker forked from this process
#: plays the same object, and so finds the tables its driver valued on it here (:func:`value_tables`)
_FORKED: dict[TrackSource, object] = {}


def _worker(args: tuple) -> list:
    play, source, indices, seed, cars, kind = args
    track = _FORKED.get(source)
    if track is None:
        track = source.load()
    return play(track, indices, seed=seed, cars=cars, kind=kind)


def value_tables(track, *, cars: int, kind: DriverKind) -> None:
    """Value in this process what the strong driver values once per track and car (its cost to go,
    :func:`~rallyc.analysis.costtogo.cost_to_go`), so that processes forked from it next share it rather than each
    value it again (a process keeps the last few tables)."""
    if kind is DriverKind.strong:
        players = [Player(n, c) for n, c in CARS[:cars]]
        with fewer_collections():
            StrongDriver().table(Stage(track, players, Options()), players[0].name)


#: runs a task of a cluster (or of a pool reporting progress) plays: small enough to show progress, large enough
#: that a worker's memos serve many runs
CHUNK_RUNS = 25

#: ``progress(runs done, runs in all)``
RunProgress = Callable[[int, int], None]


def _chunks(indices: list[int], jobs: int, *, small: bool) -> list[list[int]]:
    """The run indices split into tasks: one a process, or (``small``: a cluster's, or progress shown) tasks of at
    most :data:`CHUNK_RUNS` runs, at least two a process."""
    if not small:
        return [indices[j::jobs] for j in range(jobs)]
    size = max(1, min(CHUNK_RUNS, -(-len(indices) // (2 * max(jobs, 2)))))
    return [indices[k:k + size] for k in range(0, len(indices), size)]


def _pool_map(tasks: list[tuple], sizes: list[int], jobs: int, progress: RunProgress | None) -> list:
    """Each task's runs played in a pool of ``jobs`` processes, in task order; ``progress`` hears of each task
    back."""
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(_worker, t) for t in tasks]
        finished: list[int] = []
        for fut in as_completed(futures):
            finished.append(futures.index(fut))
            if progress is not None:
                progress(sum(sizes[i] for i in finished), sum(sizes))
        return [f.result() for f in futures]


def spread_runs(play, track, runs: int, *, seed: int, cars: int, kind: DriverKind, jobs: int,
                source: "tuple[Path, str] | TrackSource | None", prepare: Callable[[Any], None] | None = None,
                cluster: str | None = None, progress: RunProgress | None = None) -> list:
    """``play(track, indices, ...)`` for run indices 0 to ``runs`` - 1, in run order.

    What ``prepare(track)`` values (:func:`value_tables`) is valued first, in this process, and kept out of the
    garbage collector's walks while the runs are played (:func:`frozen_tables`). With ``jobs`` > 1 the indices are
    split over processes; ``play`` must be a module-level function (it is pickled). A process forked from this one
    plays ``track`` itself, and finds what ``prepare(track)`` valued here; one started afresh (another start method), or a worker of a Dask ``cluster`` (its
    scheduler's address), compiles the track again from ``source`` (the file and design name, or a
    :class:`TrackSource`). The results are the same as with one job. ``progress`` hears of the runs done as they
    come back.
    """
    if not 1 <= cars <= len(CARS):
        raise ValueError(f"between 1 and {len(CARS)} cars, not {cars}")
    indices = list(range(runs))
    if isinstance(source, tuple):
        source = TrackSource(source[1], path=Path(source[0]))
    jobs = max(1, min(jobs, runs, os.cpu_count() or 1))
    if source is None or (jobs == 1 and cluster is None):
        if prepare is not None:
            prepare(track)
        with frozen_tables():
            return play(track, indices, seed=seed, cars=cars, kind=kind)
    chunks = _chunks(indices, jobs, small=cluster is not None or progress is not None)
    tasks = [(play, source, c, seed, cars, kind) for c in chunks]
    sizes = [len(c) for c in chunks]
    if cluster is not None:
        parts = cluster_map(cluster, _worker, tasks,
                            None if progress is None else lambda done, _total: progress(sum(sizes[:done]), runs))
    else:
        _FORKED.clear()
        _FORKED[source] = track
        if prepare is not None:
            prepare(track)
        with frozen_tables():
            parts = _pool_map(tasks, sizes, jobs, progress)
    merged = [r for part in parts for r in part]
    return sorted(merged, key=lambda r: r.index)


def simulate(track, runs: int, *, seed: int = 0, cars: int = 1, kind: DriverKind = DriverKind.strong,
             jobs: int = 1, source: "tuple[Path, str] | TrackSource | None" = None, cluster: str | None = None,
             progress: RunProgress | None = None) -> list[Run]:
    """``runs`` seeded runs of ``track`` with ``cars`` cars (1 to 4), in run order.

    With ``jobs`` > 1 the runs are split over processes (:func:`spread_runs`: forked, they share the tables the
    strong driver valued here; started afresh, each compiles the track again from ``source``, the file and stage
    name, or a :class:`TrackSource`), or over the workers of a Dask ``cluster``: the results are the same as with
    one job.
    """
    return spread_runs(play_runs, track, runs, seed=seed, cars=cars, kind=kind, jobs=jobs, source=source,
                       prepare=partial(value_tables, cars=cars, kind=kind), cluster=cluster, progress=progress)
