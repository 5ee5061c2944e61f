"""What :mod:`rallyc.render.shapes` lays out: the outline of a space, a road with its zone boundaries, a track's.

The types alone, in a module of their own, so that :mod:`rallyc.render.forks` (which lays a fork tile's spaces
for :mod:`rallyc.render.shapes`) and the shapes module read them without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rallyc.render.geometry import Centreline, HexLayout, Point

__all__ = ["SpaceShape", "RoadShape", "TrackShapes"]


@dataclass
class SpaceShape:
    """The outline of one space and where its labels go."""

    id: str
    outline: list[Point]
    label: Point
    #: slide halves are drawn dashed over the lane spaces
    dashed: bool = False
    kind: str = "lane"


@dataclass
class RoadShape:
    """One road driven at one route step, with its zone boundaries."""

    step: int
    road: int | None
    centreline: Centreline
    width: float
    #: t of each zone boundary, zone k spans bounds[k-1]..bounds[k]
    bounds: list[float]
    surface: str
    #: danger colour at the entry end and exit end, as driven
    danger: tuple[str, str]
    #: zones (1-based, driving order) whose front edge is the Starting Line / back edge the finish line
    start_after: list[int] = field(default_factory=list)
    finish_before: list[int] = field(default_factory=list)
    dead_end: bool = False
    #: t of the line between the two slide halves of each slide zone (the dashed line across the road)
    slide_lines: list[float] = field(default_factory=list)
    #: the cell of the tile this road crosses
    cell: tuple[int, int] | None = None
    #: True for an arm of a fork or Y tile (several roads sharing edges: drawn as one road surface)
    fork: bool = False
    #: t of each checkered line printed on the tile (401: the grid's line), as driven
    checkered: list[float] = field(default_factory=list)
    #: printed grid-slot bars (RX 401: a short bar at the line-side end of each space behind the line),
    #: each a segment across its lane
    grid_bars: list[list[Point]] = field(default_factory=list)
    #: world edges where the road enters and leaves, as driven (None: a dead end's exit)
    entry: int | None = None
    exit: int | None = None
    #: the zones of the tile's road as driven (fork arms): ``half``, ``merge``, ``junction``, ``plain``...
    kinds: tuple[str, ...] = ()
    #: a fork branch's own zones, numbered after the loop road's in the graph: graph zone -> zone as driven
    zone_map: dict[int, int] = field(default_factory=dict)
    #: driven from ``exit`` to ``entry`` (a branch entered from its own fork: RX 1 and RX 2's Joker leaving 408a)
    against: bool = False

    def zone_span(self, zone: int) -> tuple[float, float]:
        """The t range of a zone (clamped to the road)."""
        k = max(1, min(self.zone_map.get(zone, zone), len(self.bounds) - 1))
        return self.bounds[k - 1], self.bounds[k]


@dataclass
class TrackShapes:
    """Every road and space outline of a track."""

    layout: HexLayout
    roads: list[RoadShape]
    spaces: dict[str, SpaceShape]
