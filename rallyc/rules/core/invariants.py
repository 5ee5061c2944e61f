"""Invariants of a game, checked after every turn when asked (``rallyc replay --check-invariants``, the slow bot
sweeps): what the rules guarantee whatever the players do, so that a referee bug shows where it happens.

- **One car a space** (CORE-MOVE-02), except two cars sharing a space after a Push Through under Full Contact
  (RX-THROUGH-04/05: at most two), and a car put back on the road where it crashed or changed a tire while another
  car stopped there (a car beside the road impedes no one, CORE-OVERTAKE-08; it is put back on that space at its
  next turn, CORE-LOC-08: reading ``crashed_return`` of ``components.toml``), until it moves off.
- **The Damage bag** never holds fewer than no token (CORE-SETUP-02/03, RX-SETUP-02).
- **Time only adds up**: a car's Time cards are never taken back (CORE-TURNEND-04): the seconds of its cards never
  fall from one turn to the next (a Spare Tire returns no card either).
- **The game ends**: no game is longer than :func:`turn_bound` turns. A car that can move must move at least one
  space a turn (CORE-MOVE-07), and a car that cannot is blocked only by cars that can; the bound allows every car
  ten turns per space of the road (laps included) and a hundred more: far above any game the bots play, far below
  a game that loops.

A broken invariant raises :class:`InvariantBroken` (a :class:`~rallyc.rules.core.errors.RulesError`) naming it, the turn
and the car.
"""

from __future__ import annotations

from collections import Counter
from contextlib import contextmanager
from typing import Any, Iterator

from rallyc.rules.core.errors import RulesError

__all__ = ["InvariantBroken", "checking_invariants", "checking", "check_after_turn", "turn_bound"]

_ACTIVE: list[bool] = []


class InvariantBroken(RulesError):
    """The referee left a game in a state the rules never allow."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(f"invariant {name}: {message}")
        self.name = name


@contextmanager
def checking_invariants() -> Iterator[None]:
    """Check the invariants after every turn played inside this block."""
    _ACTIVE.append(True)
    try:
        yield
    finally:
        _ACTIVE.pop()


def checking() -> bool:
    """Invariants are checked now."""
    return bool(_ACTIVE)


def turn_bound(game: Any) -> int:
    """The most turns a game of this track and these cars may take (module docstring)."""
    laps = max(1, int(getattr(getattr(game, "laps", None), "laps", 0) or 0))
    spaces = len(game.index.spaces)
    return len(game.cars) * (10 * spaces * laps + 100)


def check_after_turn(game: Any, before: dict[str, int]) -> None:
    """The invariants after the turn just played; ``before``: each car's Time-card seconds before it."""
    where = f"after turn {len(game.outcomes)} ({game.outcomes[-1].player})" if game.outcomes else "at the start"
    _one_car_a_space(game, where)
    left = game.bag_left() if hasattr(game, "bag_left") else 0
    if left < 0:
        raise InvariantBroken("bag", f"{where}: the Damage bag holds {left} tokens")
    for name, seconds in card_seconds(game).items():
        if seconds < before.get(name, 0):
            raise InvariantBroken("time", f"{where}: {name}'s Time cards fell from {before[name]} s to {seconds} s")
    if len(game.outcomes) > turn_bound(game):
        raise InvariantBroken("ends", f"{where}: the game is longer than {turn_bound(game)} turns")


def card_seconds(game: Any) -> dict[str, int]:
    """Each car's Time-card seconds so far (none in a game without Time cards)."""
    return {name: int(getattr(car, "card_seconds", 0) or 0) for name, car in game.cars.items()}


def _one_car_a_space(game: Any, where: str) -> None:
    on_road = Counter(car.space for car in game.cars.values() if car.space and getattr(car, "impedes", True))
    shared = getattr(getattr(game, "options", None), "full_contact", False)
    for space, n in on_road.items():
        if n <= (2 if shared else 1):
            continue
        names = sorted(name for name, car in game.cars.items() if car.space == space and getattr(car, "impedes", True))
        if n == 2 and any(_put_back(game, name, space) for name in names):
            continue
        raise InvariantBroken("space", f"{where}: {n} cars on {space} ({', '.join(names)})")


def _put_back(game: Any, name: str, space: str) -> bool:
    """``name``'s car is back on ``space`` where it crashed or changed a tire (beside the road), and has not moved off
    it since (reading ``crashed_return``)."""
    for out in reversed(game.outcomes):
        if out.player != name:
            continue
        if out.end != space:
            return False
        card = getattr(out, "card", None)
        if getattr(out, "spare_tire", False) or (out.loc is not None and getattr(card, "icon", None) == "crash"):
            return True
        if out.path:  # it moved since
            return False
    return False
