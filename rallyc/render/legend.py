"""The legend: what this map uses, each symbol drawn as on the map, wrapped into rows.

Sizes are given in printed millimetres and drawn in model units (``unit`` model mm per printed
mm), so the legend prints at the same size whatever the map's scale. Only what the map shows is
listed, plus the marks every map has (driving direction, edge A, signposts).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from rallyc.compiler.track import Track
from rallyc.render import patterns, style
from rallyc.render.geometry import Point, fmt
from rallyc.render.measure import PT_MM, text_width
from rallyc.render.scene import _attrs, _circle, _path, _signpost, _text

__all__ = ["LEGEND_PT", "map_features", "LegendLayout", "layout_legend", "draw_legend"]

#: legend text size in points
LEGEND_PT = 7.0
_TEXT = LEGEND_PT * PT_MM
_SYMBOL = 2.2 * _TEXT
_GAP = 1.2 * _TEXT
_ROW = 2.0 * _TEXT


def map_features(track: Track, catalogue, scenery: bool = True, ids: bool = False) -> list[str]:
    """The keys of the legend entries ``track``'s map needs, in legend order (``ids``: the map prints space ids)."""
    spaces = list(track.spaces.values())
    found: set[str] = {"direction", "edge-a"} | ({"space-id"} if ids else set())
    for s in spaces:
        if s.limit is not None:
            found.add("limit")
        if s.surface in ("gravel", "asphalt", "snow"):
            found.add(s.surface)
        if s.kind == "slide":
            found.add("slide")
        if s.kind == "shortcut":
            found.add("shortcut")
        if s.jump is not None:
            found.add("jump")
        if s.water:
            found.add("water")
        if s.chicane is not None:
            found.add("chicane")
        if s.joker:
            found.add("joker")
        if s.pregrid:
            found.add("pregrid")
        if s.start:
            found.add("start")
        if s.after_finish:
            found.add("finish")
    if track.kind == "circuit" and {"start", "finish"} & found:
        found -= {"start", "finish"}
        found.add("start-finish")
    for p in track.placed:
        if p.scenery:
            if scenery:
                found.add("scenery")
            continue
        info = catalogue.get(p.tile) if catalogue is not None else None
        if info is None:
            continue
        for d in info.definition.danger:
            if d in ("low", "medium", "high"):
                found.add(f"danger-{d}")
        if any(road.exit == "end" for road in info.definition.roads):
            found.add("assistance")
        if info.limit_lines:
            found.add("limit-line")  # an RX fork tile: rallyc.render.limitlines draws its line
    if getattr(track, "standees", ()):
        found.add("standee")
    return [k for k in _ORDER if k in found]


_ORDER = ["limit", "limit-line", "gravel", "asphalt", "snow", "slide", "shortcut", "jump", "water", "chicane", "danger-low",
          "danger-medium", "danger-high", "direction", "edge-a", "start", "finish", "start-finish", "standee",
          "joker", "pregrid", "assistance", "scenery", "space-id"]

_WORDS = {
    "limit": "speed limit", "limit-line": "speed-limit line", "gravel": "gravel", "asphalt": "asphalt", "snow": "snow", "slide": "slide zone",
    "shortcut": "shortcut", "jump": "jump (gear)", "water": "water", "chicane": "chicane limit",
    "danger-low": "danger low", "danger-medium": "medium", "danger-high": "high",
    "direction": "driving direction", "edge-a": "tile edge A", "start": "start line", "finish": "finish line",
    "start-finish": "start / finish line", "standee": "RX standee", "joker": "Joker lap", "pregrid": "Pre-grid",
    "assistance": "Assistance", "scenery": "scenery (optional)",
    "space-id": "space id: step.zone.lane (the step from the tile's #)",
}


@dataclass
class LegendLayout:
    """Where each entry goes (printed mm from the legend's top left) and the legend's size."""

    entries: list[tuple[str, float, float]]
    width: float
    height: float


def layout_legend(keys: list[str], max_width: float) -> LegendLayout:
    """Entries in rows no wider than ``max_width`` printed mm."""
    entries = []
    x = y = 0.0
    width = 0.0
    for key in keys:
        w = _SYMBOL + 0.6 * _TEXT + text_width(_WORDS[key], _TEXT)
        if x > 0 and x + w > max_width:
            x, y = 0.0, y + _ROW
        entries.append((key, x, y))
        width = max(width, x + w)
        x += w + _GAP
    return LegendLayout(entries, width, (y + _ROW) if keys else 0.0)


def draw_legend(dwg, layout: LegendLayout, origin: Point, unit: float):
    """The legend group at ``origin`` (model mm), ``unit`` model mm per printed mm."""
    g = _attrs(dwg.g(), id="legend", class_="legend")
    for key, x, y in layout.entries:
        x0, cy = origin[0] + x * unit, origin[1] + (y + _ROW / 2) * unit
        _SYMBOLS[key](dwg, g, x0, cy, _SYMBOL * unit, unit)
        g.add(_text(dwg, _WORDS[key], (x0 + (_SYMBOL + 0.6 * _TEXT) * unit, cy), _TEXT * unit, anchor="start",
                    class_="legend-text"))
    return g


def _box(x: float, cy: float, s: float) -> list[Point]:
    return [(x, cy - s / 2), (x + s, cy - s / 2), (x + s, cy + s / 2), (x, cy + s / 2)]


def _limit(dwg, g, x, cy, s, u):
    g.add(_circle(dwg, (x + s / 2, cy), s / 2, fill="#ffffff", stroke=style.LIMIT_RING, stroke_width=fmt(0.4 * u)))
    g.add(_text(dwg, "3", (x + s / 2, cy - 0.05 * s), 0.7 * s, weight="bold"))


def _limit_line(dwg, g, x, cy, s, u):
    g.add(_path(dwg, [(x + s / 2, cy - s / 2), (x + s / 2, cy + s / 2)], closed=False, fill="none",
                stroke=style.LIMIT_RING, stroke_width=fmt(0.5 * u)))
    g.add(_circle(dwg, (x + s / 2, cy), 0.36 * s, fill="#ffffff", stroke=style.LIMIT_RING, stroke_width=fmt(0.3 * u)))
    g.add(_text(dwg, "4", (x + s / 2, cy - 0.04 * s), 0.5 * s, weight="bold"))


def _surface(name: str):
    def draw(dwg, g, x, cy, s, u):
        g.add(_path(dwg, _box(x, cy, s), fill=patterns.fill(f"road-{name}"), stroke=style.ROAD_EDGE[name],
                    stroke_width=fmt(0.3 * u)))
    return draw


def _slide(dwg, g, x, cy, s, u):
    g.add(_path(dwg, _box(x, cy, s), fill=patterns.fill("road-gravel"), stroke=style.ROAD_EDGE["gravel"],
                stroke_width=fmt(0.3 * u)))
    g.add(_path(dwg, [(x + s / 2, cy - s / 2), (x + s / 2, cy + s / 2)], closed=False, fill="none",
                stroke=style.SLIDE_STROKE, stroke_width=fmt(0.4 * u), stroke_dasharray=f"{fmt(0.6 * u)},{fmt(0.4 * u)}"))


def _shortcut(dwg, g, x, cy, s, u):
    g.add(_path(dwg, [(x, cy + s / 2), (x + s, cy + s / 2), (x + s / 2, cy - s / 2)], fill=patterns.fill("shortcut"),
                stroke=style.SHORTCUT_STROKE, stroke_width=fmt(0.3 * u)))


def _jump(dwg, g, x, cy, s, u):
    g.add(_path(dwg, [(x, cy + s / 3), (x + s / 4, cy - s / 3), (x + s / 2, cy + s / 3)], closed=False, fill="none",
                stroke=style.JUMP, stroke_width=fmt(0.3 * u)))
    g.add(_text(dwg, "J4", (x + 0.8 * s, cy - 0.05 * s), 0.45 * s, weight="bold"))


def _water(dwg, g, x, cy, s, u):
    g.add(_path(dwg, [(x + i * s / 6, cy + (0.15 if i % 2 else -0.15) * s) for i in range(7)], closed=False,
                fill="none", stroke=style.WATER, stroke_width=fmt(0.35 * u)))


def _chicane(dwg, g, x, cy, s, u):
    g.add(_circle(dwg, (x + s / 2, cy), s / 2, fill="#ffffff", stroke=style.CHICANE_RING, stroke_width=fmt(0.4 * u),
                  stroke_dasharray=f"{fmt(0.6 * u)},{fmt(0.3 * u)}"))
    g.add(_text(dwg, "C", (x + s / 2, cy - 0.05 * s), 0.7 * s, weight="bold"))


def _danger(level: str):
    def draw(dwg, g, x, cy, s, u):
        g.add(_signpost(dwg, (x + s / 2, cy), level, 0.35 * s, stroke_width=fmt(0.2 * u)))
    return draw


def _direction(dwg, g, x, cy, s, u):
    g.add(_path(dwg, [(x + 0.2 * s, cy - 0.35 * s), (x + 0.7 * s, cy), (x + 0.2 * s, cy + 0.35 * s)], closed=False,
                fill="none", stroke="#333333", stroke_width=fmt(0.4 * u)))


def _edge_a(dwg, g, x, cy, s, u):
    g.add(_path(dwg, [(x, cy - s / 2), (x + s, cy - s / 2)], closed=False, fill="none", stroke=style.TEXT,
                stroke_width=fmt(0.6 * u)))
    g.add(_text(dwg, "A", (x + s / 2, cy + 0.1 * s), 0.6 * s, weight="bold"))


def _finish(dwg, g, x, cy, s, u):
    c = s / 4
    for row in range(2):
        for i in range(4):
            g.add(_path(dwg, _box(x + i * c, cy - c / 2 + row * c, c), stroke="none",
                        fill="#111111" if (i + row) % 2 == 0 else "#ffffff"))
    g.add(_path(dwg, [(x, cy - c), (x + s, cy - c), (x + s, cy + c), (x, cy + c)], fill="none", stroke="#111111",
                stroke_width=fmt(0.15 * u)))


def _start(dwg, g, x, cy, s, u):
    g.add(_path(dwg, [(x, cy - s / 6), (x + s, cy - s / 6), (x + s, cy + s / 6), (x, cy + s / 6)],
                fill=style.START_LINE, stroke="none"))
    for i in range(1, 4):
        g.add(_path(dwg, [(x + i * s / 4, cy - s / 6), (x + i * s / 4, cy + s / 6)], closed=False, fill="none",
                    stroke="#ffffff", stroke_width=fmt(0.3 * u)))


def _start_finish(dwg, g, x, cy, s, u):
    _finish(dwg, g, x, cy - s / 6, s, u)
    g.add(_path(dwg, [(x, cy + s / 6), (x + s, cy + s / 6), (x + s, cy + s / 2.5), (x, cy + s / 2.5)],
                fill=style.START_LINE, stroke="none"))


def _standee(dwg, g, x, cy, s, u):
    g.add(_path(dwg, [(x, cy), (x + s, cy)], closed=False, fill="none", stroke="#7b3fc4", stroke_width=fmt(0.6 * u)))
    for end in (x, x + s):
        g.add(_circle(dwg, (end, cy), 0.12 * s, fill="#7b3fc4"))


def _fill(role: str):
    def draw(dwg, g, x, cy, s, u):
        g.add(_path(dwg, _box(x, cy, s), fill=patterns.fill(role), stroke=style.SPACE_STROKE, stroke_width=fmt(0.2 * u)))
    return draw


def _assistance(dwg, g, x, cy, s, u):
    g.add(_path(dwg, _box(x, cy, s), fill=patterns.fill("road-none"), stroke="#333333", stroke_width=fmt(0.3 * u),
                stroke_dasharray=f"{fmt(0.8 * u)},{fmt(0.4 * u)}"))


def _space_id(dwg, g, x, cy, s, u):
    g.add(_text(dwg, "2.l", (x + s / 2, cy), 0.55 * s, fill=style.MUTED))


_SYMBOLS: dict[str, Callable] = {
    "space-id": _space_id,
    "limit": _limit, "limit-line": _limit_line, "gravel": _surface("gravel"), "asphalt": _surface("asphalt"), "snow": _surface("snow"),
    "slide": _slide, "shortcut": _shortcut, "jump": _jump, "water": _water, "chicane": _chicane,
    "danger-low": _danger("low"), "danger-medium": _danger("medium"), "danger-high": _danger("high"),
    "direction": _direction, "edge-a": _edge_a, "start": _start, "finish": _finish, "start-finish": _start_finish,
    "standee": _standee, "joker": _fill("joker"), "pregrid": _fill("pregrid"),
    "assistance": _assistance, "scenery": _fill("scenery"),
}
