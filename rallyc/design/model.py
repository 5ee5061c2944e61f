"""What a tile costs: the seconds each piece took in the stages measured so far, to steer the search.

Every measure says how many seconds the runs spent on each route step (the analysis spreads each turn's
Time card over the spaces it drove). The model keeps, per piece, the mean of what it cost where it was
measured, and for a piece not measured yet a straight line through the measured ones' slowness. A stage's
predicted par is the sum over its pieces, scaled by how the measured pars compared with such sums (the par
is a median, the step seconds are means). It only chooses what to measure next: the measure decides.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from rallyc.design.grow import Laid
from rallyc.design.par import Timing
from rallyc.design.pieces import Piece

__all__ = ["TileSeconds", "QuickToFull"]

#: before any measure: seconds of a piece with no slowness, and per slowness point
_BASE = 9.0
_PER_POINT = 1.0


@dataclass
class TileSeconds:
    """Measured seconds per piece (see the module docstring)."""

    #: piece text -> (its slowness, the seconds it took in each measure)
    seen: dict[str, tuple[int, list[float]]] = field(default_factory=dict)
    #: measured par over the sum of step seconds, per measure
    ratios: list[float] = field(default_factory=list)
    base: float = _BASE
    per_point: float = _PER_POINT

    def learn(self, laid: Sequence[Laid], timing: Timing, par: float | None = None) -> None:
        """Take in one measure of the stage ``laid``; ``par``: the full measure's par it stands for (a quick
        measure's prediction, :class:`QuickToFull`; default the measure's own)."""
        par = timing.par if par is None else par
        if par is None:
            return
        total = 0.0
        for step, lp in enumerate(laid, start=1):
            seconds = timing.step_seconds.get(step, 0.0)
            total += seconds
            self.seen.setdefault(lp.piece.text, (lp.piece.slowness, []))[1].append(seconds)
        if total > 0:
            self.ratios.append(par / total)
        self._fit()

    def _fit(self) -> None:
        """The least-squares line of seconds against slowness over the measured pieces."""
        points = [(float(slow), sum(s) / len(s)) for slow, s in self.seen.values()]
        if len({x for x, _ in points}) < 2:
            return
        n = len(points)
        mx = sum(x for x, _ in points) / n
        my = sum(y for _, y in points) / n
        slope = sum((x - mx) * (y - my) for x, y in points) / sum((x - mx) ** 2 for x, _ in points)
        self.per_point = max(slope, 0.2)
        self.base = my - self.per_point * mx

    def seconds(self, piece: Piece) -> float:
        """The seconds ``piece`` is expected to cost."""
        measured = self.seen.get(piece.text)
        if measured:
            return sum(measured[1]) / len(measured[1])
        return max(self.base + self.per_point * piece.slowness, 1.0)

    def par(self, laid: Sequence[Laid]) -> float:
        """The predicted par of a stage."""
        ratio = sum(self.ratios) / len(self.ratios) if self.ratios else 1.0
        return ratio * sum(self.seconds(lp.piece) for lp in laid)


@dataclass
class QuickToFull:
    """The full measure's par as a share of the quick measure's mean stage time, on the stages measured both ways
    so far: what turns a quick measure into the par it predicts (:mod:`rallyc.design.par`; 1 before any full
    measure). The par is a median a little below the mean, at a ratio that varied by 2% (one standard deviation)
    over sixteen published stages."""

    ratios: list[float] = field(default_factory=list)

    def learn(self, quick: Timing, full: Timing) -> None:
        """Take in the quick and the full measure of one stage."""
        if quick.mean and full.par:
            self.ratios.append(full.par / quick.mean)

    def full(self, quick: Timing) -> float | None:
        """The full par a quick measure predicts."""
        if quick.mean is None:
            return None
        return quick.mean * (sum(self.ratios) / len(self.ratios) if self.ratios else 1.0)
