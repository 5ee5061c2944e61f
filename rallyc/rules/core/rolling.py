"""The turn as a small state machine: plan, roll (one die at a time), continue / stop / re-plan, resolve.

:func:`roll_and_move` plays a turn's movement, the core every game form shares (RX-DICE-01): the dice laid
are checked as a plan (phase ``PLAN``: CORE-DICE, CORE-MOVE); then either every die is rolled at once
(Flat Out, CORE-ROLL-09..15, with the re-laid dice of a failed one), or the dice are rolled one by one by
:class:`OneByOne` (phase ``ROLL``): before each die the player rolls it, secures it with tokens, stops, or,
with Improvisation, re-plans the dice not yet rolled (IMPROV-01..03); each step is validated as it
happens. When the movement is over (phase ``RESOLVE``) the variant's End of the Turn follows.

Who decides and where chance comes from are inputs. In a replay there is no driver: the recorded turn
feeds the machine (a die with a face was rolled, a secured die secured, the first die with neither is
where the player stopped, a recorded re-plan is applied where it happened). Playing live, a
:class:`~rallyc.rules.core.driver.Driver` answers what the record leaves open (roll, secure, stop or re-plan)
and draws the chance (faces, Shortcut tokens); the referee writes its answers into the copy of the turn it
plays, which is what a record stores.
"""

from __future__ import annotations

from collections import Counter
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Callable, NamedTuple

from rallyc.rules.core.dice import DieKind, Face
from rallyc.rules.core.driver import Driver, Step
from rallyc.rules.core.errors import IllegalMove
from rallyc.rules.core.movelog import MoveLog
from rallyc.rules.core.plans import PlanContext, Placed, check_die, check_plan, die_options, effective_limit, start_walk, \
    warning_limit
from rallyc.rules.core.state import SHORTCUT_RESULTS, WEATHER
from rallyc.rules.core.turn import LossOfControl, Replan, Roll, Turn

if TYPE_CHECKING:  # pragma: no cover
    from rallyc.rules.core.engine import TurnEngine

__all__ = ["Phase", "Movement", "Mover", "OneByOne", "roll_and_move", "IMPROV_RULES"]

#: the rules a re-planned turn applies (IMPROV-01..03)
IMPROV_RULES = ("IMPROV-01", "IMPROV-02", "IMPROV-03")


class Phase(StrEnum):
    """Where a turn's movement is."""

    #: the dice are laid (a plan, CORE-DICE-01, CORE-MOVE-06)
    PLAN = "plan"
    #: one by one: the next die waits to be rolled or secured, or the player stops or re-plans
    ROLL = "roll"
    #: the movement is over; the End of the Turn follows
    RESOLVE = "resolve"


def _warn(face: str | None) -> int:
    return 1 if face == Face.WARNING else 0


def _roll_warnings(r: Roll) -> int:
    return _warn(r.face) + _warn(r.brake_face) + _warn(r.boost_face)


class _Run(NamedTuple):
    """The result of moving the car die by die along laid dice (a named tuple: one is built per turn, and the
    fast roll builds it without a Python ``__init__``)."""

    resolved: list[tuple[Placed, Roll]]
    loc: LossOfControl | None
    warnings: int
    tokens: list[str]
    minus1: dict[int, int]
    flying_stop: bool = False
    stopped: bool = False
    #: the dice and road rules each die applied as it moved the car (None: no die was rolled)
    log: MoveLog | None = None


class _Runner:
    """Moves the car one die at a time (CORE-ROLL-03), applying road effects and counting Warnings."""

    def __init__(self, stage: "TurnEngine[Any]", ctx: PlanContext, *, sisu: bool, warn_limit: int | None = None,
                 extra: int = 0, flat_out: bool = False, crashed: frozenset[str] = frozenset()) -> None:
        self.stage = stage
        self.ctx = ctx
        self.sisu = sisu
        self.warn_limit = warn_limit
        self.minus1 = dict(ctx.minus1)
        self.affects_drawer = stage.components.reading("minus1_affects_drawer")
        self.sisu_jump = stage.components.reading("sisu_jump_warning")
        #: Warnings added before any die (Full Contact Danger tokens, RX-DANGER-06)
        self.warnings = 0 if sisu else extra
        self.tokens: list[str] = []
        self.resolved: list[tuple[Placed, Roll]] = []
        self.loc: LossOfControl | None = None
        self.flying_stop = False
        self.stopped = False
        # the road as the car drives it: the -1 tokens drawn this turn count at once (a shallow copy; only
        # effective_limit reads it)
        self.view = view = object.__new__(PlanContext)  # copy.copy's reduce protocol cost more than the turn's dice
        view.__dict__.update(ctx.__dict__)
        self.view.minus1 = self.minus1
        self.prev = ctx.start
        #: a -1 token drawn this turn lowers the limits the car drives by (not those its plan was laid by)
        self.drew_minus1 = False
        #: the rules each die applies as it moves the car (``crashed``: the spaces of crashed cars, CORE-OVERTAKE-08)
        self.log = MoveLog(ctx, flat_out, crashed)

    @property
    def ended(self) -> bool:
        """The movement is over: a Loss of Control, the Flying Start Warning, or the player stopped."""
        return self.loc is not None or self.flying_stop or self.stopped

    def limit(self, p: Placed) -> int:
        """The Warning limit for the die ``p`` (MC-WARN-01: the column of its own surface)."""
        return self.warn_limit if self.warn_limit is not None else warning_limit(self.ctx, p.space)

    def after_end(self, here: str, r: Roll, all_rolled: bool) -> None:
        """A die after the end of the movement: it does not move the car (and one by one, is not rolled)."""
        if not all_rolled and (r.rolled or r.secured):
            why = "a Loss of Control" if self.loc else ("the Flying Start Warning" if self.flying_stop else "stopping")
            rule = "CORE-LOC-02" if self.loc else ("CORE-ADV-02" if self.flying_stop else "CORE-ROLL-06")
            raise IllegalMove(rule, f"this die cannot be rolled or secured: the movement ended before it "
                                    f"({why})", here + (".face" if r.rolled else ".secured"))
        if r.token is not None:
            raise IllegalMove("CORE-SHORTCUT-05", "no token is drawn for a die that does not move the car",
                              here + ".token")

    def stop(self, here: str, r: Roll) -> None:
        """The player stops before this die (CORE-ROLL-06)."""
        self.stopped = True
        if r.token is not None:
            raise IllegalMove("CORE-SHORTCUT-05", "no token is drawn for a die that does not move the car",
                              here + ".token")

    def move(self, here: str, p: Placed, r: Roll, draw: Callable[[], str] | None) -> None:
        """The die ``r`` (rolled or secured) moves the car to ``p``: Shortcut tokens, road effects, Warnings."""
        self.resolved.append((p, r))
        s = self.stage.index.spaces[p.space]
        if s.kind == "shortcut":
            self._shortcut(here, p, r, s.step, draw)
        elif r.token is not None:
            raise IllegalMove("CORE-SHORTCUT-05", f"{p.space} is no Shortcut: no token is drawn", here + ".token")
        came_from = self.prev
        lim = effective_limit(self.view, p.space, None if p.jump else came_from)
        self.prev = p.space
        self.loc = self._road_effects(p, r, lim)
        self.log.moved(p, r, came_from, effective_limit(self.ctx, p.space, None if p.jump else came_from)
                       if self.drew_minus1 else lim)
        if r.secured and r.rolled:
            raise IllegalMove("CORE-SECONDS-04", "a secured die is not rolled: it has no face", here + ".face")
        if self.loc is None and p.flying and r.face == Face.WARNING:
            self.flying_stop = True  # CORE-ADV-02: one space, end in Gear 2, no Loss of Control
            return
        if not self.sisu:
            self.warnings += _roll_warnings(r) if r.rolled else 0
            if self.loc is None and self.warnings >= self.limit(p):
                self.loc = LossOfControl(p.space, p.gear, f"{self.warnings} Warnings")

    def _shortcut(self, here: str, p: Placed, r: Roll, step: int, draw: Callable[[], str] | None) -> None:
        """Entering a Shortcut space draws one Damage token (CORE-SHORTCUT-05): its Shortcut side, a -1 token left
        on the tile (CORE-SHORTCUT-08), or a Weather token (MC-WEATHER-01)."""
        if r.token is None and draw is not None:
            r.token = draw()
        if r.token is None:
            raise IllegalMove("CORE-SHORTCUT-05", f"entering the Shortcut {p.space} draws a Damage token: "
                                                  f"record its Shortcut side (ok, coast, minus1)", here + ".token")
        if r.token == WEATHER and not self.stage.options.weather:
            raise IllegalMove("MC-WEATHER-01", "no Weather token is in the Damage bag without the weather option",
                              here + ".token")
        if r.token not in SHORTCUT_RESULTS and r.token != WEATHER:
            raise IllegalMove("CORE-SETUP-04", f"a Shortcut side shows ok, coast or minus1, not {r.token!r}",
                              here + ".token")
        self.tokens.append(r.token)
        if r.token == "minus1":
            self.minus1[step] = self.minus1.get(step, 0) + 1
            self.drew_minus1 = True
            if not self.affects_drawer:
                self.view.minus1 = self.ctx.minus1

    def _road_effects(self, p: Placed, r: Roll, lim: int | None) -> LossOfControl | None:
        """The road where the die takes the car, whose limit there is ``lim``: over a corner's limit
        (CORE-CORNER-07), a jump too fast or with a Warning (CORE-JUMP-04/05): a Loss of Control, or the one the
        movement already had."""
        if lim is not None and p.gear > lim and (p.jump == 0 or self.stage.components.reading("jump_landing_limit")):
            return LossOfControl(p.space, p.gear, f"Gear {p.gear} over the limit {lim}")
        if p.jump_loc:
            return LossOfControl(p.space, p.gear, "jump too fast")
        if p.jump and r.face == Face.WARNING and not (self.sisu and self.sisu_jump == "ignored"):
            return LossOfControl(p.space, p.gear, "Warning on the jump")
        return self.loc

    def result(self) -> _Run:
        self.log.close()
        return _Run(self.resolved, self.loc, self.warnings, self.tokens, self.minus1, self.flying_stop, self.stopped,
                    self.log)


def _run(stage: "TurnEngine[Any]", ctx: PlanContext, placed: list[Placed], rolls: list[Roll], *, sisu: bool,
         warn_limit: int | None, path: str, driver: Driver | None = None, extra: int = 0,
         crashed: frozenset[str] = frozenset()) -> _Run:
    """Move along dice all rolled at once (a Flat Out, or the dice re-laid after a failed one): those after
    the end of the movement do not move the car (``extra``: Warnings before any die, RX-DANGER-06; ``crashed``: the
    spaces of crashed cars, CORE-OVERTAKE-08)."""
    runner = _Runner(stage, ctx, sisu=sisu, warn_limit=warn_limit, extra=extra, flat_out=True, crashed=crashed)
    draw = driver.token if driver is not None else None
    for i, (p, r) in enumerate(zip(placed, rolls)):
        here = f"{path}[{i}]"
        if runner.ended:
            runner.after_end(here, r, all_rolled=True)
            continue
        runner.move(here, p, r, draw)
    return runner.result()


def _check_faces(rolls: list[Roll], path: str, flat_out: bool, paths: list[str] | None = None) -> None:
    """The faces given are a die's faces, with their paired dice (and every die has one in a Flat Out)."""
    for i, r in enumerate(rolls):
        here = paths[i] if paths is not None else f"{path}[{i}]"
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
    pool: Counter[tuple[str, Face | None]] = Counter()
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


class Movement(NamedTuple):
    """The dice rolled and the car moved (CORE-ROLL), before the End of the Turn: shared by rally stages and
    RX races (RX-DICE-01, RX-ROLL-01). A named tuple, like :class:`_Run` (one of each per turn)."""

    run: _Run
    #: tokens earned by a Flat Out (Seconds; Focus in RX, RX-ROLL-03)
    gained: int
    #: tokens spent securing dice (CORE-SECONDS-07, RX-ROLL-04)
    spent: int
    failed: bool
    sisu: bool
    #: the car leads the round (CORE-DICE-15)
    leader: bool = False
    #: re-plans made while rolling one by one (Improvisation, IMPROV-01)
    replans: int = 0

    @classmethod
    def lost_before_any_die(cls, loc: LossOfControl, warnings: int, minus1: dict[int, int]) -> "Movement":
        """A turn that is a Loss of Control before any die is laid (Full Contact Danger tokens, RX-DANGER-05):
        no die rolled, the car not moved, ``warnings`` Warnings, the -1 tokens as they were (``minus1``, copied)."""
        return cls(_Run([], loc, warnings, [], dict(minus1)), 0, 0, False, False)


class Mover:
    """What the roll needs to know about the car that moves, whatever the game form: who it is, the tokens it
    holds to secure dice (Second tokens; Focus tokens in RX, RX-ROLL-04) and the Warnings added to its dice before
    any is rolled (Full Contact Danger tokens, RX-DANGER-06). What only some turns need (its SISU token, the words
    of a refusal to secure, the die that takes it across the finish line) is asked of its ``game`` (a
    :class:`~rallyc.rules.core.engine.TurnEngine`) when needed, for its ``car``: without a game, none, the core's words
    and no finish.

    One is made per turn (:meth:`~rallyc.rules.core.engine.TurnEngine.mover`): slots, no property or hook called to make
    it. It is not changed once made (:meth:`with_warnings` makes another)."""

    __slots__ = ("name", "tokens", "warnings", "game", "car")

    def __init__(self, name: str, tokens: int, warnings: int = 0, game: "TurnEngine[Any] | None" = None,
                 car: Any = None) -> None:
        self.name = name
        self.tokens = tokens
        self.warnings = warnings
        self.game = game
        self.car = car

    @property
    def sisu(self) -> bool:
        """The car holds a SISU token (CORE-ADV-11/12: :meth:`~rallyc.rules.core.engine.TurnEngine.holds_sisu`)."""
        return self.game is not None and self.game.holds_sisu(self.car)

    @property
    def crashed(self) -> frozenset[str]:
        """The spaces of the other cars that crashed or change a tire (CORE-OVERTAKE-08:
        :meth:`~rallyc.rules.core.engine.TurnEngine.crashed_spaces`)."""
        return self.game.crashed_spaces(self.car) if self.game is not None else frozenset()

    @property
    def tokens_rule(self) -> str:
        """The rule a too costly securing breaks (the game's :attr:`~rallyc.rules.core.engine.TurnEngine.tokens`)."""
        return self.game.tokens.lack_rule if self.game is not None else "CORE-SECONDS-08"

    @property
    def tokens_unit(self) -> str:
        """The tokens' unit in a refusal's message."""
        return self.game.tokens.unit if self.game is not None else "s"

    def finish_index(self, placed: list[Placed]) -> int | None:
        """Index of the die of ``placed`` that takes the car across the finish line, None if none does
        (CORE-STAGEEND-03; an RX race counts its laps, RX-END-02)."""
        return self.game.finish_index(self.car, placed) if self.game is not None else None

    def with_warnings(self, warnings: int) -> "Mover":
        """This mover with ``warnings`` Warnings before any die (Full Contact Danger tokens)."""
        return Mover(self.name, self.tokens, warnings, self.game, self.car)


def _faces(driver: Driver, r: Roll) -> None:
    """Roll the die ``r`` (with its paired Brake and Boost dice): the faces come from the driver's chance."""
    r.face = driver.face(r.die.die)
    if r.die.brake:
        r.brake_face = driver.face(DieKind.BRAKE)
    if r.die.boost:
        r.boost_face = driver.face(DieKind.BOOST)


class OneByOne:
    """Rolling one by one (CORE-ROLL-03..06) as a state machine: while :attr:`phase` is ``ROLL`` the next die
    waits; :meth:`roll`, :meth:`secure`, :meth:`stop` or (with Improvisation) :meth:`replan` move it on, each
    validated as it happens; then ``RESOLVE``. :meth:`finish` checks what the record holds after the end."""

    def __init__(self, stage: "TurnEngine[Any]", ctx: PlanContext, dice: list[Roll], placed: list[Placed], *,
                 sisu: bool, mover: Mover, draw: Callable[[], str] | None = None) -> None:
        """``draw`` draws a Shortcut token when a die enters a Shortcut and the turn states none (a driver's
        chance; None in a replay: the record states it)."""
        self.stage = stage
        self._draw = draw
        self.ctx = ctx
        self.mover = mover
        self.runner = _Runner(stage, ctx, sisu=sisu, extra=mover.warnings, crashed=mover.crashed)
        #: the dice in the order the car uses them (re-plans replace the dice not yet rolled)
        self.rolls = list(dice)
        self.placed = list(placed)
        #: where each die is in the record (``dice[2]``, ``replans[0].dice[1]``)
        self.paths = [f"dice[{i}]" for i in range(len(dice))]
        #: the next die
        self.i = 0
        #: re-plans applied (IMPROV-01)
        self.replans = 0
        #: the last step was a roll (a re-plan follows a roll, IMPROV-01)
        self.rolled_last = False

    @property
    def phase(self) -> Phase:
        return Phase.RESOLVE if self.runner.ended or self.i >= len(self.rolls) else Phase.ROLL

    @property
    def warnings(self) -> int:
        """Warnings counted so far this turn."""
        return self.runner.warnings

    @property
    def current(self) -> Roll:
        """The die that waits."""
        self._expect_roll()
        return self.rolls[self.i]

    def limit(self) -> int:
        """The Warning limit for the die that waits."""
        return self.runner.limit(self.placed[self.i])

    def _expect_roll(self) -> None:
        if self.phase is not Phase.ROLL:
            raise IllegalMove("CORE-ROLL-06", "the movement is over: no die waits to be rolled", self._here())

    def _here(self) -> str:
        return self.paths[self.i] if self.i < len(self.paths) else f"dice[{self.i}]"

    def roll(self, face: Face, brake_face: Face | None = None, boost_face: Face | None = None) -> None:
        """Roll the die that waits (with its paired Brake or Boost die): it moves the car (CORE-ROLL-03)."""
        r = self.current
        r.face, r.brake_face, r.boost_face = face, brake_face, boost_face
        _check_faces([r], "", False, paths=[self._here()])
        self._rolled(r)

    def _rolled(self, r: Roll) -> None:
        """The die that waits, ``r``, was rolled with faces already checked: it moves the car."""
        self._move(r)
        self.rolled_last = True

    def secure(self) -> None:
        """Secure the die that waits with tokens instead of rolling it (CORE-SECONDS-04/07, RX-ROLL-04)."""
        r = self.current
        r.secured = True
        spent = _secure_cost(self.rolls[: self.i + 1])
        if spent > self.mover.tokens:
            unit = self.mover.tokens_unit
            raise IllegalMove(self.mover.tokens_rule, f"securing these dice costs {spent} {unit}; {self.mover.name} "
                                                      f"holds {self.mover.tokens} {unit}", "dice")
        self._move(r)
        self.rolled_last = False

    def _move(self, r: Roll) -> None:
        self.runner.move(self._here(), self.placed[self.i], r, self._draw)
        self.i += 1

    def stop(self) -> None:
        """Stop before the die that waits (CORE-ROLL-06): the movement is over."""
        self.runner.stop(self._here(), self.current)

    def can_replan(self) -> bool:
        """Improvisation is in play and the last die was rolled (IMPROV-01)."""
        return bool(self.stage.options.improvisation) and not self.runner.ended and self.rolled_last

    def replan(self, rp: Replan, j: int) -> None:
        """Improvisation: take back the dice not yet rolled and lay ``rp.dice`` (the record's ``replans[j]``);
        they follow the normal rules (IMPROV-01..03)."""
        where = f"replans[{j}]"
        if not self.stage.options.improvisation:
            raise IllegalMove("IMPROV-01", "Improvisation is not in play (option improvisation is off): the dice "
                                           "cannot be re-planned", where)
        if self.runner.ended:
            raise IllegalMove("IMPROV-01", "the movement ended before this re-plan", where + ".after")
        if rp.after != self.i or not self.rolled_last:
            raise IllegalMove("IMPROV-01", f"a re-plan follows a roll: here after {self.i} dice, the last of them "
                                           f"rolled, not after {rp.after}" + ("" if self.rolled_last else
                                                                               " (the last step was no roll)"),
                              where + ".after")
        if not rp.dice:
            raise IllegalMove("IMPROV-02", "a re-plan lays at least one die (to lay none, stop)", where + ".dice")
        for k in range(self.i, len(self.rolls)):
            r = self.rolls[k]
            if r.rolled or r.secured or r.token is not None:
                raise IllegalMove("IMPROV-01", f"re-planned after {self.i} dice: this die was taken back unrolled",
                                  self.paths[k] + (".face" if r.rolled else ".secured" if r.secured else ".token"))
        paths = self.paths[: self.i] + [f"{where}.dice[{k}]" for k in range(len(rp.dice))]
        _check_faces(rp.dice, "", False, paths=paths[self.i:])
        rolls = self.rolls[: self.i] + list(rp.dice)
        w = start_walk(self.ctx)
        placed: list[Placed] = []
        for roll, path in zip(rolls, paths):  # IMPROV-03: the whole plan follows the usual rules
            p, w = check_die(self.ctx, w, roll.die, path)
            placed.append(p)
        self.rolls, self.paths, self.placed = rolls, paths, placed
        self.replans += 1
        self.rolled_last = False

    def finish(self, replans: list[Replan], first: int) -> _Run:
        """The movement is over: the dice after it were not rolled, no re-plan is left (``replans[first:]``)."""
        for k in range(self.i, len(self.rolls)):
            if k == self.i and self.runner.stopped:
                continue
            self.runner.after_end(self.paths[k], self.rolls[k], all_rolled=False)
        if first < len(replans):
            raise IllegalMove("IMPROV-01", f"no re-plan after {replans[first].after} dice: the movement had ended "
                                           f"or the re-plans are out of order", f"replans[{first}].after")
        return self.runner.result()


def _one_by_one(stage: "TurnEngine[Any]", ctx: PlanContext, turn: Turn, placed: list[Placed], *, sisu: bool,
                mover: Mover, driver: Driver | None) -> tuple[_Run, OneByOne]:
    """Feed the one-by-one machine: what the turn states (a record, or a driver's scripted dice) is played as
    stated; what it leaves open is asked from the driver (none in a replay: the player stopped there)."""
    m = OneByOne(stage, ctx, turn.dice, placed, sisu=sisu, mover=mover,
                 draw=driver.token if driver is not None else None)
    j = 0
    while True:
        if j < len(turn.replans) and turn.replans[j].after == m.i and not m.runner.ended:
            m.replan(turn.replans[j], j)
            j += 1
            continue
        if m.phase is Phase.RESOLVE:
            break
        r = m.rolls[m.i]
        if driver is None:  # a replay: the record's faces were checked with its dice (and with each re-plan's)
            if r.face is not None:
                m._rolled(r)
            elif r.secured:
                m.secure()
            else:
                m.stop()
            continue
        if not r.rolled and not r.secured and _ask_driver(stage, ctx, turn, m, r, driver, j):
            continue  # a re-plan was laid: it is applied before the next die
        if r.rolled:
            assert r.face is not None
            m.roll(r.face, r.brake_face, r.boost_face)
        elif r.secured:
            m.secure()
        else:
            m.stop()
    return m.finish(turn.replans, j), m


def _ask_driver(stage: "TurnEngine[Any]", ctx: PlanContext, turn: Turn, m: OneByOne, r: Roll, driver: Driver,
                replanned: int) -> bool:
    """Before the die ``r`` that waits, what the driver does (roll, secure, stop or re-plan) written into the turn;
    True when it laid a re-plan (``turn.replans``; ``replanned`` of them are already applied)."""
    step = driver.decide(stage, m.i, m.placed, m.rolls, m.warnings, m.limit())
    if step == Step.REPLAN and m.can_replan() and replanned == len(turn.replans):
        dice = driver.replan(stage, ctx, m.placed[: m.i])
        if dice:
            turn.replans.append(Replan(m.i, [Roll(d) for d in dice]))
            return True
        step = Step.ROLL
    if step == Step.SECURE:
        r.secured = True
    elif step in (Step.ROLL, Step.REPLAN):
        _faces(driver, r)
    return False


def roll_and_move(stage: "TurnEngine[Any]", mover: Mover, turn: Turn, ctx: PlanContext, *, leader: bool,
                  driver: Driver | None = None) -> Movement:
    """Check the laid dice, roll them one by one (:class:`OneByOne`) or Flat Out, and move the car (CORE-ROLL);
    nothing of the game is changed (a driver's answers are written into ``turn``, the referee's copy).

    ``stage`` is the game (any :class:`~rallyc.rules.core.engine.TurnEngine`: a stage, an RX race). Every turn, replayed
    or played, takes this one path; a refusal names the rule and the record's field.
    """

    rolls = turn.dice
    if driver is not None and turn.flat_out:  # every die rolled at once (CORE-ROLL-09)
        for r in rolls:
            if r.face is None:
                _faces(driver, r)
    placed = _check_laid(stage, mover, turn, ctx)
    if turn.flat_out:
        return _flat_out(stage, mover, turn, ctx, placed, leader, driver)
    if turn.relaid is not None:
        raise IllegalMove("CORE-ROLL-13", "dice are re-laid only after a failed Flat Out", "relaid")
    run, machine = _one_by_one(stage, ctx, turn, placed, sisu=turn.sisu, mover=mover, driver=driver)
    if rolls and not run.resolved:
        raise IllegalMove("CORE-MOVE-07", "the car must move at least one space: roll or secure the first die",
                          "dice[0].face")
    return Movement(run, 0, _secure_cost(machine.rolls), False, turn.sisu, leader, machine.replans)


def _check_laid(stage: "TurnEngine[Any]", mover: Mover, turn: Turn, ctx: PlanContext) -> list[Placed]:
    """The dice laid, checked as a plan (CORE-DICE, CORE-MOVE), with the turn's form: a Flat Out needs dice and
    re-plans none (IMPROV-01), a car that can move lays a die (CORE-MOVE-07), a SISU token in play and held
    (CORE-ADV-11/12). The dice as placed on the road."""
    rolls = turn.dice
    if turn.replans and turn.flat_out:
        raise IllegalMove("IMPROV-01", "re-planning is for rolling one by one, not a Flat Out", "replans")
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
    return placed


def _flat_out(stage: "TurnEngine[Any]", mover: Mover, turn: Turn, ctx: PlanContext, placed: list[Placed], leader: bool,
              driver: Driver | None) -> Movement:
    """A Flat Out (CORE-ROLL-09..15): every die rolled at once against the lowest Warning limit of the surfaces it
    crosses (MC-WARN-02); the Flying Start Warning ends it after one space (CORE-ADV-02/03); reaching the limit is a
    Loss of Control, the dice then re-laid (:func:`_relaid_run`)."""
    rolls, sisu = turn.dice, turn.sisu
    if turn.relaid is not None and not turn.relaid:
        raise IllegalMove("CORE-ROLL-13", "the re-laid plan is empty", "relaid")
    lim = min(warning_limit(ctx, p.space) for p in placed)  # MC-WARN-02
    gained = _seconds_dice(placed, rolls, mover.finish_index(placed))
    total = 0 if sisu else mover.warnings + sum(_roll_warnings(r) for r in rolls)
    if placed[0].flying and rolls[0].face == "warning":
        if turn.relaid is not None:
            raise IllegalMove("CORE-ADV-03", "the Flying Start Warning ends the move after one space: "
                                             "nothing is re-laid", "relaid")
        if not stage.components.reading("flying_start_flat_out_seconds"):
            gained = 0
        run = _run(stage, ctx, placed[:1], rolls[:1], sisu=True, warn_limit=lim, path="dice", driver=driver,
                   crashed=mover.crashed)
        return Movement(run, gained, 0, False, sisu, leader, 0)
    if total >= lim:
        run = _relaid_run(stage, mover, turn, ctx, placed, leader, driver, total, lim)
        return Movement(run, gained, 0, True, sisu, leader, 0)
    if turn.relaid is not None:
        raise IllegalMove("CORE-ROLL-11", f"{total} Warnings are under the limit {lim}: the Flat Out "
                                          f"succeeded, nothing is re-laid", "relaid")
    run = _run(stage, ctx, placed, rolls, sisu=sisu, warn_limit=lim, path="dice", driver=driver, extra=mover.warnings,
               crashed=mover.crashed)
    return Movement(run, gained, 0, False, sisu, leader, 0)


def _relaid_run(stage: "TurnEngine[Any]", mover: Mover, turn: Turn, ctx: PlanContext, placed: list[Placed], leader: bool,
                driver: Driver | None, total: int, lim: int) -> _Run:
    """A failed Flat Out: the rolled dice re-laid (CORE-ROLL-12/13), faces unchanged, and driven up to the Loss of
    Control they must still cause (CORE-ROLL-14/15)."""
    if turn.relaid is None and driver is not None:
        turn.relaid = driver.relay(stage, ctx, placed, turn.dice, leader)
    if turn.relaid is None:
        raise IllegalMove("CORE-ROLL-12", f"{total} Warnings reach the limit {lim}: a Loss of Control; "
                                          f"re-lay the dice (`relaid`)", "relaid")
    _match_relaid(turn.dice, turn.relaid, "relaid")
    _check_faces(turn.relaid, "relaid", True)
    rplaced = check_plan(ctx, [r.die for r in turn.relaid], "relaid")
    if bool(rplaced[0].flying) != bool(placed[0].flying):
        raise IllegalMove("CORE-ADV-06", "a Flying Start cannot be added or cancelled when re-laying",
                          "relaid[0].die")
    # Ambiguity 19: the limit is the lowest of the surfaces the Flat Out crossed; a re-laid plan
    # that stops before a lower-limit surface cannot raise it back (CORE-ROLL-14: no escape).
    rlim = min([lim] + [warning_limit(ctx, p.space) for p in rplaced])
    run = _run(stage, ctx, rplaced, turn.relaid, sisu=False, warn_limit=rlim, path="relaid", driver=driver,
               extra=mover.warnings, crashed=mover.crashed)
    if run.loc is None:
        raise IllegalMove("CORE-ROLL-14", "the re-laid dice must still cause the Loss of Control", "relaid")
    if len(run.resolved) < len(rplaced):
        raise IllegalMove("CORE-ROLL-15", f"the Loss of Control happens at relaid[{len(run.resolved) - 1}] "
                                          f"({run.loc.space}): lay no die after it", f"relaid[{len(run.resolved)}]")
    return run
