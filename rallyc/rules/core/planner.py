"""The dice plans of the player to move: :class:`Planner` (what a Stage and an RX Race share) and
Improvisation's re-plans of a half-rolled turn.

Both list the plans that the record validator accepts (:func:`rallyc.rules.core.plans.legal_plans`: the one
description of a legal die, :func:`~rallyc.rules.core.plans.check_die`'s).
"""

from __future__ import annotations

from typing import Iterator

from rallyc.rules.core.dice import Die
from rallyc.rules.core.plans import PlanContext, can_lay, check_die, legal_plans, start_walk

__all__ = ["Planner", "legal_replans"]


def legal_replans(ctx: PlanContext, done: list[Die] | tuple[Die, ...], max_dice: int | None = None
                  ) -> Iterator[tuple[Die, ...]]:
    """Improvisation (IMPROV-01..03): every legal way to lay the rest of a half-rolled turn whose dice ``done``
    have been rolled or secured (the new dice only, depth first, shorter before their extensions); ``done``
    itself must be a legal start of a plan (:class:`IllegalMove` otherwise). ``max_dice`` counts the whole
    plan, ``done`` included."""
    w = start_walk(ctx)
    for i, d in enumerate(done):
        _, w = check_die(ctx, w, d, f"dice[{i}]")
    yield from legal_plans(ctx, max_dice, after=w)


class Planner:
    """What a Stage and an RX Race share: the dice plans of the player to move, from their ``context``."""

    def context(self, name: str | None = None) -> tuple[PlanContext, bool]:  # pragma: no cover - abstract
        raise NotImplementedError

    def legal_plans(self, player: str | None = None, max_dice: int | None = None) -> Iterator[tuple[Die, ...]]:
        """Every legal dice plan of ``player``'s turn (the player to move by default), shortest first per branch
        (:func:`rallyc.rules.core.plans.legal_plans`)."""
        ctx, _ = self.context(player)
        return legal_plans(ctx, max_dice)

    def legal_replans(self, done: list[Die] | tuple[Die, ...], player: str | None = None,
                      max_dice: int | None = None) -> Iterator[tuple[Die, ...]]:
        """Improvisation: the legal re-plans of ``player``'s half-rolled turn after the dice ``done`` (the dice
        laid instead of those not yet rolled; :func:`legal_replans`)."""
        ctx, _ = self.context(player)
        return legal_replans(ctx, done, max_dice)

    def is_blocked(self, player: str | None = None) -> bool:
        """True when no die can be laid at all (CORE-MOVE-08/09/10, RX-TURNEND-01)."""
        ctx, _ = self.context(player)
        return not can_lay(ctx, start_walk(ctx))
