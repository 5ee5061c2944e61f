"""A Time Trial on a circuit (RX book, Customisable Races: CUSTOM-02/04/06): the core stage run lap by lap.

A staggered start from the places behind the Starting Line, the order Distance > Speed > Position, Time cards and
Second tokens, the lowest time wins (CUSTOM-06): the core stage (:class:`~rallyc.rules.core.stage.Stage`) under Technical
Track rules (CUSTOM-09/14). What the racetrack changes (CUSTOM-02): a car's Distance counts the laps driven
(:class:`~rallyc.rules.core.rx_laps.Laps`, as in an RX race), and a car finishes when it crosses the Finish Line after its
last lap, not at the first crossing.

Named reading (``custom_circuit_joker``): the Joker lap is an RX rule (RX-JOKER-01), an Advanced rule a custom race
may add (CUSTOM-23) but not one of its three choices; without it the Joker branch is not part of the racetrack, so a
Time Trial car may not enter it.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from rallyc.compiler.flipper import Flipper
from rallyc.compiler.track import Track
from rallyc.data.components import Components
from rallyc.rules.core.cards import CardTable
from rallyc.rules.core.engine import TrackContexts
from rallyc.rules.core.plans import Placed
from rallyc.rules.core.options import Options
from rallyc.rules.core.stage import Carry, Player, Stage
from rallyc.rules.core.rx_laps import Laps
from rallyc.rules.core.state import Car
from rallyc.rules.core.turn import Outcome, Turn
from rallyc.rules.core.timecards import StageChange

__all__ = ["CircuitTimeTrial"]

#: a placed die's space
_space_of = attrgetter("space")


class CircuitTimeTrial(Stage):
    """The core stage on a circuit: Distance with laps, the finish after the last lap (CUSTOM-02/06)."""

    def __init__(self, track: Track, players: list[Player], options: Options | None = None,
                 components: Components | None = None, carry: dict[str, Carry] | None = None,
                 one_off: bool = True, flipper: Flipper | None = None, cards: CardTable | None = None) -> None:
        #: lap geometry (RX-END-01): the finish after :attr:`Laps.laps` laps
        self.laps = Laps(track)
        #: per car: distance along the circuit and Finish Line crossings (the run to the line is not a lap)
        self.distance: dict[str, float] = {}
        self.crossed: dict[str, int] = {}
        super().__init__(track, players, options, components, carry, one_off, flipper, cards)

    # a method, not the instance's own bound method (self.distance_of = self._distance): that made a reference
    # cycle of every stage on a circuit, left to the cyclic garbage collector with all its turns and outcomes
    def distance_of(self, car: Car) -> float:
        """The car's distance along the circuit, laps included (the order of play, CORE-ORDER)."""
        d = self.distance.get(car.name)
        if d is None:  # (not driven yet: its space's progress, worked out only then)
            return self.index.spaces[car.space].progress if car.space else 0.0
        return d

    def _drive(self, car: Car, start: str, path: list[str]) -> tuple[float, int, int | None]:
        """The (distance, crossings) after ``path`` from ``start`` and the index of the space where the car crosses
        the Finish Line after its last lap, None if it does not (:meth:`Laps.drive`)."""
        d = self.distance.get(car.name)
        if d is None:
            d = self.laps.start_distance(start)
        return self.laps.drive(d, self.crossed.get(car.name, 0), path)

    def laps_done(self, name: str) -> int:
        """Laps ``name`` has completed (RX-END-01: the run from the start to the line is not a lap)."""
        return min(self.laps.laps_done(self.crossed.get(name, 0)), self.laps.laps)

    def finish_index(self, car: Car, placed: list[Placed]) -> int | None:
        """The die that takes the car across the Finish Line after its last lap (CUSTOM-02)."""
        if car.space is None:  # a starting car has a whole race ahead of it
            return None
        return self._drive(car, car.space, list(map(_space_of, placed)))[2]

    def context_variant(self, car: Car, track: TrackContexts) -> dict[str, Any]:
        """The core stage's; the Joker branch is not part of the racetrack (reading custom_circuit_joker)."""
        variant = super().context_variant(car, track)
        joker = track.barred.get("joker")
        if joker is None:  # once per track
            joker = track.barred["joker"] = {
                s.id: ("CUSTOM-02", f"the Joker lap is not a rule of this Time Trial: {s.id} is not part of the "
                                    f"racetrack (reading custom_circuit_joker)")
                for s in self.index.spaces.values() if s.joker}
        if joker:
            variant["barred"] = {**variant["barred"], **joker} if "barred" in variant else joker
        return variant

    def commit(self, car: Car, turn: Turn, out: Outcome, change: StageChange) -> None:
        if out.path:
            self.distance[car.name], self.crossed[car.name], _ = self._drive(car, out.start, out.path)
        elif car.name not in self.distance:
            self.distance[car.name] = self.laps.start_distance(out.start)
        super().commit(car, turn, out, change)
