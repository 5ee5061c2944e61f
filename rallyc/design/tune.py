"""Tune a grown stage toward a par time: swap one tile for another that lies the same way.

A swap keeps the geometry: the new piece enters where the old one did and leaves by the same world edge,
so every later tile stays where it is. It must join the lanes on both sides, have a copy left, and keep
every feature asked for. Which swaps are tried is chosen by the seconds each piece has cost so far
(:class:`~rallyc.design.model.TileSeconds`); the measure decides.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Callable

from rallyc.design.grow import Laid, exit_of
from rallyc.design.model import TileSeconds
from rallyc.design.pieces import Piece
from rallyc.geometry.hexgrid import opposite
from rallyc.suggest import lanes_join

__all__ = ["Swap", "swaps", "steer", "predictor", "apply_swap", "texts"]


@dataclass(frozen=True)
class Swap:
    """Put ``new`` on route step ``step`` (0-based index into the laid pieces)."""

    step: int
    new: Laid

    def slowness_change(self, laid: list[Laid]) -> int:
        return self.new.piece.slowness - laid[self.step].piece.slowness


def swaps(laid: list[Laid], middle: list[Piece], copies: dict[str, int], features: frozenset[str]) -> list[Swap]:
    """Every swap of a middle tile (not the start, finish or Assistance tile) that keeps the stage legal."""
    used = Counter(lp.piece.number for lp in laid)
    out = []
    for i in range(1, len(laid)):
        old = laid[i]
        if old.piece.role != "road":
            continue
        entry = opposite(laid[i - 1].exit_world)  # type: ignore[arg-type]
        others = frozenset().union(*(lp.piece.features for j, lp in enumerate(laid) if j != i))
        for piece in middle:
            if piece.text == old.piece.text:
                continue
            if piece.number != old.piece.number and used[piece.number] >= copies.get(piece.number, 1):
                continue
            if (features - others) - piece.features:
                continue
            new = exit_of(piece, old.cell, entry)
            if new.exit_world != old.exit_world:
                continue
            if not lanes_join(laid[i - 1].piece.exit_lanes, piece.entry_lanes):
                continue
            if i + 1 < len(laid) and not lanes_join(piece.exit_lanes, laid[i + 1].piece.entry_lanes):
                continue
            out.append(Swap(i, new))
    return out


def steer(laid: list[Laid], target: float, model: TileSeconds, options: Callable[[list[Laid]], list[Swap]],
          tried: set[tuple[str, ...]], tolerance: float, measured: float | None = None) -> list[Laid] | None:
    """Swaps, one at a time, each the one whose predicted par comes nearest to ``target``, while that brings it
    nearer (and until within ``tolerance``, a share); a stage already tried is never returned (then the nearest
    single swap not tried yet). None when there is no swap left to try.

    ``measured``: the par measured on ``laid``; a swapped stage is then predicted from it by the model's
    difference (:func:`predictor`)."""
    predict = predictor(laid, model, measured)

    def off(stage: list[Laid]) -> float:
        return abs(predict(stage) - target)

    current = laid
    for _ in range(len(laid)):
        if off(current) <= tolerance * target:
            break
        moves = [apply_swap(current, s) for s in options(current)]
        best = min(moves, key=off, default=None)
        if best is None or off(best) >= off(current):
            break
        current = best
    if texts(current) not in tried:
        return current
    fresh = [m for m in (apply_swap(laid, s) for s in options(laid)) if texts(m) not in tried]
    return min(fresh, key=off, default=None)


def predictor(laid: list[Laid], model: TileSeconds, measured: float | None) -> Callable[[list[Laid]], float]:
    """The predicted par of stages swapped from ``laid``: the model's, or with ``measured`` (the par of ``laid``)
    that par plus the model's difference between the two stages. What the model misprices in ``laid`` (a tile's
    seconds next to its neighbours, the ratio of par to summed seconds) is then mispriced alike in both and
    cancels: only the tiles swapped are priced."""
    if measured is None:
        return model.par
    offset = measured - model.par(laid)
    return lambda stage: model.par(stage) + offset


def apply_swap(laid: list[Laid], swap: Swap) -> list[Laid]:
    return laid[:swap.step] + [swap.new] + laid[swap.step + 1:]


def texts(laid: list[Laid]) -> tuple[str, ...]:
    """The stage's steps as written: what tells two designs apart."""
    return tuple(lp.piece.text for lp in laid)
