"""A Head-to-Head on a stage (RX book, Customisable Races: CUSTOM-03/04/05): the race variant of the one turn engine
run on an open track.

All cars start in the same round from the places behind the Starting Line (the stage's start spaces, Pole Position
first as on a Pre-grid), play in the order Speed > Distance > Position, earn and spend Focus tokens, and the first
car across the Finish Line wins (CUSTOM-05). Everything else is the race (:class:`~rallyc.rules.core.race.Race`) with the
custom format the Track Rules choose (:meth:`rallyc.rules.variants.custom.CustomRace.race_format`); this module only says
what the racetrack changes: distance along an open road instead of laps, a finish without laps, no Joker.
"""

from __future__ import annotations

from rallyc.compiler.track import Track
from rallyc.rules.core.race import Race
from rallyc.rules.core.rx_laps import Laps, steps_of

__all__ = ["StageCourse", "StageRace"]


class StageCourse(Laps):
    """Distance along a stage (CUSTOM-03): a space's progress along the road; a space past the Finish Line counts
    one crossing more, so the race's finish (a crossing after the last of zero laps) is the stage's finish."""

    def __init__(self, track: Track) -> None:  # noqa: super().__init__ asks for a closed loop
        if track.kind != "stage":
            raise ValueError(f"{track.name} is a {track.kind}, not a stage (CUSTOM-03)")
        if not any(s.after_finish or s.past_finish for s in track.spaces.values()):
            raise ValueError(f"{track.name} has no Finish Line (CUSTOM-03)")
        self.track = track
        self.spaces = track.spaces
        #: no lap: reaching the Finish Line ends the race (CUSTOM-03)
        self.laps = 0
        #: beyond every space's progress: a space past the Finish Line stands one "length" further on
        self.length = max(s.progress for s in track.spaces.values()) + 1.0
        self.line = self.length
        self.steps = steps_of(track)

    def _past(self, space: str) -> bool:
        s = self.track.spaces[space]
        return bool(s.after_finish or s.past_finish)

    def start_distance(self, space: str) -> float:
        """A car behind the Starting Line: the progress of its space."""
        return self.advance(0.0, space)

    def advance(self, distance: float, space: str) -> float:
        """The distance on ``space``: its progress, one length more past the Finish Line (CORE-STAGEEND-02)."""
        return self.track.spaces[space].progress + (self.length if self._past(space) else 0.0)

    def crossings(self, before: float, after: float) -> int:
        """1 when the move takes the car past the Finish Line."""
        return int(before < self.line <= after)

    def laps_done(self, crossed: int) -> int:
        """No laps on a stage."""
        return 0


class StageRace(Race):
    """A Head-to-Head on a stage: the race run on an open track (CUSTOM-03/05); the format comes from the Track
    Rules (``race_format``, :func:`rallyc.rules.core.race_format.custom_format`)."""

    def course(self, track: Track) -> Laps:
        return StageCourse(track)
