"""Replay a game record under the rules: every turn validated, results computed, first error located."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rallyc.compilation.collector import paused
from rallyc.compiler.design import Design
from rallyc.compiler.flipper import Flipper
from rallyc.compiler.track import Track
from rallyc.data.components import Components
from rallyc.records.drive import GameForm, play_turns
from rallyc.records.load import RecordError, record_problem
from rallyc.rules.core.cards import CardTable, CardTableError
from rallyc.rules.core.claims import check_classification, check_stage_times, format_time
from rallyc.rules.core.engine import SECONDS
from rallyc.rules.core.errors import IllegalMove
from rallyc.rules.core.trace import game_log
from rallyc.records.explain import applied_of, game_rules_line, once, rules_line, without_applied
from rallyc.records.custom import custom_stage_rules
from rallyc.rules.variants.technical_h2h import TechnicalHeadToHead
from rallyc.records.game_options import game_options, record_design
from rallyc.records.race import RaceReport, replay_race
from rallyc.records.stages import default_components, record_stages, record_tracks
from rallyc.records.tracks import one_look
from rallyc.rules.core.options import Options
from rallyc.rules.rally import Rally
from rallyc.rules.core.setup import player_problem
from rallyc.rules.core.stage import Player, Stage
from rallyc.rules.core.turn import Outcome

# record_tracks, record_stages and default_components live in rallyc.records.stages (shared with the RX race
# records, rallyc.records.race, which this module imports); they stay importable from here.
__all__ = ["ReplayReport", "replay_record", "start_rally", "record_cards", "record_tracks", "record_stages", "default_components",
           "format_time"]


@dataclass
class ReplayReport:
    """Everything a replay found: rounds, outcomes, stage times, classification, or the first error."""

    title: str = ""
    stages: list[dict[str, Any]] = field(default_factory=list)
    classification: list[dict[str, Any]] = field(default_factory=list)
    error: IllegalMove | None = None
    #: the rally classification after each stage ended (CORE-RALLY-15), as ``classification``: the rally sheet's
    #: positions (rallyc.table.sheet); not in the report's text or JSON
    after_stage: list[list[dict[str, Any]]] = field(default_factory=list)
    #: the rule IDs the game applied outside its turns (setup, custom race, stage ends), each once
    applied: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_json(self, explain: bool = False) -> dict[str, Any]:
        """The report as JSON data; with ``explain``, each turn keeps the rule IDs it applied (``applied``)."""
        stages = self.stages if explain else [dict(st, rounds=without_applied(st["rounds"])) for st in self.stages]
        out: dict[str, Any] = {"title": self.title, "stages": stages, "classification": self.classification,
                               "ok": self.ok}
        if self.error is not None:
            out["error"] = {"rule": self.error.rule_id, "message": self.error.message, "path": self.error.path}
        if explain:
            out["applied"] = self.applied
        return out

    def to_text(self, explain: bool = False) -> str:
        """The report as text; with ``explain``, a ``rules:`` line under each turn and the rules of the game
        (``rallyc replay --explain``)."""
        lines: list[str] = []
        if self.title:
            lines.append(self.title)
        for st in self.stages:
            lines.append(f"Stage {st['stage']}: starting order {', '.join(st['order'])}")
            for rnd in st["rounds"]:
                lines.append(f"  Round {rnd['round']}: {', '.join(rnd['order'])}")
                for t in rnd["turns"]:
                    lines.append(f"    {t['text']}")
                    if explain:
                        lines.append(rules_line(t))
            if "times" in st:
                lines += _stage_end_lines(st)
        if self.classification:
            lines.append("Rally classification:")
            for i, row in enumerate(self.classification, start=1):
                lines.append(f"  {i}. {row['name']} {format_time(row['overall'])}")
        if explain:
            lines.append(game_rules_line(self.applied))
        if self.error is not None:
            lines.append(f"error: {self.error.path}: {self.error.rule_id}: {self.error.message}")
        return "\n".join(lines) + "\n"


def _stage_end_lines(st: dict[str, Any]) -> list[str]:
    """The text of a stage's end: its times, Assistance, the damage and Spare Tire carried."""
    lines = ["  Stage times:"]
    ranked = sorted(st["times"].items(), key=lambda kv: (kv[1] is None, kv[1] or 0, kv[0]))
    for i, (name, t) in enumerate(ranked, start=1):
        d = st["detail"][name]
        extra = f"cards {format_time(d['cards'])} - {d['tokens']} s tokens" if not st.get("focus") \
            else f"cards {format_time(d['cards'])}; Focus tokens take no time off"  # CUSTOM-07
        if d.get("penalty"):
            extra += f" + {d['penalty']} s checkpoint"
        if d["status"] == "retired":
            extra = "retired: slowest + 1:00"
        lines.append(f"    {i}. {name} {format_time(t)} ({extra})")
    lines.append(f"  Assistance: {'yes' if st['assistance'] else 'no'}")
    for name, c in st["carried"].items():
        dmg = ", ".join(f"{k} {v}" for k, v in c["damage"].items()) or "none"
        lines.append(f"    {name} carries damage: {dmg}; spare tire {'Y' if c['spare_tire'] else 'N'}")
    return lines


#: a stage turn's report object with its keys in their order (:func:`_outcome_json` copies it and fills the values
#: in, as :func:`rallyc.records.race._outcome_json` does: a copy is a block copy, a dict display of 20 keys grows an
#: empty dict key by key)
_TURN_KEYS: dict[str, Any] = dict.fromkeys((
    "player", "start", "path", "end", "gear", "card", "warnings", "blocked", "finished", "retired", "flat_out",
    "flat_out_failed", "seconds_gained", "seconds_spent", "damage", "shortcut_tokens", "spare_tire", "sisu", "leader",
    "text"))


def _outcome_json(o: Outcome, explain: bool = True) -> dict[str, Any]:
    """A stage turn's outcome as the report's JSON (``seconds_gained``/``seconds_spent`` read as the tokens
    ``gained``/``spent`` they name: no property call per turn): a copy of :data:`_TURN_KEYS` whose values are
    replaced, the same keys in the same order as a dict display of every field."""
    card = o.card
    d = _TURN_KEYS.copy()
    d["player"] = o.player
    d["start"] = o.start
    d["path"] = o.path
    d["end"] = o.end
    d["gear"] = o.gear
    d["card"] = {"gear": card.gear, "seconds": card.seconds, "zero": card.zero, "icon": card.icon}
    d["warnings"] = o.warnings
    d["blocked"] = o.blocked
    d["finished"] = o.finished
    d["retired"] = o.retired
    d["flat_out"] = o.flat_out
    d["flat_out_failed"] = o.flat_out_failed
    d["seconds_gained"] = o.gained
    d["seconds_spent"] = o.spent
    d["damage"] = o.damage
    d["shortcut_tokens"] = o.tokens
    d["spare_tire"] = o.spare_tire
    d["sisu"] = o.sisu
    d["leader"] = o.leader
    d["text"] = o.describe()
    if explain:
        d["applied"] = applied_of(o)
    if o.flipped:
        d["flipped"] = list(o.flipped)
    if o.loc is not None:
        d["loss_of_control"] = {"space": o.loc.space, "gear": o.loc.gear, "cause": o.loc.cause}
    return d


#: a stage's turns in the record and the report (:func:`rallyc.records.drive.play_turns`)
STAGE = GameForm(SECONDS, lambda stage, turns: {"round": stage.round, "order": list(stage.order), "turns": turns},
                 _outcome_json)


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


# the collector paused, no young collection after: a replay makes no cyclic garbage (tests/test_replay_garbage.py),
# and that collection would walk every young object, the record the caller has just read among them
@paused()
@one_look()
def replay_record(data: dict[str, Any], base_dir: Path | str = ".", components: Components | None = None,
                  tracks: list[Track] | None = None, flippers: list[Flipper | None] | None = None, explain: bool = True
                  ) -> "ReplayReport | RaceReport":
    """Replay a parsed record; the report holds the first illegal event (``report.error``) if any.

    ``flippers`` go with given ``tracks`` (see :func:`record_stages`). ``explain=False`` leaves each turn's
    rule IDs (``applied``, ``rallyc replay --explain``: the turn's rule log) out of the report; the rules the game
    applied outside its turns are the report's ``applied`` (its game log)."""
    with game_log() as game:
        report = _replay_record(data, base_dir, components, tracks, flippers, explain)
    report.applied = once(game)
    return report


def _replay_record(data: dict[str, Any], base_dir: Path | str, components: Components | None, tracks: list[Track] | None,
                   flippers: list[Flipper | None] | None, explain: bool) -> "ReplayReport | RaceReport":
    problem = record_problem(data)  # a record built in Python has seen no schema check
    if problem is not None:
        raise RecordError(problem[1], path=problem[0])
    components = components or default_components()
    base = base_dir if isinstance(base_dir, Path) else Path(base_dir)
    if "race" in data:  # an RX race (rallyc.records.race)
        return replay_race(data, base, components, tracks[0] if tracks else None, explain=explain)
    rally, tracks, title = start_rally(data, base, components, tracks, flippers)
    report = ReplayReport(title=data.get("title", title))
    try:
        for si, st in enumerate(data["stages"]):
            _replay_stage(rally, st, f"$.stages[{si}]", tracks[si].name, report, explain)
        report.classification = [{"name": n, "overall": t} for n, t in rally.classification()]
        try:
            check_classification(data.get("classification", []), rally)
        except IllegalMove as e:
            raise e.at("$")
    except IllegalMove as e:
        report.error = e.kept()  # no frames kept: they would hold the report, a cycle
    return report


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


def _replay_stage(rally: Rally, st: dict[str, Any], sp: str, name: str, report: ReplayReport, explain: bool) -> None:
    """One stage of the record (``st``, at path ``sp``) started, played turn by turn and ended, its entry added to
    the report as it goes (a stage left unfinished by an error keeps the rounds played)."""
    try:
        stage = rally.start_stage(st.get("order"), st.get("tires"))
    except IllegalMove as e:
        raise e.at(sp)
    entry: dict[str, Any] = {"stage": name, "order": list(stage.start_order), "rounds": []}
    report.stages.append(entry)
    play_turns(stage, st["turns"], f"{sp}.turns", entry["rounds"], STAGE, explain)
    _end_stage(rally, stage, st, sp, entry)
    report.after_stage.append([{"name": n, "overall": t} for n, t in rally.classification()])


def _end_stage(rally: Rally, stage: Stage, st: dict[str, Any], sp: str, entry: dict[str, Any]) -> None:
    """The end of a stage (spare tires between stages, checkpoint penalties): its times, Assistance and the damage
    carried into the report's ``entry``, then the record's claimed stage times checked by the referee."""
    try:
        rec = rally.end_stage(spare_between=st.get("spare_tire", []), penalties=st.get("checkpoint"))
    except IllegalMove as e:
        raise e.at(sp)
    res = rec.result
    entry["times"] = dict(sorted(rec.times.items()))
    if isinstance(stage, TechnicalHeadToHead):
        entry["focus"] = True  # the Flat Out's tokens are Focus tokens (CUSTOM-07)
    entry["assistance"] = rec.assistance
    entry["carried"] = dict(sorted(rec.carried.items()))
    entry["detail"] = {n: {"cards": res.cards[n], "tokens": res.tokens[n], "penalty": 5 * rec.penalties.get(n, 0),
                           "status": stage.cars[n].status} for n in sorted(res.times)}
    try:
        check_stage_times(st.get("times", {}), rec, stage)
    except IllegalMove as e:
        raise e.at(sp)
