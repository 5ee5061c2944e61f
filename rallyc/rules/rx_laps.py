"""Laps on an RX circuit: distance along the loop and crossings of the finish line (RX-END-01, Ambiguity 26).

A car's *distance* is ``wraps * lap_length + progress``: the compiler gives every space a progress in
``[0, lap_length)`` along the main loop (Joker and Pre-grid spaces projected onto the loop stretch they run
beside) and marks the edges that close the loop ``lap=True``. Walking a car's path space by space, a drop of
more than half a lap in progress is a wrap. The finish line stands at the back edge of the zone of the
``finish`` standee; a car crosses it when its front edge passes that point.
"""

from __future__ import annotations

import math
from typing import Sequence

from rallyc.compiler.track import Track

__all__ = ["Laps"]


class Laps:
    """Lap geometry of one compiled circuit."""

    def __init__(self, track: Track) -> None:
        if track.kind != "circuit" or not track.lap_length:
            raise ValueError(f"{track.name} is not an RX circuit (no closed loop): an RX race needs a circuit")
        self.track = track
        #: the track's spaces (read per space walked)
        self.spaces = track.spaces
        self.length = float(track.lap_length)
        #: laps to drive (TRACK-RX-09: at least 2; 2 when the circuit says nothing)
        self.laps = int(track.laps or 2)
        self.line = self._line_position()

    def _line_position(self) -> float:
        """Progress of the finish line: the back edge of the zone just past it (TRACK-RX-04)."""
        spaces = self.track.spaces
        zone = next((st.spaces for st in self.track.standees if st.kind == "finish" and st.spaces), None)
        zone = tuple(zone or self.track.finish_spaces)
        if not zone:
            raise ValueError(f"{self.track.name} has no finish line (standee finish)")
        behind = [spaces[p] for z in zone for p in self.track.predecessors(z)
                  if p not in zone and not spaces[p].joker and not spaces[p].pregrid]
        if behind:
            return max(s.progress for s in behind) % self.length
        return min(spaces[z].progress for z in zone) % self.length

    def start_distance(self, space: str) -> float:
        """The distance of a car standing on the grid (no lap driven yet)."""
        return self.track.spaces[space].progress

    def advance(self, distance: float, space: str) -> float:
        """The distance after moving from ``distance`` onto ``space`` (one step or one jump ahead)."""
        p = self.track.spaces[space].progress
        base = math.floor(distance / self.length) * self.length
        new = base + p
        if new < distance - self.length / 2:
            new += self.length
        elif new > distance + self.length / 2:
            new -= self.length
        return new

    def crossings(self, before: float, after: float) -> int:
        """Finish-line crossings between two distances (front edge passing the line)."""
        if after <= before:
            return 0
        first = math.ceil((before - self.line) / self.length - 1e-9)
        last = math.ceil((after - self.line) / self.length - 1e-9) - 1
        return max(0, last - first + 1)

    def laps_done(self, crossed: int) -> int:
        """Laps completed: the run from the Pre-grid to the line is not a lap (RX-END-01)."""
        return max(0, crossed - 1)

    def walk(self, distance: float, crossed: int, path: Sequence[str]) -> list[tuple[float, int]]:
        """(distance, crossings) after each space of ``path`` from ``distance`` with ``crossed`` crossings so far:
        :meth:`advance` then :meth:`crossings` space by space, the same arithmetic in one loop (the End of the
        Turn walks every path it checks)."""
        spaces = self.spaces
        length, line = self.length, self.line
        half = length / 2
        out = []
        d = distance
        # the lap count of the line's side each distance is on: crossings() is the difference of two such counts,
        # each distance's worked out once (x // 1.0 is math.floor(x), -(-x // 1.0) math.ceil(x), as exact floats)
        lapped = -(-((d - line) / length - 1e-9) // 1.0)
        for sid in path:
            nd = d / length // 1.0 * length + spaces[sid].progress  # advance
            if nd < d - half:
                nd += length
            elif nd > d + half:
                nd -= length
            now = -(-((nd - line) / length - 1e-9) // 1.0)
            if nd > d and now > lapped:  # crossings
                crossed += int(now - lapped)
            lapped = now
            d = nd
            out.append((d, crossed))
        return out

    def drive(self, distance: float, crossed: int, path: Sequence[str]) -> tuple[float, int, int | None]:
        """What :meth:`walk` gives at the end of ``path`` (``distance`` and ``crossed`` for an empty one), and the
        index of the space where the crossings first exceed :attr:`laps` (the car finishes there, RX-END-02), None
        if they never do; without the list (the End of the Turn reads only these)."""
        spaces = self.spaces
        length = self.length
        half = length / 2
        d = distance
        for sid in path:
            nd = d / length // 1.0 * length + spaces[sid].progress  # advance, as in walk()
            # walk()'s two tests, the usual step (ahead by less than half a lap) first: a space ahead is never
            # below d - half (each float operation rounds monotonically, so d - half <= d)
            if nd > d:
                if nd > d + half:
                    nd -= length
                    if nd <= d:
                        break
            elif nd < d - half:
                nd += length
                if nd <= d:
                    break
            else:
                break  # a space behind the one before (a Joker or Pre-grid space projected onto the loop)
            d = nd
        else:
            # every space ahead of the one before: walk() adds now - lapped wherever the line's side grows, and that
            # side, -(-((x - line) / length - 1e-9) // 1.0), never shrinks as x grows (each float operation rounds
            # monotonically), so the crossings are the difference of the last side and the first
            line = self.line
            first = -(-((distance - line) / length - 1e-9) // 1.0)
            last = -(-((d - line) / length - 1e-9) // 1.0)
            after = crossed + int(last - first)
            if after <= self.laps:
                return d, after, None
        return _last_and_finish(self.walk(distance, crossed, path), distance, crossed, self.laps)


def _last_and_finish(walk: list[tuple[float, int]], distance: float, crossed: int, laps: int
                     ) -> tuple[float, int, int | None]:
    """:meth:`Laps.drive` from the whole walk: its last (distance, crossings), and where the crossings first
    exceed ``laps``."""
    for i, (_, c) in enumerate(walk):
        if c > laps:
            return walk[-1][0], walk[-1][1], i
    return walk[-1] + (None,) if walk else (distance, crossed, None)
