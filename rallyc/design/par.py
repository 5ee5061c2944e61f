"""A candidate stage compiled and timed: a quick par while searching, analyze's par for the last word.

The par is what ``rallyc analyze`` reports (``docs/analyze.md``): the median stage time of the strong
driver's solo runs, seed 0, 200 runs (analyze's defaults). The quick measure plays the first
:data:`QUICK_RUNS` of those same runs, so it is an early look at the same figure, and it says where the
time goes (seconds per route step).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from rallyc.analysis.report import par_figures
from rallyc.analysis.load import TrackSource
from rallyc.analysis.simulate import DriverKind, RunProgress, simulate
from rallyc.compilation import compile_paused
from rallyc.compiler import Design, Track
from rallyc.diagnostics import Diagnostic, has_errors
from rallyc.project import load_text

__all__ = ["Timing", "compile_text", "time_track", "QUICK_RUNS", "FULL_RUNS", "PAR_SEED"]

#: runs of a quick measure (the search); runs and seed of the final one (analyze's defaults)
QUICK_RUNS = 24
FULL_RUNS = 200
PAR_SEED = 0


@dataclass(frozen=True)
class Timing:
    """A par and the mean seconds each route step (1-based) took in the runs that measured it."""

    par: float | None
    runs: int
    step_seconds: dict[int, float]


def compile_text(text: str, display: str, base_dir: Path) -> tuple[Design | None, list[Diagnostic]]:
    """The first design of a text and every diagnostic ``rallyc check`` gives it (no design when there are
    errors)."""
    loaded = load_text(text, display, base_dir=base_dir)
    diags = list(loaded.diagnostics)
    if has_errors(diags):
        return None, diags
    result = compile_paused(loaded)
    diags += result.diagnostics
    if has_errors(diags) or not result.designs:
        return None, diags
    return result.designs[0], diags


def time_track(track: Track, runs: int, *, jobs: int = 1, source: TrackSource | None = None,
               cluster: str | None = None, progress: RunProgress | None = None) -> Timing:
    """The strong driver's par of ``runs`` runs of seed :data:`PAR_SEED` (runs 0 to ``runs`` - 1), spread over
    ``jobs`` processes or a Dask ``cluster`` (compiling ``source`` again; the same par)."""
    played = simulate(track, runs, seed=PAR_SEED, kind=DriverKind.strong, jobs=jobs, source=source, cluster=cluster,
                      progress=progress)
    par = par_figures(played)[0]
    steps: dict[int, float] = {}
    for run in played:
        for step, seconds in run.step_seconds.items():
            steps[step] = steps.get(step, 0.0) + seconds / len(played)
    return Timing(par, runs, steps)


def within(par: float | None, target: float, tolerance: float) -> bool:
    """``par`` lies within ``tolerance`` (a share) of ``target``."""
    return par is not None and abs(par - target) <= tolerance * target


def share_off(par: float | None, target: float) -> float:
    """How far ``par`` is from ``target``, as a share of it (infinite for no par)."""
    return float("inf") if par is None else abs(par - target) / target


def no_errors(diags: Sequence[Diagnostic]) -> bool:
    return not has_errors(list(diags))
