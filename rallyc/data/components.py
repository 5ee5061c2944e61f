"""Read ``components.toml`` (the bundled numbers) and merge a user's ``--rules`` file over it.

Every number the rules need comes from here: Warning faces per die, Dashboard columns, the damage bag,
and the named assumptions (Time-card seconds...) and readings (interpretations of ambiguous rules).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["Components", "ComponentsError", "load_components", "DEFAULT_PATH"]

DEFAULT_PATH = Path(__file__).resolve().parent / "components.toml"


class ComponentsError(Exception):
    """A rules file that cannot be read or does not fit the expected shape."""


@dataclass(frozen=True)
class Column:
    """One Dashboard column: dice allowed per turn and the Warning limit."""

    gear: int
    coast: int
    leader: int
    brake: int
    warnings: int
    #: Boost dice per turn (R5, MC-BOOST)
    boost: int = 0


@dataclass(frozen=True)
class DashboardData:
    name: str
    car: str
    tires: str
    top_gear: int
    columns: dict[str, Column]


@dataclass
class Components:
    """All component numbers, assumptions and readings in force for one game."""

    raw: dict[str, Any]
    warning_faces: dict[str, int] = field(default_factory=dict)
    dashboards: dict[str, DashboardData] = field(default_factory=dict)
    damage_bag: dict[str, int] = field(default_factory=dict)

    # -- assumptions and readings
    def assumption(self, name: str) -> Any:
        """The value of a named assumption (KeyError if unknown)."""
        return self.raw["assumptions"][name]["value"]

    def reading(self, name: str) -> Any:
        """The chosen value of a named reading (KeyError if unknown)."""
        return self.raw["readings"][name]["value"]

    def time_card_seconds(self, gear: int) -> int:
        """Seconds printed on the front of a Time card of this gear (an assumption unless a record says)."""
        return int(self.assumption("time_card_seconds")[str(gear)])

    def soft_wear_limit(self, turns: int) -> int | None:
        """The Warning limit of the Wear marker after ``turns`` turns on soft tires (None once removed, MC-SOFT-04/06)."""
        limits = self.raw.get("soft_tires", {}).get("wear_limits", [])
        return int(limits[turns]) if 0 <= turns < len(limits) else None

    def dashboard(self, car: str, tires: str) -> DashboardData:
        key = f"{car}-{tires}"
        try:
            return self.dashboards[key]
        except KeyError:
            raise ComponentsError(f"no Dashboard for car {car!r} with {tires!r} tires "
                                  f"(known: {', '.join(sorted(self.dashboards))})") from None


def _merge(base: dict, over: dict, where: str = "") -> dict:
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value, f"{where}{key}.")
        else:
            out[key] = value
    return out


def _check_readings(raw: dict) -> None:
    for name, entry in raw.get("readings", {}).items():
        choices = entry.get("choices")
        if choices is not None and entry.get("value") not in choices:
            raise ComponentsError(f"readings.{name}: {entry.get('value')!r} is not one of {choices}")


def _build(raw: dict) -> Components:
    comp = Components(raw=raw)
    try:
        for name, die in raw["dice"].items():
            comp.warning_faces[name] = int(die["warning_faces"])
        for name, dash in raw["dashboards"].items():
            cols = {c: Column(int(v.get("gear", 0)), int(v.get("coast", 0)), int(v.get("leader", 0)),
                              int(v.get("brake", 0)), int(v["warnings"]), int(v.get("boost", 0)))
                    for c, v in dash["columns"].items()}
            comp.dashboards[name] = DashboardData(name, dash["car"], dash["tires"], int(dash["top_gear"]), cols)
        _derive_car_dashboards(comp, raw.get("cars", {}))
        comp.damage_bag = {k: int(v) for k, v in raw["damage_bag"].items() if isinstance(v, int) and v > 0}
        for name in ("time_card_seconds", "zero_side_seconds", "sisu_side_seconds", "spare_tire_seconds",
                     "soft_wear_surfaces"):
            comp.assumption(name)
    except (KeyError, TypeError, ValueError) as exc:
        raise ComponentsError(f"rules data is missing or has a bad value: {exc}") from None
    _check_readings(raw)
    return comp


def _derive_car_dashboards(comp: Components, cars: dict) -> None:
    """R4/R5 Dashboards not written in the data: the R6 one of the same tires, changed as assumption
    ``car_dashboards`` says (Gear dice capped at the top gear, R4 +1 Coast/Leader, R5 Boost dice)."""
    base = [d for d in comp.dashboards.values() if d.car == "r6"]
    for car, spec in cars.items():
        if car == "r6":
            continue
        top = int(spec["top_gear"])
        extra = int(spec.get("extra_coast", 0))
        boost = int(spec.get("boost", 0))
        for d in base:
            name = f"{car}-{d.tires}"
            if name in comp.dashboards:
                continue
            cols = {c: Column(min(col.gear, top), col.coast + (extra if col.coast else 0),
                              col.leader + (extra if col.leader else 0), col.brake, col.warnings, col.boost + boost)
                    for c, col in d.columns.items()}
            comp.dashboards[name] = DashboardData(name, car, d.tires, top, cols)


_DEFAULT_RAW: dict | None = None


def _default_raw() -> dict:
    global _DEFAULT_RAW
    if _DEFAULT_RAW is None:
        with DEFAULT_PATH.open("rb") as f:
            _DEFAULT_RAW = tomllib.load(f)
    return _DEFAULT_RAW


def load_components(user_file: str | Path | None = None, overrides: dict | None = None) -> Components:
    """The bundled numbers, with ``user_file`` (a TOML file of the same shape) and ``overrides`` merged over."""
    raw = _default_raw()
    if user_file is not None:
        path = Path(user_file)
        try:
            with path.open("rb") as f:
                user = tomllib.load(f)
        except OSError as exc:
            raise ComponentsError(f"{path}: cannot read: {exc.strerror}") from None
        except tomllib.TOMLDecodeError as exc:
            raise ComponentsError(f"{path}: {exc}") from None
        for key in user:
            if key not in raw:
                raise ComponentsError(f"{path}: unknown section {key!r} (known: {', '.join(sorted(raw))})")
        for section in ("assumptions", "readings"):
            for name in user.get(section, {}):
                if name not in raw.get(section, {}):
                    raise ComponentsError(f"{path}: unknown {section[:-1]} {name!r}")
        raw = _merge(raw, user)
    if overrides:
        raw = _merge(raw, overrides)
    return _build(raw)
