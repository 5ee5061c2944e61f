"""The RX Dashboard: one fixed dice pool on every surface and the Loss of Control damage table
(RX-DASH-01/03, RX-SETUP-09, RX-LOC-04, RX-DAMAGE-01/02).

The counts are named assumptions of the rules data (``assumptions.rx_dashboard`` describes
``[dashboards.rx-asphalt]``; ``assumptions.rx_loc_damage`` is the table).
"""

from __future__ import annotations

from typing import Mapping

from rallyc.data.components import Components, DashboardData
from rallyc.rules.core.dashboard import Allowance
from rallyc.rules.core.dice import DieKind

__all__ = ["RX_CAR", "rx_dashboard", "rx_allowance", "loc_damage", "rx_bag", "RX_DAMAGE_KINDS"]

#: the car category of the RX box (RX-SETUP-03)
RX_CAR = "rx"
#: Damage sides in the RX bag (RX-SETUP-02): core Damage, Boost Damage and the Yellow Flag
RX_DAMAGE_KINDS = ("gear", "brake", "coast", "green", "boost", "yellow", "weather")


def rx_dashboard(components: Components, tires: str = "asphalt") -> DashboardData:
    """The RX Dashboard for these tires (Asphalt tires, Dry side, without the Weather rule: RX-SETUP-03/04)."""
    return components.dashboard(RX_CAR, tires)


def rx_allowance(dash: DashboardData, damage: Mapping[str, int], weather: str = "dry") -> Allowance:
    """The dice of one RX turn after damage: the same pool on every surface (RX-SETUP-09), from the Dashboard
    side of the weather (RX-DASH-02, RX-WEATHER-04..06); each Damage token removes one die of its type, Boost
    Damage one Boost die (RX-DASH-03, RX-DAMAGE-01/02)."""
    name = weather if weather in dash.columns else next(iter(dash.columns))
    col = dash.columns[name]
    return Allowance(
        gear=max(0, col.gear - damage.get("gear", 0)),
        coast=max(0, col.coast + col.leader - damage.get("coast", 0)),
        brake=max(0, col.brake - damage.get("brake", 0)),
        warnings=col.warnings,
        printed=col,
        coast_die=DieKind.LEADER if col.leader and not col.coast else DieKind.COAST,
        boost=max(0, col.boost - damage.get("boost", 0)),
        column=name,
    )


def loc_damage(components: Components, gear: int, danger: str, table_name: str = "rx_loc_damage") -> int:
    """Damage tokens drawn after a Loss of Control in ``gear`` on a tile of ``danger`` colour (RX-LOC-04), from
    the named assumption's table (``ice_loc_damage`` for ICE Dashboards, CUSTOM-13)."""
    table = components.assumption(table_name)
    row = table.get(danger) or [0] * 6
    return int(row[max(0, min(gear, len(row) - 1))])


def rx_bag(components: Components, weather: bool = False) -> dict[str, int]:
    """The RX Damage bag (RX-SETUP-02), with the 6 Weather tokens under the RX Weather rule (RX-WEATHER-03)."""
    raw = components.raw.get("rx", {}).get("damage_bag", {})
    bag = {k: int(v) for k, v in raw.items() if isinstance(v, int) and v > 0}
    if weather:
        bag["weather"] = int(components.raw.get("weather_tokens", {}).get("count", 6))
    return bag
