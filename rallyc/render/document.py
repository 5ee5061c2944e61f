"""SVG documents around a scene: title block, legend, page size and page splitting.

Sizes
-----
The drawing is made in millimetres at real size: a tile is ``tile_mm`` edge to
edge. **The physical size of a Rallyman tile is an assumption**: the default
``tile_mm = 200`` (edge to edge; 231 mm corner to corner) is not confirmed by a
published source; measure one of your tiles and pass ``--tile-mm``.

- no page: the SVG is sized so a tile is 60 mm edge to edge (screens, READMEs);
- ``page="a4"|"letter"`` (``landscape``): the map is scaled to fit the page inside
  10 mm margins; ``width``/``height`` are the page size in mm;
- ``scale="real"``: 1:1, split over as many pages as needed. Pages are separate
  SVG files (SVG 1.1 has no pages): ``map-1.svg``, ``map-2.svg``... in reading
  order (rows top to bottom, columns left to right); pages where nothing would
  be printed (no tile, title or legend) are left out. Neighbouring pages overlap
  by 15 mm; each page names itself (``page 2 of 6, row 1 column 2``) and shows
  dashed overlap marks labelled with the page that continues there, so the
  sheets can be trimmed and taped together.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence, cast

import svgwrite

from rallyc.compilation import collector
from rallyc.compiler.stats import length_words
from rallyc.compiler.track import Track
from rallyc.render import style
from rallyc.render.geometry import HexLayout, fmt
from rallyc.render.legend import LegendLayout, draw_legend, layout_legend, map_features
from rallyc.render.labels import LabelIndex, Rect
from rallyc.render.svgtext import svg_text
from rallyc.render.measure import PT_MM, rect_hits_polygon, text_width
from rallyc.render.scene import Box, CarMark, Scene, _attrs, _path, _text, build_scene, car_colour, car_letter

__all__ = ["PAGES", "MapOptions", "render_map", "new_drawing", "to_string"]

#: page sizes in mm (portrait)
PAGES = {"a4": (210.0, 297.0), "letter": (215.9, 279.4), "a3": (297.0, 420.0)}
MARGIN = 10.0
OVERLAP = 15.0
SCREEN_TILE_MM = 60.0


@dataclass
class MapOptions:
    """How to lay a map out (see the module docstring)."""

    page: str | None = None
    #: None: the orientation that prints the map larger (portrait on a tie)
    landscape: bool | None = None
    scale: str = "fit"
    tile_mm: float = 200.0
    show_ids: bool = False
    flat: bool = True
    #: False leaves the scenery fillers out of the map
    scenery: bool = True
    #: False draws the scenery but sizes the map to the road tiles (scenery may run off the page)
    fit_scenery: bool = True


def new_drawing(width_mm: float, height_mm: float, view: Box) -> svgwrite.Drawing:
    """An SVG 1.1 drawing ``width_mm`` x ``height_mm`` showing ``view`` (model mm)."""
    dwg = svgwrite.Drawing(profile="full", debug=False)
    dwg.attribs["width"] = f"{fmt(width_mm)}mm"
    dwg.attribs["height"] = f"{fmt(height_mm)}mm"
    dwg.attribs["viewBox"] = f"{fmt(view.x0)} {fmt(view.y0)} {fmt(view.width)} {fmt(view.height)}"
    dwg.attribs["font-family"] = style.FONT
    return dwg


def to_string(dwg: svgwrite.Drawing) -> str:
    """The document as text, with an XML declaration and a final newline."""
    return _pretty(dwg)


def _pretty(dwg: svgwrite.Drawing) -> str:
    body = svg_text(dwg)
    return '<?xml version="1.0" encoding="utf-8" ?>\n' + body + "\n"


#: title block sizes in points: title, author, stage line
TITLE_PT, AUTHOR_PT, STAGE_PT = 14.0, 9.0, 10.0
KEY_PT = 7.5
_GAP = 3.0  # printed mm between title, map, legend and key


def _title_lines(track: Track, title: str, author: str | None, stage_label: str) -> list[tuple[str, float, str | None]]:
    """(text, size in pt, weight) of each title line: the design, its author, the stage and its size."""
    lines: list[tuple[str, float, str | None]] = [(title, TITLE_PT, "bold")]
    if author:
        lines.append((f"by {author}", AUTHOR_PT, None))
    stage_line = length_words(track)
    if stage_label and stage_label != title:
        stage_line = f"{stage_label}  -  {stage_line}"
    lines.append((stage_line, STAGE_PT, None))
    return lines


def _title_height(lines) -> float:
    return sum(pt * PT_MM * 1.3 for _, pt, _ in lines)


def _title_block(dwg, x: float, y: float, unit: float, lines: Sequence[tuple[str, float, str | None]]):
    """The title lines from ``(x, y)`` down (model mm; ``unit`` model mm per printed mm)."""
    g = _attrs(dwg.g(), id="title-block", class_="title-block")
    cy = y
    for text, pt, weight in lines:
        size = pt * PT_MM * unit
        cy += size * 1.3
        g.add(_text(dwg, text, (x, cy - size * 0.55), size, anchor="start", weight=weight, class_="title-line"))
    return g


def _tiles_box(track: Track, options: MapOptions) -> Box:
    """The box of the tile hexagons (scenery left out when the options say so), from the placements alone."""
    layout = HexLayout(options.tile_mm / math.sqrt(3), options.flat)
    xs: list[float] = []
    ys: list[float] = []
    for p in track.placed:
        if p.scenery and not (options.scenery and options.fit_scenery):
            continue
        for x, y in layout.corners(p.q, p.r):
            xs.append(x)
            ys.append(y)
    if not xs:
        return Box(0, 0, layout.size, layout.size)
    return Box(min(xs), min(ys), max(xs), max(ys))


def _key_rows(cars: Sequence[CarMark]) -> list[str]:
    """The standings key, one line per car in the order given: letter, name, gear, damage, time so far."""
    rows = []
    for n, car in enumerate(cars, start=1):
        bits = [f"{car_letter(car.name, n)}  {car.name}", f"gear {car.gear if car.gear is not None else '-'}",
                f"damage {car.damage}"]
        if car.seconds is not None:
            m, sec = divmod(car.seconds, 60)
            bits.append(f"cards {m}:{sec:02d}")
        if car.note:
            bits.append(car.note)
        rows.append("   ".join(bits))
    return rows


@dataclass
class _Frame:
    """How a map sits on its sheet: printed size, print scale, and where each block goes (printed mm)."""

    width: float
    height: float
    scale: float
    tiles_at: tuple[float, float]
    title_at: tuple[float, float]
    legend_at: tuple[float, float]
    key_at: tuple[float, float]
    legend: LegendLayout
    landscape: bool


def _frame(tb: Box, page: tuple[float, float] | None, head: float, keys: list[str], key_rows: list[str],
           screen_scale: float, landscape: bool | None) -> _Frame:
    """Fit the tiles, title, legend and key on a page (or size a screen sheet around them)."""
    key_h = len(key_rows) * KEY_PT * PT_MM * 1.5
    key_w = max((text_width(r, KEY_PT * PT_MM) + 4 * KEY_PT * PT_MM for r in key_rows), default=0.0)

    def blocks(avail_w: float) -> tuple[LegendLayout, float]:
        legend = layout_legend(keys, avail_w)
        foot = _GAP + legend.height + ((_GAP + key_h) if key_rows else 0.0)
        return legend, foot

    if page is None:
        scale = screen_scale
        tw, th = tb.width * scale, tb.height * scale
        inner = max(tw, 120.0, key_w)
        legend, foot = blocks(inner)
        pad = 6.0
        width = inner + 2 * pad
        height = head + _GAP + th + foot + 2 * pad
        left = pad + (inner - tw) / 2
        return _Frame(width, height, scale, (left, pad + head + _GAP), (pad, pad), (pad, pad + head + _GAP + th + _GAP),
                      (pad, pad + head + _GAP + th + _GAP + legend.height + _GAP), legend, False)
    options = [False, True] if landscape is None else [landscape]
    best: _Frame | None = None
    for turned in options:
        pw, ph = (page[1], page[0]) if turned else page
        aw = pw - 2 * MARGIN
        legend, foot = blocks(aw)
        ah = ph - 2 * MARGIN - head - _GAP - foot
        scale = min(aw / tb.width, max(ah, 1.0) / tb.height)
        tw, th = tb.width * scale, tb.height * scale
        total = head + _GAP + th + foot
        top = MARGIN + (ph - 2 * MARGIN - total) / 2
        left = (pw - tw) / 2
        lx = max(MARGIN, min(left, pw - MARGIN - legend.width))
        frame = _Frame(pw, ph, scale, (left, top + head + _GAP), (max(MARGIN, min(left, pw - MARGIN - 100)), top),
                       (lx, top + head + _GAP + th + _GAP), (lx, top + head + _GAP + th + _GAP + legend.height + _GAP),
                       legend, turned)
        if best is None or frame.scale > best.scale * 1.0001:
            best = frame
    assert best is not None
    return best


def render_map(track: Track, catalogue, *, title: str, author: str | None = None,
               stage_label: str | None = None, options: MapOptions | None = None,
               cars: Sequence[CarMark] = ()) -> list[str]:
    """The map of one track as SVG documents (one, or one per page with ``scale="real"``)."""
    options = options or MapOptions()
    stage_label = stage_label or track.name
    with collector.paused():  # hundreds of thousands of small objects, none of them garbage worth a scan
        if options.scale == "real":
            return _real_pages(track, catalogue, title=title, author=author, stage_label=stage_label,
                               options=options, cars=cars)
        return [_fit_page(track, catalogue, title=title, author=author, stage_label=stage_label, options=options,
                          cars=cars, page=PAGES.get(options.page, PAGES["a4"]) if options.page else None)]


def _fit_page(track: Track, catalogue, *, title: str, author: str | None, stage_label: str, options: MapOptions,
              cars: Sequence[CarMark], page: tuple[float, float] | None, grid: Sequence[tuple[int, Box]] = ()) -> str:
    """One sheet: title, the whole map scaled to fit, the legend and the standings key.

    ``grid`` (page number, window in model mm) draws the real-scale pages over the map (the assembly page).
    """
    tb = _tiles_box(track, options)
    lines = _title_lines(track, title, author, stage_label)
    head = _title_height(lines)
    keys = map_features(track, catalogue, options.scenery, options.show_ids)
    key_rows = _key_rows(cars)
    frame = _frame(tb, page, head, keys, key_rows, SCREEN_TILE_MM / options.tile_mm,
                   None if page is None else options.landscape)
    unit = 1.0 / frame.scale
    vx0 = tb.x0 - frame.tiles_at[0] * unit
    vy0 = tb.y0 - frame.tiles_at[1] * unit
    view = Box(vx0, vy0, vx0 + frame.width * unit, vy0 + frame.height * unit)
    dwg = new_drawing(frame.width, frame.height, view)
    _add_title(dwg, title, stage_label)
    background = dwg.rect()
    background.attribs.update({"x": fmt(view.x0), "y": fmt(view.y0), "width": fmt(view.width),
                               "height": fmt(view.height), "fill": "#ffffff"})
    dwg.add(background)

    def at(p: tuple[float, float]) -> tuple[float, float]:
        return (vx0 + p[0] * unit, vy0 + p[1] * unit)

    dwg.add(_title_block(dwg, *at(frame.title_at), unit, lines))
    scene = build_scene(track, catalogue, tile_mm=options.tile_mm, flat=options.flat, show_ids=options.show_ids,
                        cars=cars, dwg=dwg, print_scale=frame.scale, scenery=options.scenery)
    dwg.add(scene.group)
    dwg.add(draw_legend(dwg, frame.legend, at(frame.legend_at), unit))
    if key_rows:
        dwg.add(_standings_key(dwg, cars, key_rows, at(frame.key_at), unit))
    if grid:
        dwg.add(_page_grid(dwg, grid, unit, tb))
    return _pretty(dwg)


def _standings_key(dwg, cars: Sequence[CarMark], rows: list[str], origin: tuple[float, float], unit: float):
    """One line per car: a swatch in its colour with its letter, then name, gear, damage and time so far."""
    g = _attrs(dwg.g(), id="standings-key", class_="standings-key")
    size = KEY_PT * PT_MM * unit
    for n, (car, row) in enumerate(zip(cars, rows)):
        cy = origin[1] + (n + 0.5) * 1.5 * size
        sw = dwg.rect()
        sw.attribs.update({"x": fmt(origin[0]), "y": fmt(cy - 0.6 * size), "width": fmt(2.4 * size),
                           "height": fmt(1.2 * size), "rx": fmt(0.2 * size), "fill": car_colour(car.colour),
                           "stroke": "#000000", "stroke-width": fmt(0.1 * unit)})
        g.add(sw)
        g.add(_text(dwg, row, (origin[0] + 3.2 * size, cy - 0.07 * size), size, anchor="start",
                    class_="standings-row", data_car=car.colour))
    return g


def _page_grid(dwg, grid: Sequence[tuple[int, Box]], unit: float, tiles: Box):
    """The real-scale pages drawn over the assembly map: each window outlined (where it covers the tiles: never
    over the title block or the legend) and numbered."""
    g = _attrs(dwg.g(), id="page-grid", class_="page-grid")
    size = 9.0 * PT_MM * unit
    for n, window in grid:
        win = Box(max(window.x0, tiles.x0), max(window.y0, tiles.y0), min(window.x1, tiles.x1),
                  min(window.y1, tiles.y1))
        frame = [(win.x0, win.y0), (win.x1, win.y0), (win.x1, win.y1), (win.x0, win.y1)]
        g.add(_path(dwg, frame, fill="none", stroke="#1f4fa0", stroke_width=fmt(0.35 * unit),
                    stroke_dasharray=f"{fmt(2 * unit)},{fmt(1 * unit)}"))
        g.add(_text(dwg, str(n), (win.x0 + 1.5 * unit, win.y0 + 0.6 * size + 1.5 * unit), size, anchor="start",
                    weight="bold", fill="#1f4fa0", class_="page-number"))
    return g


def _add_title(dwg, title: str, stage_label: str) -> None:
    t = svgwrite.base.Title(f"{title} - {stage_label}")
    dwg.add(t)


def _page_size(options: MapOptions, landscape: bool | None = None) -> tuple[float, float]:
    pw, ph = PAGES.get(options.page or "a4", PAGES["a4"])
    if options.landscape if landscape is None else landscape:
        pw, ph = ph, pw
    return pw, ph


#: the least share of a 1:1 page's printable area that tiles cover, where a grid can give it (issue 36: no page
#: a sliver of one tile)
LEAST_COVER = 0.15
#: offsets tried for the page grid over the map, in strides (the centred grid first)
_SHIFTS = (0.0, -0.25, 0.25, -0.125, 0.125, -0.375, 0.375, -0.5)


def _real_windows(tb: Box, roads: Sequence[Sequence[tuple[float, float]]], page: tuple[float, float],
                  covered=None) -> list[tuple[int, int, Box]]:
    """(row, column, window) of every page of a 1:1 grid over ``tb`` that prints some road.

    The grid is the one of the fewest pages among the centred grid and grids shifted by a fraction of a
    page, and of those the one whose emptiest page has the largest share of tiles (``covered(window)``:
    the share of the window tiles cover); the centred grid when it is as good."""
    aw, ah = page[0] - 2 * MARGIN, page[1] - 2 * MARGIN
    stride_x, stride_y = aw - OVERLAP, ah - OVERLAP
    boxes = [(min(p[0] for p in poly), min(p[1] for p in poly), max(p[0] for p in poly), max(p[1] for p in poly), poly)
             for poly in roads]
    grids = [_grid(tb, boxes, (aw, ah), (stride_x, stride_y), (dx, dy)) for dx in _SHIFTS for dy in _SHIFTS]
    if covered is None:
        return grids[0]
    fewest = min(len(g) for g in grids)
    best, best_least = grids[0], -1.0
    for windows in grids:
        if len(windows) != fewest:
            continue
        least = min(covered(w) for _, _, w in windows)
        if min(least, LEAST_COVER) > best_least or len(best) != fewest:
            best, best_least = windows, min(least, LEAST_COVER)
        if best_least >= LEAST_COVER:
            break
    return best


def _grid(tb: Box, boxes: list, size: tuple[float, float], stride: tuple[float, float], shift: tuple[float, float]
          ) -> list[tuple[int, int, Box]]:
    """The windows of one page grid over ``tb`` that print some road: centred, then moved by ``shift`` strides."""
    (aw, ah), (stride_x, stride_y) = size, stride
    cols = max(1, math.ceil((tb.width - OVERLAP) / stride_x))
    rows = max(1, math.ceil((tb.height - OVERLAP) / stride_y))
    # centre the grid on the map so that the margins left over are even
    x0 = tb.x0 - (cols * stride_x + OVERLAP - tb.width) / 2 + shift[0] * stride_x
    y0 = tb.y0 - (rows * stride_y + OVERLAP - tb.height) / 2 + shift[1] * stride_y
    if shift != (0.0, 0.0):
        # a shifted grid needs a row and a column more to cover the map
        cols, rows = cols + 1, rows + 1
        x0, y0 = x0 - stride_x * (shift[0] > 0), y0 - stride_y * (shift[1] > 0)
    out = []
    for row in range(rows):
        for col in range(cols):
            win = Box(x0 + col * stride_x, y0 + row * stride_y, x0 + col * stride_x + aw, y0 + row * stride_y + ah)
            if any(bx0 < win.x1 and win.x0 < bx1 and by0 < win.y1 and win.y0 < by1
                   and rect_hits_polygon(win.x0, win.y0, win.x1, win.y1, poly) for bx0, by0, bx1, by1, poly in boxes):
                out.append((row, col, win))
    # rows and columns numbered from the first that prints
    r0 = min((r for r, _, _ in out), default=0)
    c0 = min((c for _, c, _ in out), default=0)
    return [(r - r0, c - c0, w) for r, c, w in out]


def _tile_cover(track: Track, layout) -> Callable[[Box], float]:
    """The share of a window that the tiles of ``track`` cover (sampled on a 16 x 16 grid)."""
    cells = {(p.q, p.r) for p in track.placed}

    def covered(win: Box) -> float:
        n = 16
        inside = sum(layout.cell_at((win.x0 + win.width * (i + 0.5) / n, win.y0 + win.height * (j + 0.5) / n))
                     in cells for i in range(n) for j in range(n))
        return inside / (n * n)
    return covered


def _real_pages(track: Track, catalogue, *, title: str, author: str | None, stage_label: str,
                options: MapOptions, cars: Sequence[CarMark]) -> list[str]:
    """An assembly page (the whole map with the page grid and the legend), then the 1:1 pages.

    Only pages that print some road are kept. Each page names itself and its neighbours in its
    margins (never over the map), marks the overlaps with dashed lines, and repeats the number of
    every tile it shows whose label falls on another page.
    """
    probe = svgwrite.Drawing(profile="full", debug=False)
    scene = build_scene(track, catalogue, tile_mm=options.tile_mm, flat=options.flat, show_ids=options.show_ids,
                        cars=cars, dwg=probe, print_scale=1.0, scenery=options.scenery)
    tb = _tiles_box(track, options)
    turns = [False, True] if options.landscape is None else [options.landscape]
    covered = _tile_cover(track, scene.shapes.layout)
    layouts = [(_real_windows(tb, scene.road_polygons, _page_size(options, t), covered), t) for t in turns]
    windows, landscape = min(layouts, key=lambda lw: (len(lw[0]), -min(min((covered(w) for _, _, w in lw[0]),
                                                                         default=0.0), LEAST_COVER), lw[1]))
    pw, ph = _page_size(options, landscape)
    numbers = {(row, col): n for n, (row, col, _) in enumerate(windows, start=1)}
    total = len(windows)
    assembly = _fit_page(track, catalogue, title=title, author=author,
                         stage_label=f"{stage_label} - assembly of {total} pages at 1:1", options=options, cars=cars,
                         page=PAGES.get(options.page or "a4", PAGES["a4"]),
                         grid=[(n, win) for n, (_, _, win) in enumerate(windows, start=1)])
    out = [assembly]
    for (row, col, win), n in zip(windows, range(1, total + 1)):
        view = Box(win.x0 - MARGIN, win.y0 - MARGIN, win.x1 + MARGIN, win.y1 + MARGIN)
        dwg = new_drawing(pw, ph, view)
        _add_title(dwg, title, f"{stage_label} page {n} of {total}")
        clip = dwg.defs.add(dwg.clipPath(id="page-window"))
        rect = dwg.rect()
        rect.attribs.update({"x": fmt(win.x0), "y": fmt(win.y0), "width": fmt(win.width), "height": fmt(win.height)})
        clip.add(rect)
        body = _attrs(dwg.g(), clip_path="url(#page-window)")
        body.add(scene.group)
        dwg.add(body)
        dwg.add(_repeated_tile_labels(dwg, scene, win))
        _page_marks(dwg, win, row, col, numbers, n, total, title, stage_label)
        out.append(_pretty(dwg))
    return out


def _repeated_tile_labels(dwg, scene: Scene, win: Box):
    """The number of every tile this page shows whose own label is cut off or on another page."""
    g = _attrs(dwg.g(), class_="page-tile-labels")
    layout = scene.shapes.layout
    inset = 3.0
    for (q, r, tile, steps), box in scene.tile_labels.items():
        hexagon = layout.corners(q, r)
        if not rect_hits_polygon(win.x0, win.y0, win.x1, win.y1, hexagon):
            continue
        if box.x0 >= win.x0 and box.x1 <= win.x1 and box.y0 >= win.y0 and box.y1 <= win.y1:
            continue
        text = f"{tile} {steps}".strip()
        size = min(0.07 * layout.size, 12 * PT_MM)  # the scene's unit is the printed mm here
        w = text_width(text, size, True)
        # points of the tile inside this page, nearest the middle of what the page shows of it first
        xs = [x for x, _ in hexagon]
        ys = [y for _, y in hexagon]
        lo_x, hi_x = max(min(xs), win.x0 + inset), min(max(xs), win.x1 - inset)
        lo_y, hi_y = max(min(ys), win.y0 + inset), min(max(ys), win.y1 - inset)
        mid = ((lo_x + hi_x) / 2, (lo_y + hi_y) / 2)
        grid = [(lo_x + (hi_x - lo_x) * i / 12, lo_y + (hi_y - lo_y) * j / 12) for i in range(13) for j in range(13)]
        grid.sort(key=lambda p: (math.dist(p, mid), p))
        for at in grid:
            cand = Rect.around(at, w, size)
            if (cand.x0 >= win.x0 + inset and cand.x1 <= win.x1 - inset and cand.y0 >= win.y0 + inset
                    and cand.y1 <= win.y1 - inset and cast(LabelIndex, scene.index).free(cand, hexagon)):
                g.add(_text(dwg, text, (at[0], at[1] - 0.07 * size), size, weight="bold", class_="tile-label repeated",
                            fill=style.MUTED))
                break
    return g


def _page_marks(dwg, window: Box, row: int, col: int, numbers: dict[tuple[int, int], int], n: int, total: int,
                title: str, stage_label: str) -> None:
    """The page's name and its neighbours, written in the margins; the overlaps dashed on the map."""
    g = _attrs(dwg.g(), id="page-marks", class_="page-marks")
    small = 8.0 * PT_MM
    g.add(_text(dwg, f"{title} - {stage_label} - page {n} of {total} (row {row + 1}, column {col + 1})",
                (window.x0, window.y0 - MARGIN + 3.2), 3.5, anchor="start", weight="bold", class_="page-label"))
    frame = [(window.x0, window.y0), (window.x1, window.y0), (window.x1, window.y1), (window.x0, window.y1)]
    g.add(_path(dwg, frame, fill="none", stroke="#999999", stroke_width="0.20"))
    dash = {"stroke": "#d41e1e", "stroke_width": "0.30", "stroke_dasharray": "3,2", "fill": "none"}
    right, left = numbers.get((row, col + 1)), numbers.get((row, col - 1))
    below, above = numbers.get((row + 1, col)), numbers.get((row - 1, col))
    before = []
    after = []
    if right:
        x = window.x1 - OVERLAP
        g.add(_path(dwg, [(x, window.y0), (x, window.y1)], closed=False, class_="overlap-mark", **dash))
        after.append(f"page {right} joins on the right, from the right dashed line")
    if below:
        y = window.y1 - OVERLAP
        g.add(_path(dwg, [(window.x0, y), (window.x1, y)], closed=False, class_="overlap-mark", **dash))
        after.append(f"page {below} joins below, from the lower dashed line")
    if left:
        x = window.x0 + OVERLAP
        g.add(_path(dwg, [(x, window.y0), (x, window.y1)], closed=False, class_="overlap-mark", **dash))
        before.append(f"page {left} on the left, up to the left dashed line")
    if above:
        y = window.y0 + OVERLAP
        g.add(_path(dwg, [(window.x0, y), (window.x1, y)], closed=False, class_="overlap-mark", **dash))
        before.append(f"page {above} above, up to the upper dashed line")
    if before:
        g.add(_text(dwg, "; ".join(before), (window.x0, window.y0 - 2.2), small, anchor="start", fill="#b01010",
                    class_="overlap-note"))
    g.add(_text(dwg, "; ".join(after) if after else "1:1 - trim at a dashed line and tape the next page on",
                (window.x0, window.y1 + 3.6), small, anchor="start", fill="#b01010" if after else style.MUTED,
                class_="overlap-note"))
    if after:
        g.add(_text(dwg, "1:1 - trim at a dashed line and tape the next page on", (window.x0, window.y1 + 7.4), small,
                    anchor="start", fill=style.MUTED))
    dwg.add(g)
