"""Stage analysis: par times, the risk of every corner, and whether a rally is balanced.

``analyze(path)`` plays every stage of a design many times with a strong driver (solo, and with four cars
for the table's playing time) and returns a :class:`StageAnalysis` per stage plus the rally's warnings.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rallyc.analysis.report import RallyWarning, StageAnalysis, analyse_stage, rally_warnings
from rallyc.analysis.simulate import DriverKind, simulate

__all__ = ["Analysis", "DriverKind", "StageAnalysis", "RallyWarning", "analyze", "analyze_track"]


@dataclass
class Analysis:
    """Every analysed stage of one design, and the warnings across them."""

    design: str
    stages: list[StageAnalysis]
    warnings: list[RallyWarning]


def analyze_track(track, *, runs: int = 200, table_runs: int = 0, seed: int = 0, jobs: int = 1,
                  driver: DriverKind = DriverKind.strong, source: tuple[Path, str] | None = None) -> StageAnalysis:
    """The figures of one compiled stage: ``runs`` solo runs and ``table_runs`` four-car runs."""
    solo = simulate(track, runs, seed=seed, kind=driver, jobs=jobs, source=source)
    table = simulate(track, table_runs, seed=seed + 1, cars=4, kind=driver, jobs=jobs, source=source) \
        if table_runs else None
    return analyse_stage(track, solo, seed=seed, driver=driver.value, table=table)


def analyze(path: str | Path, *, stages: list[str] | None = None, runs: int = 200, table_runs: int = 20,
            seed: int = 0, jobs: int = 1, driver: DriverKind = DriverKind.strong) -> Analysis:
    """Analyse the stages of the design in ``path`` (all stages, or those named; RX circuits are not
    analysed yet: asking for one raises ValueError)."""
    import rallyc

    design = rallyc.load(str(path))
    names = stages or [t.name for t in design.tracks if t.kind == "stage"]
    out = []
    for name in names:
        track = design.track(name)
        if track.kind != "stage":
            raise ValueError(f"{name} is an RX circuit: analyze plays stages only (lap times are not analysed yet)")
        out.append(analyze_track(track, runs=runs, table_runs=table_runs, seed=seed, jobs=jobs, driver=driver,
                                 source=(Path(path), name)))
    return Analysis(design.title, out, rally_warnings(out))
