"""Component data (dice, dashboards, time cards, damage bag) and the loader that merges user overrides."""

from rallyc.data.components import Components, ComponentsError, load_components

__all__ = ["Components", "ComponentsError", "load_components"]
