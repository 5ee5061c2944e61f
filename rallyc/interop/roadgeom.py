"""Tokens of a track file on the spaces of a tile, and back, by the one model of where spaces lie.

Track files place a token by its axial offset from the tile centre (unit: one cell; own frame,
the tile at rotation 0); rallyc names the space (``STEP.ZONE[.LANE]``). Where the spaces of a tile
lie is the model the maps draw (:mod:`rallyc.geometry.tile`, laid out per tile road by
:func:`rallyc.tiles.shape.tile_road`): a road's centreline from edge to edge (straight, arcs
about the neighbouring cell or the shared corner, S-bends), zones along it by weight, lanes
as strips across it, left to right as driven. An axial offset is a point of that frame
(:meth:`HexLayout.axial` is the inverse of :meth:`HexLayout.centre`).

- a token belongs to the nearest road (first road on a tie); it is off the road when farther
  than ``ON_ROAD`` (circumradii) from every centreline. Its zone is the one whose stretch holds the
  nearest point of the centreline; it covers the whole zone (``STEP.ZONE``) when within
  ``CENTRE_BAND`` of the centreline of an even number of lanes (on their divider) or when the zone
  has no lane spaces (corners, wide, half, junction, service), else the lane strip it lies on
  (``l``/``m``/``r`` as driven: on a 3-lane zone the centreline runs along ``m``);
- an RX standee stands on the line at the entry of a zone: the zone boundary nearest to it.

Export writes a token at the centre of its zone (or lane), turned along the road, so a file
written by rallyc reads back onto the same spaces.

On a fork tile some spaces of a road are another road's spaces (a branch's zones from a shared edge up
to its merge zone, the half-line zone two branches share, 407a's ``wide`` space on road 1's lane:
:func:`rallyc.tiles.sharing.shared_spaces`). The map draws such a space once, in that road's place, and
so does a track file: export puts its token there, and import reads a token there, when the step drives
the road whose space it is, as that road's space.

A plain fork (GT 151, 152: :mod:`rallyc.tiles.fan`) lays its links' own spaces beside the main road, not along
their centrelines: a token for such a space goes inside it (where the map draws its label, turned the way the
link leads there), and a token inside it reads back as that space (or as the space of an allowed road that is
the same space: the branch-edge zone of both links).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

from rallyc.geometry.tile import heading_steps, lane_strip, point_in_polygon
from rallyc.syntax import ast
from rallyc.tiles.fan import FanSpace, fan_places, plain_fork
from rallyc.tiles.shape import UNIT, TileRoad, tile_road
from rallyc.tiles.sharing import SharedSpace, SpaceKey, shared_spaces

__all__ = ["Placement", "locate", "token_offset", "standee_offset", "zone_count", "ON_ROAD", "CENTRE_BAND"]

#: farther than this from every centreline (in circumradii), a token is off the road
ON_ROAD = 0.6
#: nearer than this to the centreline, a token covers the whole zone
CENTRE_BAND = 0.1


def _lane_names(n: int) -> tuple[str, ...] | None:
    return {2: ("l", "r"), 3: ("l", "m", "r"), 4: ("l", "ml", "mr", "r")}.get(n)


def zone_count(tile: ast.TileDef, road: int) -> int:
    """Zones of road ``road`` (1-based) of ``tile`` (at least 1)."""
    return max(1, len(tile.roads[road - 1].zones))


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


def _zone_at(road: TileRoad, t: float) -> int:
    return min(max(bisect_right(road.bounds, t), 1), road.zones)


def locate(tile: ast.TileDef, q: float, r: float, roads: list[int] | None = None) -> Placement | None:
    """The road, zone and lane a token at axial offset (q, r) of the tile's own frame lies on.

    ``roads`` limits the search to these road numbers (1-based). None when the
    token is off every road (or the tile has none).
    """
    point = UNIT.centre(q, r)
    fanned = _on_fan(tile, point, roads)
    if fanned is not None:
        return fanned
    best: Placement | None = None
    for i in range(1, len(tile.roads) + 1):
        if roads is not None and i not in roads:
            continue
        found = _place(tile, i, point)
        if found is not None and (best is None or found.distance < best.distance - 1e-9):
            best = found
    if roads is not None:
        # a space of an allowed road drawn in another road's place: a token on that place is on it
        shared = _drawn_elsewhere(tile, roads)
        on: list[tuple[float, int, Placement]] = []
        for other in sorted({place[0] for place in shared}):
            found = _place(tile, other, point)
            if found is not None and found.distance <= tile_road(tile, other).width / 2 and \
                    (other, found.zone, _lane_name(found)) in shared:
                on.append((found.distance, other, found))
        if on:
            _, other, found = min(on, key=lambda c: (c[0], c[1]))
            return _as_space(tile, shared[(other, found.zone, _lane_name(found))], found)
    return best


def _fan(tile: ast.TileDef) -> dict[SpaceKey, FanSpace]:
    """Where the links' own spaces of a plain fork lie in the tile's own frame (empty for other tiles)."""
    fork = plain_fork(tile)
    if fork is None:
        return {}
    return fan_places(tile, fork, lambda n: (tile_road(tile, n).line, tile_road(tile, n).width))


def _on_fan(tile: ast.TileDef, point: tuple[float, float], roads: list[int] | None) -> Placement | None:
    """The space of a plain fork's link whose place holds ``point``: the one laid there, or the space of an
    allowed road that is that space (another link's branch-edge zone)."""
    places = _fan(tile)
    if not places:
        return None
    key = next((k for k, place in places.items() if point_in_polygon(point, place.outline)), None)
    if key is None:
        return None
    candidates = [key] + [k for k, place in sorted(shared_spaces(tile).items(), key=lambda kv: (kv[0][0], kv[0][1],
                                                                                             kv[0][2] or ""))
                          if (place.road, place.zone, place.lane) == key]
    if roads is not None:
        candidates = [k for k in candidates if k[0] in roads]
        if not candidates:
            return None
    road, zone, lane = candidates[0]
    laid = tile_road(tile, road)
    lanes = laid.lanes[zone - 1] if zone <= len(laid.lanes) else 0
    names = _lane_names(lanes)
    index = names.index(lane) if lane is not None and names and lane in names else None
    dist, _, _ = laid.line.nearest(point)
    return Placement(road, zone, index, lanes, zone - 1, dist)


def _place(tile: ast.TileDef, number: int, point: tuple[float, float]) -> Placement | None:
    """Where ``point`` lies on road ``number`` of ``tile`` (None farther than ``ON_ROAD`` from it)."""
    road = tile_road(tile, number)
    dist, t, u = road.line.nearest(point)
    if dist > ON_ROAD:
        return None
    zone = _zone_at(road, t)
    lanes = road.lanes[zone - 1] if zone <= len(road.lanes) else 0
    lane = None
    # near the centreline of an even number of lanes (on the divider), the token covers the whole zone;
    # with an odd number the centreline runs along the middle lane
    if lanes and (abs(u) >= CENTRE_BAND or lanes % 2) and _lane_names(lanes):
        lane = min(lanes - 1, max(0, int((road.width / 2 - u) // (road.width / lanes))))
    boundary = min(range(len(road.bounds)), key=lambda k: abs(road.bounds[k] - t))
    return Placement(number, zone, lane, lanes, boundary, dist)


def _lane_name(p: Placement) -> str | None:
    names = _lane_names(p.lanes)
    return None if p.lane is None or names is None else names[p.lane]


def _drawn_elsewhere(tile: ast.TileDef, roads: list[int]) -> dict[tuple[int, int, str | None], SharedSpace]:
    """The places (road, zone, lane as written) of another road where spaces of ``roads`` are drawn, with the
    space of ``roads`` each is (road, zone, lane as written, and whether the two run the same way)."""
    out: dict[tuple[int, int, str | None], SharedSpace] = {}
    for (road, zone, lane), place in sorted(shared_spaces(tile).items(), key=lambda kv: (kv[0][0], kv[0][1],
                                                                                        kv[0][2] or "")):
        if road in roads and place.road not in roads:
            out.setdefault((place.road, place.zone, place.lane), SharedSpace(road, zone, lane, place.same_way))
    return out


def _as_space(tile: ast.TileDef, space: SharedSpace, found: Placement) -> Placement:
    """The placement on ``space`` (road, zone, lane as written) of a token found on the place it is drawn."""
    laid = tile_road(tile, space.road)
    lanes = laid.lanes[space.zone - 1] if space.zone <= len(laid.lanes) else 0
    names = _lane_names(lanes)
    lane = names.index(space.lane) if space.lane is not None and names and space.lane in names else None
    # the zone boundary on the same side of the space as the one found on the other road
    before = found.boundary < found.zone
    if not space.same_way:
        before = not before
    boundary = space.zone - 1 if before else space.zone
    return Placement(space.road, space.zone, lane, lanes, boundary, found.distance)


def _offset(point: tuple[float, float], tangent: tuple[float, float]) -> tuple[float, float, float]:
    q, r = UNIT.axial(point)
    return round(q, 4) + 0.0, round(r, 4) + 0.0, heading_steps(UNIT, tangent)


def token_offset(tile: ast.TileDef, road: int, forward: bool, zone: int, lane: str | None
                 ) -> tuple[float, float, float]:
    """Axial offset (q, r) and rotation of a token on ``zone`` (driving order) of ``road``."""
    laid = tile_road(tile, road)
    n = laid.zones
    written = min(max(zone if forward else n + 1 - zone, 1), n)
    lanes = laid.lanes[written - 1] if written <= len(laid.lanes) else 0
    names = _lane_names(lanes) if lanes else None
    idx = None
    if lane is not None and names and lane in names:
        idx = names.index(lane)
        if not forward:
            idx = lanes - 1 - idx
    # a space drawn in another road's place (a fork's shared spaces): its token goes there
    place = shared_spaces(tile).get((road, written, names[idx] if names and idx is not None else None))
    if place is not None:
        laid, written, forward = tile_road(tile, place.road), place.zone, forward == place.same_way
        lanes = laid.lanes[written - 1] if written <= len(laid.lanes) else 0
        names = _lane_names(lanes) if lanes else None
        idx = names.index(place.lane) if names and place.lane in names else None
        road = place.road
    # a plain fork's link space laid beside the main road: its token where the map draws its label
    fanned = _fan(tile).get((road, written, names[idx] if names and idx is not None else None))
    if fanned is not None:
        hx, hy = fanned.heading
        return _offset(fanned.label, (hx, hy) if forward else (-hx, -hy))
    t = (laid.bounds[written - 1] + laid.bounds[written]) / 2
    u = 0.0
    if idx is not None:
        u0, u1 = lane_strip(laid.width, idx, lanes)
        u = (u0 + u1) / 2
    tx, ty = laid.line.tangent(t)
    if not forward:
        tx, ty = -tx, -ty
    return _offset(laid.line.at(t, u), (tx, ty))


def standee_offset(tile: ast.TileDef, road: int, forward: bool, zone: int) -> tuple[float, float, float]:
    """Axial offset and rotation of a standee on the line at the entry of ``zone`` (driving order)."""
    laid = tile_road(tile, road)
    n = laid.zones
    b = min(max(zone - 1 if forward else n - (zone - 1), 0), n)
    t = laid.bounds[b]
    tx, ty = laid.line.tangent(t)
    if not forward:
        tx, ty = -tx, -ty
    return _offset(laid.line.point(t), (tx, ty))
