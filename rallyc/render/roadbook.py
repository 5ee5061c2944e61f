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
from rallyc.render.geometry import fmt
from rallyc.render.scene import Box, _attrs, _path, _text

__all__ = ["TileNeed", "tile_needs", "pacenotes", "turn_name", "render_roadbook"]


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


def _limits_text(spaces: Sequence[Space]) -> str:
    parts: list[str] = []
    corners: dict[str, dict[str, list[int]]] = {}
    for s in spaces:
        if s.method in ("in", "out") and s.limit is not None:
            corners.setdefault(s.corner or s.zone_key, {"in": [], "out": []})[s.method].append(s.limit)
    for key, c in sorted(corners.items()):
        ins = ",".join(map(str, c["in"])) or "-"
        outs = ",".join(map(str, c["out"])) or "-"
        parts.append(f"corner in {ins} / out {outs}")
    for s in spaces:
        if s.kind == "shortcut" and s.limit is not None:
            parts.append(f"shortcut {s.limit}")
        elif s.method is None and s.kind != "shortcut" and s.limit is not None:
            parts.append(f"limit {s.limit} ({s.lane})")
        if s.chicane is not None:
            parts.append(f"chicane {s.chicane} ({s.lane})")
    jumps = sorted({s.jump for s in spaces if s.jump is not None})
    parts += [f"jump {j}" for j in jumps]
    if any(s.water for s in spaces):
        parts.append("water")
    if any(s.start for s in spaces):
        parts.append("START")
    if any(s.after_finish for s in spaces) and not all(s.past_finish for s in spaces):
        parts.append("FINISH")
    return ", ".join(dict.fromkeys(parts)) or "-"


def pacenotes(track: Track) -> list[tuple[int, str, str, str]]:
    """(step, tile, turn, notes) for every route step in driving order."""
    out = []
    for p in track.steps:
        spaces = track.spaces_of_step(p.step)
        out.append((p.step, p.tile, turn_name(p.entry, p.exit), _limits_text(spaces)))
    return out


def render_roadbook(tracks: Sequence[Track], catalogue, *, title: str, author: str | None = None,
                    page: str = "a4") -> str:
    """The road book of some stages as one SVG page (A4 wide, as long as needed)."""
    pw, ph = PAGES.get(page, PAGES["a4"])
    margin = 12.0
    line_h = 5.0
    rows: list[tuple[str, str, float, str | None]] = []   # (kind, text, size, weight)
    for track in tracks:
        label = track.name + (f' "{track.title}"' if track.title else "")
        rows.append(("head", f"Stage {label}", 5.5, "bold"))
        rows.append(("sub", "Tiles to lay out (number: sides used, copies needed / in the box, box)", 3.6, "bold"))
        for need in tile_needs(track, catalogue):
            copies = "?" if need.copies is None else str(need.copies)
            warn = "  NOT ENOUGH COPIES" if need.short else ""
            rows.append(("tile", f"{need.number}: {' '.join(need.sides)}   {need.needed} / {copies}   "
                                 f"{need.box or 'unknown box'}{warn}", 3.4, None))
        boxes = sorted({n.box for n in tile_needs(track, catalogue) if n.box})
        rows.append(("tile", "Boxes needed: " + (", ".join(boxes) or "-"), 3.4, "bold"))
        rows.append(("sub", "Pacenotes (driving order: step, tile, turn, limits)", 3.6, "bold"))
        for step, tile, turn, notes in pacenotes(track):
            rows.append(("note", f"{step:>3}  {tile:<5} {turn:<10} {notes}", 3.4, None))
        rows.append(("gap", "", 3.0, None))
    height = max(ph, margin * 2 + 16 + sum(line_h * (r[2] / 3.4) for r in rows))
    dwg = new_drawing(pw, height, Box(0, 0, pw, height))
    dwg.add(svgwrite.base.Title(f"{title} - road book"))
    bg = dwg.rect()
    bg.attribs.update({"x": "0", "y": "0", "width": fmt(pw), "height": fmt(height), "fill": "#ffffff"})
    dwg.add(bg)
    body = _attrs(dwg.g(), id="roadbook")
    y = margin + 6
    body.add(_text(dwg, f"{title} - road book", (margin, y), 7.0, anchor="start", weight="bold"))
    if author:
        y += 6
        body.add(_text(dwg, f"by {author}", (margin, y), 4.0, anchor="start"))
    y += 6
    for kind, text, size, weight in rows:
        y += line_h * (size / 3.4)
        if kind == "gap":
            continue
        if kind == "head":
            body.add(_path(dwg, [(margin, y - size), (pw - margin, y - size)], closed=False,
                           stroke="#999999", stroke_width="0.3", fill="none"))
        x = margin + (4 if kind in ("tile", "note") else 0)
        attrs = {"class_": f"roadbook-{kind}"}
        if kind == "note":
            attrs["font_family"] = "DejaVu Sans Mono, Courier New, monospace"
            attrs["xml_space"] = "preserve"
        el = _text(dwg, text, (x, y), size, anchor="start", weight=weight,
                   fill="#d41e1e" if "NOT ENOUGH" in text else style.TEXT, **attrs)
        if "xml-space" in el.attribs:
            el.attribs["xml:space"] = el.attribs.pop("xml-space")
        body.add(el)
    dwg.add(body)
    return _pretty(dwg)
