"""Laying dice on the road: which dice plans are legal (CORE-DICE, CORE-MOVE, CORE-CORNER, CORE-SLIDE,
CORE-SHORTCUT, CORE-JUMP, CORE-WATER, CORE-OVERTAKE).

A plan is a sequence of :class:`~rallyc.rules.dice.Die`. :func:`check_die` validates one die laid
after a partial plan (a :class:`Walk`), :func:`die_options` lists every legal next die, and
:func:`legal_plans` enumerates whole plans. Rolling and its effects are in :mod:`rallyc.rules.turn`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterator

from rallyc.rules.dashboard import Allowance
from rallyc.rules.dice import GEAR_DICE, Die, gear_value, is_gear
from rallyc.rules.errors import IllegalMove
from rallyc.rules.state import TrackIndex

__all__ = ["PlanContext", "Walk", "Placed", "check_die", "check_plan", "die_options", "legal_plans",
           "effective_limit"]


@dataclass
class PlanContext:
    """Everything that decides where a car may lay its dice this turn."""

    index: TrackIndex
    start: str
    gear: int
    allowance: Allowance
    top_gear: int
    #: spaces holding a car that impedes -> that car's gear
    others: dict[str, int] = field(default_factory=dict)
    #: -1 Shortcut tokens per route step (CORE-SHORTCUT-08)
    minus1: dict[int, int] = field(default_factory=dict)
    flying_start: bool = False
    redline: bool = False
    brake_drop: str = "exactly-two"
    jump_landing_limit: bool = True
    #: corner key -> methods of the cars in that corner (CORE-OVERTAKE-05)
    corner_methods: dict[str, set] = field(default_factory=dict)
    #: lay dice as if Water Hazards were plain spaces (to tell a car stuck at a ford, reading water_stuck)
    ignore_water: bool = False
    #: corner limits lowered by -1 tokens stop at this floor (reading unusable_corner), None = no floor
    limit_floor: int | None = None

    def __post_init__(self) -> None:
        spaces = self.index.spaces
        for sid in self.others:
            s = spaces[sid]
            if s.kind == "corner" and s.corner:
                self.corner_methods.setdefault(s.corner, set()).add(s.method)


@dataclass(frozen=True)
class Walk:
    """A partial plan: where the car is and what it has used."""

    pos: str
    gear: int
    used: frozenset = frozenset()
    n_gear: int = 0
    n_coast: int = 0
    n_brake: int = 0
    n: int = 0
    #: the first die was the Flying Start Gear 2 die (CORE-ADV-01)
    flying: bool = False
    #: a die laid causes a certain Loss of Control: no die may follow it
    ended: str | None = None


@dataclass(frozen=True)
class Placed:
    """One die's effect once laid: where the car ends up and in which gear."""

    die: Die
    #: the space the car is on after this die (the landing space for a jump)
    space: str
    gear: int
    #: 0 no jump, else how many spaces the die was moved forward (CORE-JUMP-02/03)
    jump: int = 0
    #: jumped two or more gears too fast (CORE-JUMP-04)
    jump_loc: bool = False
    #: the Flying Start Gear 2 die (CORE-ADV-01)
    flying: bool = False
    #: a Coast, Leader or Redline Brake die (keeps the gear; CORE-TURNEND-03)
    coast: bool = False


def effective_limit(ctx: PlanContext, sid: str) -> int | None:
    """A space's speed limit after -1 tokens (they lower corner spaces only, CORE-SHORTCUT-08/09)."""
    s = ctx.index.spaces[sid]
    if s.limit is None:
        return None
    if s.kind == "corner":
        lim = s.limit - ctx.minus1.get(s.step, 0)
        return max(lim, ctx.limit_floor) if ctx.limit_floor is not None else lim
    return s.limit


def _die_error(ctx: PlanContext, w: Walk, die: Die) -> tuple[str, str, str] | None:
    """Why this die cannot be laid next (rule, message, field), or None."""
    a = ctx.allowance
    name = die.die
    if is_gear(name):
        v = gear_value(name)
        if v > ctx.top_gear:
            return "CORE-DICE-07", f"this car has no Gear {v} die (top gear {ctx.top_gear})", "die"
        if name in w.used:
            return "CORE-DICE-05", f"the {name} die is already used this turn", "die"
        if w.n_gear + 1 > a.gear:
            rule = "CORE-DAMAGE-02" if a.gear < a.printed.gear else "CORE-DICE-04"
            return rule, f"only {a.gear} Gear dice may be used this turn", "die"
        if die.brake:
            if w.n_brake + 1 > a.brake:
                rule = "CORE-DAMAGE-03" if a.brake < a.printed.brake else "CORE-DICE-04"
                return rule, f"only {a.brake} Brake dice may be used this turn", "brake"
            if v < 1 or w.gear - v < 2 or (ctx.brake_drop == "exactly-two" and w.gear - v != 2):
                if w.gear - 2 < 1:
                    return "CORE-DICE-20", f"the Brake cannot take Gear {w.gear} below Gear 1", "brake"
                return "CORE-DICE-18", (f"with the Brake the Gear die must be Gear {w.gear - 2} "
                                        f"(two below Gear {w.gear}), not Gear {v}"), "die"
            return None
        if w.gear == 0:
            if v == 1:
                return None
            if v == 2 and ctx.flying_start and w.n == 0:
                return None
            return "CORE-DICE-10", (f"from Gear 0 the first die must be Gear 1 (Gear 2 only as a Flying Start), "
                                    f"not Gear {v}"), "die"
        if abs(v - w.gear) > 1:
            return "CORE-DICE-09", f"Gear {v} is more than one gear from Gear {w.gear}", "die"
        return None
    if die.brake:
        return "CORE-DICE-17", "the Brake die pairs only with a Gear die", "brake"
    if name in ("coast", "leader"):
        if w.gear == 0:
            return "CORE-DICE-13", "a Coast die cannot be used at Gear 0", "die"
        if name != a.coast_die:
            if name == "leader":
                return "CORE-DICE-15", "Leader dice are only for the round's first player on gravel", "die"
            return "CORE-DICE-15", "the round's first player on gravel must use Leader dice, not Coast dice", "die"
        if w.n_coast + 1 > a.coast:
            rule = "CORE-DAMAGE-04" if a.coast < a.printed.coast + a.printed.leader else "CORE-DICE-04"
            return rule, f"only {a.coast} {a.coast_die.capitalize()} dice may be used this turn", "die"
        return None
    if name == "brake":
        if not ctx.redline:
            return "CORE-DICE-19", "the Brake die cannot be used on its own", "die"
        if w.gear != ctx.top_gear:
            return "CORE-ADV-07", f"Redline: the Brake die is a Coast die only in top gear (Gear {ctx.top_gear})", "die"
        if w.n_brake + 1 > a.brake:
            rule = "CORE-DAMAGE-03" if a.brake < a.printed.brake else "CORE-DICE-04"
            return rule, f"only {a.brake} Brake dice may be used this turn", "die"
        return None
    return "CORE-DICE-02", f"unknown die {name!r}", "die"


def _new_gear(w: Walk, die: Die) -> int:
    return gear_value(die.die) if is_gear(die.die) else w.gear


def _entry_error(ctx: PlanContext, sid: str, gear: int, die: Die, *, check_side: bool = True
                 ) -> tuple[str, str] | None:
    """Why the car cannot enter ``sid`` with this die, or None (occupancy, corners, water, overtaking)."""
    idx = ctx.index
    s = idx.spaces[sid]
    lim = effective_limit(ctx, sid)
    if lim is not None and lim <= 0:
        return "CORE-SHORTCUT-10", f"space {sid} is unusable: its speed limit is down to {lim}"
    for o in idx.overlap[sid]:
        if o in ctx.others:
            if o != sid:
                return "CORE-OVERTAKE-06", f"a car on {o} takes up {sid} (a slide and the lanes it crosses)"
            return "CORE-MOVE-02", f"space {sid} is occupied by another car"
    if s.kind == "corner" and s.corner in ctx.corner_methods:
        if ctx.corner_methods[s.corner] - {s.method}:
            return "CORE-OVERTAKE-05", (f"a car is in corner {s.corner} by the other method; "
                                        f"enter it only by the same lane")
    if s.water and not ctx.ignore_water:
        ok = die.die in ("coast", "leader", "brake") or (die.die == "gear1" and not die.brake)
        if not ok:
            rule = "CORE-WATER-03" if die.die == "gear1" else "CORE-WATER-02"
            return rule, f"water on {sid}: only a Coast die or a Gear 1 die without the Brake may cross it"
    if check_side:
        for o in idx.alongside[sid]:
            g = ctx.others.get(o)
            if g is not None and gear < g:
                rule = "CORE-OVERTAKE-04" if (s.kind == "shortcut" or idx.spaces[o].kind == "shortcut") \
                    else "CORE-OVERTAKE-01"
                return rule, (f"entering {sid} alongside the car on {o} (Gear {g}) needs Gear {g} "
                              f"or more, not Gear {gear}")
    return None


def _landings(ctx: PlanContext, j: str, n: int) -> list[str]:
    succ = ctx.index.succ
    first = succ.get(j, [])
    spots = set(first) if n == 1 else {b for a in first for b in succ.get(a, [])}
    spaces = ctx.index.spaces
    extra = set()
    for sid in spots:  # CORE-JUMP-08: on a corner the car lands in the lane of its choice
        s = spaces[sid]
        if s.kind == "corner" and s.lane[-1:] == "1":
            extra.update(o for o in ctx.index.zones[s.zone_key]
                         if spaces[o].kind == "corner" and spaces[o].lane[-1:] == "1")
    return sorted(spots | extra)


def _place(ctx: PlanContext, w: Walk, die: Die) -> tuple[Placed | None, tuple[str, str, str] | None]:
    err = _die_error(ctx, w, die)
    if err:
        return None, err
    if w.ended:
        return None, ("CORE-LOC-02", f"no die may follow the one that causes a Loss of Control ({w.ended})", "to")
    idx = ctx.index
    if die.to not in idx.spaces:
        return None, ("CORE-MOVE-03", f"there is no space {die.to!r} on this track", "to")
    if die.to not in idx.succ.get(w.pos, ()):
        nxt = ", ".join(idx.succ.get(w.pos, ())) or "none"
        if idx.spaces[die.to].progress <= idx.spaces[w.pos].progress:
            return None, ("CORE-MOVE-04", f"{die.to} is not further along the road than {w.pos} "
                                          f"(one step ahead: {nxt})", "to")
        return None, ("CORE-MOVE-03", f"{die.to} is not one step ahead of {w.pos} (straight or diagonal: {nxt})", "to")
    gear = _new_gear(w, die)
    e = _entry_error(ctx, die.to, gear, die)
    if e:
        return None, (e[0], e[1], "to")
    flying = is_gear(die.die) and w.gear == 0 and gear == 2 and not die.brake
    coast = not is_gear(die.die)
    s = idx.spaces[die.to]
    jump = 0
    if s.jump is not None and gear >= s.jump:
        jump = 1 if gear == s.jump else 2
        spots = _landings(ctx, die.to, jump)
        if die.land is None:
            return None, ("CORE-JUMP-02" if jump == 1 else "CORE-JUMP-03",
                          f"Gear {gear} on the Gear {s.jump} jump at {die.to} lands {jump} space(s) further: "
                          f"say where (`land`: {', '.join(spots)})", "land")
        if die.land not in spots:
            return None, ("CORE-JUMP-02" if jump == 1 else "CORE-JUMP-03",
                          f"a jump from {die.to} in Gear {gear} lands on one of {', '.join(spots) or 'none'}, "
                          f"not {die.land}", "land")
        e = _entry_error(ctx, die.land, gear, die)
        if e:
            rule = "CORE-JUMP-07" if e[0] in ("CORE-MOVE-02", "CORE-OVERTAKE-06") else e[0]
            return None, (rule, f"cannot land on {die.land}: {e[1]}", "land")
        placed = Placed(die, die.land, gear, jump, gear >= s.jump + 2, flying, coast)
    else:
        if die.land is not None:
            why = "it is no jump" if s.jump is None else f"Gear {gear} is below the jump's Gear {s.jump}"
            return None, ("CORE-JUMP-06", f"the die on {die.to} does not jump ({why})", "land")
        placed = Placed(die, die.to, gear, 0, False, flying, coast)
    return placed, None


def _advance(ctx: PlanContext, w: Walk, p: Placed) -> Walk:
    d = p.die
    ended = None
    lim = effective_limit(ctx, p.space)
    if p.jump_loc:
        ended = f"jump too fast, landing on {p.space}"
    elif lim is not None and p.gear > lim and (p.jump == 0 or ctx.jump_landing_limit):
        ended = f"Gear {p.gear} over the limit {lim} on {p.space}"
    return Walk(
        pos=p.space,
        gear=p.gear,
        used=w.used | {d.die} if is_gear(d.die) else w.used,
        n_gear=w.n_gear + (1 if is_gear(d.die) else 0),
        n_coast=w.n_coast + (1 if d.die in ("coast", "leader") else 0),
        n_brake=w.n_brake + (1 if d.brake or d.die == "brake" else 0),
        n=w.n + 1,
        flying=w.flying or p.flying,
        ended=ended,
    )


def start_walk(ctx: PlanContext) -> Walk:
    return Walk(pos=ctx.start, gear=ctx.gear)


def check_die(ctx: PlanContext, w: Walk, die: Die, path: str = "") -> tuple[Placed, Walk]:
    """Lay ``die`` after the partial plan ``w``; raise :class:`IllegalMove` if the rules forbid it."""
    placed, err = _place(ctx, w, die)
    if err:
        rule, msg, fld = err
        raise IllegalMove(rule, msg, f"{path}.{fld}" if path else fld)
    return placed, _advance(ctx, w, placed)


def check_plan(ctx: PlanContext, dice: list[Die], path: str = "dice") -> list[Placed]:
    """Every die of a plan, laid in order (raises :class:`IllegalMove` at the first illegal one)."""
    w = start_walk(ctx)
    out = []
    for i, d in enumerate(dice):
        p, w = check_die(ctx, w, d, f"{path}[{i}]")
        out.append(p)
    return out


def _candidates(ctx: PlanContext, w: Walk) -> list[tuple[str, bool]]:
    a = ctx.allowance
    out: list[tuple[str, bool]] = []
    for name in GEAR_DICE:
        v = gear_value(name)
        if v > ctx.top_gear or name in w.used or w.n_gear >= a.gear:
            continue
        if w.gear == 0:
            if v == 1 or (v == 2 and ctx.flying_start and w.n == 0):
                out.append((name, False))
            continue
        if abs(v - w.gear) <= 1:
            out.append((name, False))
        if w.n_brake < a.brake and v >= 1 and (w.gear - v == 2 or (ctx.brake_drop != "exactly-two" and w.gear - v > 2)):
            out.append((name, True))
    if w.gear > 0 and w.n_coast < a.coast:
        out.append((a.coast_die, False))
    if ctx.redline and w.gear == ctx.top_gear and w.n_brake < a.brake:
        out.append(("brake", False))
    return out


def die_options(ctx: PlanContext, w: Walk) -> list[tuple[Placed, Walk]]:
    """Every legal next die after ``w`` (each jump landing a separate option)."""
    if w.ended:
        return []
    idx = ctx.index
    out = []
    for name, brake in _candidates(ctx, w):
        for to in idx.succ.get(w.pos, ()):
            die = Die(name, to, brake)
            placed, err = _place(ctx, w, die)
            if err and err[2] == "land" and err[0] in ("CORE-JUMP-02", "CORE-JUMP-03") and die.land is None:
                s = idx.spaces[to]
                gear = _new_gear(w, die)
                n = 1 if gear == s.jump else 2
                for land in _landings(ctx, to, n):
                    p2, e2 = _place(ctx, w, replace(die, land=land))
                    if p2 is not None:
                        out.append((p2, _advance(ctx, w, p2)))
                continue
            if placed is not None:
                out.append((placed, _advance(ctx, w, placed)))
    return out


def legal_plans(ctx: PlanContext, max_dice: int | None = None) -> Iterator[tuple[Die, ...]]:
    """Every legal non-empty plan (depth first, shorter plans before their extensions)."""
    limit = max_dice if max_dice is not None else 64

    def walk(w: Walk, prefix: tuple[Die, ...]) -> Iterator[tuple[Die, ...]]:
        if len(prefix) >= limit:
            return
        for placed, nw in die_options(ctx, w):
            plan = prefix + (placed.die,)
            yield plan
            yield from walk(nw, plan)

    yield from walk(start_walk(ctx), ())
