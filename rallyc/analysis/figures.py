"""The statistics every analysis reads its runs with, a stage's (:mod:`rallyc.analysis.report`, times in seconds) or a
circuit's (:mod:`rallyc.analysis.circuit_report`, times in turns): the median time and its error, the 10% and 90%
quantiles, another driver's runs against the analysed ones, shares as percentages, figures rounded for JSON. The two
reports differ only by what a time is; these work on the times alone."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Any

__all__ = ["DriverComparison", "percent", "rounded", "quantile", "median_figures", "compare_figures"]


@dataclass(frozen=True)
class DriverComparison:
    """The same solo runs (same seeds) driven by another driver, and what the analysed driver gains on it."""

    driver: str
    par: float | None
    par_error: float | None
    p10: float | None
    p90: float | None
    finished: float
    clean: float
    #: the other driver's par minus the analysed driver's (seconds; positive: the analysed driver is faster)
    gain: float | None
    #: the gain's 95% error (the two pars' errors combined)
    gain_error: float | None
    #: the gain as a share of the other driver's par
    gain_share: float | None


def percent(share: float) -> str:
    """A share of runs as a whole percentage; a share that is neither none nor all never reads 0% or 100%
    (one Loss of Control in 200 runs is 0.5%, not 0%)."""
    text = f"{share:.0%}"
    if (text == "0%" and share > 0) or (text == "100%" and share < 1):
        text = f"{share:.1%}"
        if text in ("0.0%", "100.0%"):
            text = "<0.1%" if share < 0.5 else ">99.9%"
    return text


def rounded(value: Any) -> Any:
    """JSON data with its floats rounded to 3 digits and its keys made strings."""
    if isinstance(value, float):
        return round(value, 3)
    if isinstance(value, dict):
        return {str(k): rounded(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [rounded(v) for v in value]
    return value


def quantile(sorted_values: list[int], q: float) -> float:
    """The ``q`` quantile of sorted values, interpolated (NaN without values)."""
    if not sorted_values:
        return math.nan
    pos = (len(sorted_values) - 1) * q
    lo, hi = math.floor(pos), math.ceil(pos)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def median_figures(times: list[int]) -> tuple[float | None, float | None, float | None, float | None]:
    """(median, its 95% error, 10% and 90% quantiles) of the sorted ``times`` of the runs that finished (the error
    by the normal approximation of the median's, None with fewer than two times; all None without any)."""
    if not times:
        return None, None, None, None
    err = 1.96 * 1.2533 * statistics.stdev(times) / math.sqrt(len(times)) if len(times) > 1 else None
    return statistics.median(times), err, quantile(times, 0.1), quantile(times, 0.9)


def compare_figures(driver: str, par: float | None, par_error: float | None, times: list[int], finished: int,
                    clean: int, runs: int) -> DriverComparison:
    """Another ``driver``'s ``runs`` (the sorted ``times`` of those that finished; ``finished`` and ``clean``: how
    many finished, and without a Loss of Control) against the analysed median ``par`` and its error."""
    other, err, p10, p90 = median_figures(times)
    n = max(1, runs)
    gain = None if par is None or other is None else other - par
    gain_error = None if gain is None or err is None or par_error is None else math.hypot(err, par_error)
    return DriverComparison(driver, other, err, p10, p90, finished / n, clean / n, gain, gain_error,
                            None if gain is None or not other else gain / other)
