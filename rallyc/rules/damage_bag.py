"""The Damage bag's tokens of each kind (CORE-SETUP-02/03, RX-SETUP-02, CUSTOM-18/19/22): the bag holds a fixed
number of each kind, and a token drawn stays out of it until the rules put it back (Assistance, a Spare Tire's
Coast/Leader token, CORE-SPARE-04).

What is out is what the game shows: the Damage tokens on the Dashboards, the Yellow Flags drawn, the Weather tokens
drawn (:meth:`damage_out` of each game form). Reading ``shortcut_token_kind``: a token drawn at a Shortcut is read on
its Shortcut side (CORE-SETUP-04), its Damage side unseen; a Shortcut "coast" token placed as Coast Damage counts
against the bag's total (``bag_left``), not against the Coast/Leader tokens, so that it never refuses a Coast draw
the bag still allows.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable, Mapping

from rallyc.rules.errors import IllegalMove

__all__ = ["tokens_left", "check_drawn", "on_dashboards"]


def on_dashboards(cars: Iterable[Any], outcomes: Iterable[Any]) -> Counter[str]:
    """The Damage tokens of each kind on the cars' Dashboards, but a Shortcut's "coast" token (``outcomes``: the turns
    played, whose ``tokens`` are the Shortcut sides drawn), whose Damage side is unseen."""
    out: Counter[str] = Counter()
    for car in cars:
        out.update({kind: n for kind, n in car.damage.items() if n > 0})
    shortcut_coast = sum(o.tokens.count("coast") for o in outcomes)
    out["coast"] = max(0, out["coast"] - shortcut_coast)
    return out


def tokens_left(bag: Mapping[str, int], out: Mapping[str, int]) -> dict[str, int]:
    """The tokens of each kind still in the bag (never below none)."""
    return {kind: max(0, n - out.get(kind, 0)) for kind, n in bag.items()}


def check_drawn(bag: Mapping[str, int], out: Mapping[str, int], drawn: Iterable[str], rule: str,
                path: str = "damage") -> None:
    """Refuse a draw of a kind the bag no longer holds (``drawn``: the Damage sides drawn this turn, in order; the
    refusal names the first token over the count, ``path[i]``)."""
    this_turn: Counter[str] = Counter()
    for i, kind in enumerate(drawn):
        if kind not in bag:
            continue  # the caller refuses a kind the bag never holds, with its own words
        this_turn[kind] += 1
        if out.get(kind, 0) + this_turn[kind] > bag[kind]:
            raise IllegalMove(rule, f"the Damage bag holds {bag[kind]} {kind} token(s) and "
                                    f"{out.get(kind, 0) + this_turn[kind] - 1} are out: no {kind} token is left to "
                                    f"draw", f"{path}[{i}]")
