"""The rally sheet: stage times, penalties and positions after every stage, as data to print.

A :class:`Sheet` is a table: one row per player in the order of the classification (or the finishing order of a
race), one column per stage of a rally (per event of an Auto Tour; laps, Joker lap and result for an RX race),
and a last column with the total. It is built from what the referee worked out, never by re-applying a rule:

- a rally (or a one-stage game): :func:`rally_sheet` over a :class:`~rallyc.records.replay.ReplayReport`: each
  stage's registered times with their Checkpoint penalties (CORE-STAGEEND-08, CORE-ADV-09/10, a retired car's
  CORE-RETIRE-03) and the rally classification after each stage (CORE-RALLY-14/15, ``report.after_stage``);
- an RX race (Ice, a custom Head-to-Head): :func:`race_sheet` over a :class:`~rallyc.records.report.RaceReport`:
  the finishing order, the disqualified and the retired (RX-END);
- an Auto Tour: :func:`tour_sheet` over a :class:`~rallyc.records.tour.TourReport`: the seconds each event adds
  and the standings after it (TOUR-06..09).

:func:`record_sheet` picks the one a replay's report needs. :mod:`rallyc.table.sheet_render` prints a sheet as
SVG pages (PDF through them) or one HTML page.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Sequence

from rallyc.records.report import RaceReport
from rallyc.records.replay import ReplayReport, format_time
from rallyc.records.tour import TourReport

__all__ = ["Cell", "Column", "Row", "Sheet", "rally_sheet", "race_sheet", "tour_sheet", "record_sheet", "under_way",
           "ordinal"]


@dataclass(frozen=True)
class Cell:
    """One cell: its main line (a time, a count) and smaller lines under it (a position, a penalty, why)."""

    main: str
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Column:
    """A column of the sheet after the position and the driver: its head and a smaller line under it."""

    head: str
    sub: str = ""
    #: numbers (times, laps) are aligned right, words left
    numeric: bool = True


@dataclass(frozen=True)
class Row:
    """One player's line: the position (``1``, ``DSQ``, ``DNF``...), the name, the car colour and the cells."""

    position: str
    name: str
    colour: str
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class Sheet:
    """A rally sheet (see the module docstring); ``notes`` are lines printed under the table."""

    title: str
    kind: str
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]
    notes: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        """The sheet as JSON data (the browser page shows it)."""
        return {"title": self.title, "kind": self.kind, "notes": list(self.notes),
                "columns": [{"head": c.head, "sub": c.sub, "numeric": c.numeric} for c in self.columns],
                "rows": [{"position": r.position, "name": r.name, "colour": r.colour,
                          "cells": [{"main": c.main, "notes": list(c.notes)} for c in r.cells]} for r in self.rows]}


def ordinal(n: int) -> str:
    """``1`` -> ``1st``, ``2`` -> ``2nd``, ``11`` -> ``11th``."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _colours(players: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    return {str(p["name"]): str(p.get("colour", "")) for p in players}


def _ranks(times: Mapping[str, int | None]) -> dict[str, int]:
    """The position of each time on a stage, the fastest first; equal times share a position, no time none."""
    timed = sorted(t for t in times.values() if t is not None)
    return {name: timed.index(t) + 1 for name, t in times.items() if t is not None}


def _stage_cell(entry: Mapping[str, Any], name: str, stage_rank: Mapping[str, int],
                after: Mapping[str, tuple[int, int | None]] | None) -> Cell:
    """A player's cell of one stage: the stage time and its position, the penalty or the retirement, and the
    overall time and position after the stage."""
    if "times" not in entry:
        return Cell("--", ("not finished",))
    time = entry["times"].get(name)
    detail = entry.get("detail", {}).get(name, {})
    notes: list[str] = []
    main = format_time(time)
    if name in stage_rank:
        main += f" ({stage_rank[name]})"
    if detail.get("status") == "retired":
        notes.append("retired: slowest + 1:00")
    if detail.get("penalty"):
        notes.append(f"+{detail['penalty']} s checkpoint")
    if after is not None and name in after:
        pos, overall = after[name]
        notes.append(f"total {format_time(overall)} ({ordinal(pos)})")
    return Cell(main, tuple(notes))


def rally_sheet(report: ReplayReport, players: Sequence[Mapping[str, Any]]) -> Sheet:
    """The sheet of a rally (or a one-stage game) replayed: a column per stage (time, stage position, penalty, the
    overall time and position after it) and the classification (CORE-RALLY-15)."""
    colours = _colours(players)
    names = [str(p["name"]) for p in players]
    columns: list[Column] = []
    per_player: dict[str, list[Cell]] = {n: [] for n in names}
    for k, entry in enumerate(report.stages):
        columns.append(Column(str(entry["stage"]), "stage time (position)"))
        ranks = _ranks(entry["times"]) if "times" in entry else {}
        after = None
        if k < len(report.after_stage):
            after = {row["name"]: (i, row["overall"]) for i, row in enumerate(report.after_stage[k], start=1)}
        for n in names:
            per_player[n].append(_stage_cell(entry, n, ranks, after))
    order = [row["name"] for row in report.classification] if report.classification else \
        [row["name"] for row in report.after_stage[-1]] if report.after_stage else names
    final = report.classification or (report.after_stage[-1] if report.after_stage else [])
    total = {row["name"]: row["overall"] for row in final}
    done = bool(report.classification)
    columns.append(Column("Overall", "rally classification" if done else "so far"))
    rows = []
    for i, n in enumerate(order, start=1):
        cells = per_player.get(n, [])
        cells.append(Cell(format_time(total.get(n)), ()))
        rows.append(Row(str(i) if final else "", n, colours.get(n, ""), tuple(cells)))
    notes = []
    if report.error is not None:
        e = report.error
        notes.append(f"The replay stops at {e.path}: [{e.rule_id}] {e.message}")
    kind = "Rally" if len(report.stages) > 1 else "Stage"
    return Sheet(report.title or "Rally", kind, tuple(columns), tuple(rows), tuple(notes))


def race_sheet(report: RaceReport, players: Sequence[Mapping[str, Any]]) -> Sheet:
    """The sheet of an RX race (Ice, a custom Head-to-Head): the finishing order, then the disqualified, the
    retired and the cars still racing when play stopped (RX-END); laps and Joker lap for each."""
    colours = _colours(players)
    result = report.result or {}
    laps, joker = dict(result.get("laps", {})), dict(result.get("joker", {}))
    if not result:  # a race under way (or stopped by an illegal turn): each car's laps after its last turn
        for rnd in report.rounds:
            for turn in rnd["turns"]:
                laps[turn["player"]] = turn.get("laps") or 0
                joker[turn["player"]] = turn.get("joker") == "done"
    listed: list[tuple[str, str, str]] = [(str(i), n, f"{ordinal(i)} across the line")
                                          for i, n in enumerate(result.get("order", []), start=1)]
    listed += [("DSQ", n, "disqualified: no Joker lap") for n in result.get("disqualified", [])]
    listed += [("DNF", n, "retired") for n in result.get("retired", [])]
    listed += [("--", n, "still racing") for n in result.get("racing", [])]
    seen = {n for _, n, _ in listed}
    listed += [("", str(p["name"]), "no result") for p in players if p["name"] not in seen]
    circuit = report.laps > 0
    columns = ((Column("Laps", f"of {report.laps}"), Column("Joker lap", "taken or not", numeric=False))
               if circuit else ()) + (Column("Result", "RX-END", numeric=False),)
    rows = []
    for pos, n, why in listed:
        cells: tuple[Cell, ...] = ()
        if circuit:
            cells = (Cell(f"{laps.get(n, 0)}/{report.laps}"), Cell("taken" if joker.get(n) else "not taken"))
        rows.append(Row(pos, n, colours.get(n, ""), cells + (Cell(why),)))
    notes = []
    if report.error is not None:
        e = report.error
        notes.append(f"The replay stops at {e.path}: [{e.rule_id}] {e.message}")
    kind = {"rx": "RX race", "ice": "Ice race", "custom": "Head-to-Head"}.get(report.format, "Race")
    title = report.title or report.circuit
    return Sheet(title, f"{kind} on {report.circuit}", tuple(columns), tuple(rows), tuple(notes))


def tour_sheet(report: TourReport, players: Sequence[Mapping[str, Any]]) -> Sheet:
    """The sheet of an Auto Tour: a column per event (the seconds it adds and why, the standings after it,
    TOUR-06/07) and the tour standings (TOUR-09)."""
    colours = _colours(players)
    names = [str(p["name"]) for p in players]
    kinds = {"time-trial": "Time Trial", "head-to-head": "Head-to-Head"}
    columns = []
    cells: dict[str, list[Cell]] = {n: [] for n in names}
    for ev in report.events:
        columns.append(Column(f"Event {ev['event']}", f"{kinds.get(ev['race_type'], ev['race_type'])}: {ev['track']}"))
        after = {row["name"]: (i, row["total"]) for i, row in enumerate(ev["standings"], start=1)}
        for n in names:
            if n not in ev["seconds"]:
                cells[n].append(Cell("--"))
                continue
            pos, total = after[n]
            cells[n].append(Cell(f"+{format_time(ev['seconds'][n])}",
                                 (str(ev["why"][n]), f"total {format_time(total)} ({ordinal(pos)})")))
    final = report.standings or (report.events[-1]["standings"] if report.events else [])
    order = [row["name"] for row in final] or names
    totals = {row["name"]: row["total"] for row in final}
    columns.append(Column("Tour", "winner: " + report.winner if report.winner else "so far"))
    rows = []
    for i, n in enumerate(order, start=1):
        rows.append(Row(str(i) if final else "", n, colours.get(n, ""),
                        tuple(cells.get(n, [])) + (Cell(format_time(totals.get(n))),)))
    notes = []
    if report.error is not None:
        e = report.error
        notes.append(f"The replay stops at {e.path}: [{e.rule_id}] {e.message}")
    return Sheet(report.title or "Auto Tour", "Auto Tour", tuple(columns), tuple(rows), tuple(notes))


def record_sheet(data: Mapping[str, Any], report: ReplayReport | RaceReport | TourReport) -> Sheet:
    """The sheet of a replayed record (a game's or a tour's), whichever kind its report is."""
    players = data.get("players", [])
    if isinstance(report, TourReport):
        return tour_sheet(report, players)
    if isinstance(report, RaceReport):
        return race_sheet(report, players)
    return rally_sheet(report, players)


def under_way(sheet: Sheet) -> Sheet:
    """The sheet of a game at the table still being played: its record stops where the game is, which is no error
    to print under the table."""
    return replace(sheet, kind=f"{sheet.kind} (under way)", notes=())
