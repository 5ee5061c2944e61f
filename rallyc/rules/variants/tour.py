"""The Auto Tour (RX book): events alternating Head-to-Head and Time Trial, the tour time each event adds,
the starting order of the next event and the Tour's winner (TOUR-01, TOUR-06..09, TOUR-11).

A Head-to-Head event is played with :class:`~rallyc.rules.core.race.Race` (its :class:`RaceResult`), a Time
Trial with :class:`~rallyc.rules.core.stage.Stage` (its :class:`StageResult`: final times with the Second
tokens already deducted, CUSTOM-07). This module only keeps the score sheet.

>>> tour = Tour(["Ann", "Bob"], ["time-trial", "head-to-head"])   # doctest: +SKIP
>>> tour.add_time_trial({"Ann": 410, "Bob": 395}); tour.starting_order(); tour.add_head_to_head(race.result())  # doctest: +SKIP
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import NotRequired, Protocol, Sequence, TypedDict

from rallyc.data.components import Components, load_components
from rallyc.model.options import OPTIONS
from rallyc.rules.core.errors import IllegalMove
from rallyc.rules.core.trace import applied as record_applied

__all__ = ["EVENT_TYPES", "Tour", "TourEvent", "check_events", "head_to_head_seconds", "Placings", "StandingClaim",
           "TourClaims"]


class Placings(Protocol):
    """What a Head-to-Head event gives the score sheet: a race's result (:class:`~rallyc.rules.core.race.RaceResult`)."""

    @property
    def order(self) -> Sequence[str]: ...

    @property
    def disqualified(self) -> Sequence[str]: ...

    @property
    def retired(self) -> Sequence[str]: ...


class StandingClaim(TypedDict):
    """A place of a Tour record's ``standings``: the player and, optionally, the total tour time claimed."""

    name: str
    total: NotRequired[int]


class TourClaims(TypedDict, total=False):
    """What a Tour record claims at the end (TOUR-11)."""

    standings: list[StandingClaim]
    winner: str

#: the two race types of a Tour event (CUSTOM-05/06): the words of the registry's ``race-type``
EVENT_TYPES = OPTIONS["race-type"].values or ()


def check_events(kinds: list[str]) -> None:
    """At least 2 events, alternating Head-to-Head and Time Trial (TOUR-01); ValueError otherwise."""
    for i, k in enumerate(kinds):
        if k not in EVENT_TYPES:
            raise ValueError(f"event {i + 1}: a Tour event is {' or '.join(EVENT_TYPES)}, not {k!r} (TOUR-01)")
    if len(kinds) < 2:
        raise ValueError(f"an Auto Tour has at least 2 events, not {len(kinds)} (TOUR-01)")
    for i in range(1, len(kinds)):
        if kinds[i] == kinds[i - 1]:
            raise ValueError(f"events {i} and {i + 1} are both {kinds[i]}: a Tour alternates Head-to-Head and "
                             f"Time Trial (TOUR-01)")
    record_applied(("TOUR-01",))


def head_to_head_seconds(order: list[str], unplaced: list[str], components: Components | None = None
                         ) -> dict[str, int]:
    """Tour seconds of a Head-to-Head: by place, 1st +0, 2nd +20, 3rd +30 ... (TOUR-07, ``[tour]`` of the rules
    data); disqualified and retired cars rank after every finisher, in the order given (Ambiguity 39)."""
    table = [int(x) for x in (components or load_components()).raw["tour"]["head_to_head_seconds"]]
    ranked = list(order) + [n for n in unplaced if n not in order]
    if len(set(ranked)) != len(ranked):
        raise ValueError("a player is placed twice")
    if len(ranked) > len(table):
        raise ValueError(f"the Tour score sheet places {len(table)} cars, not {len(ranked)} (TOUR-07)")
    return {name: table[i] for i, name in enumerate(ranked)}


@dataclass
class TourEvent:
    """One event's line of the score sheet."""

    kind: str
    seconds: dict[str, int]
    #: the starting order the event was played in
    start: list[str] = field(default_factory=list)


class Tour:
    """The score sheet of an Auto Tour."""

    def __init__(self, players: list[str], kinds: list[str], components: Components | None = None, *,
                 cars: dict[str, str] | None = None, colours: dict[str, str] | None = None) -> None:
        """``players`` in the order drawn for the first event (TOUR-08); ``kinds`` the events' race types;
        ``cars`` and ``colours``: each player's, chosen before the first event (TOUR-03)."""
        check_events(kinds)
        if len(set(players)) != len(players) or not players:
            raise ValueError("a Tour needs players with unique names")
        self.players = list(players)
        self.cars = dict(cars or {})
        self.colours = dict(colours or {})
        self.kinds = list(kinds)
        self.components = components or load_components()
        self.events: list[TourEvent] = []

    @property
    def next_kind(self) -> str | None:
        """The race type of the next event, None once the Tour is over."""
        return self.kinds[len(self.events)] if len(self.events) < len(self.kinds) else None

    def is_over(self) -> bool:
        return self.next_kind is None

    def _expect(self, kind: str) -> None:
        if self.next_kind is None:
            raise ValueError(f"the Tour's {len(self.kinds)} events are over")
        if self.next_kind != kind:
            raise ValueError(f"event {len(self.events) + 1} is a {self.next_kind}, not a {kind} (TOUR-01)")

    def totals(self) -> dict[str, int]:
        """Each player's tour time so far (TOUR-06/07)."""
        out = {n: 0 for n in self.players}
        for e in self.events:
            for n, s in e.seconds.items():
                out[n] += s
        return out

    def starting_order(self, seed: int = 0) -> list[str]:
        """The next event's starting order: drawn as usual for the first (the players' order, TOUR-08), then
        the lowest tour time first, ties drawn at random with ``seed`` (TOUR-09, Ambiguity 39)."""
        if not self.events:
            record_applied(("TOUR-08",))
            return list(self.players)
        record_applied(("TOUR-09",))
        totals = self.totals()
        rng = random.Random(seed)
        draw = {n: rng.random() for n in sorted(self.players)}
        return sorted(self.players, key=lambda n: (totals[n], draw[n]))

    def add_time_trial(self, times: dict[str, int | None], start: list[str] | None = None) -> TourEvent:
        """A Time Trial's final times, Second tokens deducted, go on the sheet (TOUR-06)."""
        self._expect("time-trial")
        missing = [n for n in self.players if times.get(n) is None]
        if missing:
            raise ValueError(f"no final time for {', '.join(missing)} (TOUR-06)")
        ev = TourEvent("time-trial", {n: int(times[n] or 0) for n in self.players}, list(start or []))
        record_applied(("TOUR-06",))
        self.events.append(ev)
        return ev

    def add_head_to_head(self, result: Placings, start: list[str] | None = None) -> TourEvent:
        """A Head-to-Head's places become seconds (TOUR-07); ``result`` is a :class:`RaceResult`."""
        return self.add_places(list(result.order), list(result.disqualified) + list(result.retired), start)

    def add_places(self, order: list[str], unplaced: list[str], start: list[str] | None = None) -> TourEvent:
        """A Head-to-Head's finishing ``order`` and the cars not classified (disqualified, retired, still racing
        when play stopped: they rank after every finisher, Ambiguity 39) become seconds (TOUR-07)."""
        self._expect("head-to-head")
        unplaced = list(unplaced) + [n for n in self.players if n not in order and n not in unplaced]
        secs = head_to_head_seconds(order, unplaced, self.components)
        if set(secs) != set(self.players):
            raise ValueError(f"the race's players {sorted(secs)} are not the Tour's {sorted(self.players)}")
        ev = TourEvent("head-to-head", secs, list(start or []))
        record_applied(("TOUR-07",))
        self.events.append(ev)
        return ev

    # -- what a record of the Tour claims (IllegalMove naming the rule; the path relative to the claim's object)
    def check_entrants(self, entrants: list[tuple[str, str, str]]) -> None:
        """An event's players (name, car, colour) are the Tour's, each in the car and colour chosen before the
        first event (TOUR-03)."""
        names = [name for name, _, _ in entrants]
        if sorted(names) != sorted(self.players):
            raise IllegalMove("TOUR-03", f"the event's players are {', '.join(names)}, not the Tour's "
                                         f"{', '.join(self.players)}", "players")
        for j, (name, car, colour) in enumerate(entrants):
            if car != self.cars[name]:
                raise IllegalMove("TOUR-03", f"{name} drives the {self.cars[name]} chosen before the first event "
                                             f"in every event, not the {car}", f"players[{j}].car")
            if colour != self.colours[name]:
                raise IllegalMove("TOUR-03", f"{name}'s car is {self.colours[name]}, not {colour}",
                                  f"players[{j}].colour")

    def check_start(self, start: list[str]) -> None:
        """The next event's starting order: the order drawn for the Tour in the first event (TOUR-08), the lowest
        tour time first after it (TOUR-09)."""
        if self.events:
            totals = self.totals()
            for a, b in zip(start, start[1:]):
                if totals[a] > totals[b]:
                    raise IllegalMove("TOUR-09", f"{b} ({totals[b]} s on the Tour) starts before {a} ({totals[a]} s): "
                                                 f"the lowest tour time starts first; ties are drawn")
            record_applied(("TOUR-09",))
        else:
            if start != self.players:
                raise IllegalMove("TOUR-08", f"the first event starts in the order drawn for the Tour "
                                             f"({', '.join(self.players)}), not {', '.join(start)}")
            record_applied(("TOUR-08",))

    def check_line(self, line: TourEvent, seconds: dict[str, int], totals: dict[str, int]) -> None:
        """The score sheet's claims for the event just added (``line``): the seconds it adds (TOUR-06/07) and the
        totals after it."""
        rule = "TOUR-06" if line.kind == "time-trial" else "TOUR-07"
        n = len(self.events)
        for name, claimed in seconds.items():
            if name not in line.seconds:
                raise IllegalMove(rule, f"{name} is not a player of the Tour", f"tour_seconds.{name}")
            if claimed != line.seconds[name]:
                raise IllegalMove(rule, f"{name} adds {line.seconds[name]} s to the Tour in event {n}, not "
                                        f"{claimed} s", f"tour_seconds.{name}")
        got = self.totals()
        for name, claimed in totals.items():
            if name not in got:
                raise IllegalMove(rule, f"{name} is not a player of the Tour", f"totals.{name}")
            if claimed != got[name]:
                raise IllegalMove(rule, f"{name}'s tour time after event {n} is {got[name]} s, not {claimed} s",
                                  f"totals.{name}")

    def check_standings(self, claims: TourClaims) -> None:
        """The score sheet's final claims (TOUR-11): each place of the ``standings``, its total, and the
        ``winner``."""
        standings = self.standings()
        for j, row in enumerate(claims.get("standings", [])):
            if j >= len(standings) or row["name"] != standings[j][0]:
                raise IllegalMove("TOUR-11", f"place {j + 1} of the Tour is "
                                             f"{standings[j][0] if j < len(standings) else 'nobody'}"
                                             f", not {row['name']}", f"standings[{j}].name")
            if "total" in row and row["total"] != standings[j][1]:
                raise IllegalMove("TOUR-11", f"{row['name']}'s tour time is {standings[j][1]} s, not "
                                             f"{row['total']} s", f"standings[{j}].total")
        if "winner" in claims and claims["winner"] != self.winner():
            raise IllegalMove("TOUR-11", f"the lowest total tour time is {self.winner()}'s, not {claims['winner']}'s",
                              "winner")

    def standings(self) -> list[tuple[str, int]]:
        """Players by tour time, lowest first (TOUR-11); ties keep the first event's order."""
        totals = self.totals()
        return sorted(totals.items(), key=lambda kv: (kv[1], self.players.index(kv[0])))

    def winner(self) -> str | None:
        """The lowest total tour time once every event is on the sheet (TOUR-11)."""
        if not self.is_over():
            return None
        record_applied(("TOUR-11",))
        return self.standings()[0][0]
