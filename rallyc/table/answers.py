"""The questions of the game at the table in words, their legal answers, and the answers typed at a prompt read as
steps of the step machine (:mod:`rallyc.rules.machine`).

Every refusal here is a :class:`Refused` naming the rule the question comes from, so that a person who types a
face that is not one, a word that is not an answer or text for a number is told what the rules ask for.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rallyc.rules.dice import Die, DieKind, Face
from rallyc.rules.driver import Step
from rallyc.rules.machine import Pending, Plan, Question
from rallyc.rules.state import DAMAGE_KINDS
from rallyc.rules.turn import ZeroSide

__all__ = ["Refused", "Choice", "Checkpoint", "RULE_OF", "question_words", "read_answer", "read_dice", "choices_for",
           "step_words", "CHECKPOINT"]

#: the table's own question, after a stage with the Checkpoints option: the 5-second tokens taken, in secret
CHECKPOINT = "checkpoint"

#: the rule each question comes from (named when an answer is refused for its form, not by the referee)
RULE_OF: dict[str, str] = {
    Question.PLAN: "CORE-DICE-01", Question.DIE: "CORE-ROLL-06", Question.FACE: "CORE-ROLL-04",
    Question.TOKEN: "CORE-SHORTCUT-05", Question.ZERO_SIDE: "CORE-LOC-05", Question.DAMAGE: "CORE-LOC-09",
    Question.REPLAN: "IMPROV-02", Question.RELAY: "CORE-ROLL-13", Question.SPARE_TIRE: "CORE-SPARE-01",
    CHECKPOINT: "CORE-ADV-09",
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
        return f"{player}'s Flat Out failed: the rolled dice are laid again, faces unchanged (CORE-ROLL-13)"
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
    if isinstance(step, ZeroSide):
        return f"\"0\" side: {step.icon}"
    if isinstance(step, bool):
        return "yes" if step else "no"
    if isinstance(step, list):
        return ", ".join(str(s) for s in step)
    return str(step)


def read_dice(text: str) -> tuple[Die, ...]:
    """Dice typed as ``KIND@SPACE`` words (``gear2@1.1.in gear3+brake@1.2.out coast@1.3``; ``>SPACE`` where a jump
    lands, ``!SPACE`` where a pushed car goes), as :class:`~rallyc.rules.dice.Die` shows them."""
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


def read_answer(p: Pending, text: str, choices: list[Choice]) -> Any:
    """The step a typed answer is: a choice's key or number, or the answer written out; :class:`Refused`
    (naming the question's rule) when the text is no answer of the question's form."""
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
        if low in ("y", "yes"):
            return True
        if low in ("n", "no"):
            return False
        raise Refused(f"change a tire: yes or no, not {words!r}", rule)
    if q is Question.RELAY:
        raise Refused("type 1: the rolled dice laid again on the same path (other re-layings: not yet at the "
                      "table)", rule)
    raise Refused(f"not an answer: {words!r}", rule)


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
