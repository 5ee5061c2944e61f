"""Who listens to the rule IDs the referee reports (applied or refused), and the game's rule log.

Nothing listens in normal use (tests register observers). The rules a game applies outside its turns (its setup, a custom race's or a
tour's choices, the end of a stage, a tour's score sheet) are recorded with :func:`applied` by the code that
applies them, into the game logs open (:func:`game_log`: a replay opens one, ``replay --explain`` prints it); a
turn's rules are in the turn's own log (:class:`~rallyc.rules.core.rulelog.RuleLog`). This module imports nothing, so
every part of the referee can report.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Callable, Iterable, Iterator

__all__ = ["observe", "unobserve", "observing", "report", "applied", "game_log"]

_OBSERVERS: list[Callable[[tuple[str, ...]], None]] = []
#: the game logs open (:func:`game_log`), innermost last
_GAMES: list[list[str]] = []


def observe(callback: Callable[[tuple[str, ...]], None]) -> None:
    """Call ``callback`` with the rule IDs of every outcome and refusal from now on."""
    _OBSERVERS.append(callback)


def unobserve(callback: Callable[[tuple[str, ...]], None]) -> None:
    """Stop calling ``callback``."""
    if callback in _OBSERVERS:
        _OBSERVERS.remove(callback)


def observing() -> bool:
    """Someone listens (the referee need not work out rule IDs nobody reads)."""
    return bool(_OBSERVERS)


def report(ids: Iterable[str]) -> None:
    """Hand rule IDs the referee applied or refused to the observers (nothing to do when there are none)."""
    if _OBSERVERS:
        batch = tuple(ids)
        for cb in list(_OBSERVERS):
            cb(batch)


def applied(ids: tuple[str, ...]) -> None:
    """Record rule IDs a game applied outside its turns into every game log open, and report them to the observers."""
    for log in _GAMES:
        log += ids
    report(ids)


@contextmanager
def game_log() -> Iterator[list[str]]:
    """A game log open while the block runs: the rule IDs :func:`applied` records meanwhile (repeats kept)."""
    log: list[str] = []
    _GAMES.append(log)
    try:
        yield log
    finally:
        _GAMES.remove(log)
