"""A candidate stage compiled and timed: a quick measure while searching, analyze's par for the last word.

The par is what ``rallyc analyze`` reports (``docs/analyze.md``): the median stage time of the strong
driver's solo runs, seed 0, 200 runs (analyze's defaults). The quick measure plays the first
:data:`QUICK_RUNS` of those same runs, and says where the time goes (seconds per route step). Its *mean* stage
time, not its median, is what predicts the par: stage times are sums of whole Time cards, so a median of few
runs jumps from card to card (on sixteen published stages the median of the first 24 runs was off the par by
3%, one standard deviation, and 4% low on average; the mean of the first 50 runs by 2%, at a steady ratio, which
:class:`~rallyc.design.model.QuickToFull` learns).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from rallyc.analysis.report import par_figures
from rallyc.analysis.load import TrackSource
from rallyc.analysis.simulate import DriverKind, RunProgress, simulate
from rallyc.compilation.compiled import compile_paused
from rallyc.compiler import Design, Track
from rallyc.diagnostics import Diagnostic, has_errors
from rallyc.project.loader import load_text

__all__ = ["Timing", "compile_text", "time_track", "QUICK_RUNS", "FULL_RUNS", "PAR_SEED"]

#: runs of a quick measure (the search); runs and seed of the final one (analyze's defaults)
QUICK_RUNS = 50
FULL_RUNS = 200
PAR_SEED = 0


@dataclass(frozen=True)
class Timing:
    """A par, the mean stage time and the mean seconds each route step (1-based) took in the runs that measured
    it (the times of the runs that finished)."""

    par: float | None
    runs: int
    step_seconds: dict[int, float]
    mean: float | None = None


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
    times = [run.seconds for run in played if run.seconds is not None]
    return Timing(par, runs, steps, sum(times) / len(times) if times else None)


def within(par: float | None, target: float, tolerance: float) -> bool:
    """``par`` lies within ``tolerance`` (a share) of ``target``."""
    return par is not None and abs(par - target) <= tolerance * target


def share_off(par: float | None, target: float) -> float:
    """How far ``par`` is from ``target``, as a share of it (infinite for no par)."""
    return float("inf") if par is None else abs(par - target) / target


def no_errors(diags: Sequence[Diagnostic]) -> bool:
    return not has_errors(list(diags))
