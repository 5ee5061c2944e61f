"""What a turn did (:class:`TurnOutcome`), whatever the game form: the record of a resolved turn that the
referee's variants extend with their own fields."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from rallyc.rules.core.turn import LossOfControl, Turn

__all__ = ["TurnOutcome"]


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
    #: the turn's rule log: the rule IDs recorded by the code that applied them, in the order of the turn
    #: (:class:`~rallyc.rules.core.rulelog.RuleLog`, then what the commit applied); an ID may be recorded twice
    rules: list[str] = field(default_factory=list, repr=False, compare=False)

    def move_text(self) -> str:
        """The move in a few words, the start of the text replay's line: who, from where to where, how, and the
        gear at the end (or where it stood blocked)."""
        if self.blocked:
            return f"{self.player}: blocked on {self.end}, Gear {self.gear}"
        return (f"{self.player}: {self.start} -> {self.end} ({len(self.path)} spaces, "
                f"{'flat out' if self.flat_out else 'one by one'}), Gear {self.gear}")

    @property
    def applied(self) -> tuple[str, ...]:
        """The rule IDs this turn applied, in the order of the turn, each once (read off :attr:`rules`)."""
        return tuple(dict.fromkeys(self.rules))
