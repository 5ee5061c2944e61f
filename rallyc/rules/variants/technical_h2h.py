"""The Technical Head-to-Head (RX book, Customisable Races: CUSTOM-05/07/09/14): a Head-to-Head under Technical
Track rules, played with Time cards, on a stage or a circuit.

Technical Track rules are the core stage's (:class:`~rallyc.rules.core.stage.Stage`): the surfaces and the tires fitted
change the dice (CUSTOM-09) and a Loss of Control is resolved with the Time cards, "so Time cards are used even in a
Head-to-Head" (CUSTOM-14): the card's gear, its "0" side, Spin Outs and Crashes, Damage tokens from its black marks.
What the Head-to-Head changes (CUSTOM-05/07): every car is placed behind the Starting Line before the first round
and plays in it (no staggered start), the order of play is Speed > Distance > Position (as in an RX race), a Flat
Out earns Focus tokens (no time value) and the first car across the Finish Line wins. On a circuit the car races
its laps first (:class:`~rallyc.rules.variants.circuit_trial.CircuitTimeTrial`).

Named reading ``custom_h2h_leader``: the Leader dice stay a rule of the Technical Track (CORE-DICE-15: the round's
first player uses them on gravel); the Head-to-Head only changes who that first player is.
"""

from __future__ import annotations

from rallyc.rules.variants.circuit_trial import CircuitTimeTrial
from rallyc.rules.core.domain import CarStatus
from rallyc.rules.core.driver import Driver
from rallyc.rules.core.engine import FOCUS
from rallyc.rules.core.plans import PlanContext
from rallyc.rules.core.rolling import Movement
from rallyc.rules.core.rx_order import grid, is_inside, order_key
from rallyc.rules.core.stage import Stage, StageResult
from rallyc.rules.core.state import Car
from rallyc.rules.core.timecards import StageChange
from rallyc.rules.core.turn import Outcome, Turn

__all__ = ["TechnicalHeadToHead", "CircuitHeadToHead"]


class TechnicalHeadToHead(Stage):
    """A Head-to-Head under Technical Track rules on a stage: the core stage with the Head-to-Head's start, order
    of play, Focus tokens and winner (CUSTOM-05/07/14)."""

    tokens = FOCUS
    log_tokens = FOCUS
    over_message = "the race is over: every car has finished or retired"

    #: the cars across the Finish Line, first first (CUSTOM-05: the first one wins)
    finishers: list[str]

    def next_round(self) -> None:
        """Round 1: every car on its place behind the Starting Line, Pole Position first (the draw order); then
        Speed > Distance > Position, ties in the previous round's order (CUSTOM-05, RX-ORDER-01..04)."""
        if self.round == 0:
            self.finishers = []
            for name, space in zip(self.start_order, grid(self.index)):
                car = self.cars[name]
                car.status, car.space = CarStatus.ROAD, space
            missing = [n for n in self.start_order if self.cars[n].space is None]
            if missing:
                raise ValueError(f"{self.track.name} has {len(self.start_order) - len(missing)} places behind the "
                                 f"Starting Line for {len(self.start_order)} cars (CUSTOM-05: all start together)")
        if self.is_over():
            return
        previous = {n: i for i, n in enumerate(self.order or self.start_order)}
        racing = [c for c in self.cars.values() if c.on_stage]
        distance = self.distance_of

        def key(c: Car) -> tuple[int, float, bool, int]:
            d = distance(c) if distance is not None else self.index.spaces[c.space or ""].progress
            return order_key(c.gear, d, is_inside(self.index, c.space or ""), previous.get(c.name, len(previous)))

        racing.sort(key=key)
        self.round += 1
        self.order = [c.name for c in racing]
        self.position = 0
        self.rounds.append(list(self.order))
        rules = ["CORE-ORDER-01", "CUSTOM-05", "RX-ORDER-01"]
        keys = [key(c)[:3] for c in racing]
        for k in range(1, len(keys)):  # which key decided each pair of neighbours
            a, b = keys[k - 1], keys[k]
            rules.append("RX-ORDER-02" if a[0] != b[0] else "RX-ORDER-03" if a[1] != b[1] else "RX-ORDER-04")
        #: the rules that decided this round's order, reported with its first turn's outcome
        self.round_rules = tuple(dict.fromkeys(rules))

    def end_of_turn(self, car: Car, turn: Turn, ctx: PlanContext, move: Movement, driver: Driver | None
                    ) -> tuple[Outcome, StageChange]:
        """The core stage's End of the Turn (a Time card, CUSTOM-14); the Flat Out's tokens are Focus tokens
        (CUSTOM-07), and the turn's text says so."""
        out, change = super().end_of_turn(car, turn, ctx, move, driver)
        out.focus = True
        return out, change

    def log_end(self, car: Car, turn: Turn, ctx: PlanContext, move: Movement, out: Outcome,
                change: StageChange) -> None:
        """The core stage's, then the Time cards of a Technical Track (CUSTOM-14) and Focus tokens for Second tokens
        (CUSTOM-07; the roll records the Focus tokens' rules, :attr:`log_tokens`)."""
        super().log_end(car, turn, ctx, move, out, change)
        self.log.end.append("CUSTOM-14")
        if out.gained or out.spent:
            self.log.end.append("CUSTOM-07")

    def commit(self, car: Car, turn: Turn, out: Outcome, change: StageChange) -> None:
        super().commit(car, turn, out, change)
        if out.finished:
            self.finishers.append(car.name)  # CUSTOM-05: first across the line wins
            out.rules.append("CUSTOM-05")

    def ranking(self) -> list[str]:
        """The finishing order, then the cars that retired (CUSTOM-05)."""
        return list(self.finishers) + [n for n in self.start_order if n not in self.finishers]

    def result(self) -> StageResult:
        """The core stage's result; Focus tokens have no time value, so each time is the Time cards' (CUSTOM-07):
        a finisher's cards, a retired car the slowest finisher's + 60 s (CORE-RETIRE-03)."""
        res = super().result()
        for n in res.finished:
            res.times[n] = res.cards[n]
        slowest = max((res.cards[n] for n in res.finished), default=None)
        for n in res.retired:
            res.times[n] = None if slowest is None else slowest + 60
        res.tokens = {n: 0 for n in res.tokens}
        res.ranking = self.ranking()
        return res


class CircuitHeadToHead(TechnicalHeadToHead, CircuitTimeTrial):
    """A Head-to-Head under Technical Track rules on a circuit: the laps of :class:`CircuitTimeTrial`, the
    Head-to-Head of :class:`TechnicalHeadToHead` (CUSTOM-02/05/14)."""
