"""The game as a step machine, stepped from outside: whose decision is pending, the question as data, the legal
answers, chance with its probabilities, ``apply``, ``undo``, ``clone`` and a state that serialises.

In the shape of OpenSpiel's ``State`` and python-chess's ``Board``: a :class:`GameState` wraps one game of the
referee (a :class:`~rallyc.rules.core.stage.Stage`, a :class:`~rallyc.rules.core.race.Race`, any
:class:`~rallyc.rules.core.engine.TurnEngine`) and asks its questions one at a time. A turn is a sequence of steps:

1. the player lays the dice (:attr:`Question.PLAN`: a :class:`Plan`);
2. then each question the rules ask while the turn is played, in order: before each die rolled one by one,
   roll, secure, stop or re-plan (:attr:`Question.DIE`); chance: a die's face (:attr:`Question.FACE`), the
   Shortcut side of a Damage token (:attr:`Question.TOKEN`), a Time card's "0" side (:attr:`Question.ZERO_SIDE`),
   Damage tokens drawn (:attr:`Question.DAMAGE`); the dice re-laid after a failed Flat Out
   (:attr:`Question.RELAY`), the rest of the plan after a re-plan (:attr:`Question.REPLAN`), a tire change
   (:attr:`Question.SPARE_TIRE`).

There is one implementation of the turn: the machine plays the steps given so far through the referee's own
``resolve`` (which changes nothing) with a driver that answers from those steps and stops at the first question
they do not answer: that question is the pending one. When no question is left, the turn is played
(``play``) and the next player's turn begins. A step the rules refuse raises
:class:`~rallyc.rules.core.errors.IllegalMove` naming the rule, and the state is unchanged.

A state is its game's setup (a function that makes the game as it was before the first turn) and the steps
applied since: :meth:`GameState.undo` takes the last step back, :meth:`GameState.clone` copies the state, and
:meth:`GameState.to_json` / :meth:`GameState.from_json` write and read the steps (a resumed game replays them).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, Callable, Iterable, Iterator, TypeVar

from rallyc.rules.core.dice import Die, DieKind, Face
from rallyc.rules.core.driver import Driver, Step
from rallyc.rules.core.engine import TurnEngine
from rallyc.rules.core.errors import RulesError
from rallyc.rules.core.outcome import TurnOutcome
from rallyc.rules.core.plans import PlanContext, Placed
from rallyc.rules.core.state import SHORTCUT_RESULTS, WEATHER
from rallyc.rules.core.turn import Roll, Turn, ZeroSide

__all__ = ["Question", "CHANCE", "Plan", "Pending", "GameState", "MachineError", "step_to_json", "step_from_json"]

#: who answers a chance question (a die's face, a token drawn, a card's back): not a player
CHANCE = "chance"


class MachineError(RulesError):
    """A step that is not an answer to the pending question (of the wrong kind, or the game is over)."""


class Question(StrEnum):
    """What the pending step decides."""

    #: the player lays the dice (CORE-DICE-01, CORE-MOVE-06): a :class:`Plan`
    PLAN = "plan"
    #: before the next die, rolling one by one: a :class:`~rallyc.rules.core.driver.Step` (CORE-ROLL-03..06, IMPROV-01)
    DIE = "die"
    #: chance: the face a die shows once rolled (a :class:`~rallyc.rules.core.dice.Face`)
    FACE = "face"
    #: chance: the Shortcut side of the Damage token drawn entering a Shortcut (CORE-SHORTCUT-05)
    TOKEN = "token"
    #: chance: the "0" side of the Time card turned over after a Loss of Control (CORE-LOC-03)
    ZERO_SIDE = "zero_side"
    #: chance: Damage tokens drawn from the bag (CORE-LOC-09): a list of their Damage sides
    DAMAGE = "damage"
    #: Improvisation: the rest of the plan laid again (IMPROV-02): a list of dice
    REPLAN = "replan"
    #: after a failed Flat Out: the rolled dice re-laid, faces unchanged (CORE-ROLL-13): a list of rolls
    RELAY = "relay"
    #: at the end of a movement in Gear 1: change a tire (CORE-SPARE-01): a bool
    SPARE_TIRE = "spare_tire"


#: the questions chance answers
CHANCE_QUESTIONS = frozenset({Question.FACE, Question.TOKEN, Question.ZERO_SIDE, Question.DAMAGE})


@dataclass(frozen=True)
class Plan:
    """The dice a player lays for a turn (CORE-DICE-01), rolled one by one or Flat Out (CORE-ROLL-09), with a
    SISU token (CORE-ADV-12) and, for a car that starts, the start space chosen (reading 3)."""

    dice: tuple[Die, ...]
    flat_out: bool = False
    sisu: bool = False
    start: str | None = None

    def turn(self, player: str) -> Turn:
        """The turn this plan begins (nothing rolled yet)."""
        return Turn(player=player, dice=[Roll(d) for d in self.dice], flat_out=self.flat_out, sisu=self.sisu,
                    start=self.start)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"dice": [d.to_dict() for d in self.dice]}
        if self.flat_out:
            out["flat_out"] = True
        if self.sisu:
            out["sisu"] = True
        if self.start is not None:
            out["start"] = self.start
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Plan":
        return cls(tuple(_die(d) for d in data["dice"]), bool(data.get("flat_out", False)),
                   bool(data.get("sisu", False)), data.get("start"))


def _die(d: dict[str, Any]) -> Die:
    return Die(DieKind(d["die"]), d["to"], bool(d.get("brake", False)), d.get("land"), bool(d.get("boost", False)),
               d.get("push_to"))


@dataclass(frozen=True)
class Pending:
    """The question the game waits on: who answers it (a player's name, or :data:`CHANCE`), what it decides, and
    the facts the rules ask it with (``details``: the die to roll and the Warnings so far, the die kind whose face
    is drawn, the number of Damage tokens...)."""

    who: str
    question: Question
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def is_chance(self) -> bool:
        return self.question in CHANCE_QUESTIONS


class _Asked(Exception):
    """Raised inside the referee by :class:`_Answers` at the first question its steps do not answer."""

    def __init__(self, pending: Pending) -> None:
        super().__init__(pending.question)
        self.pending = pending


class _Answers:
    """A :class:`~rallyc.rules.core.driver.Driver` that answers the referee's questions from the steps given so far, in
    order, and raises :class:`_Asked` at the first one they do not answer."""

    def __init__(self, player: str, steps: list[Any], questions: list[Question]) -> None:
        self.player = player
        self.steps = steps
        #: the question each step answered (written as they are asked: the machine checks a step's kind)
        self.questions = questions
        self.used = 0

    def _next(self, who: str, question: Question, **details: Any) -> Any:
        if self.used >= len(self.steps):
            raise _Asked(Pending(who, question, details))
        if self.used < len(self.questions) and self.questions[self.used] is not question:
            raise MachineError(f"step {self.used} answered {self.questions[self.used]}, but the rules now ask "
                               f"{question}")
        if self.used == len(self.questions):
            self.questions.append(question)
        step = self.steps[self.used]
        self.used += 1
        return step

    # -- chance (the Chance protocol)
    def face(self, die: DieKind) -> Face:
        return Face(self._next(CHANCE, Question.FACE, die=str(die)))

    def token(self) -> str:
        return str(self._next(CHANCE, Question.TOKEN))

    def zero_side(self) -> ZeroSide:
        got = self._next(CHANCE, Question.ZERO_SIDE)
        return got if isinstance(got, ZeroSide) else _zero_side(got)

    def damage(self, n: int) -> list[str]:
        return list(self._next(CHANCE, Question.DAMAGE, count=n))

    # -- decisions (the Driver protocol)
    def decide(self, stage: Any, i: int, placed: list[Placed], rolls: list[Roll], warnings: int, limit: int) -> str:
        return Step(self._next(self.player, Question.DIE, die=i, space=placed[i].space, warnings=warnings,
                               limit=limit))

    def replan(self, stage: Any, ctx: PlanContext, done: list[Placed]) -> list[Die]:
        return [d if isinstance(d, Die) else _die(d) for d in self._next(self.player, Question.REPLAN,
                                                                          after=len(done))]

    def want_spare_tire(self) -> bool:
        return bool(self._next(self.player, Question.SPARE_TIRE))

    def relay(self, stage: Any, ctx: PlanContext, placed: list[Placed], rolls: list[Roll], leader: bool
              ) -> list[Roll]:
        got = self._next(self.player, Question.RELAY, rolled=len(rolls))
        # copies: the referee writes what the rolls caused (a Shortcut token...) into the rolls it is handed, and
        # the step must ask the same questions each time the turn is worked out again
        return [replace(r) if isinstance(r, Roll) else _roll(r) for r in got]


_A = TypeVar("_A")


class _Delegating(_Answers):
    """A :class:`_Answers` that, past the steps given, asks a driver the questions ``asks`` and keeps its answers in
    ``new``; it still raises :class:`_Asked` at the first question left to the table."""

    def __init__(self, player: str, steps: list[Any], questions: list[Question], driver: Driver,
                 asks: frozenset[Question]) -> None:
        super().__init__(player, list(steps), list(questions))
        self.driver, self.asks = driver, asks
        self.new: list[Any] = []

    def _or_driver(self, question: Question, given: Callable[[], _A], ask: Callable[[], object]) -> _A:
        try:
            return given()
        except _Asked:
            if question not in self.asks:
                raise
        step = ask()
        self.steps.append(step)
        self.new.append(step)
        return given()

    def face(self, die: DieKind) -> Face:
        return self._or_driver(Question.FACE, lambda: _Answers.face(self, die), lambda: self.driver.face(die))

    def token(self) -> str:
        return self._or_driver(Question.TOKEN, lambda: _Answers.token(self), lambda: self.driver.token())

    def zero_side(self) -> ZeroSide:
        return self._or_driver(Question.ZERO_SIDE, lambda: _Answers.zero_side(self), lambda: self.driver.zero_side())

    def damage(self, n: int) -> list[str]:
        return self._or_driver(Question.DAMAGE, lambda: _Answers.damage(self, n), lambda: self.driver.damage(n))

    def decide(self, stage: Any, i: int, placed: list[Placed], rolls: list[Roll], warnings: int, limit: int) -> str:
        return self._or_driver(Question.DIE, lambda: _Answers.decide(self, stage, i, placed, rolls, warnings, limit),
                               lambda: Step(self.driver.decide(stage, i, placed, rolls, warnings, limit)))

    def replan(self, stage: Any, ctx: PlanContext, done: list[Placed]) -> list[Die]:
        return self._or_driver(Question.REPLAN, lambda: _Answers.replan(self, stage, ctx, done),
                               lambda: list(self.driver.replan(stage, ctx, done)))

    def want_spare_tire(self) -> bool:
        return self._or_driver(Question.SPARE_TIRE, lambda: _Answers.want_spare_tire(self),
                               lambda: bool(self.driver.want_spare_tire()))

    def relay(self, stage: Any, ctx: PlanContext, placed: list[Placed], rolls: list[Roll], leader: bool
              ) -> list[Roll]:
        return self._or_driver(Question.RELAY, lambda: _Answers.relay(self, stage, ctx, placed, rolls, leader),
                               lambda: list(self.driver.relay(stage, ctx, placed, rolls, leader)))


def _zero_side(d: dict[str, Any]) -> ZeroSide:
    return ZeroSide(d["icon"], dict(d.get("marks", {})), d.get("gear"), d.get("seconds"))


def _roll(d: dict[str, Any]) -> Roll:
    face = d.get("face")
    return Roll(_die(d), Face(face) if face else None, Face(d["brake_face"]) if d.get("brake_face") else None,
                boost_face=Face(d["boost_face"]) if d.get("boost_face") else None)


def _step_json(step: Any) -> Any:
    """A step as JSON (plans, zero sides, dice and rolls as objects; the rest as they are)."""
    if isinstance(step, Plan):
        return {"plan": step.to_json()}
    if isinstance(step, ZeroSide):
        return {"zero_side": {"icon": step.icon, "marks": step.marks, "gear": step.gear, "seconds": step.seconds}}
    if isinstance(step, list):
        return [_step_json(s) for s in step]
    if isinstance(step, Roll):
        out = step.die.to_dict()
        for key in ("face", "brake_face", "boost_face"):
            if getattr(step, key) is not None:
                out[key] = str(getattr(step, key))
        return out
    if isinstance(step, Die):
        return step.to_dict()
    return str(step) if isinstance(step, StrEnum) else step


def step_to_json(step: Any) -> Any:
    """One step as JSON (a journal's line, :mod:`rallyc.table.journal`): plans, "0" sides, dice and rolls as
    objects, the rest as they are; :func:`step_from_json` reads it back."""
    return _step_json(step)


def step_from_json(data: Any) -> Any:
    """A step written by :func:`step_to_json`, ready for :meth:`GameState.apply`."""
    return _step_from_json(data)


def _step_from_json(data: Any) -> Any:
    if isinstance(data, dict) and "plan" in data:
        return Plan.from_json(data["plan"])
    if isinstance(data, dict) and "zero_side" in data:
        return _zero_side(data["zero_side"])
    return data


class GameState:
    """A game of the referee stepped from outside (see the module docstring).

    ``setup`` makes the game as it was before its first turn; the state keeps the steps applied since."""

    def __init__(self, setup: Callable[[], TurnEngine[Any]], steps: list[Any] | None = None) -> None:
        self._setup = setup
        self._restore([], [])
        for step in steps or []:
            self.apply(step)

    def _restore(self, turns: list[list[Any]], current: list[Any]) -> None:
        """The game made again by ``setup`` with the turns ``turns`` played (their steps already accepted once),
        then the steps ``current`` of the turn under way."""
        self.game: TurnEngine[Any] = self._setup()
        #: the steps of every turn played, in order (each its plan first)
        self._turns: list[list[Any]] = []
        for steps in turns:
            player = self.game.to_move()
            assert player is not None
            self.game.play(steps[0].turn(player), _Answers(player, steps[1:], []))
            self._turns.append(steps)
        #: the steps of the turn under way (its plan first), and the question each answer answered
        self._turn: list[Any] = list(current)
        self._questions: list[Question] = []
        self._pending: Pending | None = None
        self._ask()

    @property
    def history(self) -> list[Any]:
        """Every step applied, in order (the turns played, then the steps of the turn under way)."""
        return [step for turn in self._turns for step in turn] + self._turn

    # -- what is pending
    def is_terminal(self) -> bool:
        """The game is over: no question is pending."""
        return self._pending is None

    def pending(self) -> Pending | None:
        """The pending question, None once the game is over."""
        return self._pending

    def current_player(self) -> str | None:
        """Who answers the pending question: a player's name, :data:`CHANCE`, or None once the game is over."""
        return self._pending.who if self._pending is not None else None

    def legal_actions(self) -> list[Any]:
        """The legal answers to the pending question where they are few: the steps before a die (those the rules
        allow here), a face, a token's side, a tire change or not. A plan, the dice re-laid or re-planned and
        Damage draws are many: :meth:`legal_plans` lists the plans; any answer is checked by :meth:`apply`."""
        p = self._pending
        if p is None:
            return []
        if p.question is Question.DIE:
            return [s for s in Step if self._allows(s)]
        if p.question is Question.FACE:
            return [Face.OK, Face.WARNING]
        if p.question is Question.TOKEN:
            return [s for s, _ in self.chance_outcomes()]
        if p.question is Question.SPARE_TIRE:
            return [False, True]
        return []

    def legal_plans(self, max_dice: int = 8) -> Iterator[Plan]:
        """The dice plans the player to move may lay (rolled one by one; any of them may also be a Flat Out)."""
        if self._pending is None or self._pending.question is not Question.PLAN:
            return iter(())
        return (Plan(tuple(dice)) for dice in self.game.legal_plans(self._pending.who, max_dice))

    def chance_outcomes(self) -> list[tuple[Any, float | None]]:
        """For a chance question, its outcomes and their probabilities: a die's faces (its Warning faces of six,
        from the components); a Shortcut token's sides with no probability (None: the components do not say how
        many Damage tokens show each Shortcut side). Empty for a player's question."""
        p = self._pending
        if p is None or not p.is_chance:
            return []
        if p.question is Question.FACE:
            warning = self.game.components.warning_faces[p.details["die"]] / 6
            return [(Face.OK, 1 - warning), (Face.WARNING, warning)]
        if p.question is Question.TOKEN:
            sides = list(SHORTCUT_RESULTS) + ([WEATHER] if self.game.options.weather else [])
            return [(side, None) for side in sides]
        return []

    def answers(self, driver: Any, asks: Iterable[Question] = tuple(Question)) -> list[Any]:
        """The steps ``driver`` (the random bot, the greedy or strong driver, a seeded chance) answers from here to
        the end of the turn under way, or of the turn it begins, to the questions ``asks`` (all by default: its plan,
        from ``driver.turn``, its decisions and chance); they stop before the first question left to the table.
        Nothing is applied: :meth:`apply` each step. A plan the rules refuse raises :class:`IllegalMove`."""
        asked = frozenset(asks)
        if self._pending is None:
            return []
        game = self.game
        player = game.to_move()
        assert player is not None
        if hasattr(driver, "bind"):
            driver.bind(game)
        steps, new = list(self._turn), []
        if not steps:
            if Question.PLAN not in asked:
                return []
            t = driver.turn(game)
            steps = new = [Plan(tuple(r.die for r in t.dice), t.flat_out, t.sisu, t.start)]
        answers = _Delegating(player, steps[1:], self._questions, driver, asked)
        try:
            game.resolve(steps[0].turn(player), answers)
        except _Asked:
            pass
        return new + answers.new

    def _allows(self, step: Any) -> bool:
        """The rules accept ``step`` now (worked out on the turn under way, nothing played)."""
        player = self.game.to_move() or ""
        plan, answers = self._turn[0], self._turn[1:] + [step]
        try:
            self.game.resolve(plan.turn(player), _Answers(player, answers, list(self._questions)))
        except _Asked:
            return True
        except (RulesError, ValueError, TypeError, KeyError):
            return False
        return True

    # -- steps
    def apply(self, step: Any) -> None:
        """Apply one step (an answer to the pending question); raise :class:`IllegalMove` naming the rule (or
        :class:`MachineError` for a step of the wrong kind), the state unchanged."""
        if self._pending is None:
            raise MachineError(self.game.over_message)
        if self._pending.question is Question.PLAN:
            if not isinstance(step, Plan):
                raise MachineError(f"{self._pending.who} lays the dice first: a Plan, not {step!r}")
        elif isinstance(step, Plan):
            raise MachineError(f"the turn is under way: the rules ask {self._pending.question}")
        question = self._pending.question
        self._turn.append(step)
        try:
            self._ask()
        except (ValueError, TypeError, KeyError) as exc:  # not an answer of the question's kind
            self._take_back()
            raise MachineError(f"not an answer to {question}: {step!r} ({exc})") from None
        except BaseException:
            self._take_back()
            raise

    def _take_back(self) -> None:
        """The step just appended to the turn under way was refused: the turn as it was before it."""
        self._turn.pop()
        del self._questions[max(0, len(self._turn) - 1):]
        self._ask()

    def undo(self) -> Any:
        """Take the last step back (to the start of the game, one step at a time); return it."""
        if self._turn:
            last = self._turn.pop()
            del self._questions[max(0, len(self._turn) - 1):]
            self._ask()
            return last
        if not self._turns:
            raise MachineError("no step to take back: the game is at its start")
        steps = self._turns[-1]
        self._restore(self._turns[:-1], steps[:-1])
        return steps[-1]

    def clone(self) -> "GameState":
        """An independent copy of this state (the same setup, the same steps)."""
        copy = GameState.__new__(GameState)
        copy._setup = self._setup
        copy._restore(self._turns, self._turn)
        return copy

    def outcomes(self) -> list[TurnOutcome]:
        """The turns played so far, as the referee worked them out."""
        return list(self.game.outcomes)

    def to_json(self) -> dict[str, Any]:
        """The steps applied, turn by turn, as JSON (the setup is the caller's: the track, players and options)."""
        return {"turns": [[_step_json(s) for s in turn] for turn in self._turns],
                "current": [_step_json(s) for s in self._turn]}

    @classmethod
    def from_json(cls, setup: Callable[[], TurnEngine[Any]], data: dict[str, Any]) -> "GameState":
        """The state of :meth:`to_json` over the game ``setup`` makes: its steps applied again, each checked."""
        steps = [_step_from_json(s) for turn in data["turns"] for s in turn]
        return cls(setup, steps + [_step_from_json(s) for s in data["current"]])

    # -- the one turn
    def _ask(self) -> None:
        """Work out the pending question: the turn's steps so far played through the referee's ``resolve``
        (which changes nothing); when they answer every question it asks, the turn is played."""
        game = self.game
        player = game.to_move()
        if player is None:
            self._pending = None
            return
        if not self._turn:
            self._pending = Pending(player, Question.PLAN)
            return
        plan, answers = self._turn[0], self._turn[1:]
        driver = _Answers(player, answers, self._questions)
        try:
            game.resolve(plan.turn(player), driver)
        except _Asked as asked:
            self._pending = asked.pending
            return
        if driver.used < len(answers):
            raise MachineError(f"the turn was over after {driver.used} answer(s): the last step answers nothing")
        game.play(plan.turn(player), _Answers(player, answers, list(self._questions)))
        self._turns.append(self._turn)
        self._turn, self._questions = [], []
        after = game.to_move()
        self._pending = Pending(after, Question.PLAN) if after is not None else None
