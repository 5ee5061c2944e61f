"""A dedicated plan enumerator: every legal dice plan of a turn, fast.

:func:`rallyc.rules.plans.legal_plans` lays each candidate die through the record validator
(:func:`~rallyc.rules.plans.check_die`'s rules, with their error messages). This module answers the same
question over tables computed once per planning context: per space its successors, entry blocks (occupied,
barred, hay bales, an unusable limit), the gear a car alongside demands, the Yellow-Flag pairs, the speed
limit, the jump landings, the Dashboard column of its surface. It yields exactly the plans of
:func:`~rallyc.rules.plans.legal_plans`, in the same order (tests/test_rules_enumerate.py checks it on the
published stages and circuits); ``benchmarks/plans.py`` measures both.
"""

from __future__ import annotations

from typing import Iterator, NamedTuple

from rallyc.rules.dashboard import Allowance
from rallyc.rules.dice import GEAR_DICE, Die, DieKind
from rallyc.rules.plans import PlanContext, Walk, _landings, allowance_at, effective_limit, is_haybale

__all__ = ["PlanEnumerator", "PlanState", "enumerate_plans", "state_of"]

_GEARS = tuple((name, int(name[4:])) for name in GEAR_DICE)


class _State(NamedTuple):
    pos: str
    gear: int
    used: int  # bit v set: the Gear v die is used
    n_gear: int
    n_coast: int
    n_brake: int
    n_boost: int
    n: int


#: a partial plan as the enumerator keys it (where the car is, its gear, the dice used so far)
PlanState = _State


class PlanEnumerator:
    """The legal plans of one planning context (build once, enumerate as often as needed)."""

    def __init__(self, ctx: PlanContext) -> None:
        self.ctx = ctx
        idx = ctx.index
        spaces = idx.spaces
        self.succ = ctx.succ
        others = ctx.others
        graph = idx.track.graph
        #: spaces a car may not enter at all this turn (whatever the die)
        self.blocked: set[str] = set()
        #: the gear a die must reach to enter a space alongside another car (0: none)
        self.need: dict[str, int] = {}
        self.limit: dict[str, int | None] = {}
        self.water: set[str] = set()
        self.jump: dict[str, int] = {}
        self.corner: dict[str, tuple[str, str]] = {}
        self.allow: dict[str, Allowance] = {}
        for sid, s in spaces.items():
            lim = effective_limit(ctx, sid)
            self.limit[sid] = lim
            if sid in ctx.barred or is_haybale(ctx, s) or (lim is not None and lim <= 0) \
                    or any(o in others for o in idx.overlap[sid]):
                self.blocked.add(sid)
            need = 0
            for o in idx.alongside[sid]:
                g = others.get(o)
                if g is None:
                    continue
                if g and sid in ctx.no_alongside and o not in ctx.alongside_before_flag:
                    self.blocked.add(sid)  # RX-DAMAGE-04
                need = max(need, g)
            self.need[sid] = need
            if s.water and not ctx.ignore_water:
                self.water.add(sid)
            if s.jump is not None:
                self.jump[sid] = s.jump
            if s.kind == "corner" and s.corner in ctx.corner_methods:
                if ctx.corner_methods[s.corner] - {s.method}:
                    self.corner[sid] = (s.corner, s.method or "")
            self.allow[sid] = allowance_at(ctx, sid)
        self.corner_of = {sid: s.corner for sid, s in spaces.items() if s.kind == "corner"}
        #: RX speed-limit lines on edges (RX-FORK-03)
        self.line: dict[tuple[str, str], int] = {(a, b): d["limit"] for a, b, d in graph.edges(data=True)
                                                 if d.get("limit") is not None}
        self._landings: dict[tuple[str, int], list[str]] = {}
        self._options: dict[_State, list[tuple[Die, _State, bool]]] = {}
        cols = list(ctx.allowances.values()) or [ctx.allowance]
        self.max_gear = max(a.gear for a in cols)
        self.max_brake = max(a.brake for a in cols)
        self.max_boost = max(a.boost for a in cols)
        self.max_coast = max(a.coast for a in cols)
        self.coast_dice = sorted({a.coast_die for a in cols if a.coast})

    def start(self) -> _State:
        """The state before the first die of the turn."""
        return _State(self.ctx.start, self.ctx.gear, 0, 0, 0, 0, 0, 0)

    # -- one die
    def _candidates(self, st: _State) -> list[tuple[DieKind, int, bool, bool]]:
        """(die, its gear or 0, with Brake, with Boost) that might be laid next (as plans._candidates)."""
        ctx = self.ctx
        out: list[tuple[DieKind, int, bool, bool]] = []
        gear = st.gear
        if st.n_gear < self.max_gear:
            for name, v in _GEARS:
                if v > ctx.top_gear or st.used >> v & 1:
                    continue
                if st.n_boost < self.max_boost and v == gear + 2:
                    out.append((name, v, False, True))
                if gear == 0:
                    if v == 1 or (v == 2 and ctx.flying_start and st.n == 0):
                        out.append((name, v, False, False))
                    continue
                if -1 <= v - gear <= 1:
                    out.append((name, v, False, False))
                if st.n_brake < self.max_brake and v >= 1 and (gear - v == 2 or (ctx.brake_drop != "exactly-two"
                                                                                 and gear - v > 2)):
                    out.append((name, v, True, False))
        if gear > 0 and st.n_coast < self.max_coast:
            out.extend((d, 0, False, False) for d in self.coast_dice)
        if ctx.redline and gear == ctx.top_gear and st.n_brake < self.max_brake:
            out.append((DieKind.BRAKE, 0, False, False))
        return out

    def _die_ok(self, st: _State, name: str, v: int, brake: bool, boost: bool, to: str) -> bool:
        """The die may be laid on ``to`` (the Dashboard of ``to``'s surface, gear steps; plans._die_error)."""
        a = self.allow[to]
        gear = st.gear
        if v:
            if st.n_gear + 1 > a.gear:
                return False
            if boost:
                return st.n_boost + 1 <= a.boost and v == gear + 2
            if brake:
                return st.n_brake + 1 <= a.brake and not (v < 1 or gear - v < 2 or
                                                          (self.ctx.brake_drop == "exactly-two" and gear - v != 2))
            if gear == 0:
                return v == 1 or (v == 2 and self.ctx.flying_start and st.n == 0)
            return abs(v - gear) <= 1
        if name == "brake":
            return st.n_brake + 1 <= a.brake
        return name == a.coast_die and st.n_coast + 1 <= a.coast

    def _enter_ok(self, sid: str, gear: int, name: str, brake: bool, came_from: str) -> bool:
        """The car may enter ``sid`` from ``came_from`` with this die (plans.entry_error)."""
        if sid in self.blocked:
            return False
        c = self.corner.get(sid)
        if c is not None and self.corner_of.get(came_from) != c[0]:
            return False
        if sid in self.water and not (name in ("coast", "leader", "brake") or (name == "gear1" and not brake)):
            return False
        return gear >= self.need[sid]

    def _limit(self, sid: str, came_from: str | None) -> int | None:
        own = self.limit[sid]
        if came_from is not None:
            line = self.line.get((came_from, sid))
            if line is not None:
                return line if own is None else min(own, line)
        return own

    def options(self, st: _State) -> list[tuple[Die, _State, bool]]:
        """(die, the state after it, whether it ends the move by a certain Loss of Control), in the order of
        :func:`rallyc.rules.plans.die_options` (computed once per state: paths that converge share them)."""
        got = self._options.get(st)
        if got is None:
            got = self._options[st] = self._compute_options(st)
        return got

    def _compute_options(self, st: _State) -> list[tuple[Die, _State, bool]]:
        ctx = self.ctx
        out: list[tuple[Die, _State, bool]] = []
        for name, v, brake, boost in self._candidates(st):
            gear = v or st.gear
            for to in self.succ.get(st.pos, ()):
                if not self._die_ok(st, name, v, brake, boost, to) or not self._enter_ok(to, gear, name, brake,
                                                                                         st.pos):
                    continue
                used = st.used | (1 << v) if v else st.used
                nxt = (st.n_gear + (1 if v else 0), st.n_coast + (1 if name in ("coast", "leader") else 0),
                       st.n_brake + (1 if brake or name == "brake" else 0), st.n_boost + (1 if boost else 0))
                jg = self.jump.get(to)
                if jg is not None and gear >= jg:
                    n = 1 if gear == jg else 2
                    key = (to, n)
                    spots = self._landings.get(key)
                    if spots is None:
                        spots = self._landings[key] = _landings(ctx, to, n)
                    too_fast = gear >= jg + 2
                    for land in spots:
                        if not self._enter_ok(land, gear, name, brake, to):
                            continue
                        lim = self._limit(land, None)
                        ended = too_fast or (lim is not None and gear > lim and ctx.jump_landing_limit)
                        out.append((Die(name, to, brake, land, boost),
                                    _State(land, gear, used, *nxt, st.n + 1), ended))
                    continue
                lim = self._limit(to, st.pos)
                ended = lim is not None and gear > lim
                out.append((Die(name, to, brake, None, boost), _State(to, gear, used, *nxt, st.n + 1), ended))
        return out

    def plans(self, max_dice: int | None = None, after: Walk | None = None) -> Iterator[tuple[Die, ...]]:
        """Every legal non-empty plan, depth first, shorter plans before their extensions (as legal_plans).

        ``after``: the rest of a plan whose first dice are laid (Improvisation's re-plans, as
        :func:`~rallyc.rules.plans.legal_replans`): the dice that may follow them, ``max_dice`` counting those
        already laid."""
        limit = max_dice if max_dice is not None else 64
        if after is not None:
            if after.ended:  # a die laid causes a certain Loss of Control: no die may follow it
                return
            limit -= after.n
        if limit <= 0:
            return
        options = self.options
        start = _State(self.ctx.start, self.ctx.gear, 0, 0, 0, 0, 0, 0) if after is None else state_of(after)
        # an explicit depth-first stack: (options of a state, next index, the plan so far)
        stack: list[tuple[list[tuple[Die, _State, bool]], int, tuple[Die, ...]]] = [(options(start), 0, ())]
        while stack:
            opts, i, prefix = stack.pop()
            if i >= len(opts):
                continue
            die, nst, ended = opts[i]
            stack.append((opts, i + 1, prefix))
            plan = prefix + (die,)
            yield plan
            if not ended and len(plan) < limit:
                stack.append((options(nst), 0, plan))

    def count(self, max_dice: int | None = None) -> int:
        """How many legal plans (without building them)."""
        limit = max_dice if max_dice is not None else 64

        memo: dict[tuple[_State, int], int] = {}

        def walk(st: _State, left: int) -> int:
            """Plans of at most ``left`` dice from ``st`` (converging paths counted once per state)."""
            key = (st, left)
            got = memo.get(key)
            if got is None:
                got = 0
                for _, nst, ended in self.options(st):
                    got += 1
                    if not ended and left > 1:
                        got += walk(nst, left - 1)
                memo[key] = got
            return got

        return walk(_State(self.ctx.start, self.ctx.gear, 0, 0, 0, 0, 0, 0), limit) if limit > 0 else 0


def state_of(w: Walk) -> _State:
    """A validator's partial plan (:class:`~rallyc.rules.plans.Walk`) as the enumerator's state."""
    used = 0
    for name in w.used:
        used |= 1 << int(name[4:])
    return _State(w.pos, w.gear, used, w.n_gear, w.n_coast, w.n_brake, w.n_boost, w.n)


def enumerate_plans(ctx: PlanContext, max_dice: int | None = None) -> Iterator[tuple[Die, ...]]:
    """Every legal plan of ``ctx`` (the same plans, in the same order, as :func:`plans.legal_plans`)."""
    return PlanEnumerator(ctx).plans(max_dice)
