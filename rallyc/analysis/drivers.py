"""Drivers that play to win: a greedy one ("highest safe gear") and a strong one (expectimax over the plan).

Both are drivers in the sense of :mod:`rallyc.rules.bot`: the referee asks them for the turn (the dice
laid, one by one or Flat Out) and, while rolling one by one, whether to roll the next die or stop. Chance
(die faces, Time-card backs, Damage tokens) is drawn from their seeded random stream exactly as the
random bot draws it, so a game played by them replays like any other record.

The strong driver values a position by the seconds still to drive (:class:`RoadAhead.worth`) and a turn
by its expectation over the dice faces: the Time card of the gear it ends in, plus a Loss of Control's
"0"-side card and the restart from Gear 0 where the Warnings reach the Dashboard limit. It lays the plan
that is best when the player keeps the option to stop before any die (CORE-ROLL-06), then, die by die,
rolls on only while rolling is worth more than stopping. Flat Out is taken when its Second tokens
(CORE-SECONDS-01) outweigh the risk of rolling everything at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rallyc.analysis.lookahead import RoadAhead, road_ahead
from rallyc.rules.bot import RandomBot
from rallyc.rules.dice import Die, is_gear
from rallyc.rules.plans import PlanContext, Placed, Walk, die_options, start_walk, warning_limit
from rallyc.rules.turn import Roll, Turn

if TYPE_CHECKING:  # pragma: no cover
    from rallyc.rules.stage import Stage

__all__ = ["GreedyDriver", "StrongDriver", "Weights"]


@dataclass(frozen=True)
class Weights:
    """How the strong driver prices a position (seconds)."""

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


def _dice_count(placed: Placed) -> int:
    return 1 + int(placed.die.brake) + int(placed.die.boost)


class _Evaluator:
    """Expected seconds of the turns of one context (memoised per partial plan and Warnings so far)."""

    def __init__(self, stage: "Stage", ctx: PlanContext, ahead: RoadAhead, weights: Weights) -> None:
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
        self.memo: dict[tuple[Walk, int], tuple[float, tuple[Placed, Walk] | None]] = {}
        self.options: dict[Walk, list[tuple[Placed, Walk]]] = {}

    def card(self, gear: int) -> float:
        return self.cards.get(gear, self.zero)

    def settle(self, space: str, gear: int) -> float:
        """Seconds of ending the movement on ``space`` in ``gear``: the card and the road still ahead."""
        key = (space, gear)
        value = self.settled.get(key)
        if value is None:
            sp = self.stage.index.spaces[space]
            rest = 0.0 if sp.past_finish else self.ahead.worth(space, gear, per_space=self.w.per_space,
                                                                  momentum=self.w.momentum, overspeed=self.w.overspeed)
            value = self.settled[key] = self.card(gear) + rest
        return value

    def loss_of_control(self, space: str) -> float:
        """Seconds of a Loss of Control on ``space``: a "0" card, likely damage, a restart from Gear 0."""
        return self.zero + self.w.damage + self.settle(space, 0) - self.card(0)

    def warning_odds(self, placed: Placed) -> list[tuple[int, float]]:
        key = (placed.die.die, placed.die.brake, placed.die.boost)
        odds = self.odds.get(key)
        if odds is None:
            odds = self.odds[key] = _warning_odds(self.faces, placed.die)
        return odds

    def next_dice(self, walk: Walk) -> list[tuple[Placed, Walk]]:
        opts = self.options.get(walk)
        if opts is None:
            opts = die_options(self.ctx, walk)
            self.options[walk] = opts
        return opts

    def roll(self, placed: Placed, nxt: Walk, warnings: int, onward) -> float:
        """Expected seconds of rolling ``placed`` with ``warnings`` so far, ``onward(nxt, w)`` after it."""
        if nxt.ended:  # a road effect makes this die a certain Loss of Control
            return self.loss_of_control(placed.space)
        limit = warning_limit(self.ctx, placed.space)
        total = 0.0
        for k, p in self.warning_odds(placed):
            w = warnings + k
            if w >= limit or (k and placed.jump):
                total += p * self.loss_of_control(placed.space)
            else:
                total += p * onward(nxt, w)
        return total

    def best(self, walk: Walk, warnings: int) -> tuple[float, tuple[Placed, Walk] | None]:
        """The least expected seconds from a partial plan, free to stop here (None) or lay another die."""
        key = (walk, warnings)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        best: tuple[float, tuple[Placed, Walk] | None] = (float("inf"), None)
        if walk.n:
            best = (self.settle(walk.pos, walk.gear), None)
        for placed, nxt in self.next_dice(walk):
            value = self.roll(placed, nxt, warnings, lambda n, w: self.best(n, w)[0])
            if value < best[0] - 1e-9:
                best = (value, (placed, nxt))
        self.memo[key] = best
        return best

    def plan(self) -> list[tuple[Placed, Walk]]:
        """The plan laid, die by die with the partial plan after it: the best path assuming no Warning shows
        (the likeliest way the turn unfolds)."""
        walk = start_walk(self.ctx)
        out: list[tuple[Placed, Walk]] = []
        while True:
            _, step = self.best(walk, 0)
            if step is None:
                return out
            out.append(step)
            walk = step[1]

    def one_by_one(self, plan: list[tuple[Placed, Walk]], start: int = 0, warnings: int = 0) -> tuple[float, bool]:
        """Expected seconds of rolling ``plan`` one by one from die ``start`` with ``warnings`` so far,
        stopping where best; and whether rolling die ``start`` beats stopping before it."""
        memo: dict[tuple[int, int], float] = {}

        def stop(i: int) -> float:
            return self.settle(plan[i - 1][0].space, plan[i - 1][0].gear) if i else float("inf")

        def go(i: int, w: int) -> float:
            if i >= len(plan):
                return float("inf")
            placed, nxt = plan[i]
            return self.roll(placed, nxt, w, lambda _n, w2: value(i + 1, w2))

        def value(i: int, w: int) -> float:
            if (i, w) not in memo:
                memo[(i, w)] = min(stop(i), go(i, w))
            return memo[(i, w)]

        rolling, stopping = go(start, warnings), stop(start)
        return min(rolling, stopping), rolling < stopping

    def flat_out(self, plan: list[tuple[Placed, Walk]]) -> float:
        """Expected seconds of rolling the whole plan at once (CORE-ROLL-10..12, CORE-SECONDS-01)."""
        if any(p.jump or w.ended for p, w in plan):
            return float("inf")  # a jump or a certain road effect: never worth it
        dist = {0: 1.0}
        for placed, _ in plan:
            nxt: dict[int, float] = {}
            for w, q in dist.items():
                for k, p in self.warning_odds(placed):
                    nxt[w + k] = nxt.get(w + k, 0.0) + q * p
            dist = nxt
        limit = min(warning_limit(self.ctx, p.space) for p, _ in plan)
        ok = sum(q for w, q in dist.items() if w < limit)
        tokens = sum(1 for p, _ in plan if is_gear(p.die.die) or p.coast)
        end = plan[-1][0]
        fail = self.loss_of_control(plan[len(plan) // 2][0].space)
        return ok * self.settle(end.space, end.gear) + (1 - ok) * fail - tokens


class StrongDriver(RandomBot):
    """Plays the turn with the least expected seconds (see the module docstring); chance as the random bot."""

    def __init__(self, seed: int = 0, weights: Weights | None = None) -> None:
        super().__init__(seed)
        self.weights = weights or Weights()
        self._ahead: dict[int, RoadAhead] = {}
        self._decisions: dict[tuple, tuple[tuple[tuple[Placed, Walk], ...], bool]] = {}
        #: one evaluator per stage situation (everything but where the car is and its gear): its memo of
        #: partial plans serves every later turn in the same situation
        self._evals: dict[tuple, _Evaluator] = {}
        self._plan: list[tuple[Placed, Walk]] = []
        self._eval: _Evaluator | None = None

    def ahead(self, stage: "Stage") -> RoadAhead:
        key = id(stage.index)
        if key not in self._ahead:
            self._ahead[key] = road_ahead(stage.index)
        return self._ahead[key]

    def turn(self, stage: "Stage") -> Turn:
        name = stage.to_move()
        assert name is not None
        ctx, _ = stage.context(name)
        situation = _situation(stage, ctx)
        ev = self._evals.get(situation)
        if ev is None:
            ev = self._evals[situation] = _Evaluator(stage, ctx, self.ahead(stage), self.weights)
        ev.ctx = ctx
        key = (situation, ctx.start, ctx.gear, stage.cars[name].seconds > 0)
        cached = self._decisions.get(key)
        if cached is None:
            plan = ev.plan()
            flat = bool(plan) and ev.flat_out(plan) < ev.one_by_one(plan)[0]
            cached = (tuple(plan), flat)
            self._decisions[key] = cached
        plan_t, flat = cached
        self._plan, self._eval = list(plan_t), ev
        return Turn(player=name, dice=[Roll(p.die) for p, _ in plan_t], flat_out=flat)

    def decide(self, stage: "Stage", i: int, placed, rolls, warnings: int, limit: int) -> str:
        if self._eval is None or i == 0:
            return "roll"  # the first die is always rolled: stopping before it wastes the turn
        _, go = self._eval.one_by_one(self._plan, i, warnings)
        return "roll" if go else "stop"

    def want_spare_tire(self) -> bool:
        return True


class GreedyDriver(RandomBot):
    """"Highest safe gear": lays the plan that ends in the highest gear (then the longest) with no certain
    Loss of Control, rolls one by one and stops when one more Warning would be a Loss of Control."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        #: best (end gear, dice) per stage situation and partial plan: a pure function of both
        self._best: dict[tuple, dict[Walk, tuple[tuple[int, int], list[Die]]]] = {}

    def turn(self, stage: "Stage") -> Turn:
        name = stage.to_move()
        assert name is not None
        ctx, _ = stage.context(name)
        memo = self._best.setdefault(_situation(stage, ctx), {})

        def best(w: Walk) -> tuple[tuple[int, int], list[Die]]:
            """The highest (end gear, dice) reachable from ``w`` without a certain Loss of Control."""
            if w not in memo:
                top: tuple[tuple[int, int], list[Die]] = ((w.gear, 0), [])
                for placed, nxt in die_options(ctx, w):
                    if nxt.ended or placed.jump_loc:
                        continue
                    (gear, n), rest = best(nxt)
                    if (gear, n + 1) > top[0]:
                        top = ((gear, n + 1), [placed.die, *rest])
                memo[w] = top
            return memo[w]

        dice = best(start_walk(ctx))[1]
        if not dice:  # only certain Losses of Control: take the first die offered
            opts = die_options(ctx, start_walk(ctx))
            dice = [opts[0][0].die] if opts else []
        return Turn(player=name, dice=[Roll(d) for d in dice])

    def decide(self, stage: "Stage", i: int, placed, rolls, warnings: int, limit: int) -> str:
        if i == 0:
            return "roll"
        worst = _dice_count(placed[i])
        return "stop" if warnings + worst >= limit or (placed[i].jump and warnings) else "roll"

    def want_spare_tire(self) -> bool:
        return True


def _situation(stage: "Stage", ctx: PlanContext) -> tuple:
    """What decides which dice may follow a partial plan, apart from where the turn starts: the track (as
    flipped), the dice and limits of the car, who is in the way and the -1 tokens."""
    return (id(stage.index), ctx.allowance, tuple(sorted(ctx.limits.items())),
            tuple(sorted(ctx.allowances.items())), tuple(sorted(ctx.others.items())),
            tuple(sorted(ctx.minus1.items())), ctx.limit_floor, ctx.handbrake)
