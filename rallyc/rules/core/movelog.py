"""What each die did, recorded as it moves the car (the ``dice`` and ``road`` chapters of the turn's
:class:`~rallyc.rules.core.rulelog.RuleLog`): the die and how it changed the gear (CORE-DICE, CORE-ADV-01/07, MC-BOOST),
then what the road did to the car on the space it entered (CORE-MOVE, CORE-CORNER, CORE-SLIDE, CORE-SHORTCUT,
CORE-JUMP, CORE-WATER, CORE-OVERTAKE, MC-SNOW, MC-TOKEN, MC-HANDBRAKE).

The roll's :class:`~rallyc.rules.core.rolling._Runner` calls :meth:`MoveLog.moved` for every die that moves the car,
with the limit it has just applied; nothing here decides anything the runner does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from rallyc.rules.core.dice import DieKind, is_gear
from rallyc.rules.core.plans import PlanContext, Placed, is_haybale

if TYPE_CHECKING:  # pragma: no cover
    from rallyc.compiler.track import Space
    from rallyc.rules.core.engine import TokenKind
    from rallyc.rules.core.rolling import Movement
    from rallyc.rules.core.state import TrackIndex
    from rallyc.rules.core.turn import Roll, Turn

__all__ = ["MoveLog", "roll_rules"]

_MOVED = ("CORE-MOVE-03", "CORE-MOVE-04", "CORE-MOVE-01", "CORE-MOVE-02")
_HANDBRAKE = ("MC-HANDBRAKE-01", "MC-HANDBRAKE-02", "MC-HANDBRAKE-03", "MC-HANDBRAKE-04")
_CORNER = ("CORE-CORNER-01", "CORE-CORNER-02")
_SLIDE = ("CORE-SLIDE-01", "CORE-SLIDE-02", "CORE-SLIDE-03", "CORE-SLIDE-04")
_SLIDE_ZONE = ("CORE-SLIDE-01", "CORE-SLIDE-02")
_SHORTCUT = ("CORE-SHORTCUT-01", "CORE-SHORTCUT-02", "CORE-SHORTCUT-03", "CORE-SHORTCUT-05")
_SLIDE_LANES = ("s1", "s2")


class _Entry(NamedTuple):
    """What entering one space records whatever the die and the car (one per space of a track, built once)."""

    #: a corner's rules (CORE-CORNER-01/02, 04 or 05), the slide, Shortcut and snow rules of the space
    corner: tuple[str, ...]
    lanes: tuple[str, ...]
    surface: str
    #: a lane space of a plain zone (CORE-MOVE-05 between two of them), a slide half, a Shortcut
    plain_lane: str | None
    slide: bool
    shortcut: bool
    water: bool


def _entry(index: "TrackIndex", s: "Space") -> _Entry:
    corner: tuple[str, ...] = ()
    if s.kind == "corner":
        corner = _CORNER + ("CORE-CORNER-04" if s.method == "in" else "CORE-CORNER-05",)
    lanes: tuple[str, ...] = ("MC-SNOW-01",) if s.kind == "wide" and s.surface == "snow" else ()
    slide = s.lane in _SLIDE_LANES
    if slide:
        lanes += _SLIDE + (("MC-SNOW-01",) if s.surface == "snow" else ())
    elif s.kind != "shortcut" and s.zone_key in index.slide_zones:
        lanes += _SLIDE_ZONE
    if s.kind == "shortcut":
        lanes += _SHORTCUT
    return _Entry(corner, lanes, s.surface, s.lane if s.kind == "lane" else None, slide,
                  s.kind == "shortcut", bool(s.water))


def entries(index: "TrackIndex") -> dict[str, _Entry]:
    """Per space of the track, what entering it records whatever the die (worked out once per track)."""
    got = index.__dict__.get("_move_entries")
    if got is None:
        got = index.__dict__["_move_entries"] = {sid: _entry(index, s) for sid, s in index.spaces.items()}
    return got


def steps(index: "TrackIndex") -> dict[tuple[str, str, bool], tuple[tuple[str, ...], bool, tuple[str, ...]]]:
    """Per step driven on the track (from, to, Handbrake rule in force), what it records (:func:`_step_rules`),
    filled as steps are driven."""
    got = index.__dict__.get("_move_steps")
    if got is None:
        got = index.__dict__["_move_steps"] = {}
    return got


def _step_rules(ctx: PlanContext, pos: str, entered: str) -> tuple[tuple[str, ...], bool, tuple[str, ...]]:
    """What one step from ``pos`` to ``entered`` records whatever the die, in order: the move (CORE-MOVE-01..04), a
    lane change (CORE-MOVE-05), a Handbrake turn (MC-HANDBRAKE), the corner entered; whether the corners' methods
    are then compared (CORE-CORNER-03); the slide, Shortcut and snow rules of the space, between a slide and a
    Shortcut (CORE-SHORTCUT-04)."""
    table = entries(ctx.index)
    e, h = table[entered], table[pos]
    first: tuple[str, ...] = _MOVED
    if e.plain_lane and h.plain_lane and h.plain_lane != e.plain_lane:
        first += ("CORE-MOVE-05",)
    if ctx.handbrake and (ctx.index.track.graph.get_edge_data(pos, entered) or {}).get("handbrake"):
        first += _HANDBRAKE
    after = e.lanes + (("CORE-SHORTCUT-04",) if (e.slide and h.shortcut) or (e.shortcut and h.slide) else ())
    return first + e.corner, bool(e.corner), after


#: the kinds of dice (CORE-DICE-06), as bits
_GEAR, _BRAKE, _COAST = 1, 2, 4
#: (Flat Out, Flying Start option, an R5) -> (die kind, brake, boost, flying, from Gear 0) -> (rules, kinds)
_Flags = tuple[bool, bool, bool]
_DieKey = tuple[DieKind, bool, bool, bool, bool]
_DICE: dict[_Flags, dict[_DieKey, tuple[tuple[str, ...], int]]] = {}


def _die_rules(key: tuple[DieKind, bool, bool, bool, bool, bool, bool, bool]) -> tuple[tuple[str, ...], int]:
    """The rules a die records (CORE-DICE, CORE-ADV-01/07/08, MC-BOOST, MC-R5-03) and its kinds, by :data:`_DICE`'s
    key."""
    kind, brake, boost, flying, from0, flat_out, flying_start, r5 = key
    out: list[str] = ["CORE-MOVE-06"]
    if is_gear(kind):
        kinds = _GEAR
        out += ("CORE-DICE-08", "CORE-DICE-05")
        if brake:
            kinds |= _BRAKE
            out += ("CORE-DICE-17", "CORE-DICE-18") + (("CORE-SECONDS-02",) if flat_out else ())
        elif boost:
            out += ("MC-BOOST-01", "MC-BOOST-02")
            if from0 and flying_start:
                out.append("MC-BOOST-04")  # a Boost pair from Gear 0 is no Flying Start
            if r5:
                out.append("MC-R5-03")
        elif flying:
            out.append("CORE-ADV-01")
        else:
            out.append("CORE-DICE-10" if from0 else "CORE-DICE-09")
    elif kind == "brake":
        kinds = _COAST
        out += ("CORE-ADV-07", "CORE-DICE-19") + (("CORE-ADV-08",) if flat_out else ())
    else:
        kinds = _COAST
        out += ("CORE-DICE-11", "CORE-DICE-12", "CORE-DICE-13")
        if kind == "leader":
            out += ("CORE-DICE-14", "CORE-DICE-15")
    return tuple(out), kinds


class MoveLog:
    """The dice and road rules of one movement, die by die (one per roll of dice: a turn's, or a re-laid Flat
    Out's)."""

    __slots__ = ("ctx", "crashed", "dice", "road", "prev_gear", "kinds", "was_alongside", "prev_limited", "corners",
                 "surfaces", "n", "entries", "steps", "flags", "table", "other_corners")

    def __init__(self, ctx: PlanContext, flat_out: bool, crashed: frozenset[str]) -> None:
        self.ctx = ctx
        #: the spaces of crashed cars and cars changing a tire (CORE-OVERTAKE-08)
        self.crashed = crashed
        self.dice: list[str] = []
        self.road: list[str] = []
        self.prev_gear = ctx.gear
        #: the kinds of dice that moved the car (CORE-DICE-06), as bits
        self.kinds = 0
        self.was_alongside = False
        self.prev_limited: int | None = None
        #: the corners entered, with their method (CORE-CORNER-03)
        self.corners: list[tuple[str | None, str | None]] = []
        index = ctx.index
        self.entries = entries(index)
        self.steps = steps(index)
        #: the surfaces driven on, on a track of several (MC-TIRE-01)
        self.surfaces = {self.entries[ctx.start].surface} if len(index.surfaces) > 1 else None
        self.n = 0
        #: what each die records in this movement's situation (:func:`_die_rules`)
        self.flags = flags = (flat_out, ctx.flying_start, ctx.car == "r5")
        table = _DICE.get(flags)
        if table is None:
            table = _DICE[flags] = {}
        self.table = table
        #: the corners the other cars are in (CORE-OVERTAKE-05), worked out at the first corner entered
        self.other_corners: set[str | None] | None = None

    def moved(self, p: Placed, r: "Roll", came_from: str, lim: int | None) -> None:
        """The die ``r`` laid as ``p`` moved the car from ``came_from`` onto ``p.die.to`` (landing on ``p.space``),
        whose limit was ``lim``: the die's rules, then the road's."""
        die = p.die
        prev_gear = self.prev_gear
        key = (die.die, die.brake, die.boost, p.flying, prev_gear == 0)
        got = self.table.get(key)
        if got is None:
            got = self.table[key] = _die_rules(key + self.flags)
        dice = self.dice
        dice += got[0]
        self.kinds |= got[1]
        if p.gear < prev_gear:
            dice.append("CORE-DICE-20")
        self.prev_gear = p.gear
        entered = die.to
        out = self.road
        ctx = self.ctx
        step = self.steps.get((came_from, entered, ctx.handbrake))
        if step is None:
            step = self.steps[(came_from, entered, ctx.handbrake)] = _step_rules(ctx, came_from, entered)
        out += step[0]
        if step[1]:
            self._corner(entered, came_from)
        out += step[2]
        if self.surfaces is not None:
            self.surfaces.add(self.entries[entered].surface)
        if lim is not None or self.prev_limited is not None:
            self._limit(p, entered, lim)
        self._hazards(p, entered, came_from)
        self.n += 1

    def close(self) -> None:
        """The movement is over: dice of several kinds (CORE-DICE-06), dice laid (CORE-DICE-04), surfaces crossed
        (MC-TIRE-01, MC-DICE-02)."""
        if self.kinds & (self.kinds - 1):
            self.dice.append("CORE-DICE-06")
        if self.n:
            self.dice.append("CORE-DICE-04")
        if self.surfaces is not None and len(self.surfaces) > 1:
            self.road += ("MC-TIRE-01", "MC-DICE-02")

    def _hazards(self, p: Placed, entered: str, pos: str) -> None:
        """Jumps, water, hay bales, the other cars (overtaking, CORE-OVERTAKE-08)."""
        if p.jump:
            self._jump(p, entered)
        if self.entries[entered].water or self.entries[pos].water:
            self._water(p, self.entries[entered].water, entered)
        ctx = self.ctx
        if ctx.index.token_spaces and self._haybale(pos):
            self.road.append("MC-TOKEN-03")
        others = ctx.others
        if others:
            beside = ctx.index.alongside[entered]
            if self.was_alongside or (beside and not others.keys().isdisjoint(beside)) or self.entries[entered].corner \
                    or self.entries[entered].slide:
                self._overtaking(p, entered)
        if self.crashed and (entered in self.crashed or p.space in self.crashed):
            self.road.append("CORE-OVERTAKE-08")

    def _water(self, p: Placed, into: bool, entered: str) -> None:
        """Entering a Water Hazard (``into``: CORE-WATER-01..03, a water token's MC-TOKEN-01), or leaving one after
        the first die (CORE-WATER-05)."""
        out = self.road
        if into:
            out += ("CORE-WATER-01", "CORE-WATER-02" if p.die.die != "gear1" else "CORE-WATER-03")
            if "water" in self.ctx.index.spaces[entered].tokens:
                out.append("MC-TOKEN-01")
        elif self.n > 0:
            out.append("CORE-WATER-05")

    def _haybale(self, pos: str) -> bool:
        """A hay bale beside the road ahead of ``pos`` (MC-TOKEN-03)."""
        ctx = self.ctx
        spaces = ctx.index.spaces
        return any(spaces[n].tokens and is_haybale(ctx, spaces[n]) for n in ctx.succ.get(pos, ()))

    def _corner(self, entered: str, pos: str) -> None:
        """Leaving one corner for the next by the other method (CORE-CORNER-03)."""
        spaces = self.ctx.index.spaces
        s = spaces[entered]
        corners = self.corners
        if not corners or corners[-1][0] != s.corner:
            if corners and spaces[pos].kind == "corner" and corners[-1][1] != s.method:
                self.road.append("CORE-CORNER-03")
            corners.append((s.corner, s.method))

    def _limit(self, p: Placed, entered: str, lim: int | None) -> None:
        """A speed limit (CORE-CORNER-06/08/09), a chicane token's (MC-TOKEN-02), lowered by -1 tokens
        (CORE-SHORTCUT-08)."""
        out = self.road
        if lim is not None:
            s = self.ctx.index.spaces[entered]
            out.append("CORE-CORNER-06" if s.kind == "corner" else "CORE-CORNER-09")
            if s.chicane is not None:
                out.append("MC-TOKEN-02")
            if s.kind == "corner" and self.ctx.minus1.get(s.step):
                out.append("CORE-SHORTCUT-08")
        if self.prev_limited is not None and p.gear > self.prev_limited:
            out.append("CORE-CORNER-08")
        self.prev_limited = lim

    def _jump(self, p: Placed, entered: str) -> None:
        out = self.road
        spaces = self.ctx.index.spaces
        out += ("CORE-JUMP-01", "CORE-JUMP-02" if p.jump == 1 else "CORE-JUMP-03")
        if any(t.startswith("jump") for t in spaces[entered].tokens):
            out.append("MC-TOKEN-01")
        if spaces[p.space].kind == "corner":
            out.append("CORE-JUMP-08")
        if p.jump_loc:
            out.append("CORE-JUMP-04")

    def _overtaking(self, p: Placed, entered: str) -> None:
        """Entering a space alongside a car on the road (CORE-OVERTAKE-01..07)."""
        ctx = self.ctx
        out = self.road
        others = ctx.others
        spaces = ctx.index.spaces
        s = spaces[entered]
        beside = [o for o in ctx.index.alongside[entered] if o in others]
        if beside:
            self._alongside(s, beside)
        elif self.was_alongside:
            out.append("CORE-OVERTAKE-02")
            self.was_alongside = False
        if s.kind == "corner":
            if self.other_corners is None:
                self.other_corners = {spaces[o].corner for o in others if spaces[o].kind == "corner"}
            if s.corner in self.other_corners:
                out.append("CORE-OVERTAKE-05")
        if s.lane in _SLIDE_LANES and any(o in others for o in ctx.index.zones[s.zone_key] if o != entered):
            out.append("CORE-OVERTAKE-06")

    def _alongside(self, s: "Space", beside: list[str]) -> None:
        """Moving alongside the cars on ``beside`` (CORE-OVERTAKE-01/03/04/07)."""
        out = self.road
        spaces = self.ctx.index.spaces
        shortcut = s.kind == "shortcut" or any(spaces[o].kind == "shortcut" for o in beside)
        out.append("CORE-OVERTAKE-04" if shortcut else "CORE-OVERTAKE-01")
        if len(beside) > 1:
            out.append("CORE-OVERTAKE-03")
        if shortcut and any(spaces[o].kind == "corner" or spaces[o].lane in _SLIDE_LANES for o in self.ctx.others):
            out.append("CORE-OVERTAKE-07")
        self.was_alongside = True


def roll_rules(ctx: PlanContext, turn: "Turn", move: "Movement", restart: bool, tokens: "TokenKind") -> list[str]:
    """The ``roll`` chapter of a turn, recorded when its movement is over: a blocked car (CORE-MOVE-07..11,
    CORE-WATER-04), the roll one by one or Flat Out (CORE-ROLL), the tokens earned and spent (``tokens``' rules:
    CORE-SECONDS, or Focus tokens), Warnings, the Flying Start (CORE-ADV-02..05)."""
    out: list[str] = []
    run = move.run
    resolved = run.resolved
    if not turn.dice:
        _blocked(out, ctx)
    else:
        out.append("CORE-MOVE-07")
    out.append("CORE-ROLL-01")
    if turn.flat_out:
        _flat_out(out, ctx, move, tokens)
    elif resolved:
        out += ("CORE-ROLL-02", "CORE-ROLL-03", "CORE-ROLL-07", "CORE-ROLL-08")
        if run.stopped:
            out.append("CORE-ROLL-06")
        if ctx.allowances and len({ctx.index.spaces[p.space].surface for p, _ in resolved}) > 1:
            out.append("MC-WARN-01")
    if move.spent:  # (tokens are spent only to secure dice)
        _secured(out, resolved, tokens)
    if run.warnings:
        out.append("CORE-ROLL-04")
    if restart and any(p.flying for p, _ in resolved):
        out.append("CORE-ADV-04")
    if run.flying_stop:
        out.append("CORE-ADV-02")
        if turn.flat_out and sum(1 for _, r in resolved for f in (r.face, r.brake_face, r.boost_face)
                                 if f == "warning") >= 2:
            out.append("CORE-ADV-03")
    return out


def _blocked(out: list[str], ctx: PlanContext) -> None:
    """No die can be laid: the car stays, blocked (CORE-MOVE-07..11), maybe at a Water Hazard (CORE-WATER-04)."""
    out += ("CORE-MOVE-07", "CORE-MOVE-10", "CORE-MOVE-11")
    ahead = ctx.succ.get(ctx.start, [])
    others = ctx.others
    full = all(any(o in others for o in ctx.index.overlap[n]) for n in ahead)
    out.append("CORE-MOVE-09" if full else "CORE-MOVE-08")
    if any(ctx.index.spaces[n].water for n in ahead):
        out.append("CORE-WATER-04")


def _flat_out(out: list[str], ctx: PlanContext, move: "Movement", tokens: "TokenKind") -> None:
    """Every die rolled at once (CORE-ROLL-09..16), its tokens (CORE-SECONDS-01/03), the lowest limit (MC-WARN-02)."""
    out += ("CORE-ROLL-09", "CORE-ROLL-10", "CORE-SECONDS-03")
    if move.gained:
        out.append(tokens.earn_rule)
    if move.failed:
        out += ("CORE-ROLL-12", "CORE-ROLL-13", "CORE-ROLL-14", "CORE-ROLL-15")
        if move.gained:
            out.append("CORE-ROLL-16")
    else:
        out.append("CORE-ROLL-11")
    resolved = move.run.resolved
    if ctx.allowances and len({ctx.index.spaces[p.space].surface for p, _ in resolved}) > 1:
        out.append("MC-WARN-02")


def _secured(out: list[str], resolved: list[tuple[Placed, "Roll"]], tokens: "TokenKind") -> None:
    """Dice secured with tokens (CORE-SECONDS-04..10, MC-BOOST-03, CORE-ADV-05)."""
    secured = [r for _, r in resolved if r.secured]
    out += ("CORE-SECONDS-04", "CORE-SECONDS-06", tokens.spend_rule, tokens.lack_rule)
    if any(r.die.brake for r in secured):
        out.append("CORE-SECONDS-10")
    if any(r.die.boost for r in secured):
        out.append("MC-BOOST-03")
    if any(p.flying for p, r in resolved if r.secured):
        out.append("CORE-ADV-05")
