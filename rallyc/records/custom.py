"""Custom races in records (RX book, Customisable Races): which referee a record's custom race is played by, and
the located refusal of a record whose choices no referee plays or that contradict the game it records.

A race record (``race``) whose options in force make it a custom race is a Head-to-Head under Speed Track rules
(race format ``custom``, :func:`race_format_of`), on a circuit or a stage; a record of stages is a Time Trial under
Technical Track rules (:func:`custom_stage_rules`), on a stage or a circuit. The choices themselves are :class:`rallyc.rules.variants.custom.CustomRace`.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, Callable

from rallyc.compiler.design import Design
from rallyc.compiler.track import Track
from rallyc.model.options import OPTIONS
from rallyc.records.game_options import game_options
from rallyc.records.load import RecordError
from rallyc.rules.variants.custom import CustomRace, custom_race
from rallyc.rules.core.race_format import FORMATS, RaceFormat
from rallyc.rules.core.trace import applied as record_applied, report

__all__ = ["refused", "race_format_of", "custom_stage_rules", "ADVANCED"]

_KIND = attrgetter("kind")


def _has_shortcut(track: Track) -> bool:
    """Whether the track has a Shortcut space (the loop in C: map and ``in``, no Python call per space)."""
    return "shortcut" in map(_KIND, track.spaces.values())

#: the advanced rules of the registry a custom race may apply (CUSTOM-23)
ADVANCED = ("flying-start", "redline", "sisu", "checkpoints", "one-shot", "handbrake", "improvisation",
            "full-contact")


def _advanced(in_force: dict[str, Any]) -> None:
    if any(in_force.get(name) not in (None, False) for name in ADVANCED):
        record_applied(("CUSTOM-23",))


def refused(message: str, path: str, rule: str) -> RecordError:
    """A record's custom-race refusal naming ``rule`` (reported to the rule trace like the referee's refusals)."""
    report((rule,))
    return RecordError(message, path=path, rule_id=rule)


def race_format_of(data: dict[str, Any], track: Track, design: Design | None) -> RaceFormat:
    """The format a race record is played in: ``race.format`` (``rx``, ``ice``), or the custom Head-to-Head the
    options in force make of it (:func:`rallyc.rules.variants.custom.custom_race`, ``format`` then ``custom`` or left out).
    :class:`RecordError` at the option or format that does not fit (CUSTOM-01/04/05/06/21)."""
    _, in_force = game_options(data, design)
    _race_repairs(data, in_force)
    custom = custom_race(track.kind, in_force)
    fname = data["race"].get("format", "custom" if custom is not None else "rx")
    if custom is None:
        return _rx_format(track, fname)
    return _custom_format(data, track, custom, fname, in_force)


def _option_at(data: dict[str, Any], keys: tuple[str, ...], otherwise: str) -> str:
    """The path of the first of ``keys`` the record's own options state; ``otherwise`` when they state none (the
    option is the design's)."""
    opts = data.get("options") or {}
    for key in keys:
        if key in opts:
            return f"$.options.{key}"
    return otherwise


def _race_repairs(data: dict[str, Any], in_force: dict[str, Any]) -> None:
    """A race has no repairs (RX-DAMAGE-09): ``repairs no`` is its own rule, ``repairs yes`` is refused
    (CUSTOM-15)."""
    if in_force.get("repairs") == "yes":
        raise refused("repairs in a race without Time cards are GT Pit Stops (a Rallyman: GT rule), not refereed: "
                      "a race has no repairs (RX-DAMAGE-09); `repairs yes` plays with Time cards (Technical Track "
                      "rules, the Spare Tire)", _option_at(data, ("repairs",), "$.options"), "CUSTOM-15")
    if in_force.get("repairs") == "no":
        record_applied(("CUSTOM-15",))  # no repairs: the race's own rule too (RX-DAMAGE-09)


def _rx_format(track: Track, fname: str) -> RaceFormat:
    """The format of a race that is not a custom one: ``race.format`` on a circuit (a stage is raced only as a
    custom Head-to-Head, CUSTOM-05; ``custom`` needs its choices in force, CUSTOM-01)."""
    if track.kind != "circuit":
        raise refused(f"{track.name} is a stage: a race on it is a custom Head-to-Head (options `race_type` "
                      f"head-to-head, `track_rules` speed)", "$.track", "CUSTOM-05")
    if fname == "custom":
        raise refused("a custom race's format needs its choices in force: options `race_type` and "
                      "`track_rules` (in the design or the record)", "$.race.format", "CUSTOM-01")
    if fname not in FORMATS:
        raise RecordError(f"a race's format is {' or '.join(FORMATS)}, not {fname!r}", path="$.race.format")
    return FORMATS[fname]


def _custom_format(data: dict[str, Any], track: Track, custom: CustomRace, fname: str, in_force: dict[str, Any]) -> RaceFormat:
    """The format of a custom race recorded as a race: a Head-to-Head under Speed Track rules (format ``custom``,
    CUSTOM-01); a Time Trial (CUSTOM-06) or Technical Track rules (CUSTOM-14) are recorded stage by stage, and a
    pairing no referee plays is refused (CUSTOM-04/21)."""
    if fname != "custom":
        raise refused(f"the options in force make this a custom race ({custom.race_type}, {custom.track_rules} "
                      f"Track rules): its format is `custom`, not {fname!r}", "$.race.format", "CUSTOM-01")
    if custom.race_type != "head-to-head":
        raise refused("a Time Trial is timed stage by stage: its record has `stages`, not a `race` (CUSTOM-06)",
                      _option_at(data, ("race_type", "race-type"), "$.race"), "CUSTOM-06")
    if custom.track_rules == "technical":
        raise refused("a Head-to-Head under Technical Track rules is played with Time cards (CUSTOM-14): its record "
                      "has `stages`, not a `race`", _option_at(data, ("track_rules",), "$.options"), "CUSTOM-14")
    _advanced(in_force)
    try:
        return custom.race_format(_has_shortcut(track))
    except ValueError as exc:
        rule = "CUSTOM-21" if "CUSTOM-21" in str(exc) else "CUSTOM-04"
        raise refused(str(exc), "$.options", rule) from None


def custom_stage_rules(data: dict[str, Any], in_force: dict[str, Any], tracks: list[Track]) -> None:
    """A custom race recorded stage by stage is a race under Technical Track rules (Time cards) with the DIRT Damage
    set, a Time Trial or a Head-to-Head: the core stage on a stage, lap by lap on a circuit
    (:class:`rallyc.rules.variants.custom.CustomRace`); :class:`RecordError` at the option that asks for another one
    (CUSTOM-04/05/06/21). A circuit is recorded stage by stage only as such a custom race."""
    opts = data.get("options") or {}
    if in_force.get("repairs") in (OPTIONS["repairs"].values or ()):
        record_applied(("CUSTOM-15",))  # the Spare Tire, tire changes and Assistance repairs allowed or not (rules.stage)

    def where(name: str) -> str:
        return _option_at(data, (name.replace("-", "_"), name), "$.options" if opts else "$")

    for i, track in enumerate(tracks):
        custom = custom_race(track.kind, in_force)
        if custom is None:
            if track.kind == "circuit":
                raise refused(f"{track.name} is a circuit: a game on it is a race (`race`), or a custom race under "
                              f"Technical Track rules recorded stage by stage (options `race_type`, `track_rules` "
                              f"technical)",
                              f"$.stages[{i}]", "CUSTOM-06")
            continue
        if custom.race_type == "head-to-head" and custom.track_rules == "speed":
            raise refused("a Head-to-Head under Speed Track rules is raced without Time cards: its record has a "
                          "`race`, not `stages` (CUSTOM-05)", where("race-type"), "CUSTOM-05")
        if custom.referee is None:  # pragma: no cover - every pairing recorded by stages has a referee
            raise refused(custom.unplayable() or "", where("track-rules"), "CUSTOM-04")
        if custom.track_rules == "speed":  # a Time Trial under Speed Track rules (rules.speed_trial), any set
            _speed_trial(in_force, tracks, i, where)
        elif custom.bag_name != "dirt":
            raise refused(f"the {custom.bag_name} Damage set is not refereed with Time cards yet: a race under "
                          f"Technical Track rules draws from the DIRT set (CUSTOM-19)", where("damage-bag"), "CUSTOM-19")
        try:
            record_applied(custom.stage_rules(_has_shortcut(track)))
        except ValueError as exc:  # the GT set on a track with a Shortcut (a Speed Time Trial)
            raise refused(str(exc), where("damage-bag"), "CUSTOM-21") from None
        _advanced(in_force)
        if in_force.get("weather"):
            record_applied(("CUSTOM-16",))
        if custom.damage_bag is not None:
            record_applied(("CUSTOM-20",))


def _speed_trial(in_force: dict[str, Any], tracks: list[Track], i: int, where: Callable[[str], str]) -> None:
    """What a Time Trial under Speed Track rules is refereed with: one racetrack, no Monte-Carlo weather
    (:mod:`rallyc.rules.variants.speed_trial`); :class:`RecordError` at what asks for more."""
    if in_force.get("weather"):
        raise refused("the Monte-Carlo weather turns snow and asphalt tiles over; under Speed Track rules surfaces "
                      "never change the dice (CUSTOM-08), and GT Dry/Wet weather is a Rallyman: GT rule",
                      where("weather"), "CUSTOM-16")
    if len(tracks) > 1 and i == 0:
        raise refused("a Time Trial under Speed Track rules is refereed on one racetrack (one stage or one circuit), "
                      "not a rally of several stages yet", "$.stages[1]", "CUSTOM-01")
