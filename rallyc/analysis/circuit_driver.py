"""A strong driver for RX races: expectimax over the turn's plans, valued in turns, with a Joker lap that is
never missed.

An RX race has no Time cards (RX-SETUP-10): a car's time is its number of turns, one per round
(RX-ROUND-01). The driver values a position by the turns still to race from it: the spaces still to drive to
the end of the last lap *with the Joker driven* (:class:`CircuitAhead`, a shortest path over (space, finish-line
crossings still to make, Joker driven or not)), the gear carried into the next turn and a penalty for a gear
the limits ahead cannot absorb. A turn is valued as the stage driver's (:class:`~rallyc.analysis.drivers.
TurnEvaluator`): each die's Warning chances, a Loss of Control's cost (the car stays, restarts from Gear 0 and
draws Damage tokens, RX-LOC-02..04), the option to stop before any die (CORE-ROLL-06).

Focus tokens (RX-ROLL-03/04) have no time value but secure dice: the driver secures a die (1, then 2, then 3
tokens per die in a turn) when that is worth more than rolling it or stopping before it, counting what the
tokens would be worth later; it goes Flat Out when the tokens earned and the risk make that the better turn.

The Joker (RX-JOKER-01..04): every car has a planned lap (:attr:`StrongRxDriver.plans`, lap 1 when none). Before
that lap its plans keep out of the Joker; from the turn in which the fork can be reached on that lap, the
main-loop stretch the Joker bypasses is closed to its plans, so the car either takes the Joker's branch or
stops short of the fork (behind a car that blocks the branch it waits) - it never drives past: a car that
crosses the line after its last lap without the Joker is disqualified (RX-JOKER-04). The greedy driver with a
Joker plan (:class:`JokerDriver`) falls back to its plain plan when the branch is blocked, and so can miss it.

A concern of its own beside the stage's drivers (:mod:`rallyc.analysis.drivers`, whose expectimax and turn
evaluator these drivers extend): on a circuit a position is valued in turns to the end of the last lap with the
Joker driven, on a stage in seconds of Time cards to the finish. (Was ``rallyc.analysis.rxdriver``: it drives Ice
and custom races on circuits too.)
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from rallyc.analysis.drivers import ExpectimaxDriver, GreedyDriver, TurnEvaluator, dice_count, plan_situation
from rallyc.analysis.lookahead import TOP_GEAR, safe_gears, worth
from rallyc.analysis.options import DiceOptions, Option
from rallyc.rules.core.dice import is_gear
from rallyc.rules.core.domain import JokerState
from rallyc.rules.core.plans import PlanContext
from rallyc.rules.core.rx_dashboard import loc_damage
from rallyc.rules.core.turn import Roll, Turn

if TYPE_CHECKING:  # pragma: no cover
    from rallyc.rules.core.race import Race, RxCar
    from rallyc.rules.core.rx_laps import Laps
    from rallyc.rules.core.state import TrackIndex

__all__ = ["CircuitAhead", "RxWeights", "StrongRxDriver", "JokerDriver", "bypassed_stretch"]


@dataclass(frozen=True)
class RxWeights:
    """How the strong RX driver prices a position (turns)."""

    #: turns a space still to drive is worth (about four and a half spaces a turn)
    per_space: float = 0.22
    #: turns saved next turn per gear carried into it
    momentum: float = 0.12
    #: turns lost per gear above what the limits ahead allow
    overspeed: float = 0.9
    #: turns a Loss of Control's Damage tokens cost on average over the rest of the race
    damage: float = 0.4
    #: what a Focus token is worth (it may secure a die later, RX-ROLL-04)
    focus: float = 0.08
    #: ending a turn where a car on the fork would force this one past the Joker (:attr:`CircuitAhead.traps`):
    #: this at depth 1, half as much a space further back (counted only while the fork is taken)
    trap: float = 1.5
    #: ... times this on the last lap (missing the Joker then disqualifies, RX-JOKER-04)
    trap_last_lap: float = 6.0
    #: Focus tokens worth holding (more than secure the riskiest dice of a few turns are worth nothing more)
    focus_cap: int = 8
    #: retiring (no Gear die left, CORE-RETIRE-01): priced on a Loss of Control by the chance its Damage
    #: tokens take the last Gear dice
    retired: float = 40.0
    #: a disqualification (RX-JOKER-04): worse than anything else
    disqualified: float = 1_000.0


def bypassed_stretch(index: "TrackIndex", succ: dict, length: float) -> tuple[frozenset[str], frozenset[str],
                                                                              float, float]:
    """The main-loop stretch the Joker bypasses: (its spaces, the fork spaces the Joker leaves from, the progress
    of the fork, the progress from the fork to where the Joker rejoins). A car past every space of the stretch
    in one move took the Joker. No Joker: empty sets."""
    spaces = index.spaces
    forks = frozenset(k for k, nxt in succ.items() if not spaces[k].joker and any(spaces[n].joker for n in nxt))
    rejoin = [n for k, nxt in succ.items() if spaces[k].joker for n in nxt if not spaces[n].joker]
    if not forks or not rejoin:
        return frozenset(), frozenset(), 0.0, 0.0
    start = min(spaces[k].progress for k in forks) % length
    end = min((spaces[n].progress - start) % length for n in rejoin)
    stretch = frozenset(k for k, sp in spaces.items() if not sp.joker and not sp.pregrid and k not in forks
                        and (sp.progress - start) % length < end)
    return stretch, forks, start, end


class CircuitAhead:
    """What the driver knows of a circuit before the race: spaces still to drive to the end of the race from each
    space, by finish-line crossings still to make and Joker state; the highest safe gear of each space.

    ``free`` lets a car that still owes the Joker take it on any later pass of the fork; ``take`` makes it take
    the Joker at the next fork (the bypassed stretch is closed to it)."""

    def __init__(self, index: "TrackIndex", laps: "Laps") -> None:
        self.index = index
        self.laps = laps
        spaces = index.spaces
        self.bypassed, self.forks, self.fork_at, self.span = bypassed_stretch(index, index.succ, laps.length)
        self.has_joker = bool(self.forks)
        self.traps = self._traps()
        self.joker_spaces = frozenset(k for k, sp in spaces.items() if sp.joker)
        #: crossings of the finish line on each edge of the graph (0 or 1)
        self.cross = {(s, t): laps.crossings(spaces[s].progress % laps.length,
                                             laps.advance(spaces[s].progress % laps.length, t))
                      for s, nxt in index.succ.items() for t in nxt}
        self.free = self._distances(frozenset())
        self.take = self._distances(self.bypassed)
        self.safe = safe_gears(index)
        self.worst = max([*self.free.values(), *self.take.values(), 0]) + 1

    def _traps(self, depth: int = 6) -> dict[str, int]:
        """Spaces from which the only ways on are a fork space or the bypassed stretch (depth 1): a car ending
        its turn there that finds the fork taken by another car must drive past the Joker (a car must move,
        CORE-MOVE-07); depth 2: every way on is a fork or a depth-1 trap; and so on."""
        out: dict[str, int] = {}
        ahead = set(self.bypassed)
        for level in range(1, depth + 1):
            found = {k for k, nxt in self.index.succ.items() if k not in out and k not in self.bypassed
                     and k not in self.forks and nxt and set(nxt) & ahead and set(nxt) <= ahead | self.forks}
            if not found:
                break
            out.update(dict.fromkeys(found, level))
            ahead = found
        return out

    def _distances(self, closed: frozenset[str]) -> dict[tuple[str, int, int], int]:
        """Spaces to the end of the race from (space, crossings still to make, Joker driven 0/1), breadth first
        back from the finishing moves; a car that has not driven the Joker may not enter ``closed``."""
        spaces = self.index.spaces
        rounds = self.laps.laps + 1
        back: dict[tuple[str, int, int], list[tuple[str, int, int]]] = {}
        dist: dict[tuple[str, int, int], int] = {}
        queue: deque[tuple[str, int, int]] = deque()
        for (s, t), c in sorted(self.cross.items()):
            for r in range(1, rounds + 1):
                for j in (0, 1):
                    if not j and t in closed:
                        continue
                    j2 = 1 if j or spaces[t].joker else 0
                    if r - c <= 0:
                        if j2 and (s, r, j) not in dist:  # across the line after the last lap, Joker driven
                            dist[(s, r, j)] = 1
                            queue.append((s, r, j))
                    else:
                        back.setdefault((t, r - c, j2), []).append((s, r, j))
        while queue:
            node = queue.popleft()
            for prev in back.get(node, ()):
                if prev not in dist:
                    dist[prev] = dist[node] + 1
                    queue.append(prev)
        return dist

    def lap_at_fork(self, car: "RxCar") -> int:
        """The lap the car is on when it next reaches the fork (it may cross the line first)."""
        length = self.laps.length
        fork = self.fork_at + math.ceil((car.distance - self.fork_at) / length - 1e-9) * length
        return max(1, car.crossed + self.laps.crossings(car.distance, fork))

    def offset(self, space: str, origin: float) -> float:
        """How far ``space`` is along the loop from the point ``origin`` (0 to the lap length)."""
        off = (self.index.spaces[space].progress - origin) % self.laps.length
        return 0.0 if off < 1e-9 or self.laps.length - off < 1e-9 else off

    def before(self, space: str, origin: float) -> bool:
        """``space`` is on the point ``origin`` or in the half lap before it: a move from it (always shorter than
        half a lap) that ends in the half lap after the point passed it."""
        off = self.offset(space, origin)
        return off == 0.0 or off >= self.laps.length / 2

    def crosses(self, before_line: bool, space: str) -> int:
        """Finish-line crossings of a move ending on ``space`` from a space before the line or not (the front edge
        passes the line: a car on the line has not crossed it, one ending on it has not either)."""
        off = self.offset(space, self.laps.line)
        return int(before_line and 0.0 < off < self.laps.length / 2)

    def took_joker(self, before_fork: bool, space: str) -> bool:
        """A move from before the fork ending on ``space`` passed the whole bypassed stretch (with it closed: it
        drove the Joker)."""
        off = self.offset(space, self.fork_at)
        return before_fork and self.span - 1e-9 <= off < self.laps.length / 2


@dataclass(frozen=True)
class TurnSpot:
    """Where a car's turn starts in the race, as far as the worth of where it ends depends on it: the crossings
    still to make, whether it has driven (or is in) the Joker, whether the bypassed stretch is closed to it this
    turn, and whether it starts in the half lap before the finish line and before the fork. Turns that start
    alike (in the same planning situation) share one evaluator and its memo."""

    left: int
    joker: bool
    take: bool
    before_line: bool
    before_fork: bool


class RxEvaluator(TurnEvaluator):
    """The turn evaluator in turns: every turn costs one, a position is worth the turns still to race."""

    def __init__(self, race: "Race", ctx: PlanContext, ahead: CircuitAhead, spot: TurnSpot, weights: RxWeights,
                 options: DiceOptions) -> None:
        super().__init__(race, ctx, None, weights, options)  # type: ignore[arg-type]
        self.circuit = ahead
        self.spot = spot
        self.zero = 1.0
        self.cards = {}
        #: Focus tokens are priced by :meth:`flat_out_turns` (what they are worth depends on those held)
        self.token_value = 0.0
        #: another car stands on a space the Joker leaves from: a trap space is worse
        self.fork_taken = any(f in ctx.others for f in ahead.forks)
        self.race = race
        bag = race.damage_bag()
        #: the chance that a Damage token drawn is a Gear token, and the Gear dice the car has left
        self.gear_token = bag.get("gear", 0) / max(1, sum(bag.values()))
        self.gear_left = ctx.allowance.gear
        self.retire_odds: dict[str, float] = {}

    def loss_of_control(self, space: str) -> float:
        """The stage driver's price of a Loss of Control on ``space``, plus the chance that its Damage tokens
        (drawn as in top gear there, RX-LOC-04) take the car's last Gear dice, times retiring."""
        odds = self.retire_odds.get(space)
        if odds is None:
            race = self.race
            n = loc_damage(race.components, TOP_GEAR, race.index.spaces[space].danger, race.format.loc_table)
            odds = self.retire_odds[space] = sum(
                math.comb(n, k) * self.gear_token ** k * (1 - self.gear_token) ** (n - k)
                for k in range(self.gear_left, n + 1)) if self.gear_left <= n else 0.0
        return super().loss_of_control(space) + odds * self.w.retired

    def card(self, gear: int) -> float:
        return 1.0

    def focus_worth(self, held: int, change: int) -> float:
        """What gaining (``change`` > 0) or spending (< 0) Focus tokens is worth when ``held`` are held: only the
        tokens up to :attr:`RxWeights.focus_cap` count."""
        cap = self.w.focus_cap
        return self.w.focus * (min(cap, max(0, held + change)) - min(cap, held))

    def flat_out_turns(self, plan: list[Option], held: int) -> float:
        """Expected turns of rolling ``plan`` Flat Out, less what its Focus tokens are worth (RX-ROLL-03)."""
        gained = sum(1 for o in plan if is_gear(o.placed.die.die) or o.placed.coast)
        return self.flat_out(plan) - self.focus_worth(held, gained)

    def rest(self, space: str, gear: int) -> float:
        """Turns still to race after ending the movement on ``space`` in ``gear``."""
        a, s, w = self.circuit, self.spot, self.w
        left = s.left - a.crosses(s.before_line, space)
        joker = s.joker or space in a.joker_spaces or (s.take and a.took_joker(s.before_fork, space))
        if left <= 0:
            return 0.0 if joker or not a.has_joker else w.disqualified
        table = a.take if s.take and not joker else a.free
        spaces = table.get((space, left, int(joker)))
        if spaces is None:  # a dead end for this plan (or past the fork without the Joker on the last lap)
            spaces = a.worst if joker or left > 1 else int(w.disqualified)
        safe = a.safe.get(space, TOP_GEAR)
        trap = 0.0
        depth = a.traps.get(space)
        if s.take and not joker and depth is not None and (depth == 1 or self.fork_taken):
            # missing the Joker now costs a lap more, or disqualifies; with the fork taken now, the car waits
            # as far back as it can
            trap = w.trap * (w.trap_last_lap if left == 1 else 1.0) * (2.0 if self.fork_taken else 1.0) \
                / 2 ** (depth - 1)
        return worth(spaces, gear, safe, per_space=w.per_space, momentum=w.momentum, overspeed=w.overspeed) + trap


class StrongRxDriver(ExpectimaxDriver):
    """Races with the least expected turns (see the module docstring); chance as the random bot."""

    def __init__(self, seed: int = 0, weights: RxWeights | None = None) -> None:
        super().__init__(seed)
        self.weights = weights or RxWeights()
        #: car -> the lap (1-based) on which it drives the Joker; lap 1 for a car without a plan
        self.plans: dict[str, int] = {}
        self._options: dict[tuple, DiceOptions] = {}
        self._held = 0

    def road_tables(self, stage) -> CircuitAhead:
        """The tables of the race's circuit."""
        return CircuitAhead(stage.index, stage.laps)

    def options(self, race: "Race", ctx: PlanContext) -> DiceOptions:
        """The legal next dice of ``ctx``'s situation (shared by every turn in it)."""
        situation = plan_situation(race, ctx)
        options = self._options.get(situation)
        if options is None:
            options = self._options[situation] = DiceOptions(ctx)
        return options

    def _context(self, race: "Race", car: "RxCar", ctx: PlanContext, plan: bool = True
                 ) -> tuple[PlanContext, TurnSpot]:
        """The planning context with the Joker plan's closures (none when ``plan`` is false), and where the turn
        starts in the race."""
        a = self.ahead(race)
        todo = car.joker == JokerState.TODO and a.has_joker
        take = plan and todo and car.space not in a.bypassed and a.lap_at_fork(car) >= self.plans.get(car.name, 1)
        closed = a.bypassed if take else a.joker_spaces if todo and plan else frozenset()
        if closed:
            extra = {s: ("RX-JOKER-01", f"{car.name}'s Joker plan") for s in sorted(closed) if s not in ctx.barred}
            ctx = replace(ctx, barred={**ctx.barred, **extra})
        left = race.laps.laps + 1 - car.crossed
        return ctx, TurnSpot(left, car.joker != JokerState.TODO or not a.has_joker, take,
                             a.before(car.space, race.laps.line), a.before(car.space, a.fork_at))

    def turn(self, stage) -> Turn:
        race = stage
        name = race.to_move()
        assert name is not None
        car = race.cars[name]
        full = race.context(name)[0]
        plan_t, flat = self._choose(race, car, *self._context(race, car, full))
        if not plan_t and self.options(race, full)(DiceOptions.start(full)):
            # the plan's closures leave no die but the car must move (CORE-MOVE-07): past the fork, say, when
            # another car stands on it
            plan_t, flat = self._choose(race, car, *self._context(race, car, full, plan=False))
        if not plan_t:  # Full Contact: blocked by cars it would have to push
            return Turn(player=name, dice=[Roll(d) for d in self.contact_dice(full)])
        return Turn(player=name, dice=[Roll(o.placed.die) for o in plan_t], flat_out=flat)

    def _choose(self, race: "Race", car: "RxCar", ctx: PlanContext, spot: TurnSpot
                ) -> tuple[tuple[Option, ...], bool]:
        """The plan laid and whether Flat Out, for ``ctx`` (memoised); sets the plan rolled one by one."""
        situation = plan_situation(race, ctx)
        held = self._held = min(car.tokens, self.weights.focus_cap)
        return self.choose((situation, spot),
                           lambda: RxEvaluator(race, ctx, self.ahead(race), spot, self.weights,
                                               self.options(race, ctx)),
                           ctx, (situation, spot, ctx.start, ctx.gear, held))

    def flat_out_value(self, ev: TurnEvaluator, plan: list[Option]) -> float:
        """Flat Out in turns, less what its Focus tokens are worth with those held (RX-ROLL-03)."""
        assert isinstance(ev, RxEvaluator)
        return ev.flat_out_turns(plan, self._held)

    secures = True

    def secure(self, stage, ev: TurnEvaluator, i: int, rolls, warnings: int, now: float) -> bool:
        """Secure die ``i`` with Focus tokens where that beats rolling it or stopping (RX-ROLL-04: 1, then 2, then 3
        tokens a die), counting what the tokens spent would be worth later."""
        assert isinstance(ev, RxEvaluator)
        car = stage.cars[stage.to_move() or ""]
        secured = sum(dice_count(r.die) for r in rolls[:i] if r.secured)
        k = dice_count(rolls[i].die)
        cost = sum(range(secured + 1, secured + k + 1))  # 1, then 2, then 3... a die (RX-ROLL-04)
        if car.tokens - secured * (secured + 1) // 2 < cost:
            return False
        after = ev.one_by_one(self._plan, i + 1, warnings)[0]  # the die secured: no Warning, move on
        return after - ev.focus_worth(car.tokens - secured * (secured + 1) // 2, -cost) < now - 1e-9


class JokerDriver(GreedyDriver):
    """The greedy driver with a Joker plan: on the lap it plans to drive the Joker it takes the Joker's branch
    at the fork, on every other lap the main loop (a car that has driven it may not enter again, RX-JOKER-02).

    ``plans`` maps a car to its Joker lap; a car without a plan drives as the greedy driver does."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.plans: dict[str, int] = {}
        #: the Joker's fork and the stretch it bypasses, per circuit (the strong RX driver's tables)
        self._circuit: dict[int, CircuitAhead] = {}

    def turn(self, stage) -> Turn:
        name = stage.to_move()
        assert name is not None
        car = stage.cars[name]
        if name not in self.plans or car.joker not in (JokerState.TODO,):
            return super().turn(stage)
        ahead = self._circuit.get(id(stage.index))
        if ahead is None:
            ahead = self._circuit[id(stage.index)] = CircuitAhead(stage.index, stage.laps)
        if not ahead.has_joker:
            return super().turn(stage)
        ctx, _ = stage.context(name)
        # on the Joker's lap, stay on the spaces that still lead into it; on the others, keep out of it
        closed = ahead.bypassed if ahead.lap_at_fork(car) >= self.plans[name] else ahead.joker_spaces
        extra = {k: ("RX-JOKER-01", f"{name}'s Joker plan") for k in sorted(closed) if k not in ctx.barred}
        dice = self.plan_dice(stage, replace(ctx, barred={**ctx.barred, **extra}))
        if not dice:  # every die of the plan's way is barred: drive as the greedy driver does
            return super().turn(stage)
        return Turn(player=name, dice=[Roll(d) for d in dice])
