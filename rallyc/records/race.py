"""RX race records (``"race": {...}`` instead of ``"stages"``): turns to and from JSON, replay, report."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, cast

from rallyc.compiler.design import Design
from rallyc.compiler.track import Track
from rallyc.data.components import Components
from rallyc.records.convert import record_format, replans_to_json, roll_to_json, turn_from_json
from rallyc.records.drive import GameForm, play_turns
from rallyc.records.load import RecordError
from rallyc.records.stages import default_components, record_stages
from rallyc.records.tracks import one_look
from rallyc.rules.drivers.bot import RandomBot
from rallyc.rules.core.claims import check_race_result
from rallyc.rules.core.engine import FOCUS
from rallyc.rules.core.errors import IllegalMove
from rallyc.records.explain import applied_of, game_rules_line, rules_line, without_applied
from rallyc.records.custom import race_format_of
from rallyc.records.game_options import game_options, record_design
from rallyc.rules.core.options import Options
from rallyc.rules.core.race import Race, RaceResult, RxOutcome
from rallyc.rules.core.race_format import RX, RaceFormat
from rallyc.rules.core.setup import player_problem
from rallyc.rules.core.stage import Player
from rallyc.rules.variants.stage_race import StageRace
from rallyc.rules.core.turn import Turn

__all__ = ["RaceReport", "race_setup", "rx_turn_from_json", "rx_turn_to_json", "replay_race", "race_track", "race_engine", "bot_race_record"]

#: a die's Full Contact keys (RX-PUSH, RX-THROUGH), which need format rallyc-game/2
_CONTACT_KEYS = ("push", "through", "push_to")


def rx_turn_from_json(d: dict[str, Any]) -> Turn:
    """A record's RX turn object as a :class:`~rallyc.rules.core.turn.Turn` (Focus claims in the Seconds fields)."""
    return turn_from_json(d, FOCUS)


def rx_turn_to_json(t: Turn, out: RxOutcome | None = None) -> dict[str, Any]:
    """An RX turn as a record object; with its outcome, the derivable claims are stated too."""
    d: dict[str, Any] = {"player": t.player}
    if out is not None:
        d["round"] = out.round
        d["colour"] = out.colour
    d["mode"] = "flat-out" if t.flat_out else "one-by-one"
    d["dice"] = [roll_to_json(r) for r in t.dice]
    if t.replans:
        d["replans"] = replans_to_json(t)
    if t.relaid is not None:
        d["relaid"] = [roll_to_json(r) for r in t.relaid]
    if t.damage:
        d["damage"] = list(t.damage)
    if out is not None:
        d["end"] = out.end
        d["gear"] = out.gear
        if out.focus_gained:
            d["focus_gained"] = out.focus_gained
        if out.focus_spent:
            d["focus_spent"] = out.focus_spent
        d["laps"] = out.laps
        d["joker"] = out.joker
        if out.weather:
            d["weather"] = out.weather
    return d


@dataclass
class RaceReport:
    """What an RX replay found: the grid, rounds (white/black) with each turn, the result, or the first error."""

    title: str = ""
    circuit: str = ""
    #: the race format (``rx`` or ``ice``, rallyc.rules.core.race_format)
    format: str = "rx"
    laps: int = 0
    #: the starting weather under the RX Weather rule, None without it
    weather: str | None = None
    grid: list[dict[str, Any]] = field(default_factory=list)
    rounds: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] = field(default_factory=dict)
    error: IllegalMove | None = None
    #: no rally stages (for callers that look for them, e.g. the map overlay)
    stages: list[Any] = field(default_factory=list)
    classification: list[Any] = field(default_factory=list)
    #: the rule IDs the game applied outside its turns (its setup, a custom race's choices), each once
    applied: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_json(self, explain: bool = False) -> dict[str, Any]:
        """The report as JSON data; with ``explain``, each turn keeps the rule IDs it applied (``applied``)."""
        rounds = self.rounds if explain else without_applied(self.rounds)
        out = {"title": self.title, "race": {"circuit": self.circuit, "laps": self.laps, "grid": self.grid,
                                             **({"format": self.format} if self.format != "rx" else {}),
                                             "weather": self.weather, "rounds": rounds, "result": self.result},
               "ok": self.ok}
        if self.error is not None:
            out["error"] = {"rule": self.error.rule_id, "message": self.error.message, "path": self.error.path}
        if explain:
            out["applied"] = self.applied
        return out

    def to_text(self, explain: bool = False) -> str:
        """The report as text; with ``explain``, a ``rules:`` line under each turn (``rallyc replay --explain``)."""
        lines = [self.title] if self.title else []
        kind = {"rx": "RX race", "ice": "Ice race", "custom": "Custom Head-to-Head"}.get(self.format, f"{self.format} race")
        lines.append(f"{kind} on {self.circuit}: " + (f"{self.laps} laps" if self.laps else "a stage, no laps")
                     + (f", RX Weather, starting {self.weather}" if self.weather else ""))
        lines.append("  Grid: " + ", ".join(f"{g['player']} {g['space']}" for g in self.grid))
        for rnd in self.rounds:
            lines.append(f"  Round {rnd['round']} ({rnd['colour']}): {', '.join(rnd['order'])}")
            for t in rnd["turns"]:
                lines.append(f"    {t['text']}")
                if explain:
                    lines.append(rules_line(t))
        if self.result:
            lines.append("  Finishing order:")
            for i, name in enumerate(self.result["order"], start=1):
                lines.append(f"    {i}. {name}")
            for name in self.result["disqualified"]:
                lines.append(f"    DSQ {name} (no Joker lap)")
            for name in self.result["retired"]:
                lines.append(f"    DNF {name} (retired)")
            for name in self.result.get("racing", []):
                lines.append(f"    --  {name} (still racing when play stopped, RX-END-04)")
        if explain:
            lines.append(game_rules_line(self.applied))
        if self.error is not None:
            lines.append(f"error: {self.error.path}: {self.error.rule_id}: {self.error.message}")
        return "\n".join(lines) + "\n"


#: a report's turn object with its keys in their order (:func:`_outcome_json` copies it and fills the values in)
_TURN_KEYS: dict[str, Any] = dict.fromkeys((
    "player", "start", "path", "end", "gear", "warnings", "blocked", "flat_out", "flat_out_failed", "focus_gained",
    "focus_spent", "damage", "shortcut_tokens", "yellow_flags", "laps", "joker", "finished", "position",
    "disqualified", "retired", "weather", "text"))


def _outcome_json(o: RxOutcome, explain: bool = True) -> dict[str, Any]:
    """One turn of the report. Built as a copy of :data:`_TURN_KEYS` whose values are replaced (about 1,500 machine
    instructions for the copy and 120 a value) rather than as a dict literal, which inserts key by key (about 500
    a key): the same keys in the same order."""
    d = _TURN_KEYS.copy()
    d["player"] = o.player
    d["start"] = o.start
    d["path"] = o.path
    d["end"] = o.end
    d["gear"] = o.gear
    d["warnings"] = o.warnings
    d["blocked"] = o.blocked
    d["flat_out"] = o.flat_out
    d["flat_out_failed"] = o.flat_out_failed
    d["focus_gained"] = o.gained
    d["focus_spent"] = o.spent
    d["damage"] = o.damage
    d["shortcut_tokens"] = o.tokens
    d["yellow_flags"] = o.yellow
    d["laps"] = o.laps
    d["joker"] = o.joker
    d["finished"] = o.finished
    d["position"] = o.position
    d["disqualified"] = o.disqualified
    d["retired"] = o.retired
    d["weather"] = o.weather
    d["text"] = o.describe()
    if explain:
        d["applied"] = applied_of(o)
    if o.loc is not None:
        d["loss_of_control"] = {"space": o.loc.space, "gear": o.loc.gear, "cause": o.loc.cause}
    if o.contact:  # Full Contact: who pushed whom (RX-PUSH, RX-THROUGH)
        d["contact"] = [e.to_json() for e in o.contact]
    return d


#: a race's turns in the record and the report (:func:`rallyc.records.drive.play_turns`)
RACE = GameForm(FOCUS, lambda race, turns: {"round": race.round, "colour": race.colour, "order": list(race.order),
                                            "turns": turns}, _outcome_json)


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


@one_look()
def replay_race(data: dict[str, Any], base_dir: Path | str = ".", components: Components | None = None,
                track: Track | None = None, explain: bool = True) -> RaceReport:
    """Replay an RX race record; the report holds the first illegal event (``report.error``) if any.
    ``explain=False`` leaves each turn's rule IDs (``applied``) out of the report."""
    if components is None:
        components = default_components()
    own_track = track is None
    base = base_dir if isinstance(base_dir, Path) else Path(base_dir)
    if track is None:
        track, title = race_track(data, base)
    else:
        title = data.get("title", "")
    design = record_design(data, base) if own_track else None
    start = _race_start(data, design, track, components)
    race, weather = start()
    fmt = race.format
    _check_contact_format(data)
    report = RaceReport(title=data.get("title", title), circuit=track.name, laps=race.laps.laps, format=fmt.name,
                        weather=weather,
                        grid=[{"player": n, "space": race.cars[n].space} for n in race.grid_order])
    try:
        play_turns(race, data["race"]["turns"], "$.race.turns", report.rounds, RACE, explain)
        res = race.result()
        report.result = _race_result(res)
        try:
            check_race_result(data["race"].get("result", {}), res)
        except IllegalMove as e:
            raise e.at("$.race")
    except IllegalMove as e:
        report.error = e.kept()  # no frames kept: they would hold the report, a cycle
    return report


def race_setup(data: dict[str, Any], base_dir: Path, components: Components) -> tuple[Callable[[], tuple[Race, str | None]],
                                                                             Any]:
    """A race record's start, as its replay sets it up: a function that makes the race before its first turn
    (and its starting weather), and the track; :class:`RecordError` at a player, option or track the referee
    refuses (the game at the table, :mod:`rallyc.table`, sets its races up here)."""
    track, _ = race_track(data, base_dir)
    start = _race_start(data, record_design(data, base_dir), track, components)
    start()  # refused here, once, if at all
    return start, track


def _race_start(data: dict[str, Any], design: Design | None, track: Track, components: Components) -> Callable[[], tuple[Race, str | None]]:
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
    problem = player_problem(players)
    if problem is not None:
        i, fld, why = problem
        raise RecordError(why, path="$.players" if fld == "name" else f"$.players[{i}].{fld}")
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


def _check_contact_format(data: dict[str, Any]) -> None:
    """A Full Contact key on a die (RX-PUSH, RX-THROUGH) needs format rallyc-game/2: :class:`RecordError` at the
    first in a rallyc-game/1 record."""
    if data.get("format") != "rallyc-game/1":
        return
    for ti, tj in enumerate(data["race"]["turns"]):
        for key in ("dice", "relaid"):
            for di, d in enumerate(tj.get(key, [])):
                for k in _CONTACT_KEYS:
                    if k in d:
                        raise RecordError(f"a Full Contact `{k}` needs format rallyc-game/2",
                                          path=f"$.race.turns[{ti}].{key}[{di}].{k}")


def _race_result(res: RaceResult) -> dict[str, Any]:
    """The report's result: finishing order, disqualified, retired, laps and Jokers per car, and the cars still
    racing when the record stopped (RX-END-04: play may continue for the other places)."""
    result = {"order": res.order, "disqualified": res.disqualified, "retired": res.retired,
              "laps": dict(sorted(res.laps.items())), "joker": dict(sorted(res.joker.items()))}
    if res.racing:
        result["racing"] = res.racing
    return result


def bot_race_record(track: Track, players: list[Player], *, seed: int = 0, options: Options | None = None,
                    components: Components | None = None, header: dict[str, Any] | None = None, bot: RandomBot | None = None,
                    max_turns: int = 3000, weather: str | None = None, race_format: RaceFormat = RX) -> dict[str, Any]:
    """Play a whole RX race with the seeded bot and return its record (claims included); ``weather`` plays
    with the RX Weather rule."""
    options = options or Options()
    bot = bot or RandomBot(seed)
    race = race_engine(track)(track, players, options, components, weather=weather, race_format=race_format)
    turns: list[dict[str, Any]] = []
    played: list[Turn] = []
    while not race.is_over():
        if len(turns) > max_turns:
            raise RuntimeError("bot race too long")
        # RandomBot.play_turn is annotated for a Stage and plays any turn engine, a race's giving an RxOutcome
        # (the referee's annotations: left to its restructuring, issue 30)
        t, out = bot.play_turn(race)  # type: ignore[arg-type]
        played.append(t)
        turns.append(rx_turn_to_json(t, cast(RxOutcome, out)))
    res = race.result()
    record: dict[str, Any] = {"format": record_format(played)}
    record.update(header or {})
    record["players"] = [{"name": p.name, "colour": p.colour, "car": race_format.car or p.car} for p in players]
    if race_format is not RX:
        for entry, name in zip(record["players"], race.grid_order):
            entry["tires"] = race.cars[name].dashboard.tires
    if weather:
        for entry, p in zip(record["players"], players):
            entry["tires"] = "rain" if p.tires == "rain" else "asphalt"
    record["options"] = {"flying_start": options.flying_start, "redline": options.redline}
    if options.improvisation:
        record["options"]["improvisation"] = True
    if options.full_contact:
        record["options"]["full_contact"] = True
    for key in ("race_type", "track_rules", "damage_bag"):  # a custom race's choices (rallyc.rules.variants.custom)
        if getattr(options, key) is not None:
            record["options"][key] = getattr(options, key)
    record["race"] = {"turns": turns, "result": {"order": res.order, "disqualified": res.disqualified,
                                                  "retired": res.retired}}
    if weather:
        record["race"]["weather"] = weather
    if race_format is not RX:
        record["race"]["format"] = race_format.name
    if track.kind == "stage":  # a custom Head-to-Head on a stage: which stage of the design (CUSTOM-03)
        record["race"]["stage"] = track.name
    return record
