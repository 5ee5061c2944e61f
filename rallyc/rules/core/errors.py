"""Exceptions of the rules interpreter.

Every illegal event names the rule it breaks (an ID of ``shared/rules/INVENTORY.md``), says what was
expected, and carries a ``path``: where in the turn (or the record) the offending value is, as a JSON
path fragment such as ``dice[2].to``.
"""

from __future__ import annotations

from rallyc.rules.core.trace import report

__all__ = ["RulesError", "IllegalMove", "StageOver"]


class RulesError(Exception):
    """Base class of the interpreter's errors."""


class IllegalMove(RulesError):
    """A decision or a claimed outcome that the rules do not allow.

    ``rule_id`` names the rule (e.g. ``CORE-DICE-09``); ``path`` locates the value inside the turn
    (``dice[1].die``) or, once the replay has prefixed it, inside the record (``$.stages[0].turns[4].dice[1].die``).
    """

    def __init__(self, rule_id: str, message: str, path: str = "") -> None:
        super().__init__(f"{rule_id}: {message}")
        report((rule_id,))
        self.rule_id = rule_id
        self.message = message
        self.path = path

    def at(self, prefix: str) -> "IllegalMove":
        """The same error with ``prefix`` put in front of its path."""
        if not self.path:
            path = prefix
        elif self.path.startswith("["):
            path = prefix + self.path
        else:
            path = f"{prefix}.{self.path}"
        return IllegalMove(self.rule_id, self.message, path)

    def kept(self) -> "IllegalMove":
        """This error as a report keeps it, once caught: without its traceback nor the exception it was raised
        while handling. Those hold the frames that raised it, the catcher's own among them, whose locals hold the
        report that now holds the error: a reference cycle, with the whole game state in it, that only the cyclic
        garbage collector would free."""
        self.__context__ = None
        return self.with_traceback(None)

    def __repr__(self) -> str:
        return f"IllegalMove({self.rule_id!r}, {self.message!r}, {self.path!r})"


class StageOver(IllegalMove):
    """A turn was played after every car finished or retired: ``rule_id`` names the game form's rule
    (CORE-ORDER-09 in a stage, RX-END-04 in a race)."""

    def __init__(self, message: str, rule_id: str = "CORE-ORDER-09", path: str = "") -> None:
        super().__init__(rule_id, message, path)
