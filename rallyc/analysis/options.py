"""The legal next dice of a partial plan, for the drivers: :func:`rallyc.rules.core.plans.die_options` (the record
validator's dice, in its order), kept once per partial plan and planning situation.

A driver asks for the next dice of the same partial plans hundreds of thousands of times per simulation; the
answers depend on the planning situation alone (:func:`plan_situation`), not on where the turn started.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, NamedTuple

from rallyc.rules.core.plans import OptionTable, PlanContext, Placed, Walk, die_options, start_walk

__all__ = ["DiceOptions", "Option", "PlanState", "plan_situation", "road_situation"]

#: a partial plan as the drivers key it: the validator's :class:`~rallyc.rules.core.plans.Walk` (the name is kept from
#: when the drivers had a plan walker of their own)
PlanState = Walk


class Option(NamedTuple):
    """One legal next die: where it takes the car, the partial plan after it, and whether it is a certain Loss
    of Control (over a limit, a jump too fast: no die may follow it)."""

    placed: Placed
    state: Walk
    ended: bool


class DiceOptions:
    """The legal next dice of every partial plan of one planning situation (a context's dice, limits, the
    cars in the way); the answers do not depend on where the turn started. The drivers push no car (Full
    Contact): a car in the way blocks the die. ``table``: how dice enter the road, shared by the situations of one
    :func:`road_situation` (a new one by default)."""

    def __init__(self, ctx: PlanContext, table: OptionTable | None = None) -> None:
        self.ctx = ctx if ctx.contact is None else replace(ctx, contact=None)
        self._memo: dict[Walk, list[Option]] = {}
        self.table = table if table is not None else OptionTable()

    @staticmethod
    def start(ctx: PlanContext) -> Walk:
        """The partial plan before the first die of ``ctx``'s turn."""
        return start_walk(ctx)

    def __call__(self, st: Walk) -> list[Option]:
        got = self._memo.get(st)
        if got is None:
            got = self._memo[st] = [Option(p, w, w.ended is not None)
                                    for p, w in die_options(self.ctx, st, self.table)]
        return got


def plan_situation(stage: Any, ctx: PlanContext) -> tuple:
    """What decides which dice may follow a partial plan, apart from where the turn starts (``stage``: a Stage or
    an RX Race): the track (as
    flipped), the dice and limits of the car, who is in the way, the -1 tokens and, in an RX race, the spaces
    barred to the car (a Joker already driven, the Pre-grid left) and the Yellow Flag's spaces."""
    return (id(stage.index), ctx.allowance, tuple(sorted(ctx.limits.items())),
            tuple(sorted(ctx.allowances.items())), tuple(sorted(ctx.others.items())),
            tuple(sorted(ctx.minus1.items())), ctx.limit_floor, ctx.handbrake, tuple(sorted(ctx.barred)),
            ctx.no_alongside, ctx.alongside_before_flag)


def road_situation(stage: Any, ctx: PlanContext) -> tuple:
    """What decides how a die the Dashboard allows enters the road (the answers of an
    :class:`~rallyc.rules.core.plans.OptionTable`, which key the dice allowed): :func:`plan_situation` without the
    Dashboard (the allowance and Warning limits, which Damage lowers), with the options that change an entry. The
    situations of a damaged and an undamaged car on the same road share it."""
    return (id(stage.index), tuple(sorted(ctx.others.items())), tuple(sorted(ctx.minus1.items())), ctx.limit_floor,
            ctx.handbrake, tuple(sorted(ctx.barred)), ctx.no_alongside, ctx.alongside_before_flag, ctx.ignore_water,
            ctx.jump_landing_limit, ctx.haybale_chicane)
