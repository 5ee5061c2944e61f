"""RX order of play (RX-ORDER-01..04) and the starting grid on the Pre-grid (RX-SETUP-05..07).

Speed, then Distance (laps, then progress: Ambiguity 26), then Position: the car on the inside lane of the
current or next corner, a corner being any section with speed limits (Ambiguity 27). Cars still tied keep
the previous round's order (the grid order in round 1).
"""

from __future__ import annotations

from rallyc.rules.core.state import TrackIndex

__all__ = ["is_inside", "order_key", "grid"]

#: lanes across the road, left to right as driven
_LATERAL = {"l": 0, "ml": 1, "m": 2, "mr": 3, "r": 4}


def _limited(index: TrackIndex, sid: str) -> bool:
    s = index.spaces[sid]
    return s.kind == "corner" or (s.limit is not None and s.lane[:2] in ("in", "ou"))


def is_inside(index: TrackIndex, sid: str, horizon: int = 60) -> bool:
    """On the inside lane of the current or next speed-limited section (RX-ORDER-04, Ambiguity 27).

    On such a section the inside spaces are the ``in`` ones; before it, the lane that leads straight into
    them (the lane followed ahead, as the core Position rule does for corners). Worked out once per track and
    space (``index.inside_ahead``).
    """
    key = (sid, horizon)
    got = index.inside_ahead.get(key)
    if got is None:
        got = index.inside_ahead[key] = _is_inside(index, sid, horizon)
    return got


def _is_inside(index: TrackIndex, sid: str, horizon: int) -> bool:
    s = index.spaces[sid]
    if _limited(index, sid):
        return s.lane.startswith("in")
    graph = index.track.graph
    cur = s
    for _ in range(horizon):
        nxt = [index.spaces[n] for n in index.succ.get(cur.id, [])]
        ahead = [n for n in nxt if _limited(index, n.id)]
        if ahead:
            moves = {n.lane[:2]: graph.edges[cur.id, n.id].get("move") for n in ahead}
            if moves.get("in") == "straight":
                return True
            return "in" in moves and "ou" not in moves
        same = [n for n in nxt if n.lane == cur.lane]
        if not same:
            return False
        cur = same[0]
    return False


def order_key(gear: int, distance: float, inside: bool, previous: int) -> tuple[int, float, bool, int]:
    """Sort key of a car for the RX order of play: smaller plays first (RX-ORDER-01..04)."""
    return (-gear, -round(distance, 6), not inside, previous)


def grid(index: TrackIndex) -> list[str]:
    """The Pre-grid spaces in placing order: Pole Position first (the front row's inside lane), then across
    the row; "once there are no more spaces in a row, cars are placed in the row behind, starting with the inside
    lane" (RX-SETUP-06/07): the rows of start spaces, then the rows of road behind them, back to the start of the
    road."""
    starts = index.start_spaces
    rows: dict[str, list[str]] = {}
    for sid in starts:
        rows.setdefault(index.spaces[sid].zone_key, []).append(sid)
    ordered = sorted(rows.values(), key=lambda ids: -max(index.spaces[i].progress for i in ids))
    if not ordered:
        return []
    ordered += _rows_behind(index, ordered[-1], set(starts))
    front = sorted(ordered[0], key=lambda i: _LATERAL.get(index.spaces[i].lane, 9))
    right_inside = not is_inside(index, front[0]) and is_inside(index, front[-1])
    out = []
    for row in ordered:
        lanes = sorted(row, key=lambda i: _LATERAL.get(index.spaces[i].lane, 9), reverse=right_inside)
        out.extend(lanes)
    return out


def _rows_behind(index: TrackIndex, row: list[str], seen: set[str]) -> list[list[str]]:
    """The rows of lane spaces behind ``row``, nearest first, on the start tile or the Pre-grid: each the zone of the
    spaces from which a car drives into the row before it (no slide, Shortcut or corner space: a grid row is a row
    of lanes)."""
    graph = index.track.graph
    steps = {index.spaces[sid].step for sid in row}  # the start tile (a circuit's road behind it is its last lap)
    found: list[list[str]] = []
    while True:
        behind: dict[str, list[str]] = {}
        for sid in row:
            for p in graph.predecessors(sid):
                s = index.spaces.get(p)
                if p in seen or s is None or s.kind != "lane" or s.lane not in _LATERAL or \
                        not (s.step in steps or s.pregrid):
                    continue
                behind.setdefault(s.zone_key, []).append(p)
        if not behind:
            return found
        row = sorted(set(max(behind.values(), key=lambda ids: max(index.spaces[i].progress for i in ids))))
        seen.update(row)
        found.append(row)
