"""A simple model of where the spaces of a tile lie, to give tokens a space and back.

Track files place a token by its offset from the tile centre; rallyc names the
space (``STEP.ZONE[.LANE]``). This module maps one to the other with a model
that is deliberately simple (the artwork is not measured):

- the tile is a pointy-top hexagon of circumradius 1 in its own frame (y down),
  own edge A at angle 0 and the others clockwise, as in the Rekee editor; the
  midpoint of own edge k is at distance sqrt(3)/2, angle 60k degrees;
- a road's centre line runs from the midpoint of its entry edge to the
  midpoint of its exit edge: a straight line between opposite edges, else a
  quadratic Bezier curve with the tile centre as control point (so it leaves
  each edge square to it); a dead end (``-> end``) stops at the centre;
- the road is ``ROAD_WIDTH`` wide, split into equal lanes; its zones share the
  length of the centre line equally, in the order written;
- a token belongs to the nearest road (first road on a tie); it is off the road
  when farther than ``ON_ROAD`` from every centre line. Its zone is the one
  whose share of the length contains the nearest point of the centre line; it
  covers the whole zone (``STEP.ZONE``) when within ``CENTRE_BAND`` of the centre
  line or when the zone has no lane spaces (corners, wide, half, junction,
  service), else the lane it lies on (``l``/``m``/``r`` as driven);
- an RX standee stands on the line at the entry of a zone: the zone boundary
  nearest to it along the road.

Export writes a token at the centre of its zone (or lane), turned along the
road, so a file written by rallyc reads back onto the same spaces.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from rallyc.geometry.hexgrid import edge_index
from rallyc.syntax import ast

__all__ = ["RoadShape", "road_shape", "Placement", "locate", "token_offset", "standee_offset",
           "ROAD_WIDTH", "ON_ROAD", "CENTRE_BAND"]

ROAD_WIDTH = 0.8
ON_ROAD = 0.6
CENTRE_BAND = 0.1
_SAMPLES = 96
_HALF = math.sqrt(3.0) / 2.0
#: zone kinds whose spaces are one per lane
_LANE_ZONES = ("plain", "slide")


def _edge_mid(edge: str) -> tuple[float, float]:
    a = math.radians(60 * edge_index(edge))
    return _HALF * math.cos(a), _HALF * math.sin(a)


@dataclass(frozen=True)
class RoadShape:
    """The centre line of one road of a tile, from its written entry to its written exit."""

    points: tuple[tuple[float, float], ...]
    #: cumulative length at each point, normalised to end at 1
    along: tuple[float, ...]
    zones: int
    #: lanes of each zone (0 where the zone has no lane spaces)
    zone_lanes: tuple[int, ...]

    def at(self, s: float) -> tuple[tuple[float, float], tuple[float, float]]:
        """Point and unit tangent (written direction) at fraction ``s`` of the length."""
        s = min(1.0, max(0.0, s))
        pts, al = self.points, self.along
        for i in range(1, len(pts)):
            if al[i] >= s or i == len(pts) - 1:
                span = al[i] - al[i - 1] or 1.0
                t = (s - al[i - 1]) / span
                x = pts[i - 1][0] + t * (pts[i][0] - pts[i - 1][0])
                y = pts[i - 1][1] + t * (pts[i][1] - pts[i - 1][1])
                dx, dy = pts[i][0] - pts[i - 1][0], pts[i][1] - pts[i - 1][1]
                n = math.hypot(dx, dy) or 1.0
                return (x, y), (dx / n, dy / n)
        raise AssertionError("unreachable")

    def nearest(self, x: float, y: float) -> tuple[float, float, float]:
        """(distance, fraction along, signed lateral offset: + to the right of the written direction)."""
        best = (math.inf, 0.0, 0.0)
        pts, al = self.points, self.along
        for i in range(1, len(pts)):
            ax, ay = pts[i - 1]
            bx, by = pts[i]
            dx, dy = bx - ax, by - ay
            seg = dx * dx + dy * dy
            t = 0.0 if seg == 0 else max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / seg))
            px, py = ax + t * dx, ay + t * dy
            dist = math.hypot(x - px, y - py)
            if dist < best[0] - 1e-12:
                n = math.sqrt(seg) or 1.0
                lateral = (dx * (y - py) - dy * (x - px)) / n
                best = (dist, al[i - 1] + t * (al[i] - al[i - 1]), lateral)
        return best


def _zone_lanes(road: ast.RoadDef) -> tuple[int, ...]:
    out = []
    for z in road.zones:
        if isinstance(z, ast.Zone) and z.kind in _LANE_ZONES:
            out.append(z.lanes or road.lanes or 2)
        else:
            out.append(0)
    return tuple(out)


@lru_cache(maxsize=512)
def _shape(entry: str, exit: str, zone_lanes: tuple[int, ...]) -> RoadShape:
    p0 = _edge_mid(entry)
    p2 = (0.0, 0.0) if exit == "end" else _edge_mid(exit)
    straight = exit == "end" or (edge_index(exit) - edge_index(entry)) % 6 == 3
    pts = []
    for i in range(_SAMPLES + 1):
        t = i / _SAMPLES
        if straight:
            pts.append((p0[0] + t * (p2[0] - p0[0]), p0[1] + t * (p2[1] - p0[1])))
        else:  # quadratic Bezier with the tile centre (0, 0) as control point
            a, c = (1 - t) ** 2, t * t
            pts.append((a * p0[0] + c * p2[0], a * p0[1] + c * p2[1]))
    along = [0.0]
    for i in range(1, len(pts)):
        along.append(along[-1] + math.dist(pts[i - 1], pts[i]))
    total = along[-1] or 1.0
    return RoadShape(tuple(pts), tuple(a / total for a in along), max(1, len(zone_lanes)), zone_lanes)


def road_shape(road: ast.RoadDef) -> RoadShape:
    """The modelled centre line and zones of a road (in its written direction)."""
    return _shape(road.entry, road.exit, _zone_lanes(road))


def _lane_names(n: int) -> tuple[str, ...] | None:
    return {2: ("l", "r"), 3: ("l", "m", "r"), 4: ("l", "ml", "mr", "r")}.get(n)


@dataclass(frozen=True)
class Placement:
    """Where a token lies: road (1-based), zone (1-based, written order) and lane index from the left
    of the written direction (None for the whole zone); ``boundary`` is the nearest zone boundary
    (0 = entry edge ... zones = exit edge), for standees."""

    road: int
    zone: int
    lane: int | None
    lanes: int
    boundary: int
    distance: float

    def driven(self, forward: bool, zones: int) -> tuple[int, str | None]:
        """(zone, lane name) in driving order for a road driven forward (as written) or reversed."""
        zone = self.zone if forward else zones + 1 - self.zone
        lane = None
        if self.lane is not None:
            names = _lane_names(self.lanes)
            if names is not None:
                idx = self.lane if forward else self.lanes - 1 - self.lane
                lane = names[idx]
        return zone, lane

    def driven_boundary(self, forward: bool, zones: int) -> int:
        """The zone (driving order) at whose entry line the boundary lies."""
        b = self.boundary if forward else zones - self.boundary
        return min(max(b, 0), zones - 1) + 1


def locate(tile: ast.TileDef, q: float, r: float, roads: list[int] | None = None) -> Placement | None:
    """The road, zone and lane a token at axial offset (q, r) of the tile's own frame lies on.

    ``roads`` limits the search to these road numbers (1-based). None when the
    token is off every road (or the tile has none).
    """
    from rallyc.interop.coords import axial_offset_to_xy

    x, y = axial_offset_to_xy(q, r)
    best: Placement | None = None
    for i, road in enumerate(tile.roads, start=1):
        if roads is not None and i not in roads:
            continue
        shape = road_shape(road)
        dist, s, lateral = shape.nearest(x, y)
        if dist > ON_ROAD or (best is not None and dist >= best.distance - 1e-9):
            continue
        n = shape.zones
        zone = min(n, int(s * n) + 1)
        lanes = shape.zone_lanes[zone - 1] if shape.zone_lanes else 0
        lane = None
        if lanes and abs(lateral) >= CENTRE_BAND and _lane_names(lanes):
            width = ROAD_WIDTH / lanes
            lane = min(lanes - 1, max(0, int((lateral + ROAD_WIDTH / 2) // width)))
        best = Placement(i, zone, lane, lanes, min(n, max(0, round(s * n))), dist)
    return best


def _turned(tangent: tuple[float, float]) -> float:
    """Rotation in 60-degree units of a token lying along ``tangent``."""
    return round((math.degrees(math.atan2(tangent[1], tangent[0])) / 60.0) % 6.0, 4) % 6.0


def token_offset(tile: ast.TileDef, road: int, forward: bool, zone: int, lane: str | None
                 ) -> tuple[float, float, float]:
    """Axial offset (q, r) and rotation of a token on ``zone`` (driving order) of ``road``."""
    from rallyc.interop.coords import xy_to_axial_offset

    rd = tile.roads[road - 1]
    shape = road_shape(rd)
    n = shape.zones
    written_zone = zone if forward else n + 1 - zone
    s = (written_zone - 0.5) / n
    (x, y), (tx, ty) = shape.at(s)
    lateral = 0.0
    lanes = shape.zone_lanes[written_zone - 1] if 0 < written_zone <= n else 0
    names = _lane_names(lanes) if lanes else None
    if lane is not None and names and lane in names:
        idx = names.index(lane)
        if not forward:
            idx = lanes - 1 - idx
        width = ROAD_WIDTH / lanes
        lateral = -ROAD_WIDTH / 2 + width * (idx + 0.5)
    x, y = x - ty * lateral, y + tx * lateral
    if not forward:
        tx, ty = -tx, -ty
    q, r = xy_to_axial_offset(x, y)
    return round(q, 4), round(r, 4), _turned((tx, ty))


def standee_offset(tile: ast.TileDef, road: int, forward: bool, zone: int) -> tuple[float, float, float]:
    """Axial offset and rotation of a standee on the line at the entry of ``zone`` (driving order)."""
    from rallyc.interop.coords import xy_to_axial_offset

    shape = road_shape(tile.roads[road - 1])
    n = shape.zones
    b = zone - 1 if forward else n - (zone - 1)
    (x, y), (tx, ty) = shape.at(b / n)
    if not forward:
        tx, ty = -tx, -ty
    q, r = xy_to_axial_offset(x, y)
    return round(q, 4), round(r, 4), _turned((tx, ty))
