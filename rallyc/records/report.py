"""The report of a replay, for every game form: a rally's stages (:class:`ReplayReport`) and an RX, Ice or custom
race (:class:`RaceReport`), as text and JSON, and each turn's object in it.

What the game forms share is written once here (the turns of a round, the rules of the game and the first error at
the end); what differs is data: the keys of a turn's object and the round's header (:data:`STAGE`, :data:`RACE`:
the :class:`~rallyc.records.drive.GameForm` the replay plays the turns with)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rallyc.records.drive import GameForm
from rallyc.records.explain import applied_of, game_rules_line, rules_line, without_applied
from rallyc.rules.core.claims import format_time
from rallyc.rules.core.engine import FOCUS, SECONDS
from rallyc.rules.core.errors import IllegalMove
from rallyc.rules.core.race import RaceResult, RxOutcome
from rallyc.rules.core.turn import Outcome

__all__ = ["ReplayReport", "RaceReport", "STAGE", "RACE", "race_result_json", "format_time"]


def _turn_lines(rnd: dict[str, Any], explain: bool) -> list[str]:
    """The text of a round's turns; with ``explain``, a ``rules:`` line under each."""
    lines: list[str] = []
    for t in rnd["turns"]:
        lines.append(f"    {t['text']}")
        if explain:
            lines.append(rules_line(t))
    return lines


def _ending_json(out: dict[str, Any], error: IllegalMove | None, applied: list[str], explain: bool) -> dict[str, Any]:
    """A report's JSON ``out`` completed: the first error, if any, and with ``explain`` the rules of the game."""
    if error is not None:
        out["error"] = {"rule": error.rule_id, "message": error.message, "path": error.path}
    if explain:
        out["applied"] = applied
    return out


def _ending_text(lines: list[str], error: IllegalMove | None, applied: list[str], explain: bool) -> str:
    """A report's text ``lines`` completed: with ``explain`` the rules of the game, then the first error, if any."""
    if explain:
        lines.append(game_rules_line(applied))
    if error is not None:
        lines.append(f"error: {error.path}: {error.rule_id}: {error.message}")
    return "\n".join(lines) + "\n"


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
        return _ending_json(out, self.error, self.applied, explain)

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
                lines += _turn_lines(rnd, explain)
            if "times" in st:
                lines += _stage_end_lines(st)
        if self.classification:
            lines.append("Rally classification:")
            for i, row in enumerate(self.classification, start=1):
                lines.append(f"  {i}. {row['name']} {format_time(row['overall'])}")
        return _ending_text(lines, self.error, self.applied, explain)


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


#: a stage turn's report object with its keys in their order (:func:`_stage_outcome_json` copies it and fills the
#: values in, as :func:`_race_outcome_json` does: a copy is a block copy, a dict display of 20 keys grows an empty
#: dict key by key)
_STAGE_TURN_KEYS: dict[str, Any] = dict.fromkeys((
    "player", "start", "path", "end", "gear", "card", "warnings", "blocked", "finished", "retired", "flat_out",
    "flat_out_failed", "seconds_gained", "seconds_spent", "damage", "shortcut_tokens", "spare_tire", "sisu", "leader",
    "text"))


def _stage_outcome_json(o: Outcome, explain: bool = True) -> dict[str, Any]:
    """A stage turn's outcome as the report's JSON (``seconds_gained``/``seconds_spent`` read as the tokens
    ``gained``/``spent`` they name: no property call per turn): a copy of :data:`_STAGE_TURN_KEYS` whose values are
    replaced, the same keys in the same order as a dict display of every field."""
    card = o.card
    d = _STAGE_TURN_KEYS.copy()
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
                 _stage_outcome_json)


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
        out: dict[str, Any] = {"title": self.title, "race": {"circuit": self.circuit, "laps": self.laps, "grid": self.grid,
                                             **({"format": self.format} if self.format != "rx" else {}),
                                             "weather": self.weather, "rounds": rounds, "result": self.result},
               "ok": self.ok}
        return _ending_json(out, self.error, self.applied, explain)

    def to_text(self, explain: bool = False) -> str:
        """The report as text; with ``explain``, a ``rules:`` line under each turn (``rallyc replay --explain``)."""
        lines = [self.title] if self.title else []
        kind = {"rx": "RX race", "ice": "Ice race", "custom": "Custom Head-to-Head"}.get(self.format, f"{self.format} race")
        lines.append(f"{kind} on {self.circuit}: " + (f"{self.laps} laps" if self.laps else "a stage, no laps")
                     + (f", RX Weather, starting {self.weather}" if self.weather else ""))
        lines.append("  Grid: " + ", ".join(f"{g['player']} {g['space']}" for g in self.grid))
        for rnd in self.rounds:
            lines.append(f"  Round {rnd['round']} ({rnd['colour']}): {', '.join(rnd['order'])}")
            lines += _turn_lines(rnd, explain)
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
        return _ending_text(lines, self.error, self.applied, explain)


#: a report's turn object with its keys in their order (:func:`_race_outcome_json` copies it and fills the values in)
_RACE_TURN_KEYS: dict[str, Any] = dict.fromkeys((
    "player", "start", "path", "end", "gear", "warnings", "blocked", "flat_out", "flat_out_failed", "focus_gained",
    "focus_spent", "damage", "shortcut_tokens", "yellow_flags", "laps", "joker", "finished", "position",
    "disqualified", "retired", "weather", "text"))


def _race_outcome_json(o: RxOutcome, explain: bool = True) -> dict[str, Any]:
    """One turn of the report. Built as a copy of :data:`_RACE_TURN_KEYS` whose values are replaced (about 1,500 machine
    instructions for the copy and 120 a value) rather than as a dict literal, which inserts key by key (about 500
    a key): the same keys in the same order."""
    d = _RACE_TURN_KEYS.copy()
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
                                            "turns": turns}, _race_outcome_json)


def race_result_json(res: RaceResult) -> dict[str, Any]:
    """The report's result: finishing order, disqualified, retired, laps and Jokers per car, and the cars still
    racing when the record stopped (RX-END-04: play may continue for the other places)."""
    result = {"order": res.order, "disqualified": res.disqualified, "retired": res.retired,
              "laps": dict(sorted(res.laps.items())), "joker": dict(sorted(res.joker.items()))}
    if res.racing:
        result["racing"] = res.racing
    return result
