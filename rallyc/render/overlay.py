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
    cars = []
    rounds = stage_report.get("rounds", [])
    totals = _totals(rounds, round_no)
    for name, turn in _last_turns(rounds, round_no, {}):
        damage, seconds = totals.get(name, (0, None))
        cars.append(CarMark(colours.get(name, "grey"), turn["end"], turn.get("gear"), tuple(_path(turn)), name,
                            damage=damage, seconds=seconds))
    return _standing_order(cars, rounds, round_no)


def race_cars_after_round(grid: Sequence[Mapping], rounds: Sequence[Mapping], round_no: int,
                          colours: Mapping[str, str], laps: int) -> list[CarMark]:
    """Each car of an RX race after round ``round_no``: space, gear, last turn's path, laps and Joker.

    ``grid`` and ``rounds`` are ``RaceReport.grid`` and ``RaceReport.rounds``; ``laps`` is the race's
    number of laps. A car that has not played yet stands on its grid space with no gear; the note
    under each car reads e.g. ``1/4 laps, Joker in`` (plus FINISHED n, DSQ or DNF once so).
    """
    cars = []
    totals = _totals(rounds, round_no)
    pushed, contact = _contact(rounds, round_no)
    for name, turn in _last_turns(rounds, round_no, {g["player"]: {"end": g["space"]} for g in grid}):
        if name in pushed:  # Full Contact: pushed on since its own last turn
            turn = dict(turn, end=pushed[name], path=[])
        note = f"{turn.get('laps', 0)}/{laps} laps, Joker {turn.get('joker', 'todo')}"
        if name in contact:
            note += ", " + ", ".join(contact[name])
        if turn.get("finished"):
            note += f", FINISHED {turn.get('position')}"
        elif turn.get("disqualified"):
            note += ", DSQ"
        elif turn.get("retired"):
            note += ", DNF"
        damage, seconds = totals.get(name, (0, None))
        cars.append(CarMark(colours.get(name, "grey"), turn["end"], turn.get("gear"), tuple(_path(turn)), name, note,
                            damage=damage, seconds=seconds))
    return _standing_order(cars, rounds, round_no)


def _contact(rounds: Sequence[Mapping], round_no: int) -> tuple[dict[str, str], dict[str, list[str]]]:
    """Full Contact up to round ``round_no``: where each car pushed since its own last turn now stands, and
    per car the notes of round ``round_no`` (``pushed Ann``, ``pushed by Bob``, ``pushed through Ann, Cy``)."""
    where: dict[str, str] = {}
    notes: dict[str, list[str]] = {}
    for rnd in rounds:
        if rnd["round"] > round_no:
            continue
        for turn in rnd.get("turns", []):
            where.pop(turn["player"], None)
            for ev in turn.get("contact") or ():
                names = [c["car"] for c in ev.get("cars", ())]
                for c in ev.get("cars", ()):
                    if c.get("to") != c.get("from"):
                        where[c["car"]] = c["to"]
                if rnd["round"] == round_no:
                    kind = "pushed through" if ev.get("kind") == "through" else "pushed"
                    notes.setdefault(ev["pusher"], []).append(f"{kind} {', '.join(names)}")
                    for n in names:
                        notes.setdefault(n, []).append(f"{kind} by {ev['pusher']}")
    return where, notes


def _totals(rounds: Sequence[Mapping], round_no: int) -> dict[str, tuple[int, int | None]]:
    """Per player up to round ``round_no``: damage tokens taken and seconds of the Time cards played."""
    out: dict[str, tuple[int, int | None]] = {}
    for rnd in rounds:
        if rnd["round"] > round_no:
            continue
        for turn in rnd.get("turns", []):
            damage, seconds = out.get(turn["player"], (0, None))
            damage += len(turn.get("damage") or ())
            for ev in turn.get("contact") or ():  # Full Contact: impact and Push Through damage
                damage += len(ev.get("impact") or ())
                for c in ev.get("cars", ()):
                    d, s = out.get(c["car"], (0, None))
                    out[c["car"]] = (d + len(c.get("damage") or ()), s)
            card = turn.get("card") or {}
            if isinstance(card, Mapping) and card.get("seconds") is not None:
                seconds = (seconds or 0) + int(card["seconds"])
            out[turn["player"]] = (damage, seconds)
    return out


def _standing_order(cars: list[CarMark], rounds: Sequence[Mapping], round_no: int) -> list[CarMark]:
    """The cars in the order of play of the last round shown (the rules' order: the car in front first),
    the others after them by name."""
    order: list[str] = []
    for rnd in rounds:
        if rnd["round"] == round_no:
            order = [t["player"] for t in rnd.get("turns", [])]
    rank = {name: i for i, name in enumerate(order)}
    return sorted(cars, key=lambda c: (rank.get(c.name, len(rank)), c.name))


def _last_turns(rounds: Sequence[Mapping], round_no: int,
                start: dict[str, Mapping]) -> list[tuple[str, Mapping]]:
    """(player, the last turn it played up to round ``round_no``) by player name, for cars with an end space.

    ``start`` holds what stands for a car that has not played yet (an RX car on its grid space).
    """
    last = dict(start)
    for rnd in rounds:
        if rnd["round"] <= round_no:
            for turn in rnd.get("turns", []):
                last[turn["player"]] = turn
    return [(name, last[name]) for name in sorted(last) if last[name].get("end") is not None]


def _path(turn: Mapping) -> Iterable[str]:
    start = turn.get("start")
    spaces = list(turn.get("path") or [])
    if start and (not spaces or spaces[0] != start):
        spaces.insert(0, start)
    return spaces
