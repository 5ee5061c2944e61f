"""The ONE options registry: every optional rule a design or a game may switch on, declared once.

Each :class:`OptionSpec` says:

- its canonical name, the language's hyphenated spelling (``flying-start``); game records spell it
  with underscores (``flying_start``) and that spelling is accepted as an alias when reading;
- the values it takes (``sisu per-rally``) or None for a plain switch, and ``int`` options (``laps``);
- the rule IDs of the rule inventory it switches on;
- who sets it: fixed by the design (a custom race's race type, a circuit's laps), or left to the
  players at the table (advanced rules, weather), in which case a design's choice is only the default
  of its games;
- which referee variants implement it; an option no variant implements is warned about at
  ``rallyc check`` (RC160), never silently accepted.

The language checks (``rallyc check``), the compiled track JSON, the record schema
(``schemas/game.schema.json``) and the referee's ``Options`` all read this module.
This module imports nothing else from rallyc (it is the lowest layer).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, Iterable

__all__ = ["Chooser", "Variant", "OptionSpec", "OPTIONS", "DESIGN_PROPERTIES", "lookup", "canonical",
           "record_name", "unrefereed", "rule_range", "rule_span", "summary", "record_options_schema", "normalize", "in_force", "Conflict"]


class Chooser(str, Enum):
    """Who sets an option: the design (its games may not contradict it) or the players (the design's
    choice is only the default of its games)."""

    DESIGN = "design"
    PLAYERS = "players"


class Variant(str, Enum):
    """The game forms the referee plays (``rallyc replay``)."""

    #: a DIRT stage or rally, Monte-Carlo features included (``rallyc.rules.rally``)
    RALLY = "rally"
    #: an RX race on a circuit (``rallyc.rules.core.race``)
    RX = "rx"
    #: an Ice race (RX book, Ice Racing): a race format on the RX variant
    ICE = "ice"


def rule_range(group: str, first: int, last: int) -> tuple[str, ...]:
    """``rule_range("CORE-ADV", 1, 3)`` -> ``("CORE-ADV-01", "CORE-ADV-02", "CORE-ADV-03")``."""
    return tuple(f"{group}-{n:02d}" for n in range(first, last + 1))


@dataclass(frozen=True)
class OptionSpec:
    """One option, declared once (see the module docstring)."""

    #: canonical name: the language's hyphenated spelling
    name: str
    #: the words it takes; None: a plain switch (or an integer when ``integer`` is set)
    values: tuple[str, ...] | None
    #: may the value be left out (the option then takes its first value)?
    value_optional: bool
    #: one line, in the project's words
    description: str
    #: the rule IDs it switches on (rule inventory)
    rules: tuple[str, ...]
    #: who sets it
    chooser: Chooser
    #: the referee variants that implement it (empty: not refereed yet)
    variants: frozenset[Variant]
    #: the option takes a whole number (``laps 3``) rather than a word
    integer: bool = False
    #: written in a design's ``options`` line (False: a statement of its own, such as ``laps``)
    in_options_line: bool = True

    @property
    def record_name(self) -> str:
        """The spelling game records use (``flying_start``)."""
        return self.name.replace("-", "_")

    @property
    def is_switch(self) -> bool:
        """A plain on/off switch (no value)."""
        return self.values is None and not self.integer

    @property
    def refereed(self) -> bool:
        """Does any referee variant implement it?"""
        return bool(self.variants)

    def record_schema(self) -> dict[str, Any]:
        """The JSON schema of this option's value in a game record's ``options``.

        A switch is a boolean. A worded option is one of its words, or null when it is off; when its word
        may be left out (``options sisu``), ``true`` also switches it on (its first word) and ``false`` off.
        An integer option is a positive integer."""
        if self.integer:
            return {"type": "integer", "minimum": 1, "description": self.description}
        if self.values is None:
            return {"type": "boolean", "description": self.description}
        choices: list[str | bool | None] = [None, *self.values]
        if self.value_optional:
            choices = [False, True, *choices]
        return {"enum": choices, "description": self.description}


_RALLY = frozenset({Variant.RALLY})
_RX = frozenset({Variant.RX})
_RALLY_RX = frozenset({Variant.RALLY, Variant.RX})
_NONE: frozenset[Variant] = frozenset()

#: Every option, by canonical name, in the order the documentation lists them.
OPTIONS: dict[str, OptionSpec] = {o.name: o for o in (
    OptionSpec("sisu", ("per-stage", "per-rally", "assistance"), True,
               "each player has a SISU token to ignore the Warnings of one turn; it comes back every stage, "
               "once per rally, or after Assistance", rule_range("CORE-ADV", 11, 15), Chooser.PLAYERS, _RALLY),
    OptionSpec("flying-start", None, False, "a car in Gear 0 may use the Gear 2 die first",
               rule_range("CORE-ADV", 1, 6) + ("RX-ADV-01",), Chooser.PLAYERS, _RALLY_RX),
    OptionSpec("redline", None, False, "in the highest gear the Brake die may be used as a Coast die",
               rule_range("CORE-ADV", 7, 8) + ("RX-ADV-01",), Chooser.PLAYERS, _RALLY_RX),
    OptionSpec("checkpoints", None, False, "players secretly take 5-second tokens after each stage",
               rule_range("CORE-ADV", 9, 10), Chooser.PLAYERS, _RALLY),
    OptionSpec("one-shot", None, False, "a single-stage game without the Leader dice", ("CORE-ADV-16",),
               Chooser.PLAYERS, _RALLY),
    OptionSpec("handbrake", None, False, "outside to inside mid-corner (Monte-Carlo handbrake turn)",
               rule_range("MC-HANDBRAKE", 1, 4), Chooser.PLAYERS, _RALLY),
    OptionSpec("weather", ("dry", "wet"), True,
               "Weather tokens in the Damage bag (Monte-Carlo: flip snow and asphalt tiles; RX: start Dry or Wet)",
               rule_range("MC-WEATHER", 1, 7) + rule_range("RX-WEATHER", 1, 7), Chooser.PLAYERS, _RALLY_RX),
    OptionSpec("full-contact", None, False, "RX pushing, Push Through, impact damage and Danger tokens",
               ("RX-ADV-01",) + rule_range("RX-PUSH", 1, 15) + ("RX-IMPACT-01",) + rule_range("RX-DANGER", 1, 7)
               + rule_range("RX-THROUGH", 1, 8) + ("RX-CONTACTROLL-01",), Chooser.PLAYERS, _RX),
    OptionSpec("improvisation", None, False, "re-plan the dice after any roll when rolling one by one",
               rule_range("IMPROV", 1, 3), Chooser.PLAYERS, frozenset({Variant.RALLY, Variant.RX, Variant.ICE})),
    OptionSpec("race-type", ("head-to-head", "time-trial"), False,
               "custom race: Head-to-Head (first across the line) or Time Trial (lowest time)",
               ("CUSTOM-01", "CUSTOM-04", "CUSTOM-05", "CUSTOM-06", "CUSTOM-07"), Chooser.DESIGN, _RALLY_RX),
    OptionSpec("track-rules", ("technical", "speed"), False,
               "custom race: Technical (surfaces change the dice, Time cards) or Speed (GT rules)",
               ("CUSTOM-01",) + rule_range("CUSTOM", 8, 14), Chooser.DESIGN, _RALLY_RX),
    OptionSpec("repairs", ("yes", "no"), True, "custom race: repairs and tire changes allowed or not (no: no Spare "
               "Tire, no tire change, no repairs at Assistance; yes in a race: GT Pit Stops, refused)",
               ("CUSTOM-15", "TOUR-10"), Chooser.DESIGN, _RALLY_RX),
    OptionSpec("damage-bag", ("dirt", "gt", "light"), False,
               "custom race: the DIRT, GT or lighter Shortcut damage set",
               ("CUSTOM-18", "CUSTOM-19", "CUSTOM-20", "CUSTOM-21", "CUSTOM-22"), Chooser.DESIGN, _RALLY_RX),
    OptionSpec("laps", None, False, "a circuit's number of laps (its own `laps N` statement)",
               ("CUSTOM-02", "RX-END-02", "TRACK-RX-09"), Chooser.DESIGN, frozenset({Variant.RX, Variant.ICE}),
               integer=True, in_options_line=False),
)}

#: the properties a design fixes that are stated by their own statement rather than the options line
DESIGN_PROPERTIES: tuple[str, ...] = tuple(n for n, o in OPTIONS.items() if not o.in_options_line)

_ALIASES: dict[str, str] = {o.record_name: o.name for o in OPTIONS.values()} | {n: n for n in OPTIONS}


def canonical(name: str) -> str | None:
    """The canonical (hyphenated) name of an option written either way, or None when there is none."""
    return _ALIASES.get(name)


def lookup(name: str) -> OptionSpec | None:
    """The option named ``name`` (``flying-start`` or ``flying_start``), or None."""
    key = _ALIASES.get(name)
    return OPTIONS[key] if key is not None else None


def record_name(name: str) -> str:
    """The records' (underscored) spelling of an option's name."""
    return name.replace("-", "_")


def unrefereed(names: Iterable[str], variant: Variant | None = None) -> list[OptionSpec]:
    """The options among ``names`` that no variant implements (or, with ``variant``, that this one
    does not), in registry order."""
    wanted = {canonical(n) or n for n in names}
    return [o for o in OPTIONS.values() if o.name in wanted
            and (not o.variants if variant is None else variant not in o.variants)]


def summary() -> str:
    """The options of the ``options`` line as the language writes them: ``sisu [per-stage|per-rally|assistance],
    flying-start, ..., race-type head-to-head|time-trial``."""
    out = []
    for o in OPTIONS.values():
        if not o.in_options_line:
            continue
        if o.values is None:
            out.append(o.name)
        else:
            words = "|".join(o.values)
            out.append(f"{o.name} [{words}]" if o.value_optional else f"{o.name} {words}")
    return ", ".join(out)


def rule_span(rules: tuple[str, ...]) -> str:
    """Rule IDs written short: ``RX-PUSH-01..15, RX-IMPACT-01``."""
    groups: dict[str, list[int]] = {}
    for r in rules:
        head, _, num = r.rpartition("-")
        groups.setdefault(head, []).append(int(num))
    out = []
    for head, nums in groups.items():
        nums = sorted(set(nums))
        run_start = prev = nums[0]
        for n in nums[1:] + [None]:
            if n is not None and n == prev + 1:
                prev = n
                continue
            out.append(f"{head}-{run_start:02d}" + (f"..{prev:02d}" if prev != run_start else ""))
            if n is not None:
                run_start = prev = n
    return ", ".join(out)


def record_options_schema() -> dict[str, Any]:
    """The JSON schema of a game record's ``options`` object (``schemas/game.schema.json`` holds a copy,
    kept equal by a test): each option under the records' spelling and the language's."""
    props: dict[str, dict[str, Any]] = {}
    for o in OPTIONS.values():
        schema = o.record_schema()
        who = "fixed by the design" if o.chooser is Chooser.DESIGN else "the players' choice; the design's is the default"
        refereed = "" if o.refereed else "; not refereed yet"
        schema["description"] = f"{o.description} ({rule_span(o.rules)}; {who}{refereed})"
        props[o.record_name] = schema
        if o.name != o.record_name:
            props[o.name] = {"$ref": f"#/properties/options/properties/{o.record_name}"}
    return {"type": "object", "additionalProperties": False,
            "description": "the options in force (rallyc.model.options): a design's `options` line gives the "
                           "defaults; a record may set what the players choose, never contradict what the design fixes",
            "properties": props}



def normalize(spec: OptionSpec, raw: object) -> bool | str | int | None:
    """One value of ``spec`` as the registry keeps it, from a design (``None`` for a bare ``options sisu``) or a
    record (``true``/``false``/a word): a switch is True/False; a worded option its word, or None when off
    (a bare or ``true`` value is its first word); an integer option its number. ValueError if it does not fit."""
    if spec.integer:
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise ValueError(f"`{spec.name}` is a whole number, not {raw!r}")
        return raw
    if spec.values is None:
        if raw is None or raw is True:
            return True
        if raw is False:
            return False
        raise ValueError(f"`{spec.name}` takes no value, not {raw!r}")
    if raw is None or raw is True:
        return spec.values[0]
    if raw is False:
        return None
    if raw not in spec.values:
        raise ValueError(f"`{spec.name}` takes {', '.join(spec.values)}, not {raw!r}")
    return raw


@dataclass(frozen=True)
class Conflict:
    """A game that contradicts what its design fixes."""

    spec: OptionSpec
    #: the key the record used (``race_type`` or ``race-type``)
    key: str
    design: bool | str | int | None
    record: bool | str | int | None

    def message(self) -> str:
        return (f"the design fixes `{self.spec.name}` to {_show(self.design)}; a game on it cannot set "
                f"{_show(self.record)} ({rule_span(self.spec.rules)})")


_SHOWN: dict[object, str] = {True: "on", False: "off", None: "off"}


def _show(value: object) -> str:
    return _SHOWN.get(value, f"`{value}`") if not isinstance(value, int) or isinstance(value, bool) else str(value)


def in_force(design: dict[str, object], record: dict[str, object] | None
             ) -> tuple[dict[str, bool | str | int | None], list[Conflict]]:
    """The options in force for a game: the design's (canonical name -> normalized value) are the defaults; the
    record may set what the players choose; a record value that differs from one the design fixes is a
    :class:`Conflict`. Both may spell names either way; unknown names raise ValueError."""
    out: dict[str, bool | str | int | None] = {}
    for name, raw in design.items():
        spec = lookup(name)
        if spec is None:
            raise ValueError(f"unknown option `{name}`")
        out[spec.name] = normalize(spec, raw)
    conflicts = []
    for key, raw in (record or {}).items():
        spec = lookup(key)
        if spec is None:
            raise ValueError(f"unknown option `{key}`")
        # in a record, null is "off" (the schema's word for it), never the bare `options sisu` of a design
        value = None if raw is None and spec.values is not None else normalize(spec, raw)
        if spec.chooser is Chooser.DESIGN and spec.name in out and out[spec.name] != value:
            conflicts.append(Conflict(spec, key, out[spec.name], value))
            continue
        out[spec.name] = value
    return out, conflicts
