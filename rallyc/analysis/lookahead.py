"""What a driver can know of the road ahead before it plays: distance to the finish and the highest gear from
which every speed limit ahead can still be respected.

These tables are the drivers' estimate of a position's worth (the time still to drive from a space in a
gear); they are computed once per track from the space graph and depend on nothing a player does.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from rallyc.rules.state import TrackIndex

__all__ = ["RoadAhead", "road_ahead"]

#: the highest gear of any Dashboard (Gear 6, CORE-DICE)
TOP_GEAR = 6


@dataclass(frozen=True)
class RoadAhead:
    """Per space: spaces still to drive to the finish, and the highest gear that can still slow down in time
    for every speed limit ahead (one gear per space, the Gear dice's step)."""

    remaining: dict[str, int]
    safe_gear: dict[str, int]

    def worth(self, space: str, gear: int, *, per_space: float, momentum: float, overspeed: float) -> float:
        """Estimated seconds still to drive from ``space`` in ``gear`` (lower is better)."""
        left = self.remaining.get(space)
        if left is None:  # a dead end or a space off the route: as bad as the start
            left = max(self.remaining.values(), default=0) + 1
        safe = self.safe_gear.get(space, TOP_GEAR)
        return per_space * left - momentum * min(gear, safe) + overspeed * max(0, gear - safe)


def road_ahead(index: TrackIndex) -> RoadAhead:
    """The tables of one track (finish spaces are at distance 0)."""
    preds: dict[str, list[str]] = {s: [] for s in index.spaces}
    for s, nexts in index.succ.items():
        for t in nexts:
            preds.setdefault(t, []).append(s)
    finish = [s for s, sp in index.spaces.items() if sp.past_finish]
    remaining: dict[str, int] = {s: 0 for s in finish}
    queue = deque(sorted(finish))
    while queue:  # breadth first from the finish, against the direction of travel
        t = queue.popleft()
        for s in sorted(preds.get(t, ())):
            if s not in remaining:
                remaining[s] = remaining[t] + 1
                queue.append(s)
    safe: dict[str, int] = {}
    for sid in sorted(index.spaces, key=lambda s: (-index.spaces[s].progress, s)):
        sp = index.spaces[sid]
        own = TOP_GEAR if sp.limit is None else sp.limit
        if sp.chicane is not None:
            own = min(own, sp.chicane)
        ahead = [safe[t] + 1 for t in index.succ.get(sid, ()) if t in safe]
        safe[sid] = min([own, *ahead])
    return RoadAhead(remaining, safe)
