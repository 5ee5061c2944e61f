"""From simulated runs of a stage to what a designer reads: the par time, the risk of every corner, where time goes,
the stage's length class against its playing time, and warnings across the stages of a rally.

The statistics a circuit's report shares (the median and its error, another driver's runs) are
:mod:`rallyc.analysis.figures`; what is read here is a stage's own: its corners, its route steps, its Time cards'
seconds (a circuit's report, :mod:`rallyc.analysis.circuit_report`, reads laps, the Joker and the grid instead)."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field

from rallyc.analysis.figures import DriverComparison, compare_figures, median_figures, percent, rounded
from rallyc.analysis.simulate import Run
from rallyc.compiler.stats import stage_class

__all__ = ["percent", "CornerRisk", "DriverComparison", "StageAnalysis", "RallyWarning", "analyse_stage", "rally_warnings",
           "TURN_SECONDS_AT_TABLE", "CLASS_MINUTES"]

#: Named assumption: seconds of table time a player's turn takes. The Core rulebook's guideline gives a
#: Short stage (about 10 tiles, TRACK-STAGE-01) about 25 minutes with 4 players; four strong drivers take
#: 25.7 turns together on the published 10-tile stages (docs/analyze.md, the par table), hence about 58 s a turn.
TURN_SECONDS_AT_TABLE = 58.0
#: The rulebook's playing times of the three stage classes with 4 players (TRACK-STAGE-01..03), minutes
CLASS_MINUTES = {"Short": 25.0, "Medium": 35.0, "Long": 45.0}


@dataclass(frozen=True)
class CornerRisk:
    """How often the first car lost control in one corner (or zone), and in which gears."""

    where: str
    step: int
    tile: str
    rate: float
    gears: dict[int, int]


@dataclass
class StageAnalysis:
    """The figures of one stage from N runs of one driver."""

    stage: str
    tiles: int
    rulebook_class: str | None
    runs: int
    seed: int
    driver: str
    par: float | None
    #: half-width of a 95% interval of the par (normal approximation of the median's error)
    par_error: float | None
    p10: float | None
    p90: float | None
    finished: float
    clean: float
    damage: float
    turns: float
    corners: list[CornerRisk] = field(default_factory=list)
    zones: list[CornerRisk] = field(default_factory=list)
    #: mean seconds spent per route step, and per space of that step (where time is lost)
    steps: dict[int, dict[str, float]] = field(default_factory=dict)
    #: the four-car runs: turns of the whole table and the playing time they mean
    table_turns: float | None = None
    playing_minutes: float | None = None
    measured_class: str | None = None
    #: Loss-of-Control rate per space (the heat map)
    space_risk: dict[str, float] = field(default_factory=dict)
    #: the same solo runs by another driver (the greedy one, by default of the strong driver's analysis)
    against: DriverComparison | None = None

    def to_dict(self) -> dict:
        """JSON-ready figures (floats rounded, keys sorted by the writer)."""
        return rounded(asdict(self))


@dataclass(frozen=True)
class RallyWarning:
    """Advice across the stages of a rally."""

    code: str
    message: str


def measured_class(minutes: float) -> str:
    """The class whose rulebook playing time is nearest to ``minutes``."""
    return min(CLASS_MINUTES, key=lambda c: (abs(CLASS_MINUTES[c] - minutes), CLASS_MINUTES[c]))


def par_figures(runs: list[Run]) -> tuple[float | None, float | None, float | None, float | None]:
    """(par, its 95% error, 10% and 90% quantiles) of the stage times of the runs that finished."""
    return median_figures(sorted(r.seconds for r in runs if r.seconds is not None))


def compare(par: float | None, par_error: float | None, runs: list[Run], driver: str) -> DriverComparison:
    """The same runs by ``driver`` against the analysed par (and its error)."""
    return compare_figures(driver, par, par_error, sorted(r.seconds for r in runs if r.seconds is not None),
                           sum(r.finished for r in runs), sum(not r.losses for r in runs), len(runs))


def analyse_stage(track, runs: list[Run], *, seed: int, driver: str, table: list[Run] | None = None,
                  against: tuple[str, list[Run]] | None = None) -> StageAnalysis:
    """The figures of one stage from its solo runs (and, if given, its four-car runs, and the same solo runs by
    another driver: ``(driver, runs)``)."""
    spaces = track.spaces
    steps_of_route = sorted({s.step for s in spaces.values()})
    tiles = len(steps_of_route)
    n = len(runs)
    par, err, p10, p90 = par_figures(runs)
    corner_hits, zone_hits, space_hits = _loss_hits(runs)
    by_corner = {s.corner: s for s in spaces.values() if s.corner}
    by_zone = {s.zone_key: s for s in spaces.values()}
    analysis = StageAnalysis(
        stage=track.name, tiles=tiles, rulebook_class=stage_class(tiles) if track.kind == "stage" else None, runs=n,
        seed=seed, driver=driver, par=par, par_error=err, p10=p10, p90=p90,
        finished=sum(r.finished for r in runs) / n, clean=sum(not r.losses for r in runs) / n,
        damage=sum(r.damage for r in runs) / n, turns=sum(r.turns for r in runs) / n,
        corners=_risks(corner_hits, by_corner.__getitem__, n), zones=_risks(zone_hits, by_zone.__getitem__, n),
        steps=_step_seconds(spaces, runs, steps_of_route), space_risk={s: space_hits[s] / n for s in sorted(space_hits)},
        against=compare(par, err, against[1], against[0]) if against else None,
    )
    if table:
        _table_time(analysis, table)
    return analysis


def _loss_hits(runs: list[Run]) -> tuple[dict[str, Counter], dict[str, Counter], Counter]:
    """The Losses of Control of the runs counted by gear per corner and per zone, and per space."""
    corner_hits: dict[str, Counter] = {}
    zone_hits: dict[str, Counter] = {}
    space_hits: Counter = Counter()
    for r in runs:
        for loss in r.losses:
            space_hits[loss.space] += 1
            zone_hits.setdefault(loss.zone, Counter())[loss.gear] += 1
            if loss.corner:
                corner_hits.setdefault(loss.corner, Counter())[loss.gear] += 1
    return corner_hits, zone_hits, space_hits


def _risks(hits: dict[str, Counter], key_space, n: int) -> list[CornerRisk]:
    """Each corner's (or zone's) risk over ``n`` runs, placed by the space ``key_space`` gives it; the riskiest
    first, then along the route."""
    out = []
    for where, gears in hits.items():
        sp = key_space(where)
        out.append(CornerRisk(where, sp.step, sp.tile, sum(gears.values()) / n, dict(sorted(gears.items()))))
    return sorted(out, key=lambda c: (-c.rate, c.step, c.where))


def _step_seconds(spaces: dict, runs: list[Run], steps_of_route: list[int]) -> dict[int, dict[str, float]]:
    """Where time goes: each step's mean seconds over the runs, and per space of its length (the lanes of the
    route, not a Shortcut's ``s1``/``s2``)."""
    n = len(runs)
    per_step: dict[int, float] = {}
    for r in runs:
        for step, secs in r.step_seconds.items():
            per_step[step] = per_step.get(step, 0.0) + secs / n
    length = Counter(s.step for s in spaces.values() if s.lane not in ("s1", "s2"))
    return {step: {"seconds": per_step.get(step, 0.0),
                   "per_space": per_step.get(step, 0.0) / max(1, length[step])} for step in steps_of_route}


def _table_time(analysis: StageAnalysis, table: list[Run]) -> None:
    """The four-car runs' figures: turns at the table, playing minutes (:data:`TURN_SECONDS_AT_TABLE`) and the
    length class they measure."""
    turns = sum(r.table_turns for r in table) / len(table)
    analysis.table_turns = turns
    analysis.playing_minutes = turns * TURN_SECONDS_AT_TABLE / 60
    analysis.measured_class = measured_class(analysis.playing_minutes)


def rally_warnings(stages: list[StageAnalysis]) -> list[RallyWarning]:
    """Near-duplicate stages in difficulty, and a stage that dominates the rally's total time."""
    out: list[RallyWarning] = []
    timed = [s for s in stages if s.par is not None]
    for i, a in enumerate(timed):
        for b in timed[i + 1:]:
            margin = (a.par_error or 0) + (b.par_error or 0)
            if abs(a.par - b.par) <= margin and abs(a.clean - b.clean) <= 0.05:  # type: ignore[operator]
                out.append(RallyWarning("near-duplicate", f"{a.stage} and {b.stage} play alike: par {a.par:.0f} s "
                                        f"and {b.par:.0f} s (within {margin:.0f} s), {a.clean:.0%} and "
                                        f"{b.clean:.0%} of runs without a Loss of Control"))
    total = sum(s.par for s in timed)  # type: ignore[misc]
    if len(timed) >= 2 and total:
        for s in timed:
            share = s.par / total  # type: ignore[operator]
            if share > 1.5 / len(timed) and share > 0.5:
                out.append(RallyWarning("dominates", f"{s.stage} is {share:.0%} of the rally's par time"))
    return out
