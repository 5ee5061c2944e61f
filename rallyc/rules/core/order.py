"""Order of play: Distance > Speed > Position, cars off the road, staggered starts (CORE-ORDER, CORE-START)."""

from __future__ import annotations

from typing import Callable

from rallyc.rules.core.state import Car, TrackIndex

#: a car's Distance along the track (CORE-ORDER-04): its space's progress by default; laps count on a circuit
Distance = Callable[[Car], float]

__all__ = ["order_key", "round_order", "order_rules", "Distance"]


def order_key(car: Car, index: TrackIndex, previous: int, offroad_tie: str = "on-road-first",
              distance: Distance | None = None) -> tuple[float, int, int, bool, int]:
    """Sort key of a car on the stage: smaller plays first.

    Distance (front edge furthest along the road, CORE-ORDER-04), then, at equal distance, a car on the
    road before one beside it (CORE-ORDER-07/08, reading 2), then the higher gear (CORE-ORDER-05), then the
    inside lane of the current or next corner (CORE-ORDER-06), then the previous round's order.
    """
    space = car.space or ""
    progress = distance(car) if distance is not None else index.spaces[space].progress
    off = not car.impedes
    inside = index.inside.get(space, False)
    if offroad_tie == "on-road-first":
        return (-progress, off, -car.gear, not inside, previous)
    return (-progress, -car.gear, off, not inside, previous)


def round_order(cars: list[Car], start_order: list[str], round_no: int, index: TrackIndex,
                previous: list[str], offroad_tie: str = "on-road-first", distance: Distance | None = None
                ) -> list[str]:
    """The order of play of round ``round_no`` (1-based).

    Cars already on the stage play first in order of play (CORE-ORDER-03); the car whose start is due
    this round plays last (the n-th starter's first turn is in round n, CORE-START-01/02). Cars waiting
    keep their starting order (CORE-START-04).
    """
    rank = {name: i for i, name in enumerate(previous)}
    on_stage = [c for c in cars if c.on_stage]

    def key(c: Car) -> tuple[float, int, int, bool, int]:
        # a car not in the previous order (it started since) comes after those that were, in starting order
        previous_rank = rank.get(c.name)
        if previous_rank is None:
            previous_rank = len(rank) + start_order.index(c.name)
        return order_key(c, index, previous_rank, offroad_tie, distance)

    order = [c.name for c in sorted(on_stage, key=key)]
    starter = start_order[round_no - 1] if round_no - 1 < len(start_order) else None
    if starter is not None and any(c.status == "waiting" and c.name == starter for c in cars):
        order.append(starter)
    return order


def order_rules(cars: list[Car], start_order: list[str], round_no: int, index: TrackIndex,
                distance: Distance | None = None) -> tuple[str, ...]:
    """The rule IDs that decided round ``round_no``'s order of play (what :func:`round_order` applied)."""
    out = ["CORE-ORDER-01", "CORE-ORDER-02"]
    on_stage = [c for c in cars if c.on_stage]
    if len(on_stage) > 1:
        out += ["CORE-ORDER-03", "CORE-ORDER-04"]
        out += _tie_rules(on_stage, index, distance)
    if any(not c.impedes for c in on_stage):
        out.append("CORE-ORDER-07")
    waiting = [c for c in cars if c.status == "waiting"]
    if round_no - 1 < len(start_order) and waiting:
        out.append("CORE-START-01")
        if on_stage:
            out.append("CORE-START-02")
        if len(waiting) > 1:
            out.append("CORE-START-04")
    return tuple(dict.fromkeys(out))


def _tie_rules(on_stage: list[Car], index: TrackIndex, distance: Distance | None) -> list[str]:
    """The rules that broke ties between cars at the same Distance: on the road or beside it (CORE-ORDER-08), the
    higher gear (CORE-ORDER-05), else the inside lane (CORE-ORDER-06)."""
    by_progress: dict[float, list[Car]] = {}
    for c in on_stage:
        d = distance(c) if distance is not None else index.spaces[c.space or ""].progress
        by_progress.setdefault(d, []).append(c)
    out = []
    for tied in by_progress.values():
        if len(tied) < 2:
            continue
        if len({c.impedes for c in tied}) > 1:
            out.append("CORE-ORDER-08")
        if len({c.gear for c in tied}) > 1:
            out.append("CORE-ORDER-05")
        elif len({index.inside.get(c.space or "", False) for c in tied}) > 1:
            out.append("CORE-ORDER-06")
    return out
