"""Drivers that play to win: a greedy one ("highest safe gear") and a strong one (expectimax over the plan).

Both implement the :class:`~rallyc.rules.driver.Driver` protocol (:class:`PlanningDriver`): the referee asks
them for the turn (the dice laid, one by one or Flat Out) and, while rolling one by one, whether to roll the
next die or stop. Chance (die faces, Time-card backs, Damage tokens) is drawn from their seeded random stream
(:class:`~rallyc.rules.bot.SeededChance`) exactly as the random bot draws it, so a game played by them replays
like any other record.

The strong driver values a position by the seconds still to drive (:class:`RoadAhead.worth`) and a turn
by its expectation over the dice faces: the Time card of the gear it ends in, plus a Loss of Control's
"0"-side card and the restart from Gear 0 where the Warnings reach the Dashboard limit. It lays the plan
that is best when the player keeps the option to stop before any die (CORE-ROLL-06), then, die by die,
rolls on only while rolling is worth more than stopping. Flat Out is taken when its Second tokens
(CORE-SECONDS-01) outweigh the risk of rolling everything at once.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from rallyc.analysis.lookahead import RoadAhead, road_ahead
from rallyc.rules.bot import SeededChance, relay_in_order
from rallyc.rules.dice import Die, is_gear
from rallyc.analysis.options import DiceOptions, Option, PlanState
from rallyc.rules.driver import ROLL, SECURE, STOP
from rallyc.rules.plans import PlanContext, Placed, warning_limit
from rallyc.rules.turn import Outcome, Roll, Turn

if TYPE_CHECKING:  # pragma: no cover
    from rallyc.rules.driver import Driver
    from rallyc.rules.stage import Stage

__all__ = ["ExpectimaxDriver", "GreedyDriver", "PlanningDriver", "StrongDriver", "TurnEvaluator", "Weights",
           "dice_count", "plan_situation"]


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
            got = self.prepared[st] = [
                (opt, self.loss_of_control(opt.placed.space), warning_limit(self.ctx, opt.placed.space),
                 self.warning_odds(opt.placed), opt.placed.jump) for opt in self.options(st)]
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

        The sums are :meth:`roll`'s, term by term in the same order (the same floating-point results)."""
        key = (st, warnings)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        value_best = self.settle(st.pos, st.gear) if st.n else float("inf")
        step: Option | None = None
        for opt, loc, limit, odds, jump in self.next_dice(st):
            if opt.ended:
                value = loc
            else:
                value = 0.0
                for k, p in odds:
                    w = warnings + k
                    if w >= limit or (k and jump):
                        value += p * loc
                    else:
                        value += p * self.best(opt.state, w)[0]
            if value < value_best - 1e-9:
                value_best, step = value, opt
        got = self.memo[key] = (value_best, step)
        return got

    def plan(self) -> list[Option]:
        """The plan laid, die by die with the partial plan after it: the best path assuming no Warning shows
        (the likeliest way the turn unfolds)."""
        st = self.options.start(self.ctx)
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


class PlanningDriver(SeededChance, ABC):
    """A seeded driver that lays its plan and rolls it die by die: it implements the decisions of the
    :class:`~rallyc.rules.driver.Driver` protocol itself (chance from :class:`~rallyc.rules.bot.SeededChance`),
    with no random-bot decision behind it. Subclasses lay the turn and decide before each die."""

    @abstractmethod
    def turn(self, stage: Any) -> Turn:
        """The turn of the player to move (chance is drawn while it is played)."""

    @abstractmethod
    def decide(self, stage: Any, i: int, placed: list[Placed], rolls: list[Roll], warnings: int,
               limit: int) -> str:
        """Before die ``i`` (one by one): roll, secure or stop (a :class:`~rallyc.rules.driver.Step`)."""

    def play_turn(self, stage: Any) -> tuple[Turn, Outcome]:
        """Decide and play one turn (of a stage or an RX race); returns the completed turn and its outcome."""
        driver: Driver = self  # mypy checks here that a planning driver is a Driver
        self.bind(stage)
        out = stage.play(self.turn(stage), driver=driver)
        assert out.turn is not None
        return out.turn, out

    def replan(self, stage: Any, ctx: PlanContext, done: list[Placed]) -> list[Die]:
        """Keep the plan (these drivers never decide to re-plan, IMPROV-01)."""
        return []

    def want_spare_tire(self) -> bool:
        """Change a tire whenever the rules allow it (CORE-SPARE)."""
        return True

    def relay(self, stage: Any, ctx: PlanContext, placed: list[Placed], rolls: list[Roll],
              leader: bool) -> list[Roll]:
        """After a failed Flat Out, the dice re-laid on the same path (CORE-ROLL-13)."""
        return relay_in_order(stage, ctx, placed, rolls)


class ExpectimaxDriver(PlanningDriver):
    """The shared base of the strong drivers (stage: :class:`StrongDriver`, RX: :class:`~rallyc.analysis.rxdriver.
    StrongRxDriver`): one :class:`TurnEvaluator` per situation (its memo of partial plans serves every later turn
    in it), one decision (the plan laid, Flat Out or not) per situation and turn start, and, die by die, roll on
    only while rolling beats stopping (CORE-ROLL-06). Subclasses say what a situation is, how to build its
    evaluator and what Flat Out is worth."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        #: the road-ahead tables of each track (by its index), computed once
        self._ahead: dict[int, Any] = {}
        #: one evaluator per situation: its memo of partial plans serves every later turn in the same situation
        self._evals: dict[tuple, TurnEvaluator] = {}
        self._decisions: dict[tuple, tuple[tuple[Option, ...], bool]] = {}
        self._plan: list[Option] = []
        self._eval: TurnEvaluator | None = None

    def ahead(self, stage: Any) -> Any:
        """What the driver knows of the track ahead of every space (computed once per track)."""
        key = id(stage.index)
        got = self._ahead.get(key)
        if got is None:
            got = self._ahead[key] = self.road_tables(stage)
        return got

    @abstractmethod
    def road_tables(self, stage: Any) -> Any:
        """The road-ahead tables of ``stage``'s track."""

    def flat_out_value(self, ev: TurnEvaluator, plan: list[Option]) -> float:
        """Expected cost of rolling ``plan`` Flat Out (what the tokens earned are worth taken off)."""
        return ev.flat_out(plan)

    def choose(self, situation: tuple, make: Callable[[], TurnEvaluator], ctx: PlanContext, turn_key: tuple
               ) -> tuple[tuple[Option, ...], bool]:
        """The plan laid and whether it goes Flat Out, for the turn of ``ctx`` (memoised by ``turn_key``); the
        evaluator of ``situation`` (built by ``make`` the first time) then decides die by die."""
        ev = self._evals.get(situation)
        if ev is None:
            ev = self._evals[situation] = make()
        ev.ctx = ctx
        cached = self._decisions.get(turn_key)
        if cached is None:
            plan = ev.plan()
            flat = bool(plan) and self.flat_out_value(ev, plan) < ev.one_by_one(plan)[0]
            cached = self._decisions[turn_key] = (tuple(plan), flat)
        self._plan, self._eval = list(cached[0]), ev
        return cached

    #: the driver may secure dice with tokens before rolling them (RX: Focus tokens, :meth:`secure`)
    secures = False

    def secure(self, stage: Any, ev: TurnEvaluator, i: int, rolls: list[Roll], warnings: int, now: float) -> bool:
        """Secure die ``i`` rather than roll it or stop (``now``: the expected cost of the best of those)."""
        return False

    def decide(self, stage: Any, i: int, placed, rolls, warnings: int, limit: int) -> str:
        ev = self._eval
        if ev is None or i >= len(self._plan):
            return ROLL
        odds = None
        if self.secures:
            odds = ev.one_by_one(self._plan, i, warnings)
            if self.secure(stage, ev, i, rolls, warnings, odds[0]):
                return SECURE
        if i == 0:
            return ROLL  # the first die is always rolled: stopping before it wastes the turn
        _, go = odds or ev.one_by_one(self._plan, i, warnings)
        return ROLL if go else STOP


class StrongDriver(ExpectimaxDriver):
    """Plays the turn with the least expected seconds (see the module docstring); chance as the random bot."""

    def __init__(self, seed: int = 0, weights: Weights | None = None) -> None:
        super().__init__(seed)
        self.weights = weights or Weights()

    def road_tables(self, stage: Any) -> RoadAhead:
        return road_ahead(stage.index)

    def turn(self, stage: "Stage") -> Turn:
        name = stage.to_move()
        assert name is not None
        ctx, _ = stage.context(name)
        situation = plan_situation(stage, ctx)
        plan_t, flat = self.choose(situation, lambda: TurnEvaluator(stage, ctx, self.ahead(stage), self.weights),
                                   ctx, (situation, ctx.start, ctx.gear, stage.cars[name].seconds > 0))
        return Turn(player=name, dice=[Roll(o.placed.die) for o in plan_t], flat_out=flat)


class GreedyDriver(PlanningDriver):
    """"Highest safe gear": lays the plan that ends in the highest gear (then the longest) with no certain
    Loss of Control, rolls one by one and stops when one more Warning would be a Loss of Control."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        #: best (end gear, dice) per stage situation and partial plan: a pure function of both
        #: (keys: the partial plan as this driver or a subclass, rallyc.analysis.rxsim, walks it)
        self._best: dict[tuple, dict[Any, tuple[tuple[int, int], list[Die]]]] = {}
        #: the legal next dice per stage situation
        self._options: dict[tuple, DiceOptions] = {}

    def turn(self, stage: "Stage") -> Turn:
        name = stage.to_move()
        assert name is not None
        ctx, _ = stage.context(name)
        return Turn(player=name, dice=[Roll(d) for d in self.plan_dice(stage, ctx)])

    def plan_dice(self, stage: Any, ctx: PlanContext) -> list[Die]:
        """The greedy plan of ``ctx`` (its barred spaces closed to it): the highest end gear, then the most dice,
        with no certain Loss of Control; the first die offered when every plan is one."""
        situation = plan_situation(stage, ctx)
        memo = self._best.setdefault(situation, {})
        options = self._options.get(situation)
        if options is None:
            options = self._options[situation] = DiceOptions(ctx)

        def best(st: PlanState) -> tuple[tuple[int, int], list[Die]]:
            """The highest (end gear, dice) reachable from ``st`` without a certain Loss of Control."""
            if st not in memo:
                top: tuple[tuple[int, int], list[Die]] = ((st.gear, 0), [])
                for opt in options(st):
                    if opt.ended or opt.placed.jump_loc:
                        continue
                    (gear, n), rest = best(opt.state)
                    if (gear, n + 1) > top[0]:
                        top = ((gear, n + 1), [opt.placed.die, *rest])
                memo[st] = top
            return memo[st]

        start = options.start(ctx)
        dice = best(start)[1]
        if not dice:  # only certain Losses of Control: take the first die offered
            opts = options(start)
            dice = [opts[0].placed.die] if opts else []
        return dice

    def decide(self, stage: "Stage", i: int, placed, rolls, warnings: int, limit: int) -> str:
        if i == 0:
            return "roll"
        worst = dice_count(placed[i].die)
        return "stop" if warnings + worst >= limit or (placed[i].jump and warnings) else "roll"


def plan_situation(stage: Any, ctx: PlanContext) -> tuple:
    """What decides which dice may follow a partial plan, apart from where the turn starts (``stage``: a Stage or
    an RX Race): the track (as
    flipped), the dice and limits of the car, who is in the way, the -1 tokens and, in an RX race, the spaces
    barred to the car (a Joker already driven, the Pre-grid left) and the Yellow Flag's spaces."""
    return (id(stage.index), ctx.allowance, tuple(sorted(ctx.limits.items())),
            tuple(sorted(ctx.allowances.items())), tuple(sorted(ctx.others.items())),
            tuple(sorted(ctx.minus1.items())), ctx.limit_floor, ctx.handbrake, tuple(sorted(ctx.barred)),
            ctx.no_alongside, ctx.alongside_before_flag)
