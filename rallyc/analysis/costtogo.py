"""The strong stage driver's worth of a position: the expected seconds still to drive from the start of a turn on
each space in each gear (the stage's *cost to go*), by dynamic programming over the legal turns.

A turn always takes the car forward (every die enters a space further along the route), so the positions can be
valued from the finish backwards: the worth of a turn starting on a space in a gear is the strong driver's own
expected turn there (:class:`~rallyc.analysis.evaluator.TurnEvaluator`: the best plan, rolled one by one or Flat
Out, each end position priced by the card of its gear plus its own cost to go, a Loss of Control by its "0" card,
likely damage and the restart from Gear 0 on its space). The positions a turn ends on lie ahead of it and are
valued first.

This replaces a linear estimate (seconds per space, less the gear carried) that did not see that every turn costs
a whole Time card: it made the driver crawl one space a turn into a hairpin at Gear 3 (30 s a turn) rather than
brake over several spaces in one turn, or take a Loss of Control next to the finish that costs a restart turn.

The table is valued for the car alone at the start, without damage, as the round's first player: it depends on
the track, the car, the options and the components, never on what was played, and a damaged car, or one that is
not the round's first player, plays its own dice against the same estimate of what its positions are worth. A
process keeps the last few tables (:func:`cost_to_go`): the runs of a simulation, solo or at a table of four,
share one.
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from dataclasses import replace
from typing import Callable

from rallyc.analysis.evaluator import TurnEvaluator, Weights
from rallyc.analysis.options import DiceOptions, plan_situation
from rallyc.rules.core.plans import PlanContext, Walk, effective_limit
from rallyc.rules.core.stage import Stage
from rallyc.rules.variants.stage_race import StageRace
from rallyc.rules.core.state import TrackIndex

__all__ = ["CostToGo", "StageEvaluator", "base_context", "cost_to_go"]

#: the gears a car may be in at the end of a turn (0: after a Loss of Control, before the first card)
GEARS = range(0, 7)


class StageEvaluator(TurnEvaluator):
    """A turn evaluator whose positions are priced by a stage's :class:`CostToGo` table."""

    def __init__(self, stage: Stage, ctx: PlanContext, table: Callable[[str, int], float], weights: Weights,
                 options: DiceOptions | None = None) -> None:
        super().__init__(stage, ctx, None, weights, options)
        self.table = table

    def rest(self, space: str, gear: int) -> float:
        """Expected seconds still to drive after a turn that ends on ``space`` in ``gear`` (0 past the finish)."""
        if self.stage.index.spaces[space].past_finish:
            return 0.0
        return self.table(space, gear)


class CostToGo:
    """Expected seconds still to drive from the start of a turn on a space in a gear, for one track and car.

    ``ctx`` is the planning context the turns are valued in (its start and gear are replaced by each position's);
    ``fallback(space, gear)`` prices a position from which no die can be laid (off the route: a dead end)."""

    def __init__(self, stage: Stage, ctx: PlanContext, weights: Weights,
                 fallback: Callable[[str, int], float]) -> None:
        self.values: dict[tuple[str, int], float] = {}
        self.fallback = fallback
        #: the evaluator that valued the table: its memo of partial plans serves the turns played in ``ctx``'s
        #: situation too. It prices positions by this table through a weak reference: a reference cycle (table,
        #: evaluator, table) left each table, millions of partial plans, to the cyclic garbage collector's rare full
        #: collections once dropped (:func:`cost_to_go` keeps the last few), and a process that valued many tracks
        #: (``rallyc generate``'s tuning, in a test run) grew to 22 GB before one came
        self.evaluator = StageEvaluator(stage, ctx, weakref.proxy(self), weights)
        spaces = stage.index.spaces
        # from the finish backwards (every successor of a space has a higher progress): each turn valued finds
        # the positions it ends on valued already, and the recursion of __call__ stays shallow
        for sid in sorted(spaces, key=lambda s: (-spaces[s].progress, s)):
            if not spaces[sid].past_finish:
                top = effective_limit(ctx, sid)
                for gear in GEARS:
                    if top is None or gear <= top:
                        self(sid, gear)

    def __call__(self, space: str, gear: int) -> float:
        got = self.values.get((space, gear))
        if got is None:
            got = self.values[(space, gear)] = self._value(space, gear)
        return got

    def _value(self, space: str, gear: int) -> float:
        ev = self.evaluator
        plan = ev.plan_from(Walk(space, gear))
        if not plan:
            return self.fallback(space, gear)
        return min(ev.one_by_one(plan)[0], ev.flat_out(plan))


def base_context(stage: Stage | StageRace, name: str) -> PlanContext:
    """The planning context the cost to go of ``name``'s car is valued in: the car alone at the start of the stage
    (no damage, no other car, no -1 token, the round's first player), with the stage's options and components. A
    Head-to-Head raced on a stage (:class:`~rallyc.rules.variants.stage_race.StageRace`, no Time cards, no flipped tiles) is
    valued as the core stage by the components' Time cards: the fewer and faster the turns, the sooner across the
    line."""
    player = next(p for p in stage.players if p.name == name)
    if isinstance(stage, Stage):
        solo = Stage(stage.track, [player], stage.options, stage.components, flipper=stage.flipper, cards=stage.cards)
    else:  # a StageRace: no flipped tiles, no Time cards of its own
        solo = Stage(stage.track, [player], stage.options, stage.components)
    ctx, _ = solo.context(name)
    return replace(ctx, others={}, minus1={})


#: the tables this process keeps, the last used last: key -> (the track index it was valued on, the table); the
#: index is held so that its ``id`` in the key cannot be reused by another track while the entry lives
_TABLES: "OrderedDict[tuple, tuple[TrackIndex, CostToGo]]" = OrderedDict()
#: how many tables a process keeps (a table of a 12-tile stage holds some 50,000 partial plans)
KEEP = 4


def table_key(stage: Stage, base: PlanContext, weights: Weights) -> tuple:
    """Everything a cost-to-go table depends on: the track and the dice and limits of ``base``
    (:func:`~rallyc.analysis.options.plan_situation`), the options that change a plan, the Time cards and the
    Warning faces of the components, and the driver's weights."""
    comp = stage.components
    cards = tuple(comp.time_card_seconds(g) for g in range(1, 7))
    return (plan_situation(stage, base), base.flying_start, base.redline, base.brake_drop, base.jump_landing_limit,
            base.haybale_chicane, base.car, cards, comp.assumption("zero_side_seconds"),
            tuple(sorted(comp.warning_faces.items())), weights)


def cost_to_go(stage: Stage, name: str, weights: Weights, fallback: Callable[[str, int], float]
               ) -> tuple[tuple, CostToGo]:
    """The cost-to-go table of ``name``'s car on ``stage`` (valued once per process and key) and its key."""
    base = base_context(stage, name)
    key = table_key(stage, base, weights)
    got = _TABLES.get(key)
    if got is not None and got[0] is stage.index:
        _TABLES.move_to_end(key)
        return key, got[1]
    table = CostToGo(stage, base, weights, fallback)
    _TABLES[key] = (stage.index, table)
    while len(_TABLES) > KEEP:
        _TABLES.popitem(last=False)
    return key, table
