"""The map of one track as SVG elements in model millimetres (real tile size).

Draw order: tile hexagons, road bodies, space outlines (slide halves dashed),
shortcut wedges, lines (start, finish), signposts, jumps and water, speed
limits, tokens, tile labels, RX standees, then the replay overlay. Every space
of the graph gets exactly one outline element ``<path class="space"
id="space-ID" data-space="ID">``; every placed tile one ``<path class="hex">``;
every printed speed limit one ``<g class="limit" data-space="ID">``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence

import svgwrite
from svgwrite.container import Group

from rallyc.compiler.track import Track
from rallyc.render import style
from rallyc.render.geometry import HexLayout, Point, fmt, path_d
from rallyc.render.shapes import RoadShape, TrackShapes, track_shapes

__all__ = ["CarMark", "Scene", "build_scene", "Box"]


@dataclass(frozen=True)
class CarMark:
    """A car on the replay overlay: its colour, space, gear and the spaces it drove last turn."""

    colour: str
    space: str
    gear: int | None = None
    path: tuple[str, ...] = ()
    name: str = ""
    #: a small label under the car (an RX race's laps done and Joker state); empty draws nothing
    note: str = ""


@dataclass
class Box:
    """An axis-aligned rectangle (model mm)."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    def grow(self, other: "Box") -> "Box":
        return Box(min(self.x0, other.x0), min(self.y0, other.y0), max(self.x1, other.x1), max(self.y1, other.y1))


@dataclass
class Scene:
    """A finished drawing of one track: its group of elements and the box it covers."""

    group: Group
    box: Box
    shapes: TrackShapes
    #: box of the tiles only (without title block and legend)
    tiles_box: Box = field(default_factory=lambda: Box(0, 0, 0, 0))
    #: boxes of what the page adds around the tiles (title block, legend)
    extra_boxes: list[Box] = field(default_factory=list)


def _attrs(el, **values: str):
    for k, v in values.items():
        el.attribs[k.rstrip("_").replace("_", "-")] = v
    return el


def _path(dwg: svgwrite.Drawing, points: Sequence[Point], closed: bool = True, **attrs: str):
    el = dwg.path(d=path_d(points, closed))
    return _attrs(el, **attrs)


def _text(dwg: svgwrite.Drawing, text: str, at: Point, size: float, *, anchor: str = "middle",
          weight: str | None = None, fill: str = style.TEXT, **attrs: str):
    el = dwg.text(text)
    el.attribs.update({"x": fmt(at[0]), "y": fmt(at[1] + size * 0.35), "font-size": fmt(size),
                       "text-anchor": anchor, "fill": fill})
    if weight:
        el.attribs["font-weight"] = weight
    return _attrs(el, **attrs)


def _circle(dwg: svgwrite.Drawing, at: Point, radius: float, **attrs: str):
    el = dwg.circle()
    el.attribs.update({"cx": fmt(at[0]), "cy": fmt(at[1]), "r": fmt(radius)})
    return _attrs(el, **attrs)


def tile_label_text(tile_id: str) -> str:
    """The printed number and side, e.g. ``210b``."""
    return tile_id


def _label_spot(shapes: TrackShapes, layout: HexLayout, q: int, r: int, avoid: Sequence[Point] = ()) -> Point:
    """A point inside the hex as far as possible from every road centreline on it (and the ``avoid`` points)."""
    R = layout.size
    cx, cy = layout.centre(q, r)
    candidates = [layout.towards(q, r, k, 0.0) for k in range(1)]
    for k in range(6):
        corner = layout.corner(q, r, k)
        candidates.append((cx + (corner[0] - cx) * 0.6, cy + (corner[1] - cy) * 0.6))
    samples = [p for p in avoid if math.dist(p, (cx, cy)) <= R]
    for road in shapes.roads:
        line = road.centreline
        pc = line.point(0.5)
        if math.dist(pc, (cx, cy)) < layout.size * 1.5 or line.shape == "curve60":
            for i in range(17):
                p = line.point(i / 16)
                if math.dist(p, (cx, cy)) <= layout.size * 1.01:
                    samples.append(p)
        if road.dead_end and math.dist(line.point(1.0), (cx, cy)) < 0.1 * R:
            # keep the label off the Assistance area drawn at the end of the road
            ex, ey = line.point(1.0)
            samples += [(ex + dx * R, ey + dy * R) for dx in (-0.45, 0, 0.45) for dy in (-0.3, 0, 0.3)]
    if not samples:
        return candidates[1]
    best = max(candidates, key=lambda c: (round(min(math.dist(c, s) for s in samples), 3), -c[1], -c[0]))
    return best


def build_scene(track: Track, catalogue, *, tile_mm: float = 200.0, flat: bool = True,
                show_ids: bool = False, cars: Sequence[CarMark] = (), dwg: svgwrite.Drawing | None = None,
                id_prefix: str = "") -> Scene:
    """Draw ``track`` at real size (a tile is ``tile_mm`` edge to edge) into one SVG group.

    A circuit's RX standees come from ``track.standees`` (each on the line at the entry of its zone).
    """
    dwg = dwg or svgwrite.Drawing(profile="full", debug=False)
    layout = HexLayout(tile_mm / math.sqrt(3), flat)
    R = layout.size
    shapes = track_shapes(track, layout, catalogue)
    spaces = track.spaces
    top = dwg.g(id=f"{id_prefix}map")

    # -- tiles
    g_tiles = _attrs(dwg.g(), id=f"{id_prefix}tiles")
    xs: list[float] = []
    ys: list[float] = []
    drawn: set[tuple[int, int, str]] = set()
    edge_ticks = []
    for n, p in enumerate(sorted(track.placed, key=lambda p: (p.scenery, p.step, p.q, p.r))):
        if (p.q, p.r, p.tile) in drawn:
            continue  # a tile driven twice (two roads, e.g. 414b) is one piece of cardboard
        drawn.add((p.q, p.r, p.tile))
        corners = layout.corners(p.q, p.r)
        xs += [c[0] for c in corners]
        ys += [c[1] for c in corners]
        info = catalogue.get(p.tile) if catalogue is not None else None
        surface = info.surface if info is not None else "gravel"
        fill = style.SCENERY_FILL if p.scenery else style.TILE_FILL.get(surface, style.TILE_FILL["gravel"])
        tid = f"{id_prefix}tile-{p.step}" if not p.scenery else f"{id_prefix}scenery-{n}"
        if not p.scenery:
            # the tile's printed edge A, so it can be turned the right way at the table
            tick = _text(dwg, "A", layout.towards(p.q, p.r, p.rot, 0.88), 0.06 * R, fill=style.MUTED,
                         class_="edge-a")
            edge_ticks.append(tick)
        g_tiles.add(_path(dwg, corners, class_="hex", id=tid, data_tile=p.tile, data_step=str(p.step),
                          data_q=str(p.q), data_r=str(p.r), data_rot=str(p.rot), fill=fill,
                          stroke=style.HEX_STROKE, stroke_width=fmt(0.012 * R)))
    for tick in edge_ticks:
        g_tiles.add(tick)
    top.add(g_tiles)
    tiles_box = Box(min(xs), min(ys), max(xs), max(ys)) if xs else Box(0, 0, R, R)

    # -- road bodies
    g_roads = _attrs(dwg.g(), id=f"{id_prefix}roads")
    for road in shapes.roads:
        line = road.centreline
        half = road.width / 2
        body = line.band(0.0, 1.0, half, -half)
        g_roads.add(_path(dwg, body, class_="road", fill=style.ROAD_FILL.get(road.surface, style.ROAD_FILL["gravel"]),
                          stroke=style.ROAD_EDGE.get(road.surface, "#444444"), stroke_width=fmt(0.018 * R)))
        if road.dead_end:
            _assistance(dwg, g_roads, layout, road, R)
    top.add(g_roads)

    # -- spaces
    g_spaces = _attrs(dwg.g(), id=f"{id_prefix}spaces", fill="none")
    solid = [s for s in shapes.spaces.values() if not s.dashed and s.kind != "shortcut"]
    cuts = [s for s in shapes.spaces.values() if s.kind == "shortcut"]
    dashed = [s for s in shapes.spaces.values() if s.dashed]
    for sh in solid + cuts + dashed:
        sp = spaces[sh.id]
        attrs = {"class_": f"space {sh.kind}", "id": f"{id_prefix}space-{sh.id}", "data_space": sh.id,
                 "stroke": style.SPACE_STROKE, "stroke_width": fmt(0.008 * R)}
        if sh.kind == "shortcut":
            attrs.update(fill=style.SHORTCUT_FILL, stroke=style.SHORTCUT_STROKE, stroke_width=fmt(0.012 * R))
        elif sh.dashed:
            attrs.update(stroke=style.SLIDE_STROKE, stroke_width=fmt(0.01 * R),
                         stroke_dasharray=f"{fmt(0.04 * R)},{fmt(0.025 * R)}")
        elif sp.joker:
            attrs.update(fill=style.JOKER_FILL)
        elif sp.pregrid:
            attrs.update(fill=style.PREGRID_FILL)
        g_spaces.add(_path(dwg, sh.outline, **attrs))
    top.add(g_spaces)

    # -- lines across the road, signposts, direction arrows
    g_marks = _attrs(dwg.g(), id=f"{id_prefix}marks")
    for road in shapes.roads:
        _road_marks(dwg, g_marks, road, R)
    words = {"start": "START", "finish": "FINISH", "start-finish": "START / FINISH"}
    for road, t, kind in _lines(shapes, R):
        _checkered(dwg, g_marks, road.centreline, t, road.width / 2, R, f"{kind}-line", words[kind])
    top.add(g_marks)

    # -- features on spaces: jumps, water, tokens, limits
    g_feat = _attrs(dwg.g(), id=f"{id_prefix}features")
    g_limits = _attrs(dwg.g(), id=f"{id_prefix}limits")
    for sid, sh in shapes.spaces.items():
        sp = spaces[sid]
        x, y = sh.label
        if sp.jump is not None:
            _jump(dwg, g_feat, (x, y + 0.075 * R), sp.jump, R, sid)
        if sp.water:
            _water(dwg, g_feat, (x, y - 0.075 * R), R, sid)
        extra = [t for t in sp.tokens if not t.startswith(("water", "jump", "chicane"))]
        if extra:
            g_feat.add(_text(dwg, " ".join(sorted(extra)), (x, y + 0.09 * R), 0.045 * R, class_="token",
                             data_space=sid, fill=style.MUTED))
        if sp.limit is not None:
            g = _attrs(dwg.g(), class_="limit", data_space=sid)
            g.add(_circle(dwg, (x, y), 0.055 * R, fill="#ffffff", stroke=style.LIMIT_RING,
                          stroke_width=fmt(0.014 * R)))
            g.add(_text(dwg, str(sp.limit), (x, y), 0.07 * R, weight="bold"))
            g_limits.add(g)
        if sp.chicane is not None or any(t.startswith("chicane") for t in sp.tokens):
            at = (x + 0.06 * R, y - 0.06 * R) if sp.limit is not None else (x, y)
            g = _attrs(dwg.g(), class_="chicane", data_space=sid)
            g.add(_circle(dwg, at, 0.05 * R, fill="#ffffff", stroke=style.CHICANE_RING,
                          stroke_width=fmt(0.014 * R), stroke_dasharray=f"{fmt(0.02 * R)},{fmt(0.01 * R)}"))
            g.add(_text(dwg, str(sp.chicane) if sp.chicane is not None else "C", at, 0.06 * R, weight="bold"))
            g_limits.add(g)
        if show_ids:
            g_feat.add(_text(dwg, sid, (x, y + (0.1 if sp.limit is not None else 0.0) * R), 0.035 * R,
                             class_="space-id", fill=style.MUTED))
    top.add(g_feat)
    top.add(g_limits)

    # -- tile labels
    g_labels = _attrs(dwg.g(), id=f"{id_prefix}labels")
    cells: dict[tuple[int, int, str], list] = {}
    for p in sorted(track.placed, key=lambda p: (p.scenery, p.step, p.q, p.r)):
        cells.setdefault((p.q, p.r, p.tile), []).append(p)
    words_at = [road.centreline.at(t, road.width / 2 + 0.17 * R) for road, t, _ in _lines(shapes, R)]
    for (q, r, tile), ps in cells.items():
        spot = _label_spot(shapes, layout, q, r, words_at)
        if ps[0].scenery:
            g_labels.add(_text(dwg, f"{tile} scenery", spot, 0.09 * R, fill=style.MUTED, class_="tile-label"))
            continue
        steps = " ".join(f"#{p.step}" for p in ps)
        g_labels.add(_text(dwg, tile_label_text(tile), spot, 0.12 * R, weight="bold", class_="tile-label",
                           data_step=" ".join(str(p.step) for p in ps)))
        if not show_ids:
            g_labels.add(_text(dwg, steps, (spot[0], spot[1] + 0.12 * R), 0.07 * R, fill=style.MUTED,
                               class_="step-label"))
    top.add(g_labels)

    # -- RX standees and the replay overlay
    _standees(dwg, top, [(st.kind, st.at) for st in getattr(track, "standees", ())], shapes, R)
    if cars:
        top.add(_overlay(dwg, cars, shapes, R, id_prefix))
    return Scene(top, tiles_box, shapes, tiles_box)


def _lines(shapes: TrackShapes, R: float) -> list[tuple[RoadShape, float, str]]:
    """Start and finish lines as (road, t, kind); one line that is both (a circuit) is ``start-finish``."""
    found: list[tuple[RoadShape, float, str]] = []
    for road in shapes.roads:
        found += [(road, road.zone_span(z)[1], "start") for z in road.start_after]
        found += [(road, road.zone_span(z)[0], "finish") for z in road.finish_before]
    out: list[tuple[RoadShape, float, str]] = []
    for road, t, kind in found:
        p = road.centreline.point(t)
        twin = next((i for i, (r2, t2, k2) in enumerate(out)
                     if k2 != kind and math.dist(r2.centreline.point(t2), p) < 0.02 * R), None)
        if twin is None:
            out.append((road, t, kind))
        else:
            out[twin] = (out[twin][0], out[twin][1], "start-finish")
    return out


def _road_marks(dwg, group, road: RoadShape, R: float) -> None:
    line = road.centreline
    half = road.width / 2
    # signposts: a coloured post on the driver's right at each end of the road
    for end, t in (("entry", 0.03), ("exit", 0.97)):
        if road.dead_end and end == "exit":
            continue
        danger = road.danger[0 if end == "entry" else 1]
        if danger == "none":
            continue
        at = line.at(t, -half - 0.06 * R)
        group.add(_circle(dwg, at, 0.04 * R, class_="signpost", data_danger=danger,
                          data_step=str(road.step), fill=style.DANGER.get(danger, "#999999"),
                          stroke="#333333", stroke_width=fmt(0.006 * R)))
    # driving direction: a small chevron on the centreline near the entry
    t = 0.06
    p = line.at(t + 0.04, 0)
    a = line.at(t, 0.05 * R)
    b = line.at(t, -0.05 * R)
    group.add(_path(dwg, [a, p, b], closed=False, class_="direction", fill="none", stroke="#333333",
                    stroke_width=fmt(0.012 * R)))


def _checkered(dwg, group, line, t: float, half: float, R: float, cls: str, word: str) -> None:
    """A two-row chequered band across the road, centred on the line at ``t``."""
    g = _attrs(dwg.g(), class_=cls)
    cells = 8
    depth = 0.035 * R / max(line.length, 1e-6)
    for row in range(2):
        ta = t - depth + row * depth
        tb = ta + depth
        for i in range(cells):
            ua = half - 2 * half * i / cells
            ub = half - 2 * half * (i + 1) / cells
            fill = "#111111" if (i + row) % 2 == 0 else "#ffffff"
            g.add(_path(dwg, line.band(ta, tb, ua, ub), fill=fill, stroke="none"))
    at = line.at(t, half + 0.17 * R)
    g.add(_text(dwg, word, at, 0.06 * R, weight="bold"))
    group.add(g)


def _assistance(dwg, group, layout: HexLayout, road: RoadShape, R: float) -> None:
    end = road.centreline.point(1.0)
    box = [(end[0] - 0.45 * R, end[1] - 0.3 * R), (end[0] + 0.45 * R, end[1] - 0.3 * R),
           (end[0] + 0.45 * R, end[1] + 0.3 * R), (end[0] - 0.45 * R, end[1] + 0.3 * R)]
    g = _attrs(dwg.g(), class_="assistance")
    g.add(_path(dwg, box, fill=style.ROAD_FILL["none"], stroke="#333333", stroke_width=fmt(0.012 * R),
                stroke_dasharray=f"{fmt(0.03 * R)},{fmt(0.015 * R)}"))
    g.add(_text(dwg, "ASSISTANCE", end, 0.08 * R, weight="bold"))
    group.add(g)


def _jump(dwg, group, at: Point, gear: int, R: float, sid: str) -> None:
    x, y = at
    s = 0.04 * R
    g = _attrs(dwg.g(), class_="jump", data_space=sid)
    g.add(_path(dwg, [(x - 2.2 * s, y + 0.5 * s), (x - 1.5 * s, y - 0.5 * s), (x - 0.8 * s, y + 0.5 * s)],
                closed=False, fill="none", stroke=style.JUMP, stroke_width=fmt(0.01 * R)))
    g.add(_text(dwg, f"J{gear}", (x + 0.4 * s, y), 0.05 * R, weight="bold"))
    group.add(g)


def _water(dwg, group, at: Point, R: float, sid: str) -> None:
    x, y = at
    s = 0.03 * R
    pts = [(x - 2 * s + i * s * 0.5, y + (0.4 * s if i % 2 else -0.4 * s)) for i in range(9)]
    group.add(_path(dwg, pts, closed=False, class_="water", data_space=sid, fill="none", stroke=style.WATER,
                    stroke_width=fmt(0.012 * R)))


def _standees(dwg, top, standees: Sequence[tuple[str, str]], shapes: TrackShapes, R: float) -> None:
    """RX standees (finish line, Joker entry and exit) as arches across the road at the entry of a zone."""
    if not standees:
        return
    g = _attrs(dwg.g(), id="standees")
    colours = {"finish": "#111111", "joker-entry": "#7b3fc4", "joker-exit": "#7b3fc4"}
    words = {"finish": "FINISH LINE", "joker-entry": "JOKER IN", "joker-exit": "JOKER OUT"}
    for kind, ref in sorted(standees):
        step_s, _, zone_s = str(ref).partition(".")
        road = next((r for r in shapes.roads if str(r.step) == step_s), None)
        if road is None or not zone_s.isdigit():
            continue
        t = road.zone_span(int(zone_s))[0]
        half = road.width / 2
        colour = colours.get(kind, "#333333")
        a = road.centreline.at(t, half + 0.07 * R)
        b = road.centreline.at(t, -half - 0.07 * R)
        sg = _attrs(dwg.g(), class_="standee", data_kind=kind, data_at=str(ref))
        sg.add(_path(dwg, [a, b], closed=False, stroke=colour, stroke_width=fmt(0.025 * R), fill="none",
                     stroke_opacity="0.85"))
        for end in (a, b):
            sg.add(_circle(dwg, end, 0.03 * R, fill=colour))
        sg.add(_text(dwg, words.get(kind, kind.upper()), road.centreline.at(t, -half - 0.2 * R), 0.05 * R,
                     weight="bold", fill=colour))
        g.add(sg)
    top.add(g)


def _overlay(dwg, cars: Sequence[CarMark], shapes: TrackShapes, R: float, id_prefix: str) -> Group:
    g = _attrs(dwg.g(), id=f"{id_prefix}overlay")
    for n, car in enumerate(cars):
        colour = style.CAR_COLOURS.get(car.colour.lower(), car.colour if car.colour.startswith("#") else "#8a8a8a")
        pts = [shapes.spaces[s].label for s in car.path if s in shapes.spaces]
        if len(pts) >= 2:
            g.add(_path(dwg, pts, closed=False, class_="car-path", data_car=car.colour, fill="none",
                        stroke=colour, stroke_width=fmt(0.02 * R), stroke_opacity="0.8",
                        stroke_dasharray=f"{fmt(0.05 * R)},{fmt(0.02 * R)}"))
        if car.space not in shapes.spaces:
            continue
        x, y = shapes.spaces[car.space].label
        w, h = 0.16 * R, 0.1 * R
        cg = _attrs(dwg.g(), class_="car", data_car=car.colour, data_space=car.space)
        rect = dwg.rect()
        rect.attribs.update({"x": fmt(x - w / 2), "y": fmt(y - h / 2), "width": fmt(w), "height": fmt(h),
                             "rx": fmt(0.015 * R), "fill": colour, "stroke": "#000000",
                             "stroke-width": fmt(0.008 * R)})
        cg.add(rect)
        text_fill = "#000000" if car.colour.lower() in ("white", "yellow") else "#ffffff"
        if car.gear is not None:
            cg.add(_text(dwg, str(car.gear), (x, y), 0.08 * R, weight="bold", fill=text_fill))
        if car.name:
            cg.add(_text(dwg, car.name, (x, y - 0.1 * R), 0.055 * R, weight="bold", fill=style.TEXT,
                         class_="car-name"))
        if car.note:
            size = 0.045 * R
            nw, ny = 0.56 * size * len(car.note) + 0.02 * R, y + h / 2 + 0.045 * R  # width: a rough glyph average
            plate = dwg.rect()
            plate.attribs.update({"x": fmt(x - nw / 2), "y": fmt(ny - 0.6 * size), "width": fmt(nw),
                                  "height": fmt(1.2 * size), "rx": fmt(0.01 * R), "fill": "#ffffff",
                                  "fill-opacity": "0.85", "stroke": colour, "stroke-width": fmt(0.006 * R)})
            cg.add(plate)
            cg.add(_text(dwg, car.note, (x, ny), size, fill=style.TEXT, class_="car-note"))
        g.add(cg)
    return g
