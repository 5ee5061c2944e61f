"""The dice: Gear dice 1-6 (black), Coast (white), Leader (orange), Brake (red), and the R5's Boost die
(green, Monte-Carlo).

A die laid on the road is a :class:`Die`: which die, the space it is laid on, whether the Brake die
(or the Boost die) is paired with it, and where it lands when it makes the car jump.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Die", "GEAR_DICE", "DIE_NAMES", "FACES", "gear_value", "is_gear", "is_coast_like"]

GEAR_DICE = tuple(f"gear{n}" for n in range(1, 7))
DIE_NAMES = GEAR_DICE + ("coast", "leader", "brake")
#: the two outcomes that matter for the rules: a Warning symbol or not
FACES = ("ok", "warning")


def is_gear(die: str) -> bool:
    """True for a black Gear die (CORE-DICE-07)."""
    return die.startswith("gear")


def gear_value(die: str) -> int:
    """The gear of a Gear die (``gear4`` -> 4)."""
    return int(die[4:])


def is_coast_like(die: str) -> bool:
    """Coast and Leader dice keep the current gear (CORE-DICE-11, CORE-DICE-14); so does a Redline Brake die."""
    return die in ("coast", "leader", "brake")


@dataclass(frozen=True)
class Die:
    """One die laid on the road during planning (CORE-DICE-01, CORE-MOVE-06)."""

    die: str
    #: the space the die is laid on (the space it makes the car enter)
    to: str
    #: the Brake die is laid on the same space, paired with this Gear die (CORE-DICE-17)
    brake: bool = False
    #: the space the car lands on when this die makes it jump (CORE-JUMP-02, CORE-JUMP-03)
    land: str | None = None
    #: the Boost die is laid on the same space, paired with this Gear die (MC-BOOST-01)
    boost: bool = False

    def to_dict(self) -> dict:
        out: dict = {"die": self.die, "to": self.to}
        if self.brake:
            out["brake"] = True
        if self.boost:
            out["boost"] = True
        if self.land is not None:
            out["land"] = self.land
        return out

    def __str__(self) -> str:
        name = self.die + ("+brake" if self.brake else "") + ("+boost" if self.boost else "")
        return f"{name}@{self.to}" + (f">{self.land}" if self.land else "")
