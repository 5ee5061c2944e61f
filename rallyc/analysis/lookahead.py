"""What a driver can know of the road ahead before it plays: distance to the finish and the highest gear from
which every speed limit ahead can still be respected.

These tables are the drivers' estimate of a position's worth (the time still to drive from a space in a
gear); they are computed once per track from the space graph and depend on nothing a player does.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from rallyc.rules.core.state import TrackIndex

__all__ = ["RoadAhead", "road_ahead", "safe_gears", "steps_ahead", "worth"]

#: the highest gear of any Dashboard (Gear 6, CORE-DICE)
TOP_GEAR = 6


@dataclass(frozen=True)
class RoadAhead:
    """Per space: spaces still to drive to the finish, and the highest gear that can still slow down in time
    for every speed limit ahead (one gear per space, the Gear dice's step)."""

    remaining: dict[str, int]
    safe_gear: dict[str, int]
    #: per space, the route steps a car on it can still reach (its own and every step ahead of it)
    steps_ahead: dict[str, frozenset[int]]

    def worth(self, space: str, gear: int, *, per_space: float, momentum: float, overspeed: float) -> float:
        """Estimated seconds still to drive from ``space`` in ``gear`` (lower is better)."""
        left = self.remaining.get(space)
        if left is None:  # a dead end or a space off the route: as bad as the start
            left = max(self.remaining.values(), default=0) + 1
        return worth(left, gear, self.safe_gear.get(space, TOP_GEAR), per_space=per_space, momentum=momentum,
                     overspeed=overspeed)


def worth(left: float, gear: int, safe: int, *, per_space: float, momentum: float, overspeed: float) -> float:
    """The price of a position, in the unit of ``per_space`` (seconds on a stage, turns in an RX race): ``left``
    spaces still to drive, less the ``gear`` carried into the next turn (up to the ``safe`` gear), plus a penalty
    per gear above it (braking hard, or a forced Loss of Control). The strong stage and RX drivers share it."""
    return per_space * left - momentum * min(gear, safe) + overspeed * max(0, gear - safe)


def safe_gears(index: TrackIndex) -> dict[str, int]:
    """Per space, the highest gear from which every speed limit (and Chicane limit) ahead can still be met, one
    gear a space (the Gear dice's step): the space's own limit, or one more than the safe gear of a space after
    it. Relaxed until nothing changes, so it serves a stage and a closed circuit alike (the result does not
    depend on the order; the order by progress makes a stage one pass)."""
    spaces = index.spaces
    safe: dict[str, int] = {}
    for sid, sp in spaces.items():
        own = TOP_GEAR if sp.limit is None else sp.limit
        safe[sid] = own if sp.chicane is None else min(own, sp.chicane)
    order = sorted(spaces, key=lambda s: (-spaces[s].progress, s))
    changed = True
    while changed:
        changed = False
        for sid in order:
            low = min([safe[sid], *[safe[t] + 1 for t in index.succ.get(sid, ())]])
            if low < safe[sid]:
                safe[sid], changed = low, True
    return safe


def steps_ahead(index: TrackIndex) -> dict[str, frozenset[int]]:
    """Per space, the route steps of the spaces a car on it can still reach (its own included), relaxed until
    nothing changes like :func:`safe_gears` (one pass on a stage, whose steps only ever grow along the road)."""
    spaces = index.spaces
    succ = [index.succ, index.succ_handbrake]
    ahead = {sid: frozenset((sp.step,)) for sid, sp in spaces.items()}
    order = sorted(spaces, key=lambda s: (-spaces[s].progress, s))
    changed = True
    while changed:
        changed = False
        for sid in order:
            wider = ahead[sid].union(*[ahead[t] for table in succ for t in table.get(sid, ())])
            if wider != ahead[sid]:
                ahead[sid], changed = wider, True
    return ahead


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
    return RoadAhead(remaining, safe_gears(index), steps_ahead(index))
