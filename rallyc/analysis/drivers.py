"""Drivers that play to win: a greedy one ("highest safe gear") and a strong one (expectimax over the plan).

Both implement the :class:`~rallyc.rules.core.driver.Driver` protocol (:class:`PlanningDriver`): the referee asks
them for the turn (the dice laid, one by one or Flat Out) and, while rolling one by one, whether to roll the
next die or stop. Chance (die faces, Time-card backs, Damage tokens) is drawn from their seeded random stream
(:class:`~rallyc.rules.drivers.bot.SeededChance`) exactly as the random bot draws it, so a game played by them replays
like any other record.

The strong driver values a position by the seconds still to drive from it: the stage's cost to go
(:mod:`rallyc.analysis.costtogo`), the driver's own expected turns from every space in every gear, valued once
per track from the finish backwards. A turn is valued by its expectation over the dice faces
(:class:`~rallyc.analysis.evaluator.TurnEvaluator`): the Time card of the gear it ends in plus the cost to go
from there, or a Loss of Control's "0"-side card, its likely damage and the cost to go from Gear 0 on its space
where the Warnings reach the Dashboard limit. It lays the plan that is best when the player keeps the option to
stop before any die (CORE-ROLL-06), then, die by die, rolls on only while rolling is worth more than stopping.
Flat Out is taken when its Second tokens (CORE-SECONDS-01) outweigh the risk of rolling everything at once.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable

from rallyc.analysis.costtogo import CostToGo, StageEvaluator, cost_to_go
from rallyc.analysis.evaluator import TurnEvaluator, Weights, dice_count
from rallyc.analysis.lookahead import RoadAhead, road_ahead
from rallyc.analysis.options import DiceOptions, Option, PlanState, plan_situation, road_situation
from rallyc.rules.drivers.bot import SeededChance, relay_in_order
from rallyc.rules.core.dice import Die
from rallyc.rules.core.driver import ROLL, SECURE, STOP
from rallyc.rules.core.plans import OptionTable, PlanContext, Placed, legal_plans
from rallyc.rules.core.turn import Outcome, Roll, Turn

if TYPE_CHECKING:  # pragma: no cover
    from rallyc.rules.core.driver import Driver
    from rallyc.rules.core.stage import Stage

__all__ = ["ExpectimaxDriver", "GreedyDriver", "PlanningDriver", "StrongDriver", "TurnEvaluator", "Weights",
           "dice_count", "plan_situation"]


class PlanningDriver(SeededChance, ABC):
    """A seeded driver that lays its plan and rolls it die by die: it implements the decisions of the
    :class:`~rallyc.rules.core.driver.Driver` protocol itself (chance from :class:`~rallyc.rules.drivers.bot.SeededChance`),
    with no random-bot decision behind it. Subclasses lay the turn and decide before each die."""

    @abstractmethod
    def turn(self, stage: Any) -> Turn:
        """The turn of the player to move (chance is drawn while it is played)."""

    @abstractmethod
    def decide(self, stage: Any, i: int, placed: list[Placed], rolls: list[Roll], warnings: int,
               limit: int) -> str:
        """Before die ``i`` (one by one): roll, secure or stop (a :class:`~rallyc.rules.core.driver.Step`)."""

    def play_turn(self, stage: Any) -> tuple[Turn, Outcome]:
        """Decide and play one turn (of a stage or an RX race); returns the completed turn and its outcome."""
        driver: Driver = self  # mypy checks here that a planning driver is a Driver
        self.bind(stage)
        out = stage.play(self.turn(stage), driver=driver)
        assert out.turn is not None
        return out.turn, out

    @staticmethod
    def contact_dice(ctx: PlanContext) -> list[Die]:
        """Under Full Contact, the dice of a car that these drivers' plans leave blocked (they push no car,
        :class:`~rallyc.analysis.options.DiceOptions`): it must move if it can (CORE-MOVE-07), so it lays the first
        legal plan, a push or a Push Through (RX-PUSH, RX-THROUGH); none without Full Contact."""
        if ctx.contact is None:
            return []
        return list(next(legal_plans(ctx), ()))

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
    """The shared base of the strong drivers (stage: :class:`StrongDriver`, RX: :class:`~rallyc.analysis.circuit_driver.
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
        #: per turn (its key in ``_decisions``), then die and Warnings so far, what rolling on one by one is worth and
        #: whether to roll (:meth:`TurnEvaluator.one_by_one`: a function of all three); ``_turn_odds``: the entry of
        #: the turn being rolled (its key hashed once a turn, not once a die)
        self._odds: dict[tuple, dict[tuple[int, int], tuple[float, bool]]] = {}
        self._turn_odds: dict[tuple[int, int], tuple[float, bool]] = {}

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
        self._turn_odds = self._odds.setdefault(turn_key, {})
        return cached

    def odds(self, ev: TurnEvaluator, i: int, warnings: int) -> tuple[float, bool]:
        """The plan's :meth:`TurnEvaluator.one_by_one` from die ``i`` with ``warnings`` so far (memoised per turn)."""
        got = self._turn_odds.get((i, warnings))
        if got is None:
            got = self._turn_odds[(i, warnings)] = ev.one_by_one(self._plan, i, warnings)
        return got

    #: the driver may secure dice with tokens before rolling them (RX: Focus tokens, :meth:`secure`)
    secures = False

    def secure(self, stage: Any, ev: TurnEvaluator, i: int, rolls: list[Roll], warnings: int, now: float) -> bool:
        """Secure die ``i`` rather than roll it or stop (``now``: the expected cost of the best of those)."""
        return False

    def decide(self, stage: Any, i: int, placed, rolls, warnings: int, limit: int) -> str:
        ev = self._eval
        if ev is None or i >= len(self._plan):
            return ROLL
        if self.secures and self.secure(stage, ev, i, rolls, warnings, self.odds(ev, i, warnings)[0]):
            return SECURE
        if i == 0:
            return ROLL  # the first die is always rolled: stopping before it wastes the turn
        return ROLL if self.odds(ev, i, warnings)[1] else STOP


class StrongDriver(ExpectimaxDriver):
    """Plays the turn with the least expected seconds (see the module docstring); chance as the random bot."""

    def __init__(self, seed: int = 0, weights: Weights | None = None) -> None:
        super().__init__(seed)
        self.weights = weights or Weights()
        #: per car: the stage and track it plays and its cost-to-go table's key and table (looked up once a stage, and
        #: again if the stage's tiles flip, MC-WEATHER-04)
        self._tables: dict[str, tuple[Any, Any, tuple, CostToGo]] = {}
        #: how dice enter the road, per road situation (:func:`~rallyc.analysis.options.road_situation`): shared by
        #: the evaluators of a damaged car and the cost to go's
        self._roads: dict[tuple, OptionTable] = {}

    def road_tables(self, stage: Any) -> RoadAhead:
        return road_ahead(stage.index)

    def table(self, stage: "Stage", name: str) -> tuple[tuple, CostToGo]:
        """The cost-to-go table of ``name``'s car on ``stage`` and its key."""
        got = self._tables.get(name)
        if got is None or got[0] is not stage or got[1] is not stage.index:
            ahead, w = self.ahead(stage), self.weights
            key, table = cost_to_go(stage, name, w, lambda s, g: ahead.worth(
                s, g, per_space=w.per_space, momentum=w.momentum, overspeed=w.overspeed))
            got = self._tables[name] = (stage, stage.index, key, table)
            self._roads.setdefault(road_situation(stage, table.evaluator.ctx), table.evaluator.options.table)
        return got[2], got[3]

    def evaluator(self, stage: "Stage", ctx: PlanContext, table: CostToGo) -> StageEvaluator:
        """A new evaluator of ``ctx``'s situation, priced by ``table``, sharing how dice enter the road."""
        road = self._roads.setdefault(road_situation(stage, ctx), OptionTable())
        return StageEvaluator(stage, ctx, table, self.weights, DiceOptions(ctx, road))

    def turn(self, stage: "Stage") -> Turn:
        name = stage.to_move()
        assert name is not None
        ctx, _ = stage.context(name)
        ctx = tokens_ahead(ctx, self.ahead(stage).steps_ahead[ctx.start])
        key, table = self.table(stage, name)
        situation = (key, plan_situation(stage, ctx))
        make = (lambda: table.evaluator) if situation[1] == key[0] else \
            (lambda: self.evaluator(stage, ctx, table))
        plan_t, flat = self.choose(situation, make, ctx, (situation, ctx.start, ctx.gear, stage.cars[name].tokens > 0))
        if not plan_t:
            return Turn(player=name, dice=[Roll(d) for d in self.contact_dice(ctx)])
        return Turn(player=name, dice=[Roll(o.placed.die) for o in plan_t], flat_out=flat)


def tokens_ahead(ctx: PlanContext, steps: frozenset[int]) -> PlanContext:
    """``ctx`` without the -1 tokens on route ``steps`` its turn cannot reach: they lower the corners of their own
    tile only (CORE-SHORTCUT-08), so a car past them plans as if they were not there, in a situation it may have
    planned in before (:func:`~rallyc.analysis.options.plan_situation` keys the tokens)."""
    kept = {step: n for step, n in ctx.minus1.items() if step in steps}
    return ctx if len(kept) == len(ctx.minus1) else replace(ctx, minus1=kept)


class GreedyDriver(PlanningDriver):
    """"Highest safe gear": lays the plan that ends in the highest gear (then the longest) with no certain
    Loss of Control, rolls one by one and stops when one more Warning would be a Loss of Control."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        #: best (end gear, dice) per stage situation and partial plan: a pure function of both
        #: (keys: the partial plan as this driver or a subclass, rallyc.analysis.circuit_driver, walks it)
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
            dice = [opts[0].placed.die] if opts else self.contact_dice(ctx)
        return dice

    def decide(self, stage: "Stage", i: int, placed, rolls, warnings: int, limit: int) -> str:
        if i == 0:
            return "roll"
        worst = dice_count(placed[i].die)
        return "stop" if warnings + worst >= limit or (placed[i].jump and warnings) else "roll"
