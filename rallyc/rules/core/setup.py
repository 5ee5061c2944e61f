"""Setup checks shared by every game form: one car per player, one colour per car (CORE-SETUP-06)."""

from __future__ import annotations

from typing import Protocol, Sequence

__all__ = ["player_problem"]


class _Seated(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def colour(self) -> str: ...


def player_problem(players: Sequence[_Seated]) -> tuple[int, str, str] | None:
    """The first player who cannot sit at this table: (index, field, why), or None.

    Names are unique, and so are colours: each player takes the car, Dashboard and cards of one colour
    (CORE-SETUP-06), so two players cannot share one."""
    names: dict[str, int] = {}
    colours: dict[str, int] = {}
    for i, p in enumerate(players):
        if p.name in names:
            return i, "name", "player names must be unique"
        names[p.name] = i
        key = p.colour.casefold()
        if key in colours:
            other = players[colours[key]].name
            return i, "colour", (f"CORE-SETUP-06: each player takes the car of one colour: {p.name} and {other} "
                                 f"both have {p.colour!r}")
        colours[key] = i
    return None
