"""Who listens to the rule IDs the referee reports (applied or refused).

Nothing listens in normal use; the test suite's rule-coverage hook registers an observer for the session
(``tests/helpers/rule_trace.py``). This module imports nothing, so every part of the referee can report.
"""

from __future__ import annotations

from typing import Callable, Iterable

__all__ = ["observe", "unobserve", "observing", "report"]

_OBSERVERS: list[Callable[[tuple[str, ...]], None]] = []


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
