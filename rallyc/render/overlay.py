"""The replay overlay: where every car stands after a round, its gear, and the path of its last turn.

The positions come from the rules interpreter's replay (``rallyc.records.replay``):
its report lists, per stage, the rounds played and per turn the player, the
spaces driven (``path``), the end space and the gear. Nothing here re-applies
the rules: the overlay only draws what the replay computed.
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from rallyc.render.scene import CarMark

__all__ = ["cars_after_round", "last_round", "race_cars_after_round"]


def last_round(stage_report: Mapping) -> int:
    """The number of the last round in a stage's replay report (0 when no turn was played)."""
    return max((r["round"] for r in stage_report.get("rounds", [])), default=0)


def cars_after_round(stage_report: Mapping, round_no: int, colours: Mapping[str, str]) -> list[CarMark]:
    """Each car after round ``round_no`` of one stage: its space, gear and the spaces of its last turn.

    ``stage_report`` is one entry of ``ReplayReport.stages``; ``colours`` maps player name -> car colour.
    A car that has not played yet by that round is left out; a car keeps the path of the last turn it
    played up to that round (empty when that turn did not move it).
    """
    last: dict[str, Mapping] = {}
    for rnd in stage_report.get("rounds", []):
        if rnd["round"] > round_no:
            continue
        for turn in rnd.get("turns", []):
            last[turn["player"]] = turn
    cars = []
    for name in sorted(last):
        turn = last[name]
        end = turn.get("end")
        if end is None:
            continue
        path = tuple(_path(turn))
        cars.append(CarMark(colours.get(name, "grey"), end, turn.get("gear"), path, name))
    return cars


def race_cars_after_round(grid: Sequence[Mapping], rounds: Sequence[Mapping], round_no: int,
                          colours: Mapping[str, str], laps: int) -> list[CarMark]:
    """Each car of an RX race after round ``round_no``: space, gear, last turn's path, laps and Joker.

    ``grid`` and ``rounds`` are ``RaceReport.grid`` and ``RaceReport.rounds``; ``laps`` is the race's
    number of laps. A car that has not played yet stands on its grid space with no gear; the note
    under each car reads e.g. ``1/4 laps, Joker in`` (plus FINISHED n, DSQ or DNF once so).
    """
    last: dict[str, Mapping] = {g["player"]: {"end": g["space"]} for g in grid}
    for rnd in rounds:
        if rnd["round"] > round_no:
            continue
        for turn in rnd.get("turns", []):
            last[turn["player"]] = turn
    cars = []
    for name in sorted(last):
        turn = last[name]
        end = turn.get("end")
        if end is None:
            continue
        note = f"{turn.get('laps', 0)}/{laps} laps, Joker {turn.get('joker', 'todo')}"
        if turn.get("finished"):
            note += f", FINISHED {turn.get('position')}"
        elif turn.get("disqualified"):
            note += ", DSQ"
        elif turn.get("retired"):
            note += ", DNF"
        cars.append(CarMark(colours.get(name, "grey"), end, turn.get("gear"), tuple(_path(turn)), name, note))
    return cars


def _path(turn: Mapping) -> Iterable[str]:
    start = turn.get("start")
    spaces = list(turn.get("path") or [])
    if start and (not spaces or spaces[0] != start):
        spaces.insert(0, start)
    return spaces
