"""The legal next dice of a partial plan, for the drivers: the plan enumerator's tables, as ``Placed`` dice.

:func:`rallyc.rules.plans.die_options` lays every candidate die through the record validator (with its
error messages) each time it is asked; a driver asks it hundreds of thousands of times per simulation. This
module answers from :class:`~rallyc.rules.enumerate.PlanEnumerator` (the same dice, in the same order:
``tests/test_rules_enumerate.py``), computed once per partial plan and planning situation.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from rallyc.rules.enumerate import PlanEnumerator, PlanState
from rallyc.rules.plans import PlanContext, Placed

__all__ = ["DiceOptions", "Option", "PlanState", "plan_situation"]


class Option(NamedTuple):
    """One legal next die: where it takes the car, the partial plan after it, and whether it is a certain Loss
    of Control (over a limit, a jump too fast: no die may follow it)."""

    placed: Placed
    state: PlanState
    ended: bool


class DiceOptions:
    """The legal next dice of every partial plan of one planning situation (a context's dice, limits, the
    cars in the way); the answers do not depend on where the turn started."""

    def __init__(self, ctx: PlanContext) -> None:
        self.enumerator = PlanEnumerator(ctx)
        self._memo: dict[PlanState, list[Option]] = {}

    @staticmethod
    def start(ctx: PlanContext) -> PlanState:
        """The partial plan before the first die of ``ctx``'s turn."""
        return PlanState(ctx.start, ctx.gear, 0, 0, 0, 0, 0, 0)

    def __call__(self, st: PlanState) -> list[Option]:
        got = self._memo.get(st)
        if got is None:
            got = self._memo[st] = self._compute(st)
        return got

    def _compute(self, st: PlanState) -> list[Option]:
        jumps = self.enumerator.jump
        out = []
        for die, nst, ended in self.enumerator.options(st):
            gear = nst.gear
            v = gear if die.die.startswith("gear") else 0
            jump, jump_loc = 0, False
            if die.land is not None:
                jg = jumps[die.to]
                jump, jump_loc = (1 if gear == jg else 2), gear >= jg + 2
            flying = bool(v) and st.gear == 0 and gear == 2 and not die.brake and not die.boost
            out.append(Option(Placed(die, nst.pos, gear, jump, jump_loc, flying, not v), nst, ended))
        return out


def plan_situation(stage: Any, ctx: PlanContext) -> tuple:
    """What decides which dice may follow a partial plan, apart from where the turn starts (``stage``: a Stage or
    an RX Race): the track (as
    flipped), the dice and limits of the car, who is in the way, the -1 tokens and, in an RX race, the spaces
    barred to the car (a Joker already driven, the Pre-grid left) and the Yellow Flag's spaces."""
    return (id(stage.index), ctx.allowance, tuple(sorted(ctx.limits.items())),
            tuple(sorted(ctx.allowances.items())), tuple(sorted(ctx.others.items())),
            tuple(sorted(ctx.minus1.items())), ctx.limit_floor, ctx.handbrake, tuple(sorted(ctx.barred)),
            ctx.no_alongside, ctx.alongside_before_flag)
