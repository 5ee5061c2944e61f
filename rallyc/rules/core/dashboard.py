"""Dashboards: which column is in force and how many dice of each type a car may use.

With the Monte-Carlo surfaces each die is checked against the column of the surface of the space it
is laid on (MC-DICE-01/02): :func:`allowances` gives one :class:`Allowance` per surface.
"""

from __future__ import annotations

from dataclasses import dataclass

from rallyc.data.components import Column, DashboardData
from rallyc.rules.core.dice import DieKind

__all__ = ["Allowance", "SURFACES", "column_name", "allowance", "allowances"]

#: road surfaces (MC-TIRE-01)
SURFACES = ("gravel", "asphalt", "snow")


def column_name(surface: str, leader: bool) -> str:
    """The Dashboard column for a surface; the Gravel (leader) column only for the leader on gravel (CORE-DICE-03)."""
    if surface == "gravel" and leader:
        return "gravel-leader"
    return surface if surface in SURFACES else "gravel"


@dataclass(frozen=True)
class Allowance:
    """Dice a car may use in one turn after damage, in one column (CORE-DICE-04, CORE-DAMAGE-02..05)."""

    gear: int
    coast: int
    brake: int
    warnings: int
    #: the counts before damage, to tell "not on the Dashboard" from "lost to damage"
    printed: Column
    #: die used for coasting in this column: ``coast`` or ``leader`` (CORE-DICE-15, MC-DICE-04)
    coast_die: DieKind
    #: Boost dice (R5, MC-BOOST)
    boost: int = 0
    #: the column's name (``gravel``, ``gravel-leader``, ``asphalt``, ``snow``)
    column: str = "gravel"


def allowance(dash: DashboardData, surface: str, leader: bool, one_shot: bool,
              damage: dict[str, int]) -> Allowance:
    """The dice allowed on ``surface`` (damage never takes a count below 0)."""
    name = column_name(surface, leader)
    col = dash.columns.get(name) or dash.columns["gravel"]
    coast_total = col.coast + col.leader
    coast_die = DieKind.LEADER if col.leader and not col.coast else DieKind.COAST
    if one_shot and name == "gravel-leader":
        coast_die = DieKind.COAST  # CORE-ADV-16: the Leader column's dice become normal Coast dice
    return Allowance(
        gear=max(0, col.gear - damage.get("gear", 0)),
        coast=max(0, coast_total - damage.get("coast", 0)),
        brake=max(0, col.brake - damage.get("brake", 0)),
        warnings=col.warnings,
        printed=col,
        coast_die=coast_die,
        boost=max(0, col.boost - damage.get("boost", 0)),
        column=name,
    )


def allowances(dash: DashboardData, leader: bool, one_shot: bool, damage: dict[str, int]) -> dict[str, Allowance]:
    """One :class:`Allowance` per surface (MC-DICE-01): the column a die laid on that surface must respect."""
    return {s: allowance(dash, s, leader, one_shot, damage) for s in SURFACES}
