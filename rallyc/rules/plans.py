"""Laying dice on the road: which dice plans are legal (CORE-DICE, CORE-MOVE, CORE-CORNER, CORE-SLIDE,
CORE-SHORTCUT, CORE-JUMP, CORE-WATER, CORE-OVERTAKE).

A plan is a sequence of :class:`~rallyc.rules.dice.Die`. :func:`check_die` validates one die laid
after a partial plan (a :class:`Walk`), :func:`die_options` lists every legal next die, and
:func:`legal_plans` enumerates whole plans. Rolling and its effects are in :mod:`rallyc.rules.turn`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterator, NamedTuple

from rallyc.rules.dashboard import Allowance
from rallyc.rules.dice import GEAR_DICE, Die, DieKind, gear_value, is_gear
from rallyc.rules.errors import IllegalMove
from rallyc.rules.state import TrackIndex

if TYPE_CHECKING:  # pragma: no cover
    from rallyc.rules.contact import ContactMove, ContactPlan

__all__ = ["PlanContext", "Walk", "Placed", "check_die", "check_plan", "placements", "die_options", "can_lay", "legal_plans", 
           "effective_limit", "allowance_at", "warning_limit", "is_haybale"]


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
    #: Monte-Carlo: the allowance of each surface (MC-DICE-01); empty = ``allowance`` everywhere
    allowances: dict = field(default_factory=dict)
    #: Warning limit of each surface for this car this turn (MC-WARN, soft-tire wear); empty = ``allowance``'s
    limits: dict = field(default_factory=dict)
    #: the Handbrake turn rule is in force (MC-HANDBRAKE-01)
    handbrake: bool = False
    #: car category: ``r6``, ``r5``, ``r4`` (names the rule when a die is above the top gear)
    car: str = "r6"
    #: a hay-bale space (MC-TOKEN-03) is also a chicane token without a limit (reading chicane_without_limit)
    haybale_chicane: bool = True
    #: RX: spaces this car may not enter -> (rule, why): a Joker already driven (RX-JOKER-02), the Pre-grid
    #: once left (RX-START-02)
    barred: dict = field(default_factory=dict)
    #: RX Yellow Flag: spaces where no car may move alongside a car in Gear 1 or more (RX-DAMAGE-04/05)
    no_alongside: frozenset = frozenset()
    #: RX Yellow Flag: spaces of the cars this car was already alongside when the flag was placed; it may move
    #: alongside them normally (RX-DAMAGE-06)
    alongside_before_flag: frozenset = frozenset()
    #: RX Full Contact: who is where, for pushes and Push Through (:mod:`rallyc.rules.contact`); None: off
    contact: "ContactPlan | None" = None

    def __post_init__(self) -> None:
        self.succ = self.index.succ_handbrake if self.handbrake else self.index.succ
        spaces = self.index.spaces
        for sid in self.others:
            s = spaces[sid]
            if s.kind == "corner" and s.corner:
                self.corner_methods.setdefault(s.corner, set()).add(s.method)


class Walk(NamedTuple):
    """A partial plan: where the car is and what it has used (a named tuple: one is built per die laid)."""

    pos: str
    gear: int
    used: frozenset = frozenset()
    n_gear: int = 0
    n_coast: int = 0
    n_brake: int = 0
    n_boost: int = 0
    n: int = 0
    #: the first die was the Flying Start Gear 2 die (CORE-ADV-01)
    flying: bool = False
    #: a die laid causes a certain Loss of Control: no die may follow it
    ended: str | None = None
    #: Full Contact: the cars this plan's pushes moved so far, (name, from, to) in order (RX-PUSH-03)
    moved: tuple = ()


class Placed(NamedTuple):
    """One die's effect once laid: where the car ends up and in which gear (a named tuple, like :class:`Walk`)."""

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
    #: Full Contact: the push or Push Through this die makes (:mod:`rallyc.rules.contact`)
    contact: "ContactMove | None" = None


def allowance_at(ctx: PlanContext, sid: str) -> Allowance:
    """The allowance of the column for the surface of ``sid`` (MC-DICE-01), the start's when unknown."""
    s = ctx.index.spaces.get(sid)
    if s is None or not ctx.allowances:
        return ctx.allowance
    return ctx.allowances.get(s.surface, ctx.allowance)


def warning_limit(ctx: PlanContext, sid: str) -> int:
    """The Warning limit on ``sid``: its surface's column (MC-WARN-01), soft-tire wear included."""
    s = ctx.index.spaces[sid]
    if s.surface in ctx.limits:
        return ctx.limits[s.surface]
    return allowance_at(ctx, sid).warnings


def is_haybale(ctx: PlanContext, s) -> bool:
    """A hay-bale obstacle (MC-TOKEN-03)."""
    if not s.tokens:
        return False
    if "haybale" in s.tokens:
        return True
    return ctx.haybale_chicane and "chicane" in s.tokens and s.chicane is None


def effective_limit(ctx: PlanContext, sid: str, came_from: str | None = None) -> int | None:
    """A space's speed limit after -1 tokens (they lower corner spaces only, CORE-SHORTCUT-08/09); a Chicane
    token's limit works like a printed one (MC-TOKEN-02). Entered from ``came_from`` across an RX speed-limit
    line (an edge with ``limit``), the space has that limit too (RX-FORK-03)."""
    if came_from is not None:
        line = ctx.index.line_limit.get((came_from, sid))
        if line is not None:
            own = effective_limit(ctx, sid)
            return line if own is None else min(own, line)
    s = ctx.index.spaces[sid]
    if s.chicane is not None:
        return s.chicane if s.limit is None else min(s.limit, s.chicane)
    if s.limit is None:
        return None
    if s.kind == "corner":
        lim = s.limit - ctx.minus1.get(s.step, 0)
        return max(lim, ctx.limit_floor) if ctx.limit_floor is not None else lim
    return s.limit


def _count_rule(ctx: PlanContext, a: Allowance, kind: str, lost: bool) -> str:
    """The rule a die over its count breaks: damage, the column of the die's surface on a mixed-surface track
    (MC-DICE-01, MC-DICE-02 after a change of surface, MC-DICE-05 for the shared Coast/Leader count), or the
    Dashboard (CORE-DICE-04)."""
    if lost:
        return {"gear": "CORE-DAMAGE-02", "brake": "CORE-DAMAGE-03", "coast": "CORE-DAMAGE-04",
                "boost": "RX-DAMAGE-02" if ctx.car == "rx" else "CORE-DAMAGE-02"}.get(kind, "CORE-DAMAGE-02")
    if kind == "boost" and ctx.car != "r5" and not a.printed.boost:
        return "MC-R5-03"
    if ctx.allowances:
        if kind == "coast":
            return "MC-DICE-05"
        return "MC-DICE-02" if a.column.split("-")[0] != ctx.allowance.column.split("-")[0] else "MC-DICE-01"
    return "CORE-DICE-04"


#: a Gear die's gear (``gear4`` -> 4); any other die is not in it
_GEAR_VALUE: dict[str, int] = {name: gear_value(name) for name in GEAR_DICE}


def _surface(ctx: PlanContext, a: Allowance) -> str:
    """`` on <column>`` in a refusal when each surface has its own column (MC-DICE-01)."""
    return f" on {a.column.replace('-leader', ' (leader)')}" if ctx.allowances else ""


def _die_error(ctx: PlanContext, w: Walk, die: Die) -> tuple[str, str, str] | None:
    """Why this die cannot be laid next (rule, message, field), or None."""
    a = allowance_at(ctx, die.to)
    name = die.die
    v = _GEAR_VALUE.get(name, 0)
    if v or is_gear(name):
        v = v or gear_value(name)
        if v > ctx.top_gear:
            rule = {"r4": "MC-R4-02", "r5": "MC-R5-02", "rx": "RX-DICE-02"}.get(ctx.car, "CORE-DICE-07")
            return rule, f"this car has no Gear {v} die (top gear {ctx.top_gear})", "die"
        if name in w.used:
            return "CORE-DICE-05", f"the {name} die is already used this turn", "die"
        if w.n_gear + 1 > a.gear:
            rule = _count_rule(ctx, a, "gear", a.gear < a.printed.gear and w.n_gear + 1 <= a.printed.gear)
            return rule, f"only {a.gear} Gear dice may be used this turn{_surface(ctx, a)}", "die"
        if die.brake and die.boost:
            return "MC-BOOST-01", "a Gear die pairs with the Brake die or the Boost die, not both", "boost"
        if die.boost:
            if w.n_boost + 1 > a.boost:
                rule = _count_rule(ctx, a, "boost", a.boost < a.printed.boost and w.n_boost + 1 <= a.printed.boost)
                return rule, f"only {a.boost} Boost dice may be used this turn{_surface(ctx, a)}", "boost"
            if v != w.gear + 2:
                return "MC-BOOST-02", (f"with the Boost the Gear die must be Gear {w.gear + 2} "
                                       f"(two above Gear {w.gear}), not Gear {v}"), "die"
            return None
        if die.brake:
            if w.n_brake + 1 > a.brake:
                rule = _count_rule(ctx, a, "brake", a.brake < a.printed.brake and w.n_brake + 1 <= a.printed.brake)
                return rule, f"only {a.brake} Brake dice may be used this turn{_surface(ctx, a)}", "brake"
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
    if die.boost:
        return "MC-BOOST-01", "the Boost die pairs only with a Gear die", "boost"
    if name in ("coast", "leader"):
        if w.gear == 0:
            return "CORE-DICE-13", "a Coast die cannot be used at Gear 0", "die"
        if name != a.coast_die:
            if a.column not in ("gravel", "gravel-leader") or (a.column == "gravel" and a.coast_die == "leader"):
                where = f"on {a.column}"
                return "MC-DICE-04", (f"{where} this Dashboard coasts with {a.coast_die.capitalize()} dice, "
                                      f"not {name.capitalize()} dice"), "die"
            if name == "leader":
                return "CORE-DICE-15", "Leader dice are only for the round's first player on gravel", "die"
            return "CORE-DICE-15", "the round's first player on gravel must use Leader dice, not Coast dice", "die"
        if w.n_coast + 1 > a.coast:
            lost = a.coast < a.printed.coast + a.printed.leader and w.n_coast + 1 <= a.printed.coast + a.printed.leader
            rule = _count_rule(ctx, a, "coast", lost)
            return rule, f"only {a.coast} Coast/Leader dice may be used this turn{_surface(ctx, a)}", "die"
        return None
    if name == "brake":
        if not ctx.redline:
            return "CORE-DICE-19", "the Brake die cannot be used on its own", "die"
        if w.gear != ctx.top_gear:
            return "CORE-ADV-07", f"Redline: the Brake die is a Coast die only in top gear (Gear {ctx.top_gear})", "die"
        if w.n_brake + 1 > a.brake:
            rule = _count_rule(ctx, a, "brake", a.brake < a.printed.brake and w.n_brake + 1 <= a.printed.brake)
            return rule, f"only {a.brake} Brake dice may be used this turn{_surface(ctx, a)}", "die"
        return None
    return "CORE-DICE-02", f"unknown die {name!r}", "die"


def _new_gear(w: Walk, die: Die) -> int:
    return _GEAR_VALUE.get(die.die) or (gear_value(die.die) if is_gear(die.die) else w.gear)


def entry_error(ctx: PlanContext, sid: str, gear: int, die: Die, *, check_side: bool = True,
                 came_from: str | None = None) -> tuple[str, str] | None:
    """Why the car cannot enter ``sid`` from ``came_from`` with this die, or None (occupancy, corners, water,
    overtaking)."""
    idx = ctx.index
    s = idx.spaces[sid]
    if sid in ctx.barred:
        return ctx.barred[sid]
    if is_haybale(ctx, s):
        return "MC-TOKEN-03", f"space {sid} holds hay bales: an impassable obstacle"
    lim = effective_limit(ctx, sid)
    if lim is not None and lim <= 0:
        return "CORE-SHORTCUT-10", f"space {sid} is unusable: its speed limit is down to {lim}"
    for o in idx.overlap[sid]:
        if o in ctx.others:
            if o != sid:
                return "CORE-OVERTAKE-06", f"a car on {o} takes up {sid} (a slide and the lanes it crosses)"
            return "CORE-MOVE-02", f"space {sid} is occupied by another car"
    if s.kind == "corner" and s.corner in ctx.corner_methods and not _in_corner(ctx, came_from, s.corner):
        # CORE-OVERTAKE-05 limits entering a corner; a car already in it drives on by its own method
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
            if g and sid in ctx.no_alongside and o not in ctx.alongside_before_flag:
                return "RX-DAMAGE-04", (f"Yellow Flag: no moving alongside the car on {o} (Gear {g}) on {sid}, "
                                        f"a tile under or next to the flag")
            if g is not None and gear < g:
                rule = "CORE-OVERTAKE-04" if (s.kind == "shortcut" or idx.spaces[o].kind == "shortcut") \
                    else "CORE-OVERTAKE-01"
                return rule, (f"entering {sid} alongside the car on {o} (Gear {g}) needs Gear {g} "
                              f"or more, not Gear {gear}")
    return None


def _in_corner(ctx: PlanContext, sid: str | None, corner: str) -> bool:
    """``sid`` is a space of ``corner``."""
    if sid is None:
        return False
    s = ctx.index.spaces[sid]
    return s.kind == "corner" and s.corner == corner


def _landings(ctx: PlanContext, j: str, n: int) -> list[str]:
    succ = ctx.index.succ  # a jump flies straight on: no handbrake turn in the air
    first = succ.get(j, [])
    spots = set(first) if n == 1 else {b for a in first for b in succ.get(a, [])}
    spaces = ctx.index.spaces
    extra: set[str] = set()
    for sid in spots:  # CORE-JUMP-08: on a corner the car lands in the lane of its choice
        s = spaces[sid]
        if s.kind == "corner" and s.lane[-1:] == "1":
            extra.update(o for o in ctx.index.zones[s.zone_key]
                         if spaces[o].kind == "corner" and spaces[o].lane[-1:] == "1")
    return sorted(spots | extra)


def _place(ctx: PlanContext, w: Walk, die: Die) -> tuple[Placed | None, tuple[str, str, str] | None]:
    if ctx.contact is not None and w.moved:
        ctx = ctx.contact.view(ctx, w)  # Full Contact: the cars pushed earlier in this plan have moved
    err = _die_error(ctx, w, die)
    if err:
        return None, err
    if w.ended:
        return None, ("CORE-LOC-02", f"no die may follow the one that causes a Loss of Control ({w.ended})", "to")
    idx = ctx.index
    if die.to not in idx.spaces:
        return None, ("CORE-MOVE-03", f"there is no space {die.to!r} on this track", "to")
    if die.to not in ctx.succ.get(w.pos, ()):
        nxt = ", ".join(ctx.succ.get(w.pos, ())) or "none"
        if idx.spaces[die.to].progress <= idx.spaces[w.pos].progress:
            return None, ("CORE-MOVE-04", f"{die.to} is not further along the road than {w.pos} "
                                          f"(one step ahead: {nxt})", "to")
        if die.to in idx.succ_handbrake.get(w.pos, ()):
            return None, ("CORE-CORNER-02", f"{w.pos} -> {die.to} switches from the outside to the inside of the "
                                            f"corner: a Handbrake turn (option handbrake is off)", "to")
        return None, ("CORE-MOVE-03", f"{die.to} is not one step ahead of {w.pos} (straight or diagonal: {nxt})", "to")
    gear = _new_gear(w, die)
    if ctx.contact is not None and die.to in ctx.others:  # a push or a Push Through (RX-PUSH, RX-THROUGH)
        return ctx.contact.place(ctx, w, die, gear)
    if die.push is not None:
        return None, ("RX-PUSH-01", f"no car on {die.to} to push", "push_to")
    e = entry_error(ctx, die.to, gear, die, came_from=w.pos)
    if e:
        return None, (e[0], e[1], "to")
    # MC-BOOST-04 (reading 15): a Boost pair is never the Flying Start die
    gear_die = die.die.startswith("gear")  # is_gear
    flying = gear_die and w.gear == 0 and gear == 2 and not die.brake and not die.boost
    coast = not gear_die
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
        e = entry_error(ctx, die.land, gear, die, came_from=die.to)
        if e:
            rule = "CORE-JUMP-07" if e[0] in ("CORE-MOVE-02", "CORE-OVERTAKE-06") else e[0]
            return None, (rule, f"cannot land on {die.land}: {e[1]}", "land")
        placed = tuple.__new__(Placed, (die, die.land, gear, jump, gear >= s.jump + 2, flying, coast, None))
    else:
        if die.land is not None:
            why = "it is no jump" if s.jump is None else f"Gear {gear} is below the jump's Gear {s.jump}"
            return None, ("CORE-JUMP-06", f"the die on {die.to} does not jump ({why})", "land")
        placed = tuple.__new__(Placed, (die, die.to, gear, 0, False, flying, coast, None))
    return placed, None


def _advance(ctx: PlanContext, w: Walk, p: Placed) -> Walk:
    d = p.die
    ended = None
    lim = effective_limit(ctx, p.space, None if p.jump else w.pos)
    if p.jump_loc:
        ended = f"jump too fast, landing on {p.space}"
    elif lim is not None and p.gear > lim and (p.jump == 0 or ctx.jump_landing_limit):
        ended = f"Gear {p.gear} over the limit {lim} on {p.space}"
    name = d.die
    gear_die = name.startswith("gear")  # is_gear, inline: once per die laid
    return tuple.__new__(Walk, (  # the named tuple's __new__ is a Python function
        p.space,
        p.gear,
        w.used | {name} if gear_die else w.used,
        w.n_gear + 1 if gear_die else w.n_gear,
        w.n_coast + 1 if name == "coast" or name == "leader" else w.n_coast,
        w.n_brake + 1 if d.brake or name == "brake" else w.n_brake,
        w.n_boost + 1 if d.boost else w.n_boost,
        w.n + 1,
        w.flying or p.flying,
        ended,
        w.moved + p.contact.moved if p.contact is not None else w.moved,
    ))


def start_walk(ctx: PlanContext) -> Walk:
    return Walk(pos=ctx.start, gear=ctx.gear)


def check_die(ctx: PlanContext, w: Walk, die: Die, path: str = "") -> tuple[Placed, Walk]:
    """Lay ``die`` after the partial plan ``w``; raise :class:`IllegalMove` if the rules forbid it."""
    placed, err = _place(ctx, w, die)
    if err or placed is None:
        rule, msg, fld = err or ("CORE-MOVE-03", "the die cannot be laid", "to")
        raise IllegalMove(rule, msg, f"{path}.{fld}" if path else fld)
    return placed, _advance(ctx, w, placed)


def check_plan(ctx: PlanContext, dice: list[Die], path: str = "dice") -> list[Placed]:
    """Every die of a plan, laid in order (raises :class:`IllegalMove` at the first illegal one).

    The fast path: a die laid after the same partial plan under the same planning situation on this track
    (:func:`placements`) was placed before, and what ``_place`` decides from the track and the Dashboard alone
    (the dice counts and gear steps, one step ahead, the jump and its landing) is taken from there; what
    depends on the others' cars and the tokens this turn (:func:`entry_error` on the space entered and on a
    jump's landing, then :func:`_advance`) is checked again as the full path does. Any doubt (a die not met
    yet, an entry refused) goes through :func:`check_die`, which places it or words the refusal."""
    w = start_walk(ctx)
    out = []
    known = placements(ctx)
    for i, d in enumerate(dice):
        p = _known_place(ctx, known, w, d) if known is not None else None
        if p is not None:
            w = _advance(ctx, w, p)
        else:
            before = w
            p, w = check_die(ctx, w, d, f"{path}[{i}]")
            if known is not None:
                known[(before, d)] = p
        out.append(p)
    return out


def placements(ctx: PlanContext) -> dict[tuple[Walk, Die], Placed] | None:
    """The dice placed before on this track under this planning situation: what ``_place`` reads of ``ctx``
    besides the cars and tokens of the turn (the Dashboard's columns, the top gear, the car, the advanced rules
    and readings that change a die's meaning, the Handbrake turn's moves). Kept on the track's index, so every
    turn, record and pass on the track shares it. None under Full Contact (a push moves other cars mid-plan)."""
    if ctx.contact is not None:
        return None
    key = (ctx.allowance, tuple(ctx.allowances.items()) if ctx.allowances else (), ctx.top_gear, ctx.car,
           ctx.flying_start, ctx.brake_drop, ctx.redline, ctx.handbrake)
    tables = ctx.index.placements
    got = tables.get(key)
    if got is None:
        got = tables[key] = {}
    return got


def _known_place(ctx: PlanContext, known: dict[tuple[Walk, Die], Placed], w: Walk, die: Die) -> Placed | None:
    """``die`` after ``w`` as placed before (:func:`placements`), if the cars and tokens of this turn let the car
    enter its space (and a jump's landing) as :func:`_place` checks; None otherwise (the full path decides)."""
    p = known.get((w, die))
    if p is None:
        return None
    if entry_error(ctx, die.to, p.gear, die, came_from=w.pos) is not None:
        return None
    if p.jump and entry_error(ctx, p.space, p.gear, die, came_from=die.to) is not None:
        return None
    return tuple.__new__(Placed, (die,) + p[1:])  # the die as laid this time (equal to the one placed before)


def _candidates(ctx: PlanContext, w: Walk) -> list[tuple[DieKind, bool, bool]]:
    """Dice that might be laid next, (die, with Brake, with Boost), before the space is checked: the most any
    surface's column allows (each die is then checked against its own surface, MC-DICE-01)."""
    cols = list(ctx.allowances.values()) or [ctx.allowance]
    n_gear = max(a.gear for a in cols)
    n_brake = max(a.brake for a in cols)
    n_boost = max(a.boost for a in cols)
    n_coast = max(a.coast for a in cols)
    coast_dice = sorted({a.coast_die for a in cols if a.coast})
    out: list[tuple[DieKind, bool, bool]] = []
    for name in GEAR_DICE:
        v = gear_value(name)
        if v > ctx.top_gear or name in w.used or w.n_gear >= n_gear:
            continue
        if w.n_boost < n_boost and v == w.gear + 2:
            out.append((name, False, True))
        if w.gear == 0:
            if v == 1 or (v == 2 and ctx.flying_start and w.n == 0):
                out.append((name, False, False))
            continue
        if abs(v - w.gear) <= 1:
            out.append((name, False, False))
        if w.n_brake < n_brake and v >= 1 and (w.gear - v == 2 or (ctx.brake_drop != "exactly-two" and w.gear - v > 2)):
            out.append((name, True, False))
    if w.gear > 0 and w.n_coast < n_coast:
        out.extend((d, False, False) for d in coast_dice)
    if ctx.redline and w.gear == ctx.top_gear and w.n_brake < n_brake:
        out.append((DieKind.BRAKE, False, False))
    return out


def die_options(ctx: PlanContext, w: Walk) -> list[tuple[Placed, Walk]]:
    """Every legal next die after ``w`` (each jump landing a separate option)."""
    return list(_die_options(ctx, w))


def can_lay(ctx: PlanContext, w: Walk) -> bool:
    """Some die may be laid after ``w`` (:func:`die_options` stopped at the first)."""
    return next(_die_options(ctx, w), None) is not None


def _die_options(ctx: PlanContext, w: Walk) -> Iterator[tuple[Placed, Walk]]:
    if w.ended:
        return
    idx = ctx.index
    for name, brake, boost in _candidates(ctx, w):
        for to in ctx.succ.get(w.pos, ()):
            die = Die(name, to, brake, boost=boost)
            placed, err = _place(ctx, w, die)
            if err and err[2] == "push_to" and ctx.contact is not None and die.push is None:
                for dest in ctx.contact.choices(ctx, w, die):  # RX-PUSH-12/15: one option per place chosen
                    p2, e2 = _place(ctx, w, die._replace(push=dest))
                    if p2 is not None:
                        yield p2, _advance(ctx, w, p2)
                continue
            if err and err[2] == "land" and err[0] in ("CORE-JUMP-02", "CORE-JUMP-03") and die.land is None:
                s = idx.spaces[to]
                gear = _new_gear(w, die)
                n = 1 if gear == s.jump else 2
                for land in _landings(ctx, to, n):
                    p2, e2 = _place(ctx, w, die._replace(land=land))
                    if p2 is not None:
                        yield p2, _advance(ctx, w, p2)
                continue
            if placed is not None:
                yield placed, _advance(ctx, w, placed)


def legal_plans(ctx: PlanContext, max_dice: int | None = None) -> Iterator[tuple[Die, ...]]:
    """Every legal non-empty plan (depth first, shorter plans before their extensions)."""
    limit = max_dice if max_dice is not None else 64

    def walk(w: Walk, prefix: tuple[Die, ...]) -> Iterator[tuple[Die, ...]]:
        if len(prefix) >= limit:
            return
        for placed, nw in die_options(ctx, w):
            plan = prefix + (placed.die,)
            if placed.contact is None or not placed.contact.no_end:  # RX-THROUGH-06: no end on a full space
                yield plan
            yield from walk(nw, plan)

    yield from walk(start_walk(ctx), ())


