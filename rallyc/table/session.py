"""The game at the table: one engine behind both surfaces (``rallyc play`` in a terminal, ``rallyc serve`` in a
browser), over the step machine (:class:`rallyc.rules.core.machine.GameState`).

The API (kept stable for both surfaces)::

    game = TableGame(setup, base=Path("."), journal=None)   # SetupError when the referee cannot set it up
    game, notes = rallyc.table.journal.resume(path)          # a journal replayed; then game.advance()
    game.version          -> int: the number of steps in force (an undo lowers it); a surface sends it back with
                             a step so that a step from a screen that had not seen the latest is refused
    game.is_over()        -> bool
    game.prompt()         -> Prompt | None: who answers, the question in words, its legal choices, secret or not
    game.whose_turn()     -> str | None: the player whose turn it is (also while chance is asked)
    game.answer(text, version=None) -> list[Happened]: a typed answer read and applied, then the bots' and the
                             auto dice's steps; Refused (rule ID and message) and nothing changed when refused
    game.apply(step, version=None)  -> list[Happened]: the same for a step (rallyc.rules.core.machine's kinds, or a
                             Checkpoint)
    game.advance()        -> list[Happened]: the steps the bots and the auto dice give now, applied
    game.undo(version=None) -> Any: the last step taken back (Refused at the start); bots' steps are taken back
                             one at a time like the others
    game.undo_to_person(version=None) -> list[Any]: steps taken back to the last question a person answered
    game.plan_dice(dice)  -> (the next dice that may be laid after ``dice``, whether ``dice`` is a whole plan)
    game.board(player=None) -> str: the road around the player's car, as text
    game.standings()      -> list[str]: each car, its gear, damage, Time cards, stage times (text lines)
    game.happened         -> list[Happened]: every turn played so far, in the rulebook's words with rule IDs
    game.record()         -> dict: the game's record (the format ``rallyc replay`` reads; a finished game's is
                             complete, an unfinished one's stops where the game is)
    game.steps            -> list[Any]: every step in force, in order

Every step applied is written to the journal (when there is one) before ``apply`` returns, so that a surface
moves on only once the step is on disk.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from rallyc.analysis.drivers import GreedyDriver, StrongDriver
from rallyc.analysis.circuit_driver import StrongRxDriver
from rallyc.data.components import Components
from rallyc.records.convert import record_format, rx_turn_to_json, turn_to_json
from rallyc.records.explain import applied_of
from rallyc.records.load import RecordError
from rallyc.records.start import race_setup
from rallyc.records.replay import format_time, start_rally
from rallyc.records.stages import default_components
from rallyc.rules.drivers.bot import RandomBot, SeededChance, relay_in_order
from rallyc.rules.core.errors import IllegalMove, RulesError
from rallyc.rules.core.machine import CHANCE_QUESTIONS, GameState, Pending, Plan, Question
from rallyc.rules.core.race import Race
from rallyc.table.answers import (CHECKPOINT, RULE_OF, SPARE_BETWEEN, TABLE_STEPS, TIRES, Checkpoint, Choice, Refused,
                                  SpareBetween, TireChange, choices_for, question_words, read_answer, read_yes_no,
                                  step_words)
from rallyc.table.board import board_text, car_line
from rallyc.table.setup import Seat, SetupError, TableSetup, plan_game

__all__ = ["TableGame", "Prompt", "Happened", "Refused", "Checkpoint", "SpareBetween", "TireChange", "Choice",
           "SetupError", "Seat", "TableSetup"]

#: the questions a bot answers for its seat (chance comes from the table unless the dice are rolled by rallyc)
_DECISIONS = frozenset(Question) - CHANCE_QUESTIONS


@dataclass(frozen=True)
class Prompt:
    """The question the table waits on: who answers it (the player whose turn it is, also for the dice they roll),
    its kind (:class:`~rallyc.rules.core.machine.Question`'s value, or ``checkpoint``), the question in words, the legal
    answers where they are few (``choices``; a plan is laid die by die with :meth:`TableGame.plan_dice`), whether
    chance answers it (the faces of the physical dice, a token drawn...), whether the answer is secret until the
    rules reveal it, and whether a bot answers it."""

    who: str
    kind: str
    words: str
    choices: tuple[Choice, ...]
    chance: bool = False
    secret: bool = False
    bot: bool = False


@dataclass(frozen=True)
class Happened:
    """One turn played (or a stage ended): the player, the stage, the rulebook's words and the rule IDs applied."""

    player: str
    stage: str
    text: str
    rules: tuple[str, ...] = ()


@dataclass
class _StageDone:
    """A stage of the rally played to its end: its turns, and the table's steps around it (the tires fitted before it,
    the Checkpoint penalties and the Spare Tires fitted after it)."""

    turns: list[Any]
    penalties: dict[str, int]
    spares: list[str]
    tires: dict[str, str]


class _Relayer:
    """Answers only the re-laying after a failed Flat Out: the rolled dice laid again in order (CORE-ROLL-13); keeps
    the dice rolled (``rolled``: what a re-laying typed at the table is made of)."""

    def __init__(self) -> None:
        self.rolled: list[Any] = []

    def relay(self, stage: Any, ctx: Any, placed: Any, rolls: Any, leader: bool) -> Any:
        self.rolled = [r.copy() for r in rolls]
        return relay_in_order(stage, ctx, placed, rolls)


class TableGame:
    """A game at the table (see the module docstring)."""

    def __init__(self, setup: TableSetup, base: Path = Path("."), components: Components | None = None,
                 journal: Any = None) -> None:
        self.setup = setup
        self.base = base
        self.components = components or default_components()
        self.form = plan_game(setup, base)
        self.journal = journal
        self.seats = {s.name: s for s in setup.seats}
        self._bots: dict[str, Any] = {}
        self._start_fresh()

    # -- setting up
    def _start_fresh(self) -> None:
        """The game before its first step."""
        #: every step in force, in order (machine steps and the table's: TABLE_STEPS)
        self.steps: list[Any] = []
        #: per stage played to its end and left: its turns, the table's steps around it
        self._done: list[_StageDone] = []
        self._done_outcomes: list[list[Any]] = []  # and their outcomes
        self._ends: list[Any] = []  # the rally's StageRecord of each stage ended
        self._checkpoints: dict[str, int] = {}  # the stage just finished: the penalties chosen so far (secret)
        self._spares: dict[str, bool] = {}  # the stage just finished: the Spare Tires fitted between stages or not
        self._tires: dict[str, str | None] = {}  # the next stage: the tires fitted (None: kept), asked so far
        self._tires_now: dict[str, str] = {}  # the tire changes made before the stage under way
        self._first_tires: dict[str, str | None] = {}  # the first stage's tires (MC-TIRE-03; None: kept), asked so far
        self._rally: Any = None
        self.happened: list[Happened] = []
        self._stage_base = 0  # the entries of `happened` before the stage under way
        self.state = self._new_state()

    def _new_state(self) -> GameState:
        """The step machine of the race, or of the next stage (the stages before it played again)."""
        header = self.form.header
        try:
            if self.form.race:
                start, _ = race_setup(header, self.base, self.components)
                return GameState(lambda: start()[0])
            return GameState(self._stage_setup(len(self._done)))
        except RecordError as exc:
            raise SetupError(exc.message if not exc.path else f"{_setting(exc.path)}: {exc.message}") from None
        except (ValueError, TypeError, IllegalMove) as exc:
            raise SetupError(str(exc)) from None

    def _stage_setup(self, k: int) -> Callable[[], Any]:
        """The function that makes stage ``k`` of the rally as it was before its first turn."""
        header, base, components = self.form.header, self.base, self.components
        done = list(self._done)
        tires = dict(self._tires_now)
        start_rally(header, base, components)  # refused here, once, if at all

        def setup() -> Any:
            rally, _, _ = start_rally(header, base, components)
            for stage_done in done:
                stage = rally.start_stage(tires=stage_done.tires or None)
                for t in stage_done.turns:
                    stage.play(t)
                rally.end_stage(spare_between=stage_done.spares, penalties=stage_done.penalties or None)
            self._rally = rally
            return rally.start_stage(tires=tires or None)

        return setup

    # -- what is asked
    @property
    def version(self) -> int:
        """The number of steps in force (a step sent for another version is refused: see :meth:`apply`)."""
        return len(self.steps)

    @property
    def stage_name(self) -> str:
        """The stage (or circuit) being played."""
        return self.form.stages[min(len(self._done), len(self.form.stages) - 1)]

    def is_over(self) -> bool:
        """The game is over: every stage played and ended (the race won), nothing pending."""
        return self.state.is_terminal() and self._between() is None

    def whose_turn(self) -> str | None:
        """The player whose turn it is (also while chance is asked for it), or who answers the table's question
        before the first stage or between two stages."""
        between = self._between()
        if between is not None:
            return between[1]
        if self.state.is_terminal():
            return None
        return self.state.game.to_move()

    def _checkpoint_pending(self) -> str | None:
        """After a stage with Checkpoints (CORE-ADV-09): the next player still to choose their penalty."""
        between = self._between()
        return between[1] if between is not None and between[0] == CHECKPOINT else None

    def _ended(self) -> bool:
        """The stage under way is over and its end taken (times registered), the next one not started yet."""
        return len(self._ends) > len(self._done)

    def _first_tires_pending(self) -> str | None:
        """Before the first turn of a rally's first stage (or of a one-shot stage): the next player still to choose
        their tires (MC-TIRE-03), in seat order; None in a race, once everyone has chosen or once a turn began."""
        if self.form.race or self._ends or self.state.history:
            return None
        return next((s.name for s in self.setup.seats
                     if s.name not in self._first_tires and len(self._tire_choices(s.name)) > 1), None)

    def _between(self) -> tuple[str, str] | None:
        """The table's question pending before the first stage or between two stages of a rally, and who answers
        it: before the first turn, each player's tires (MC-TIRE-03); after a stage, each player's Checkpoint penalty
        (CORE-ADV-09) then, after a stage without Assistance with a stage to follow, the Spare Tire between stages
        of each player it can help (CORE-RALLY-08); once the stage's end is taken and a stage follows one with
        Assistance, each player's tires for it (MC-TIRE-04)."""
        first = self._first_tires_pending()
        if first is not None:
            return TIRES, first
        if self.form.race or not self.state.is_terminal():
            return None
        seats = [s.name for s in self.setup.seats]
        if self._ended():
            if len(self._ends) == len(self.form.stages) or not self._tires_asked():
                return None
            return next(((TIRES, n) for n in seats if n not in self._tires), None)
        stage: Any = self.state.game
        if stage.options.checkpoints:
            chooser = next((n for n in seats if n not in self._checkpoints), None)
            if chooser is not None:
                return CHECKPOINT, chooser
        if len(self._ends) + 1 < len(self.form.stages):
            return next(((SPARE_BETWEEN, n) for n in seats if n not in self._spares and self._spare_helps(n)), None)
        return None

    def _spare_helps(self, name: str) -> bool:
        """The Spare Tire between stages may take a Coast/Leader Damage token off ``name``'s car (CORE-RALLY-08): no
        Assistance after this stage, repairs allowed (CUSTOM-15), the card unused (CORE-SPARE-06), such a token."""
        stage: Any = self.state.game
        car = stage.cars[name]
        return (not stage.track.has_assistance and stage.options.repairs != "no" and car.spare
                and car.status != "retired" and car.damage.get("coast", 0) > 0)

    def _tires_asked(self) -> bool:
        """Tires may be changed before the next stage: the stage ended had Assistance (MC-TIRE-04), repairs allowed
        (CUSTOM-15)."""
        return bool(self._ends[-1].assistance) and self._rally.options.repairs != "no"

    def _rule_of(self, kind: str) -> str:
        """The rule a table's question comes from (the first stage's tires: MC-TIRE-03, a later stage's:
        MC-TIRE-04)."""
        return "MC-TIRE-03" if kind == TIRES and self._first_tires_pending() is not None else RULE_OF[kind]

    def _tire_choices(self, name: str) -> list[Choice]:
        """Keep the tires, or fit another kind of the car's category (MC-TIRE-06: the Dashboards of the car)."""
        player = next(p for p in self._rally.players if p.name == name)
        now = self._rally.tires[name]
        sides = (key.split("-", 1) for key in self.components.dashboards)  # "<car>-<tires>"
        kinds = sorted(tires for car, tires in sides if car == player.car and tires != now)
        return [Choice("k", f"keep the {now} tires", None)] + [Choice(k, f"fit {k} tires", k) for k in kinds]

    def _table_prompt(self, kind: str, who: str) -> Prompt:
        """The table's question between two stages, in words."""
        bot = self.seats[who].is_bot
        if kind == CHECKPOINT:
            return Prompt(who, CHECKPOINT,
                          f"{who}, take any number of 5-second penalty tokens from the reserve, in secret "
                          f"(CORE-ADV-09; revealed when everyone has chosen, CORE-ADV-10)", (), secret=True, bot=bot)
        if kind == SPARE_BETWEEN:
            return Prompt(who, SPARE_BETWEEN,
                          f"{who}, no Assistance after {self.stage_name}: fit your Spare Tire between the stages to "
                          f"take one Coast/Leader Damage token off, adding no time? (the card is then used up, "
                          f"CORE-RALLY-08, CORE-SPARE-06)",
                          (Choice("n", "no: keep the Spare Tire card", False),
                           Choice("y", "yes: fit it, one Coast/Leader Damage token off", True)), bot=bot)
        if self._first_tires_pending() is not None:
            return Prompt(who, TIRES, f"{who}, your tires for {self.stage_name}: chosen freely before your first "
                                      f"turn (MC-TIRE-03), of your car's category (MC-TIRE-06)",
                          tuple(self._tire_choices(who)), bot=bot)
        following = self.form.stages[len(self._ends)]
        return Prompt(who, TIRES, f"{who}, Assistance after {self.stage_name}: tires for {following}? (MC-TIRE-04, "
                                  f"the same car category: MC-TIRE-06)", tuple(self._tire_choices(who)), bot=bot)

    def prompt(self) -> Prompt | None:
        """The question the game waits on, None once it is over."""
        between = self._between()
        if between is not None:
            return self._table_prompt(*between)
        p = self.state.pending()
        player = self.state.game.to_move()
        if p is None or player is None:
            return None
        return Prompt(player, str(p.question), question_words(p, player), tuple(self._choices(p)),
                      chance=p.is_chance, bot=self._answered_by_rallyc(p, player))

    def _relaying(self) -> tuple[list[Choice], list[Any]]:
        """After a failed Flat Out: the re-laying on the same path as a choice, and the dice rolled."""
        relayer = _Relayer()
        try:
            relaid = self.state.answers(relayer, [Question.RELAY])
        except RulesError:  # pragma: no cover - the in-order re-laying is always legal
            relaid = []
        return ([Choice("1", "the rolled dice laid again on the same path: " + step_words(relaid[0]), relaid[0])]
                if relaid else []), relayer.rolled

    def _choices(self, p: Pending) -> list[Choice]:
        if p.question is Question.RELAY:
            return self._relaying()[0]
        legal = self.state.legal_actions()
        if p.question is Question.DIE and not (self.state.game.options.improvisation and p.details.get("die", 0) > 0):
            # re-planning only after a roll with Improvisation in play (IMPROV-01); the machine lists it anyway and
            # plays it as a roll otherwise
            legal = [s for s in legal if s != "replan"]
        return choices_for(p, legal)

    def _answered_by_rallyc(self, p: Pending, player: str) -> bool:
        return (p.is_chance and self.setup.dice == "auto") or (not p.is_chance and self.seats[player].is_bot)

    def plan_dice(self, dice: tuple[Any, ...] | list[Any] = (), plans: list[Any] | None = None
                  ) -> tuple[list[Any], bool]:
        """While laying a plan die by die: the dice that may be laid next after ``dice`` (distinct, in the order the
        rules list them) and whether ``dice`` themselves are a whole legal plan. ``plans``: the legal plans listed
        before (``list(game.state.legal_plans())``, which a surface may keep while the game does not move)."""
        laid = tuple(dice)
        nxt: dict[Any, None] = {}
        whole = False
        for plan in self.state.legal_plans() if plans is None else plans:
            if plan.dice[:len(laid)] == laid:
                if len(plan.dice) == len(laid):
                    whole = True
                else:
                    nxt.setdefault(plan.dice[len(laid)], None)
        return list(nxt), whole

    # -- steps
    def answer(self, text: str, version: int | None = None) -> list[Happened]:
        """A typed answer to the pending question read and applied (see :meth:`apply`)."""
        p = self.state.pending()
        between = self._between()
        if between is not None:
            return self.apply(self._read_between(*between, text), version)
        if p is None:
            raise Refused("the game is over: nothing is asked")
        if p.question is Question.RELAY:
            choices, rolled = self._relaying()
            return self.apply(read_answer(p, text, choices, rolled), version)
        return self.apply(read_answer(p, text, self._choices(p)), version)

    def _read_between(self, kind: str, who: str, text: str) -> Any:
        """A typed answer to the table's question between two stages, as its step."""
        words = text.strip()
        if kind == CHECKPOINT:
            try:
                return Checkpoint(who, int(words))
            except ValueError:
                raise Refused(f"a penalty is a number of 5-second tokens (0 or more), not {words!r}",
                              self._rule_of(CHECKPOINT)) from None
        choices = self._table_prompt(kind, who).choices
        for i, c in enumerate(choices, start=1):
            if words.casefold() in (c.key.casefold(), str(i)):
                return SpareBetween(who, bool(c.step)) if kind == SPARE_BETWEEN else TireChange(who, c.step)
        if kind == SPARE_BETWEEN:
            return SpareBetween(who, read_yes_no(words, "fit the Spare Tire between the stages", RULE_OF[kind]))
        raise Refused(f"the tires for {self._tires_for()}: "
                      f"{', '.join(c.key + ' (' + c.label + ')' for c in choices)}; not {words!r}", self._rule_of(kind))

    def _tires_for(self) -> str:
        """The stage whose tires are asked."""
        return self.stage_name if self._first_tires_pending() is not None else self.form.stages[len(self._ends)]

    def apply(self, step: Any, version: int | None = None) -> list[Happened]:
        """Apply one step, write it to the journal, then the steps the bots and the auto dice give; the turns played
        meanwhile. :class:`Refused` (the rule ID and why) and nothing changed when the rules refuse it, or when
        ``version`` is not the game's (the step was sent from a screen that had not seen the latest step)."""
        if version is not None and version != self.version:
            raise Refused(f"this step answers the game as it was at step {version}; it is now at step "
                          f"{self.version}: look again")
        before = len(self.happened)
        self._apply_one(step)
        self._advance()
        return self.happened[before:]

    def advance(self) -> list[Happened]:
        """The steps the bots and the auto dice give now, applied (a resumed game's bots move on); the turns played."""
        before = len(self.happened)
        self._advance()
        return self.happened[before:]

    def _apply_one(self, step: Any) -> None:
        if isinstance(step, TABLE_STEPS):
            self._apply_between(step)
        else:
            between = self._between()
            if between is not None:
                what = {CHECKPOINT: "Checkpoints penalty", SPARE_BETWEEN: "Spare Tire between the stages",
                        TIRES: f"tires for {self._tires_for()}"}[between[0]]
                raise Refused(f"the table asks for {between[1]}'s {what} now, not a turn's step",
                              self._rule_of(between[0]))
            p = self.state.pending()
            if p is None:
                raise Refused("the game is over: nothing is asked")
            played = len(self.state.outcomes())
            try:
                self.state.apply(step)
            except IllegalMove as exc:
                raise Refused(exc.message, exc.rule_id) from None
            except RulesError as exc:
                raise Refused(str(exc), RULE_OF.get(p.question)) from None
            self.steps.append(step)
            self._journal(step)
            self._report(played)
        self._end_stage_if_over()

    def _apply_between(self, step: Any) -> None:
        """One of the table's steps between two stages, checked against the question pending."""
        kind = {Checkpoint: CHECKPOINT, SpareBetween: SPARE_BETWEEN, TireChange: TIRES}[type(step)]
        between = self._between()
        if between is None or between[0] != kind:
            asked = "nothing" if between is None else f"{between[1]}'s {between[0].replace('_', ' ')}"
            raise Refused(f"no {kind.replace('_', ' ')} is asked now ({asked} is)", RULE_OF[kind])
        if step.player != between[1]:
            raise Refused(f"{between[1]} answers now, not {step.player}", self._rule_of(kind))
        first = self._first_tires_pending() is not None
        if isinstance(step, Checkpoint):
            if step.tokens < 0:
                raise Refused("a penalty is 0 or more 5-second tokens", RULE_OF[CHECKPOINT])
            self._checkpoints[step.player] = step.tokens
        elif isinstance(step, SpareBetween):
            self._spares[step.player] = step.fitted
        else:
            if step.tires is not None and step.tires not in [c.step for c in self._tire_choices(step.player)]:
                raise Refused(f"{step.player}'s car takes no {step.tires} tires (the same car category, "
                              f"MC-TIRE-06)", "MC-TIRE-06")
            if first:
                self._first_tires[step.player] = step.tires
            else:
                self._tires[step.player] = step.tires
        self.steps.append(step)
        self._journal(step)
        if first and self._first_tires_pending() is None:
            self._start_first_stage()

    def _start_first_stage(self) -> None:
        """Every player has chosen the first stage's tires (MC-TIRE-03): the stage set up again with the changes."""
        self._tires_now = {n: t for n, t in self._first_tires.items() if t is not None}
        if not self._tires_now:
            return
        self.state = self._new_state()
        self.happened.append(Happened("", self.stage_name, f"Stage {self.stage_name}: " + ", ".join(
            f"{n} fits {t} tires" for n, t in self._tires_now.items()) + " (MC-TIRE-03).", ("MC-TIRE-03", "MC-TIRE-06")))
        self._stage_base = len(self.happened)

    def _journal(self, step: Any) -> None:
        if self.journal is not None:
            self.journal.step(step)

    def _report(self, played: int) -> None:
        """The turns the last step played, in the rulebook's words."""
        outcomes: list[Any] = self.state.outcomes()
        for o in outcomes[played:]:
            self.happened.append(Happened(o.player, self.stage_name, o.describe(), tuple(applied_of(o))))

    def _end_stage_if_over(self) -> None:
        """A stage over and the table's questions after it answered: its end taken (the times registered, the
        Checkpoint penalties revealed, the Spare Tires fitted); then, once the tires for the next stage are chosen
        (where asked), the next stage started."""
        if self.form.race or not self.state.is_terminal() or self._between() is not None:
            return
        spares = [s.name for s in self.setup.seats if self._spares.get(s.name)]
        if not self._ended():
            penalties = dict(self._checkpoints)
            end = self._rally.end_stage(spare_between=spares, penalties=penalties or None)
            self._ends.append(end)
            times = ", ".join(f"{n} {format_time(t)}" for n, t in sorted(end.times.items(), key=_by_time))
            revealed = (" Checkpoint penalties (CORE-ADV-10): " + ", ".join(
                f"{n} {5 * k} s" for n, k in sorted(penalties.items())) + ".") if penalties else ""
            spare = (" Spare Tire fitted between the stages, one Coast/Leader Damage token off (CORE-RALLY-08): "
                     + ", ".join(spares) + ".") if spares else ""
            self.happened.append(Happened("", self.stage_name, f"Stage {self.stage_name} over: {times}.{revealed}"
                                          f"{spare}", tuple(end.applied)))
            if self._between() is not None:  # the tires for the next stage to choose first
                return
        if len(self._ends) < len(self.form.stages):
            self._done.append(_StageDone([o.turn for o in self.state.outcomes()], dict(self._checkpoints), spares,
                                         dict(self._tires_now)))
            self._done_outcomes.append(self.state.outcomes())
            self._tires_now = {n: t for n, t in self._tires.items() if t is not None}
            self._checkpoints, self._spares, self._tires = {}, {}, {}
            self.state = self._new_state()
            if self._tires_now:
                self.happened.append(Happened("", self.stage_name, f"Stage {self.stage_name}: " + ", ".join(
                    f"{n} fits {t} tires" for n, t in self._tires_now.items()) + " (MC-TIRE-04).",
                    ("MC-TIRE-04", "MC-TIRE-06")))
            self._stage_base = len(self.happened)

    def _advance(self) -> None:
        """Apply the steps the bots and the auto dice give until a person answers (or the game is over). A bot's
        plan the rules refuse (a random bot's Flat Out...) is asked again, its random stream seeded otherwise;
        after 20 refusals the bot lays no die."""
        attempt = 0
        while True:
            steps = self._auto_steps(attempt)
            if not steps:
                return
            try:
                self._apply_one(steps[0])
            except Refused:
                if not isinstance(steps[0], Plan) or not steps[0].dice:
                    raise
                attempt += 1
                continue
            attempt = 0
            for step in steps[1:]:
                self._apply_one(step)

    def _auto_steps(self, attempt: int = 0) -> list[Any]:
        """The steps the bots (their decisions) and the auto dice (chance) give now; empty when a person answers."""
        between = self._between()
        if between is not None:
            kind, who = between
            seat = self.seats[who]
            if not seat.is_bot:
                return []
            if kind == CHECKPOINT:
                return [Checkpoint(who, 0)]
            if kind == SPARE_BETWEEN:  # as the bot decides a Spare Tire in a stage (CORE-SPARE-01)
                return [SpareBetween(who, bool(self._driver(seat, attempt).want_spare_tire()))]
            return [TireChange(who, None)]
        p = self.state.pending()
        player = self.state.game.to_move()
        if p is None or player is None:
            return []
        seat = self.seats[player]
        asks = (set(_DECISIONS) if seat.is_bot else set()) | (set(CHANCE_QUESTIONS) if self.setup.dice == "auto"
                                                              else set())
        if not asks or p.question not in asks:
            return []
        if attempt >= 20:
            return [Plan(())]
        try:
            return self.state.answers(self._driver(seat, attempt), asks)
        except IllegalMove:  # the bot's plan, refused while its turn is worked out: another
            return self._auto_steps(attempt + 1)

    def _driver(self, seat: Seat, attempt: int) -> Any:
        """The seat's bot (a seeded chance for a person's dice), its random stream seeded by the game's seed, the
        seat and the step: a resumed game rolls as the game would have."""
        key = f"{self.setup.seed}:{seat.name}:{len(self.steps)}:{attempt}"
        if not seat.is_bot:
            return SeededChance(random.Random(key).randrange(2 ** 32))
        bot = self._bots.get(seat.name)
        if bot is None:
            bot = self._bots[seat.name] = _make_bot(seat.driver, isinstance(self.state.game, Race))
        bot.rng = random.Random(key)
        return bot

    def undo(self, version: int | None = None) -> Any:
        """Take the last step back (any step: a bot's, a die's face...), to the start of the game; write the undo to
        the journal; return the step taken back. :class:`Refused` at the start."""
        if version is not None and version != self.version:
            raise Refused(f"this undo was asked at step {version}; the game is now at step {self.version}: look "
                          f"again")
        if not self.steps:
            raise Refused("no step to take back: the game is at its start")
        last = self.steps[-1]
        machine_steps = len(self.state.history)
        if not isinstance(last, TABLE_STEPS) and machine_steps and not self._ended():
            self.state.undo()
            self.steps.pop()
            del self.happened[self._stage_base + len(self.state.outcomes()):]
        else:
            self._rebuild(self.steps[:-1])
        if self.journal is not None:
            self.journal.undo()
        return last

    def undo_to_person(self, version: int | None = None) -> list[Any]:
        """Take steps back until the question pending is one a person answers (the bots' and the auto dice's steps
        since the person's last answer, then that answer); the steps taken back, last first."""
        taken = [self.undo(version)]
        while self.steps:
            p = self.prompt()
            if p is None or not p.bot:
                break
            taken.append(self.undo())
        return taken

    def _rebuild(self, steps: list[Any]) -> None:
        """The game made again from its start with ``steps`` (after an undo across a stage's end)."""
        journal, self.journal = self.journal, None
        try:
            self._start_fresh()
            for step in steps:
                self._apply_one(step)
        finally:
            self.journal = journal

    # -- what the table sees
    def board(self, player: str | None = None) -> str:
        """The road around ``player``'s car (the player whose turn it is by default), as text."""
        game = self.state.game
        name = player or self.whose_turn() or next(iter(self.seats))
        return board_text(game, name)

    def standings(self) -> list[str]:
        """Each car: space, gear, damage, Time cards and tokens; the stage times of the stages ended; the rally's
        classification (or the race's order) once known. Checkpoint choices stay hidden until revealed."""
        game = self.state.game
        lines = [car_line(game, s.name, s.driver) for s in self.setup.seats]
        for end in self._ends:
            lines.append(f"Stage {end.name}: " + ", ".join(
                f"{n} {format_time(t)}" for n, t in sorted(end.times.items(), key=_by_time)))
        if self._checkpoint_pending() is not None:
            lines.append("Checkpoints: " + ", ".join(
                f"{s.name} {'has chosen' if s.name in self._checkpoints else 'to choose'}" for s in self.setup.seats))
        if self.is_over():
            lines.extend(self.result_lines())
        return lines

    def result_lines(self) -> list[str]:
        """The classification the table sees at the end (the rally's, or the race's finishing order)."""
        if self.form.race:
            game: Any = self.state.game
            res = game.result()
            out = ["Finishing order: " + (", ".join(f"{i}. {n}" for i, n in enumerate(res.order, 1)) or "nobody")]
            out += [f"DSQ {n} (no Joker lap)" for n in res.disqualified]
            out += [f"DNF {n} (retired)" for n in res.retired]
            return out
        if self._rally is None or len(self._ends) < len(self.form.stages):
            return []
        return ["Rally classification: " + ", ".join(f"{i}. {n} {format_time(t)}" for i, (n, t) in
                                                    enumerate(self._rally.classification(), 1))]

    def record(self) -> dict[str, Any]:
        """The game's record, the format ``rallyc replay`` reads (``track`` as the setup's absolute path: the
        exporter writes it relative to the record's folder). A finished game's record is complete with its claims
        (times, classification, result); an unfinished one's stops at the last turn played."""
        header = {k: v for k, v in self.form.header.items() if k not in ("race", "stages")}
        turns_by_stage = [d.turns for d in self._done] + [[o.turn for o in self.state.outcomes()]]
        header["format"] = record_format([t for turns in turns_by_stage for t in turns])
        if self.form.race:
            return self._race_record(header)
        stages = []
        outcomes_by_stage = self._outcomes_by_stage()
        for k, outs in enumerate(outcomes_by_stage):
            entry: dict[str, Any] = {"stage": self.form.stages[k], "turns": [turn_to_json(o.turn, o) for o in outs]}
            tires = self._done[k].tires if k < len(self._done) else self._tires_now
            if tires:
                entry["tires"] = dict(sorted(tires.items()))
            if k < len(self._ends):
                end = self._ends[k]
                entry["order"] = list(end.order)
                entry["times"] = dict(sorted(end.times.items()))
                penalties = self._done[k].penalties if k < len(self._done) else self._checkpoints
                if penalties:
                    entry["checkpoint"] = dict(sorted(penalties.items()))
                spares = self._done[k].spares if k < len(self._done) else [
                    s.name for s in self.setup.seats if self._spares.get(s.name)]
                if spares:
                    entry["spare_tire"] = list(spares)
            stages.append(entry)
        header["stages"] = stages
        if len(self._ends) == len(self.form.stages) and self._rally is not None:
            header["classification"] = [{"name": n, "overall": t} for n, t in self._rally.classification()]
        return header

    def _outcomes_by_stage(self) -> list[list[Any]]:
        """The outcomes of every stage started."""
        return self._done_outcomes + [self.state.outcomes()]

    def _race_record(self, header: dict[str, Any]) -> dict[str, Any]:
        race: Any = self.state.game
        outs: list[Any] = self.state.outcomes()
        header["race"] = dict(self.form.header["race"], turns=[rx_turn_to_json(o.turn, o) for o in outs])
        if race.is_over():
            res = race.result()
            header["race"]["result"] = {"order": res.order, "disqualified": res.disqualified, "retired": res.retired}
        return header


def _make_bot(kind: str, race: bool) -> Any:
    """A bot of ``kind`` (random, greedy, strong: the RX strong driver in a race)."""
    if kind == "random":
        return RandomBot(0)
    if kind == "greedy":
        return GreedyDriver(0)
    return StrongRxDriver(0) if race else StrongDriver(0)


def _by_time(item: tuple[str, int | None]) -> tuple[bool, int, str]:
    return item[1] is None, item[1] or 0, item[0]


def _setting(path: str) -> str:
    """A record path of the game's header as the setting that gave it (``$.players[1].car`` -> ``--cars``)."""
    if path.startswith("$.players"):
        return "--players/--cars"
    if path.startswith("$.options"):
        return "--options"
    return path
