"""Who decides and where chance comes from, outside the referee.

A :class:`Driver` is asked while a turn is played: the one-by-one decision before each die (roll, secure,
stop), and the chance the turn leaves open (a die's face, a Shortcut token, a card's "0" side, Damage
tokens, whether to change a tire, how to re-lay the dice after a failed Flat Out). The seeded random bot
(:class:`rallyc.rules.drivers.bot.RandomBot`) is one; a stronger driver or a person at the table would be others.
In a replay there is no driver: every decision and every chance outcome comes from the record.

The referee never writes into the :class:`~rallyc.rules.core.turn.Turn` a driver hands it: ``play`` completes a
copy and returns it as ``outcome.turn``.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol

from rallyc.rules.core.dice import DieKind, Face

if TYPE_CHECKING:  # pragma: no cover
    from rallyc.rules.core.dice import Die
    from rallyc.rules.core.plans import PlanContext, Placed
    from rallyc.rules.core.turn import Roll, ZeroSide

__all__ = ["Driver", "Chance", "Step", "ROLL", "SECURE", "STOP", "REPLAN"]


class Step(StrEnum):
    """What the player does before the next die when rolling one by one."""

    #: roll it (CORE-ROLL-03)
    ROLL = "roll"
    #: secure it with tokens (CORE-SECONDS-04, RX-ROLL-04)
    SECURE = "secure"
    #: stop: the movement is over (CORE-ROLL-06)
    STOP = "stop"
    #: Improvisation: lay the dice not yet rolled again (IMPROV-01)
    REPLAN = "replan"


ROLL, SECURE, STOP, REPLAN = Step.ROLL, Step.SECURE, Step.STOP, Step.REPLAN


class Chance(Protocol):
    """Where chance comes from: a seeded source for bots, the table in a live game (in a replay, the record)."""

    def face(self, die: DieKind) -> Face:
        """The face a die of this kind shows once rolled."""
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


class Driver(Chance, Protocol):
    """The decisions of a turn, and the chance it draws (see the module docstring)."""

    def decide(self, stage: Any, i: int, placed: list["Placed"], rolls: list["Roll"], warnings: int,
               limit: int) -> str:
        """Before die ``i`` (one by one): a :class:`Step`."""
        ...

    def replan(self, stage: Any, ctx: "PlanContext", done: list["Placed"]) -> list["Die"]:
        """Improvisation: the dice to lay after the dice ``done`` (the whole new rest of the plan; empty: keep
        the plan). Asked only after :data:`REPLAN` was decided."""
        ...

    def want_spare_tire(self) -> bool:
        """Change a tire at the end of this movement (when the rules allow it)?"""
        ...

    def relay(self, stage: Any, ctx: "PlanContext", placed: list["Placed"], rolls: list["Roll"],
              leader: bool) -> list["Roll"]:
        """The rolled dice re-laid after a failed Flat Out (faces unchanged, CORE-ROLL-13)."""
        ...
