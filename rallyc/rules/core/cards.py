"""The game's Time cards: the seconds printed on each gear's deck, the "0" side and the Spare Tire card.

The seconds are printed only on the cards (Ambiguity 45). A game declares them once, for every player alike
(the record's ``cards`` header, format ``rallyc-game/2``), defaulting to the named assumptions of
``components.toml``; every card a player takes must match the table (CORE-TURNEND-04), so a record cannot
turn a Gear 3 card from 30 s into 0 s.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping

from rallyc.data.components import Components
from rallyc.rules.core.errors import IllegalMove

if TYPE_CHECKING:  # pragma: no cover
    from rallyc.rules.core.state import Card

__all__ = ["CardTable", "CardTableError", "GEARS"]

#: the gear decks (a Time card per gear, CORE-TURNEND-02)
GEARS = range(1, 7)


class CardTableError(ValueError):
    """A ``cards`` header that cannot be a deck: ``path`` is the JSON path under ``$.cards``."""

    def __init__(self, message: str, path: str) -> None:
        super().__init__(message)
        self.path = path


@dataclass(frozen=True)
class CardTable:
    """Seconds of the Time cards in play: per gear the values the deck holds (one, or several if the deck mixes
    them), the "0" side of a Loss of Control (CORE-LOC-04), the SISU side (CORE-LOC-10) and the Spare Tire
    card's "0" side (CORE-SPARE-03)."""

    gears: Mapping[int, tuple[int, ...]]
    zero: int
    sisu: int
    spare_tire: int
    #: the front-side cards taken so far in games with this table, by gear and seconds claimed (None: unstated),
    #: each checked against its deck (:meth:`gear_card`) when first taken: the End of the Turn's table of cards
    taken: dict[tuple[int, int | None], "Card"] = field(default_factory=dict, init=False, repr=False, compare=False,
                                                        hash=False)

    @classmethod
    def from_components(cls, comp: Components) -> "CardTable":
        """The named assumptions (``time_card_seconds``, ``zero_side_seconds``, ``sisu_side_seconds``,
        ``spare_tire_seconds``)."""
        return cls({g: (comp.time_card_seconds(g),) for g in GEARS}, int(comp.assumption("zero_side_seconds")),
                   int(comp.assumption("sisu_side_seconds")), int(comp.assumption("spare_tire_seconds")))

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None, comp: Components) -> "CardTable":
        """A record's ``cards`` header over the defaults: ``{"gears": {"3": 30 or [30, 35]}, "zero": 60,
        "sisu": 20, "spare_tire": 60}``, every key optional. Raise :class:`CardTableError`."""
        base = cls.from_components(comp)
        if not data:
            return base
        gears = dict(base.gears)
        for key, value in dict(data.get("gears", {})).items():
            if not key.isdigit() or int(key) not in GEARS:
                raise CardTableError(f"the Time-card decks are Gear 1 to 6, not {key!r}", f"$.cards.gears.{key}")
            values = tuple(value) if isinstance(value, list) else (value,)
            if not values or any(not isinstance(v, int) or isinstance(v, bool) or v < 0 for v in values):
                raise CardTableError("a deck's seconds are whole numbers of 0 or more", f"$.cards.gears.{key}")
            gears[int(key)] = tuple(sorted(set(values)))
        out = cls(gears, int(data.get("zero", base.zero)), int(data.get("sisu", base.sisu)),
                  int(data.get("spare_tire", base.spare_tire)))
        given = dict(data.get("gears", {}))
        _check_decks(out.gears, given)
        slowest = max(max(v) for v in out.gears.values())
        if out.zero <= slowest:
            raise CardTableError(f"a \"0\" side adds more seconds than any gear card (CORE-LOC-04), not {out.zero} s",
                                 "$.cards.zero")
        if out.spare_tire <= slowest:
            raise CardTableError(f"the Spare Tire card is turned to its \"0\" gear side (CORE-SPARE-03): it adds more "
                                 f"seconds than any gear card ({slowest} s), not {out.spare_tire} s", "$.cards.spare_tire")
        if out.sisu >= out.zero:
            raise CardTableError(f"a SISU card loses little time (CORE-LOC-10): fewer seconds than a \"0\" side "
                                 f"({out.zero} s), not {out.sisu} s", "$.cards.sisu")
        return out

    def to_json(self) -> dict[str, Any]:
        """The header form (a deck with one value as a number)."""
        return {"gears": {str(g): (v[0] if len(v) == 1 else list(v)) for g, v in sorted(self.gears.items())},
                "zero": self.zero, "sisu": self.sisu, "spare_tire": self.spare_tire}

    def gear_card(self, gear: int, claimed: int | None, path: str = "card.seconds") -> int:
        """The seconds of a Gear ``gear`` card taken, checked against the deck (CORE-TURNEND-04); a deck mixing
        values needs the record to say which card was drawn."""
        deck = self.gears[gear]
        if claimed is None:
            if len(deck) > 1:
                raise IllegalMove("CORE-TURNEND-04", f"the Gear {gear} deck of this game holds cards of "
                                                     f"{_seconds(deck)}: record which (`card.seconds`)", path)
            return deck[0]
        if claimed not in deck:
            raise IllegalMove("CORE-TURNEND-04", f"a Gear {gear} card of this game adds {_seconds(deck)}, not "
                                                 f"{claimed} s (the game's card table)", path)
        return claimed

    def zero_side(self, icon: str, claimed: int | None, path: str = "card.zero.seconds") -> int:
        """The seconds of a "0" side (a SISU side has its own value), checked against the table (CORE-LOC-04)."""
        value = self.sisu if icon == "sisu" else self.zero
        if claimed is not None and claimed != value:
            rule = "CORE-LOC-10" if icon == "sisu" else "CORE-LOC-04"
            raise IllegalMove(rule, f"a {icon} \"0\" side of this game adds {value} s, not {claimed} s "
                                    f"(the game's card table)", path)
        return value

    def spare_tire_card(self, claimed: int | None, path: str = "card.seconds") -> int:
        """The seconds of the Spare Tire card's "0" side (CORE-SPARE-03), checked against the table."""
        if claimed is not None and claimed != self.spare_tire:
            raise IllegalMove("CORE-SPARE-03", f"the Spare Tire card of this game adds {self.spare_tire} s, not "
                                               f"{claimed} s (the game's card table)", path)
        return self.spare_tire


def _check_decks(gears: Mapping[int, tuple[int, ...]], given: Mapping[str, Any]) -> None:
    """Higher gears add fewer seconds (CORE-TURNEND-04): every card of a deck adds fewer seconds than every card of
    the deck of the gear below. The error points at the deck the record declared (the higher one when it declared
    both)."""
    for gear in GEARS:
        if gear == 1:
            continue
        lower, higher = gears[gear - 1], gears[gear]
        if max(higher) >= min(lower):
            key = str(gear) if str(gear) in given else str(gear - 1)
            raise CardTableError(f"higher gears add fewer seconds (CORE-TURNEND-04): a Gear {gear} card adds "
                                 f"{_seconds(higher)}, a Gear {gear - 1} card {_seconds(lower)}",
                                 f"$.cards.gears.{key}")


def _seconds(deck: tuple[int, ...]) -> str:
    return " or ".join(f"{v} s" for v in deck)
