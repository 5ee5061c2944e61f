"""Colours and sizes of the printed map, in one place (light fills: maps are printed)."""

from __future__ import annotations

#: tile background by surface
TILE_FILL = {"gravel": "#e3ecd2", "asphalt": "#e4e4e4", "snow": "#f1f5fb", "none": "#ebe4d6"}
#: road body by surface
ROAD_FILL = {"gravel": "#dcc08e", "asphalt": "#808080", "snow": "#ffffff", "none": "#d8ccb4"}
ROAD_EDGE = {"gravel": "#8a6d3b", "asphalt": "#444444", "snow": "#5b7fa6", "none": "#8a6d3b"}
SCENERY_FILL = "#d5e4c4"
HEX_STROKE = "#555555"
SPACE_STROKE = "#222222"
SLIDE_STROKE = "#1f4fa0"
#: signpost colours (danger): low yellow, medium orange, high red
DANGER = {"low": "#f2c200", "medium": "#f07c00", "high": "#d41e1e", "none": "#9a9a9a"}
LIMIT_RING = "#c81414"
CHICANE_RING = "#f07c00"
SHORTCUT_FILL = "#f4e3a6"
SHORTCUT_STROKE = "#8a6d3b"
JOKER_FILL = "#cdb8ea"
PREGRID_FILL = "#b6d8ec"
WATER = "#2a7bd8"
#: the Starting Line: a solid bar (the finish is chequered)
START_LINE = "#1e7a34"
JUMP = "#1f1f1f"
TEXT = "#111111"
MUTED = "#555555"

#: car colours for the replay overlay (record colours are mapped, unknown ones drawn grey)
CAR_COLOURS = {
    "red": "#d41e1e", "blue": "#1f5fd0", "green": "#1e9a3c", "yellow": "#f2c200", "white": "#ffffff",
    "black": "#1a1a1a", "orange": "#f07c00", "purple": "#7b3fc4", "grey": "#8a8a8a", "gray": "#8a8a8a",
}

FONT = "DejaVu Sans, Arial, Helvetica, sans-serif"
