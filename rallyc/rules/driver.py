"""Who decides and where chance comes from, outside the referee.

A :class:`Driver` is asked while a turn is played: the one-by-one decision before each die (roll, secure,
stop), and the chance the turn leaves open (a die's face, a Shortcut token, a card's "0" side, Damage
tokens, whether to change a tire, how to re-lay the dice after a failed Flat Out). The seeded random bot
(:class:`rallyc.rules.bot.RandomBot`) is one; a stronger driver or a person at the table would be others.
In a replay there is no driver: every decision and every chance outcome comes from the record.

The referee never writes into the :class:`~rallyc.rules.turn.Turn` a driver hands it: ``play`` completes a
copy and returns it as ``outcome.turn``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # pragma: no cover
    from rallyc.rules.plans import PlanContext, Placed
    from rallyc.rules.turn import Roll, ZeroSide

__all__ = ["Driver", "ROLL", "SECURE", "STOP"]

#: the one-by-one decisions (CORE-ROLL-06, CORE-SECONDS-04)
ROLL, SECURE, STOP = "roll", "secure", "stop"


class Driver(Protocol):
    """The decisions and the chance of a turn (see the module docstring)."""

    def decide(self, stage: Any, i: int, placed: list["Placed"], rolls: list["Roll"], warnings: int,
               limit: int) -> str:
        """Before die ``i`` (one by one): :data:`ROLL`, :data:`SECURE` or :data:`STOP`."""
        ...

    def face(self, die: str) -> str:
        """The face a die shows once rolled: ``ok`` or ``warning``."""
        ...

    def token(self) -> str:
        """The Shortcut side of the Damage token drawn entering a Shortcut."""
        ...

    def zero_side(self) -> "ZeroSide":
        """The "0" side of the Time card turned over after a Loss of Control."""
        ...

    def damage(self, n: int) -> list[str]:
        """``n`` Damage tokens drawn from the bag."""
        ...

    def want_spare_tire(self) -> bool:
        """Change a tire at the end of this movement (when the rules allow it)?"""
        ...

    def relay(self, stage: Any, ctx: "PlanContext", placed: list["Placed"], rolls: list["Roll"],
              leader: bool) -> list["Roll"]:
        """The rolled dice re-laid after a failed Flat Out (faces unchanged, CORE-ROLL-13)."""
        ...
