"""The questions of the game at the table in words, their legal answers, and the answers typed at a prompt read as
steps of the step machine (:mod:`rallyc.rules.core.machine`).

Every refusal here is a :class:`Refused` naming the rule the question comes from, so that a person who types a
face that is not one, a word that is not an answer or text for a number is told what the rules ask for.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rallyc.rules.core.dice import Die, DieKind, Face
from rallyc.rules.core.driver import Step
from rallyc.rules.core.machine import Pending, Plan, Question
from rallyc.rules.core.state import DAMAGE_KINDS
from rallyc.rules.core.turn import Roll, ZeroSide

__all__ = ["Refused", "Choice", "Checkpoint", "SpareBetween", "TireChange", "TABLE_STEPS", "RULE_OF", "question_words", "read_answer", "read_dice", "read_relaid",
           "read_yes_no", "choices_for", "step_words", "CHECKPOINT", "SPARE_BETWEEN", "TIRES"]

#: the table's own question, after a stage with the Checkpoints option: the 5-second tokens taken, in secret
CHECKPOINT = "checkpoint"
#: the table's questions between two stages of a rally: the Spare Tire fitted to take a Coast/Leader Damage token off
#: (after a stage without Assistance), and the tires fitted for the next stage (after a stage with Assistance; also
#: before the first turn of the first stage, MC-TIRE-03)
SPARE_BETWEEN = "spare_between"
TIRES = "tires"

#: the rule each question comes from (named when an answer is refused for its form, not by the referee)
RULE_OF: dict[str, str] = {
    Question.PLAN: "CORE-DICE-01", Question.DIE: "CORE-ROLL-06", Question.FACE: "CORE-ROLL-04",
    Question.TOKEN: "CORE-SHORTCUT-05", Question.ZERO_SIDE: "CORE-LOC-05", Question.DAMAGE: "CORE-LOC-09",
    Question.REPLAN: "IMPROV-02", Question.RELAY: "CORE-ROLL-13", Question.SPARE_TIRE: "CORE-SPARE-01",
    CHECKPOINT: "CORE-ADV-09", SPARE_BETWEEN: "CORE-RALLY-08", TIRES: "MC-TIRE-04",
}


class Refused(Exception):
    """An answer the rules (or the form of the question) refuse; the game is unchanged. ``rule_id`` names the
    rule, ``message`` says what was wrong and what the rules ask for."""

    def __init__(self, message: str, rule_id: str | None = None) -> None:
        super().__init__(f"{rule_id}: {message}" if rule_id else message)
        self.message = message
        self.rule_id = rule_id


@dataclass(frozen=True)
class Checkpoint:
    """The table's step after a stage with the Checkpoints option (CORE-ADV-09): the 5-second tokens a player
    takes from the reserve, chosen in secret and revealed when every player has chosen (CORE-ADV-10)."""

    player: str
    tokens: int

    def to_json(self) -> dict[str, Any]:
        return {"checkpoint": {"player": self.player, "tokens": self.tokens}}


@dataclass(frozen=True)
class SpareBetween:
    """The table's step at the end of a stage without Assistance (CORE-RALLY-08): whether a player fits their unused
    Spare Tire card between the stages to take one Coast/Leader Damage token off."""

    player: str
    fitted: bool

    def to_json(self) -> dict[str, Any]:
        return {"spare_between": {"player": self.player, "fitted": self.fitted}}


@dataclass(frozen=True)
class TireChange:
    """The table's step before the first turn of the first stage (MC-TIRE-03) or before a stage that follows one with
    Assistance (MC-TIRE-04): the tires a player fits for it (same car category, MC-TIRE-06), or None to keep theirs."""

    player: str
    tires: str | None

    def to_json(self) -> dict[str, Any]:
        return {"tires": {"player": self.player, "tires": self.tires}}


#: the steps the table asks itself (between the step machine's questions), in the journal as lines of their own
TABLE_STEPS = (Checkpoint, SpareBetween, TireChange)


@dataclass(frozen=True)
class Choice:
    """One legal answer: what to type (``key``), the answer in words (``label``) and the step it is."""

    key: str
    label: str
    step: Any


_STEP_WORDS = {Step.ROLL: "roll the next die", Step.STOP: "stop: the movement is over (CORE-ROLL-06)",
               Step.SECURE: "secure the next die with Second tokens (CORE-SECONDS-04)",
               Step.REPLAN: "re-plan the dice not yet rolled (IMPROV-01)"}
_STEP_KEYS = {Step.ROLL: "r", Step.STOP: "s", Step.SECURE: "c", Step.REPLAN: "p"}
_FACE_WORDS = {Face.OK: "no Warning symbol", Face.WARNING: "a Warning symbol"}
_FACE_KEYS = {Face.OK: "o", Face.WARNING: "w"}
_FACE_BY_KEY = {"o": Face.OK, "ok": Face.OK, "w": Face.WARNING, "warning": Face.WARNING}
_TOKEN_WORDS = {"ok": "OK! (no effect)", "coast": "Coast: the next die is a Coast die", "minus1": "-1 gear",
                "weather": "Weather: the weather changes (MC-WEATHER)"}


def question_words(p: Pending, player: str) -> str:
    """The pending question in words (the player is the one whose turn it is, also for chance)."""
    d = p.details
    q = p.question
    if q is Question.PLAN:
        return f"{player}, lay your dice on the road (CORE-DICE-01)"
    if q is Question.DIE:
        first = "first" if d.get("die", 0) == 0 else "next"
        return (f"{player}, before the {first} die (die {d.get('die', 0) + 1}, to {d.get('space')}): "
                f"{d.get('warnings', 0)} Warning(s) of {d.get('limit')} allowed so far")
    if q is Question.FACE:
        return f"{player} rolls the {d.get('die')} die: which face does it show? (CORE-ROLL-04)"
    if q is Question.TOKEN:
        return f"{player} enters a Shortcut: draw a Damage token and read its Shortcut side (CORE-SHORTCUT-05)"
    if q is Question.ZERO_SIDE:
        return (f"{player} lost control: turn the Time card to its \"0\" side: spinout, crash LOW MEDIUM HIGH (the "
                f"black marks per signpost colour) or sisu GEAR (CORE-LOC-03, CORE-LOC-05)")
    if q is Question.DAMAGE:
        return (f"{player} draws {d.get('count')} Damage token(s) from the bag: type their Damage sides "
                f"({', '.join(DAMAGE_KINDS)}) (CORE-LOC-09)")
    if q is Question.REPLAN:
        return f"{player}, lay the rest of the dice again after die {d.get('after')} (IMPROV-02)"
    if q is Question.RELAY:
        return (f"{player}'s Flat Out failed: the rolled dice are laid again, faces unchanged, as a legal plan that "
                f"still causes the Loss of Control: on the same path (1), or typed as dice (another path, dice left "
                f"out; CORE-ROLL-13)")
    if q is Question.SPARE_TIRE:
        return f"{player} ends the movement in Gear 1: change a tire? (CORE-SPARE-01)"
    return str(q)


def step_words(step: Any) -> str:
    """A step in words, for the screen and the journal's readers."""
    if isinstance(step, Plan):
        if not step.dice:
            return "no die laid"
        head = "Flat Out" if step.flat_out else "one by one"
        return f"{head}{' with SISU' if step.sisu else ''}: " + " ".join(str(d) for d in step.dice)
    if isinstance(step, Checkpoint):
        return f"{step.player} has chosen (hidden until everyone has)"
    if isinstance(step, SpareBetween):
        return f"{step.player} {'fits' if step.fitted else 'keeps'} the Spare Tire between stages"
    if isinstance(step, TireChange):
        return f"{step.player} {'fits ' + step.tires + ' tires' if step.tires else 'keeps their tires'}"
    if isinstance(step, ZeroSide):
        return f"\"0\" side: {step.icon}"
    if isinstance(step, bool):
        return "yes" if step else "no"
    if isinstance(step, list):
        return ", ".join(step_words(s) for s in step)
    if isinstance(step, Roll):
        face = _FACE_KEYS.get(step.face, "") if step.face is not None else ""
        return f"{step.die}{' ' + face if face else ''}"
    return str(step)


def read_dice(text: str) -> tuple[Die, ...]:
    """Dice typed as ``KIND@SPACE`` words (``gear2@1.1.in gear3+brake@1.2.out coast@1.3``; ``>SPACE`` where a jump
    lands, ``!SPACE`` where a pushed car goes), as :class:`~rallyc.rules.core.dice.Die` shows them."""
    dice = []
    for word in text.split():
        head, at, rest = word.partition("@")
        if not at or not rest:
            raise Refused(f"a die is written KIND@SPACE (gear2@1.1.in), not {word!r}", "CORE-DICE-01")
        kind, *pairs = head.split("+")
        try:
            die = DieKind(kind)
        except ValueError:
            raise Refused(f"no die {kind!r}: the dice are {', '.join(k.value for k in DieKind)}",
                          "CORE-DICE-01") from None
        push = None
        if "!" in rest:
            rest, _, push = rest.partition("!")
        space, _, land = rest.partition(">")
        dice.append(Die(die, space, "brake" in pairs, land or None, "boost" in pairs, push))
    return tuple(dice)


def read_answer(p: Pending, text: str, choices: list[Choice], rolled: list[Roll] | tuple[Roll, ...] = ()) -> Any:
    """The step a typed answer is: a choice's key or number, or the answer written out; :class:`Refused`
    (naming the question's rule) when the text is no answer of the question's form. ``rolled``: after a failed Flat
    Out, the dice rolled (what a re-laying is made of)."""
    words = text.strip()
    rule = RULE_OF.get(p.question)
    for i, c in enumerate(choices, start=1):
        if words.casefold() in (c.key.casefold(), str(i)):
            return c.step
    q = p.question
    low = words.casefold()
    if q is Question.PLAN or q is Question.REPLAN:
        flat = sisu = False
        parts = []
        for w in words.split():
            if w.casefold() in ("flat", "flat-out", "flatout"):
                flat = True
            elif w.casefold() == "sisu":
                sisu = True
            elif w.casefold() not in ("none", "-"):
                parts.append(w)
        dice = read_dice(" ".join(parts))
        return Plan(dice, flat, sisu) if q is Question.PLAN else list(dice)
    if q is Question.DIE:
        try:
            step = Step(low)
            if step not in [c.step for c in choices]:
                raise ValueError(step)
            return step
        except ValueError:
            raise Refused(f"before a die the rules allow {', '.join(c.key + ' ' + c.label for c in choices)}; "
                          f"not {words!r}", rule) from None
    if q is Question.FACE:
        for face, key in _FACE_KEYS.items():
            if low in (face.value, key, face.value + "s"):
                return face
        raise Refused(f"a rolled die shows a Warning symbol or not: type o (no Warning) or w (Warning), not "
                      f"{words!r}", rule)
    if q is Question.TOKEN:
        raise Refused(f"a Shortcut side is one of {', '.join(c.key for c in choices)}, not {words!r}", rule)
    if q is Question.ZERO_SIDE:
        return _zero_side(words, rule)
    if q is Question.DAMAGE:
        kinds = words.replace(",", " ").split()
        bad = [k for k in kinds if k not in DAMAGE_KINDS]
        if bad:
            raise Refused(f"a Damage token's side is one of {', '.join(DAMAGE_KINDS)}, not {bad[0]!r}", rule)
        if len(kinds) != p.details.get("count"):
            raise Refused(f"{p.details.get('count')} token(s) are drawn, not {len(kinds)}", rule)
        return kinds
    if q is Question.SPARE_TIRE:
        return read_yes_no(words, "change a tire", rule)
    if q is Question.RELAY:
        return read_relaid(words, rolled)
    raise Refused(f"not an answer: {words!r}", rule)


def read_yes_no(text: str, what: str, rule: str | None) -> bool:
    """``y``/``yes`` or ``n``/``no`` (any case); :class:`Refused` naming ``what`` is asked and the rule otherwise."""
    low = text.strip().casefold()
    if low in ("y", "yes"):
        return True
    if low in ("n", "no"):
        return False
    raise Refused(f"{what}: yes or no, not {text.strip()!r}", rule)


def read_relaid(text: str, rolled: list[Roll] | tuple[Roll, ...]) -> list[Roll]:
    """Dice re-laid after a failed Flat Out, typed as a plan (``gear1@1.3.l leader@2.1.in1 gear2@3.1.l``: any path,
    any dice left out, as the rules allow, CORE-ROLL-13), each with the face its die was rolled with. Where two rolled
    dice of one kind show different faces, ``=w`` or ``=o`` after the die says which (``coast@4.1=w``). The referee
    then checks the re-laying (a legal plan of the rolled dice that still causes the Loss of Control)."""
    pool: list[tuple[str, Face]] = []
    for r in rolled:
        pool += [(r.die.die.value, r.face)] if r.face is not None else []
        pool += [("brake", r.brake_face)] if r.die.brake and r.brake_face is not None else []
        pool += [("boost", r.boost_face)] if r.die.boost and r.boost_face is not None else []
    words: list[str] = []
    said: list[Face | None] = []
    for word in text.split():
        head, eq, key = word.partition("=")
        if eq and key.casefold() not in _FACE_BY_KEY:
            raise Refused(f"a re-laid die's face is =o (no Warning) or =w (Warning), not {word!r}", "CORE-ROLL-13")
        words.append(head)
        said.append(_FACE_BY_KEY.get(key.casefold()) if eq else None)
    dice = read_dice(" ".join(words))
    if not dice:
        raise Refused("type 1 (the same path) or the dice re-laid, KIND@SPACE each", "CORE-ROLL-13")
    out = []
    for die, face in zip(dice, said):
        faces = [_face_left(pool, die.die.value, face, str(die))]
        faces += [_face_left(pool, "brake", None, str(die))] if die.brake else []
        faces += [_face_left(pool, "boost", None, str(die))] if die.boost else []
        out.append(Roll(die, faces[0], faces[1] if die.brake else None,
                        boost_face=faces[-1] if die.boost else None))
    return out


def _face_left(pool: list[tuple[str, Face]], kind: str, face: Face | None, die: str) -> Face:
    """The face of a rolled ``kind`` die not re-laid yet (``face`` if the player said which), taken from ``pool``."""
    faces = sorted({f for k, f in pool if k == kind and (face is None or f is face)}, key=lambda f: f.value)
    if not faces:
        shown = f" showing {_FACE_WORDS[face]}" if face is not None else ""
        raise Refused(f"{die}: no {kind} die{shown} was rolled (or it is re-laid already): the re-laid dice are the "
                      f"rolled ones", "CORE-ROLL-13")
    if len(faces) > 1:
        raise Refused(f"{die}: two {kind} dice were rolled, one with a Warning: say which with =w or =o",
                      "CORE-ROLL-13")
    pool.remove((kind, faces[0]))
    return faces[0]


def _zero_side(words: str, rule: str | None) -> ZeroSide:
    """``spinout``, ``crash 0 1 2`` (black marks per low, medium, high signpost) or ``sisu 2`` (the gear)."""
    parts = words.casefold().split()
    if not parts:
        raise Refused("the \"0\" side shows spinout, crash or sisu", rule)
    icon, rest = parts[0], parts[1:]
    try:
        numbers = [int(x) for x in rest]
    except ValueError:
        raise Refused(f"the \"0\" side's marks and gear are numbers, not {' '.join(rest)!r}", rule) from None
    if icon == "spinout" and not numbers:
        return ZeroSide("spinout")
    if icon == "crash" and len(numbers) == 3:
        return ZeroSide("crash", marks=dict(zip(("low", "medium", "high"), numbers)))
    if icon == "sisu" and len(numbers) == 1:
        return ZeroSide("sisu", gear=numbers[0])
    raise Refused("the \"0\" side is: spinout; crash LOW MEDIUM HIGH (black marks per signpost colour, e.g. crash "
                  f"0 1 2); sisu GEAR (e.g. sisu 2); not {words!r}", rule)


def choices_for(p: Pending, legal: list[Any]) -> list[Choice]:
    """The numbered choices of a question whose legal answers are few (the machine's ``legal_actions``)."""
    q = p.question
    if q is Question.DIE:
        return [Choice(_STEP_KEYS[Step(s)], _STEP_WORDS[Step(s)], Step(s)) for s in legal]
    if q is Question.FACE:
        return [Choice(_FACE_KEYS[Face(f)], _FACE_WORDS[Face(f)], Face(f)) for f in legal]
    if q is Question.TOKEN:
        return [Choice(str(s), _TOKEN_WORDS.get(str(s), str(s)), str(s)) for s in legal]
    if q is Question.SPARE_TIRE:
        return [Choice("n", "no", False), Choice("y", "yes: change a tire (CORE-SPARE-01)", True)]
    return []
