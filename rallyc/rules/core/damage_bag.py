"""The Damage bag's tokens of each kind (CORE-SETUP-02/03, RX-SETUP-02, CUSTOM-18/19/22): the bag holds a fixed
number of each kind, and a token drawn stays out of it until the rules put it back (Assistance, a Spare Tire's
Coast/Leader token, CORE-SPARE-04).

What is out is what the game shows: the Damage tokens on the Dashboards, the Yellow Flags drawn, the Weather tokens
drawn (:meth:`damage_out` of each game form). Reading ``shortcut_token_kind``: a token drawn at a Shortcut is read on
its Shortcut side (CORE-SETUP-04), its Damage side unseen; a Shortcut "coast" token placed as Coast Damage counts
against the bag's total (``bag_left``), not against the Coast/Leader tokens, so that it never refuses a Coast draw
the bag still allows.

A draw of ``n`` tokens in a race (:func:`draw`, :func:`count_draw`: a Loss of Control's, RX-LOC-04; an impact's or a
Push Through's, RX-IMPACT-01, RX-THROUGH-07/08) is one rule, written here once. Tokens are drawn one at a time. Under
the RX Weather rule "if a Weather token is drawn from the Damage bag for whatever reason, the weather changes"
(RX-WEATHER-04): the first one counts as one of the ``n``; "any further Weather tokens drawn during the race are
ignored. Discard them and draw another token to replace them" (RX-WEATHER-07): a later one leaves the bag and does not
count. The rulebooks do not say what happens when the bag runs out; the referee's reading (``empty_bag`` in
``components.toml``): the draw stops when the bag is empty, so a player draws fewer than ``n`` only when the bag held
no more, the discarded Weather tokens included.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Protocol

from rallyc.rules.core.errors import IllegalMove
from rallyc.rules.core.state import WEATHER

__all__ = ["tokens_left", "check_drawn", "on_dashboards", "Draw", "draw", "count_draw", "check_count"]


class _Drawer(Protocol):
    def damage(self, n: int) -> list[str]: ...


@dataclass(frozen=True)
class Draw:
    """A draw of Damage tokens as the record lists them, counted (:func:`count_draw`)."""

    #: the tokens that count as the draw's, in order (a Weather token that turns the weather among them)
    counted: list[str]
    #: the Weather tokens drawn (the one that counts and those discarded, RX-WEATHER-07): all out of the bag
    weather: int
    #: a Weather token of this draw turns the weather (RX-WEATHER-04)
    turns_weather: bool
    #: tokens listed after the draw was complete (the ``n``-th counted token)
    extra: int


def draw(driver: _Drawer, n: int, left: int, weather_open: bool) -> list[str]:
    """The tokens ``driver`` draws for a draw of ``n`` from a bag holding ``left``: one at a time until ``n`` count or
    the bag is empty; a Weather token counts only while ``weather_open`` (the first of the race, RX-WEATHER-07)."""
    out: list[str] = []
    counted = 0
    while counted < n and len(out) < left:
        token = driver.damage(1)[0]
        out.append(token)
        if token == WEATHER:
            if not weather_open:
                continue  # discarded, another drawn in its place
            weather_open = False
        counted += 1
    return out


def count_draw(drawn: list[str], n: int, weather_open: bool) -> Draw:
    """The record's tokens ``drawn`` for a draw of ``n``, counted as :func:`draw` draws them."""
    counted: list[str] = []
    weather, turns = 0, False
    for i, token in enumerate(drawn):
        if len(counted) == n:  # the draw is complete: what follows was not drawn
            return Draw(counted, weather, turns, len(drawn) - i)
        if token == WEATHER:
            weather += 1
            if not weather_open:
                continue  # RX-WEATHER-07: discarded, another drawn in its place
            weather_open, turns = False, True
        counted.append(token)
    return Draw(counted, weather, turns, 0)


def check_count(d: Draw, drawn: list[str], n: int, left: int, rule: str, claim: str, path: str) -> None:
    """Refuse a draw of ``n`` from a bag holding ``left`` whose tokens do not count ``n`` (fewer only when the bag
    ran out), or that lists more tokens than the bag holds (RX-SETUP-02). ``claim``: what should be drawn, in words
    (the refusal goes on ", not <counted>")."""
    ran_out = len(drawn) == left
    if d.extra or (len(d.counted) != n and not (len(d.counted) < n and ran_out)):
        got = len(d.counted) + d.extra
        raise IllegalMove(rule, f"{claim}, not {got}" + (" (a Weather token after the first is replaced, "
                                                         "RX-WEATHER-07)" if WEATHER in drawn else ""), path)
    if len(drawn) > left:
        raise IllegalMove("RX-SETUP-02", f"the Damage bag holds {left} token(s)", path)


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
