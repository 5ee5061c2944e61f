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
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Sequence

import svgwrite
from svgwrite.container import Group
from svgwrite.path import Path
from svgwrite.shapes import Circle
from svgwrite.text import Text

from rallyc.compiler.track import Track
from rallyc.render import patterns, style
from rallyc.render.geometry import HexLayout, Point, fmt, path_d
from rallyc.render.labels import LabelIndex, Rect
from rallyc.render.limitlines import limit_lines
from rallyc.render.measure import PT_MM, text_width
from rallyc.render.patterns import pattern_cell, pattern_defs
from rallyc.render.shapes import RoadShape, TrackShapes, track_shapes
from rallyc.render.svgtext import _ESCAPE_CDATA, TextGroup, attr

__all__ = ["CarMark", "Scene", "build_scene", "Box", "Ink", "car_colour", "car_letter", "text_rect"]


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
    #: damage tokens taken so far
    damage: int = 0
    #: seconds of the Time cards played so far (None: not known)
    seconds: int | None = None


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

    group: TextGroup
    box: Box
    shapes: TrackShapes
    #: box of the tiles only (without title block and legend)
    tiles_box: Box = field(default_factory=lambda: Box(0, 0, 0, 0))
    #: boxes of what the page adds around the tiles (title block, legend)
    extra_boxes: list[Box] = field(default_factory=list)
    #: every road body as drawn (model mm)
    road_polygons: list[list[Point]] = field(default_factory=list)
    #: road bodies and labels filed by cell
    index: LabelIndex | None = None
    #: each road tile's label box by (q, r, tile, "#steps")
    tile_labels: dict[tuple[int, int, str, str], Rect] = field(default_factory=dict)


#: SVG attribute name of each keyword argument (``class_`` -> ``class``, ``stroke_width`` -> ``stroke-width``)
_ATTR_NAMES: dict[str, str] = {}


def _attrs(el, **values: str):
    attribs = el.attribs
    names = _ATTR_NAMES
    for k, v in values.items():
        name = names.get(k)
        if name is None:
            name = names[k] = k.rstrip("_").replace("_", "-")
        attribs[name] = v
    return el


def _element(cls, dwg: svgwrite.Drawing):
    """An empty ``cls`` element of ``dwg``, as ``dwg.<element>()`` makes it (same parameters, no attributes)
    without the factory's keyword handling: a long stage makes tens of thousands of elements."""
    el = cls.__new__(cls)
    el._parameter = dwg._parameter
    el.attribs = {}
    el.elements = []
    return el


def _d(points: Sequence[Point], closed: bool = True) -> str:
    """The `` d="..."`` of a path element written as text (nothing for no points, as an empty value is left out)."""
    d = path_d(points, closed)
    return f' d="{d}"' if d else ""


def _path(dwg: svgwrite.Drawing, points: Sequence[Point], closed: bool = True, **attrs: str):
    el = _element(Path, dwg)
    el.commands = [path_d(points, closed)]
    return _attrs(el, **attrs) if attrs else el


def _text(dwg: svgwrite.Drawing, text: str, at: Point, size: float, *, anchor: str = "middle",
          weight: str | None = None, fill: str = style.TEXT, **attrs: str):
    el = _element(Text, dwg)
    el.text = text
    el.attribs.update({"x": fmt(at[0]), "y": fmt(at[1] + size * 0.35), "font-size": fmt(size),
                       "text-anchor": anchor, "fill": fill})
    if weight:
        el.attribs["font-weight"] = weight
    return _attrs(el, **attrs)


def _text_raw(text: str, at: Point, size: float, *, anchor: str = "middle", weight: str | None = None,
              fill: str = style.TEXT, lead: str = "") -> str:
    """``_text(dwg, text, at, size, anchor=..., weight=..., fill=..., **attrs)`` as it is written; ``lead`` is the
    text of the attributes that sort before ``fill`` (``class``, ``data-*``), e.g. ``'class="x" '``."""
    weight_attr = f' font-weight="{attr(weight)}"' if weight else ""
    head = (f'<text {lead}fill="{attr(fill)}" font-size="{fmt(size)}"{weight_attr} text-anchor="{attr(anchor)}" '
            f'x="{fmt(at[0])}" y="{fmt(at[1] + size * 0.35)}"')
    return f"{head}>{_ESCAPE_CDATA(text)}</text>" if text else f"{head} />"


def _circle(dwg: svgwrite.Drawing, at: Point, radius: float, **attrs: str):
    el = _element(Circle, dwg)
    el.attribs.update({"cx": fmt(at[0]), "cy": fmt(at[1]), "r": fmt(radius)})
    return _attrs(el, **attrs)


def tile_label_text(tile_id: str) -> str:
    """The printed number and side, e.g. ``210b``."""
    return tile_id


@dataclass(frozen=True)
class Ink:
    """Text sizes for a print scale: nothing a player reads prints under its minimum in points."""

    #: printed millimetres per model millimetre (1.0 at real scale)
    scale: float = 1.0

    def size(self, nominal: float, pt: float) -> float:
        """A font size (model mm): ``nominal``, or larger so that it prints at ``pt`` points at least.

        Never more than three times ``nominal``: a map too large for its page (hundreds of tiles on
        A4) cannot be read at any text size, and larger text would no longer fit its tile."""
        return min(max(nominal, pt * PT_MM / self.scale), 3 * nominal)


#: minimum printed sizes (points) of what a player reads on the map
TILE_PT, STEP_PT, MARK_PT, LIMIT_PT, JUMP_PT, WORD_PT, CAR_PT = 8.0, 6.5, 7.0, 6.5, 6.5, 6.5, 7.0


def text_rect(text: str, at: Point, size: float, *, bold: bool = False, anchor: str = "middle") -> Rect:
    """The box ``measure`` gives a text drawn by ``_text`` at ``at`` (same estimate of the width)."""
    w = text_width(text, size, bold)
    x0 = at[0] - w / 2 if anchor == "middle" else at[0] - w if anchor == "end" else at[0]
    base = at[1] + size * 0.35
    return Rect(x0, base - 0.78 * size, x0 + w, base + 0.22 * size)


_RING_UNITS: dict[int, list[Point]] = {}


def _ring(centre: Point, R: float, radii: Sequence[float], count: int = 12) -> list[Point]:
    units = _RING_UNITS.get(count)
    if units is None:
        units = []
        for k in range(count):
            a = math.radians(15 + 360 * k / count)
            units.append((math.cos(a), math.sin(a)))
        _RING_UNITS[count] = units
    cx, cy = centre
    out: list[Point] = []
    for rho in radii:
        if rho == 0:
            out.append(centre)
            continue
        out += [(cx + rho * R * c, cy + rho * R * s) for c, s in units]
    return out


def _tile_role(surface: str) -> str:
    """The fill role (``patterns.FILLS``) of a tile of ``surface`` (an unknown surface is drawn as gravel)."""
    return f"tile-{surface}" if f"tile-{surface}" in patterns.FILLS else "tile-gravel"


def _road_role(surface: str) -> str:
    """The fill role of a road of ``surface``."""
    return f"road-{surface}" if f"road-{surface}" in patterns.FILLS else "road-gravel"


def _file_samples(samples: dict[tuple[int, int], list[Point]], layout: HexLayout, line, cell: tuple[int, int] | None,
                  inner2: float) -> None:
    """File 17 points of a road's centreline under the cell that holds each (``samples``, for ``LabelIndex.place_by_clearance``).

    A point well inside the road's own hexagon (nearer its centre than the inscribed circle, less a
    margin far above rounding) is in that cell; the others (the ends, on the edges) are looked up."""
    cx, cy = layout.centre(*cell) if cell is not None else (0.0, 0.0)
    for pt in line.points(16):
        dx, dy = pt[0] - cx, pt[1] - cy
        where = cell if cell is not None and dx * dx + dy * dy < inner2 else layout.cell_at(pt)
        samples.setdefault(where, []).append(pt)


@dataclass
class _Draw:
    """What the sections of one drawing share: the drawing, the grid, the print scale, the shapes and the
    label index (roads and labels placed so far), and the road centreline samples of each cell."""

    dwg: svgwrite.Drawing
    track: Track
    layout: HexLayout
    ink: Ink
    shapes: TrackShapes
    index: LabelIndex
    id_prefix: str
    samples: dict[tuple[int, int], list[Point]] = field(default_factory=dict)
    road_polygons: list[list[Point]] = field(default_factory=list)
    #: space ids printed short (``2.l`` on the tile of step #3 for ``3.2.l``): a full id would print under 6 pt
    short_ids: bool = False

    @property
    def R(self) -> float:
        return self.layout.size


def build_scene(track: Track, catalogue, *, tile_mm: float = 200.0, flat: bool = True,
                show_ids: bool = False, cars: Sequence[CarMark] = (), dwg: svgwrite.Drawing | None = None,
                id_prefix: str = "", print_scale: float = 1.0, scenery: bool = True) -> Scene:
    """Draw ``track`` at real size (a tile is ``tile_mm`` edge to edge) into one SVG group.

    ``print_scale`` (printed mm per model mm) sets the text sizes so that every text a player
    reads prints at 6 pt or more. ``scenery=False`` leaves the scenery fillers out.
    A circuit's RX standees come from ``track.standees`` (each on the line at the entry of its zone).
    """
    dwg = dwg or svgwrite.Drawing(profile="full", debug=False)
    layout = HexLayout(tile_mm / math.sqrt(3), flat)
    ink = Ink(print_scale)
    d = _Draw(dwg, track, layout, ink, track_shapes(track, layout, catalogue), LabelIndex(layout), id_prefix,
              short_ids=show_ids and ID_NOMINAL * layout.size * ink.scale < ID_PT * PT_MM)
    top = TextGroup(id=f"{id_prefix}map")
    top.raw(pattern_defs(id_prefix, pattern_cell(d.R, ink.scale)))
    placed = [p for p in track.placed if scenery or not p.scenery]
    g_tiles, tiles_box = _tiles(d, placed, catalogue)
    top.add(g_tiles)
    d.index.bounds = Rect(tiles_box.x0, tiles_box.y0, tiles_box.x1, tiles_box.y1)
    g_roads, g_assist = _roads(d)
    top.add(g_roads)
    top.add(_spaces(d))
    top.add(_marks(d))
    g_feat, g_limits = _features(d, show_ids)
    top.add(g_feat)
    top.add(g_limits)
    # RX standees (their words are labels: placed before the tile labels)
    g_standees = _standees(dwg, [(st.kind, st.at) for st in getattr(track, "standees", ())], d.shapes, d.R, ink,
                           d.index)
    g_labels, tile_labels = _labels(d, placed, g_assist, show_ids)
    top.add(g_labels)
    if g_standees is not None:
        top.add(g_standees)
    if cars:
        top.add(_overlay(dwg, cars, d.shapes, d.R, id_prefix, ink))
    return Scene(top, tiles_box, d.shapes, tiles_box, road_polygons=d.road_polygons, index=d.index,
                 tile_labels=tile_labels)


def _tiles(d: _Draw, placed: Sequence, catalogue) -> tuple[TextGroup, Box]:
    """The tile hexagons (each piece of cardboard once) and the box they cover."""
    layout, R, id_prefix = d.layout, d.R, d.id_prefix
    g_tiles = TextGroup(id=f"{id_prefix}tiles")
    xs: list[float] = []
    ys: list[float] = []
    drawn: set[tuple[int, int, str]] = set()
    hex_width = fmt(0.012 * R)
    for n, p in enumerate(sorted(placed, key=lambda p: (p.scenery, p.step, p.q, p.r))):
        if (p.q, p.r, p.tile) in drawn:
            continue  # a tile driven twice (two roads, e.g. 414b) is one piece of cardboard
        drawn.add((p.q, p.r, p.tile))
        corners = layout.corners(p.q, p.r)
        xs += [c[0] for c in corners]
        ys += [c[1] for c in corners]
        info = catalogue.get(p.tile) if catalogue is not None else None
        surface = info.surface if info is not None else "gravel"
        fill = patterns.fill("scenery" if p.scenery else _tile_role(surface), id_prefix)
        tid = f"{id_prefix}tile-{p.step}" if not p.scenery else f"{id_prefix}scenery-{n}"
        # as _path(dwg, corners, class_="hex", id=tid, data_tile=..., data_step=..., data_q=..., data_r=...,
        # data_rot=..., fill=fill, stroke=HEX_STROKE, stroke_width=hex_width) is written (attributes sorted)
        g_tiles.raw(f'<path class="hex"{_d(corners)} data-q="{p.q}" data-r="{p.r}" data-rot="{p.rot}" '
                    f'data-step="{p.step}" data-tile="{attr(p.tile)}" fill="{fill}" id="{attr(tid)}" '
                    f'stroke="{style.HEX_STROKE}" stroke-width="{hex_width}" />')
    return g_tiles, Box(min(xs), min(ys), max(xs), max(ys)) if xs else Box(0, 0, R, R)


def _roads(d: _Draw) -> tuple[TextGroup, list]:
    """The road bodies (each filed in the label index: no label may cover one; a fork's arms one surface),
    and the label groups of the Assistance areas (drawn with the labels)."""
    dwg, layout, R, index, id_prefix = d.dwg, d.layout, d.R, d.index, d.id_prefix
    g_roads = TextGroup(id=f"{id_prefix}roads")
    g_assist = []
    forks: dict[tuple[int, int], list[tuple[RoadShape, list[Point]]]] = {}
    inner = layout.apothem * (1 - 1e-6)
    inner2 = inner * inner
    fork_at: dict[tuple[int, int], int] = {}
    road_width = fmt(0.018 * R)
    for road in d.shapes.roads:
        line = road.centreline
        half = road.width / 2
        body = line.band(0.0, 1.0, half, -half)
        index.add_polygon(body)
        d.road_polygons.append(body)
        _file_samples(d.samples, layout, line, road.cell, inner2)
        if road.fork and road.cell is not None:
            if road.cell not in forks:
                forks[road.cell] = []
                fork_at[road.cell] = g_roads.placeholder()  # the fork's group, written once all its arms are in
            forks[road.cell].append((road, body))
            continue
        # as _path(dwg, body, class_="road", fill=..., stroke=..., stroke_width=...) is written
        g_roads.raw(f'<path class="road"{_d(body)} '
                    f'fill="{patterns.fill(_road_role(road.surface), id_prefix)}" '
                    f'stroke="{style.ROAD_EDGE.get(road.surface, "#444444")}" stroke-width="{road_width}" />')
        if road.dead_end:
            g_assist.append(_assistance(dwg, g_roads, layout, road, R, index, id_prefix))
    for cell, slot in fork_at.items():
        g = _attrs(dwg.g(), class_="fork", data_q=str(cell[0]), data_r=str(cell[1]))
        _fork_surface(dwg, g, forks[cell], R, id_prefix)
        g_roads.fill(slot, g)
    return g_roads, g_assist


def _space_paint(sh, sp, id_prefix: str, space_width: str, cut_width: str) -> tuple[str, str, str]:
    """(fill or "", stroke, stroke width) of a space's outline."""
    if sh.kind == "shortcut":
        return patterns.fill("shortcut", id_prefix), style.SHORTCUT_STROKE, cut_width
    if sh.dashed:
        # a slide half is a space of its own but not drawn as a box: the zone shows one dashed line
        return "", "none", space_width
    if sp.joker:
        return patterns.fill("joker", id_prefix), style.SPACE_STROKE, space_width
    if sp.pregrid:
        return patterns.fill("pregrid", id_prefix), style.SPACE_STROKE, space_width
    return "", style.SPACE_STROKE, space_width


def _spaces(d: _Draw) -> TextGroup:
    """Every space's outline (one element each), the shortcuts over the lanes and the slide halves last."""
    id_prefix = d.id_prefix
    g_spaces = TextGroup(id=f"{id_prefix}spaces", fill="none")
    all_shapes = d.shapes.spaces.values()
    solid = [s for s in all_shapes if not s.dashed and s.kind != "shortcut"]
    cuts = [s for s in all_shapes if s.kind == "shortcut"]
    dashed = [s for s in all_shapes if s.dashed]
    space_width, cut_width = fmt(0.008 * d.R), fmt(0.012 * d.R)
    for sh in solid + cuts + dashed:
        fill, stroke, stroke_width = _space_paint(sh, d.track.spaces[sh.id], id_prefix, space_width, cut_width)
        sid = attr(sh.id)
        # as _path(dwg, sh.outline, class_=..., id=..., data_space=..., stroke=..., stroke_width=...[, fill=...])
        # is written (attributes sorted)
        filled = f' fill="{fill}"' if fill else ""
        g_spaces.raw(f'<path class="space {attr(sh.kind)}"{_d(sh.outline)} data-space="{sid}"{filled} '
                     f'id="{attr(id_prefix)}space-{sid}" stroke="{stroke}" stroke-width="{stroke_width}" />')
    return g_spaces


def _marks(d: _Draw) -> TextGroup:
    """Lines across the road (start, finish, the tiles' printed lines), signposts, direction chevrons."""
    dwg, R, shapes = d.dwg, d.R, d.shapes
    g_marks = TextGroup(id=f"{d.id_prefix}marks")
    for road in shapes.roads:
        _road_marks(g_marks, road, R, d.ink)
    words = {"start": "START", "finish": "FINISH", "start-finish": "START / FINISH"}
    lines = _lines(shapes, R)
    for road in shapes.roads:
        _printed_marks(dwg, g_marks, road, R, lines)
    for road, t, kind in lines:
        printed = any(abs(c - t) < 1e-6 for c in road.checkered)
        _line_mark(dwg, g_marks, road.centreline, t, road.width / 2, R, kind, words[kind], d.ink, d.index,
                   printed=printed)
    return g_marks


def _features(d: _Draw, show_ids: bool) -> tuple[TextGroup, TextGroup]:
    """Features on spaces (jumps, water, tokens, space ids) and the speed limits (rings, chicanes, the RX
    fork tiles' limit lines)."""
    dwg, R, ink, id_prefix = d.dwg, d.R, d.ink, d.id_prefix
    g_feat = TextGroup(id=f"{id_prefix}features")
    g_limits = TextGroup(id=f"{id_prefix}limits")
    limit_ring = f'fill="#ffffff" r="{fmt(max(0.055 * R, 0.62 * ink.size(0.07 * R, LIMIT_PT)))}" ' \
                 f'stroke="{style.LIMIT_RING}" stroke-width="{fmt(0.014 * R)}" />'
    limit_size = ink.size(0.07 * R, LIMIT_PT)
    jump_size = ink.size(0.05 * R, JUMP_PT)
    fork_lines = limit_lines(d.track, d.shapes)
    on_a_line = {sid for ll in fork_lines for sid in ll.spaces}  # their number is the line's, printed once on it
    per_tile = Counter((p.q, p.r, p.tile) for p in d.track.placed if not p.scenery)
    alone = {p.step for p in d.track.placed if per_tile[(p.q, p.r, p.tile)] == 1}  # steps of a tile driven once
    id_boxes: list[Rect] = []  # the space ids written so far (two roads of a fork share some spaces)
    for sid, sh in d.shapes.spaces.items():
        sp = d.track.spaces[sid]
        x, y = sh.label
        if sp.jump is not None:
            _jump(dwg, g_feat, (x, y + max(0.075 * R, 0.8 * limit_size)), sp.jump, R, sid, jump_size)
        if sp.water:
            _water(dwg, g_feat, (x, y - 0.075 * R), R, sid)
        extra = [t for t in sp.tokens if not t.startswith(("water", "jump", "chicane"))]
        if extra:
            g_feat.add(_text(dwg, " ".join(sorted(extra)), (x, y + 0.09 * R), ink.size(0.045 * R, 6.0),
                             class_="token", data_space=sid, fill=style.MUTED))
        if sp.limit is not None and sid not in on_a_line:
            # a group of class "limit": the ring (_circle) and the digit (_text), as they are written
            g_limits.raw(f'<g class="limit" data-space="{attr(sid)}"><circle cx="{fmt(x)}" cy="{fmt(y)}" {limit_ring}'
                         f'{_text_raw(str(sp.limit), (x, y), limit_size, weight="bold")}</g>')
        if sp.chicane is not None or any(t.startswith("chicane") for t in sp.tokens):
            g_limits.add(_chicane(dwg, sp, sid, (x, y), R, limit_size))
        if show_ids:
            g_feat.add(_space_id(d, sid, (x, y + (0.1 if sp.limit is not None else 0.0) * R), alone, id_boxes))
    # the speed-limit lines of the RX fork tiles: a line on the main road's kerb with its number on it
    for ll in fork_lines:
        g = _attrs(dwg.g(), class_="limit limit-line", data_step=str(ll.step), data_limit=str(ll.value),
                   **({"data_spaces": " ".join(ll.spaces)} if ll.spaces else {}))
        g.add(_path(dwg, list(ll.points), closed=False, fill="none", stroke=style.LIMIT_RING,
                    stroke_width=fmt(0.03 * R)))
        g.add(_circle(dwg, ll.at, max(0.055 * R, 0.62 * limit_size), fill="#ffffff", stroke=style.LIMIT_RING,
                      stroke_width=fmt(0.014 * R)))
        g.add(_text(dwg, str(ll.value), ll.at, limit_size, weight="bold"))
        g_limits.add(g)
    return g_feat, g_limits


#: the ink of the space ids: dark enough on every road (4.7:1 on asphalt #808080)
_ID_INK = "#1a1a1a"
#: a space id's size on the map (in R) and the least it prints at
ID_NOMINAL, ID_PT = 0.035, 6.2


def _space_id(d: _Draw, sid: str, at: Point, alone: set[int], written: list[Rect]):
    """A space's id on its space: in full, or (``d.short_ids``, a small print) without its step where its tile
    is driven once (the tile's label gives the step: ``2.l`` on the tile of #3 is ``3.2.l``), at 6 pt.

    A full id moves off the ids ``written`` before it (one line up or down, then more): two roads of a fork
    share spaces, and their ids would print over each other."""
    sp = d.track.spaces[sid]
    if not d.short_ids:
        size = ID_NOMINAL * d.R
        at = _clear_spot(sid, at, size, written)
        return _text(d.dwg, sid, at, size, class_="space-id", fill=_ID_INK)
    text = sid.partition(".")[2] if sp.step in alone and "." in sid else sid
    size = max(ID_NOMINAL * d.R, ID_PT * PT_MM / d.ink.scale)
    return _text(d.dwg, text, at, size, class_="space-id", fill=_ID_INK, data_space=sid)


def _clear_spot(text: str, at: Point, size: float, written: list[Rect]) -> Point:
    """``at``, or the nearest of a few spots above and below it where ``text`` clears every box of ``written``;
    the spot's box is added to ``written``."""
    def box(p: Point) -> Rect:
        return text_rect(text, p, size)

    candidates = [at] + [(at[0], at[1] + k * 1.1 * size) for n in (1, 2, 3) for k in (-n, n)]
    spot = next((c for c in candidates if not any(box(c).hits(b) for b in written)), at)
    written.append(box(spot))
    return spot


def _chicane(dwg, sp, sid: str, at: Point, R: float, limit_size: float):
    """A chicane: a dashed ring with its number (or ``C``), beside the speed limit where the space has one."""
    x, y = at
    at = (x + 0.06 * R, y - 0.06 * R) if sp.limit is not None else (x, y)
    g = _attrs(dwg.g(), class_="chicane", data_space=sid)
    g.add(_circle(dwg, at, max(0.05 * R, 0.6 * limit_size), fill="#ffffff", stroke=style.CHICANE_RING,
                  stroke_width=fmt(0.014 * R), stroke_dasharray=f"{fmt(0.02 * R)},{fmt(0.01 * R)}"))
    g.add(_text(dwg, str(sp.chicane) if sp.chicane is not None else "C", at, limit_size, weight="bold"))
    return g


def _labels(d: _Draw, placed: Sequence, g_assist: list, show_ids: bool
            ) -> tuple[TextGroup, dict[tuple[int, int, str, str], Rect]]:
    """The labels, above the road: the Assistance words, each tile's edge A mark, then its number and steps."""
    dwg, layout, R, ink, index = d.dwg, d.layout, d.R, d.ink, d.index
    g_labels = TextGroup(id=f"{d.id_prefix}labels")
    word_size = ink.size(0.08 * R, WORD_PT)
    for g, end in g_assist:
        w = text_width("ASSISTANCE", word_size, True)
        cell = layout.cell_at(end)
        spot, ok = index.place_by_clearance(_ring(end, R, (0.4, 0.55, 0.7), 12), d.samples.get(cell, []), w,
                                            word_size, inside=layout.corners(*cell))
        if not ok:
            spot, _ = index.place(_ring(end, R, (0.8, 1.0, 1.2), 18), w, word_size)
        g.add(_text(dwg, "ASSISTANCE", (spot[0], spot[1] - 0.07 * word_size), word_size, weight="bold"))
        g_labels.add(g)
    cells: dict[tuple[int, int, str], list] = {}
    for p in sorted(placed, key=lambda p: (p.scenery, p.step, p.q, p.r)):
        cells.setdefault((p.q, p.r, p.tile), []).append(p)
    mark_size = ink.size(0.07 * R, MARK_PT)
    no_letter: set[tuple[int, int, str]] = set()
    for (q, r, tile), ps in cells.items():
        if not ps[0].scenery and not _edge_a(g_labels, layout, q, r, ps[0].rot, mark_size, index):
            no_letter.add((q, r, tile))
    tile_labels: dict[tuple[int, int, str, str], Rect] = {}
    for (q, r, tile), ps in cells.items():
        if ps[0].scenery:
            _scenery_label(d, g_labels, (q, r), tile)
            continue
        steps = " ".join(f"#{p.step}" for p in ps)
        if (q, r, tile) in no_letter:
            # no room for the letter beside edge A: the label says where edge A is
            steps += f" A{_ARROWS[ps[0].rot % 6]}"
        # with short space ids the steps stay (they complete the ids)
        tile_labels[(q, r, tile, steps)] = _tile_label(d, g_labels, (q, r), tile, steps, ps,
                                                       show_ids and not d.short_ids)
    return g_labels, tile_labels


def _scenery_label(d: _Draw, g_labels: TextGroup, cell: tuple[int, int], tile: str) -> None:
    """``904b scenery`` in a scenery tile."""
    R = d.R
    centre = d.layout.centre(*cell)
    near = d.samples.get(cell, [])
    text = f"{tile} scenery"
    size = d.ink.size(0.09 * R, STEP_PT)
    w = text_width(text, size)
    spot, ok = d.index.place_by_clearance(_ring(centre, R, (0.0, 0.3, 0.45, 0.58)), near, w, size,
                                          inside=d.layout.corners(*cell))
    if not ok:
        spot, _ = d.index.place_by_clearance(_ring(centre, R, (0.75, 0.95), 18), near, w, size)
    g_labels.add(_text(d.dwg, text, (spot[0], spot[1] - 0.07 * size), size, fill=style.MUTED,
                       class_="tile-label scenery-label"))


def _tile_label(d: _Draw, g_labels: TextGroup, cell: tuple[int, int], tile: str, steps: str, ps: list,
                show_ids: bool) -> Rect:
    """A road tile's number over its steps (the number alone with ``show_ids``); returns its box."""
    R, ink = d.R, d.ink
    tile_size = ink.size(0.12 * R, TILE_PT)
    step_size = ink.size(0.07 * R, STEP_PT)
    sizes = [(tile_size, step_size), (min(tile_size, TILE_PT * PT_MM / ink.scale),
                                      min(step_size, STEP_PT * PT_MM / ink.scale))]
    spot, (ts, ss), box = _tile_label_spot(d.index, d.layout, cell, d.samples.get(cell, []), tile_label_text(tile),
                                           steps, sizes, show_ids, d.road_polygons)
    top_y = box.y0
    lead = f'class="tile-label" data-step="{attr(" ".join(str(p.step) for p in ps))}" '
    g_labels.raw(_text_raw(tile_label_text(tile), (spot[0], top_y + 0.43 * ts), ts, weight="bold", lead=lead))
    if not show_ids:
        g_labels.raw(_text_raw(steps, (spot[0], top_y + ts + 0.05 * ss + 0.43 * ss), ss, fill=style.MUTED,
                               lead='class="step-label" '))
    return box


def _tile_label_spot(index: LabelIndex, layout: HexLayout, cell: tuple[int, int], near: Sequence[Point], label: str,
                     steps: str, sizes: Sequence[tuple[float, float]], show_ids: bool,
                     roads: Sequence[Sequence[Point]]) -> tuple[Point, tuple[float, float], Rect]:
    """Where a road tile's number (and its steps, unless ``show_ids``) goes: (centre, (tile size, step size), box).

    Inside the tile (a label outside its tile reads as the neighbour's), off the road and every mark: the
    usual spots, then a grid over the tile, each at the sizes of ``sizes`` in turn (the last the smallest
    that prints at the minimum). A tile with no such room (a dead end's Assistance area and its word
    fill 201a on a small map) takes a spot clear of the road and the labels only; a tile with no room
    even so keeps the first spot beyond its hexagon."""
    R = layout.size
    centre = layout.centre(*cell)
    hexagon = layout.corners(*cell)
    grid = [(centre[0] + i * 0.05 * R, centre[1] + j * 0.05 * R) for j in range(-18, 19) for i in range(-20, 21)]
    boxes = [_text_box(label, steps, ts, ss, show_ids) for ts, ss in sizes]
    for w, h in boxes:
        for candidates in (_ring(centre, R, (0.0, 0.3, 0.45, 0.58)), grid):
            spot, ok = index.place_by_clearance(candidates, near, w, h, inside=hexagon, file_failed=False)
            if ok:
                return spot, sizes[boxes.index((w, h))], Rect.around(spot, w, h)
    w, h = boxes[-1]
    spot, ok = _roads_only(index, roads).place_by_clearance(grid, near, w, h, inside=hexagon, file_failed=False)
    if ok:
        index.add_box(Rect.around(spot, w, h))
        return spot, sizes[-1], Rect.around(spot, w, h)
    w, h = boxes[0]
    spot, _ = index.place_by_clearance(_ring(centre, R, (0.75, 0.95), 18), near, w, h)
    return spot, sizes[0], Rect.around(spot, w, h)


def _text_box(label: str, steps: str, tile_size: float, step_size: float, show_ids: bool) -> tuple[float, float]:
    """(width, height) of a tile label: its number over its steps (the number alone with ``show_ids``)."""
    w = max(text_width(label, tile_size, True), 0.0 if show_ids else text_width(steps, step_size))
    return w, tile_size + (0 if show_ids else 1.05 * step_size)


def _roads_only(index: LabelIndex, roads: Sequence[Sequence[Point]]) -> LabelIndex:
    """A label index of the road bodies and the labels of ``index`` only (not its marks and areas)."""
    out = LabelIndex(index.layout, bounds=index.bounds)
    for poly in roads:
        out.add_polygon(poly)
    seen: set[int] = set()
    for filed in index.boxes.values():
        for box in filed:
            if id(box) not in seen:
                seen.add(id(box))
                out.add_box(box)
    return out


#: the direction of edge A from the tile centre, by rotation (flat-topped hexes)
_ARROWS = ("\u2191", "\u2197", "\u2198", "\u2193", "\u2199", "\u2196")


def _edge_a(group: TextGroup, layout: HexLayout, q: int, r: int, rot: int, size: float, index: LabelIndex) -> bool:
    """The tile's printed edge A: a bar on the edge (drawn over the road) and an ``A`` beside it, off the road.

    False when there is no room for the letter off the road (the bar alone is drawn)."""
    R = layout.size
    a = layout.corner(q, r, (rot - 1) % 6)
    b = layout.corner(q, r, rot)
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    along = ((b[0] - a[0]) / R, (b[1] - a[1]) / R)
    c = layout.centre(q, r)
    inward = ((c[0] - mid[0]) / layout.apothem, (c[1] - mid[1]) / layout.apothem)
    bar = [(mid[0] - along[0] * 0.12 * R, mid[1] - along[1] * 0.12 * R),
           (mid[0] + along[0] * 0.12 * R, mid[1] + along[1] * 0.12 * R)]
    group.raw(f'<path class="edge-a-bar"{_d(bar, False)} fill="none" stroke="{style.TEXT}" '
              f'stroke-width="{fmt(max(0.03 * R, 0.25 * size))}" />')
    w = text_width("A", size, True)
    hexagon = layout.corners(q, r)
    # the first free spot nearest the edge: the candidates one depth at a time (``place`` of them all, in the
    # same order, without making those after the first free one)
    for depth in (0.75 * size, 1.1 * size, 1.6 * size, 2.2 * size):
        candidates = [(mid[0] + inward[0] * depth + along[0] * offset * R,
                       mid[1] + inward[1] * depth + along[1] * offset * R)
                      for offset in (0.0, 0.3, -0.3, 0.38, -0.38, 0.22, -0.22, 0.44, -0.44)]
        spot, ok = index.place(candidates, w, size, inside=hexagon, file_failed=False)
        if ok:
            break
    else:
        return False
    group.raw(_text_raw("A", (spot[0], spot[1] - 0.07 * size), size, weight="bold", lead='class="edge-a" '))
    return True


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


def _signpost(dwg, at: Point, danger: str, r: float, **attrs: str):
    """A signpost in its danger colour and shape (read in black and white too): low a circle,
    medium a square, high a triangle."""
    fill = style.DANGER.get(danger, "#999999")
    common: dict[str, Any] = dict(fill=fill, stroke="#333333", **attrs)
    if danger == "medium":
        return _path(dwg, [(at[0] - r, at[1] - r), (at[0] + r, at[1] - r), (at[0] + r, at[1] + r),
                           (at[0] - r, at[1] + r)], **common)
    if danger == "high":
        k = 1.25 * r
        return _path(dwg, [(at[0], at[1] - k), (at[0] + k, at[1] + 0.8 * k), (at[0] - k, at[1] + 0.8 * k)], **common)
    return _circle(dwg, at, r, **common)


def _road_marks(group: TextGroup, road: RoadShape, R: float, ink: Ink) -> None:
    """A road's signposts (as ``_signpost`` draws them), the dashed line of each slide zone and the direction
    chevron, written as text."""
    line = road.centreline
    half = road.width / 2
    r = max(0.04 * R, 0.8 * PT_MM / ink.scale)
    # signposts: a post on the driver's right at each end of the road
    for end, t in (("entry", 0.03), ("exit", 0.97)):
        if road.dead_end and end == "exit":
            continue
        danger = road.danger[0 if end == "entry" else 1]
        if danger == "none":
            continue
        at = line.at(t, -half - 0.02 * R - r)
        group.raw(_signpost_text(at, danger, r, road.step, fmt(0.006 * R)))
    # a slide zone: one dashed line across the road between its two halves
    for t in road.slide_lines:
        group.raw(f'<path class="slide-line"{_d(line.cross(t, half, -half), False)} fill="none" '
                  f'stroke="{style.SLIDE_STROKE}" stroke-dasharray="{fmt(0.04 * R)},{fmt(0.025 * R)}" '
                  f'stroke-width="{fmt(0.016 * R)}" />')
    # driving direction: a small chevron on the centreline near the entry (pointing back along it for a road
    # driven against its centreline)
    t, tip = (0.06, 0.1) if not road.against else (0.1, 0.06)
    p = line.at(tip, 0)
    a = line.at(t, 0.05 * R)
    b = line.at(t, -0.05 * R)
    group.raw(f'<path class="direction"{_d([a, p, b], False)} fill="none" stroke="#333333" '
              f'stroke-width="{fmt(0.012 * R)}" />')


def _signpost_text(at: Point, danger: str, r: float, step: int, stroke_width: str) -> str:
    """``_signpost(dwg, at, danger, r, class_="signpost", data_danger=danger, data_step=str(step),
    stroke_width=stroke_width)`` as it is written."""
    fill = style.DANGER.get(danger, "#999999")
    common = f'data-danger="{attr(danger)}" data-step="{attr(str(step))}" fill="{fill}"'
    if danger == "medium":
        pts = [(at[0] - r, at[1] - r), (at[0] + r, at[1] - r), (at[0] + r, at[1] + r), (at[0] - r, at[1] + r)]
    elif danger == "high":
        k = 1.25 * r
        pts = [(at[0], at[1] - k), (at[0] + k, at[1] + 0.8 * k), (at[0] - k, at[1] + 0.8 * k)]
    else:
        return (f'<circle class="signpost" cx="{fmt(at[0])}" cy="{fmt(at[1])}" {common} r="{fmt(r)}" '
                f'stroke="#333333" stroke-width="{stroke_width}" />')
    return f'<path class="signpost"{_d(pts)} {common} stroke="#333333" stroke-width="{stroke_width}" />'



def _fork_surface(dwg, group, arms: list[tuple[RoadShape, list[Point]]], R: float, id_prefix: str) -> None:
    """The arms of a fork or Y tile as one road surface: one filled path of every arm's body (all wound
    the same way, so they join), then the kerbs only where they bound the surface (no kerb of one arm
    is drawn across another arm's road)."""
    road = arms[0][0]
    d = "".join(path_d(body if _signed_area(body) >= 0 else list(reversed(body))) for _, body in arms)
    group.add(_attrs(dwg.path(d=d), class_="road fork-surface", data_arms=str(len(arms)),
                     fill=patterns.fill(_road_role(road.surface), id_prefix), stroke="none"))
    runs: list[list[Point]] = []
    for k, (arm, _) in enumerate(arms):
        others = [a for j, (a, _) in enumerate(arms) if j != k]
        half = arm.width / 2
        for u in (half, -half):
            run: list[Point] = []
            for p in arm.centreline.kerb(0.0, 1.0, u):
                if any(_covers(o, p, 0.01 * R) for o in others):
                    if len(run) > 1:
                        runs.append(run)
                    run = []
                else:
                    run.append(p)
            if len(run) > 1:
                runs.append(run)
    group.add(_attrs(dwg.path(d="".join(path_d(r, closed=False) for r in runs)), class_="road-edge",
                     fill="none", stroke=style.ROAD_EDGE.get(road.surface, "#444444"), stroke_width=fmt(0.018 * R)))


def _signed_area(points: Sequence[Point]) -> float:
    n = len(points)
    return sum(points[i][0] * points[(i + 1) % n][1] - points[(i + 1) % n][0] * points[i][1] for i in range(n)) / 2


def _covers(road: RoadShape, p: Point, margin: float) -> bool:
    """True when ``p`` lies on ``road``'s body, more than ``margin`` inside its kerbs and ends."""
    line = road.centreline
    pts = line._pts
    best = math.inf
    best_i = 0
    for i in range(len(pts) - 1):
        (ax, ay), (bx, by) = pts[i], pts[i + 1]
        dx, dy = bx - ax, by - ay
        L2 = dx * dx + dy * dy or 1.0
        f = min(1.0, max(0.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / L2))
        dist = math.hypot(ax + f * dx - p[0], ay + f * dy - p[1])
        if dist < best:
            best, best_i = dist, i
    if best >= road.width / 2 - margin:
        return False
    # beyond an end of the road (the projection falls off the centreline) is not on it
    (ax, ay), (bx, by) = pts[0], pts[1]
    if best_i == 0 and (p[0] - ax) * (bx - ax) + (p[1] - ay) * (by - ay) <= margin * math.dist(pts[0], pts[1]):
        return False
    (ax, ay), (bx, by) = pts[-1], pts[-2]
    if best_i == len(pts) - 2 and (p[0] - ax) * (bx - ax) + (p[1] - ay) * (by - ay) <= margin * math.dist(pts[-1], pts[-2]):
        return False
    return True


def _printed_marks(dwg, group, road: RoadShape, R: float, lines: list[tuple[RoadShape, float, str]]) -> None:
    """What the tile prints on its road beyond the spaces: a checkered line (401a/b; where the track's own
    start or finish line stands on it, that line draws it) and the grid-slot bars behind it."""
    line = road.centreline
    half = road.width / 2
    depth = 0.035 * R / max(line.length, 1e-6)
    for t in road.checkered:
        if any(r is road and abs(t2 - t) < 1e-6 and k != "start" for r, t2, k in lines):
            continue
        g = _attrs(dwg.g(), class_="checkered-line", data_step=str(road.step))
        _chequers(dwg, g, line, t, depth, half)
        group.add(g)
    if road.grid_bars:
        d = "".join(path_d(bar, closed=False) for bar in road.grid_bars)
        group.add(_attrs(dwg.path(d=d), class_="grid-bars", data_step=str(road.step), fill="none",
                         stroke="#ffffff", stroke_width=fmt(0.03 * R)))


def _chequers(dwg, g, line, t: float, depth: float, half: float) -> None:
    """A two-row chequered band across the road centred on ``t``."""
    cells = 8
    for row in range(2):
        ta = t - depth + row * depth
        tb = ta + depth
        for i in range(cells):
            ua = half - 2 * half * i / cells
            ub = half - 2 * half * (i + 1) / cells
            fill = "#111111" if (i + row) % 2 == 0 else "#ffffff"
            g.add(_path(dwg, line.band(ta, tb, ua, ub), fill=fill, stroke="none"))


def _line_mark(dwg, group, line, t: float, half: float, R: float, kind: str, word: str, ink: Ink,
               index: LabelIndex, printed: bool = False) -> None:
    """A line across the road at ``t``: the finish a two-row chequered band, the start one solid bar
    with white ticks (told apart in black and white), a circuit's start/finish both; the word beside
    the road where no road is. ``printed``: the tile prints a checkered line there (401), drawn too."""
    g = _attrs(dwg.g(), class_=f"{kind}-line")
    depth = 0.035 * R / max(line.length, 1e-6)
    if printed and kind == "start":
        _chequers(dwg, g, line, t, depth, half)
    if kind in ("finish", "start-finish"):
        _chequers(dwg, g, line, t, depth, half)
    if kind in ("start", "start-finish"):
        ta, tb = (t - 0.6 * depth, t + 0.6 * depth) if kind == "start" and not printed else (t + depth, t + 1.8 * depth)
        g.add(_path(dwg, line.band(ta, tb, half, -half), fill=style.START_LINE, stroke="none"))
        for i in range(1, 4):
            u = half - 2 * half * i / 4
            g.add(_path(dwg, [line.at(ta, u), line.at(tb, u)], closed=False, stroke="#ffffff",
                        stroke_width=fmt(0.012 * R), fill="none"))
    size = ink.size(0.06 * R, WORD_PT)
    w = text_width(word, size, True)
    candidates = []
    for side in (1, -1):
        for gap in (0.05 * R, 0.15 * R, 0.3 * R):
            for dt in (0.0, 0.08, -0.08):
                u = side * (half + gap + 0.5 * size)
                candidates.append(line.at(min(1.0, max(0.0, t + dt)), u))
    candidates = [_clear_of(c, w, size, line, t, half) for c in candidates]
    candidates += _ring(line.at(t, 0.0), R, (0.35, 0.5, 0.65, 0.8), 24)
    spot, _ = index.place(candidates, w, size)
    g.add(_text(dwg, word, (spot[0], spot[1] - 0.07 * size), size, weight="bold", class_="line-word"))
    group.add(g)


def _clear_of(at: Point, w: float, h: float, line, t: float, half: float) -> Point:
    """Push a label centre away from the road along the road's normal until its box clears the kerb."""
    tx, ty = line.tangent(t)
    cx, cy = line.point(t)
    nx, ny = ty, -tx
    u = (at[0] - cx) * nx + (at[1] - cy) * ny
    # the box's extent along the normal
    reach = abs(nx) * w / 2 + abs(ny) * h / 2
    need = half + reach + 0.02 * line.layout.size
    if abs(u) >= need:
        return at
    sign = 1 if u >= 0 else -1
    k = sign * need - u
    return (at[0] + nx * k, at[1] + ny * k)


def _assistance(dwg, group, layout: HexLayout, road: RoadShape, R: float, index: LabelIndex, id_prefix: str):
    """The Assistance area at a dead end; returns the group of its label (drawn with the labels)."""
    end = road.centreline.point(1.0)
    box = [(end[0] - 0.45 * R, end[1] - 0.3 * R), (end[0] + 0.45 * R, end[1] - 0.3 * R),
           (end[0] + 0.45 * R, end[1] + 0.3 * R), (end[0] - 0.45 * R, end[1] + 0.3 * R)]
    g = _attrs(dwg.g(), class_="assistance")
    g.add(_path(dwg, box, fill=patterns.fill("road-none", id_prefix), stroke="#333333", stroke_width=fmt(0.012 * R),
                stroke_dasharray=f"{fmt(0.03 * R)},{fmt(0.015 * R)}"))
    group.add(g)
    index.add_polygon(box)
    return _attrs(dwg.g(), class_="assistance-label", data_step=str(road.step)), end


def _jump(dwg, group, at: Point, gear: int, R: float, sid: str, size: float) -> None:
    x, y = at
    s = max(0.04 * R, 0.8 * size)
    g = _attrs(dwg.g(), class_="jump", data_space=sid)
    g.add(_path(dwg, [(x - 1.6 * s, y + 0.5 * s), (x - 1.05 * s, y - 0.5 * s), (x - 0.5 * s, y + 0.5 * s)],
                closed=False, fill="none", stroke=style.JUMP, stroke_width=fmt(0.01 * R)))
    g.add(_text(dwg, f"J{gear}", (x + 0.4 * s, y), size, weight="bold"))
    group.add(g)


def _water(dwg, group, at: Point, R: float, sid: str) -> None:
    x, y = at
    s = 0.03 * R
    pts = [(x - 2 * s + i * s * 0.5, y + (0.4 * s if i % 2 else -0.4 * s)) for i in range(9)]
    group.add(_path(dwg, pts, closed=False, class_="water", data_space=sid, fill="none", stroke=style.WATER,
                    stroke_width=fmt(0.012 * R)))


def _standees(dwg, standees: Sequence[tuple[str, str]], shapes: TrackShapes, R: float, ink: Ink,
              index: LabelIndex) -> Group | None:
    """RX standees (finish line, Joker entry and exit) as arches across the road at the entry of a zone,
    each word once, beside the road."""
    if not standees:
        return None
    g = _attrs(dwg.g(), id="standees")
    colours = {"finish": "#111111", "joker-entry": "#7b3fc4", "joker-exit": "#7b3fc4"}
    words = {"finish": "FINISH LINE", "joker-entry": "JOKER IN", "joker-exit": "JOKER OUT"}
    by_step = {str(r.step): r for r in reversed(shapes.roads)}
    size = ink.size(0.05 * R, WORD_PT)
    for kind, ref in sorted(set(standees)):
        step_s, _, zone_s = str(ref).partition(".")
        road = by_step.get(step_s)
        if road is None or not zone_s.isdigit():
            continue
        t = road.zone_span(int(zone_s))[0]
        half = road.width / 2
        colour = colours.get(kind, "#333333")
        line = road.centreline
        a = line.at(t, half + 0.07 * R)
        b = line.at(t, -half - 0.07 * R)
        sg = _attrs(dwg.g(), class_="standee", data_kind=kind, data_at=str(ref))
        sg.add(_path(dwg, [a, b], closed=False, stroke=colour, stroke_width=fmt(0.025 * R), fill="none",
                     stroke_opacity="0.85"))
        for end in (a, b):
            sg.add(_circle(dwg, end, 0.03 * R, fill=colour))
        # the arch and its end posts are filed like road, so that no word (this one or a later label) covers them
        index.add_polygon(_band(a, b, 0.05 * R))
        word = words.get(kind, kind.upper())
        w = text_width(word, size, True)
        candidates = [_clear_of(line.at(min(1.0, max(0.0, t + dt)), side * (half + gap)), w, size, line,
                                min(1.0, max(0.0, t + dt)), half)
                      for side in (-1, 1) for gap in (0.2 * R, 0.35 * R) for dt in (0.0, 0.1, -0.1, 0.2, -0.2)]
        candidates += _ring(line.at(t, 0.0), R, (0.45, 0.6, 0.75, 0.9), 24)
        spot, _ = index.place(candidates, w, size)
        sg.add(_text(dwg, word, (spot[0], spot[1] - 0.07 * size), size, weight="bold", fill=colour,
                     class_="standee-word"))
        g.add(sg)
    return g


def _band(a: Point, b: Point, pad: float) -> list[Point]:
    """The rectangle around the segment ``a``-``b`` that reaches ``pad`` beyond it on every side."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(dx, dy) or 1.0
    ux, uy = dx / n * pad, dy / n * pad
    return [(a[0] - ux - uy, a[1] - uy + ux), (b[0] + ux - uy, b[1] + uy + ux),
            (b[0] + ux + uy, b[1] + uy - ux), (a[0] - ux + uy, a[1] - uy - ux)]


def car_letter(name: str, fallback: int) -> str:
    """The letter drawn on a car: its driver's initial (cars are told apart without their colour)."""
    for ch in name:
        if ch.isalnum():
            return ch.upper()
    return str(fallback)


def _overlay(dwg, cars: Sequence[CarMark], shapes: TrackShapes, R: float, id_prefix: str, ink: Ink) -> Group:
    """The cars: a rounded box in the car's colour with the driver's letter and gear (e.g. ``B4``),
    and the dashed path of its last turn. Names are in the standings key, off the road."""
    g = _attrs(dwg.g(), id=f"{id_prefix}overlay")
    size = ink.size(0.07 * R, CAR_PT)
    for n, car in enumerate(cars):
        colour = car_colour(car.colour)
        pts = [shapes.spaces[s].label for s in car.path if s in shapes.spaces]
        if len(pts) >= 2:
            g.add(_path(dwg, pts, closed=False, class_="car-path", data_car=car.colour, fill="none",
                        stroke=colour, stroke_width=fmt(0.02 * R), stroke_opacity="0.8",
                        stroke_dasharray=f"{fmt(0.05 * R)},{fmt(0.02 * R)}"))
        if car.space not in shapes.spaces:
            continue
        x, y = shapes.spaces[car.space].label
        text = car_letter(car.name, n + 1) + ("" if car.gear is None else str(car.gear))
        w, h = max(0.16 * R, text_width(text, size, True) + 0.3 * size), max(0.1 * R, 1.3 * size)
        cg = _attrs(dwg.g(), class_="car", data_car=car.colour, data_space=car.space, data_name=car.name)
        rect = dwg.rect()
        rect.attribs.update({"x": fmt(x - w / 2), "y": fmt(y - h / 2), "width": fmt(w), "height": fmt(h),
                             "rx": fmt(0.015 * R), "fill": colour, "stroke": "#000000",
                             "stroke-width": fmt(0.008 * R)})
        cg.add(rect)
        text_fill = "#000000" if car.colour.lower() in ("white", "yellow") else "#ffffff"
        cg.add(_text(dwg, text, (x, y - 0.07 * size), size, weight="bold", fill=text_fill, class_="car-letter"))
        g.add(cg)
    return g


def car_colour(name: str) -> str:
    """The fill of a car from its record colour (a known name or ``#rrggbb``; anything else grey)."""
    return style.CAR_COLOURS.get(name.lower(), name if name.startswith("#") else "#8a8a8a")
