"""A seeded bot that plays random legal plans and draws chance, for generated games and fuzzing.

The bot is a *driver*: it lays a random legal plan (:func:`rallyc.rules.core.plans.die_options`), picks one
by one or Flat Out, and when the rules need chance (a die face, a Shortcut token, a card's 0 side,
Damage tokens) or a decision while rolling (roll, secure, stop), :meth:`Stage.play` asks it. The
completed :class:`~rallyc.rules.core.turn.Turn` is what a record stores.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Callable

from rallyc.rules.core.damage_bag import tokens_left
from rallyc.rules.core.dice import Die, DieKind, Face
from rallyc.rules.core.driver import REPLAN, Step
from rallyc.rules.core.errors import StageOver
from rallyc.rules.core.plans import PlanContext, Placed, Walk, check_die, check_plan, die_options, start_walk, warning_limit
from rallyc.rules.core.rolling import _run
from rallyc.rules.core.domain import JokerState
from rallyc.rules.core.race import Race
from rallyc.rules.core.stage import Stage
from rallyc.rules.core.state import DAMAGE_KINDS, WEATHER, Car
from rallyc.rules.core.turn import Outcome, Roll, Turn, ZeroSide

__all__ = ["RandomBot", "SeededChance", "relay_in_order", "play_stage"]

#: a die that may be laid next, with the partial plan after it (:func:`~rallyc.rules.core.plans.die_options`)
Option = tuple[Placed, Walk]


class SeededChance:
    """Chance from a seeded random stream (the :class:`~rallyc.rules.core.driver.Chance` protocol): die faces,
    Shortcut tokens, the "0" side of a Time card, Damage tokens. The seeded drivers build on it and add the
    decisions of :class:`~rallyc.rules.core.driver.Driver`: the random bot below, and the greedy and strong drivers of
    :mod:`rallyc.analysis`. Same seed, same draws."""

    def __init__(self, seed: int = 0, *, weather: float | None = None) -> None:
        """``weather``: the chance that a token drawn at a Shortcut is a Weather token when the weather option
        is on (default: the share of Weather tokens in the bag, MC-WEATHER-01)."""
        self.rng = random.Random(seed)
        self.p_weather = weather
        self._stage: Stage | Race | None = None
        self._weather_drawn = False
        self._drawn: Counter[str] = Counter()

    def bind(self, stage: Stage | Race) -> None:
        """Draw for the next turn of ``stage`` (a stage or an RX race: its dice faces and bag)."""
        self._stage = stage
        self._weather_drawn = False
        self._drawn = Counter()  # the Damage tokens drawn this turn

    def face(self, die: DieKind) -> Face:
        n = self._stage.components.warning_faces[die] if self._stage else 1
        return Face.WARNING if self.rng.randrange(6) < n else Face.OK

    def token(self) -> str:
        stage = self._stage
        # RX Weather: only the first Weather token counts; a later one would be replaced (RX-WEATHER-07)
        rx_open = stage.weather_open if isinstance(stage, Race) else None
        if rx_open is not None and (not rx_open or self._weather_drawn):
            return self.rng.choice(("ok", "ok", "coast", "minus1"))
        if stage is not None and stage.options.weather:
            bag = stage.damage_bag()
            share = self.p_weather if self.p_weather is not None else bag[WEATHER] / sum(bag.values())
            if self.rng.random() < share:
                self._weather_drawn = True
                return WEATHER
        return self.rng.choice(("ok", "ok", "coast", "minus1"))

    def zero_side(self) -> ZeroSide:
        icon = self.rng.choices(("spinout", "crash", "sisu"), weights=(5, 4, 1))[0]
        if icon == "sisu":
            return ZeroSide("sisu", gear=self.rng.randint(1, 3))
        if icon == "crash":
            low = self.rng.randint(0, 1)
            med = low + self.rng.randint(0, 1)
            return ZeroSide("crash", marks={"low": low, "medium": med, "high": min(3, med + 1)})
        return ZeroSide("spinout")

    def damage(self, n: int) -> list[str]:
        """``n`` tokens drawn from what the bag still holds (a token drawn earlier this turn is out too)."""
        stage = self._stage
        bag = tokens_left(stage.damage_bag(), stage.damage_out()) if stage else {k: 1 for k in DAMAGE_KINDS}
        for kind, k in self._drawn.items():
            bag[kind] = max(0, bag.get(kind, 0) - k)
        out = []
        for _ in range(n):
            kinds = [k for k in bag if bag[k] > 0] or list(bag)
            kind = self.rng.choices(kinds, weights=[max(bag[k], 1) for k in kinds])[0]
            bag[kind] = max(0, bag[kind] - 1)
            self._drawn[kind] += 1
            out.append(kind)
        return out


def relay_in_order(stage: Stage, ctx: PlanContext, placed: list[Placed], rolls: list[Roll]) -> list[Roll]:
    """The rolled dice re-laid after a failed Flat Out on the same path, up to the die that causes the Loss of
    Control (CORE-ROLL-13; Full Contact: with the Danger Warnings, RX-DANGER-06)."""
    relaid = [Roll(r.die, r.face, r.brake_face, boost_face=r.boost_face) for r in rolls]
    probe = [Roll(r.die, r.face, r.brake_face, boost_face=r.boost_face) for r in rolls]
    lim = min(warning_limit(ctx, p.space) for p in placed)
    contact = stage.contact if isinstance(stage, Race) else None
    extra = contact.warnings(stage.to_move() or "") if contact is not None else 0
    run = _run(stage, ctx, placed, probe, sisu=False, warn_limit=lim, path="relaid", driver=_Silent(),
               extra=extra)
    return relaid[: len(run.resolved)]



def _no_shortcut(ctx: PlanContext, opts: list[Option]) -> list[Option]:
    """The die options that do not enter a Shortcut space."""
    return [o for o in opts if ctx.index.spaces[o[0].space].kind != "shortcut"]

class RandomBot(SeededChance):
    """Random legal play with a fixed seed (same seed, same game)."""

    def __init__(self, seed: int = 0, *, flat_out: float = 0.3, secure: float = 0.15, stop_at_risk: float = 0.7,
                 max_dice: int = 8, weather: float | None = None,
                 joker: float = 0.8, replan: float = 0.25) -> None:
        """``weather``: see :class:`SeededChance`."""
        super().__init__(seed, weather=weather)
        self.p_flat_out = flat_out
        self.p_secure = secure
        self.p_stop = stop_at_risk
        self.max_dice = max_dice
        #: RX: the chance to take the Joker branch when it is offered and not yet driven (RX-JOKER-01)
        self.p_joker = joker
        #: with Improvisation: the chance to re-plan the dice not yet rolled after a roll (IMPROV-01)
        self.p_replan = replan
        #: scripted choices: callables (stage, name) -> Turn | None consulted before random play
        self.script: list[Callable[[Stage, str], Turn | None]] = []

    # -- planning
    def plan(self, stage: Stage, ctx: PlanContext) -> list[Die]:
        """A random legal plan (possibly empty when the car is blocked)."""
        return self._extend(stage, ctx, start_walk(ctx), self.rng.randint(1, self.max_dice))

    def _extend(self, stage: Stage, ctx: PlanContext, w: Walk, length: int, done: tuple[Die, ...] = ()) -> list[Die]:
        """``length`` random legal dice (fewer where none can be laid) after the partial plan ``w`` (the dice
        ``done``)."""
        out: list[Die] = []
        while len(out) < length:
            pool = self._pool(stage, ctx, die_options(ctx, w))
            if not pool:
                break
            placed, w = pool[self.rng.randrange(len(pool))]
            out.append(placed.die)
            if placed.contact is not None and placed.contact.no_end and len(out) == length:
                length += 1  # Full Contact: the move may not end on a space two cars share (RX-THROUGH-06)
        while out and _no_end(ctx, [*done, *out]):
            out.pop()
        return out

    def _pool(self, stage: Stage, ctx: PlanContext, opts: list[Option]) -> list[Option]:
        """The next die's options to pick from at random (none: the plan ends): mostly those that keep going (not
        ending the move by a certain Loss of Control); in an RX race, no Shortcut once Full Contact has emptied the
        bag (no token left to draw there), and mostly the Joker while the car still owes it (RX-JOKER-01)."""
        rng = self.rng
        if not opts:
            return opts
        safe = [o for o in opts if not o[1].ended]
        if isinstance(stage, Race) and stage.contact is not None and stage.bag_left() <= 0:
            opts = _no_shortcut(ctx, opts)
            safe = _no_shortcut(ctx, safe)
            if not opts:
                return opts
        pool = safe if safe and rng.random() < 0.95 else opts
        if self._wants_joker(stage, ctx):
            joker = [o for o in pool if ctx.index.spaces[o[0].space].joker]
            if joker and rng.random() < self.p_joker:
                pool = joker
        return pool

    @staticmethod
    def _wants_joker(stage: Stage, ctx: PlanContext) -> bool:
        name = stage.to_move()
        return isinstance(stage, Race) and name is not None and stage.cars[name].joker == JokerState.TODO

    def turn(self, stage: Stage) -> Turn:
        """Decide the next turn of the player to move (chance is drawn while it is played)."""
        name = stage.to_move()
        if name is None:
            raise StageOver("the stage is over")
        car = stage.cars[name]
        ctx, _ = stage.context(name)
        contact = stage.contact if isinstance(stage, Race) else None
        # Full Contact: Danger tokens up to the Warning limit are a Loss of Control before any die (RX-DANGER-05)
        dice = [] if contact is not None and contact.loses_control(name, ctx) else self.plan(stage, ctx)
        t = Turn(player=name, dice=[Roll(d) for d in dice])
        if dice and self.rng.random() < self.p_flat_out:
            t.flat_out = True
        if isinstance(car, Car) and car.sisu and self.rng.random() < 0.1:  # no SISU in RX (RX-ADV-01)
            t.sisu = True
        return t

    def play_turn(self, stage: Stage) -> tuple[Turn, Outcome]:
        """Decide and play one turn; returns the completed turn and its outcome."""
        self.bind(stage)
        out = stage.play(self.turn(stage), driver=self)
        assert out.turn is not None
        return out.turn, out

    # -- driver hooks (called by the rules while resolving)
    def decide(self, stage: Stage, i: int, placed: list[Placed], rolls: list[Roll], warnings: int, limit: int) -> str:
        car = stage.cars[stage.to_move() or ""]
        # Improvisation (IMPROV-01): after a roll, sometimes lay the rest of the dice again
        if stage.options.improvisation and i > 0 and rolls[i - 1].rolled and rolls[i - 1].face is not None \
                and self.rng.random() < self.p_replan:
            return REPLAN
        if i > 0 and warnings >= limit - 1 and self.rng.random() < self.p_stop:
            secured = sum(_size(r) for r in rolls if r.secured)
            cost = sum(range(secured + 1, secured + 1 + _size(rolls[i])))
            spent = (secured * (secured + 1)) // 2
            if car.tokens - spent >= cost and self.rng.random() < 0.5:
                return Step.SECURE
            return Step.STOP
        if car.tokens > 0 and self.rng.random() < self.p_secure:
            secured = sum(_size(r) for r in rolls if r.secured)
            k = _size(rolls[i])
            if (secured + k) * (secured + k + 1) // 2 <= car.tokens:
                return Step.SECURE
        return Step.ROLL

    def replan(self, stage: Stage, ctx: PlanContext, done: list[Placed]) -> list[Die]:
        """A random legal rest of the plan after the dice ``done`` (IMPROV-02/03)."""
        w = start_walk(ctx)
        for p in done:
            _, w = check_die(ctx, w, p.die)
        return self._extend(stage, ctx, w, self.rng.randint(1, max(1, self.max_dice - len(done))),
                            tuple(p.die for p in done))

    def want_spare_tire(self) -> bool:
        return self.rng.random() < 0.5

    def relay(self, stage: Stage, ctx: PlanContext, placed: list[Placed], rolls: list[Roll], leader: bool) -> list[Roll]:
        """Re-lay the rolled dice on the same path, up to the die that causes the Loss of Control."""
        return relay_in_order(stage, ctx, placed, rolls)


def _no_end(ctx: PlanContext, dice: list[Die]) -> bool:
    """The plan's last die Pushes Through onto a space two cars share (RX-THROUGH-06)."""
    if ctx.contact is None:
        return False
    last = check_plan(ctx, dice)[-1].contact
    return last is not None and last.no_end


def _size(r: Roll) -> int:
    """Dice in a roll: a Brake or Boost pair is two (CORE-SECONDS-07, MC-BOOST-03)."""
    return 2 if r.die.brake or r.die.boost else 1


class _Silent:
    """Answers Shortcut draws during a probe without consuming the bot's random stream."""

    def token(self) -> str:
        return "ok"

    def decide(self, *a: object) -> str:  # pragma: no cover - probes roll everything
        return Step.ROLL

    # the rest of the Driver protocol: a probe's dice are all rolled, nothing else is asked
    def face(self, die: DieKind) -> Face:  # pragma: no cover
        return Face.OK

    def replan(self, *a: object) -> list[Die]:  # pragma: no cover
        return []

    def zero_side(self) -> ZeroSide:  # pragma: no cover
        return ZeroSide("spinout")

    def damage(self, n: int) -> list[str]:  # pragma: no cover
        return []

    def want_spare_tire(self) -> bool:  # pragma: no cover
        return False

    def relay(self, *a: object) -> list[Roll]:  # pragma: no cover
        return []


def play_stage(stage: Stage, bot: RandomBot, max_turns: int = 2000) -> list[tuple[Turn, Outcome]]:
    """Play a whole stage with one bot driving every car."""
    out: list[tuple[Turn, Outcome]] = []
    while not stage.is_over() and len(out) < max_turns:
        out.append(bot.play_turn(stage))
    return out
