"""Which custom-race pairings the referee plays (RX book, Customisable Races, CUSTOM-01/04): the one table both the
referee (:class:`rallyc.rules.variants.custom.CustomRace`) and ``rallyc check`` (RC162) read.

A custom race is a racetrack (``stage`` or ``circuit``) x a race type x track rules. The referee plays a
Head-to-Head under Speed Track rules as a race (no Time cards) and every other pairing as the core stage with Time
cards (a Time Trial under either track rules, or the Technical Head-to-Head, CUSTOM-14), on either racetrack. A race
under Technical Track rules draws from the DIRT Damage set only (the GT and light sets' Yellow Flags are refereed in a
race and in a Time Trial under Speed Track rules), a Time Trial under Speed Track rules is refereed on one racetrack
(a record of one stage or one circuit), and repairs in a race without Time cards (GT Pit Stops, CUSTOM-15) are not
refereed.
"""

from __future__ import annotations

from typing import Mapping

from rallyc.model.options import OPTIONS

__all__ = ["RACE_TYPES", "TRACK_RULES", "CHOICES", "referee_of", "choices_of", "pairing_problem"]

#: the words of the registry's ``race-type`` and ``track-rules``
RACE_TYPES = OPTIONS["race-type"].values or ()
TRACK_RULES = OPTIONS["track-rules"].values or ()
#: the options (hyphenated) that make a game a custom race; ``repairs`` alone does not
CHOICES = ("race-type", "track-rules", "damage-bag")


def referee_of(race_type: str, track_rules: str) -> str | None:
    """``race`` (the race engine: a Head-to-Head under Speed Track rules) or ``stage`` (the core stage with Time
    cards: a Time Trial, or a Head-to-Head under Technical Track rules); None for a choice that is no pairing."""
    if race_type not in RACE_TYPES or track_rules not in TRACK_RULES:
        return None
    if race_type == "head-to-head" and track_rules == "speed":
        return "race"
    return "stage"


def choices_of(racetrack: str, options: Mapping[str, object]) -> tuple[str, str, str | None] | None:
    """(race type, track rules, Damage set or None) the options in force (hyphenated names) make of a game on a
    ``racetrack``, or None when no custom-race choice is set. A choice left open takes the track's own: a stage is a
    Time Trial under Technical Track rules, a circuit a Head-to-Head under Speed Track rules."""
    if all(options.get(k) in (None, False) for k in CHOICES):
        return None
    stage = racetrack == "stage"
    race_type = str(options.get("race-type") or ("time-trial" if stage else "head-to-head"))
    track_rules = str(options.get("track-rules") or ("technical" if stage else "speed"))
    bag = options.get("damage-bag")
    return race_type, track_rules, str(bag) if bag else None


def pairing_problem(racetrack: str, options: Mapping[str, object]) -> tuple[str, str] | None:
    """Why the referee cannot play the custom race these options make on a ``racetrack`` (``repairs`` included):
    (the option to blame, the reason), or None when it can (or the game is no custom race)."""
    choices = choices_of(racetrack, options)
    plays = referee_of(*choices[:2]) if choices else ("race" if racetrack == "circuit" else "stage")
    if options.get("repairs") == "yes" and plays == "race":
        return "repairs", ("repairs in a race without Time cards are GT Pit Stops (CUSTOM-15), a Rallyman: GT rule not "
                           "refereed: a race has no repairs (RX-DAMAGE-09); choose `repairs no` or Technical Track "
                           "rules (the Spare Tire)")
    if choices is None:
        return None
    race_type, track_rules, bag = choices
    referee = referee_of(race_type, track_rules)
    if referee == "stage" and track_rules == "technical" and bag not in (None, "dirt"):
        return "damage-bag", (f"the {bag} Damage set with Time cards (Technical Track rules) is not refereed yet: a "
                              f"race under Technical Track rules draws from the DIRT set (CUSTOM-19)")
    return None
