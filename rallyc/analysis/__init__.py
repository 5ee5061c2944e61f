"""Stage analysis: par times, the risk of every corner, and whether a rally is balanced.

``analyze(path)`` plays every stage of a design many times with a strong driver (solo, and with four cars
for the table's playing time) and returns a :class:`StageAnalysis` per stage plus the rally's warnings, and
races every RX circuit (:class:`~rallyc.analysis.circuit_report.CircuitAnalysis`: lap times, the Joker's cost by
lap, the grid places).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from rallyc.analysis.report import RallyWarning, StageAnalysis, analyse_stage, rally_warnings
from rallyc.analysis.circuit_report import CircuitAnalysis, analyze_circuit
from rallyc.analysis.simulate import DriverKind, RunProgress, simulate
from rallyc.compilation.compiled import load_design

__all__ = ["Analysis", "DriverKind", "StageAnalysis", "RallyWarning", "analyze", "analyze_track"]


@dataclass
class Analysis:
    """Every analysed stage and RX circuit of one design, and the warnings across the stages."""

    design: str
    stages: list[StageAnalysis]
    warnings: list[RallyWarning]
    circuits: list["CircuitAnalysis"] = field(default_factory=list)


def analyze_track(track, *, runs: int = 200, table_runs: int = 0, seed: int = 0, jobs: int = 1,
                  driver: DriverKind = DriverKind.strong, source: tuple[Path, str] | None = None,
                  against: DriverKind | None = None, cluster: str | None = None,
                  progress: RunProgress | None = None) -> StageAnalysis:
    """The figures of one compiled stage: ``runs`` solo runs and ``table_runs`` four-car runs; with ``against``
    (another driver), the same solo runs (same seeds) by that driver too, and what ``driver`` gains on it. The runs
    are spread over ``jobs`` processes or a Dask ``cluster`` (the same figures); ``progress(done, total)`` hears of
    the runs as they come back."""
    total = runs + table_runs + (runs if against is not None and against is not driver else 0)
    base = 0

    def part(done: int, _size: int) -> None:
        if progress is not None:
            progress(base + done, total)

    play = partial(simulate, track, jobs=jobs, source=source, cluster=cluster,
                   progress=None if progress is None else part)  # without progress, no small tasks for it
    solo = play(runs, seed=seed, kind=driver)
    base += runs
    table = play(table_runs, seed=seed + 1, cars=4, kind=driver) if table_runs else None
    base += table_runs
    other = (against.value, play(runs, seed=seed, kind=against)) \
        if against is not None and against is not driver else None
    return analyse_stage(track, solo, seed=seed, driver=driver.value, table=table, against=other)


def analyze(path: str | Path, *, stages: list[str] | None = None, runs: int = 200, table_runs: int = 20,
            seed: int = 0, jobs: int = 1, driver: DriverKind = DriverKind.strong, circuit_runs: int = 40,
            circuit_table_runs: int = 8, against: DriverKind | None = DriverKind.greedy,
            cluster: str | None = None) -> Analysis:
    """Analyse the stages and RX circuits of the design in ``path`` (all of them, or those named): ``runs`` /
    ``table_runs`` per stage, ``circuit_runs`` / ``circuit_table_runs`` per circuit, each stage's solo runs driven
    by ``against`` too (the command's defaults); the runs spread over ``jobs`` processes or a Dask ``cluster``
    (the same figures); an unknown name raises KeyError."""
    design = load_design(path)
    names = stages or [t.name for t in design.tracks if t.kind in ("stage", "circuit")]
    out, circuits = [], []
    for name in names:
        track = design.track(name)
        if track.kind == "circuit":
            circuits.append(analyze_circuit(track, runs=circuit_runs, table_runs=circuit_table_runs, seed=seed,
                                            jobs=jobs, driver=driver, source=(Path(path), name),
                                            design_options=design.options, against=against, cluster=cluster))
            continue
        out.append(analyze_track(track, runs=runs, table_runs=table_runs, seed=seed, jobs=jobs, driver=driver,
                                 source=(Path(path), name), against=against, cluster=cluster))
    return Analysis(design.title, out, rally_warnings(out), circuits)
