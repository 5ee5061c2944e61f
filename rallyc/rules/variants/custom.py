"""Customisable races (RX book): the three choices of a custom race and what each fixes (CUSTOM-01..22).

A custom race is read from the options in force (``race-type``, ``track-rules``, ``repairs``,
``damage-bag``: :mod:`rallyc.model.options`, the design's and the record's) and the track's kind, and is the
variant the referee plays: a Time Trial under Technical Track rules is the core stage with Time cards and Second
tokens (:class:`~rallyc.rules.core.stage.Stage`; on a circuit, lap by lap: :class:`~rallyc.rules.variants.circuit_trial.CircuitTimeTrial`),
a Head-to-Head under Technical Track rules the core stage with the Head-to-Head's start, order, Focus tokens and
winner (:class:`~rallyc.rules.variants.technical_h2h.TechnicalHeadToHead`, Time cards even in a Head-to-Head, CUSTOM-14);
a Time Trial under Speed Track rules the core stage with one Dashboard column on every surface and Loss-of-Control
damage from the Dashboard (:class:`~rallyc.rules.variants.speed_trial.SpeedTimeTrial`, CUSTOM-08/13); a Head-to-Head under
Speed Track rules is the race (:class:`~rallyc.rules.core.race.Race`; on a stage: :class:`~rallyc.rules.variants.stage_race.StageRace`)
with :meth:`CustomRace.race_format`: each player's own Rally Dashboard, one column on every surface, the chosen
Damage set.
"""

from __future__ import annotations

from dataclasses import dataclass

from rallyc.data.components import Components, load_components
from rallyc.model.pairings import RACE_TYPES, TRACK_RULES, choices_of, referee_of
from rallyc.rules.core.race_format import DAMAGE_SETS, RaceFormat, custom_format, damage_set, standard_bag
from rallyc.rules.core.trace import applied as record_applied

__all__ = ["CustomRace", "RACE_TYPES", "TRACK_RULES", "CUSTOM_OPTIONS", "custom_race"]



@dataclass(frozen=True)
class CustomRace:
    """The choices of one custom race (CUSTOM-01) and what follows from them."""

    #: ``circuit`` or ``stage`` (the track's kind, CUSTOM-02/03)
    racetrack: str
    race_type: str
    track_rules: str
    #: repairs and tire changes allowed (CUSTOM-15)
    repairs: bool = False
    #: the Damage set; None: the standard one of the track rules (CUSTOM-18/19)
    damage_bag: str | None = None

    def __post_init__(self) -> None:
        if self.racetrack not in ("circuit", "stage"):
            raise ValueError(f"the Racetrack is a circuit or a stage, not {self.racetrack!r} (CUSTOM-01)")
        if self.race_type not in RACE_TYPES:
            raise ValueError(f"the Race Type is {' or '.join(RACE_TYPES)}, not {self.race_type!r} (CUSTOM-01)")
        if self.track_rules not in TRACK_RULES:
            raise ValueError(f"the Track Rules are {' or '.join(TRACK_RULES)}, not {self.track_rules!r} (CUSTOM-01)")
        if self.damage_bag is not None and self.damage_bag not in DAMAGE_SETS:
            raise ValueError(f"the Damage set is {', '.join(DAMAGE_SETS)}, not {self.damage_bag!r} (CUSTOM-18/19/22)")

    @classmethod
    def from_options(cls, racetrack: str, options: dict[str, str | bool | None]) -> "CustomRace":
        """From a design's ``options`` (names as the language spells them: ``race-type head-to-head``)."""
        repairs = options.get("repairs")
        return cls(racetrack, str(options.get("race-type") or ""), str(options.get("track-rules") or ""),
                   repairs in (True, "yes"), options.get("damage-bag"))  # type: ignore[arg-type]

    # -- what the Race Type fixes (CUSTOM-05..07)
    @property
    def order_of_priority(self) -> tuple[str, str, str]:
        """Head-to-Head: Speed > Distance > Position; Time Trial: Distance > Speed > Position (CUSTOM-05/06)."""
        return ("speed", "distance", "position") if self.race_type == "head-to-head" else \
            ("distance", "speed", "position")

    @property
    def start(self) -> str:
        """All cars in the same round (Head-to-Head) or a staggered start (Time Trial) (CUSTOM-05/06)."""
        return "same-round" if self.race_type == "head-to-head" else "staggered"

    @property
    def flat_out_tokens(self) -> str:
        """Focus tokens in a Head-to-Head, Second tokens in a Time Trial (CUSTOM-07, Ambiguity 37)."""
        return "focus" if self.race_type == "head-to-head" else "seconds"

    # -- what the Track Rules fix (CUSTOM-08/09/13/14)
    @property
    def surfaces_change_dice(self) -> bool:
        """Technical Tracks: surfaces and tires change the dice; Speed Tracks: surfaces are cosmetic."""
        return self.track_rules == "technical"

    @property
    def loss_of_control(self) -> str:
        """``dashboard`` on a Speed Track (CUSTOM-13), ``time-cards`` on a Technical Track (CUSTOM-14)."""
        return "dashboard" if self.track_rules == "speed" else "time-cards"

    @property
    def time_cards(self) -> bool:
        """Time cards are used in a Time Trial, and on a Technical Track even in a Head-to-Head (CUSTOM-14)."""
        return self.race_type == "time-trial" or self.track_rules == "technical"

    @property
    def bag_name(self) -> str:
        """The Damage set on a track without Shortcut tiles: the one chosen, else GT for Speed Tracks, DIRT for
        Technical ones (CUSTOM-18/19); :meth:`bag_for` on any track."""
        return self.bag_for(False)

    def bag_for(self, has_shortcuts: bool) -> str:
        """The Damage set: the one chosen; else "a race with Shortcut tiles must use the DIRT damage set"
        (CUSTOM-21), GT for Speed Tracks and DIRT for Technical ones otherwise (CUSTOM-18/19)."""
        return self.damage_bag or standard_bag(self.track_rules, has_shortcuts)

    def bag(self, components: Components | None = None, has_shortcuts: bool = False) -> dict[str, int]:
        """The Damage bag's tokens (CUSTOM-18/19/21/22)."""
        return damage_set(components or load_components(), self.bag_for(has_shortcuts))

    def check_track(self, has_shortcuts: bool) -> None:
        """A race with Shortcut tiles uses the DIRT set, or its lighter Shortcut variant (CUSTOM-21/22)."""
        if has_shortcuts and self.bag_for(has_shortcuts) == "gt":
            raise ValueError("a race with Shortcut tiles uses the DIRT Damage set (or the lighter one), not the GT "
                             "set (CUSTOM-21)")
        if has_shortcuts:
            record_applied(("CUSTOM-21",) + (("CUSTOM-22",) if self.bag_for(True) == "light" else ()))

    def race_format(self, has_shortcuts: bool = False) -> RaceFormat:
        """The format :class:`~rallyc.rules.core.race.Race` plays this Head-to-Head in (Speed Track rules, on a circuit or
        a stage);
        ValueError when another referee plays it or the Damage set does not fit the track (CUSTOM-21)."""
        if self.referee != "race":
            raise ValueError(self.unplayable() or f"a {self.race_type} on a {self.racetrack} is not a race")
        self.check_track(has_shortcuts)
        bag = self.bag_for(has_shortcuts)
        # what this variant puts in play: the choices, the Head-to-Head's order and Focus tokens, Speed Track
        # dice and Dashboard damage, the Damage set
        record_applied(("CUSTOM-01", self.track_rule, "CUSTOM-04", "CUSTOM-05", "CUSTOM-07", "CUSTOM-08", "CUSTOM-10",
                        "CUSTOM-12", "CUSTOM-13", "CUSTOM-18" if bag == "gt" else "CUSTOM-19" if bag == "dirt" else "CUSTOM-22"))
        if self.damage_bag is not None:
            record_applied(("CUSTOM-20",))
        return custom_format(bag)

    def stage_rules(self, has_shortcuts: bool = False) -> tuple[str, ...]:
        """The rule IDs a race under Technical Track rules puts in play (the core stage with Time cards, on a stage or
        a circuit, a Time Trial or a Head-to-Head); ValueError when another referee plays it."""
        if self.referee != "stage":
            raise ValueError(self.unplayable() or f"a {self.race_type} on a {self.racetrack} is not a stage")
        self.check_track(has_shortcuts)
        kind = "CUSTOM-06" if self.race_type == "time-trial" else "CUSTOM-05"
        if self.track_rules == "speed":  # a Time Trial: one Dashboard column, Dashboard damage (rules.speed_trial)
            bag = {"gt": "CUSTOM-18", "dirt": "CUSTOM-19"}.get(self.bag_for(has_shortcuts), "CUSTOM-22")
            return ("CUSTOM-01", self.track_rule, "CUSTOM-04", kind, "CUSTOM-07", "CUSTOM-08", "CUSTOM-10",
                    "CUSTOM-12", "CUSTOM-13", bag)
        return ("CUSTOM-01", self.track_rule, "CUSTOM-04", kind, "CUSTOM-07", "CUSTOM-09", "CUSTOM-14")

    @property
    def track_rule(self) -> str:
        """The Racetrack's rule: a circuit loops (CUSTOM-02), a stage is open (CUSTOM-03)."""
        return "CUSTOM-02" if self.racetrack == "circuit" else "CUSTOM-03"

    def unplayable(self) -> str | None:
        """Why no referee plays this race yet, or None when one does (the Damage set aside: :meth:`check_track`,
        :func:`rallyc.model.pairings.pairing_problem`)."""
        if self.referee is not None:
            return None
        return f"no referee plays a {self.race_type} under {self.track_rules} Track rules (CUSTOM-01)"

    # -- which referee plays it
    @property
    def referee(self) -> str | None:
        """``race`` for a Head-to-Head under Speed Track rules (the race, on a circuit or on a stage:
        :class:`~rallyc.rules.variants.stage_race.StageRace`), ``stage`` for every other pairing (the core stage with Time
        cards, on a stage or, lap by lap, on a circuit: :class:`~rallyc.rules.variants.circuit_trial.CircuitTimeTrial`; a
        Technical Head-to-Head: :class:`~rallyc.rules.variants.technical_h2h.TechnicalHeadToHead`; a Time Trial under Speed
        Track rules: :class:`~rallyc.rules.variants.speed_trial.SpeedTimeTrial`)."""
        return referee_of(self.race_type, self.track_rules)


#: the options that make a game a custom race
CUSTOM_OPTIONS = ("race-type", "track-rules", "repairs", "damage-bag")


def custom_race(racetrack: str, in_force: dict[str, bool | str | int | None]) -> CustomRace | None:
    """The custom race the options in force (canonical names, :func:`rallyc.model.options.in_force`) make of a game
    on a ``racetrack``, or None when none of the custom-race options is set. A choice left open takes the track's
    own (a stage: Time Trial under Technical Track rules; a circuit: Head-to-Head under Speed Track rules)."""
    choices = choices_of(racetrack, in_force)
    if choices is None:
        return None
    race_type, track_rules, bag = choices
    return CustomRace(racetrack, race_type, track_rules, in_force.get("repairs") == "yes", bag)
