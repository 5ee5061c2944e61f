"""A turn as recorded (what the player decided, what chance gave) and the core movement every game form
shares: roll one by one or Flat Out (CORE-ROLL), count Warnings, apply road effects (speed limits, jumps,
shortcuts), Loss of Control. What the move leaves is the variant's End of the Turn
(:mod:`rallyc.rules.timecards` for a stage, :mod:`rallyc.rules.race` for RX).
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

from rallyc.rules.dice import Die
from rallyc.rules.driver import Driver
from rallyc.rules.errors import IllegalMove
from rallyc.rules.plans import (PlanContext, Placed, check_plan, die_options, effective_limit, start_walk,
                                warning_limit)
from rallyc.rules.engine import TurnOutcome
from rallyc.rules.state import SHORTCUT_RESULTS, WEATHER, Card

if TYPE_CHECKING:  # pragma: no cover
    from rallyc.rules.engine import TurnEngine

__all__ = ["Roll", "ZeroSide", "CardClaim", "Turn", "LossOfControl", "Outcome", "Movement", "Mover", "roll_and_move"]


@dataclass
class Roll:
    """A die laid on the road and what became of it."""

    die: Die
    #: ``ok`` or ``warning``; None when not rolled (secured, or the player stopped before it)
    face: str | None = None
    #: the paired Brake die's face
    brake_face: str | None = None
    #: secured with Second tokens instead of rolled (CORE-SECONDS-04; a Boost pair: both dice, MC-BOOST-03)
    secured: bool = False
    #: Shortcut side of the Damage token drawn when this die enters a Shortcut (CORE-SHORTCUT-05)
    token: str | None = None
    #: the paired Boost die's face (MC-BOOST-01)
    boost_face: str | None = None

    @property
    def rolled(self) -> bool:
        return self.face is not None


@dataclass
class ZeroSide:
    """The "0" side of a Time card turned over after a Loss of Control (chance)."""

    icon: str
    #: black marks next to each signpost colour (low / medium / high) for a Crash
    marks: dict[str, int] = field(default_factory=dict)
    #: the gear printed on a SISU card
    gear: int | None = None
    seconds: int | None = None


@dataclass
class CardClaim:
    """What the record says about the Time card taken: checked, and its seconds are the truth."""

    gear: int | None = None
    seconds: int | None = None
    zero: ZeroSide | None = None


@dataclass
class Turn:
    """One player's turn as recorded."""

    player: str
    dice: list[Roll] = field(default_factory=list)
    flat_out: bool = False
    #: the start space chosen by a starting car (reading 3)
    start: str | None = None
    #: the dice re-laid after a failed Flat Out (CORE-ROLL-13)
    relaid: list[Roll] | None = None
    #: the SISU token discarded this turn (CORE-ADV-12)
    sisu: bool = False
    #: tire change declared at the end of the movement (CORE-SPARE-01)
    spare_tire: bool = False
    card: CardClaim | None = None
    #: Damage tokens drawn after a Crash, Damage side (CORE-LOC-09)
    damage: list[str] = field(default_factory=list)
    # claims (derivable; checked when present)
    round: int | None = None
    end: str | None = None
    gear: int | None = None
    seconds_gained: int | None = None
    seconds_spent: int | None = None
    #: route steps the Weather token drawn this turn flipped (MC-WEATHER-02; derivable, checked when given)
    flipped: list[int] | None = None

    def copy(self) -> "Turn":
        """A deep copy (the referee completes a copy of a driver's turn, never the driver's own)."""
        return copy.deepcopy(self)


@dataclass
class LossOfControl:
    """Where, in which gear and why the car lost control (CORE-LOC-01)."""

    space: str
    gear: int
    cause: str


@dataclass(kw_only=True)
class Outcome(TurnOutcome):
    """What a stage turn did: the core outcome with the Time card taken and the stage's own events."""

    card: Card
    stopped: bool = False
    spare_tire: bool = False
    sisu: bool = False
    leader: bool = False
    #: route steps turned to their other side at the end of this turn (MC-WEATHER-02)
    flipped: list[int] = field(default_factory=list)

    @property
    def seconds_gained(self) -> int:
        """Second tokens earned by a Flat Out (CORE-SECONDS-01)."""
        return self.gained

    @property
    def seconds_spent(self) -> int:
        """Second tokens spent securing dice (CORE-SECONDS-07)."""
        return self.spent

    def describe(self) -> str:
        """One line for the text replay."""
        if self.blocked:
            move = f"blocked on {self.end}"
        else:
            mode = "flat out" if self.flat_out else "one by one"
            move = f"{self.start} -> {self.end} ({len(self.path)} spaces, {mode})"
        bits = [f"{self.player}: {move}, Gear {self.gear}"]
        if self.flat_out_failed:
            bits.append("Flat Out failed")
        if self.loc:
            bits.append(f"Loss of Control ({self.loc.cause}) on {self.loc.space} in Gear {self.loc.gear}: {self.card.icon}")
        if self.damage:
            bits.append("damage " + "+".join(self.damage))
        if self.tokens:
            bits.append("shortcut " + "+".join(self.tokens))
        if self.seconds_gained:
            bits.append(f"+{self.seconds_gained} s tokens")
        if self.seconds_spent:
            bits.append(f"-{self.seconds_spent} s secured")
        if self.spare_tire:
            bits.append("spare tire")
        if self.sisu:
            bits.append("SISU")
        if self.finished:
            bits.append("FINISHED")
        if self.retired:
            bits.append("RETIRED")
        if self.flipped:
            bits.append("Weather: flipped step " + ", ".join(str(s) for s in self.flipped))
        bits.append(f"card {'0 side ' if self.card.zero else ''}{self.card.seconds} s")
        return ", ".join(bits)


def _warn(face: str | None) -> int:
    return 1 if face == "warning" else 0


def _roll_warnings(r: Roll) -> int:
    return _warn(r.face) + _warn(r.brake_face) + _warn(r.boost_face)


@dataclass
class _Run:
    """The result of moving the car die by die along laid dice."""

    resolved: list[tuple[Placed, Roll]]
    loc: LossOfControl | None
    warnings: int
    tokens: list[str]
    minus1: dict[int, int]
    flying_stop: bool = False
    stopped: bool = False


def _run(stage: "TurnEngine", ctx: PlanContext, placed: list[Placed], rolls: list[Roll], *, leader: bool,
         sisu: bool, all_rolled: bool, warn_limit: int | None, path: str, driver: Driver | None = None) -> _Run:
    """Move die by die (CORE-ROLL-03), applying road effects and counting Warnings."""
    minus1 = dict(ctx.minus1)
    affects_drawer = stage.components.reading("minus1_affects_drawer")
    sisu_jump = stage.components.reading("sisu_jump_warning")
    spaces = stage.index.spaces
    warnings = 0
    tokens: list[str] = []
    resolved: list[tuple[Placed, Roll]] = []
    loc: LossOfControl | None = None
    flying_stop = False
    stopped = False
    from dataclasses import replace as _replace

    view = _replace(ctx, minus1=minus1, corner_methods={})
    prev = ctx.start
    for i, (p, r) in enumerate(zip(placed, rolls)):
        here = f"{path}[{i}]"
        if loc is not None or flying_stop or stopped:
            if all_rolled:  # a Flat Out rolled every die; those after the end just do not move the car
                if r.token is not None:
                    raise IllegalMove("CORE-SHORTCUT-05", "no token is drawn for a die that does not move the car",
                                      here + ".token")
                continue
            if r.rolled or r.secured:
                why = "a Loss of Control" if loc else ("the Flying Start Warning" if flying_stop else "stopping")
                rule = "CORE-LOC-02" if loc else ("CORE-ADV-02" if flying_stop else "CORE-ROLL-06")
                raise IllegalMove(rule, f"this die cannot be rolled or secured: the movement ended before it "
                                        f"({why})", here + (".face" if r.rolled else ".secured"))
            if r.token is not None:
                raise IllegalMove("CORE-SHORTCUT-05", "no token is drawn for a die that does not move the car",
                                  here + ".token")
            continue
        limit = warn_limit if warn_limit is not None else warning_limit(ctx, p.space)  # MC-WARN-01
        if driver is not None and not all_rolled and not r.rolled and not r.secured:
            choice = driver.decide(stage, i, placed, rolls, warnings, limit)
            if choice == "secure":
                r.secured = True
            elif choice == "roll":
                r.face = driver.face(r.die.die)
                if r.die.brake:
                    r.brake_face = driver.face("brake")
                if r.die.boost:
                    r.boost_face = driver.face("boost")
        if not all_rolled and not r.rolled and not r.secured:
            stopped = True
            if r.token is not None:
                raise IllegalMove("CORE-SHORTCUT-05", "no token is drawn for a die that does not move the car",
                                  here + ".token")
            continue
        resolved.append((p, r))
        s = spaces[p.space]
        # Shortcut: one token per Shortcut space entered (CORE-SHORTCUT-05)
        if s.kind == "shortcut":
            if r.token is None and driver is not None:
                r.token = driver.token()
            if r.token is None:
                raise IllegalMove("CORE-SHORTCUT-05", f"entering the Shortcut {p.space} draws a Damage token: "
                                                      f"record its Shortcut side (ok, coast, minus1)", here + ".token")
            if r.token == WEATHER and not stage.options.weather:
                raise IllegalMove("MC-WEATHER-01", "no Weather token is in the Damage bag without the weather option",
                                  here + ".token")
            if r.token not in SHORTCUT_RESULTS and r.token != WEATHER:
                raise IllegalMove("CORE-SETUP-04", f"a Shortcut side shows ok, coast or minus1, not {r.token!r}",
                                  here + ".token")
            tokens.append(r.token)
            if r.token == "minus1":
                minus1[s.step] = minus1.get(s.step, 0) + 1
                if not affects_drawer:
                    view.minus1 = ctx.minus1
        elif r.token is not None:
            raise IllegalMove("CORE-SHORTCUT-05", f"{p.space} is no Shortcut: no token is drawn", here + ".token")
        # road effects (CORE-CORNER-07, CORE-JUMP-04/05)
        lim = effective_limit(view, p.space, None if p.jump else prev)
        prev = p.space
        if lim is not None and p.gear > lim and (p.jump == 0 or stage.components.reading("jump_landing_limit")):
            loc = LossOfControl(p.space, p.gear, f"Gear {p.gear} over the limit {lim}")
        elif p.jump_loc:
            loc = LossOfControl(p.space, p.gear, "jump too fast")
        elif p.jump and r.face == "warning" and not (sisu and sisu_jump == "ignored"):
            loc = LossOfControl(p.space, p.gear, "Warning on the jump")
        w_here = _roll_warnings(r) if r.rolled else 0
        if r.secured and r.rolled:
            raise IllegalMove("CORE-SECONDS-04", "a secured die is not rolled: it has no face", here + ".face")
        if loc is None and p.flying and r.face == "warning":
            flying_stop = True  # CORE-ADV-02: one space, end in Gear 2, no Loss of Control
            continue
        if not sisu:
            warnings += w_here
            if loc is None and warnings >= limit:
                loc = LossOfControl(p.space, p.gear, f"{warnings} Warnings")
    return _Run(resolved, loc, warnings, tokens, minus1, flying_stop, stopped)


def _check_faces(rolls: list[Roll], path: str, flat_out: bool) -> None:
    for i, r in enumerate(rolls):
        here = f"{path}[{i}]"
        for fld, face in (("face", r.face), ("brake_face", r.brake_face), ("boost_face", r.boost_face)):
            if face is not None and face not in ("ok", "warning"):
                raise IllegalMove("CORE-ROLL-07", f"a die shows 'ok' or 'warning', not {face!r}", f"{here}.{fld}")
        if r.die.brake and (r.face is None) != (r.brake_face is None):
            raise IllegalMove("CORE-ROLL-02", "the Brake die is rolled together with its Gear die: give both faces or neither",
                              f"{here}.brake_face")
        if not r.die.brake and r.brake_face is not None:
            raise IllegalMove("CORE-DICE-17", "no Brake die is paired with this die", f"{here}.brake_face")
        if r.die.boost and (r.face is None) != (r.boost_face is None):
            raise IllegalMove("MC-BOOST-03", "the Boost die is rolled (or secured) together with its Gear die: give "
                                             "both faces or neither", f"{here}.boost_face")
        if not r.die.boost and r.boost_face is not None:
            raise IllegalMove("MC-BOOST-01", "no Boost die is paired with this die", f"{here}.boost_face")
        if flat_out:
            if r.secured:
                raise IllegalMove("CORE-SECONDS-05", "dice cannot be secured in a Flat Out", f"{here}.secured")
            if r.face is None:
                raise IllegalMove("CORE-ROLL-10", "Flat Out: every planned die is rolled; give its face", f"{here}.face")


def _match_relaid(orig: list[Roll], relaid: list[Roll], path: str) -> None:
    """The re-laid dice are the rolled dice with unchanged faces (CORE-ROLL-13)."""
    pool: Counter = Counter()
    for r in orig:
        pool[(r.die.die, r.face)] += 1
        if r.die.brake:
            pool[("brake", r.brake_face)] += 1
        if r.die.boost:
            pool[("boost", r.boost_face)] += 1
    for i, r in enumerate(relaid):
        here = f"{path}[{i}]"
        if r.face is None:
            raise IllegalMove("CORE-ROLL-13", "re-laid dice keep the faces rolled: give the face", f"{here}.face")
        if r.secured:
            raise IllegalMove("CORE-SECONDS-05", "dice cannot be secured in a Flat Out", f"{here}.secured")
        need = [(r.die.die, r.face)] + ([("brake", r.brake_face)] if r.die.brake else []) \
            + ([("boost", r.boost_face)] if r.die.boost else [])
        for key in need:
            if pool[key] <= 0:
                raise IllegalMove("CORE-ROLL-13", f"no {key[0]} die rolled {key[1]!r} is left to re-lay "
                                                  f"(faces cannot change)", f"{here}.face")
            pool[key] -= 1


def _seconds_dice(placed: list[Placed], rolls: list[Roll], upto: int | None) -> int:
    """Gear, Coast and Leader dice rolled (not Brake dice; CORE-SECONDS-01/02, CORE-ADV-08, CORE-STAGEEND-03)."""
    n = 0
    for i, (p, r) in enumerate(zip(placed, rolls)):
        if upto is not None and i > upto:
            break
        if p.die.die != "brake":
            n += 1
    return n


def _secure_cost(rolls: list[Roll]) -> int:
    """1 + 2 + ... + n for n dice secured (a Brake or Boost pair is two dice, CORE-SECONDS-07/10, MC-BOOST-03)."""
    n = sum((2 if r.die.brake or r.die.boost else 1) for r in rolls if r.secured)
    return n * (n + 1) // 2


@dataclass
class Movement:
    """The dice rolled and the car moved (CORE-ROLL), before the End of the Turn: shared by rally stages and
    RX races (RX-DICE-01, RX-ROLL-01)."""

    run: _Run
    #: tokens earned by a Flat Out (Seconds; Focus in RX, RX-ROLL-03)
    gained: int
    #: tokens spent securing dice (CORE-SECONDS-07, RX-ROLL-04)
    spent: int
    failed: bool
    sisu: bool
    #: the car leads the round (CORE-DICE-15)
    leader: bool = False


@dataclass(frozen=True)
class Mover:
    """What the roll needs to know about the car that moves, whatever the game form: who it is, the tokens it
    holds to secure dice (Second tokens; Focus tokens in RX, RX-ROLL-04) and whether it holds a SISU token."""

    name: str
    tokens: int
    sisu: bool = False
    #: the rule a too costly securing breaks, and the tokens' unit in its message
    tokens_rule: str = "CORE-SECONDS-08"
    tokens_unit: str = "s"
    #: index of the die that takes the car across the finish line, None if none does (CORE-STAGEEND-03;
    #: an RX race counts its laps, RX-END-02)
    finish_index: Callable[[list[Placed]], int | None] | None = None


def roll_and_move(stage: "TurnEngine", mover: Mover, turn: Turn, ctx: PlanContext, *, leader: bool, driver: Driver | None = None) -> Movement:
    """Check the laid dice, roll them one by one or Flat Out, and move the car (CORE-ROLL); nothing is changed.

    ``stage`` is the game (any :class:`~rallyc.rules.engine.TurnEngine`: a stage, an RX race).
    """
    comp = stage.components
    rolls = turn.dice
    if driver is not None and turn.flat_out:
        for r in rolls:
            if r.face is None:
                r.face = driver.face(r.die.die)
            if r.die.brake and r.brake_face is None:
                r.brake_face = driver.face("brake")
            if r.die.boost and r.boost_face is None:
                r.boost_face = driver.face("boost")
    if turn.flat_out and not rolls:
        raise IllegalMove("CORE-ROLL-09", "a Flat Out needs dice laid", "dice")
    _check_faces(rolls, "dice", turn.flat_out)
    placed = check_plan(ctx, [r.die for r in rolls])
    if not rolls:
        options = die_options(ctx, start_walk(ctx))
        if options:
            opts = ", ".join(sorted({str(p.die) for p, _ in options})[:6])
            raise IllegalMove("CORE-MOVE-07", f"the car must move at least one space: it can (e.g. {opts})", "dice")
    if turn.sisu:
        if stage.options.sisu is None:
            raise IllegalMove("CORE-ADV-11", "SISU tokens are not in play (option sisu is off)", "sisu")
        if not mover.sisu:
            raise IllegalMove("CORE-ADV-12", f"{mover.name} has no SISU token left", "sisu")
    sisu = turn.sisu
    spent = 0
    gained = 0
    failed = False
    if turn.flat_out:
        if turn.relaid is not None and not turn.relaid:
            raise IllegalMove("CORE-ROLL-13", "the re-laid plan is empty", "relaid")
        limits = [warning_limit(ctx, p.space) for p in placed]
        lim = min(limits)  # MC-WARN-02: the lowest limit of the surfaces the Flat Out crosses
        fin = mover.finish_index(placed) if mover.finish_index is not None else None
        gained = _seconds_dice(placed, rolls, fin)
        total = 0 if sisu else sum(_roll_warnings(r) for r in rolls)
        flying_warning = bool(placed) and placed[0].flying and rolls[0].face == "warning"
        if flying_warning:
            if turn.relaid is not None:
                raise IllegalMove("CORE-ADV-03", "the Flying Start Warning ends the move after one space: "
                                                 "nothing is re-laid", "relaid")
            if not comp.reading("flying_start_flat_out_seconds"):
                gained = 0
            run = _run(stage, ctx, placed[:1], rolls[:1], leader=leader, sisu=True, all_rolled=True,
                       warn_limit=lim, path="dice", driver=driver)
        elif total >= lim:
            failed = True
            if turn.relaid is None and driver is not None:
                turn.relaid = driver.relay(stage, ctx, placed, rolls, leader)
            if turn.relaid is None:
                raise IllegalMove("CORE-ROLL-12", f"{total} Warnings reach the limit {lim}: a Loss of Control; "
                                                  f"re-lay the dice (`relaid`)", "relaid")
            _match_relaid(rolls, turn.relaid, "relaid")
            _check_faces(turn.relaid, "relaid", True)
            rplaced = check_plan(ctx, [r.die for r in turn.relaid], "relaid")
            if bool(rplaced[0].flying) != bool(placed[0].flying):
                raise IllegalMove("CORE-ADV-06", "a Flying Start cannot be added or cancelled when re-laying",
                                  "relaid[0].die")
            # Ambiguity 19: the limit is the lowest of the surfaces the Flat Out crossed; a re-laid plan
            # that stops before a lower-limit surface cannot raise it back (CORE-ROLL-14: no escape).
            rlim = min([lim] + [warning_limit(ctx, p.space) for p in rplaced])
            run = _run(stage, ctx, rplaced, turn.relaid, leader=leader, sisu=False, all_rolled=True,
                       warn_limit=rlim, path="relaid", driver=driver)
            if run.loc is None:
                raise IllegalMove("CORE-ROLL-14", "the re-laid dice must still cause the Loss of Control", "relaid")
            if len(run.resolved) < len(rplaced):
                raise IllegalMove("CORE-ROLL-15", f"the Loss of Control happens at relaid[{len(run.resolved) - 1}] "
                                                  f"({run.loc.space}): lay no die after it",
                                  f"relaid[{len(run.resolved)}]")
            placed = rplaced
        else:
            if turn.relaid is not None:
                raise IllegalMove("CORE-ROLL-11", f"{total} Warnings are under the limit {lim}: the Flat Out "
                                                  f"succeeded, nothing is re-laid", "relaid")
            run = _run(stage, ctx, placed, rolls, leader=leader, sisu=sisu, all_rolled=True, warn_limit=lim,
                       path="dice", driver=driver)
    else:
        if turn.relaid is not None:
            raise IllegalMove("CORE-ROLL-13", "dice are re-laid only after a failed Flat Out", "relaid")
        run = _run(stage, ctx, placed, rolls, leader=leader, sisu=sisu, all_rolled=False, warn_limit=None,
                   path="dice", driver=driver)
        spent = _secure_cost(rolls)
        if spent > mover.tokens:
            unit = mover.tokens_unit
            raise IllegalMove(mover.tokens_rule, f"securing these dice costs {spent} {unit}; {mover.name} holds "
                                                 f"{mover.tokens} {unit}", "dice")
        if rolls and not run.resolved:
            raise IllegalMove("CORE-MOVE-07", "the car must move at least one space: roll or secure the first die",
                              "dice[0].face")
    return Movement(run, gained, spent, failed, sisu, leader)
