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
from typing import Sequence

import svgwrite

from rallyc.compiler.track import Track
from rallyc.render import style
from rallyc.render.geometry import fmt
from rallyc.render.scene import Box, CarMark, _attrs, _circle, _path, _text, build_scene

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
    landscape: bool = False
    scale: str = "fit"
    tile_mm: float = 200.0
    show_ids: bool = False
    flat: bool = True


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
    body = dwg.tostring()
    return '<?xml version="1.0" encoding="utf-8" ?>\n' + body + "\n"


def _title_block(dwg, x: float, y: float, R: float, lines: Sequence[tuple[str, float, str | None]]):
    g = _attrs(dwg.g(), id="title-block")
    cy = y
    for text, size, weight in lines:
        cy += size * 1.25
        g.add(_text(dwg, text, (x, cy - size * 0.35), size, anchor="start", weight=weight))
    return g, cy - y


def _legend(dwg, x: float, y: float, R: float, circuit: bool = False) -> tuple[object, float, float]:
    """The legend as one row of swatches; returns (group, width, height)."""
    g = _attrs(dwg.g(), id="legend")
    s = 0.09 * R
    f = 0.055 * R
    cx = x
    cy = y + s

    def label(text: str):
        nonlocal cx
        g.add(_text(dwg, text, (cx, cy), f, anchor="start"))
        cx += len(text) * f * 0.6 + 0.08 * R

    g.add(_circle(dwg, (cx + s / 2, cy), 0.045 * R, fill="#ffffff", stroke=style.LIMIT_RING,
                  stroke_width=fmt(0.012 * R)))
    g.add(_text(dwg, "3", (cx + s / 2, cy), 0.055 * R, weight="bold"))
    cx += s * 1.3
    label("speed limit")
    for name in ("gravel", "asphalt", "snow"):
        g.add(_path(dwg, [(cx, cy - s / 2), (cx + s, cy - s / 2), (cx + s, cy + s / 2), (cx, cy + s / 2)],
                    fill=style.ROAD_FILL[name], stroke=style.ROAD_EDGE[name], stroke_width=fmt(0.01 * R)))
        cx += s * 1.3
        label(name)
    g.add(_path(dwg, [(cx, cy - s / 2), (cx + s, cy - s / 2), (cx + s, cy + s / 2), (cx, cy + s / 2)],
                fill="none", stroke=style.SLIDE_STROKE, stroke_width=fmt(0.01 * R),
                stroke_dasharray=f"{fmt(0.03 * R)},{fmt(0.02 * R)}"))
    cx += s * 1.3
    label("slide half")
    g.add(_path(dwg, [(cx, cy + s / 2), (cx + s, cy + s / 2), (cx + s / 2, cy - s / 2)],
                fill=style.SHORTCUT_FILL, stroke=style.SHORTCUT_STROKE, stroke_width=fmt(0.01 * R)))
    cx += s * 1.3
    label("shortcut")
    for danger, word in (("low", "danger low"), ("medium", "medium"), ("high", "high")):
        g.add(_circle(dwg, (cx + s / 2, cy), 0.035 * R, fill=style.DANGER[danger], stroke="#333333",
                      stroke_width=fmt(0.006 * R)))
        cx += s * 1.1
        label(word)
    g.add(_text(dwg, "J4 jump (gear)", (cx, cy), f, anchor="start"))
    cx += 14 * f * 0.6 + 0.08 * R
    g.add(_path(dwg, [(cx + i * 0.015 * R, cy + (0.012 if i % 2 else -0.012) * R) for i in range(7)],
                closed=False, fill="none", stroke=style.WATER, stroke_width=fmt(0.01 * R)))
    cx += 0.11 * R
    label("water")
    if circuit:
        for fill, word in ((style.JOKER_FILL, "Joker lap"), (style.PREGRID_FILL, "Pre-grid")):
            g.add(_path(dwg, [(cx, cy - s / 2), (cx + s, cy - s / 2), (cx + s, cy + s / 2), (cx, cy + s / 2)],
                        fill=fill, stroke=style.SPACE_STROKE, stroke_width=fmt(0.006 * R)))
            cx += s * 1.3
            label(word)
    return g, cx - x, 2 * s


def _compose(track: Track, catalogue, *, title: str, author: str | None, stage_label: str,
             options: MapOptions, cars: Sequence[CarMark], dwg: svgwrite.Drawing):
    scene = build_scene(track, catalogue, tile_mm=options.tile_mm, flat=options.flat,
                        show_ids=options.show_ids, cars=cars, dwg=dwg)
    R = scene.shapes.layout.size
    tb = scene.tiles_box
    pad = 0.15 * R
    lines: list[tuple[str, float, str | None]] = [(title, 0.2 * R, "bold")]
    if author:
        lines.append((f"by {author}", 0.1 * R, None))
    steps = len(track.steps)
    lines.append((f"{stage_label}  -  {steps} tiles" + (f", {track.laps} laps" if track.laps else ""),
                  0.12 * R, None))
    title_h = sum(size * 1.25 for _, size, _ in lines)
    title_g, _ = _title_block(dwg, tb.x0, tb.y0 - pad - title_h, R, lines)
    legend_g, legend_w, legend_h = _legend(dwg, tb.x0, tb.y1 + pad, R, circuit=track.kind == "circuit")
    content = Box(tb.x0 - pad, tb.y0 - pad - title_h, max(tb.x1, tb.x0 + legend_w) + pad,
                  tb.y1 + pad + legend_h + pad)
    title_w = max(len(text) * size * 0.62 for text, size, _ in lines)
    scene.extra_boxes = [Box(tb.x0, tb.y0 - pad - title_h, tb.x0 + title_w, tb.y0 - pad),
                         Box(tb.x0, tb.y1 + pad, tb.x0 + legend_w, tb.y1 + pad + legend_h)]
    return scene, title_g, legend_g, content


def render_map(track: Track, catalogue, *, title: str, author: str | None = None,
               stage_label: str | None = None, options: MapOptions | None = None,
               cars: Sequence[CarMark] = ()) -> list[str]:
    """The map of one track as SVG documents (one, or one per page with ``scale="real"``)."""
    options = options or MapOptions()
    stage_label = stage_label or track.name
    if options.scale == "real":
        return _real_pages(track, catalogue, title=title, author=author, stage_label=stage_label,
                           options=options, cars=cars)
    probe = svgwrite.Drawing(profile="full", debug=False)
    _, _, _, content = _compose(track, catalogue, title=title, author=author, stage_label=stage_label,
                                options=options, cars=cars, dwg=probe)
    if options.page:
        pw, ph = _page_size(options)
        scale = min((pw - 2 * MARGIN) / content.width, (ph - 2 * MARGIN) / content.height)
        vw, vh = pw / scale, ph / scale
        cx, cy = (content.x0 + content.x1) / 2, (content.y0 + content.y1) / 2
        view = Box(cx - vw / 2, cy - vh / 2, cx + vw / 2, cy + vh / 2)
        width, height = pw, ph
    else:
        scale = SCREEN_TILE_MM / options.tile_mm
        view = content
        width, height = content.width * scale, content.height * scale
    dwg = new_drawing(width, height, view)
    _add_title(dwg, title, stage_label)
    scene, title_g, legend_g, _ = _compose(track, catalogue, title=title, author=author,
                                           stage_label=stage_label, options=options, cars=cars, dwg=dwg)
    background = dwg.rect()
    background.attribs.update({"x": fmt(view.x0), "y": fmt(view.y0), "width": fmt(view.width),
                               "height": fmt(view.height), "fill": "#ffffff"})
    dwg.add(background)
    dwg.add(title_g)
    dwg.add(scene.group)
    dwg.add(legend_g)
    return [_pretty(dwg)]


def _add_title(dwg, title: str, stage_label: str) -> None:
    t = svgwrite.base.Title(f"{title} - {stage_label}")
    dwg.add(t)


def _page_size(options: MapOptions) -> tuple[float, float]:
    pw, ph = PAGES.get(options.page or "a4", PAGES["a4"])
    if options.landscape:
        pw, ph = ph, pw
    return pw, ph


def _boxes_drawn(track: Track, options: MapOptions, extra: list[Box]) -> list[Box]:
    """What a page must show to be worth printing: each tile's hexagon, the title block and the legend."""
    from rallyc.render.geometry import HexLayout

    layout = HexLayout(options.tile_mm / math.sqrt(3), options.flat)
    out = list(extra)
    for p in track.placed:
        corners = layout.corners(p.q, p.r)
        out.append(Box(min(c[0] for c in corners), min(c[1] for c in corners),
                       max(c[0] for c in corners), max(c[1] for c in corners)))
    return out


def _overlaps(a: Box, b: Box) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def _real_pages(track: Track, catalogue, *, title: str, author: str | None, stage_label: str,
                options: MapOptions, cars: Sequence[CarMark]) -> list[str]:
    """Split a 1:1 map over pages with overlap marks and page labels; pages with nothing drawn are left out."""
    probe = svgwrite.Drawing(profile="full", debug=False)
    scene, _, _, content = _compose(track, catalogue, title=title, author=author, stage_label=stage_label,
                                    options=options, cars=cars, dwg=probe)
    drawn = _boxes_drawn(track, options, scene.extra_boxes)
    pw, ph = _page_size(options)
    aw, ah = pw - 2 * MARGIN, ph - 2 * MARGIN
    stride_x, stride_y = aw - OVERLAP, ah - OVERLAP
    cols = max(1, math.ceil((content.width - OVERLAP) / stride_x))
    rows = max(1, math.ceil((content.height - OVERLAP) / stride_y))

    def window(row: int, col: int) -> Box:
        wx, wy = content.x0 + col * stride_x, content.y0 + row * stride_y
        return Box(wx, wy, wx + aw, wy + ah)

    kept = [(r, c) for r in range(rows) for c in range(cols) if any(_overlaps(window(r, c), b) for b in drawn)]
    numbers = {cell: n for n, cell in enumerate(kept, start=1)}
    total = len(kept)
    out = []
    for (row, col), n in numbers.items():
        win = window(row, col)
        view = Box(win.x0 - MARGIN, win.y0 - MARGIN, win.x1 + MARGIN, win.y1 + MARGIN)
        dwg = new_drawing(pw, ph, view)
        _add_title(dwg, title, f"{stage_label} page {n} of {total}")
        clip = dwg.defs.add(dwg.clipPath(id="page-window"))
        rect = dwg.rect()
        rect.attribs.update({"x": fmt(win.x0), "y": fmt(win.y0), "width": fmt(aw), "height": fmt(ah)})
        clip.add(rect)
        scene, title_g, legend_g, _ = _compose(track, catalogue, title=title, author=author,
                                               stage_label=stage_label, options=options, cars=cars, dwg=dwg)
        body = _attrs(dwg.g(), clip_path="url(#page-window)")
        body.add(title_g)
        body.add(scene.group)
        body.add(legend_g)
        dwg.add(body)
        _page_marks(dwg, win, row, col, numbers, n, total, title, stage_label)
        out.append(_pretty(dwg))
    return out


def _page_marks(dwg, window: Box, row: int, col: int, numbers: dict[tuple[int, int], int], n: int, total: int,
                title: str, stage_label: str) -> None:
    g = _attrs(dwg.g(), id="page-marks", class_="page-marks")
    g.add(_text(dwg, f"{title} - {stage_label} - page {n} of {total} (row {row + 1}, column {col + 1})",
                (window.x0, window.y0 - MARGIN / 2), 3.5, anchor="start", class_="page-label"))
    g.add(_text(dwg, "1:1 - trim at a dashed line and tape onto the page named there", (window.x0, window.y1 + MARGIN / 2),
                2.8, anchor="start", fill=style.MUTED))
    frame = [(window.x0, window.y0), (window.x1, window.y0), (window.x1, window.y1), (window.x0, window.y1)]
    g.add(_path(dwg, frame, fill="none", stroke="#999999", stroke_width="0.20"))
    dash = {"stroke": "#d41e1e", "stroke_width": "0.30", "stroke_dasharray": "3,2", "fill": "none"}
    red = "#d41e1e"
    right, left = numbers.get((row, col + 1)), numbers.get((row, col - 1))
    below, above = numbers.get((row + 1, col)), numbers.get((row - 1, col))
    if right:
        x = window.x1 - OVERLAP
        g.add(_path(dwg, [(x, window.y0), (x, window.y1)], closed=False, class_="overlap-mark", **dash))
        g.add(_text(dwg, f"page {right} from here >", (x - 1, window.y0 + 4), 2.8, anchor="end", fill=red))
    if left:
        x = window.x0 + OVERLAP
        g.add(_path(dwg, [(x, window.y0), (x, window.y1)], closed=False, class_="overlap-mark", **dash))
        g.add(_text(dwg, f"< page {left} up to here", (x + 1, window.y1 - 4), 2.8, anchor="start", fill=red))
    if below:
        y = window.y1 - OVERLAP
        g.add(_path(dwg, [(window.x0, y), (window.x1, y)], closed=False, class_="overlap-mark", **dash))
        g.add(_text(dwg, f"page {below} from here (below)", (window.x0 + 2, y - 2), 2.8, anchor="start", fill=red))
    if above:
        y = window.y0 + OVERLAP
        g.add(_path(dwg, [(window.x0, y), (window.x1, y)], closed=False, class_="overlap-mark", **dash))
        g.add(_text(dwg, f"page {above} up to here (above)", (window.x1 - 2, y + 4), 2.8, anchor="end", fill=red))
    dwg.add(g)
