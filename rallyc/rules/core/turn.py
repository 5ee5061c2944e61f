"""A turn as recorded: what the player decided (the dice laid, one by one or Flat Out, re-plans) and what
chance gave (faces, tokens, a card's "0" side, Damage tokens); and what a stage turn did (:class:`Outcome`).

The turn is played by the state machine of :mod:`rallyc.rules.core.rolling`; what the move leaves is the
variant's End of the Turn (:mod:`rallyc.rules.core.timecards` for a stage, :mod:`rallyc.rules.core.race` for RX).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from rallyc.rules.core.dice import Die, Face
from rallyc.rules.core.outcome import TurnOutcome
from rallyc.rules.core.state import Card

if TYPE_CHECKING:  # pragma: no cover
    from rallyc.rules.core.hooks import DieClaim

__all__ = ["Roll", "ZeroSide", "CardClaim", "Replan", "Turn", "LossOfControl", "Outcome", "stage_outcome"]


@dataclass(slots=True)  # slots: one is made for every die of every record replayed, without a table of attributes
class Roll:
    """A die laid on the road and what became of it."""

    die: Die
    #: ``ok`` or ``warning``; None when not rolled (secured, or the player stopped before it)
    face: Face | None = None
    #: the paired Brake die's face
    brake_face: Face | None = None
    #: secured with Second tokens instead of rolled (CORE-SECONDS-04; a Boost pair: both dice, MC-BOOST-03)
    secured: bool = False
    #: Shortcut side of the Damage token drawn when this die enters a Shortcut (CORE-SHORTCUT-05)
    token: str | None = None
    #: the paired Boost die's face (MC-BOOST-01)
    boost_face: Face | None = None
    #: what the record says the die did to the cars on its space (Full Contact's push or Push Through,
    #: :class:`~rallyc.rules.core.hooks.DieClaim`)
    contact: "DieClaim | None" = None

    @property
    def rolled(self) -> bool:
        return self.face is not None

    def copy(self) -> "Roll":
        """A copy whose claims are its own (the die is immutable: shared)."""
        return replace(self, contact=copy.deepcopy(self.contact))


@dataclass
class ZeroSide:
    """The "0" side of a Time card turned over after a Loss of Control (chance)."""

    icon: str
    #: black marks next to each signpost colour (low / medium / high) for a Crash
    marks: dict[str, int] = field(default_factory=dict)
    #: the gear printed on a SISU card
    gear: int | None = None
    seconds: int | None = None


@dataclass(slots=True)  # slots: as Roll's (one a stage turn replayed)
class CardClaim:
    """What the record says about the Time card taken: checked, and its seconds are the truth."""

    gear: int | None = None
    seconds: int | None = None
    zero: ZeroSide | None = None


@dataclass(slots=True)  # slots: as Roll's (one a turn replayed)
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
    #: Improvisation: the dice not yet rolled laid again, in the order they happened (IMPROV-01..03)
    replans: list["Replan"] = field(default_factory=list)
    # a race's claims (derivable; checked when present): the Round marker's colour (RX-ROUND-01), the laps
    # completed (RX-END-01), the Joker (RX-JOKER-03), the weather after the turn (RX-WEATHER-04)
    colour: str | None = None
    laps: int | None = None
    joker: str | None = None
    weather: str | None = None

    def copy(self) -> "Turn":
        """A copy whose dice, re-plans and claims are its own (the referee completes a copy of a driver's turn,
        never the driver's own). Field by field: a generic deep copy rebuilt every die, field by field, and was most
        of the time a refereed turn took. The fields not named here are words, numbers and flags."""
        return replace(self, dice=[r.copy() for r in self.dice],
                       relaid=None if self.relaid is None else [r.copy() for r in self.relaid],
                       card=copy.deepcopy(self.card), damage=list(self.damage),
                       flipped=None if self.flipped is None else list(self.flipped),
                       replans=[Replan(rp.after, [r.copy() for r in rp.dice]) for rp in self.replans])

    def played(self) -> list[Roll]:
        """The dice in the order the car used them: the dice laid, each re-plan replacing the dice not yet
        rolled (``dice[:after] + replan.dice``)."""
        seq = list(self.dice)
        for rp in self.replans:
            seq = seq[:rp.after] + list(rp.dice)
        return seq


@dataclass
class Replan:
    """Improvisation (IMPROV-01/02): after ``after`` dice were rolled or secured, the player took back the dice
    not yet rolled and laid ``dice`` instead (each with its face once rolled)."""

    after: int
    dice: list[Roll] = field(default_factory=list)


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
    #: the Flat Out's tokens are Focus tokens, not Second tokens (a Head-to-Head, CUSTOM-07): only the text differs
    focus: bool = False

    @property
    def seconds_gained(self) -> int:
        """Second tokens earned by a Flat Out (CORE-SECONDS-01)."""
        return self.gained

    @property
    def seconds_spent(self) -> int:
        """Second tokens spent securing dice (CORE-SECONDS-07)."""
        return self.spent

    def describe(self) -> str:
        """One line for the text replay: the move, what else the turn did, and the Time card taken."""
        card = self.card
        bits = [self.move_text(), *self._events(),
                f"card {'0 side ' if card.zero else ''}{card.seconds} s"]
        return ", ".join(bits)

    def _events(self) -> list[str]:
        """What the turn did beyond its move, in the text replay's words and order."""
        bits = []
        if self.flat_out_failed:
            bits.append("Flat Out failed")
        if self.loc:
            icon = f": {self.card.icon}" if self.card.icon else ""  # no icon read: a finish, or the Dashboard's (CUSTOM-13)
            bits.append(f"Loss of Control ({self.loc.cause}) on {self.loc.space} in Gear {self.loc.gear}{icon}")
        if self.damage:
            bits.append("damage " + "+".join(self.damage))
        if self.tokens:
            bits.append("shortcut " + "+".join(self.tokens))
        unit = "Focus" if self.focus else "s tokens"
        if self.gained:  # (seconds_gained)
            bits.append(f"+{self.gained} {unit}")
        if self.spent:  # (seconds_spent)
            bits.append(f"-{self.spent} Focus secured" if self.focus else f"-{self.spent} s secured")
        flags = ((self.spare_tire, "spare tire"), (self.sisu, "SISU"), (self.finished, "FINISHED"),
                 (self.retired, "RETIRED"))
        bits += [text for on, text in flags if on]
        if self.flipped:
            bits.append("Weather: flipped step " + ", ".join(str(s) for s in self.flipped))
        return bits


_new = object.__new__


def stage_outcome(player: str, round: int, start: str, path: list[str], end: str, gear: int, card: Card,
                  warnings: int, loc: LossOfControl | None, blocked: bool, stopped: bool, finished: bool,
                  flat_out: bool, flat_out_failed: bool, gained: int, spent: int, damage: list[str],
                  tokens: list[str], spare_tire: bool, sisu: bool, leader: bool) -> Outcome:
    """The :class:`Outcome` of a stage's End of the Turn (:func:`~rallyc.rules.core.timecards.time_card_end`): the same
    object as ``Outcome(player=player, ...)`` with these fields and every other at its default, built once per turn.

    The dataclass's ``__init__`` takes its 27 fields by keyword only, and matching 21 keywords by name cost three
    times what storing them does; this takes them by position and stores them in the ``__init__``'s order (the
    instance keeps the class's shared keys). ``tests/test_stage_turn_fast.py`` checks it against the dataclass."""
    out = _new(Outcome)
    out.player = player
    out.round = round
    out.start = start
    out.path = path
    out.end = end
    out.gear = gear
    out.warnings = warnings
    out.loc = loc
    out.blocked = blocked
    out.flat_out = flat_out
    out.flat_out_failed = flat_out_failed
    out.gained = gained
    out.spent = spent
    out.damage = damage
    out.tokens = tokens
    out.finished = finished
    out.retired = False
    out.turn = None
    out.rules = []
    out.card = card
    out.stopped = stopped
    out.spare_tire = spare_tire
    out.sisu = sisu
    out.leader = leader
    out.flipped = []
    out.focus = False
    return out
