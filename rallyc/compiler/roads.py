"""A tile's road as driven: zones, lines and shortcuts in driving order.

A road is written from its printed entry edge to its printed exit edge. Driving
it the other way round (``reversed``, or a turn word that picks that direction)
reverses its zone order, swaps left and right lanes (and per-lane limits),
keeps corner inside/outside (the inside of a bend stays the inside), reverses
the order of the spaces inside a corner, mirrors shortcut zone indices
(``i -> n+1-i``) and keeps every line between the same two zones.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rallyc.diagnostics import Span
from rallyc.geometry.hexgrid import mirror_turn, own_to_world, turn_of
from rallyc.syntax import ast

__all__ = ["DrivenZone", "DrivenLine", "DrivenShortcut", "DrivenRoad", "drive_road", "turn_of", "turn_word",
           "LANE_IDS", "driven_turn", "driven_entry", "driven_exit"]

#: lane ids left to right as driven, by lane count
LANE_IDS: dict[int, tuple[str, ...]] = {1: ("m",), 2: ("l", "r"), 3: ("l", "m", "r"), 4: ("l", "ml", "mr", "r")}

_SIDE_LANE = {"left": "l", "right": "r"}

def driven_turn(road: ast.RoadDef, forward: bool) -> str:
    """The road's turn as driven in this direction (a left bend driven backwards turns right)."""
    turn = road.turn or (turn_of(road.entry, road.exit) if road.exit != "end" else "other")
    return turn if forward else mirror_turn(turn)


def driven_entry(road: ast.RoadDef, forward: bool, rot: int) -> str:
    """The world edge where the road, driven this way on a tile turned ``rot``, is entered."""
    return own_to_world(road.entry if forward else road.exit, rot)


def driven_exit(road: ast.RoadDef, forward: bool, rot: int) -> str | None:
    """The world edge where the road, driven this way on a tile turned ``rot``, is left; None at a dead end."""
    own = road.exit if forward else road.entry
    return None if own == "end" else own_to_world(own, rot)


@dataclass
class DrivenZone:
    """One zone of a road in driving order."""

    #: 1-based index in driving order
    index: int
    #: plain, slide, wide, half, junction, corner, limited, service
    kind: str
    lanes: int
    #: speed limit per lane id (lane spaces); for wide/junction/half zones under the key ``*``
    limits: dict[str, int | None]
    inside: tuple[int, ...] = ()
    outside: tuple[int, ...] = ()
    jump: int | None = None
    water: bool = False
    merge: bool = False
    #: limit given by a limit line crossed on entering this zone (RX)
    line_limit: int | None = None
    #: corners: the lane on the inside of this corner as driven, when the tile says (``corner left ...``)
    inside_lane: str | None = None
    span: Span | None = None

    @property
    def lane_ids(self) -> tuple[str, ...]:
        return LANE_IDS.get(self.lanes, LANE_IDS[2])


@dataclass
class DrivenLine:
    """A line across the road: ``kind`` (start, finish, checkered, climb) after ``after`` zones (driving order)."""

    kind: str
    after: int
    span: Span | None = None


@dataclass
class DrivenShortcut:
    """A shortcut space from zone ``src`` to zone ``dst`` (driving order)."""

    limit: int
    src: int
    dst: int
    span: Span | None = None


@dataclass
class DrivenRoad:
    """A road of a tile driven in one direction."""

    road: ast.RoadDef
    #: 1-based road number on the tile
    number: int
    forward: bool
    turn: str
    zones: list[DrivenZone] = field(default_factory=list)
    lines: list[DrivenLine] = field(default_factory=list)
    shortcuts: list[DrivenShortcut] = field(default_factory=list)

    @property
    def entry(self) -> str:
        """The tile's own edge where the car enters."""
        return self.road.entry if self.forward else self.road.exit

    @property
    def exit(self) -> str | None:
        """The tile's own edge where the car leaves (None for a dead end)."""
        if self.forward:
            return None if self.road.exit == "end" else self.road.exit
        return self.road.entry

    @property
    def inside_lane(self) -> str | None:
        """The lane on the inside of the bend as driven (None when the road's turn does not say)."""
        if self.turn.startswith("left"):
            return "l"
        if self.turn.startswith("right"):
            return "r"
        return None

    def inside_between(self, src: int, dst: int) -> str | None:
        """The inside lane of the bend between zones ``src`` and ``dst``: the side a corner
        there is written with, else the road's own turn."""
        for z in self.zones[src:dst - 1]:
            if z.inside_lane:
                return z.inside_lane
        return self.inside_lane


def turn_word(driven: DrivenRoad) -> str | None:
    """The word that makes the placement pick this direction (see ``placement._directions``): ``left``, ``right``,
    ``reversed`` or None (as printed)."""
    if driven.turn.startswith("left"):
        return "left"
    if driven.turn.startswith("right"):
        return "right"
    return None if driven.forward else "reversed"


def _lanes(road: ast.RoadDef, item: ast.Zone | ast.Corner) -> int:
    return item.lanes or road.lanes or 2


def drive_road(road: ast.RoadDef, number: int, forward: bool) -> DrivenRoad:
    """Lay out ``road`` as driven forward (printed entry to exit) or backward."""
    zones: list[DrivenZone] = []
    lines: list[tuple[str, int, Span | None]] = []
    limit_lines: list[tuple[int, int]] = []
    count = 0
    for item in road.items:
        if isinstance(item, ast.Zone):
            count += 1
            n = _lanes(road, item)
            lane_ids = LANE_IDS.get(n, LANE_IDS[2])
            limits: dict[str, int | None] = {}
            if item.limits:
                if len(item.limits) == 1 or item.kind in ("wide", "junction"):
                    limits = {lane: item.limits[0] for lane in lane_ids} | {"*": item.limits[0]}
                else:
                    vals = list(item.limits) + [None] * (len(lane_ids) - len(item.limits))
                    limits = dict(zip(lane_ids, vals))
            zones.append(DrivenZone(count, item.kind, n, limits, jump=item.jump, water=item.water,
                                    merge=item.merge, span=item.span))
        elif isinstance(item, ast.Corner):
            count += 1
            zones.append(DrivenZone(count, item.kind, _lanes(road, item), {}, tuple(item.inside),
                                    tuple(item.outside), jump=item.jump, water=item.water, merge=item.merge,
                                    inside_lane=_SIDE_LANE.get(item.side or ""), span=item.span))
        elif isinstance(item, ast.Line):
            lines.append((item.kind, count, item.span))
        elif isinstance(item, ast.LimitLine):
            limit_lines.append((item.value, count))
    n = count
    shortcuts = [DrivenShortcut(s.limit, s.from_zone, s.to_zone, s.span) for s in road.shortcuts]
    if forward:
        for value, after in limit_lines:
            if after < n:
                zones[after].line_limit = value
        driven = DrivenRoad(road, number, True, driven_turn(road, True), zones,
                            [DrivenLine(k, a, s) for k, a, s in lines], shortcuts)
    else:
        zones = list(reversed(zones))
        for i, z in enumerate(zones, start=1):
            z.index = i
            if z.lanes in LANE_IDS and len(z.limits) > 1:
                z.limits = {_swap(k): v for k, v in z.limits.items()}
            z.inside = tuple(reversed(z.inside))
            z.outside = tuple(reversed(z.outside))
            if z.inside_lane:
                z.inside_lane = _swap(z.inside_lane)
        for value, after in limit_lines:
            rev_after = n - after
            if rev_after < n:
                zones[rev_after].line_limit = value
        rev_lines = [DrivenLine(k, n - a, s) for k, a, s in reversed(lines)]
        rev_cuts = [DrivenShortcut(s.limit, n + 1 - s.dst, n + 1 - s.src, s.span) for s in reversed(shortcuts)]
        driven = DrivenRoad(road, number, False, driven_turn(road, False), zones, rev_lines, rev_cuts)
    driven.shortcuts.sort(key=lambda s: (s.src, s.dst))
    return driven


def _swap(lane: str) -> str:
    return {"l": "r", "r": "l"}.get(lane, lane)
