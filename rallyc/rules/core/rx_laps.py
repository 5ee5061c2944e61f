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
from weakref import WeakKeyDictionary, finalize

from rallyc.compiler.track import Track

__all__ = ["Laps", "STEP_BOUND", "steps_of"]

#: distances kept per track in its table of steps (:meth:`Laps.step`); beyond that, the table starts again (a car's
#: distances on a track are its spaces' progress plus whole laps: a few per space)
STEP_BOUND = 4096

#: a distance's entry in a track's table of steps: space stepped onto -> (the distance there, the finish-line crossings
#: the step adds, that distance's entry)
Steps = dict[str, tuple[float, int, "Steps"]]

#: per track: distance -> its :data:`Steps` (:meth:`Laps.step`), kept while the track lives, shared by every race and
#: Time Trial on it
_STEPS: WeakKeyDictionary[Track, dict[float, Steps]] = WeakKeyDictionary()


def _forget(steps: dict[float, Steps]) -> None:
    """Empty a table of steps and each of its entries: entries refer to one another (a step back, a lap), and those
    cycles would be left to the cyclic garbage collector."""
    for entry in steps.values():
        entry.clear()
    steps.clear()


def steps_of(track: Track) -> dict[float, Steps]:
    """The track's table of steps (:meth:`Laps.step`), shared by every race and Time Trial on it."""
    steps = _STEPS.get(track)
    if steps is None:
        steps = _STEPS[track] = {}
        finalize(track, _forget, steps)
    return steps


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
        #: the track's table of steps (:meth:`step`; its length and line are the track's)
        self.steps = steps_of(track)

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

    def drive(self, distance: float, crossed: int, path: Sequence[str]) -> tuple[float, int, int | None]:
        """The distance and crossings after ``path`` from ``distance`` with ``crossed`` crossings so far
        (:meth:`advance` then :meth:`crossings`, space by space), and the index of the space where the crossings
        first exceed :attr:`laps` (the car finishes there, RX-END-02), None if they never do.

        Each step is read from the track's table (:meth:`step`): both are functions of the distance and the space
        alone, and a car's distances on one track are few; the distance itself (a float, whose hash is not kept) is
        looked up once per path."""
        node = self.steps.get(distance)
        if node is None:
            node = self._entry(distance)
        laps = self.laps
        d = distance
        fin = 0 if crossed > laps and path else None  # (past the last lap already: from the first space)
        for i, sid in enumerate(path):
            try:
                d, added, node = node[sid]
            except KeyError:  # (a step not met yet on this track: worked out once)
                d, added, node = self.step(d, sid)
            if added:
                crossed += added
                if fin is None and crossed > laps:
                    fin = i
        return d, crossed, fin

    def _entry(self, distance: float) -> Steps:
        """``distance``'s entry in the track's table of steps, a new one if it has none (the table kept bounded)."""
        steps = self.steps
        if len(steps) >= STEP_BOUND:
            _forget(steps)
        got: Steps = {}
        steps[distance] = got
        return got

    def step(self, distance: float, space: str) -> tuple[float, int, Steps]:
        """One step of :meth:`drive` onto ``space`` from ``distance``: the distance there (:meth:`advance`) and the
        finish-line crossings the step adds (:meth:`crossings`), and the new distance's entry in the track's table;
        kept in ``distance``'s entry."""
        nd = self.advance(distance, space)
        entry = self.steps.get(distance)
        if entry is None:
            entry = self._entry(distance)
        after = self.steps.get(nd)
        if after is None:
            after = self._entry(nd)
        got = entry[space] = (nd, self.crossings(distance, nd), after)
        return got
