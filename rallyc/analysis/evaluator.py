"""The strong drivers' valuation of one turn: its expectation over the dice faces (:class:`TurnEvaluator`).

A turn is valued in the unit of the race (seconds on a stage, turns in an RX race): the Time card of the gear it
ends in plus the worth of the position it leaves (:meth:`TurnEvaluator.rest`, which a subclass gives), or, where
the Warnings reach the Dashboard limit or a road effect ends the movement, a Loss of Control's "0"-side card, its
likely damage and the restart from Gear 0. The search is an expectimax over the legal plans of the turn, memoised
per partial plan and Warnings so far.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rallyc.analysis.lookahead import RoadAhead
from rallyc.analysis.options import DiceOptions, Option, PlanState
from rallyc.rules.core.dice import Die, is_gear
from rallyc.rules.core.plans import PlanContext, Placed, warning_limit

if TYPE_CHECKING:  # pragma: no cover
    from rallyc.rules.core.stage import Stage

__all__ = ["TurnEvaluator", "Weights", "dice_count"]


@dataclass(frozen=True)
class Weights:
    """How the strong stage driver prices what its cost to go (:mod:`rallyc.analysis.costtogo`) does not value:
    Damage, and a position no die can leave (the first three, the linear estimate of
    :meth:`~rallyc.analysis.lookahead.RoadAhead.worth`)."""

    #: seconds a space still to drive is worth (about a Gear 4 card over five spaces)
    per_space: float = 3.2
    #: seconds saved next turn per gear carried into it
    momentum: float = 2.0
    #: seconds lost per gear above what the limits ahead allow (braking hard, or a forced Loss of Control)
    overspeed: float = 14.0
    #: seconds a Crash's Damage tokens cost on average over the rest of the stage
    damage: float = 12.0


def _warning_odds(faces: dict[str, int], die: Die) -> list[tuple[int, float]]:
    """The number of Warnings one laid die shows (a Brake or Boost pair rolls two dice), with its chance."""
    names = [die.die] + (["brake"] if die.brake else []) + (["boost"] if die.boost else [])
    dist = {0: 1.0}
    for name in names:
        p = faces.get(name, 1) / 6
        nxt: dict[int, float] = {}
        for k, q in dist.items():
            nxt[k] = nxt.get(k, 0.0) + q * (1 - p)
            nxt[k + 1] = nxt.get(k + 1, 0.0) + q * p
        dist = nxt
    return sorted(dist.items())


def dice_count(die: Die) -> int:
    """Dice a laid die rolls: a Brake or Boost pair is two (CORE-SECONDS-07, RX-DICE-04)."""
    return 1 + int(die.brake) + int(die.boost)


#: one legal next die with what rolling it needs: the option, the seconds of a Loss of Control on its space,
#: the Warning limit there, the chances of its Warnings, whether it jumps
_Prepared = tuple[Option, float, int, list[tuple[int, float]], int]


class TurnEvaluator:
    """Expected seconds of the turns of one context (memoised per partial plan and Warnings so far)."""

    #: what a Second token earned by a Flat Out is worth (seconds off the stage time, CORE-SECONDS-01)
    token_value = 1.0

    def __init__(self, stage: "Stage", ctx: PlanContext, ahead: RoadAhead | None, weights: Any,
                 options: DiceOptions | None = None) -> None:
        self.stage = stage
        self.ctx = ctx
        self.ahead = ahead
        self.w = weights
        comp = stage.components
        self.zero = float(comp.assumption("zero_side_seconds"))
        self.cards = {g: float(comp.time_card_seconds(g)) for g in range(1, 7)}
        self.faces = comp.warning_faces
        self.settled: dict[tuple[str, int], float] = {}
        self.odds: dict[tuple[str, bool, bool], list[tuple[int, float]]] = {}
        self.memo: dict[tuple[PlanState, int], tuple[float, Option | None]] = {}
        #: the legal next dice of each partial plan (the situation decides them, not where the turn starts)
        self.options = options or DiceOptions(ctx)
        self.prepared: dict[PlanState, list[_Prepared]] = {}
        self.spaces: dict[str, tuple[float, int]] = {}

    def card(self, gear: int) -> float:
        return self.cards.get(gear, self.zero)

    def settle(self, space: str, gear: int) -> float:
        """Seconds of ending the movement on ``space`` in ``gear``: the card and the road still ahead."""
        key = (space, gear)
        value = self.settled.get(key)
        if value is None:
            value = self.settled[key] = self.card(gear) + self.rest(space, gear)
        return value

    def rest(self, space: str, gear: int) -> float:
        """Estimated seconds still to drive after ending the movement on ``space`` in ``gear``."""
        if self.stage.index.spaces[space].past_finish:
            return 0.0
        assert self.ahead is not None
        return self.ahead.worth(space, gear, per_space=self.w.per_space, momentum=self.w.momentum,
                                overspeed=self.w.overspeed)

    def loss_of_control(self, space: str) -> float:
        """Seconds of a Loss of Control on ``space``: a "0" card, likely damage, a restart from Gear 0."""
        return self.zero + self.w.damage + self.settle(space, 0) - self.card(0)

    def warning_odds(self, placed: Placed) -> list[tuple[int, float]]:
        key = (placed.die.die, placed.die.brake, placed.die.boost)
        odds = self.odds.get(key)
        if odds is None:
            odds = self.odds[key] = _warning_odds(self.faces, placed.die)
        return odds

    def next_dice(self, st: PlanState) -> list[_Prepared]:
        """The legal next dice after ``st``, each with what :meth:`best` needs to roll it (once per state)."""
        got = self.prepared.get(st)
        if got is None:
            got = self.prepared[st] = [(opt, *self.on_space(opt.placed.space), self.warning_odds(opt.placed),
                                        opt.placed.jump) for opt in self.options(st)]
        return got

    def on_space(self, space: str) -> tuple[float, int]:
        """The seconds of a Loss of Control on ``space`` and its Warning limit (once per space: both depend on the
        situation alone)."""
        got = self.spaces.get(space)
        if got is None:
            got = self.spaces[space] = (self.loss_of_control(space), warning_limit(self.ctx, space))
        return got

    def roll(self, opt: Option, warnings: int, onward) -> float:
        """Expected seconds of rolling ``opt``'s die with ``warnings`` so far, ``onward(state, w)`` after it."""
        placed = opt.placed
        if opt.ended:  # a road effect makes this die a certain Loss of Control
            return self.loss_of_control(placed.space)
        limit = warning_limit(self.ctx, placed.space)
        total = 0.0
        for k, p in self.warning_odds(placed):
            w = warnings + k
            if w >= limit or (k and placed.jump):
                total += p * self.loss_of_control(placed.space)
            else:
                total += p * onward(opt.state, w)
        return total

    def best(self, st: PlanState, warnings: int) -> tuple[float, Option | None]:
        """The least expected seconds from a partial plan, free to stop here (None) or lay another die.

        The sums are :meth:`roll`'s, term by term in the same order (the same floating-point results). The memo is
        read before recursing: most partial plans after a die were valued before (a call less each)."""
        memo = self.memo
        key = (st, warnings)
        hit = memo.get(key)
        if hit is not None:
            return hit
        value_best = self.settle(st.pos, st.gear) if st.n else float("inf")
        step: Option | None = None
        for opt, loc, limit, odds, jump in self.next_dice(st):
            if opt.ended:
                value = loc
            else:
                value = 0.0
                after = opt.state
                for k, p in odds:
                    w = warnings + k
                    if w >= limit or (k and jump):
                        value += p * loc
                    else:
                        hit = memo.get((after, w))
                        value += p * (hit if hit is not None else self.best(after, w))[0]
            if value < value_best - 1e-9:
                value_best, step = value, opt
        got = memo[key] = (value_best, step)
        return got

    def plan(self) -> list[Option]:
        """The plan laid, die by die with the partial plan after it: the best path assuming no Warning shows
        (the likeliest way the turn unfolds)."""
        return self.plan_from(self.options.start(self.ctx))

    def plan_from(self, st: PlanState) -> list[Option]:
        """The plan laid from the partial plan ``st`` (a turn's start: where it starts, in which gear)."""
        out: list[Option] = []
        while True:
            _, step = self.best(st, 0)
            if step is None:
                return out
            out.append(step)
            if step.ended:  # a certain Loss of Control (worth it in a race): no die may follow it (CORE-LOC-02)
                return out
            st = step.state

    def one_by_one(self, plan: list[Option], start: int = 0, warnings: int = 0) -> tuple[float, bool]:
        """Expected seconds of rolling ``plan`` one by one from die ``start`` with ``warnings`` so far,
        stopping where best; and whether rolling die ``start`` beats stopping before it."""
        memo: dict[tuple[int, int], float] = {}

        def stop(i: int) -> float:
            return self.settle(plan[i - 1].placed.space, plan[i - 1].placed.gear) if i else float("inf")

        def go(i: int, w: int) -> float:
            if i >= len(plan):
                return float("inf")
            return self.roll(plan[i], w, lambda _n, w2: value(i + 1, w2))

        def value(i: int, w: int) -> float:
            if (i, w) not in memo:
                memo[(i, w)] = min(stop(i), go(i, w))
            return memo[(i, w)]

        rolling, stopping = go(start, warnings), stop(start)
        del go, value  # they refer to each other: a cycle holding this evaluator until the cyclic collector came
        return min(rolling, stopping), rolling < stopping

    def flat_out(self, plan: list[Option]) -> float:
        """Expected seconds of rolling the whole plan at once (CORE-ROLL-10..12, CORE-SECONDS-01)."""
        if any(o.placed.jump or o.ended for o in plan):
            return float("inf")  # a jump or a certain road effect: never worth it
        dist = {0: 1.0}
        for o in plan:
            nxt: dict[int, float] = {}
            for w, q in dist.items():
                for k, p in self.warning_odds(o.placed):
                    nxt[w + k] = nxt.get(w + k, 0.0) + q * p
            dist = nxt
        limit = min(warning_limit(self.ctx, o.placed.space) for o in plan)
        ok = sum(q for w, q in dist.items() if w < limit)
        tokens = sum(1 for o in plan if is_gear(o.placed.die.die) or o.placed.coast)
        end = plan[-1].placed
        fail = self.loss_of_control(plan[len(plan) // 2].placed.space)
        return ok * self.settle(end.space, end.gear) + (1 - ok) * fail - tokens * self.token_value
