"""The rule log of a turn: the rule IDs that the code applying each rule records, as it applies it.

A refusal names its rule (:class:`~rallyc.rules.core.errors.IllegalMove`); an accepted turn lists the rules that shaped
it, in the order of the turn, by chapter: the start of the turn (the round's order of play, the car's state, its
Dashboard), the dice laid and the road they took the car along (recorded die by die as the car moves,
:mod:`rallyc.rules.core.rolling`), the roll, then the End of the Turn (the Time card, damage, the Spare Tire, finishing,
or what an RX race's turn ends with) and what the commit does (retiring, Full Contact). A chapter is a plain list
of IDs: recording one is an ``append`` (or ``+=`` of a constant tuple), nothing is worked out for a reader. An ID
may be recorded more than once; :attr:`~rallyc.rules.core.outcome.TurnOutcome.applied` keeps its first place. The IDs
are those of the project's rule inventory (``tests/data/rules/INVENTORY.md``).
"""

from __future__ import annotations

__all__ = ["RuleLog"]


class RuleLog:
    """The rule IDs recorded during one turn, by chapter (one made per turn resolved)."""

    __slots__ = ("head", "dice", "road", "roll", "end")

    def __init__(self) -> None:
        #: the start of the turn: the round's order of play (its first turn), the car's state and Dashboard
        self.head: list[str] = []
        #: the dice that moved the car, and what the road did to it, die by die (set from the movement)
        self.dice: list[str] = []
        self.road: list[str] = []
        #: the roll: one by one or Flat Out, tokens, Warnings
        self.roll: list[str] = []
        #: the End of the Turn
        self.end: list[str] = []

    def ids(self) -> list[str]:
        """Every ID recorded, chapter after chapter (repeats kept)."""
        return [*self.head, *self.dice, *self.road, *self.roll, *self.end]
