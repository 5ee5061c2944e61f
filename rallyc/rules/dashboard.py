"""Dashboards: which column is in force and how many dice of each type a car may use this turn."""

from __future__ import annotations

from dataclasses import dataclass

from rallyc.data.components import Column, DashboardData

__all__ = ["Allowance", "column_name", "allowance"]


def column_name(surface: str, leader: bool) -> str:
    """The Dashboard column for a surface; the Gravel (leader) column only for the leader on gravel (CORE-DICE-03)."""
    if surface == "gravel" and leader:
        return "gravel-leader"
    return surface if surface in ("gravel", "asphalt", "snow") else "gravel"


@dataclass(frozen=True)
class Allowance:
    """Dice a car may use in one turn after damage (CORE-DICE-04, CORE-DAMAGE-02..05)."""

    gear: int
    coast: int
    brake: int
    warnings: int
    #: the counts before damage, to tell "not on the Dashboard" from "lost to damage"
    printed: Column
    #: die used for coasting this turn: ``coast`` or ``leader`` (CORE-DICE-15)
    coast_die: str


def allowance(dash: DashboardData, surface: str, leader: bool, one_shot: bool,
              damage: dict[str, int]) -> Allowance:
    """The dice allowed in a turn that starts on ``surface`` (damage never takes a count below 0)."""
    col = dash.columns.get(column_name(surface, leader)) or dash.columns["gravel"]
    coast_total = col.coast + col.leader
    coast_die = "leader" if col.leader and not col.coast else "coast"
    if one_shot and coast_die == "leader":
        coast_die = "coast"  # CORE-ADV-16: the Leader column's dice become normal Coast dice
    return Allowance(
        gear=max(0, col.gear - damage.get("gear", 0)),
        coast=max(0, coast_total - damage.get("coast", 0)),
        brake=max(0, col.brake - damage.get("brake", 0)),
        warnings=col.warnings,
        printed=col,
        coast_die=coast_die,
    )
