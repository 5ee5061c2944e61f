"""The options in force for a game (advanced rules, Monte-Carlo Handbrake turn and Weather, and the
options no variant referees yet), named and valued as the registry :mod:`rallyc.model.options` says."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Mapping

from rallyc.model.options import OPTIONS, Chooser, OptionSpec, lookup

__all__ = ["Options", "SISU_ALLOCATIONS", "OptionValue"]

#: an option's value in a record or a design: a switch, a word, or (``laps``, a design's) a number
OptionValue = bool | str | int | None

#: when a used SISU token comes back (CORE-ADV-15)
SISU_ALLOCATIONS = OPTIONS["sisu"].values or ()


@dataclass(frozen=True)
class Options:
    """Switches for the optional rules; all off by default (the core game).

    The registry (:data:`rallyc.model.options.OPTIONS`) declares the options: their names, words, rule IDs and
    descriptions. The fields are written out here rather than built from it so that type checkers know them
    (``Options(full_contact=True)`` is checked by mypy); ``tests/test_options_declared_once.py`` keeps them equal to
    the registry's game options (those of a design's ``options`` line: ``laps`` is the circuit's), under the records'
    spelling, a switch as ``bool`` and a worded option as its word or None. The one exception is ``weather``: the
    referee keeps only whether the Weather rule is played (an RX race's start weather is the race's)."""

    flying_start: bool = False
    redline: bool = False
    checkpoints: bool = False
    sisu: str | None = None
    one_shot: bool = False
    handbrake: bool = False
    weather: bool = False
    full_contact: bool = False
    improvisation: bool = False
    race_type: str | None = None
    track_rules: str | None = None
    repairs: str | None = None
    damage_bag: str | None = None

    def __post_init__(self) -> None:
        for f in fields(self):
            spec = OPTIONS[f.name.replace("_", "-")]
            value = getattr(self, f.name)
            if spec.values is not None and f.type != "bool" and value is not None and value not in spec.values:
                raise ValueError(f"{f.name} must be one of {spec.values} or None, not {value!r}")

    def specs_on(self) -> list[OptionSpec]:
        """The registry's entries of the options switched on, in registry order."""
        on = {f.name for f in fields(self) if getattr(self, f.name) not in (False, None)}
        return [o for o in OPTIONS.values() if o.record_name in on]

    def unrefereed(self) -> list[OptionSpec]:
        """The options switched on that no variant of the referee plays yet."""
        return [o for o in self.specs_on() if not o.refereed]

    def to_dict(self) -> dict[str, bool | str | None]:
        """For a record: every option some variant referees, and the others only when switched on."""
        out: dict[str, bool | str | None] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            spec = OPTIONS[f.name.replace("_", "-")]
            # a design's choices (a custom race's) are written only when set: off, they leave the design's in force
            if (spec.refereed and spec.chooser is not Chooser.DESIGN) or value not in (False, None):
                out[f.name] = value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, OptionValue] | None) -> "Options":
        """From a record's ``options`` or a design's: names in either spelling (``flying-start`` or
        ``flying_start``); a worded option's ``true`` means its first word, ``false`` means off; the
        weather's word (the RX start) only switches the rule on here; ``laps`` (the circuit's) is skipped.
        Unknown names raise ValueError."""
        known = {f.name: f.type for f in fields(cls)}
        # Any: the field a value goes to is known by its name only at run time (__post_init__ checks the words)
        out: dict[str, Any] = {}
        for name, value in dict(data or {}).items():
            spec = lookup(name)
            if spec is not None and not spec.in_options_line:
                continue  # a property of the design (a circuit's laps), checked against it, not a game option
            if spec is None or spec.record_name not in known:
                raise ValueError(f"unknown option {name!r}")
            if known[spec.record_name] == "bool":
                value = value not in (False, None)
            elif value is True:
                value = spec.values[0] if spec.values else value
            elif value is False:
                value = None
            out[spec.record_name] = value
        return cls(**out)
