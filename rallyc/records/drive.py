"""The one replay driver: a record's turns fed to the referee in order, each outcome kept in the report.

Every game form is replayed by :func:`play_turns`: a rally's stages and an RX or custom race
(:mod:`rallyc.records.replay`), and so each event of an Auto Tour (:mod:`rallyc.records.tour`). The
driver checks no rule: the referee (:meth:`~rallyc.rules.core.engine.TurnEngine.play`) refuses a turn, a turn after
the end of the game, or a claim, naming the rule; the driver puts the turn's place in the record in front of the
refusal's path, and asks the referee whether play may stop after the last turn
(:meth:`~rallyc.rules.core.engine.TurnEngine.check_stopped`). What differs between the forms is data
(:class:`GameForm`): the tokens a turn's claims count and how a round and a turn read in the report.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from rallyc.records.convert import turn_from_json
from rallyc.rules.core.engine import TokenKind, TurnEngine
from rallyc.rules.core.errors import IllegalMove

__all__ = ["GameForm", "play_turns"]


@dataclass(frozen=True)
class GameForm:
    """How a game form's turns read in a record and in the report."""

    #: the tokens a turn claims gained and spent (a stage's Second tokens, a race's Focus tokens)
    tokens: TokenKind
    #: a round's entry in the report, its turns' list given: ``{"round": ..., "order": ..., "turns": turns}``
    round_entry: Callable[[Any, list[Any]], dict[str, Any]]
    #: a turn's outcome as the report's turn object (``explain``: with its rule IDs)
    outcome_json: Callable[[Any, bool], dict[str, Any]]


def play_turns(game: TurnEngine[Any], turns_json: list[Any], path: str, rounds: list[dict[str, Any]], form: GameForm,
               explain: bool) -> None:
    """Every recorded turn (``turns_json``, at ``path`` in the record) played by ``game``, each outcome added to
    its round in ``rounds``; :class:`IllegalMove` at the first turn the referee refuses, or at ``path`` when the
    record stops before the game's end."""
    rnd = None  # the round of the turns being added (``turns``: the report's list of them)
    turns: list[dict[str, Any]] = []
    play, tokens, outcome_json = game.play, form.tokens, form.outcome_json  # (bound once: looked up every turn)
    for ti, tj in enumerate(turns_json):
        if game.round != rnd:  # rounds only go forward: a new round's first turn
            rnd = game.round
            turns = []
            rounds.append(form.round_entry(game, turns))
        try:
            out = play(turn_from_json(tj, tokens))
        except IllegalMove as e:
            raise e.at(f"{path}[{ti}]")  # the path only when needed: not built for every turn
        turns.append(outcome_json(out, explain))
    try:
        game.check_stopped()
    except IllegalMove as e:
        raise e.at(path)
