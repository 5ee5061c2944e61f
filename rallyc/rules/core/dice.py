"""The dice: Gear dice 1-6 (black), Coast (white), Leader (orange), Brake (red), and the R5's Boost die
(green, Monte-Carlo).

A die laid on the road is a :class:`Die`: which die, the space it is laid on, whether the Brake die
(or the Boost die) is paired with it, and where it lands when it makes the car jump.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from rallyc.rules.core.domain import Face

__all__ = ["Die", "DieKind", "Face", "GEAR_DICE", "DIE_NAMES", "FACES", "gear_value", "is_gear", "is_coast_like"]


class DieKind(StrEnum):
    """The kinds of dice (CORE-DICE-01..20, MC-BOOST-01): each member is the records' word for it."""

    GEAR1 = "gear1"
    GEAR2 = "gear2"
    GEAR3 = "gear3"
    GEAR4 = "gear4"
    GEAR5 = "gear5"
    GEAR6 = "gear6"
    COAST = "coast"
    LEADER = "leader"
    BRAKE = "brake"
    #: the R5's Boost die, only ever paired with a Gear die (MC-BOOST-01)
    BOOST = "boost"


GEAR_DICE: tuple[DieKind, ...] = (DieKind.GEAR1, DieKind.GEAR2, DieKind.GEAR3, DieKind.GEAR4, DieKind.GEAR5,
                                  DieKind.GEAR6)
#: the dice a record may lay on their own
DIE_NAMES: tuple[DieKind, ...] = GEAR_DICE + (DieKind.COAST, DieKind.LEADER, DieKind.BRAKE)
#: the two outcomes that matter for the rules: a Warning symbol or not
FACES: tuple[Face, ...] = (Face.OK, Face.WARNING)


def is_gear(die: str) -> bool:
    """True for a black Gear die (CORE-DICE-07)."""
    return die.startswith("gear")


def gear_value(die: str) -> int:
    """The gear of a Gear die (``gear4`` -> 4)."""
    return int(die[4:])


def is_coast_like(die: str) -> bool:
    """Coast and Leader dice keep the current gear (CORE-DICE-11, CORE-DICE-14); so does a Redline Brake die."""
    return die in ("coast", "leader", "brake")


class Die(NamedTuple):
    """One die laid on the road during planning (CORE-DICE-01, CORE-MOVE-06). A named tuple (one is built per
    die of every record and every enumerated plan): change a field with ``die._replace(land=...)``."""

    die: DieKind
    #: the space the die is laid on (the space it makes the car enter)
    to: str
    #: the Brake die is laid on the same space, paired with this Gear die (CORE-DICE-17)
    brake: bool = False
    #: the space the car lands on when this die makes it jump (CORE-JUMP-02, CORE-JUMP-03)
    land: str | None = None
    #: the Boost die is laid on the same space, paired with this Gear die (MC-BOOST-01)
    boost: bool = False
    #: Full Contact: the space the car pushed by this die goes to (RX-PUSH-03/12/15; ``push_to`` in records)
    push: str | None = None

    def to_dict(self) -> dict[str, str | bool]:
        out: dict[str, str | bool] = {"die": self.die, "to": self.to}
        if self.brake:
            out["brake"] = True
        if self.boost:
            out["boost"] = True
        if self.land is not None:
            out["land"] = self.land
        if self.push is not None:
            out["push_to"] = self.push
        return out

    def __str__(self) -> str:
        name = self.die + ("+brake" if self.brake else "") + ("+boost" if self.boost else "")
        return f"{name}@{self.to}" + (f">{self.land}" if self.land else "") + (f"!{self.push}" if self.push else "")
