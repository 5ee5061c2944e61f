"""The rule IDs a resolved turn applied, so a table argument is settled by reading one line.

A refusal names its rule (:class:`~rallyc.rules.errors.IllegalMove`); an accepted turn lists the rules that
shaped it, in the order of the turn: the dice and how they were laid, what the road did to the car (corners,
slides, Shortcuts, jumps, water, overtaking), the roll (one by one or Flat Out), Warnings and Loss of Control,
the Time card, damage, the Spare Tire, finishing and retiring. The IDs are those of the project's rule
inventory. :func:`turn_rules` reads them off the resolution; it decides nothing.

Every rule ID the referee reports (applied or refused) also goes to the observers of
:mod:`rallyc.rules.trace`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable, NamedTuple

from rallyc.rules.dice import is_gear
from rallyc.rules.plans import PlanContext, Placed, effective_limit, is_haybale

if TYPE_CHECKING:  # pragma: no cover
    from rallyc.rules.state import Car
    from rallyc.rules.rolling import Movement
    from rallyc.rules.turn import Outcome, Roll, Turn

__all__ = ["turn_rules", "turn_rules_later", "race_rules", "race_rules_later", "Rules"]

class Rules:
    """An ordered set of rule IDs."""

    def __init__(self) -> None:
        self._ids: dict[str, None] = {}

    def add(self, *ids: str) -> None:
        # update() keeps a key already there where it was: the order stays that of first addition
        self._ids.update(dict.fromkeys(ids))

    def extend(self, ids: Iterable[str]) -> None:
        self.add(*ids)

    def __contains__(self, rid: object) -> bool:
        return rid in self._ids

    def ids(self) -> tuple[str, ...]:
        return tuple(self._ids)


def _dice_rules(out: Rules, ctx: PlanContext, resolved: list[tuple[Placed, "Roll"]], flat_out: bool,
                start_gear: int) -> None:
    """The dice laid and what each did to the gear (CORE-DICE, CORE-ADV-01/07, MC-BOOST)."""
    kinds = set()
    prev_gear = start_gear
    for i, (p, r) in enumerate(resolved):
        die = p.die
        out.add("CORE-MOVE-06")
        if is_gear(die.die):
            kinds.add("gear")
            out.add("CORE-DICE-08", "CORE-DICE-05")
            if die.brake:
                kinds.add("brake")
                out.add("CORE-DICE-17", "CORE-DICE-18")
                if flat_out:
                    out.add("CORE-SECONDS-02")
            elif die.boost:
                out.add("MC-BOOST-01", "MC-BOOST-02")
                if prev_gear == 0 and ctx.flying_start:
                    out.add("MC-BOOST-04")  # a Boost pair from Gear 0 is no Flying Start
                if ctx.car == "r5":
                    out.add("MC-R5-03")
            elif p.flying:
                out.add("CORE-ADV-01")
            elif prev_gear == 0:
                out.add("CORE-DICE-10")
            else:
                out.add("CORE-DICE-09")
        elif die.die == "brake":
            kinds.add("coast")
            out.add("CORE-ADV-07", "CORE-DICE-19")
            if flat_out:
                out.add("CORE-ADV-08")
        else:
            kinds.add("coast")
            out.add("CORE-DICE-11", "CORE-DICE-12", "CORE-DICE-13")
            if die.die == "leader":
                out.add("CORE-DICE-14", "CORE-DICE-15")
        if p.gear < prev_gear:
            out.add("CORE-DICE-20")
        prev_gear = p.gear
    if len(kinds) > 1:
        out.add("CORE-DICE-06")
    if resolved:
        out.add("CORE-DICE-04")


def _road_rules(out: Rules, ctx: PlanContext, resolved: list[tuple[Placed, "Roll"]], others: dict[str, int],
                crashed: set[str]) -> None:
    """What the road did (CORE-MOVE, CORE-CORNER, CORE-SLIDE, CORE-SHORTCUT, CORE-JUMP, CORE-WATER,
    CORE-OVERTAKE, MC-SNOW, MC-TOKEN, MC-HANDBRAKE)."""
    spaces = ctx.index.spaces
    graph = ctx.index.track.graph
    pos = ctx.start
    was_alongside = False
    prev_limited: int | None = None
    corners: list[tuple[str | None, str | None]] = []
    surfaces = {spaces[pos].surface}
    for i, (p, r) in enumerate(resolved):
        entered = p.die.to
        s = spaces[entered]
        here = spaces[pos]
        surfaces.add(s.surface)
        out.add("CORE-MOVE-03", "CORE-MOVE-04", "CORE-MOVE-01", "CORE-MOVE-02")
        if here.lane != s.lane and here.kind == s.kind == "plain" and here.lane and s.lane:
            out.add("CORE-MOVE-05")
        edge = graph.get_edge_data(pos, entered) or {}
        if edge.get("handbrake"):
            out.add("MC-HANDBRAKE-01", "MC-HANDBRAKE-02", "MC-HANDBRAKE-03", "MC-HANDBRAKE-04")
        if s.kind == "corner":
            out.add("CORE-CORNER-01", "CORE-CORNER-02")
            out.add("CORE-CORNER-04" if s.method == "in" else "CORE-CORNER-05")
            if not corners or corners[-1][0] != s.corner:
                if corners and spaces[pos].kind == "corner" and corners[-1][1] != s.method:
                    out.add("CORE-CORNER-03")
                corners.append((s.corner, s.method))
        if s.kind == "wide" and s.surface == "snow":
            out.add("MC-SNOW-01")
        if s.lane in ("s1", "s2"):
            out.add("CORE-SLIDE-01", "CORE-SLIDE-02", "CORE-SLIDE-03", "CORE-SLIDE-04")
            if s.surface == "snow":
                out.add("MC-SNOW-01")
            if here.kind == "shortcut":
                out.add("CORE-SHORTCUT-04")
        elif s.kind != "shortcut" and s.zone_key in ctx.index.slide_zones:
            out.add("CORE-SLIDE-01", "CORE-SLIDE-02")
        if s.kind == "shortcut":
            out.add("CORE-SHORTCUT-01", "CORE-SHORTCUT-02", "CORE-SHORTCUT-03", "CORE-SHORTCUT-05")
            if here.lane in ("s1", "s2"):
                out.add("CORE-SHORTCUT-04")
        lim = effective_limit(ctx, entered, None if p.jump else pos)
        if lim is not None:
            out.add("CORE-CORNER-06" if s.kind == "corner" else "CORE-CORNER-09")
            if s.chicane is not None:
                out.add("MC-TOKEN-02")
            if s.kind == "corner" and ctx.minus1.get(s.step):
                out.add("CORE-SHORTCUT-08")
        if prev_limited is not None and p.gear > prev_limited:
            out.add("CORE-CORNER-08")
        prev_limited = lim
        if p.jump:
            out.add("CORE-JUMP-01", "CORE-JUMP-02" if p.jump == 1 else "CORE-JUMP-03")
            if any(t.startswith("jump") for t in s.tokens):
                out.add("MC-TOKEN-01")
            if spaces[p.space].kind == "corner":
                out.add("CORE-JUMP-08")
            if p.jump_loc:
                out.add("CORE-JUMP-04")
        if s.water:
            out.add("CORE-WATER-01", "CORE-WATER-02" if p.die.die != "gear1" else "CORE-WATER-03")
            if "water" in s.tokens:
                out.add("MC-TOKEN-01")
        elif here.water and i > 0:
            out.add("CORE-WATER-05")
        if any(spaces[n].tokens and is_haybale(ctx, spaces[n]) for n in ctx.succ.get(pos, ())):
            out.add("MC-TOKEN-03")
        # overtaking: entering a space alongside a car on the road, or passing a crashed car's space
        beside = [o for o in ctx.index.alongside[entered] if o in others]
        if beside:
            shortcut = s.kind == "shortcut" or any(spaces[o].kind == "shortcut" for o in beside)
            out.add("CORE-OVERTAKE-04" if shortcut else "CORE-OVERTAKE-01")
            if len(beside) > 1:
                out.add("CORE-OVERTAKE-03")
            if shortcut and any(spaces[o].kind == "corner" or spaces[o].lane in ("s1", "s2") for o in others):
                out.add("CORE-OVERTAKE-07")
            was_alongside = True
        elif was_alongside:
            out.add("CORE-OVERTAKE-02")
            was_alongside = False
        if s.kind == "corner" and any(spaces[o].kind == "corner" and spaces[o].corner == s.corner for o in others):
            out.add("CORE-OVERTAKE-05")
        if s.lane in ("s1", "s2") and any(o in others for o in ctx.index.zones[s.zone_key] if o != entered):
            out.add("CORE-OVERTAKE-06")
        if entered in crashed or p.space in crashed:
            out.add("CORE-OVERTAKE-08")
        pos = p.space
    if len(surfaces) > 1:
        out.add("MC-TIRE-01", "MC-DICE-02")


def _movement_rules(rules: Rules, ctx: PlanContext, turn: "Turn", move: "Movement", *, blocked: bool,
                    gained: int, failed: bool, warnings: int, others: dict[str, int], crashed: set[str],
                    restart: bool) -> None:
    """What every game form's turn shares: dice, road, blocking, the roll, Seconds (Focus in RX)."""
    run = move.run
    resolved = run.resolved
    spaces = ctx.index.spaces
    _dice_rules(rules, ctx, resolved, turn.flat_out, ctx.gear)
    _road_rules(rules, ctx, resolved, others, crashed)
    if blocked:
        rules.add("CORE-MOVE-07", "CORE-MOVE-10", "CORE-MOVE-11")
        ahead = ctx.succ.get(ctx.start, [])
        full = all(any(o in others for o in ctx.index.overlap[n]) for n in ahead)
        rules.add("CORE-MOVE-09" if full else "CORE-MOVE-08")
        if any(spaces[n].water for n in ahead):
            rules.add("CORE-WATER-04")
    else:
        rules.add("CORE-MOVE-07")
    rules.add("CORE-ROLL-01")
    if turn.flat_out:
        rules.add("CORE-ROLL-09", "CORE-ROLL-10", "CORE-SECONDS-03")
        if gained:
            rules.add("CORE-SECONDS-01")
        if failed:
            rules.add("CORE-ROLL-12", "CORE-ROLL-13", "CORE-ROLL-14", "CORE-ROLL-15")
            if gained:
                rules.add("CORE-ROLL-16")
        else:
            rules.add("CORE-ROLL-11")
        if ctx.allowances and len({spaces[p.space].surface for p, _ in resolved}) > 1:
            rules.add("MC-WARN-02")
    elif resolved:
        rules.add("CORE-ROLL-02", "CORE-ROLL-03", "CORE-ROLL-07", "CORE-ROLL-08")
        if run.stopped:
            rules.add("CORE-ROLL-06")
        if ctx.allowances and len({spaces[p.space].surface for p, _ in resolved}) > 1:
            rules.add("MC-WARN-01")
    secured = [r for _, r in resolved if r.secured]
    if secured:
        rules.add("CORE-SECONDS-04", "CORE-SECONDS-06", "CORE-SECONDS-07", "CORE-SECONDS-08")
        if any(r.die.brake for r in secured):
            rules.add("CORE-SECONDS-10")
        if any(r.die.boost for r in secured):
            rules.add("MC-BOOST-03")
        if any(p.flying for p, r in resolved if r.secured):
            rules.add("CORE-ADV-05")
    if warnings:
        rules.add("CORE-ROLL-04")
    if any(p.flying for p, _ in resolved) and restart:
        rules.add("CORE-ADV-04")
    if run.flying_stop:
        rules.add("CORE-ADV-02")
        if turn.flat_out and sum(1 for _, r in resolved for f in (r.face, r.brake_face, r.boost_face)
                                 if f == "warning") >= 2:
            rules.add("CORE-ADV-03")


class _StageBefore(NamedTuple):
    """What :func:`turn_rules` reads of the stage and the moving car, as it was before the turn (the commit and
    later turns change them; the rule IDs may be worked out after both)."""

    status: str
    #: the car's last Time card before this turn (None: none yet)
    last_card: Any
    damage: dict[str, int]
    dashboard: Any
    wear: int
    finished_any: bool
    others: dict[str, int]
    crashed: set[str]
    spun: bool
    components: Any
    one_off: bool


def turn_rules(stage, car: "Car", turn: "Turn", ctx: PlanContext, move: "Movement", out: "Outcome",
               status: str = "") -> tuple[str, ...]:
    """The rule IDs a resolved stage turn applied (see the module docstring); ``car`` is as it was before the
    turn (``status``, what it is after, is not read)."""
    return turn_rules_later(stage, car, turn, ctx, move, out)()


def turn_rules_later(stage, car: "Car", turn: "Turn", ctx: PlanContext, move: "Movement", out: "Outcome"
                     ) -> Callable[[], tuple[str, ...]]:
    """:func:`turn_rules`, worked out when called: what it reads of ``stage`` and ``car`` is taken now."""
    cars = stage.cars.values()
    before = _StageBefore(
        car.status, car.cards[-1] if car.cards else None, dict(car.damage), car.dashboard, car.wear,
        stage.finished_any, {c.space: c.gear for c in cars if c.impedes and c is not car and c.space},
        {c.space for c in cars if c.status in ("crashed", "tire") and c is not car and c.space},
        any(c.status == "spun" and c is not car for c in cars), stage.components, stage.one_off)
    return lambda: _turn_rules(before, turn, ctx, move, out)


def _turn_rules(car: _StageBefore, turn: "Turn", ctx: PlanContext, move: "Movement", out: "Outcome"
                ) -> tuple[str, ...]:
    rules = Rules()
    run = move.run
    resolved = run.resolved
    spaces = ctx.index.spaces
    components = car.components
    rules.add("CORE-DICE-01", "CORE-ORDER-01", "CORE-ORDER-02")
    if car.status == "waiting":
        rules.add("CORE-START-01", "CORE-START-03")
    elif car.status == "crashed":
        rules.add("CORE-LOC-08")
    elif car.status == "tire":
        rules.add("CORE-SPARE-05")
    elif car.status == "spun":
        rules.add("CORE-OVERTAKE-09")
    if out.leader:
        rules.add("CORE-DICE-03")
    if car.finished_any and components.reading("leader_rule_ends") == "first-finisher":
        rules.add("CORE-DICE-16")
    _allowance_rules(rules, ctx, car.damage)
    if car.spun:
        rules.add("CORE-OVERTAKE-09")
    _movement_rules(rules, ctx, turn, move, blocked=out.blocked, gained=out.seconds_gained,
                    failed=out.flat_out_failed, warnings=out.warnings, others=car.others, crashed=car.crashed,
                    restart=car.status in ("spun", "crashed", "tire"))
    if out.sisu:
        rules.add("CORE-ADV-11", "CORE-ADV-12", "CORE-ADV-13", "CORE-ADV-15")
        if out.loc is not None:
            rules.add("CORE-ADV-14", "CORE-SECONDS-09")
    # the Loss of Control (CORE-LOC)
    loc = out.loc
    if loc is not None:
        rules.add("CORE-LOC-01", "CORE-LOC-02", "CORE-TURNEND-01")
        if "over the limit" in loc.cause:
            rules.add("CORE-CORNER-07")
        elif "jump too fast" in loc.cause:
            rules.add("CORE-JUMP-04")
        elif "Warning on the jump" in loc.cause:
            rules.add("CORE-JUMP-05")
        elif not turn.flat_out:
            rules.add("CORE-ROLL-05")
        if out.card.zero and not out.finished:
            rules.add("CORE-LOC-03", "CORE-LOC-04", "CORE-LOC-05")
            icon = out.card.icon
            if icon == "spinout":
                rules.add("CORE-LOC-06", "CORE-LOC-11")
            elif icon == "crash":
                rules.add("CORE-LOC-07", "CORE-LOC-09", "CORE-LOC-11")
            elif icon == "sisu":
                rules.add("CORE-LOC-10")
    else:
        rules.add("CORE-TURNEND-01")
    if out.damage:
        rules.add("CORE-SETUP-02", "CORE-DAMAGE-01", "CORE-DAMAGE-07")
        if "green" in out.damage:
            rules.add("CORE-DAMAGE-06")
    if "weather" in out.damage or "weather" in out.tokens:
        rules.add("MC-WEATHER-01", "MC-WEATHER-07")
    for t in out.tokens:
        rules.add({"ok": "CORE-SHORTCUT-06", "coast": "CORE-SHORTCUT-07", "minus1": "CORE-SHORTCUT-08"}.get(t, "CORE-SHORTCUT-05"))
        if t == "minus1":
            rules.add("CORE-SHORTCUT-09")
    # the Time card (CORE-TURNEND, CORE-STAGEEND)
    rules.add("CORE-TURNEND-04", "CORE-TURNEND-05", "CORE-SETUP-05")
    if out.finished:
        rules.add("CORE-STAGEEND-02", "CORE-ORDER-09")
        last = max((i for i, (p, _) in enumerate(resolved)
                    if spaces[p.space].after_finish or spaces[p.space].past_finish), default=None)
        first = next((i for i, (p, _) in enumerate(resolved)
                      if spaces[p.space].after_finish or spaces[p.space].past_finish), None)
        if first is not None and (last != first or first < len(resolved) - 1):
            rules.add("CORE-STAGEEND-03")
        if loc is not None:
            rules.add("CORE-STAGEEND-04", "CORE-STAGEEND-05")
            rules.add("CORE-STAGEEND-06" if car.one_off else "CORE-STAGEEND-07")
    elif loc is None and not out.spare_tire:
        prev = car.last_card
        if prev is not None and out.card == prev:
            rules.add("CORE-TURNEND-03")
        else:
            rules.add("CORE-TURNEND-02")
    if out.spare_tire:
        rules.add("CORE-SPARE-01", "CORE-SPARE-02", "CORE-SPARE-03", "CORE-SPARE-04", "MC-TIRE-05")
        if car.dashboard.tires == "soft":
            rules.add("MC-SOFT-08")
    if car.dashboard.tires == "soft":
        rules.add("MC-SOFT-01", "MC-SOFT-03")
        wear_limit = components.soft_wear_limit(car.wear)
        rules.add("MC-SOFT-04" if wear_limit is not None else "MC-SOFT-06")
        if any(spaces[p.space].surface not in components.assumption("soft_wear_surfaces") for p, _ in resolved):
            rules.add("MC-SOFT-05")
    if car.dashboard.car == "r4":
        rules.add("MC-R4-01")
        if ctx.allowance.printed.coast + ctx.allowance.printed.leader > 2 and any(not is_gear(p.die.die)
                                                                                  for p, _ in resolved):
            rules.add("MC-R4-03")
    elif car.dashboard.car == "r5":
        rules.add("MC-R5-01")
    if ctx.allowances:
        rules.add("MC-DICE-01", "MC-TIRE-02")
        if any(p.die.die in ("coast", "leader") for p, _ in resolved):
            rules.add("MC-DICE-05")
            if any(a.coast_die == "leader" and name != "gravel" for name, a in ctx.allowances.items()):
                rules.add("MC-DICE-04")
        if car.dashboard.tires == "gravel" and "snow" in ctx.allowances:
            rules.add("MC-DICE-03")
    elif car.dashboard.tires == "gravel" and car.dashboard.car == "r6":
        rules.add("CORE-SETUP-08")
    return rules.ids()


def _allowance_rules(rules: Rules, ctx: PlanContext, dmg: dict[str, int]) -> None:
    """Damage taking dice away (CORE-DAMAGE-02..05), the Dashboard counts (CORE-DICE-02)."""
    rules.add("CORE-DICE-02")
    a = ctx.allowance
    printed = a.printed
    for kind, rule, count, have in (("gear", "CORE-DAMAGE-02", a.gear, printed.gear),
                                    ("brake", "CORE-DAMAGE-03", a.brake, printed.brake),
                                    ("coast", "CORE-DAMAGE-04", a.coast, printed.coast + printed.leader)):
        n = dmg.get(kind, 0)
        if n:
            rules.add(rule, "CORE-DAMAGE-01", "CORE-DAMAGE-07")
            if n > have:
                rules.add("CORE-DAMAGE-05")
    if ctx.minus1:
        rules.add("CORE-SHORTCUT-08")


class _RaceBefore(NamedTuple):
    """What :func:`race_rules` reads of the race and the moving car, as it was before the turn."""

    others: dict[str, int]
    restart: bool
    joker: Any
    ice: bool


def race_rules(race, car, turn: "Turn", ctx: PlanContext, move: "Movement", out) -> tuple[str, ...]:
    """The rule IDs a resolved RX (or Ice) race turn applied: the core movement, then what RX changes."""
    return race_rules_later(race, car, turn, ctx, move, out)()


def race_rules_later(race, car, turn: "Turn", ctx: PlanContext, move: "Movement", out
                     ) -> Callable[[], tuple[str, ...]]:
    """:func:`race_rules`, worked out when called: what it reads of ``race`` and ``car`` is taken now."""
    before = _RaceBefore({c.space: c.gear for c in race.cars.values() if c.impedes and c is not car},
                         car.gear == 0 and car.turns > 0, car.joker, race.format.name == "ice")
    return lambda: _race_rules(before, turn, ctx, move, out)


def _race_rules(car: _RaceBefore, turn: "Turn", ctx: PlanContext, move: "Movement", out) -> tuple[str, ...]:
    rules = Rules()
    rules.add("CORE-DICE-01", "RX-DICE-01", "RX-ROUND-01", "RX-ORDER-01", "RX-SETUP-10")
    _movement_rules(rules, ctx, turn, move, blocked=out.blocked, gained=out.focus_gained,
                    failed=out.flat_out_failed, warnings=out.warnings, others=car.others, crashed=set(),
                    restart=car.restart)
    if out.blocked:
        rules.add("RX-TURNEND-01")
    rules.add("RX-TURNEND-02")
    if out.focus_gained:
        rules.add("RX-ROLL-03")
    if out.focus_spent:
        rules.add("RX-ROLL-04")
    if ctx.no_alongside:
        rules.add("RX-DAMAGE-04")
        if ctx.alongside_before_flag:
            rules.add("RX-DAMAGE-06")
    if ctx.barred:
        rules.add("RX-JOKER-02" if any(r == "RX-JOKER-02" for r, _ in ctx.barred.values()) else "RX-START-02")
    if out.loc is not None:
        rules.add("CORE-LOC-01", "RX-LOC-02", "RX-LOC-03", "RX-LOC-04")
        if out.damage:
            rules.add("RX-DAMAGE-01", "RX-DAMAGE-10")
        if out.yellow:
            rules.add("RX-DAMAGE-03")
    if out.joker == "done" and car.joker != "done":
        rules.add("RX-JOKER-03")
    if out.laps > 0 or out.finished:
        rules.add("RX-END-01")
    if out.finished:
        rules.add("RX-END-02", "RX-END-03")
    if out.disqualified:
        rules.add("RX-JOKER-04")
    if out.weather:
        rules.add("RX-WEATHER-04")
    if car.ice:
        rules.add("ICE-01", "ICE-03", "ICE-05", "ICE-06")
        if any(p.die.boost for p, _ in move.run.resolved):
            rules.add("ICE-04")
    return rules.ids()
