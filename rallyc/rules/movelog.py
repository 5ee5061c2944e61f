"""What each die did, recorded as it moves the car (the ``dice`` and ``road`` chapters of the turn's
:class:`~rallyc.rules.rulelog.RuleLog`): the die and how it changed the gear (CORE-DICE, CORE-ADV-01/07, MC-BOOST),
then what the road did to the car on the space it entered (CORE-MOVE, CORE-CORNER, CORE-SLIDE, CORE-SHORTCUT,
CORE-JUMP, CORE-WATER, CORE-OVERTAKE, MC-SNOW, MC-TOKEN, MC-HANDBRAKE).

The roll's :class:`~rallyc.rules.rolling._Runner` calls :meth:`MoveLog.moved` for every die that moves the car,
with the limit it has just applied; nothing here decides anything the runner does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rallyc.rules.dice import is_gear
from rallyc.rules.plans import PlanContext, Placed, is_haybale

if TYPE_CHECKING:  # pragma: no cover
    from rallyc.compiler.track import Space
    from rallyc.rules.engine import TokenKind
    from rallyc.rules.rolling import Movement
    from rallyc.rules.turn import Roll, Turn

__all__ = ["MoveLog", "roll_rules"]

_MOVED = ("CORE-MOVE-03", "CORE-MOVE-04", "CORE-MOVE-01", "CORE-MOVE-02")
_HANDBRAKE = ("MC-HANDBRAKE-01", "MC-HANDBRAKE-02", "MC-HANDBRAKE-03", "MC-HANDBRAKE-04")
_CORNER = ("CORE-CORNER-01", "CORE-CORNER-02")
_SLIDE = ("CORE-SLIDE-01", "CORE-SLIDE-02", "CORE-SLIDE-03", "CORE-SLIDE-04")
_SLIDE_ZONE = ("CORE-SLIDE-01", "CORE-SLIDE-02")
_SHORTCUT = ("CORE-SHORTCUT-01", "CORE-SHORTCUT-02", "CORE-SHORTCUT-03", "CORE-SHORTCUT-05")
_SLIDE_LANES = ("s1", "s2")


class MoveLog:
    """The dice and road rules of one movement, die by die (one per roll of dice: a turn's, or a re-laid Flat
    Out's)."""

    __slots__ = ("ctx", "flat_out", "crashed", "dice", "road", "prev_gear", "kinds", "was_alongside",
                 "prev_limited", "corners", "surfaces", "n")

    def __init__(self, ctx: PlanContext, flat_out: bool, crashed: frozenset[str]) -> None:
        self.ctx = ctx
        self.flat_out = flat_out
        #: the spaces of crashed cars and cars changing a tire (CORE-OVERTAKE-08)
        self.crashed = crashed
        self.dice: list[str] = []
        self.road: list[str] = []
        self.prev_gear = ctx.gear
        #: the kinds of dice that moved the car (CORE-DICE-06)
        self.kinds: set[str] = set()
        self.was_alongside = False
        self.prev_limited: int | None = None
        #: the corners entered, with their method (CORE-CORNER-03)
        self.corners: list[tuple[str | None, str | None]] = []
        self.surfaces = {ctx.index.spaces[ctx.start].surface}
        self.n = 0

    def moved(self, p: Placed, r: "Roll", came_from: str, lim: int | None) -> None:
        """The die ``r`` laid as ``p`` moved the car from ``came_from`` onto ``p.die.to`` (landing on ``p.space``),
        whose limit was ``lim``."""
        self._die(p)
        self._road(p, r, came_from, lim)
        self.n += 1

    def close(self) -> None:
        """The movement is over: dice of several kinds (CORE-DICE-06), dice laid (CORE-DICE-04), surfaces crossed
        (MC-TIRE-01, MC-DICE-02)."""
        if len(self.kinds) > 1:
            self.dice.append("CORE-DICE-06")
        if self.n:
            self.dice.append("CORE-DICE-04")
        if len(self.surfaces) > 1:
            self.road += ("MC-TIRE-01", "MC-DICE-02")

    def _die(self, p: Placed) -> None:
        out = self.dice
        die = p.die
        out.append("CORE-MOVE-06")
        if is_gear(die.die):
            self.kinds.add("gear")
            out += ("CORE-DICE-08", "CORE-DICE-05")
            if die.brake:
                self.kinds.add("brake")
                out += ("CORE-DICE-17", "CORE-DICE-18")
                if self.flat_out:
                    out.append("CORE-SECONDS-02")
            elif die.boost:
                self._boost()
            elif p.flying:
                out.append("CORE-ADV-01")
            else:
                out.append("CORE-DICE-10" if self.prev_gear == 0 else "CORE-DICE-09")
        elif die.die == "brake":
            self.kinds.add("coast")
            out += ("CORE-ADV-07", "CORE-DICE-19")
            if self.flat_out:
                out.append("CORE-ADV-08")
        else:
            self.kinds.add("coast")
            out += ("CORE-DICE-11", "CORE-DICE-12", "CORE-DICE-13")
            if die.die == "leader":
                out += ("CORE-DICE-14", "CORE-DICE-15")
        if p.gear < self.prev_gear:
            out.append("CORE-DICE-20")
        self.prev_gear = p.gear

    def _boost(self) -> None:
        out = self.dice
        out += ("MC-BOOST-01", "MC-BOOST-02")
        if self.prev_gear == 0 and self.ctx.flying_start:
            out.append("MC-BOOST-04")  # a Boost pair from Gear 0 is no Flying Start
        if self.ctx.car == "r5":
            out.append("MC-R5-03")

    def _road(self, p: Placed, r: "Roll", pos: str, lim: int | None) -> None:
        ctx = self.ctx
        out = self.road
        spaces = ctx.index.spaces
        entered = p.die.to
        s = spaces[entered]
        here = spaces[pos]
        self.surfaces.add(s.surface)
        out += _MOVED
        if here.lane != s.lane and here.kind == s.kind == "plain" and here.lane and s.lane:
            out.append("CORE-MOVE-05")
        if ctx.handbrake and (ctx.index.track.graph.get_edge_data(pos, entered) or {}).get("handbrake"):
            out += _HANDBRAKE
        if s.kind == "corner":
            self._corner(s, here)
        self._lanes(s, here)
        self._limit(p, s, lim)
        if p.jump:
            self._jump(p, s)
        self._water(p, s, here)
        if ctx.index.token_spaces and any(spaces[n].tokens and is_haybale(ctx, spaces[n]) for n in ctx.succ.get(pos, ())):
            out.append("MC-TOKEN-03")
        if ctx.others:
            self._overtaking(p, s, entered)
        if self.crashed and (entered in self.crashed or p.space in self.crashed):
            out.append("CORE-OVERTAKE-08")

    def _limit(self, p: Placed, s: "Space", lim: int | None) -> None:
        """A speed limit (CORE-CORNER-06/08/09), a chicane token's (MC-TOKEN-02), lowered by -1 tokens
        (CORE-SHORTCUT-08)."""
        out = self.road
        if lim is not None:
            out.append("CORE-CORNER-06" if s.kind == "corner" else "CORE-CORNER-09")
            if s.chicane is not None:
                out.append("MC-TOKEN-02")
            if s.kind == "corner" and self.ctx.minus1.get(s.step):
                out.append("CORE-SHORTCUT-08")
        if self.prev_limited is not None and p.gear > self.prev_limited:
            out.append("CORE-CORNER-08")
        self.prev_limited = lim

    def _corner(self, s: "Space", here: "Space") -> None:
        out = self.road
        out += _CORNER
        out.append("CORE-CORNER-04" if s.method == "in" else "CORE-CORNER-05")
        corners = self.corners
        if not corners or corners[-1][0] != s.corner:
            if corners and here.kind == "corner" and corners[-1][1] != s.method:
                out.append("CORE-CORNER-03")
            corners.append((s.corner, s.method))

    def _lanes(self, s: "Space", here: "Space") -> None:
        """Snow's wide spaces, slides and Shortcuts."""
        out = self.road
        if s.kind == "wide" and s.surface == "snow":
            out.append("MC-SNOW-01")
        if s.lane in _SLIDE_LANES:
            out += _SLIDE
            if s.surface == "snow":
                out.append("MC-SNOW-01")
            if here.kind == "shortcut":
                out.append("CORE-SHORTCUT-04")
        elif s.kind != "shortcut" and s.zone_key in self.ctx.index.slide_zones:
            out += _SLIDE_ZONE
        if s.kind == "shortcut":
            out += _SHORTCUT
            if here.lane in _SLIDE_LANES:
                out.append("CORE-SHORTCUT-04")

    def _jump(self, p: Placed, s: "Space") -> None:
        out = self.road
        out += ("CORE-JUMP-01", "CORE-JUMP-02" if p.jump == 1 else "CORE-JUMP-03")
        if any(t.startswith("jump") for t in s.tokens):
            out.append("MC-TOKEN-01")
        if self.ctx.index.spaces[p.space].kind == "corner":
            out.append("CORE-JUMP-08")
        if p.jump_loc:
            out.append("CORE-JUMP-04")

    def _water(self, p: Placed, s: "Space", here: "Space") -> None:
        out = self.road
        if s.water:
            out += ("CORE-WATER-01", "CORE-WATER-02" if p.die.die != "gear1" else "CORE-WATER-03")
            if "water" in s.tokens:
                out.append("MC-TOKEN-01")
        elif here.water and self.n > 0:
            out.append("CORE-WATER-05")

    def _overtaking(self, p: Placed, s: "Space", entered: str) -> None:
        """Entering a space alongside a car on the road (CORE-OVERTAKE-01..07)."""
        ctx = self.ctx
        out = self.road
        others = ctx.others
        spaces = ctx.index.spaces
        beside = [o for o in ctx.index.alongside[entered] if o in others]
        if beside:
            self._alongside(s, beside)
        elif self.was_alongside:
            out.append("CORE-OVERTAKE-02")
            self.was_alongside = False
        if s.kind == "corner" and any(spaces[o].kind == "corner" and spaces[o].corner == s.corner for o in others):
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


def _secured(out: list[str], resolved: list, tokens: "TokenKind") -> None:
    """Dice secured with tokens (CORE-SECONDS-04..10, MC-BOOST-03, CORE-ADV-05)."""
    secured = [r for _, r in resolved if r.secured]
    if not secured:
        return
    out += ("CORE-SECONDS-04", "CORE-SECONDS-06", tokens.spend_rule, tokens.lack_rule)
    if any(r.die.brake for r in secured):
        out.append("CORE-SECONDS-10")
    if any(r.die.boost for r in secured):
        out.append("MC-BOOST-03")
    if any(p.flying for p, r in resolved if r.secured):
        out.append("CORE-ADV-05")
