"""The End of the Turn with Time cards (a DIRT stage, CORE-TURNEND): the card taken or repeated, Loss of
Control and its "0" side, Crash damage, the Spare Tire, finishing; checked against the game's card table.

This is what a :class:`~rallyc.rules.core.stage.Stage` does after the core roll
(:func:`rallyc.rules.core.rolling.roll_and_move`); an RX race has no Time cards (RX-SETUP-10) and ends its turns
in :mod:`rallyc.rules.core.race`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from rallyc.rules.core.cards import CardTable
from rallyc.rules.core.domain import CarStatus
from rallyc.rules.core.damage_bag import check_drawn
from rallyc.rules.core.dice import is_gear
from rallyc.rules.core.driver import Driver
from rallyc.rules.core.engine import check_claims, stuck_at_water
from rallyc.rules.core.errors import IllegalMove
from rallyc.rules.core.hooks import stage_weather
from rallyc.rules.core.plans import PlanContext, Placed
from rallyc.rules.core.state import DAMAGE_KINDS, LOC_ICONS, WEATHER, Card, Car
from rallyc.rules.core.rolling import Movement
from rallyc.rules.core.turn import CardClaim, LossOfControl, Outcome, Roll, Turn, ZeroSide, stage_outcome

if TYPE_CHECKING:  # pragma: no cover
    from rallyc.rules.core.stage import Stage

__all__ = ["StageChange", "time_card_end", "card_rules"]



class StageChange(NamedTuple):
    """What a resolved stage turn changes besides its :class:`Outcome`: the car's status and the -1 Shortcut
    tokens on the stage (CORE-SHORTCUT-08). A named tuple: the End of the Turn builds one per turn."""

    status: CarStatus
    minus1: dict[int, int]



class _Card(NamedTuple):
    """The Time card a turn takes (CORE-TURNEND, CORE-LOC, CORE-STAGEEND), with what it does to the car."""

    card: Card
    status: CarStatus
    damage: list[str]
    #: the car crossed the Finish Line this turn
    finished: bool = False
    #: the rule that decided a card taken after a move: of the gear (CORE-TURNEND-02), or repeated (CORE-TURNEND-03)
    rule: str | None = None


def time_card_end(stage: "Stage", car: Car, turn: Turn, ctx: PlanContext, move: Movement,
                  driver: Driver | None) -> tuple[Outcome, StageChange]:
    """The End of the Turn of a stage: the outcome and the change to commit (nothing is changed here); a Time card
    and the Weather flips (MC-WEATHER-02). :meth:`Stage.end_of_turn <rallyc.rules.core.stage.Stage.end_of_turn>` is this
    function."""
    run = move.run
    path = [p.space for p, _ in run.resolved]
    end = path[-1] if path else ctx.start
    prev = car.cards[-1] if car.cards else None
    # the seconds claimed for this turn's card (with a tire change they are the Spare Tire card's)
    claimed = turn.card.seconds if turn.card is not None and not turn.spare_tire else None
    zero = _zero_side(turn, run.loc, driver)
    fin_i = stage.finish_index(car, [p for p, _ in run.resolved])  # past the Finish Line (a circuit: the last lap)
    if fin_i is not None:
        taken = _finishing_card(stage, turn, run.resolved[: fin_i + 1], run.loc, prev, claimed, zero, driver)
    elif run.loc is not None:
        taken = _loss_of_control_card(stage, turn, run.loc, zero, driver)
    else:
        taken = _movement_card(stage, car, turn, ctx, run.resolved, prev, claimed)
    if turn.damage and not taken.damage:
        raise IllegalMove("CORE-LOC-09", "no Crash this turn: no Damage token is drawn", "damage")
    spare = _spare_tire(stage, car, turn, taken, run.loc, driver)
    card, status = (spare, CarStatus.TIRE) if spare is not None else (taken.card, taken.status)
    if claimed is not None and card.seconds != claimed and zero is None and spare is None and not taken.finished:
        raise IllegalMove("CORE-TURNEND-04", f"the card adds {card.seconds} s, not {claimed} s", "card.seconds")
    out = stage_outcome(car.name, stage.round, ctx.start, path, end, card.car_gear if card.zero else card.gear, card,
                        run.warnings, run.loc, not turn.dice, run.stopped, taken.finished, turn.flat_out,
                        move.failed, move.gained, move.spent, taken.damage, run.tokens, spare is not None, move.sisu,
                        move.leader)
    check_claims(stage.tokens, "CORE-TURNEND-05", turn, out)
    _check_weather(stage, car, turn, out, status)
    stage.log.end += card_rules(stage, car, turn, ctx, move, out, taken.rule)
    return out, StageChange(status, run.minus1)


def _zero_side(turn: Turn, loc: LossOfControl | None, driver: Driver | None) -> ZeroSide | None:
    """The "0" side of the card turned over after a Loss of Control: the record's, or drawn by a driver's chance
    (written into the turn)."""
    if driver is not None and loc is not None and (turn.card is None or turn.card.zero is None):
        if turn.card is None:
            turn.card = CardClaim()
        turn.card.zero = driver.zero_side()
    return turn.card.zero if turn.card else None


def _finishing_card(stage: "Stage", turn: Turn, upto: list[tuple[Placed, Roll]], loc: LossOfControl | None, prev: Card | None,
                    claimed: int | None, zero: ZeroSide | None, driver: Driver | None) -> _Card:
    """The card of the finishing turn: of the gear on the first space after the line (CORE-STAGEEND-02); a Loss of
    Control still finishes, the card's back applying only in a rally (CORE-STAGEEND-04..07)."""
    table = stage.cards
    gear = upto[-1][0].gear
    repeated = _only_coast(upto)  # CORE-STAGEEND-02
    card, fresh = _card_taken(table, prev, gear, claimed, repeated)
    damage: list[str] = []
    if loc is not None:
        if not stage.one_off:
            if zero is None:
                raise IllegalMove("CORE-STAGEEND-07", "a Loss of Control on the finishing turn of a rally stage "
                                                      "applies the card's back: record `card.zero`", "card.zero")
            damage = _crash_damage(stage, turn, zero, loc, driver)
        elif turn.damage:
            raise IllegalMove("CORE-STAGEEND-06", "a one-off stage's finishing Loss of Control causes no damage",
                              "damage")
    claim = turn.card
    if claim is not None and claim.gear is not None and claim.gear != card.gear:
        raise IllegalMove("CORE-STAGEEND-02", f"the finishing card is of Gear {card.gear} (the gear on the first "
                                              f"space after the line), not Gear {claim.gear}", "card.gear")
    if repeated or fresh:
        _check_seconds(table, card, repeated, prev, claimed)
    return _Card(card, CarStatus.FINISHED, damage, True)


def _loss_of_control_card(stage: "Stage", turn: Turn, loc: LossOfControl, zero: ZeroSide | None,
                          driver: Driver | None) -> _Card:
    """A Loss of Control: the card of the gear at the Loss of Control, turned to its 0 side (CORE-LOC-03..10); the
    seconds of its front, when the record states them, are a card of that gear's deck (CORE-TURNEND-04)."""
    if zero is None:
        raise IllegalMove("CORE-LOC-03", f"a Loss of Control in Gear {loc.gear}: record the card's 0 side "
                                         f"(`card.zero` with its icon)", "card.zero")
    if zero.icon not in LOC_ICONS:
        raise IllegalMove("CORE-LOC-05", f"a 0 side shows spinout, crash or sisu, not {zero.icon!r}", "card.zero.icon")
    claim = turn.card
    if claim is not None and claim.gear is not None and claim.gear != loc.gear:
        raise IllegalMove("CORE-LOC-03", f"the Loss of Control card is of Gear {loc.gear} (the gear at the Loss "
                                         f"of Control on {loc.space}), not Gear {claim.gear}", "card.gear")
    if claim is not None and claim.seconds is not None:  # the card's front: a card of that gear's deck
        stage.cards.gear_card(loc.gear, claim.seconds)
    if zero.icon == "sisu" and zero.gear is None:
        raise IllegalMove("CORE-LOC-10", "a SISU card shows a gear: record `card.zero.gear`", "card.zero.gear")
    secs = stage.cards.zero_side(zero.icon, zero.seconds)
    card = Card(loc.gear, secs, True, zero.icon, zero.gear if zero.icon == "sisu" else None)
    if zero.icon != "crash" and turn.damage:
        raise IllegalMove("CORE-LOC-06" if zero.icon == "spinout" else "CORE-LOC-10",
                          f"a {zero.icon} causes no damage", "damage")
    if zero.icon == "crash":
        return _Card(card, CarStatus.CRASHED, _crash_damage(stage, turn, zero, loc, driver))
    return _Card(card, CarStatus.SPUN if zero.icon == "spinout" else CarStatus.ROAD, [])


def _movement_card(stage: "Stage", car: Car, turn: Turn, ctx: PlanContext, resolved: list[tuple[Placed, Roll]], prev: Card | None,
                   claimed: int | None) -> _Card:
    """A movement without Loss of Control: a card of the gear the car ends in, or the previous card repeated after
    only Coast dice or no move (CORE-TURNEND-02/03, reading 8: a literal repeat)."""
    gear = resolved[-1][0].gear if resolved else car.gear
    repeated = _only_coast(resolved)
    if not turn.dice and gear > 1 and stage.components.reading("water_stuck") == "gear-down" and stuck_at_water(ctx):
        gear, repeated = gear - 1, False
    card, fresh = _card_taken(stage.cards, prev, gear, claimed, repeated)
    claim = turn.card
    if claim is not None:
        if claim.zero is not None and not turn.spare_tire:
            raise IllegalMove("CORE-TURNEND-02", "no Loss of Control this turn: the card is not turned to its 0 "
                                                 "side", "card.zero")
        if claim.gear is not None and claim.gear != card.gear and not turn.spare_tire:
            rule = "CORE-TURNEND-03" if repeated else "CORE-TURNEND-02"
            raise IllegalMove(rule, f"the Time card is of Gear {card.gear}, not Gear {claim.gear}", "card.gear")
    if repeated or fresh:
        _check_seconds(stage.cards, card, repeated, prev, claimed)
    return _Card(card, CarStatus.ROAD, [], rule="CORE-TURNEND-03" if repeated else "CORE-TURNEND-02")


def _spare_tire(stage: "Stage", car: Car, turn: Turn, taken: _Card, loc: LossOfControl | None,
                driver: Driver | None) -> Card | None:
    """A tire change declared at the end of the movement (CORE-SPARE-01..06): the Spare Tire card, or None."""
    card = taken.card
    if driver is not None and loc is None and not taken.finished and card.car_gear == 1 and car.spare \
            and car.damage.get("coast", 0) > 0 and driver.want_spare_tire():
        turn.spare_tire = True
    if not turn.spare_tire:
        return None
    if loc is not None or taken.finished:
        raise IllegalMove("CORE-SPARE-01", "a tire change is declared at the end of a movement, not after a "
                                           "Loss of Control or at the finish", "spare_tire")
    if card.car_gear != 1:
        raise IllegalMove("CORE-SPARE-01", f"a tire change needs Gear 1 at the end of the movement, not Gear "
                                           f"{card.car_gear}", "spare_tire")
    if not car.spare:
        raise IllegalMove("CORE-SPARE-06", f"{car.name}'s Spare Tire card is used (it comes back with Assistance)",
                          "spare_tire")
    if stage.components.reading("spare_needs_coast_damage") and car.damage.get("coast", 0) < 1:
        raise IllegalMove("CORE-SPARE-04", "a tire change removes a Coast/Leader Damage token: there is none",
                          "spare_tire")
    secs = stage.cards.spare_tire_card(turn.card.seconds if turn.card is not None else None)
    return Card(0, secs, True, None, None, True)


def _check_weather(stage: "Stage", car: Car, turn: Turn, out: Outcome, status: CarStatus) -> None:
    """The steps a Weather token drawn this turn flips (MC-WEATHER-02), against the record's claim."""
    if stage.flipper is not None and (WEATHER in out.tokens or WEATHER in out.damage):
        out.flipped = stage_weather()(stage, car, out, status)
    if turn.flipped is not None and sorted(turn.flipped) != out.flipped:
        raise IllegalMove("MC-WEATHER-02", f"the Weather flips step(s) {out.flipped or 'none'}, not "
                                           f"{sorted(turn.flipped) or 'none'}", "flipped")


def _only_coast(resolved: list[tuple[Placed, Roll]]) -> bool:
    """Only Coast dice resolved (or none): the previous card repeats (CORE-TURNEND-03, CORE-STAGEEND-02)."""
    for p, _ in resolved:
        if not p.coast:
            return False
    return True


def _card_taken(table: CardTable, prev: Card | None, gear: int, claimed: int | None, repeated: bool
                ) -> tuple[Card, bool]:
    """The Time card taken and whether the game's table meets it for the first time (its seconds then checked):
    the previous card repeated (a 0 s card before any), a card of the gear's deck already taken with these
    seconds, or a new one with the seconds claimed (the deck's first value when none is claimed)."""
    if repeated:
        return (prev if prev is not None else Card(0, table.zero, True)), False
    got = table.taken.get((gear, claimed))
    if got is not None:
        return got, False
    return Card(gear, claimed if claimed is not None else table.gears[gear][0]), True


def _check_seconds(table: CardTable, card: Card, repeated: bool, prev: Card | None, claimed: int | None) -> None:
    """CORE-TURNEND-03/04: a repeated card keeps the previous value; a new one is a card of the game's deck (then
    kept in the table's cards taken: the same gear and claim need no check again)."""
    if repeated:
        if claimed is not None and claimed != card.seconds:
            rule = "CORE-TURNEND-03" if prev is not None else "CORE-LOC-04"
            raise IllegalMove(rule, f"only Coast dice or no move: the card repeats the previous value "
                                    f"({card.seconds} s), not {claimed} s", "card.seconds")
    else:
        table.gear_card(card.gear, claimed)
        table.taken[(card.gear, claimed)] = card


def _crash_damage(stage: "Stage", turn: Turn, zero: ZeroSide, loc: LossOfControl, driver: Driver | None = None) -> list[str]:
    """Damage tokens for a Crash: one per black mark at the LoC tile's signpost colour (CORE-LOC-09)."""
    if zero.icon != "crash":
        if turn.damage:
            raise IllegalMove("CORE-LOC-06", f"a {zero.icon} card causes no damage", "damage")
        return []
    danger = stage.index.spaces[loc.space].danger
    cap = stage.components.assumption("crash_marks_cap")
    n = min(cap, int(zero.marks.get(danger, 0)))
    if driver is not None and not turn.damage:
        turn.damage = driver.damage(n)
    if len(turn.damage) != n:
        raise IllegalMove("CORE-LOC-09", f"the Crash on {loc.space} (signpost {danger}, {zero.marks.get(danger, 0)} "
                                         f"mark(s)) draws {n} Damage token(s), not {len(turn.damage)}", "damage")
    for i, d in enumerate(turn.damage):
        if d == WEATHER and not stage.options.weather:
            raise IllegalMove("MC-WEATHER-01", "no Weather token is in the Damage bag without the weather option",
                              f"damage[{i}]")
        if d not in DAMAGE_KINDS and d != WEATHER:
            raise IllegalMove("CORE-SETUP-04", f"a Damage side shows gear, brake, coast or green, not {d!r}",
                              f"damage[{i}]")
        if d not in stage.damage_bag():
            raise IllegalMove("CORE-SETUP-03", f"the Damage bag holds no {d} token (Boost Damage comes with the RX "
                                               f"box: add it with a rules file)", f"damage[{i}]")
    check_drawn(stage.damage_bag(), stage.damage_out(), turn.damage, "CORE-SETUP-03")
    left = stage.bag_left()
    if n > left:
        raise IllegalMove("CORE-SETUP-03", f"the Damage bag holds {left} token(s); {n} cannot be drawn", "damage")
    return list(turn.damage)


def card_rules(stage: "Stage", car: Car, turn: Turn, ctx: PlanContext, move: Movement, out: Outcome,
               card_rule: str | None, icon_read: bool = True) -> list[str]:
    """The ``end`` chapter of a stage turn, recorded by its End of the Turn (``car`` not yet changed by it): SISU,
    the Loss of Control, damage and Shortcut tokens drawn, the Time card (CORE-TURNEND, CORE-STAGEEND; ``card_rule``:
    what decided a card taken after a move, CORE-TURNEND-02 or 03), the Spare Tire, the tires and cars of the
    Monte-Carlo rules. ``icon_read``: the "0" side's icon decides the Loss of Control's consequences (CORE-LOC-05;
    not when the Dashboard gives them, CUSTOM-13)."""
    rules: list[str] = []
    if out.sisu:
        rules += ("CORE-ADV-11", "CORE-ADV-12", "CORE-ADV-13", "CORE-ADV-15")
        if out.loc is not None:
            rules += ("CORE-ADV-14", "CORE-SECONDS-09")
    if out.loc is None:
        rules.append("CORE-TURNEND-01")
    else:
        _loc_rules(rules, turn, out, icon_read)
    if out.damage or out.tokens:
        _drawn_rules(rules, out)
    rules += ("CORE-TURNEND-04", "CORE-TURNEND-05", "CORE-SETUP-05")
    if out.finished:
        _finish_rules(rules, stage, move, out)
    elif out.loc is None and not out.spare_tire and card_rule is not None:
        rules.append(card_rule)
    dash = car.dashboard
    if out.spare_tire or dash.tires == "soft":
        _tire_rules(rules, stage, car, move, out)
    if dash.car != "r6" or ctx.allowances:
        _car_rules(rules, car, ctx, move)
    elif dash.tires == "gravel":
        rules.append("CORE-SETUP-08")  # the core box: gravel tires everywhere
    return rules


def _loc_rules(rules: list[str], turn: Turn, out: Outcome, icon_read: bool) -> None:
    """A Loss of Control (CORE-LOC), what caused it, and its card's "0" side."""
    loc = out.loc
    assert loc is not None
    rules += ("CORE-LOC-01", "CORE-LOC-02", "CORE-TURNEND-01")
    if "over the limit" in loc.cause:
        rules.append("CORE-CORNER-07")
    elif "jump too fast" in loc.cause:
        rules.append("CORE-JUMP-04")
    elif "Warning on the jump" in loc.cause:
        rules.append("CORE-JUMP-05")
    elif not turn.flat_out:
        rules.append("CORE-ROLL-05")
    if out.card.zero and not out.finished:
        rules += ("CORE-LOC-03", "CORE-LOC-04", "CORE-LOC-05") if icon_read else ("CORE-LOC-03", "CORE-LOC-04")
        rules += _ICON_RULES.get(out.card.icon or "", ())


#: what a "0" side's icon does (CORE-LOC-06..11)
_ICON_RULES = {"spinout": ("CORE-LOC-06", "CORE-LOC-11"), "crash": ("CORE-LOC-07", "CORE-LOC-09", "CORE-LOC-11"),
               "sisu": ("CORE-LOC-10",)}
#: the Shortcut side drawn (CORE-SHORTCUT-05..08)
_SHORTCUT_SIDE = {"ok": "CORE-SHORTCUT-06", "coast": "CORE-SHORTCUT-07", "minus1": "CORE-SHORTCUT-08"}


def _drawn_rules(rules: list[str], out: Outcome) -> None:
    """Damage tokens (CORE-DAMAGE), Weather tokens (MC-WEATHER-01/07), Shortcut sides (CORE-SHORTCUT-05..09). A
    draw is checked against what the bag holds (CORE-SETUP-03) and read on the side its cause names: the Damage side
    after a Loss of Control, the Shortcut side entering a Shortcut (CORE-SETUP-04)."""
    if out.damage:
        rules += ("CORE-SETUP-02", "CORE-SETUP-03", "CORE-SETUP-04", "CORE-DAMAGE-01", "CORE-DAMAGE-07")
        if "green" in out.damage:
            rules.append("CORE-DAMAGE-06")
    if WEATHER in out.damage or WEATHER in out.tokens:
        rules += ("MC-WEATHER-01", "MC-WEATHER-07")
    if out.tokens and not out.damage:
        rules.append("CORE-SETUP-04")
    for t in out.tokens:
        rules.append(_SHORTCUT_SIDE.get(t, "CORE-SHORTCUT-05"))
        if t == "minus1":
            rules.append("CORE-SHORTCUT-09")


def _finish_rules(rules: list[str], stage: "Stage", move: Movement, out: Outcome) -> None:
    """Across the Finish Line (CORE-STAGEEND-02..07)."""
    rules += ("CORE-STAGEEND-02", "CORE-ORDER-09")
    resolved = move.run.resolved
    beyond = stage.index.beyond_finish
    past = [i for i, (p, _) in enumerate(resolved) if p.space in beyond]
    if past and (past[-1] != past[0] or past[0] < len(resolved) - 1):
        rules.append("CORE-STAGEEND-03")
    if out.loc is not None:
        rules += ("CORE-STAGEEND-04", "CORE-STAGEEND-05", "CORE-STAGEEND-06" if stage.one_off else "CORE-STAGEEND-07")


def _tire_rules(rules: list[str], stage: "Stage", car: Car, move: Movement, out: Outcome) -> None:
    """The Spare Tire (CORE-SPARE-01..04, MC-TIRE-05), soft tires (MC-SOFT)."""
    tires = car.dashboard.tires
    if out.spare_tire:
        rules += ("CORE-SPARE-01", "CORE-SPARE-02", "CORE-SPARE-03", "CORE-SPARE-04", "MC-TIRE-05")
        if tires == "soft":
            rules.append("MC-SOFT-08")
    if tires == "soft":
        components = stage.components
        rules += ("MC-SOFT-01", "MC-SOFT-03")
        rules.append("MC-SOFT-04" if components.soft_wear_limit(car.wear) is not None else "MC-SOFT-06")
        worn = components.assumption("soft_wear_surfaces")
        if any(stage.index.spaces[p.space].surface not in worn for p, _ in move.run.resolved):
            rules.append("MC-SOFT-05")


def _car_rules(rules: list[str], car: Car, ctx: PlanContext, move: Movement) -> None:
    """The R4 and R5 cars (MC-R4, MC-R5), the dice of several surfaces (MC-DICE), gravel tires (CORE-SETUP-08)."""
    dash = car.dashboard
    resolved = move.run.resolved
    if dash.car == "r4":
        rules.append("MC-R4-01")
        printed = ctx.allowance.printed
        if printed.coast + printed.leader > 2 and any(not is_gear(p.die.die) for p, _ in resolved):
            rules.append("MC-R4-03")
    elif dash.car == "r5":
        rules.append("MC-R5-01")
    if ctx.allowances:
        rules += ("MC-DICE-01", "MC-TIRE-02")
        if any(p.die.die in ("coast", "leader") for p, _ in resolved):
            rules.append("MC-DICE-05")
            if any(a.coast_die == "leader" and name != "gravel" for name, a in ctx.allowances.items()):
                rules.append("MC-DICE-04")
        if dash.tires == "gravel" and "snow" in ctx.allowances:
            rules.append("MC-DICE-03")
    elif dash.tires == "gravel" and dash.car == "r6":
        rules.append("CORE-SETUP-08")
