"""Head-to-head race formats played by :class:`~rallyc.rules.core.race.Race`: the RX race and the Ice race.

Both are Head-to-Head races on a closed circuit (CUSTOM-05, ICE-01) with one fixed dice pool on every
surface (Speed Track rules, CUSTOM-08) and Loss-of-Control damage read from the Dashboard (CUSTOM-13). They
differ in the Dashboard (RX or ICE, ICE-03), the Damage bag (the RX bag or the GT set, CUSTOM-18), the
damage table and whether weather changes may be played (ICE-05).
"""

from __future__ import annotations

from dataclasses import dataclass

from rallyc.data.components import Components
from rallyc.model.options import OPTIONS

__all__ = ["RaceFormat", "RX", "ICE", "FORMATS", "damage_set", "DAMAGE_SETS", "custom_format", "CUSTOM_SIDES",
           "standard_bag"]

#: the custom-race Damage sets (CUSTOM-18/19/22): the words of the registry's ``damage-bag``, as
#: ``[custom.damage_bags.NAME]`` of the rules data
DAMAGE_SETS = OPTIONS["damage-bag"].values or ()


def damage_set(components: Components, name: str) -> dict[str, int]:
    """The tokens of a custom-race Damage set: ``dirt`` (CUSTOM-19), ``gt`` (CUSTOM-18) or ``light`` (CUSTOM-22)."""
    if name not in DAMAGE_SETS:
        raise ValueError(f"the Damage set is one of {', '.join(DAMAGE_SETS)}, not {name!r} (CUSTOM-18/19/22)")
    raw = components.raw.get("custom", {}).get("damage_bags", {}).get(name, {})
    return {k: int(v) for k, v in raw.items() if isinstance(v, int) and not isinstance(v, bool) and v > 0}


@dataclass(frozen=True)
class RaceFormat:
    """What one head-to-head format fixes."""

    #: the record's ``race.format`` word
    name: str
    #: the Dashboard's car category (``[dashboards.CAR-SIDE]``); empty: each player's own (a custom race)
    car: str
    #: the Dashboard sides a player may take (the first is the default)
    sides: tuple[str, ...]
    #: the named assumption holding the Loss-of-Control damage table
    loc_table: str
    #: the Damage bag: ``rx`` (the RX box's bag, RX-SETUP-02) or a custom Damage set name
    bag: str
    #: may the RX Weather rule be played?
    weather: bool
    #: must every car share one Dashboard side (ICE-03)?
    same_side: bool
    #: the rule a wrong car category breaks
    car_rule: str

    def bag_contents(self, components: Components) -> dict[str, int]:
        """The Damage bag at the start, without Weather tokens."""
        if self.bag == "rx":
            raw = components.raw.get("rx", {}).get("damage_bag", {})
            return {k: int(v) for k, v in raw.items() if isinstance(v, int) and not isinstance(v, bool) and v > 0}
        return damage_set(components, self.bag)


#: the RX race (RX book): RX Dashboards, the RX Damage bag, the RX Weather rule allowed
RX = RaceFormat("rx", "rx", ("asphalt", "rain"), "rx_loc_damage", "rx", True, False, "RX-SETUP-03")
#: the Ice race (ICE-01..06): ICE Dashboards (one side for all), Speed Track rules so the GT Damage set
#: (CUSTOM-18), no weather changes (ICE-05); no Pit Stops (ICE-06) as no race here repairs
ICE = RaceFormat("ice", "ice", ("standard", "pro"), "ice_loc_damage", "gt", False, True, "ICE-03")

FORMATS = {f.name: f for f in (RX, ICE)}

#: the tires a Rally car may fit in a custom Head-to-Head (its own Dashboard sides, CUSTOM-10)
CUSTOM_SIDES = ("gravel", "asphalt", "snow")


def standard_bag(track_rules: str, has_shortcuts: bool) -> str:
    """The Damage set of a custom race that chose none: "a race with Shortcut tiles must use the DIRT damage set"
    (CUSTOM-21); else GT for Speed Tracks, DIRT for Technical ones (CUSTOM-18/19)."""
    return "gt" if track_rules == "speed" and not has_shortcuts else "dirt"


def custom_format(bag: str) -> RaceFormat:
    """A custom Head-to-Head under Speed Track rules (:class:`rallyc.rules.variants.custom.CustomRace`): each player's own
    Rally Dashboard standing in for the R/GT crossover one (CUSTOM-10, named assumption
    ``custom_crossover_dashboard``: one column, that of the tires fitted, on every surface, CUSTOM-08), the
    Loss-of-Control table read as on the RX Dashboard (CUSTOM-13, assumption ``rx_loc_damage``), the chosen Damage
    set (CUSTOM-18/19/22); no weather changes (the RX Weather rule turns RX Dashboards only)."""
    return RaceFormat("custom", "", CUSTOM_SIDES, "rx_loc_damage", bag, False, False, "CUSTOM-10")
