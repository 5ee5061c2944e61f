"""Where every space of a compiled track lies on the page.

The spaces of a road are read from the compiled graph itself (zones in driving
order, their lanes, slide halves, corner spaces, shortcuts), so the drawing
always shows exactly the spaces the rules interpreter moves cars on. Where they
lie is the one model of :mod:`rallyc.geometry.tile` (zone lengths by weight,
lane strips, road width), shared with the track files; the tile definition only
adds what the graph does not say: the form of the road (:func:`rallyc.tiles.shape.road_form`:
S-bends, two roads side by side) and the signpost colours at each end.
"""

from __future__ import annotations

import re
from collections import Counter

from rallyc.compiler.track import PlacedTile, Space, Track
from rallyc.geometry.hexgrid import edge_index, own_to_world, neighbour
from rallyc.geometry.tile import LANE_WIDTH, RoadForm, lane_strip, road_width, zone_bounds, zone_weight
from rallyc.render.forks import ForkArm, branch_zones, fork_kinds, lay_fork
from rallyc.render.geometry import Centreline, HexLayout, Point, polygon_centroid
from rallyc.render.outlines import RoadShape, SpaceShape, TrackShapes
from rallyc.tiles.catalogue import TileInfo
from rallyc.tiles.shape import checkered_lines, is_fork, road_form

__all__ = ["SpaceShape", "RoadShape", "TrackShapes", "track_shapes", "LANE_WIDTH"]

_LANE_ORDER = {"l": 0, "ml": 1, "m": 2, "mr": 3, "r": 4}  # left to right; ml/mr only on 4-lane roads
_NUMBERED = re.compile(r"^([a-z]+?)(\d+)$")


def _lane_key(lane: str) -> tuple[int, int, str]:
    if lane in _LANE_ORDER:
        return (0, _LANE_ORDER[lane], lane)
    m = _NUMBERED.match(lane)
    if m:
        return (1, int(m.group(2)), m.group(1))
    return (2, 0, lane)


_LIMITED = re.compile(r"^(in|out)\d+$")


def _method(space: Space) -> str | None:
    """``in``/``out`` for a corner space, and for a space of a ``limited`` section (411a: the inside and
    outside spaces keep a lane divider, so the graph gives them no corner method, but they lie as a
    corner's do); None otherwise."""
    if space.method is not None:
        return space.method
    if space.kind == "lane" and space.lane is not None and space.lane[:1] in ("i", "o"):
        m = _LIMITED.match(space.lane)
        if m:
            return m.group(1)
    return None


def _zone_weight(spaces: list[Space]) -> float:
    inside = outside = 0
    for s in spaces:
        method = _method(s)
        if method == "in":
            inside += 1
        elif method == "out":
            outside += 1
    return zone_weight(inside, outside)


def _road_def(catalogue, tile_id: str, road: int | None):
    if catalogue is None or road is None:
        return None
    info = catalogue.get(tile_id)
    if info is None or not (1 <= road <= len(info.roads)):
        return None
    return info.definition.roads[road - 1], info


def _direction(track: Track, placed: PlacedTile, road_no: int | None, group: list[Space],
               cells: dict[tuple[int, int], int], catalogue) -> tuple[int | None, int | None, bool]:
    """World entry/exit edges (as driven) of one road at one step, and whether it is driven reversed."""
    found = _road_def(catalogue, placed.tile, road_no)
    described: tuple[int, int | None] | None = None
    if found is not None:
        road = found[0]
        d_in = edge_index(own_to_world(road.entry, placed.rot))
        d_out = None if road.exit == "end" else edge_index(own_to_world(road.exit, placed.rot))
        described = (d_in, d_out)
    if road_no == placed.road and placed.entry is not None:
        entry = edge_index(placed.entry)
        exit_ = edge_index(placed.exit) if placed.exit else None
        if described is not None and exit_ is None:
            exit_ = described[1]
        rev = described is not None and described[0] != entry
        return entry, exit_, rev
    if described is None:
        return None, None, False
    # another road of the same tile (RX forks): the graph says which end is driven first
    first_zone = min((s.zone for s in group if s.zone is not None), default=None)
    for s in group:
        if s.zone != first_zone:
            continue
        for p in track.graph.predecessors(s.id):
            other = track.graph.nodes[p].get("step")
            if other is None or other == placed.step or other not in cells.values():
                continue
            for edge in range(6):
                cell = neighbour((placed.q, placed.r), edge)
                if cells.get((cell.q, cell.r)) == other:
                    if edge == described[1]:
                        return described[1], described[0], True
                    return described[0], described[1], False
    return described[0], described[1], False


def _leaves_by(track: Track, placed: PlacedTile, group: list[Space], cells: dict[tuple[int, int], int],
               edge: int) -> bool:
    """True when the last zone of ``group`` leads to the tile beyond world edge ``edge`` of ``placed``: a road
    whose entry this is is driven against its centreline (a Joker leaving a fork by its branch, 408a)."""
    beyond = neighbour((placed.q, placed.r), edge)
    step = cells.get((beyond.q, beyond.r))
    last_zone = max((s.zone for s in group if s.zone is not None), default=None)
    return step is not None and step != placed.step and any(
        track.graph.nodes[n].get("step") == step
        for s in group if s.zone == last_zone for n in track.graph.successors(s.id))


def track_shapes(track: Track, layout: HexLayout, catalogue=None) -> TrackShapes:
    """Compute the road centrelines and the outline of every space of ``track``."""
    by_group: dict[tuple[int, int | None], list[Space]] = {}
    for s in track.spaces.values():
        by_group.setdefault((s.step, s.road), []).append(s)
    cells = {(p.q, p.r): p.step for p in track.placed if not p.scenery}
    roads: list[RoadShape] = []
    shapes: dict[str, SpaceShape] = {}
    done: set[tuple[int, int | None]] = set()
    arms: dict[tuple[int, int], list[ForkArm]] = {}
    fork_tiles: dict[tuple[int, int], tuple[TileInfo, int]] = {}
    per_step = Counter(p.step for p in track.placed if not p.scenery)
    shared = {step for step, n in per_step.items() if n > 1}
    keys_of_step: dict[int, list[tuple[int, int | None]]] = {}
    for key in by_group:
        keys_of_step.setdefault(key[0], []).append(key)
    for placed in track.placed:
        if placed.scenery:
            continue
        groups = sorted(keys_of_step.get(placed.step, ()), key=lambda k: (k[1] is None, k[1] or 0))
        road_numbers = [k[1] for k in groups] or [placed.road]
        if placed.step in shared:
            # several placements share one step (one tile drawn road by road): each draws its own road
            road_numbers = [placed.road]
        for road_no in road_numbers:
            if (placed.step, road_no) in done:
                continue
            done.add((placed.step, road_no))
            group = by_group.get((placed.step, road_no), [])
            entry, exit_, reversed_ = _direction(track, placed, road_no, group, cells, catalogue)
            if entry is None:
                continue
            found = _road_def(catalogue, placed.tile, road_no)
            road, road_def = _placed_road(track, placed, road_no, group, layout, found, (entry, exit_, reversed_))
            fork = road.fork
            road.against = exit_ is not None and _leaves_by(track, placed, group, cells, entry)
            if road_def is not None:
                _printed_lines(road, road_def, reversed_, group, layout)
            roads.append(road)
            laid = _space_shapes(track, road, group, layout)
            cell = (placed.q, placed.r)
            if fork:
                arms.setdefault(cell, []).append(ForkArm(road, [(track.spaces[sh.id], sh) for sh in laid]))
                if found is not None:
                    fork_tiles[cell] = (found[1], placed.rot)
            for sh in laid:
                shapes[sh.id] = sh
    for cell, cell_arms in arms.items():
        lay_fork(cell_arms, layout, *fork_tiles.get(cell, (None, 0)))
    return TrackShapes(layout, roads, dict(sorted(shapes.items())))


def _placed_road(track: Track, placed: PlacedTile, road_no: int | None, group: list[Space], layout: HexLayout,
                 found, way: tuple[int, int | None, bool]) -> tuple[RoadShape, object]:
    """The shape of road ``road_no`` of ``placed`` driven ``way`` (entry, exit, reversed), and its definition
    in the tile catalogue (None when the catalogue has none)."""
    entry, exit_, reversed_ = way
    form = RoadForm()
    fork = False
    road_def = None
    danger = ("none", "none")
    surface = group[0].surface if group else "gravel"
    if found is not None:
        road_def, info = found
        opposite = exit_ is not None and (exit_ - entry) % 6 == 3
        form = road_form(info.definition, road_def, reversed_, opposite,
                         any(_method(s) is not None for s in group))
        fork = is_fork(info.definition)
        d = info.definition.danger
        danger = (d[1], d[0]) if reversed_ else (d[0], d[1])
        surface = info.definition.surface
    elif group:
        danger = (group[0].danger, group[0].danger)
    line = Centreline.of(layout, placed.q, placed.r, entry, exit_, form)
    kinds: tuple[str, ...] = ()
    zone_map: dict[int, int] = {}
    if fork and road_def is not None:
        kinds = fork_kinds(road_def, reversed_)
        zone_map = branch_zones(track, group, len(kinds))
    road = _road_shape(placed.step, road_no, line, layout, group, surface, danger, zone_map, len(kinds))
    road.dead_end = exit_ is None
    road.cell = (placed.q, placed.r)
    road.fork = fork
    road.entry, road.exit, road.kinds = entry, exit_, kinds
    return road, road_def


def _road_shape(step: int, road_no: int | None, line: Centreline, layout: HexLayout,
                group: list[Space], surface: str, danger: tuple[str, str], zone_map: dict[int, int] | None = None,
                described: int = 0) -> RoadShape:
    """``zone_map`` (a fork branch's own zones, numbered after the loop road's): graph zone -> zone as driven
    of the ``described`` zones of the tile's road."""
    zone_map = zone_map or {}
    zones: dict[int, list[Space]] = {}
    for s in group:
        if s.zone is not None:
            zones.setdefault(s.zone, []).append(s)
    count = max(zones, default=0)
    lanes = 2
    for spaces in zones.values():
        lanes = max(lanes, sum(1 for s in spaces if s.kind in ("lane", "half")))
    if zone_map:
        driven = {zone_map.get(z, z): spaces for z, spaces in zones.items()}
        bounds = zone_bounds([_zone_weight(driven.get(z, [])) for z in range(1, described + 1)])
    else:
        bounds = zone_bounds([_zone_weight(zones.get(z, [])) for z in range(1, count + 1)])
    road = RoadShape(step, road_no, line, road_width(lanes, layout.size), bounds, surface, danger,
                     zone_map=zone_map)
    for z, spaces in sorted(zones.items()):
        # the line stands after the last zone of start spaces (an RX Pre-grid has two rows of slots)
        if any(s.start for s in spaces) and not any(s.start for s in zones.get(z + 1, [])):
            road.start_after.append(z)
        if any(s.after_finish for s in spaces) and not any(
                s.after_finish for s in zones.get(z - 1, [])):
            road.finish_before.append(z)
    return road


def _space_shapes(track: Track, road: RoadShape, group: list[Space], layout: HexLayout) -> list[SpaceShape]:
    line = road.centreline
    half = road.width / 2
    out: list[SpaceShape] = []
    zones: dict[int, list[Space]] = {}
    cuts: list[Space] = []
    for s in group:
        if s.zone is None:
            cuts.append(s)
        else:
            zones.setdefault(s.zone, []).append(s)
    for z, spaces in sorted(zones.items()):
        t0, t1 = road.zone_span(z)
        if all(s.kind == "lane" and _method(s) is None for s in spaces):
            # a plain zone: its lane strips only (what the general case below gives it, without its sorting);
            # neighbouring strips share the kerb line between them (the same points, computed once)
            strips = sorted(spaces, key=lambda s: _lane_key(s.lane))
            kerbs: dict[float, list[Point]] = {}
            mid = (t0 + t1) / 2
            for i, s in enumerate(strips):
                u0, u1 = lane_strip(road.width, i, len(strips))
                left = kerbs.get(u0)
                if left is None:
                    left = kerbs[u0] = line.kerb(t0, t1, u0)
                right = kerbs.get(u1)
                if right is None:
                    right = kerbs[u1] = line.kerb(t0, t1, u1)
                # _band(s, line, t0, t1, u0, u1): the outline line.band(t0, t1, u0, u1) and its label
                out.append(SpaceShape(s.id, left + right[::-1], line.at(mid, (u0 + u1) / 2), kind=s.kind))
            continue
        lanes = sorted((s for s in spaces if s.kind in ("lane", "half")), key=lambda s: _lane_key(s.lane))
        slides = sorted((s for s in spaces if s.kind == "slide"), key=lambda s: _lane_key(s.lane))
        inside = sorted((s for s in spaces if _method(s) == "in"), key=lambda s: _lane_key(s.lane))
        outside = sorted((s for s in spaces if _method(s) == "out"), key=lambda s: _lane_key(s.lane))
        lanes = [s for s in lanes if _method(s) is None]
        whole = sorted((s for s in spaces if s.kind in ("wide", "junction", "service")
                        and s.method is None), key=lambda s: s.id)
        done = {s.id for s in lanes + slides + inside + outside + whole}
        rest = sorted((s for s in spaces if s.id not in done), key=lambda s: _lane_key(s.lane))
        strips = lanes + rest
        for i, s in enumerate(strips):
            out.append(_band(s, line, t0, t1, *lane_strip(road.width, i, len(strips))))
        for i in range(1, len(slides)):
            road.slide_lines.append(t0 + (t1 - t0) * i / len(slides))
        for i, s in enumerate(slides):
            a = t0 + (t1 - t0) * i / len(slides)
            b = t0 + (t1 - t0) * (i + 1) / len(slides)
            inset = 0.04 * layout.size
            shape = _band(s, line, a + 0.01, b - 0.01, half - inset, -half + inset)
            shape.dashed = True
            # the slide half's label sits beside the lane labels, on the road's edge
            shape.label = line.at((a + b) / 2, 0.0)
            out.append(shape)
        if inside or outside:
            side = line.inside_side(t0, t1)
            for method, spaces_ in (("in", inside), ("out", outside)):
                if not spaces_:
                    continue
                u_edge = (half if method == "in" else -half) * side
                for i, s in enumerate(spaces_):
                    a = t0 + (t1 - t0) * i / len(spaces_)
                    b = t0 + (t1 - t0) * (i + 1) / len(spaces_)
                    out.append(_band(s, line, a, b, u_edge, 0.0))
        for i, s in enumerate(whole):
            a = t0 + (t1 - t0) * i / len(whole)
            b = t0 + (t1 - t0) * (i + 1) / len(whole)
            out.append(_band(s, line, a, b, half, -half))
    out.extend(_shortcut_shapes(track, road, cuts, layout))
    return out


def _printed_lines(road: RoadShape, road_def, reversed_: bool, group: list[Space], layout: HexLayout) -> None:
    """The checkered lines the tile prints (401a/b) and the grid-slot bars behind them, as driven."""
    count = len(road.bounds) - 1
    lanes_of: dict[int, int] = {}
    for s in group:
        if s.zone is not None and s.kind == "lane":
            lanes_of[s.zone] = lanes_of.get(s.zone, 0) + 1
    half = road.width / 2
    for zones_seen in checkered_lines(road_def):
        if not 0 < zones_seen < count:
            continue
        after = count - zones_seen if reversed_ else zones_seen
        road.checkered.append(road.bounds[after])
        # the grid lies behind the line (the zones before it as the tile is described)
        behind = range(after + 1, count + 1) if reversed_ else range(1, after + 1)
        for z in behind:
            t0, t1 = road.zone_span(z)
            t = t0 + 0.15 * (t1 - t0) if reversed_ else t1 - 0.15 * (t1 - t0)
            n = lanes_of.get(z, 0)
            if not n:
                continue
            w = road.width / n
            for i in range(n):
                mid = half - (i + 0.5) * w
                road.grid_bars.append(road.centreline.cross(t, mid + 0.3 * w, mid - 0.3 * w))


def _band(space: Space, line: Centreline, t0: float, t1: float, u0: float, u1: float) -> SpaceShape:
    outline = line.band(t0, t1, u0, u1)
    label = line.at((t0 + t1) / 2, (u0 + u1) / 2)
    return SpaceShape(space.id, outline, label, kind=space.kind)


def _shortcut_shapes(track: Track, road: RoadShape, cuts: list[Space], layout: HexLayout) -> list[SpaceShape]:
    """Shortcut spaces: a wedge on the inside of the bend between the zones they join."""
    line = road.centreline
    half = road.width / 2
    ranges: dict[tuple[float, float], list[Space]] = {}
    last = len(road.bounds) - 1
    for s in sorted(cuts, key=lambda s: _lane_key(s.id.rpartition(".")[2])):
        before = [track.graph.nodes[p].get("zone") for p in track.graph.predecessors(s.id)
                  if track.graph.nodes[p].get("step") == s.step]
        after = [track.graph.nodes[n].get("zone") for n in track.graph.successors(s.id)
                 if track.graph.nodes[n].get("step") == s.step]
        before = [z for z in before if z is not None]
        after = [z for z in after if z is not None]
        z_from = max(before) if before else 1
        z_to = min(after) if after else last
        if line.shape == "hairpin":
            # a wedge inside the hairpin, between the zones it joins
            t_a = road.zone_span(z_from)[1]
            t_b = road.zone_span(z_to)[0]
        else:
            # a strip alongside the zones it joins (from the middle of one to the middle of the other)
            t_a = sum(road.zone_span(z_from)) / 2
            t_b = sum(road.zone_span(z_to)) / 2
        if t_b - t_a < 0.1:
            mid = (t_a + t_b) / 2
            t_a, t_b = max(0.0, mid - 0.15), min(1.0, mid + 0.15)
        ranges.setdefault((round(t_a, 6), round(t_b, 6)), []).append(s)
    out = []
    R = layout.size
    for (t_a, t_b), spaces in sorted(ranges.items()):
        side = line.inside_side(t_a, t_b)
        edge = (half + 0.02 * R) * side
        if line.shape == "hairpin":
            # a wedge: a fan from one point inside the hairpin to the inner kerb
            depth = min(0.3 * R, 0.8 * (line.radius - half)) if line.radius and line.radius > half else 0.3 * R
            focus = line.at((t_a + t_b) / 2, edge + side * depth)
            for i, s in enumerate(spaces):
                a = t_a + (t_b - t_a) * i / len(spaces)
                b = t_a + (t_b - t_a) * (i + 1) / len(spaces)
                outline = line.kerb(a, b, edge) + [focus]
                out.append(SpaceShape(s.id, outline, polygon_centroid(outline), kind=s.kind))
            continue
        # a strip along the inner kerb from the zone it leaves to the zone it joins, closed by the
        # straight line (chord) between its ends where the bend leaves room (214b, 215b, 226b), never
        # thinner than a minimum (the long inside of a 60 degree curve: 224b)
        kerb = line.kerb(t_a, t_b, edge)
        back = _strip_back(line, t_a, t_b, kerb, side, 0.16 * R, 0.6 * R)
        for i, s in enumerate(spaces):
            lo = round(i * (len(kerb) - 1) / len(spaces))
            hi = round((i + 1) * (len(kerb) - 1) / len(spaces))
            outline = kerb[lo:hi + 1] + list(reversed(back[lo:hi + 1]))
            out.append(SpaceShape(s.id, outline, polygon_centroid(outline), kind=s.kind))
    return out


def _strip_back(line: Centreline, t_a: float, t_b: float, kerb: list[Point], side: int, least: float,
                most: float) -> list[Point]:
    """The far side of a shortcut strip: for each kerb point, the point on the chord between the strip's
    ends straight out from the road, at least ``least`` and at most ``most`` from the kerb."""
    (x0, y0), (x1, y1) = kerb[0], kerb[-1]
    n = len(kerb) - 1
    out: list[Point] = []
    for i, (px, py) in enumerate(kerb):
        t = t_a + (t_b - t_a) * i / n if n else t_a
        tx, ty = line.tangent(t)
        # outward normal (away from the road, on the strip's side)
        nx, ny = ty * side, -tx * side
        depth = least
        # ray p + d n against the chord line through (x0, y0), (x1, y1)
        cx, cy = x1 - x0, y1 - y0
        det = nx * cy - ny * cx
        if abs(det) > 1e-9 and (i not in (0, n)):
            d = ((x0 - px) * cy - (y0 - py) * cx) / det
            depth = min(max(d, least), most)
        out.append((px + nx * depth, py + ny * depth))
    return out
