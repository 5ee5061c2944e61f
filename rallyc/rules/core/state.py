"""What the interpreter remembers: Time cards, cars, and a per-track index of the space graph."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from operator import attrgetter
from typing import Mapping

import networkx as nx

from rallyc.compiler.track import Space, Track
from rallyc.data.components import DashboardData
from rallyc.rules.core.domain import CarStatus, LocIcon

__all__ = ["Card", "Car", "TrackIndex", "index_of", "step_neighbours", "DAMAGE_KINDS", "SHORTCUT_RESULTS", "LOC_ICONS",
           "WEATHER", "IMPEDING"]

_SECONDS = attrgetter("seconds")
#: the lanes of slide spaces (CORE-SLIDE-01)
_SLIDE_LANES = ("s1", "s2")

#: Damage side of a token (CORE-SETUP-03); Boost Damage only where the bag holds it (RX box, R5 Boost die)
DAMAGE_KINDS = ("gear", "brake", "coast", "green", "boost")
#: Shortcut side of a token (CORE-SHORTCUT-06..08)
SHORTCUT_RESULTS = ("ok", "coast", "minus1")
#: a Weather token (Monte-Carlo Weather option, MC-WEATHER-01): drawn at a Shortcut or a Crash, no dice effect
WEATHER = "weather"
#: icon at the top of the white strip of a flipped card (CORE-LOC-05)
LOC_ICONS = tuple(LocIcon)

#: car statuses: waiting to start, on the road, spun out (on the road), crashed or changing a tire
#: (beside the road), finished, retired
STATUSES = tuple(CarStatus)
_ON_STAGE = (CarStatus.ROAD, CarStatus.SPUN, CarStatus.CRASHED, CarStatus.TIRE)
_IMPEDES = (CarStatus.ROAD, CarStatus.SPUN)
#: the statuses of a car that impedes the others (:attr:`Car.impedes`, CORE-OVERTAKE-08/09)
IMPEDING = _IMPEDES


def _lane_of(lane: str) -> str:
    """The lane a space lies in: ``out2`` and ``out1`` are one lane (the outside lane of a speed-limited zone, one
    space behind the other), ``l`` and ``r`` two. Spaces of one zone are alongside each other only in different
    lanes."""
    return lane.rstrip("0123456789")


@dataclass(frozen=True)
class Card:
    """A Time card on a car's pile (CORE-TURNEND-05)."""

    #: the gear deck the card comes from (0 for the Spare Tire card or a repeat at Gear 0)
    gear: int
    #: seconds it adds to the stage time
    seconds: int
    #: turned to its "0" side (Loss of Control or Spare Tire)
    zero: bool = False
    #: icon on the 0 side: spinout, crash, sisu (None on the front or for the Spare Tire card)
    icon: str | None = None
    #: the gear printed on a SISU card (the car restarts in it, CORE-LOC-10)
    sisu_gear: int | None = None
    spare: bool = False

    @property
    def car_gear(self) -> int:
        """The gear the car is in while this card is on top (CORE-TURNEND-05, CORE-LOC-11)."""
        if not self.zero:
            return self.gear
        return self.sisu_gear if self.icon == "sisu" and self.sisu_gear is not None else 0


@dataclass
class Car:
    """One player's car during a stage."""

    name: str
    colour: str
    dashboard: DashboardData
    status: CarStatus = CarStatus.WAITING
    space: str | None = None
    cards: list[Card] = field(default_factory=list)
    #: Second tokens held (CORE-SETUP-01; the bank gives change, reading 12)
    seconds: int = 0
    #: Damage tokens on the Dashboard, Damage side (CORE-DAMAGE-01)
    damage: Counter[str] = field(default_factory=Counter)
    #: OK! Shortcut tokens on the Dashboard (returned at stage end, CORE-RALLY-07)
    shortcut_ok: int = 0
    spare: bool = True
    sisu: bool = False
    turns: int = 0
    #: turns driven on the soft tires fitted (the Wear marker, MC-SOFT-02/03); carried between stages
    wear: int = 0
    #: stage time in seconds once finished or retired
    time: int | None = None

    @property
    def gear(self) -> int:
        """Current gear: the top Time card's (CORE-TURNEND-05); Gear 0 before the first card (CORE-START-03)."""
        return self.cards[-1].car_gear if self.cards else 0

    @property
    def on_stage(self) -> bool:
        return self.status in _ON_STAGE

    @property
    def impedes(self) -> bool:
        """On the road for blocking: a spun-out car impedes, a crashed one does not (CORE-OVERTAKE-08/09)."""
        return self.status in _IMPEDES

    @property
    def tokens(self) -> int:
        """Tokens held to secure dice: Second tokens (CORE-SECONDS-07)."""
        return self.seconds

    @property
    def card_seconds(self) -> int:
        """The seconds of the Time cards on the car's pile (CORE-STAGEEND-08); summed in C (map, no generator)."""
        return sum(map(_SECONDS, self.cards))


class TrackIndex:
    """Things the rules look up often, computed once per track."""

    def __init__(self, track: Track) -> None:
        self.track = track
        g = track.graph
        self.spaces: dict[str, Space] = track.spaces
        self.succ: dict[str, list[str]] = {
            n: sorted(m for m in g.successors(n) if not g.edges[n, m].get("handbrake")) for n in g.nodes
        }
        #: with the Handbrake turn rule: the outside -> inside corner edges too (MC-HANDBRAKE-01)
        self.succ_handbrake: dict[str, list[str]] = {n: sorted(g.successors(n)) for n in g.nodes}
        #: answers of rx_order.is_inside per (space, horizon), worked out once per track (RX-ORDER-04)
        self.inside_ahead: dict[tuple[str, int], bool] = {}
        #: RX speed-limit lines: the edges with a ``limit`` (RX-FORK-03), read per die without the graph
        self.line_limit: dict[tuple[str, str], int] = {(a, b): d["limit"] for a, b, d in g.edges(data=True)
                                                       if d.get("limit") is not None}
        self._index_zones()
        self.inside = {sid: self._inside(sid) for sid in self.spaces}
        #: the road surfaces of this track (MC-TIRE-01)
        self.surfaces = tuple(sorted({s.surface for s in self.spaces.values()}))
        self.start_spaces = track.start_spaces
        self.finish_spaces = set(track.finish_spaces)
        #: the spaces on the first zone after the Finish Line and beyond it (``after_finish``, ``past_finish``): a die
        #: that ends on one takes a stage's car across the line (CORE-STAGEEND-02/03)
        self.beyond_finish: frozenset[str] = frozenset(
            sid for sid, s in self.spaces.items() if s.after_finish or s.past_finish)
        #: the corner spaces of a named corner: a car on one decides the corner's method (CORE-OVERTAKE-05)
        self.corner_spaces: frozenset[str] = frozenset(
            sid for sid, s in self.spaces.items() if s.kind == "corner" and s.corner)
        #: the spaces of RX forks: half-line and junction spaces (RX-FORK-01/02)
        self.fork_spaces: frozenset[str] = frozenset(
            sid for sid, s in self.spaces.items() if s.kind in ("half", "junction"))
        #: the spaces holding a token (Monte-Carlo tokens: hay bales, chicanes, MC-TOKEN)
        self.token_spaces: frozenset[str] = frozenset(sid for sid, s in self.spaces.items() if s.tokens)

    def _index_zones(self) -> None:
        """The spaces of each zone, the zones with slide spaces, and per space the spaces that overlap it and those
        alongside it."""
        zones: dict[str, list[str]] = {}
        for s in self.spaces.values():
            zones.setdefault(s.zone_key, []).append(s.id)
        self.zones = zones
        #: zones with slide spaces (CORE-SLIDE-01/02)
        self.slide_zones: frozenset[str] = frozenset(
            k for k, ids in zones.items() if any(self.spaces[i].lane in _SLIDE_LANES for i in ids))
        #: spaces whose occupant stops a car entering this one (the space itself; lane vs slide halves)
        self.overlap: dict[str, tuple[str, ...]] = {}
        #: spaces alongside (a car there needs the gear check, CORE-OVERTAKE-01/04)
        self.alongside: dict[str, list[str]] = {}
        for s in self.spaces.values():
            over, side = self._zone_neighbours(s)
            self.overlap[s.id] = tuple(over)
            self.alongside[s.id] = side
        self._shortcuts_alongside()

    def _zone_neighbours(self, s: Space) -> tuple[list[str], list[str]]:
        """The spaces of ``s``'s zone that stop a car entering it (itself, and the other half where lane spaces
        and slide spaces overlap), and those alongside it (CORE-OVERTAKE-01/04): in a zone with slide spaces, a
        lane space has the other lane spaces alongside, a slide space none; elsewhere every other space but corners
        in another lane is alongside (:func:`_lane_of`), and a corner or a shortcut space has none here
        (:meth:`_shortcuts_alongside`)."""
        key = s.zone_key
        over = [s.id]
        side: list[str] = []
        if key in self.slide_zones:
            halves = s.lane in _SLIDE_LANES
            for o in self.zones[key]:
                if o == s.id:
                    continue
                if halves != (self.spaces[o].lane in _SLIDE_LANES):
                    over.append(o)
                elif not halves:
                    side.append(o)
        elif s.kind != "corner" and s.kind != "shortcut":
            side = [o for o in self.zones.get(key, []) if o != s.id and self.spaces[o].kind != "corner"
                    and _lane_of(self.spaces[o].lane) != _lane_of(s.lane)]
        return over, side

    def _shortcuts_alongside(self) -> None:
        """A shortcut space is alongside the road spaces it links to, both ways (not corners nor other shortcut
        spaces)."""
        g = self.track.graph
        for s in self.spaces.values():
            if s.kind != "shortcut":
                continue
            linked = set(g.successors(s.id)) | set(g.predecessors(s.id))
            for o in sorted(linked):
                if self.spaces[o].kind == "corner" or self.spaces[o].kind == "shortcut":
                    continue
                self.alongside[s.id].append(o)
                self.alongside[o].append(s.id)

    def _inside(self, sid: str) -> bool:
        """On the inside lane of the current or next corner (CORE-ORDER-06)."""
        s = self.spaces[sid]
        if s.kind == "corner":
            return s.method == "in"
        seen = 0
        cur = s
        while seen < 40:
            nxt = [self.spaces[n] for n in self.succ.get(cur.id, [])]
            corner = [n for n in nxt if n.kind == "corner"]
            if corner:
                moves = {n.method: self.track.graph.edges[cur.id, n.id].get("move") for n in corner}
                if moves.get("in") == "straight":
                    return True
                if "in" in moves and "out" not in moves:
                    return True
                return False
            same = [n for n in nxt if n.lane == cur.lane]
            if not same:
                return False
            cur = same[0]
            seen += 1
        return False

    def step_of(self, sid: str) -> int:
        return self.spaces[sid].step

    @cached_property
    def step_neighbours(self) -> dict[int, set[int]]:
        """Route step -> the steps of the tiles directly before and after it (what a Yellow Flag covers,
        RX-DAMAGE-04): scanned from the graph when a game with Yellow Flags first asks, then shared, read only."""
        return step_neighbours(self.track.graph, self.spaces)


def step_neighbours(graph: nx.DiGraph, spaces: Mapping[str, Space]) -> dict[int, set[int]]:
    """Route step -> the steps of the tiles directly before and after it (joined by a move in either direction)."""
    out: dict[int, set[int]] = {}
    for a, b in graph.edges:
        sa, sb = spaces[a].step, spaces[b].step
        if sa != sb:
            out.setdefault(sa, set()).add(sb)
            out.setdefault(sb, set()).add(sa)
    return out


def index_of(track: Track) -> TrackIndex:
    """The index of a track, worked out once and kept on the track itself, so that both go together.

    Not in a cache keyed weakly by the track: the index refers to its track, so such a cache's entry kept every
    track ever indexed alive, with what the games on it kept (a test run of ``rallyc generate``, which plays
    hundreds of tracks in one process, grew to 22 GB)."""
    idx: TrackIndex | None = track.__dict__.get("_rules_index")
    if idx is None:
        idx = track.__dict__["_rules_index"] = TrackIndex(track)
    return idx

