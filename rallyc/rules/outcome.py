"""What a turn did (:class:`TurnOutcome`), whatever the game form: the record of a resolved turn that the
referee's variants extend with their own fields."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:  # pragma: no cover
    from rallyc.rules.turn import LossOfControl, Turn

__all__ = ["TurnOutcome", "RulesNotWorkedOut", "not_worked_out"]


class RulesNotWorkedOut(RuntimeError):
    """The rule IDs of an outcome played with the engine's ``explaining`` off were asked for."""


def not_worked_out(ids: tuple[str, ...]) -> tuple[str, ...]:
    """The step an outcome played without explaining holds in place of its rule IDs: reading them raises."""
    raise RulesNotWorkedOut("this turn was played with explaining off (TurnEngine.explaining): its rule IDs "
                            "were not worked out")


@dataclass(kw_only=True)
class TurnOutcome:
    """What a turn did, whatever the game form; variants add their own fields (a Time card, laps...)."""

    player: str
    round: int
    start: str
    path: list[str]
    end: str
    gear: int
    warnings: int = 0
    loc: "LossOfControl | None" = None
    blocked: bool = False
    flat_out: bool = False
    flat_out_failed: bool = False
    #: tokens earned by a Flat Out and spent securing dice (:class:`TokenKind`)
    gained: int = 0
    spent: int = 0
    damage: list[str] = field(default_factory=list)
    #: Shortcut sides drawn (CORE-SHORTCUT-05)
    tokens: list[str] = field(default_factory=list)
    finished: bool = False
    retired: bool = False
    #: the turn as played: the copy the referee completed (faces, tokens, cards, damage drawn)
    turn: "Turn | None" = field(default=None, repr=False, compare=False)
    # the rule IDs worked out so far, and the steps still to apply to them (:attr:`applied`)
    _applied: tuple[str, ...] = field(default=(), repr=False, compare=False)
    _pending: tuple[Callable[[tuple[str, ...]], tuple[str, ...]], ...] = field(default=(), repr=False,
                                                                                compare=False)

    def move_text(self) -> str:
        """The move in a few words, the start of the text replay's line: who, from where to where, how, and the
        gear at the end (or where it stood blocked)."""
        if self.blocked:
            return f"{self.player}: blocked on {self.end}, Gear {self.gear}"
        return (f"{self.player}: {self.start} -> {self.end} ({len(self.path)} spaces, "
                f"{'flat out' if self.flat_out else 'one by one'}), Gear {self.gear}")

    @property
    def applied(self) -> tuple[str, ...]:
        """The rule IDs this turn applied, in the order of the turn (:mod:`rallyc.rules.applied`).

        Worked out on first read, not while the turn is played: a replay without ``--explain`` (and without
        trace observers) never needs them. What they depend on is taken when the turn is resolved."""
        if self._pending:
            ids = self._applied
            for step in self._pending:
                ids = step(ids)
            self._applied, self._pending = ids, ()
        return self._applied

    @applied.setter
    def applied(self, ids: tuple[str, ...]) -> None:
        self._applied, self._pending = tuple(ids), ()

    def then_applied(self, step: Callable[[tuple[str, ...]], tuple[str, ...]]) -> None:
        """Change the rule IDs when they are read: ``step`` maps them to the new ones (added, reordered)."""
        self._pending += (step,)

    def add_applied(self, ids: tuple[str, ...]) -> None:
        """Add ``ids`` after the rule IDs (when they are read)."""
        if ids:
            self._pending += (lambda got: got + ids,)
