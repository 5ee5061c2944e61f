"""``rallyc replay --explain``: the rule IDs each outcome applied, turn by turn.

The referee puts the rule IDs a resolved turn applied on its outcome (``Outcome.applied``,
``RxOutcome.applied``); the replay keeps them in each turn's entry under ``applied``, and the rules the game applied
outside its turns (its setup, a custom race's or a tour's choices, the end of each stage, a tour's sheet: the
game log, :func:`rallyc.rules.core.trace.game_log`) in the report's own ``applied``. They are printed (text) or kept
(JSON) only with ``--explain``, so the default outputs stay as they were.
"""

from __future__ import annotations

from typing import Any

__all__ = ["applied_of", "rules_line", "without_applied", "game_rules_line", "once"]


def once(ids: list[str]) -> list[str]:
    """``ids`` in their order, each once."""
    return list(dict.fromkeys(ids))


def game_rules_line(applied: list[str]) -> str:
    """``Rules of the game: CUSTOM-01, ...``: what the game applied outside its turns."""
    return "Rules of the game: " + (", ".join(applied) if applied else "(none reported)")


def applied_of(outcome: object) -> list[str]:
    """The rule IDs an outcome applied, in the order the referee applied them (empty if it reports none)."""
    return list(getattr(outcome, "applied", ()) or ())


def rules_line(turn: dict[str, Any], indent: str = "      ") -> str:
    """``      rules: CORE-DICE-08, CORE-JUMP-04`` for a turn's entry."""
    applied = turn.get("applied") or []
    return f"{indent}rules: " + (", ".join(applied) if applied else "(none reported)")


def without_applied(rounds: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rounds with each turn's ``applied`` left out (the output without ``--explain``)."""
    return [dict(rnd, turns=[{k: v for k, v in t.items() if k != "applied"} for t in rnd["turns"]])
            for rnd in rounds]
