"""A recorded game set up as its replay sets it up, before its first turn: a rally's stages (:func:`start_rally`)
or a race (:func:`race_setup`), with the players, options, tracks and Time cards the record names;
:class:`~rallyc.records.load.RecordError` at the first the referee refuses. The game at the table
(:mod:`rallyc.table`) sets its games up here too."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

from rallyc.compiler.design import Design
from rallyc.compiler.flipper import Flipper
from rallyc.compiler.track import Track
from rallyc.data.components import Components
from rallyc.records.custom import custom_stage_rules, race_format_of
from rallyc.records.game_options import game_options, record_design
from rallyc.records.load import RecordError
from rallyc.records.stages import record_stages
from rallyc.rules.core.cards import CardTable, CardTableError
from rallyc.rules.core.options import Options
from rallyc.rules.core.race import Race
from rallyc.rules.core.race_format import RaceFormat
from rallyc.rules.rally import Rally
from rallyc.rules.core.setup import player_problem
from rallyc.rules.core.stage import Player
from rallyc.rules.variants.stage_race import StageRace

__all__ = ["start_rally", "record_cards", "race_setup", "race_start", "race_track", "race_engine"]


def start_rally(data: dict[str, Any], base: Path, components: Components, tracks: list[Track] | None = None,
                flippers: list[Flipper | None] | None = None) -> tuple[Rally, list[Track], str]:
    """The rally a record of stages is played in (before its first stage starts), its stages' tracks and its title,
    set up as its replay sets it up (the game at the table, :mod:`rallyc.table`, sets its games up here too);
    :class:`RecordError` at a player, option or track the referee refuses."""
    design = record_design(data, base) if tracks is None else None
    tracks, title, flippers = _tracks_of(data, base, tracks, flippers)
    players = [Player(p["name"], p["colour"], p.get("car", "r6"), p.get("tires", "gravel")) for p in data["players"]]
    options = _rally_options(data, design, tracks, players, components)
    _check_seats(players)
    _check_weather(options, flippers)
    return Rally(tracks, players, options, components, flippers, record_cards(data, components)), tracks, title


def _tracks_of(data: dict[str, Any], base: Path, tracks: list[Track] | None, flippers: list[Flipper | None] | None) -> tuple[list[Track], str, list[Flipper | None]]:
    """The stages' tracks, the title and the tracks' flippers: the record's own (:func:`record_stages`), or the
    tracks given (their flippers, or None for each)."""
    if tracks is None:
        return record_stages(data, base)
    return tracks, data.get("title", ""), list(flippers) if flippers is not None else [None] * len(tracks)


def _rally_options(data: dict[str, Any], design: Design | None, tracks: list[Track], players: list[Player], components: Components) -> Options:
    """The options the rally is played with (the record's over its design's), once the record's custom race
    and every player's Dashboard are known to be refereed; :class:`RecordError` otherwise."""
    try:
        options, in_force = game_options(data, design)
        custom_stage_rules(data, in_force, tracks)
        for p in players:
            components.dashboard(p.car, p.tires)
    except RecordError:
        raise
    except Exception as exc:  # unknown dashboard
        raise RecordError(str(exc), path="$.players" if "Dashboard" in str(exc) else "$.options") from None
    return options


def _check_seats(players: list[Player]) -> None:
    """:class:`RecordError` at the first player the setup refuses (a name twice, a colour taken...)."""
    seat = player_problem(players)
    if seat is not None:
        i, fld, why = seat
        raise RecordError(why, path="$.players" if fld == "name" else f"$.players[{i}].{fld}")


def _check_weather(options: Options, flippers: list[Flipper | None]) -> None:
    """The weather option needs every stage's tiles (a flipper) to turn them over (MC-WEATHER-04)."""
    if options.weather and any(f is None for f in flippers):
        raise RecordError("the weather option turns tiles over in mid-stage (MC-WEATHER-04): the record needs a "
                          "`track` file whose stages are routes of real tiles (not a `sketch`)", path="$.options.weather")


def record_cards(data: dict[str, Any], components: Components) -> CardTable:
    """The game's Time-card table: the ``cards`` header of a ``rallyc-game/2`` record over the named assumptions
    (a ``rallyc-game/1`` record has none: the assumptions)."""
    if "cards" in data and data.get("format") == "rallyc-game/1":
        raise RecordError("a `cards` table needs format rallyc-game/2", path="$.cards")
    header = data.get("cards")
    if not header:
        return _assumed_cards(components)
    try:
        return CardTable.from_json(header, components)
    except CardTableError as exc:
        raise RecordError(str(exc), path=exc.path) from None


#: the Time-card table of the named assumptions per components (their id; the components kept, so that an id is
#: never taken for another's): CardTable is frozen, and its table of the cards taken is the same for every game
_ASSUMED: dict[int, tuple[Components, CardTable]] = {}


def _assumed_cards(components: Components) -> CardTable:
    """``CardTable.from_components(components)``, made once per components (records without a ``cards`` header)."""
    got = _ASSUMED.get(id(components))
    if got is None or got[0] is not components:
        if len(_ASSUMED) >= 8:
            _ASSUMED.clear()
        got = _ASSUMED[id(components)] = (components, CardTable.from_components(components))
    return got[1]


def race_engine(track: Track) -> type[Race]:
    """The race variant for the track: laps on a circuit, a Head-to-Head on a stage (CUSTOM-03/05)."""
    return StageRace if track.kind == "stage" else Race


def race_track(data: dict[str, Any], base_dir: Path) -> tuple[Track, str]:
    """The track a race record is run on (``track``, ``design``), compiled; :class:`RecordError` if none. A circuit,
    or a stage for a custom Head-to-Head (:func:`rallyc.records.custom.race_format_of` refuses any other race on a
    stage)."""
    if "track" not in data:
        raise RecordError("an RX race record names its circuit's `track` file", path="$")
    stage = data["race"].get("stage") if isinstance(data.get("race"), dict) else None
    probe = dict(data, stages=[{"turns": []} if stage is None else {"stage": stage, "turns": []}])
    try:
        tracks, title, _ = record_stages(probe, base_dir)
    except RecordError as exc:
        if exc.path == "$.stages[0].stage":
            raise RecordError(exc.message, path="$.race.stage") from None
        raise
    return tracks[0], title


def race_setup(data: dict[str, Any], base_dir: Path, components: Components) -> tuple[Callable[[], tuple[Race, str | None]],
                                                                             Any]:
    """A race record's start, as its replay sets it up: a function that makes the race before its first turn
    (and its starting weather), and the track; :class:`RecordError` at a player, option or track the referee
    refuses (the game at the table, :mod:`rallyc.table`, sets its races up here)."""
    track, _ = race_track(data, base_dir)
    start = race_start(data, record_design(data, base_dir), track, components)
    start()  # refused here, once, if at all
    return start, track


def race_start(data: dict[str, Any], design: Design | None, track: Track, components: Components) -> Callable[[], tuple[Race, str | None]]:
    """The race format and players of a race record checked, and a function that starts the race."""
    fmt = race_format_of(data, track, design)
    players = _race_players(data, fmt)
    return lambda: _start_race(data, design, track, players, components, fmt)


def _race_players(data: dict[str, Any], fmt: RaceFormat) -> list[Player]:
    """The record's players in the race format's cars (an Ice race's, RX-ICE) on their tires; :class:`RecordError`
    at a car the format does not drive, a `cards` table (RX-SETUP-10) or a seat the setup refuses."""
    for i, p in enumerate(data["players"]):
        if fmt.car and p.get("car", fmt.car) != fmt.car:
            raise RecordError(f"an {fmt.name} race is driven with {fmt.car} Dashboards ({fmt.car_rule}), "
                              f"not {p['car']!r}", path=f"$.players[{i}].car")
    players = [Player(p["name"], p["colour"], fmt.car or p.get("car", "r6"), p.get("tires", fmt.sides[0]))
               for p in data["players"]]
    if "cards" in data:
        raise RecordError("RX-SETUP-10: Time cards are not used in a race: a race record has no `cards` table",
                          path="$.cards")
    _check_seats(players)
    return players


def _start_race(data: dict[str, Any], design: Design | None, track: Track, players: list[Player], components: Components,
                fmt: RaceFormat) -> tuple[Race, str | None]:
    """The race set up under the record's options, and its starting weather (the race's own, else the options'
    weather word: RX-WEATHER-01); :class:`RecordError` at an option or player the referee refuses."""
    try:
        options, in_force = game_options(data, design)
        weather = data["race"].get("weather", in_force.get("weather") or None)
        # the race's own weather rule, not the Monte-Carlo weather (Options are frozen: no copy when already off)
        race_options = options if options.weather is False else replace(options, weather=False)
        race = race_engine(track)(track, players, race_options, components, weather=weather, race_format=fmt)
    except (ValueError, TypeError) as exc:
        path = "$.options" if "option" in str(exc) else "$.players"
        raise RecordError(str(exc), path=path) from None
    return race, weather
