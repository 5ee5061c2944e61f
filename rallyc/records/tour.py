"""Auto Tour records (``rallyc-tour/1``, ``schemas/tour.schema.json``): replay every event, keep the score sheet.

A tour record lists its players (the first event's starting order, TOUR-08; each with the car category used in
every event, TOUR-03), its events in order (each a game record, inline under ``game`` or a file under
``record``) and what the score sheet claims (``tour_seconds`` and ``totals`` per event, the final ``standings``
and ``winner``). Each event is replayed by :func:`rallyc.records.replay.replay_record`: a Time Trial is a game
with one stage (TOUR-06: its final time, Second tokens deducted), a Head-to-Head a race (TOUR-07: seconds by
place). From the second event on the starting order is the lowest tour time first (TOUR-09). Cars are fully
repaired between events and may change tires (TOUR-10): every event starts a new game.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from rallyc.data.components import Components, load_components
from rallyc.project.fileio import StrictJSONError, strict_json
from rallyc.records.game_options import game_options, record_design
from rallyc.records.load import (MAX_RECORD_DIGITS, RecordError, json_path, locate, parse_record, path_parts,
                                 read_record_text, record_problem)
from rallyc.records.explain import game_rules_line, once
from rallyc.records.report import RaceReport
from rallyc.records.replay import ReplayReport, format_time, replay_record
from rallyc.data.resources import schemas_dir
from rallyc.rules.core.errors import IllegalMove
from rallyc.rules.variants.tour import Tour, TourClaims, TourEvent
from rallyc.rules.core.trace import applied as report_rules, game_log

if TYPE_CHECKING:
    import jsonschema

__all__ = ["TOUR_FORMAT", "TourReport", "is_tour_text", "parse_tour", "load_tour", "replay_tour"]

TOUR_FORMAT = "rallyc-tour/1"
#: the tours the rulebook suggests: short, medium, long (TOUR-02)
SUGGESTED_TOURS = [["time-trial", "head-to-head"], ["head-to-head", "time-trial", "head-to-head"],
                   ["time-trial", "head-to-head", "time-trial", "head-to-head"]]
_FORMAT = re.compile(r'"format"\s*:\s*"rallyc-tour/')


def is_tour_text(text: str) -> bool:
    """Does this JSON text say it is a tour record (``"format": "rallyc-tour/1"``)? A cheap look, before parsing."""
    return _FORMAT.search(text) is not None


@lru_cache(maxsize=1)
def tour_schema() -> dict[str, Any]:
    """``schemas/tour.schema.json``."""
    with (schemas_dir() / "tour.schema.json").open(encoding="utf-8") as f:
        return dict(json.load(f))


@lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft202012Validator:
    # start-up: jsonschema only for a tour's record (rallyc replay asks is_tour_text of every record)
    import jsonschema

    return jsonschema.Draft202012Validator(tour_schema())


def _first_error(validator: jsonschema.Draft202012Validator, data: object) -> Any:
    errors = sorted(validator.iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path])
    return errors[0] if errors else None


def parse_tour(text: str, file: str = "<tour>") -> dict[str, Any]:
    """Parse and schema-check a tour record's text (the tour schema, and each inline event's game schema);
    :class:`RecordError` at the first problem, with its line and column."""
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        data: Any = strict_json(text, MAX_RECORD_DIGITS)
    except StrictJSONError as exc:
        raise RecordError(f"invalid JSON: {exc.message}", file=file, path="", line=exc.line,
                          column=exc.column) from None
    if isinstance(data, dict):  # an unknown top-level key is located at itself, not at the whole record
        for key in data:
            if key not in tour_schema()["properties"]:
                line, column = locate(text, [key])
                raise RecordError(f"unknown key `{key}` in a tour record (known: "
                                  f"{', '.join(sorted(tour_schema()['properties']))})", file=file, path=f"$.{key}",
                                  line=line, column=column)
    err = _first_error(_validator(), data)
    if err is not None:
        line, column = locate(text, list(err.absolute_path))
        raise RecordError(f"schema: {err.message}", file=file, path=json_path(err.absolute_path), line=line,
                          column=column)
    for i, event in enumerate(data["events"]):
        if "game" not in event:
            continue
        where: list[str | int] = ["events", i, "game"]
        try:  # the game schema and what it cannot say, located in the tour's text
            parse_record(json.dumps(event["game"]), file)
        except RecordError as exc:
            inner = path_parts(exc.path) if exc.path else []
            line, column = locate(text, where + inner)
            raise RecordError(exc.message, file=file, path=json_path(where + inner), line=line, column=column,
                              rule_id=exc.rule_id) from None
    return dict(data)


def load_tour(path: str | Path) -> dict[str, Any]:
    """Read and check a tour record file (:class:`RecordError`)."""
    return parse_tour(read_record_text(path), str(Path(path)))


@dataclass
class TourError:
    """The first illegal thing in a tour: a rule, a message, a JSON path, and the file it is in (the tour's own
    when empty; an event's record file otherwise)."""

    rule_id: str | None
    message: str
    path: str
    file: str = ""


@dataclass
class TourReport:
    """What a tour replay found: each event's line of the score sheet and the standings after it, the winner."""

    title: str = ""
    events: list[dict[str, Any]] = field(default_factory=list)
    standings: list[dict[str, Any]] = field(default_factory=list)
    winner: str | None = None
    error: TourError | None = None
    #: the rule IDs the tour applied (its setup, its events' setups and stage ends, the score sheet), each once
    applied: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_json(self, explain: bool = False) -> dict[str, Any]:
        """The report as JSON data; with ``explain``, the rules the tour applied (``applied``)."""
        out: dict[str, Any] = {"title": self.title, "tour": {"events": self.events, "standings": self.standings,
                                                             "winner": self.winner}, "ok": self.ok}
        if self.error is not None:
            out["error"] = {"rule": self.error.rule_id, "message": self.error.message, "path": self.error.path,
                            **({"record": self.error.file} if self.error.file else {})}
        if explain:
            out["applied"] = self.applied
        return out

    def to_text(self, explain: bool = False) -> str:
        """The report as text: per event its kind, track, starting order, seconds added and standings."""
        lines = [self.title] if self.title else []
        lines.append(f"Auto Tour: {len(self.events)} event(s) replayed")
        for ev in self.events:
            kind = {"time-trial": "Time Trial", "head-to-head": "Head-to-Head"}[ev["race_type"]]
            lines.append(f"Event {ev['event']}: {kind} on {ev['track']}; starting order "
                         f"{', '.join(ev['start'])}")
            for name, secs in ev["seconds"].items():
                why = ev["why"][name]
                lines.append(f"  {name} +{secs} s ({why})")
            lines.append("  Standings: " + ", ".join(f"{i}. {row['name']} {format_time(row['total'])}"
                                                     for i, row in enumerate(ev["standings"], start=1)))
        if self.winner is not None:
            lines.append("Tour standings:")
            for i, row in enumerate(self.standings, start=1):
                lines.append(f"  {i}. {row['name']} {format_time(row['total'])}")
            lines.append(f"Winner: {self.winner}")
        if explain:
            lines.append(game_rules_line(self.applied))
        if self.error is not None:
            lines.append(f"error: {self.error.path}: {self.error.rule_id}: {self.error.message}")
        return "\n".join(lines) + "\n"


def _event_game(event: dict[str, Any], i: int, base_dir: Path) -> tuple[dict[str, Any], Path, str]:
    """(the event's game record, the folder its paths are relative to, the file it was read from or '')."""
    if "game" in event:
        return event["game"], base_dir, ""
    path = base_dir / event["record"]
    try:
        text = read_record_text(path)
        return parse_record(text, str(path)), path.parent, str(path)
    except RecordError as exc:
        if exc.path and exc.line is None:
            try:
                exc.line, exc.column = locate(read_record_text(path), exc.path)
            except RecordError:
                pass
        where = f"{exc.file or path}" + (f":{exc.line}:{exc.column}" if exc.line is not None else "")
        raise RecordError(f"event {i + 1}'s record: {where}: {exc.path + ': ' if exc.path else ''}{exc.message}",
                          path=f"$.events[{i}].record", rule_id=exc.rule_id) from None


def _start_order(game: dict[str, Any]) -> list[str]:
    """The order an event was started in: a Time Trial's stage order (else the players'), a race's grid (the
    players in draw order, RX-SETUP-05)."""
    if "stages" in game and game["stages"] and game["stages"][0].get("order"):
        return list(game["stages"][0]["order"])
    return [p["name"] for p in game["players"]]


def _within(e: IllegalMove, event: dict[str, Any], gp: str) -> IllegalMove:
    """The refusal ``e`` (its path inside the event's game) located in the tour: inside the game when it is inline
    (``gp`` in front), at the event's ``record`` (``gp``) when the game is a file of its own."""
    return e.at(gp) if "game" in event else IllegalMove(e.rule_id, e.message, gp)


def _check_event(tour: Tour, event: dict[str, Any], game: dict[str, Any], i: int, base_dir: Path) -> str:
    """What the Tour asks of one event's game before it is replayed, located in the record (inline under
    ``$.events[i].game``; the event's ``record`` otherwise). Returns the event's track name as the record gives it."""
    ep = f"$.events[{i}]"
    gp = f"{ep}.game" if "game" in event else f"{ep}.record"
    _check_event_game(event["race_type"], game, gp)
    entrants = [(p["name"], p.get("car", "r6"), p["colour"]) for p in game["players"]]
    try:
        tour.check_entrants(entrants)
    except IllegalMove as e:
        raise _within(e, event, gp) from None
    _check_event_race_type(event, game, i, gp, base_dir)
    report_rules(("TOUR-03",))  # the cars and colours, once the event is known to be of its race type
    try:
        tour.check_start(_start_order(game))
    except IllegalMove as e:  # (located at the order the game states)
        stated = e.rule_id == "TOUR-09" and "stages" in game and game["stages"][0].get("order")
        raise _within(e.at("stages[0].order" if stated else "players"), event, gp) from None
    return _event_track(game, i)


def _check_event_game(kind: str, game: dict[str, Any], gp: str) -> None:
    """An event's game is what its race type is played as (TOUR-05): a Time Trial a game of one stage, a
    Head-to-Head a race or a Technical Head-to-Head on one stage."""
    if kind == "time-trial":
        if "stages" not in game or len(game["stages"]) != 1:
            raise IllegalMove("TOUR-05", "a Time Trial event is a game of one stage (`stages` with one entry), "
                                         "timed (CUSTOM-06)", f"{gp}.stages" if "stages" in game else gp)
    elif "race" not in game and ("stages" not in game or len(game["stages"]) != 1):
        raise IllegalMove("TOUR-05", "a Head-to-Head event is a race (`race`), or a Technical Head-to-Head played "
                                     "with Time cards on one stage (`stages`, CUSTOM-14); first across the line wins "
                                     "(CUSTOM-05)", gp)


def _check_event_race_type(event: dict[str, Any], game: dict[str, Any], i: int, gp: str, base_dir: Path) -> None:
    """The event's own custom-race choices, when it states them, are the event's race type (TOUR-05, CUSTOM-01);
    a Head-to-Head recorded stage by stage states it (a Technical Head-to-Head, CUSTOM-14)."""
    kind = event["race_type"]
    try:
        _, in_force = game_options(game, record_design(game, base_dir))
    except RecordError:
        in_force = {}
    stated = in_force.get("race-type")
    if kind == "head-to-head" and "race" not in game and stated != kind:
        raise IllegalMove("TOUR-05", f"event {i + 1} is a Head-to-Head: a game recorded stage by stage is one only "
                                     f"with option `race_type` head-to-head (a Technical Head-to-Head, CUSTOM-14)", gp)
    if stated is not None and stated != kind:
        raise _within(IllegalMove("TOUR-05", f"event {i + 1} is a {kind}, but its game is a {stated}", "options"),
                      event, gp)


def _event_track(game: dict[str, Any], i: int) -> str:
    """The event's track as its record names it: the design (or track file), and the stage if named."""
    name = str(game.get("design") or game.get("track") or f"event {i + 1}")
    if "stages" in game and game["stages"][0].get("stage"):
        name += f" {game['stages'][0]['stage']}"
    return name


def _relocate(e: IllegalMove, event: dict[str, Any], i: int, file: str) -> TourError:
    """An event's error as a tour error: inside the tour's text for an inline game, in its own file otherwise."""
    if "game" in event:
        inner = path_parts(e.path) if e.path else []
        return TourError(e.rule_id, e.message, json_path(["events", i, "game", *inner]))
    return TourError(e.rule_id, e.message, e.path or "$", file)


def replay_tour(data: dict[str, Any], base_dir: Path | str = ".", components: Components | None = None) -> TourReport:
    """Replay a parsed tour record: every event, its tour seconds, the standings and the winner; the report holds
    the first illegal thing (``report.error``), and the rules the tour applied (``applied``, its game log). A record
    that cannot be read raises :class:`RecordError`."""
    with game_log() as game:
        report = _replay_tour(data, base_dir, components)
    report.applied = once(game)
    return report


def _replay_tour(data: dict[str, Any], base_dir: Path | str, components: Components | None) -> TourReport:
    base = Path(base_dir)
    components = components or load_components()
    _check_tour_keys(data)
    report = TourReport(title=data.get("title", ""))
    try:
        tour = _new_tour(data, components)
        report.error = _replay_events(data, tour, base, components, report)
        if report.error is not None:
            return report
        report.standings = [{"name": n, "total": t} for n, t in tour.standings()]
        report.winner = tour.winner()
        try:
            # the record, checked against the Tour schema: its ``standings`` and ``winner`` are the claims
            tour.check_standings(cast(TourClaims, data))
        except IllegalMove as e:
            raise e.at("$")
    except IllegalMove as e:
        report.error = TourError(e.rule_id, e.message, e.path)
    return report


def _check_tour_keys(data: dict[str, Any]) -> None:
    """:class:`RecordError` at a key the tour schema does not know (a tour built in Python has seen no schema
    check)."""
    unknown = [k for k in data if k not in tour_schema()["properties"]]
    if unknown:
        raise RecordError(f"unknown key `{unknown[0]}` in a tour record (known: "
                          f"{', '.join(sorted(tour_schema()['properties']))})", path=f"$.{unknown[0]}")


def _new_tour(data: dict[str, Any], components: Components) -> Tour:
    """The Tour's score sheet for the record's players and events (TOUR-01; TOUR-02 when the events are a tour
    the rulebook suggests)."""
    kinds = [e["race_type"] for e in data["events"]]
    try:
        tour = Tour([p["name"] for p in data["players"]], kinds, components,
                    cars={p["name"]: p["car"] for p in data["players"]},
                    colours={p["name"]: p["colour"] for p in data["players"]})
    except ValueError as exc:
        raise IllegalMove("TOUR-01", str(exc).replace(" (TOUR-01)", ""), "$.events") from None
    if kinds in SUGGESTED_TOURS:
        report_rules(("TOUR-02",))  # the short, medium or long tour the rulebook suggests
    return tour


def _replay_events(data: dict[str, Any], tour: Tour, base: Path, components: Components, report: TourReport
                   ) -> TourError | None:
    """Every event checked, replayed and scored in turn, its line added to the score sheet and the report; the
    first event's error, relocated into the tour (None when every event replays)."""
    previous_tires: dict[str, str] = {}
    for i, event in enumerate(data["events"]):
        game, game_dir, file = _event_game(event, i, base)
        problem = record_problem(game)
        if problem is not None:
            raise RecordError(problem[1], path=f"$.events[{i}].game" + problem[0][1:])
        track = _check_event(tour, event, game, i, game_dir)
        start = _start_order(game)
        rep = _replay_event(event, i, game, game_dir, file, components)
        if rep.error is not None:
            return _relocate(rep.error, event, i, file)
        tires = {p["name"]: p.get("tires", "gravel") for p in game["players"]}
        if previous_tires and tires != previous_tires:
            report_rules(("TOUR-10", "CUSTOM-15"))  # tire changes allowed between events; each starts repaired
        previous_tires = tires
        line, why = _score_event(tour, event["race_type"], rep, start)
        report_rules(("TOUR-05", "TOUR-10"))
        try:
            tour.check_line(line, event.get("tour_seconds", {}), event.get("totals", {}))
        except IllegalMove as e:
            raise e.at(f"$.events[{i}]")
        report.events.append({"event": i + 1, "race_type": event["race_type"], "track": track,
                              "start": start, "seconds": dict(line.seconds), "why": why,
                              "standings": [{"name": n, "total": t} for n, t in tour.standings()]})
    return None


def _replay_event(event: dict[str, Any], i: int, game: dict[str, Any], game_dir: Path, file: str, components: Components
                  ) -> "ReplayReport | RaceReport":
    """The event's game replayed; a record it cannot read is a :class:`RecordError` located in the tour (inline)
    or naming the event's record file."""
    try:
        return replay_record(game, game_dir, components)
    except RecordError as exc:
        if "game" in event:
            raise RecordError(exc.message, path=json_path(["events", i, "game", *path_parts(exc.path)]),
                              rule_id=exc.rule_id) from None
        raise RecordError(f"event {i + 1}'s record: {file}: {exc.path}: {exc.message}",
                          path=f"$.events[{i}].record", rule_id=exc.rule_id) from None


def _score_event(tour: Tour, kind: str, rep: "ReplayReport | RaceReport", start: list[str]
                 ) -> tuple[TourEvent, dict[str, str]]:
    """The event's line added to the Tour, and why each player gets their seconds: a Time Trial's final time
    (TOUR-06), a Head-to-Head's place (TOUR-07) in a race's finishing order or, for a Technical Head-to-Head,
    its classification."""
    if kind == "time-trial":
        times = rep.stages[0]["times"]
        line = tour.add_time_trial(times, start)
        return line, {n: f"final time {format_time(times[n])}" for n in line.seconds}
    if not isinstance(rep, RaceReport):  # a Technical Head-to-Head: its classification is the finish order
        detail = rep.stages[0]["detail"]
        order = [row["name"] for row in rep.classification if detail[row["name"]]["status"] == "finished"]
        unplaced = [row["name"] for row in rep.classification if row["name"] not in order]
        return _add_places(tour, order, unplaced, start)
    res = rep.result
    unplaced = list(res["disqualified"]) + list(res["retired"]) + list(res.get("racing", []))
    return _add_places(tour, res["order"], unplaced, start)


def _add_places(tour: Tour, order: list[str], unplaced: list[str], start: list[str]
                ) -> tuple[TourEvent, dict[str, str]]:
    """A Head-to-Head's line added to the Tour by place (the classified in order, then the others), and each
    player's place as the reason for their seconds."""
    line = tour.add_places(order, unplaced, start)
    place = {n: k for k, n in enumerate(list(order) + unplaced, start=1)}
    return line, {n: f"place {place[n]}" + ("" if n in order else " (not classified)") for n in line.seconds}
