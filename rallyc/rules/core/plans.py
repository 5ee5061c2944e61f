"""Laying dice on the road: which dice plans are legal (CORE-DICE, CORE-MOVE, CORE-CORNER, CORE-SLIDE,
CORE-SHORTCUT, CORE-JUMP, CORE-WATER, CORE-OVERTAKE).

A plan is a sequence of :class:`~rallyc.rules.core.dice.Die`. Which die is legal after a partial plan (a
:class:`Walk`) is described once, by ``_place``: the Dashboard (``_die_error``), the end of the plan, one step
ahead (``_step_error``), the entry of the space and a jump's landing (``_enter``); the end of the plan a die
causes is ``_ended``. :func:`check_die` and :func:`check_plan` validate a record's dice by it (with the rule and
the words of a refusal); :func:`die_options` lists every legal next die and :func:`legal_plans` whole plans by the
same functions, the Dashboard's answers kept per planning situation and the entries per context. Rolling and
its effects are in :mod:`rallyc.rules.core.turn`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter
from typing import TYPE_CHECKING, Iterator, NamedTuple

from rallyc.rules.core.dashboard import Allowance
from rallyc.rules.core.dice import GEAR_DICE, Die, DieKind, gear_value, is_gear
from rallyc.rules.core.errors import IllegalMove
from rallyc.rules.core.state import TrackIndex

if TYPE_CHECKING:  # pragma: no cover
    from rallyc.compiler.track import Space
    from rallyc.rules.core.hooks import CarsMoved, Moved, OccupiedSpaces

__all__ = ["PlanContext", "Walk", "Placed", "OptionTable", "check_die", "check_plan", "situation", "die_options",
           "can_lay", "legal_plans", "effective_limit", "allowance_at", "warning_limit", "is_haybale"]


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
    corner_methods: dict[str, set[str | None]] = field(default_factory=dict)
    #: lay dice as if Water Hazards were plain spaces (to tell a car stuck at a ford, reading water_stuck)
    ignore_water: bool = False
    #: corner limits lowered by -1 tokens stop at this floor (reading unusable_corner), None = no floor
    limit_floor: int | None = None
    #: Monte-Carlo: the allowance of each surface (MC-DICE-01); empty = ``allowance`` everywhere
    allowances: dict[str, Allowance] = field(default_factory=dict)
    #: Warning limit of each surface for this car this turn (MC-WARN, soft-tire wear); empty = ``allowance``'s
    limits: dict[str, int] = field(default_factory=dict)
    #: the Handbrake turn rule is in force (MC-HANDBRAKE-01)
    handbrake: bool = False
    #: car category: ``r6``, ``r5``, ``r4`` (names the rule when a die is above the top gear)
    car: str = "r6"
    #: a hay-bale space (MC-TOKEN-03) is also a chicane token without a limit (reading chicane_without_limit)
    haybale_chicane: bool = True
    #: RX: spaces this car may not enter -> (rule, why): a Joker already driven (RX-JOKER-02), the Pre-grid
    #: once left (RX-START-02)
    barred: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: RX Yellow Flag: spaces where no car may move alongside a car in Gear 1 or more (RX-DAMAGE-04/05)
    no_alongside: frozenset[str] = frozenset()
    #: RX Yellow Flag: spaces of the cars this car was already alongside when the flag was placed; it may move
    #: alongside them normally (RX-DAMAGE-06)
    alongside_before_flag: frozenset[str] = frozenset()
    #: a variant's say on dice laid where cars stand (RX Full Contact's pushes and Push Through,
    #: :class:`~rallyc.rules.core.hooks.OccupiedSpaces`); None: such a space is refused (CORE-MOVE-02)
    contact: "OccupiedSpaces | None" = None

    def __post_init__(self) -> None:
        self.succ = self.index.succ_handbrake if self.handbrake else self.index.succ
        #: the key of its planning situation (:func:`situation`: the key of the Dashboard's answers, :func:`_allowed`), worked out at the first need; a car's context
        #: template holds it (:meth:`~rallyc.rules.core.engine.TurnEngine.context_template`), so a turn's context does
        #: not work it out again
        self.situation: str | None = None
        for corner, methods in corner_methods(self.index, self.others).items():
            self.corner_methods.setdefault(corner, set()).update(methods)


def corner_methods(index: TrackIndex, others: dict[str, int]) -> dict[str, set[str | None]]:
    """The methods (inside, outside...) by which the cars on ``others``' spaces are in each named corner: a car
    entering that corner must take one of them (CORE-OVERTAKE-05)."""
    methods: dict[str, set[str | None]] = {}
    spaces = index.spaces
    for sid in others:
        s = spaces[sid]
        if s.kind == "corner" and s.corner:
            if s.corner in methods:
                methods[s.corner].add(s.method)
            else:
                methods[s.corner] = {s.method}
    return methods


class Walk(NamedTuple):
    """A partial plan: where the car is and what it has used (a named tuple: one is built per die laid)."""

    pos: str
    gear: int
    used: frozenset[str] = frozenset()
    n_gear: int = 0
    n_coast: int = 0
    n_brake: int = 0
    n_boost: int = 0
    n: int = 0
    #: the first die was the Flying Start Gear 2 die (CORE-ADV-01)
    flying: bool = False
    #: a die laid causes a certain Loss of Control: no die may follow it
    ended: str | None = None
    #: the cars this plan's dice moved so far, (name, from, to) in order (Full Contact's pushes, RX-PUSH-03)
    moved: "tuple[Moved, ...]" = ()


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
    #: what the die does to the cars on its space (Full Contact's push or Push Through,
    #: :class:`~rallyc.rules.core.hooks.CarsMoved`)
    contact: "CarsMoved | None" = None


def allowance_at(ctx: PlanContext, sid: str) -> Allowance:
    """The allowance of the column for the surface of ``sid`` (MC-DICE-01), the start's when unknown."""
    s = ctx.index.spaces.get(sid)
    if s is None or not ctx.allowances:
        return ctx.allowance
    return ctx.allowances.get(s.surface, ctx.allowance)


def warning_limit(ctx: PlanContext, sid: str) -> int:
    """The Warning limit on ``sid``: its surface's column (MC-WARN-01), soft-tire wear included."""
    surface = ctx.index.spaces[sid].surface
    limits = ctx.limits
    if surface in limits:
        return limits[surface]
    if ctx.allowances:  # allowance_at, inline: once per die rolled
        return ctx.allowances.get(surface, ctx.allowance).warnings
    return ctx.allowance.warnings


def is_haybale(ctx: PlanContext, s: Space) -> bool:
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
    idx = ctx.index
    if came_from is not None and idx.line_limit:  # only RX tracks have lines
        line = idx.line_limit.get((came_from, sid))
        if line is not None:
            own = effective_limit(ctx, sid)
            return line if own is None else min(own, line)
    s = idx.spaces[sid]
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
    """Why this die cannot be laid next (rule, message, field), or None: the Dashboard of the surface it is laid on
    (MC-DICE-01), which dice and how many, and the gears they may take the car to."""
    return _dashboard_error(ctx, allowance_at(ctx, die.to), w, die.die, die.brake, die.boost)


def _dashboard_error(ctx: PlanContext, a: Allowance, w: Walk, name: str, brake: bool, boost: bool
                     ) -> tuple[str, str, str] | None:
    """:func:`_die_error` under the column ``a``: the die ``name`` (paired with the Brake or the Boost die)."""
    v = _GEAR_VALUE.get(name, 0)
    if v or is_gear(name):
        return _gear_error(ctx, a, w, v or gear_value(name), name, brake, boost)
    if brake:
        return "CORE-DICE-17", "the Brake die pairs only with a Gear die", "brake"
    if boost:
        return "MC-BOOST-01", "the Boost die pairs only with a Gear die", "boost"
    if name in ("coast", "leader"):
        return _coast_error(ctx, a, w, name)
    if name == "brake":
        return _redline_error(ctx, a, w)
    return "CORE-DICE-02", f"unknown die {name!r}", "die"


def _gear_error(ctx: PlanContext, a: Allowance, w: Walk, v: int, name: str, brake: bool, boost: bool
                ) -> tuple[str, str, str] | None:
    """Why the Gear ``v`` die cannot be laid next, alone or paired (CORE-DICE-05/07/09/10, CORE-DICE-04)."""
    if v > ctx.top_gear:
        rule = {"r4": "MC-R4-02", "r5": "MC-R5-02", "rx": "RX-DICE-02"}.get(ctx.car, "CORE-DICE-07")
        return rule, f"this car has no Gear {v} die (top gear {ctx.top_gear})", "die"
    if name in w.used:
        return "CORE-DICE-05", f"the {name} die is already used this turn", "die"
    if w.n_gear + 1 > a.gear:
        rule = _count_rule(ctx, a, "gear", a.gear < a.printed.gear and w.n_gear + 1 <= a.printed.gear)
        return rule, f"only {a.gear} Gear dice may be used this turn{_surface(ctx, a)}", "die"
    if brake and boost:
        return "MC-BOOST-01", "a Gear die pairs with the Brake die or the Boost die, not both", "boost"
    if boost:
        return _boost_error(ctx, a, w, v)
    if brake:
        return _brake_error(ctx, a, w, v)
    if w.gear == 0:
        if v == 1 or (v == 2 and ctx.flying_start and w.n == 0):
            return None
        return "CORE-DICE-10", (f"from Gear 0 the first die must be Gear 1 (Gear 2 only as a Flying Start), "
                                f"not Gear {v}"), "die"
    if abs(v - w.gear) > 1:
        return "CORE-DICE-09", f"Gear {v} is more than one gear from Gear {w.gear}", "die"
    return None


def _boost_error(ctx: PlanContext, a: Allowance, w: Walk, v: int) -> tuple[str, str, str] | None:
    """Why the Gear ``v`` die cannot take the Boost die (MC-BOOST-02, the Boost count)."""
    if w.n_boost + 1 > a.boost:
        rule = _count_rule(ctx, a, "boost", a.boost < a.printed.boost and w.n_boost + 1 <= a.printed.boost)
        return rule, f"only {a.boost} Boost dice may be used this turn{_surface(ctx, a)}", "boost"
    if v != w.gear + 2:
        return "MC-BOOST-02", (f"with the Boost the Gear die must be Gear {w.gear + 2} "
                               f"(two above Gear {w.gear}), not Gear {v}"), "die"
    return None


def _brake_error(ctx: PlanContext, a: Allowance, w: Walk, v: int) -> tuple[str, str, str] | None:
    """Why the Gear ``v`` die cannot take the Brake die (CORE-DICE-18/20, the Brake count)."""
    if w.n_brake + 1 > a.brake:
        rule = _count_rule(ctx, a, "brake", a.brake < a.printed.brake and w.n_brake + 1 <= a.printed.brake)
        return rule, f"only {a.brake} Brake dice may be used this turn{_surface(ctx, a)}", "brake"
    if v < 1 or w.gear - v < 2 or (ctx.brake_drop == "exactly-two" and w.gear - v != 2):
        if w.gear - 2 < 1:
            return "CORE-DICE-20", f"the Brake cannot take Gear {w.gear} below Gear 1", "brake"
        return "CORE-DICE-18", (f"with the Brake the Gear die must be Gear {w.gear - 2} "
                                f"(two below Gear {w.gear}), not Gear {v}"), "die"
    return None


def _coast_error(ctx: PlanContext, a: Allowance, w: Walk, name: str) -> tuple[str, str, str] | None:
    """Why the Coast or Leader die ``name`` cannot be laid next (CORE-DICE-13/15, MC-DICE-04, the count)."""
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


def _redline_error(ctx: PlanContext, a: Allowance, w: Walk) -> tuple[str, str, str] | None:
    """Why the Brake die cannot be laid on its own: only as Redline's Coast die in top gear (CORE-ADV-07)."""
    if not ctx.redline:
        return "CORE-DICE-19", "the Brake die cannot be used on its own", "die"
    if w.gear != ctx.top_gear:
        return "CORE-ADV-07", f"Redline: the Brake die is a Coast die only in top gear (Gear {ctx.top_gear})", "die"
    if w.n_brake + 1 > a.brake:
        rule = _count_rule(ctx, a, "brake", a.brake < a.printed.brake and w.n_brake + 1 <= a.printed.brake)
        return rule, f"only {a.brake} Brake dice may be used this turn{_surface(ctx, a)}", "die"
    return None


def _new_gear(w: Walk, die: Die) -> int:
    return _GEAR_VALUE.get(die.die) or (gear_value(die.die) if is_gear(die.die) else w.gear)


def entry_error(ctx: PlanContext, sid: str, gear: int, die: Die, *, check_side: bool = True,
                 came_from: str | None = None) -> tuple[str, str] | None:
    """Why the car cannot enter ``sid`` from ``came_from`` with this die, or None: what stands on the space, the
    corner's method, water, the cars alongside (unless ``check_side`` is off)."""
    return (_obstacle_error(ctx, sid) or _occupied_error(ctx, sid) or _corner_error(ctx, sid, came_from)
            or _water_error(ctx, sid, die) or (_alongside_error(ctx, sid, gear) if check_side else None))


def _obstacle_error(ctx: PlanContext, sid: str) -> tuple[str, str] | None:
    """A space this car may not enter whatever the die: barred to it (RX-JOKER-02, RX-START-02), hay bales
    (MC-TOKEN-03), a limit down to 0 (CORE-SHORTCUT-10)."""
    if sid in ctx.barred:
        return ctx.barred[sid]
    if is_haybale(ctx, ctx.index.spaces[sid]):
        return "MC-TOKEN-03", f"space {sid} holds hay bales: an impassable obstacle"
    lim = effective_limit(ctx, sid)
    if lim is not None and lim <= 0:
        return "CORE-SHORTCUT-10", f"space {sid} is unusable: its speed limit is down to {lim}"
    return None


def _occupied_error(ctx: PlanContext, sid: str) -> tuple[str, str] | None:
    """Another car on the space, or on a space it overlaps (a slide and the lanes it crosses: CORE-MOVE-02,
    CORE-OVERTAKE-06)."""
    for o in ctx.index.overlap[sid]:
        if o in ctx.others:
            if o != sid:
                return "CORE-OVERTAKE-06", f"a car on {o} takes up {sid} (a slide and the lanes it crosses)"
            return "CORE-MOVE-02", f"space {sid} is occupied by another car"
    return None


def _corner_error(ctx: PlanContext, sid: str, came_from: str | None) -> tuple[str, str] | None:
    """CORE-OVERTAKE-05: a car enters a corner holding another car only by that car's method; in it, it may follow
    that car but not overtake it, so a Handbrake turn (MC-HANDBRAKE-01, which lifts only the rule against changing
    methods mid-corner) may not leave the lane of a car ahead in the corner. A car already in the corner drives on
    by its own method."""
    s = ctx.index.spaces[sid]
    if s.kind != "corner" or s.corner not in ctx.corner_methods:
        return None
    if not _in_corner(ctx, came_from, s.corner):
        if ctx.corner_methods[s.corner] - {s.method}:
            return "CORE-OVERTAKE-05", (f"a car is in corner {s.corner} by the other method; "
                                        f"enter it only by the same lane")
        return None
    assert came_from is not None
    came = ctx.index.spaces[came_from]
    if came.method == s.method:
        return None
    for o in ctx.others:
        other = ctx.index.spaces[o]
        if other.kind == "corner" and other.corner == s.corner and other.method == came.method \
                and other.progress > came.progress:
            return "CORE-OVERTAKE-05", (f"a car on {o} is ahead in corner {s.corner}: a car may follow it but not "
                                        f"overtake it, so no Handbrake turn from {came_from} to {sid}")
    return None


def _water_error(ctx: PlanContext, sid: str, die: Die) -> tuple[str, str] | None:
    """A Water Hazard is crossed only with a Coast die or a Gear 1 die without the Brake (CORE-WATER-02/03)."""
    if not ctx.index.spaces[sid].water or ctx.ignore_water:
        return None
    if die.die in ("coast", "leader", "brake") or (die.die == "gear1" and not die.brake):
        return None
    rule = "CORE-WATER-03" if die.die == "gear1" else "CORE-WATER-02"
    return rule, f"water on {sid}: only a Coast die or a Gear 1 die without the Brake may cross it"


def _alongside_error(ctx: PlanContext, sid: str, gear: int) -> tuple[str, str] | None:
    """Entering a space alongside a car needs its gear or more (CORE-OVERTAKE-01, a Shortcut's neighbours
    CORE-OVERTAKE-04); none under an RX Yellow Flag beside a car in Gear 1 or more (RX-DAMAGE-04)."""
    idx = ctx.index
    for o in idx.alongside[sid]:
        g = ctx.others.get(o)
        if g and sid in ctx.no_alongside and o not in ctx.alongside_before_flag:
            return "RX-DAMAGE-04", (f"Yellow Flag: no moving alongside the car on {o} (Gear {g}) on {sid}, "
                                    f"a tile under or next to the flag")
        if g is not None and gear < g:
            rule = "CORE-OVERTAKE-04" if (idx.spaces[sid].kind == "shortcut" or idx.spaces[o].kind == "shortcut") \
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
    """``die`` laid after ``w``: where it takes the car, or why it cannot be laid (rule, message, field). The one
    description of a legal die: the Dashboard (:func:`_die_error`), the end of the plan, one step ahead, then the
    road (:func:`_enter`)."""
    if ctx.contact is not None and w.moved:
        ctx = ctx.contact.view(ctx, w)  # Full Contact: the cars pushed earlier in this plan have moved
    err = _die_error(ctx, w, die)
    if err:
        return None, err
    if w.ended:
        return None, ("CORE-LOC-02", f"no die may follow the one that causes a Loss of Control ({w.ended})", "to")
    err = _step_error(ctx, w, die)
    if err:
        return None, err
    return _enter(ctx, w, die)


def _step_error(ctx: PlanContext, w: Walk, die: Die) -> tuple[str, str, str] | None:
    """Why ``die.to`` is not one step ahead of the car (CORE-MOVE-03/04, CORE-CORNER-02), or None."""
    idx = ctx.index
    if die.to not in idx.spaces:
        return "CORE-MOVE-03", f"there is no space {die.to!r} on this track", "to"
    if die.to in ctx.succ.get(w.pos, ()):
        return None
    nxt = ", ".join(ctx.succ.get(w.pos, ())) or "none"
    if idx.spaces[die.to].progress <= idx.spaces[w.pos].progress:
        return "CORE-MOVE-04", f"{die.to} is not further along the road than {w.pos} (one step ahead: {nxt})", "to"
    if die.to in idx.succ_handbrake.get(w.pos, ()):
        return "CORE-CORNER-02", (f"{w.pos} -> {die.to} switches from the outside to the inside of the "
                                  f"corner: a Handbrake turn (option handbrake is off)"), "to"
    return "CORE-MOVE-03", f"{die.to} is not one step ahead of {w.pos} (straight or diagonal: {nxt})", "to"


def _enter(ctx: PlanContext, w: Walk, die: Die) -> tuple[Placed | None, tuple[str, str, str] | None]:
    """The die, allowed by the Dashboard and one step ahead, entering its space: a push (Full Contact), the
    space's entry (:func:`entry_error`), a jump's landing."""
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
    s = ctx.index.spaces[die.to]
    if s.jump is not None and gear >= s.jump:
        return _jump(ctx, die, gear, s.jump, flying)
    if die.land is not None:
        why = "it is no jump" if s.jump is None else f"Gear {gear} is below the jump's Gear {s.jump}"
        return None, ("CORE-JUMP-06", f"the die on {die.to} does not jump ({why})", "land")
    return tuple.__new__(Placed, (die, die.to, gear, 0, False, flying, not gear_die, None)), None


def _jump(ctx: PlanContext, die: Die, gear: int, jump_gear: int, flying: bool
          ) -> tuple[Placed | None, tuple[str, str, str] | None]:
    """The die makes the car jump from ``die.to`` (a Gear ``jump_gear`` jump): it lands one space on at that gear,
    two above it (CORE-JUMP-02/03), on a space it may enter (CORE-JUMP-07)."""
    jump = 1 if gear == jump_gear else 2
    spots = _landings(ctx, die.to, jump)
    rule = "CORE-JUMP-02" if jump == 1 else "CORE-JUMP-03"
    if die.land is None:
        return None, (rule, f"Gear {gear} on the Gear {jump_gear} jump at {die.to} lands {jump} space(s) further: "
                            f"say where (`land`: {', '.join(spots)})", "land")
    if die.land not in spots:
        return None, (rule, f"a jump from {die.to} in Gear {gear} lands on one of {', '.join(spots) or 'none'}, "
                            f"not {die.land}", "land")
    e = entry_error(ctx, die.land, gear, die, came_from=die.to)
    if e:
        rule = "CORE-JUMP-07" if e[0] in ("CORE-MOVE-02", "CORE-OVERTAKE-06") else e[0]
        return None, (rule, f"cannot land on {die.land}: {e[1]}", "land")
    coast = not die.die.startswith("gear")
    return tuple.__new__(Placed, (die, die.land, gear, jump, gear >= jump_gear + 2, flying, coast, None)), None


def _advance(ctx: PlanContext, w: Walk, p: Placed) -> Walk:
    """The partial plan after ``w`` and the die placed as ``p``."""
    return _advance_fields(w, p, _ended(ctx, w.pos, p))


def _ended(ctx: PlanContext, came_from: str, p: Placed) -> str | None:
    """How the die placed as ``p`` from ``came_from`` causes a certain Loss of Control, so that no die may follow
    it (CORE-LOC-02): a jump too fast (CORE-JUMP-04), a gear over the limit of the space it ends on (a jump's
    landing's counts unless ``jump_landing_limit`` is off); None when the plan may go on."""
    if p.jump_loc:
        return f"jump too fast, landing on {p.space}"
    lim = effective_limit(ctx, p.space, None if p.jump else came_from)
    if lim is not None and p.gear > lim and (p.jump == 0 or ctx.jump_landing_limit):
        return f"Gear {p.gear} over the limit {lim} on {p.space}"
    return None


def _advance_fields(w: Walk, p: Placed, ended: str | None) -> Walk:
    d = p.die
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


#: no Gear die used yet (a start walk's ``used``)
_NONE_USED: frozenset[str] = frozenset()


def start_walk(ctx: PlanContext) -> Walk:
    """The empty plan: the car on its start space in its gear, no die laid."""
    return tuple.__new__(Walk, (ctx.start, ctx.gear, _NONE_USED, 0, 0, 0, 0, 0, False, None, ()))


def check_die(ctx: PlanContext, w: Walk, die: Die, path: str = "") -> tuple[Placed, Walk]:
    """Lay ``die`` after the partial plan ``w``; raise :class:`IllegalMove` if the rules forbid it."""
    placed, err = _place(ctx, w, die)
    if err or placed is None:
        rule, msg, fld = err or ("CORE-MOVE-03", "the die cannot be laid", "to")
        raise IllegalMove(rule, msg, f"{path}.{fld}" if path else fld)
    return placed, _advance(ctx, w, placed)


def check_plan(ctx: PlanContext, dice: list[Die], path: str = "dice", paths: list[str] | None = None) -> list[Placed]:
    """Every die of a plan, laid in order by :func:`check_die` (raises :class:`IllegalMove` at the first illegal
    one, at ``path[i]``, or at ``paths[i]`` when each die has its own, as an Improvisation re-plan's do)."""
    w = start_walk(ctx)
    out = []
    for i, d in enumerate(dice):
        p, w = check_die(ctx, w, d, f"{path}[{i}]" if paths is None else paths[i])
        out.append(p)
    return out


#: what a column's :class:`Allowance` decides of a die laid (``_die_error`` but the rule a refusal names): its
#: counts, its coasting die and its name (not the printed counts, which only word a refusal; not its Warnings)
_COUNTS = attrgetter("gear", "coast", "brake", "boost", "coast_die", "column")
#: what else of the planning context ``_place`` reads when it accepts a die (one C call: no attribute load each)
_SITUATION_NAMES = ("top_gear", "car", "flying_start", "brake_drop", "redline", "handbrake")
_SITUATION = attrgetter(*_SITUATION_NAMES)
#: the fields of a planning context its :func:`situation` reads
SITUATION_FIELDS = frozenset(("allowance", "allowances") + _SITUATION_NAMES)


def situation(ctx: PlanContext) -> str:
    """The planning situation of ``ctx``: what ``_place`` reads of it besides the cars and tokens of the turn when
    it accepts a die (the counts of the Dashboard's columns, the top gear, the car, the advanced rules and readings
    that change a die's meaning, the Handbrake turn's moves), as the key of the Dashboard's answers
    (:func:`_allowed`): the text of their tuple (ints, words, booleans: one text per tuple), since a string keeps
    its hash and a tuple's is worked out again at every look-up."""
    allowances = ctx.allowances
    return repr((_COUNTS(ctx.allowance), tuple((k, _COUNTS(a)) for k, a in allowances.items()) if allowances else (),
                 _SITUATION(ctx)))


#: every die a player may lay, as (die, with the Brake die, with the Boost die), in the order plans are listed:
#: each Gear die with the Boost die, alone, with the Brake die; the Coast and the Leader die; the Brake die alone
#: (Redline)
_DICE: tuple[tuple[DieKind, bool, bool], ...] = tuple(
    pair for g in GEAR_DICE for pair in ((g, False, True), (g, False, False), (g, True, False))) + (
    (DieKind.COAST, False, False), (DieKind.LEADER, False, False), (DieKind.BRAKE, False, False))
#: the positions in ``_DICE`` of the bits set in a set of dice (a bit per die of ``_DICE``), as they are needed
_BITS: dict[int, tuple[int, ...]] = {}

#: the dice of ``_DICE`` that :func:`_dashboard_error` allows after a partial plan, as a set of bits, per planning
#: situation, surface and what the partial plan used (:func:`_allowed`): the one rule's answers, kept as plans are
#: listed
_ALLOWED: dict[tuple[str, str | None, int, frozenset[str], int, int, int, int, bool], int] = {}
#: at most this many entries are kept in ``_ALLOWED`` (beyond it, the table starts again)
_ALLOWED_BOUND = 100_000


def _allowed(ctx: PlanContext, w: Walk, surface: str | None) -> int:
    """The dice of ``_DICE`` the Dashboard allows after ``w`` on a space of ``surface`` (None: the one column of
    a car without a column per surface), as a set of bits, by :func:`_dashboard_error`, worked out once per
    planning situation (:func:`situation`), surface and dice used so far."""
    key = ctx.situation
    if key is None:
        key = ctx.situation = situation(ctx)
    full = (key, surface, w.gear, w.used, w.n_gear, w.n_coast, w.n_brake, w.n_boost, w.n == 0)
    got = _ALLOWED.get(full)
    if got is None:
        a = ctx.allowance if surface is None else ctx.allowances.get(surface, ctx.allowance)
        got = sum(1 << i for i, d in enumerate(_DICE) if _dashboard_error(ctx, a, w, *d) is None)
        if len(_ALLOWED) >= _ALLOWED_BOUND:
            _ALLOWED.clear()
        _ALLOWED[full] = got
    return got


def _allowed_ahead(ctx: PlanContext, w: Walk) -> tuple[int, ...]:
    """Per space one step ahead of ``w`` (``ctx.succ``'s order), the dice the Dashboard of its surface allows
    there (:func:`_allowed`)."""
    steps = ctx.succ.get(w.pos, ())
    if not ctx.allowances:
        return (_allowed(ctx, w, None),) * len(steps)
    spaces = ctx.index.spaces
    return tuple(_allowed(ctx, w, spaces[to].surface) for to in steps)


class OptionTable:
    """What :func:`die_options` worked out in one planning context, to list the options of many partial plans in
    it (a driver's, :func:`legal_plans`'): how each die enters its space from where the car is in which gear (all
    :func:`_entered` depends on), and the options of a partial plan by where the car is, in which gear, and the
    dice the Dashboard allows ahead (all they depend on but the dice counts). Not under Full Contact, where they
    depend on the cars the plan pushed."""

    __slots__ = ("at", "entered")

    def __init__(self) -> None:
        self.at: dict[tuple[str, int, tuple[int, ...]], list[tuple[Placed, str | None]]] = {}
        self.entered: dict[tuple[int, str, str, int], list[tuple[Placed, str | None]]] = {}


def die_options(ctx: PlanContext, w: Walk, table: OptionTable | None = None) -> list[tuple[Placed, Walk]]:
    """Every legal next die after ``w`` (each jump landing, each place a pushed car may go, a separate option),
    with the partial plan after it: the dice :func:`check_die` accepts, in the order plans are listed (``_DICE``,
    then the spaces ahead). ``table``: what the calls before, on the same context unchanged, worked out."""
    if w.ended:
        return []
    allowed = _allowed_ahead(ctx, w)
    got: list[tuple[Placed, str | None]] | None = None
    if table is None or ctx.contact is not None:
        got = _options_at(ctx, w, allowed, None)
    else:
        key = (w.pos, w.gear, allowed)
        got = table.at.get(key)
        if got is None:
            got = table.at[key] = _options_at(ctx, w, allowed, table.entered)
    return [(placed, _advance_fields(w, placed, ended)) for placed, ended in got]


def can_lay(ctx: PlanContext, w: Walk) -> bool:
    """Some die may be laid after ``w`` (:func:`die_options` is not empty)."""
    return bool(die_options(ctx, w))


def _options_at(ctx: PlanContext, w: Walk, allowed: tuple[int, ...],
                entered: dict[tuple[int, str, str, int], list[tuple[Placed, str | None]]] | None
                ) -> list[tuple[Placed, str | None]]:
    """Each die ``allowed`` on a space one step ahead of ``w`` entering it (:func:`_entered`, kept in ``entered``
    when given), in the order plans are listed."""
    steps = ctx.succ.get(w.pos, ())
    union = 0
    for bits in allowed:
        union |= bits
    order = _BITS.get(union)
    if order is None:
        order = _BITS[union] = tuple(i for i in range(len(_DICE)) if union >> i & 1)
    out: list[tuple[Placed, str | None]] = []
    for i in order:
        for to, bits in zip(steps, allowed):
            if not bits >> i & 1:
                continue
            key = (i, to, w.pos, w.gear)
            got = entered.get(key) if entered is not None else None
            if got is None:
                name, brake, boost = _DICE[i]
                got = _entered(ctx, w, Die(name, to, brake, None, boost))
                if entered is not None:
                    entered[key] = got
            out += got
    return out


def _entered(ctx: PlanContext, w: Walk, die: Die) -> list[tuple[Placed, str | None]]:
    """The ways ``die`` (allowed by the Dashboard, one step ahead of ``w``) may enter its space (:func:`_enter`,
    what :func:`_place` does after those checks), each with how it ends the plan (:func:`_ended`): one, none, or a
    die that must say where it lands or where it pushes a car once per place it may name."""
    view = ctx.contact.view(ctx, w) if ctx.contact is not None and w.moved else ctx  # as _place sees the board
    placed, err = _enter(view, w, die)
    if placed is not None:
        return [(placed, _ended(ctx, w.pos, placed))]
    assert err is not None
    if err[2] == "push_to" and ctx.contact is not None and die.push is None:
        tries = [die._replace(push=dest) for dest in ctx.contact.choices(ctx, w, die)]  # RX-PUSH-12/15
    elif err[2] == "land" and err[0] in ("CORE-JUMP-02", "CORE-JUMP-03") and die.land is None:
        jump = view.index.spaces[die.to].jump
        n = 1 if _new_gear(w, die) == jump else 2
        tries = [die._replace(land=land) for land in _landings(ctx, die.to, n)]
    else:
        return []
    out = []
    for other in tries:
        placed, _ = _enter(view, w, other)
        if placed is not None:
            out.append((placed, _ended(ctx, w.pos, placed)))
    return out


def legal_plans(ctx: PlanContext, max_dice: int | None = None, after: Walk | None = None
                ) -> Iterator[tuple[Die, ...]]:
    """Every legal non-empty plan (depth first, shorter plans before their extensions): the dice of
    :func:`die_options`, which :func:`check_plan` accepts. A plan whose last die is a Push Through onto a space two
    cars share is left out (RX-THROUGH-06: the move may not end there). ``after``: the partial plan of dice already
    laid (Improvisation's re-plans, :func:`~rallyc.rules.core.planner.legal_replans`): the dice that may follow it,
    ``max_dice`` counting those. The options of a partial plan are listed once, however many plans reach it."""
    limit = max_dice if max_dice is not None else 64
    w = start_walk(ctx) if after is None else after
    if w.n >= limit:
        return
    known: dict[Walk, list[tuple[Placed, Walk]]] = {}
    table = OptionTable()

    def options(w: Walk) -> list[tuple[Placed, Walk]]:
        got = known.get(w)
        if got is None:
            got = known[w] = die_options(ctx, w, table)
        return got

    # depth first on an explicit stack: (the options of a partial plan, the next one to take, the plan so far)
    stack: list[tuple[list[tuple[Placed, Walk]], int, tuple[Die, ...]]] = [(options(w), 0, ())]
    while stack:
        opts, i, prefix = stack.pop()
        if i >= len(opts):
            continue
        placed, nw = opts[i]
        stack.append((opts, i + 1, prefix))
        plan = prefix + (placed.die,)
        if placed.contact is None or not placed.contact.no_end:
            yield plan
        if nw.ended is None and nw.n < limit:
            stack.append((options(nw), 0, plan))
