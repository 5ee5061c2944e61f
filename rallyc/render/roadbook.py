"""The road book: what to take out of the boxes, and the pacenotes in driving order.

For each stage: the tiles it uses by physical tile number (both sides of a tile
are one piece of cardboard), how many copies it needs, how many the box holds
and which box; then one line per route step with the turn taken and the speed
limits, shortcuts, jumps, water and lines met on that step.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Sequence

import svgwrite

from rallyc.compiler.track import Space, Track
from rallyc.geometry.hexgrid import edge_index
from rallyc.render import style
from rallyc.render.document import PAGES, _pretty, new_drawing
from rallyc.render.geometry import Centreline, HexLayout, fmt
from rallyc.render.measure import text_width
from rallyc.render.scene import Box, _attrs, _path, _text

__all__ = ["TileNeed", "tile_needs", "pacenotes", "turn_name", "rotation_words", "render_roadbook"]


@dataclass(frozen=True)
class TileNeed:
    """One physical tile number a stage uses."""

    number: str
    sides: tuple[str, ...]
    needed: int
    copies: int | None
    box: str | None

    @property
    def short(self) -> bool:
        return self.copies is not None and self.needed > self.copies


def turn_name(entry: str | None, exit: str | None) -> str:
    """The turn taken through a tile from its world entry and exit edges."""
    if entry is None:
        return "-"
    if exit is None:
        return "dead end"
    diff = (edge_index(exit) - edge_index(entry)) % 6
    return {3: "straight", 2: "left 60", 4: "right 60", 1: "left 120", 5: "right 120"}.get(diff, "other")


def tile_needs(track: Track, catalogue) -> list[TileNeed]:
    """The tile numbers a track uses (road tiles and fillers), sorted by number."""
    used: Counter[str] = Counter()
    sides: dict[str, set[str]] = {}
    seen_cells: set[tuple[str, int, int]] = set()
    for p in track.placed:
        number = p.tile[:3]
        # a tile driven twice (two roads, e.g. 414b) is one piece on one cell
        if (number, p.q, p.r) in seen_cells:
            continue
        seen_cells.add((number, p.q, p.r))
        used[number] += 1
        sides.setdefault(number, set()).add(p.tile)
    out = []
    for number in sorted(used):
        info = None
        if catalogue is not None:
            for tid in sorted(sides[number]):
                info = catalogue.get(tid)
                if info is not None:
                    break
        out.append(TileNeed(number, tuple(sorted(sides[number])), used[number],
                            info.copies if info else None, info.box if info else None))
    return out


_LANES = {"l": "left", "r": "right", "m": "middle", "ml": "middle left", "mr": "middle right"}
_EDGE_WORDS = ("top", "upper right", "lower right", "bottom", "lower left", "upper left")


def rotation_words(rot: int) -> str:
    """Where a tile's printed edge A lies once laid: ``rot 2: A lower right``."""
    return f"rot {rot % 6}: A {_EDGE_WORDS[rot % 6]}"


def _limits_text(spaces: Sequence[Space]) -> str:
    """What the driver meets on a step, in the rulebook's words (no internal lane ids)."""
    parts: list[str] = []
    corners: dict[str, dict[str, list[int]]] = {}
    for s in spaces:
        if s.method in ("in", "out") and s.limit is not None:
            corners.setdefault(s.corner or s.zone_key, {"in": [], "out": []})[s.method].append(s.limit)
    for key, c in sorted(corners.items()):
        ins = ",".join(map(str, c["in"])) or "-"
        outs = ",".join(map(str, c["out"])) or "-"
        parts.append(f"corner in {ins} / out {outs}")
    plain: dict[int | None, dict[str, int]] = {}
    for s in spaces:
        if s.kind == "shortcut" and s.limit is not None:
            parts.append(f"shortcut {s.limit}")
        elif s.method is None and s.kind != "shortcut" and s.limit is not None:
            plain.setdefault(s.zone, {})[s.lane] = s.limit
        if s.chicane is not None:
            parts.append(f"chicane {s.chicane}" + (f" ({_LANES[s.lane]} lane)" if s.lane in _LANES else ""))
    for zone, lanes in sorted(plain.items(), key=lambda kv: (kv[0] is None, kv[0] or 0)):
        values = sorted(set(lanes.values()))
        if len(values) == 1:
            parts.append(f"limit {values[0]}")
        else:
            parts.append("limit " + " / ".join(f"{v} {_LANES.get(lane, '')}".strip()
                                               for lane, v in sorted(lanes.items())))
    jumps = sorted({s.jump for s in spaces if s.jump is not None})
    parts += [f"jump {j}" for j in jumps]
    if any(s.water for s in spaces):
        parts.append("water")
    if any(s.joker for s in spaces):
        parts.append("Joker lap")
    if any(s.pregrid for s in spaces):
        parts.append("Pre-grid")
    if any(s.start for s in spaces):
        parts.append("START")
    if any(s.after_finish for s in spaces) and not all(s.past_finish for s in spaces):
        parts.append("FINISH")
    return ", ".join(dict.fromkeys(parts)) or "-"


def _turn(p, catalogue) -> str:
    """The turn through a step's tile; a road between opposite edges with a corner is an S-bend."""
    name = turn_name(p.entry, p.exit)
    info = catalogue.get(p.tile) if catalogue is not None else None
    if info is not None and name == "straight":
        roads = info.definition.roads
        k = (p.road or 1) - 1
        if 0 <= k < len(roads) and roads[k].turn in ("s-bend", "other"):
            return "S-bend" if roads[k].turn == "s-bend" else "double bend"
    return name


def pacenotes(track: Track, catalogue=None) -> list[tuple[int, str, str, str]]:
    """(step, tile, turn, notes) for every route step in driving order."""
    by_step: dict[int, list[Space]] = {}
    for s in track.spaces.values():
        by_step.setdefault(s.step, []).append(s)
    out = []
    for p in track.steps:
        spaces = sorted(by_step.get(p.step, []), key=lambda s: (s.progress, s.id))
        out.append((p.step, p.tile, _turn(p, catalogue), _limits_text(spaces)))
    return out


@dataclass
class _Row:
    kind: str
    text: str
    size: float
    weight: str | None = None
    placed: object = None  # a PlacedTile: draw its thumbnail
    #: a table row's cells (the column heads, a step's row), drawn in the columns of ``COLUMNS``
    cells: tuple[str, ...] = ()
    #: the left edge of each cell (mm from the first)
    edges: tuple[float, ...] = ()

    @property
    def height(self) -> float:
        return max(self.size * 1.55, THUMB + 1.2) if self.placed is not None else self.size * 1.6


#: thumbnail size (mm, corner to corner)
THUMB = 9.0


def _tile_rows(track: Track, catalogue) -> list[_Row]:
    """The tiles to lay out: one row per tile number, then the boxes needed."""
    rows: list[_Row] = []
    needs = tile_needs(track, catalogue)
    scenery = {p.tile[:3] for p in track.placed if p.scenery}
    road = {p.tile[:3] for p in track.placed if not p.scenery}
    rows.append(_Row("sub", "Tiles to lay out (number: sides used, copies needed / in the box, box)", 3.4, "bold"))
    for need in needs:
        copies = "?" if need.copies is None else str(need.copies)
        warn = "  NOT ENOUGH COPIES" if need.short else ""
        optional = "  (scenery, optional)" if need.number in scenery and need.number not in road else ""
        rows.append(_Row("tile", f"{need.number}: {' '.join(need.sides)}   {need.needed} / {copies}   "
                                 f"{need.box or 'unknown box'}{optional}{warn}", 3.0))
    boxes = sorted({n.box for n in needs if n.box and n.number in road})
    extra = sorted({n.box for n in needs if n.box and n.number not in road} - set(boxes))
    rows.append(_Row("tile", "Boxes needed: " + (", ".join(boxes) or "-")
                     + (f" (scenery only, optional: {', '.join(extra)})" if extra else ""), 3.0, "bold"))
    return rows


def _rows(tracks: Sequence[Track], catalogue, width: float = 171.0) -> list[_Row]:
    """The rows of the road book; a pacenotes table fits ``width`` mm (its text smaller, down to 7 pt, if it must)."""
    rows: list[_Row] = []
    for track in tracks:
        label = track.name + (f' "{track.title}"' if track.title and track.title != track.name else "")
        kind = "Circuit" if track.kind == "circuit" else "Stage"
        rows.append(_Row("head", f"{kind} {label}", 5.0, "bold"))
        if track.kind == "circuit":
            joker = sorted({s.step for s in track.spaces.values() if s.joker})
            pregrid = sorted({s.step for s in track.spaces.values() if s.pregrid})
            rows.append(_Row("info", f"{track.laps or '?'} laps; Joker lap on steps "
                                     f"{', '.join(f'#{n}' for n in joker) or '-'}; Pre-grid on steps "
                                     f"{', '.join(f'#{n}' for n in pregrid) or '-'}", 3.2, "bold"))
        rows += _tile_rows(track, catalogue)
        rows.append(_Row("sub", "Pacenotes in driving order", 3.4, "bold"))
        placed = {p.step: p for p in track.steps}
        table = [_Row("columns", "", 2.8, "bold", cells=COLUMNS)]
        for step, tile, turn, notes in pacenotes(track, catalogue):
            p = placed[step]
            pacenote, marks = _split_notes(notes)
            table.append(_Row("note", "", 3.0, placed=p,
                              cells=(f"#{step}", tile, rotation_words(p.rot), turn, pacenote, marks)))
        _fit_table(table, width)
        rows += table
        rows.append(_Row("gap", "", 3.0))
    return rows


#: the columns of the pacenotes table: head and left edge (mm from the text's start)
COLUMNS = ("step", "tile", "laid", "turn", "pacenote", "notes")
#: the space between two columns (mm)
_GUTTER = 3.0
#: what the driver meets that marks the step rather than limits the speed (the notes column)
_MARKS = ("START", "FINISH", "Joker lap", "Pre-grid")


def _column_edges(table: Sequence[_Row]) -> tuple[float, ...]:
    """The left edge of each column of a pacenotes table: each column as wide as its widest cell (the
    estimate of ``rallyc.render.measure``, which is wider than the fonts), then a gutter."""
    edges, x = [], 0.0
    for k in range(len(COLUMNS)):
        edges.append(x)
        x += max(text_width(r.cells[k], r.size, r.weight == "bold") for r in table) + _GUTTER
    return tuple(edges)


def _fit_table(table: Sequence[_Row], width: float) -> None:
    """Set the column edges of a table, its text made smaller (not under 7 pt) until it fits ``width``."""
    edges = _column_edges(table)
    least = 7.0 * 25.4 / 72
    while edges[-1] + max(text_width(r.cells[-1], r.size, r.weight == "bold") for r in table) > width \
            and min(r.size for r in table) * 0.95 >= least:
        for row in table:
            row.size *= 0.95
        edges = _column_edges(table)
    for row in table:
        row.edges = edges


def _split_notes(notes: str) -> tuple[str, str]:
    """(pacenote, notes) of a step's text: the limits, corners, shortcuts, jumps and water; the lines and laps."""
    parts = [] if notes == "-" else notes.split(", ")
    pace = [p for p in parts if p not in _MARKS]
    marks = [p for p in parts if p in _MARKS]
    return ", ".join(pace) or "-", ", ".join(marks)


def render_roadbook(tracks: Sequence[Track], catalogue, *, title: str, author: str | None = None,
                    page: str = "a4", landscape: bool = False) -> list[str]:
    """The road book of some stages as pages of ``page`` size: tiles to take out, then one line per tile
    with a thumbnail of the tile turned as it is laid."""
    pw, ph = PAGES.get(page, PAGES["a4"])
    if landscape:
        pw, ph = ph, pw
    margin = 12.0
    rows = _rows(tracks, catalogue, pw - 2 * margin - 4 - THUMB - 2)
    pages: list[list[_Row]] = [[]]
    top = margin + 14.0
    y = top
    for row in rows:
        if y + row.height > ph - margin - 6 and pages[-1]:
            pages.append([])
            y = top
        pages[-1].append(row)
        y += row.height
    out = []
    for n, rows_here in enumerate(pages, start=1):
        out.append(_page(rows_here, catalogue, title, author if n == 1 else None, n, len(pages), pw, ph, margin))
    return out


def _page(rows: list[_Row], catalogue, title: str, author: str | None, n: int, total: int, pw: float, ph: float,
          margin: float) -> str:
    dwg = new_drawing(pw, ph, Box(0, 0, pw, ph))
    dwg.add(svgwrite.base.Title(f"{title} - road book, page {n} of {total}"))
    bg = dwg.rect()
    bg.attribs.update({"x": "0", "y": "0", "width": fmt(pw), "height": fmt(ph), "fill": "#ffffff"})
    dwg.add(bg)
    body = _attrs(dwg.g(), id="roadbook")
    body.add(_text(dwg, f"{title} - road book", (margin, margin + 3), 6.0, anchor="start", weight="bold",
                   class_="roadbook-title"))
    body.add(_text(dwg, (f"by {author} - " if author else "") + f"page {n} of {total}", (margin, margin + 9), 3.2,
                   anchor="start", fill=style.MUTED, class_="roadbook-page"))
    y = margin + 14.0
    for row in rows:
        cy = y + row.height / 2
        y += row.height
        if row.kind == "gap":
            continue
        if row.kind == "head":
            body.add(_path(dwg, [(margin, y - row.height), (pw - margin, y - row.height)], closed=False,
                           stroke="#999999", stroke_width="0.3", fill="none"))
        x = margin + (4 if row.kind in ("tile", "note", "info", "columns") else 0)
        if row.cells:
            body.add(_table_row(dwg, row, (x, y - row.height), pw - margin, catalogue))
            continue
        body.add(_text(dwg, row.text, (x, cy - 0.07 * row.size), row.size, anchor="start", weight=row.weight,
                       fill="#d41e1e" if "NOT ENOUGH" in row.text else style.TEXT, class_=f"roadbook-{row.kind}"))
    dwg.add(body)
    return _pretty(dwg)


def _table_row(dwg, row: _Row, at: tuple[float, float], right: float, catalogue):
    """One row of the pacenotes table (or its heads): every other step on a light band, the thumbnail of the
    tile as laid, then each cell at its column's edge."""
    x, y = at
    cy = y + row.height / 2
    g = _attrs(dwg.g(), class_=f"roadbook-{row.kind}")
    if row.placed is not None:
        if getattr(row.placed, "step", 1) % 2 == 0:
            band = dwg.rect()
            band.attribs.update({"x": fmt(x - 1), "y": fmt(y), "width": fmt(right - x + 1), "height": fmt(row.height),
                                 "fill": "#f0f0f0", "class": "roadbook-band"})
            g.add(band)
        g.add(_thumbnail(dwg, row.placed, catalogue, (x + THUMB / 2, cy)))
    x += THUMB + 2
    muted = row.kind == "columns"
    for cell, left in zip(row.cells, row.edges):
        g.add(_text(dwg, cell, (x + left, cy - 0.07 * row.size), row.size, anchor="start", weight=row.weight,
                    fill=style.MUTED if muted else style.TEXT, class_="roadbook-cell"))
    return g


def _thumbnail(dwg, p, catalogue, at: tuple[float, float]):
    """The tile as laid, small: its hexagon, the road driven (entry to exit) and a bar on its edge A."""
    layout = HexLayout(THUMB / 2)
    g = _attrs(dwg.g(), class_="thumbnail", data_tile=p.tile, data_rot=str(p.rot))
    corners = [(x + at[0], y + at[1]) for x, y in layout.corners(0, 0)]
    info = catalogue.get(p.tile) if catalogue is not None else None
    surface = info.surface if info is not None else "gravel"
    g.add(_path(dwg, corners, fill=style.TILE_FILL.get(surface, style.TILE_FILL["gravel"]), stroke=style.HEX_STROKE,
                stroke_width="0.15"))
    if p.entry is not None:
        line = Centreline(layout, 0, 0, edge_index(p.entry), edge_index(p.exit) if p.exit else None)
        band = [(x + at[0], y + at[1]) for x, y in line.band(0.0, 1.0, 0.25 * layout.size, -0.25 * layout.size)]
        g.add(_path(dwg, band, fill=style.ROAD_FILL.get(surface, style.ROAD_FILL["gravel"]),
                    stroke=style.ROAD_EDGE.get(surface, "#444444"), stroke_width="0.12"))
        tip = line.at(0.62, 0.0)
        a, b = line.at(0.5, 0.1 * layout.size), line.at(0.5, -0.1 * layout.size)
        g.add(_path(dwg, [(a[0] + at[0], a[1] + at[1]), (tip[0] + at[0], tip[1] + at[1]), (b[0] + at[0], b[1] + at[1])],
                    closed=False, fill="none", stroke="#333333", stroke_width="0.25"))
    k = p.rot % 6
    c0, c1 = corners[(k - 1) % 6], corners[k]
    g.add(_path(dwg, [c0, c1], closed=False, fill="none", stroke=style.TEXT, stroke_width="0.6", class_="edge-a-bar"))
    return g
