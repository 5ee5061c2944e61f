"""Small tracks for tests, examples and bot games, written as one line of zones.

A sketch is a line of zones, tiles separated by ``|``::

    N N S N | !medium D C(2;3,3,3)R D cut3(1,3) | N jump4 water F N N

Zones (each one route zone, 2 lanes ``l``/``r``): ``N`` plain, ``N/3`` plain with limit 3 on both lanes,
``D`` slide zone (lanes + full-width halves ``s1``/``s2``), ``C(IN;OUT)R`` or ``...L`` a corner turning
right/left (inside limits; outside limits; e.g. ``C(2;3,3,3)R``), ``jumpN`` a plain zone with a Gear N
jump, ``water`` a plain zone with a Water Hazard, ``W`` (``W/3``) one full-width space (a ``wide`` zone: on
snow a mandatory snow slide, MC-SNOW-01). Markers: ``S`` the Starting Line (the zone before it
holds the start spaces), ``F`` the finish line (the next zone is the first after the line). Per tile:
``!low``/``!medium``/``!high`` danger colour, ``~gravel``/``~asphalt``/``~snow`` surface (default: the
``surface`` argument), ``cutN(a,b)`` a Shortcut of limit N joining zones a and b
of that tile. ``sketch(..., assistance=True)`` adds the Assistance tile; ``tokens=["chicane limit 2 at
2.1.l"]`` puts Road Effects tokens (the language's ``token`` statement) on the stage.

A sketch is only shorthand: it is turned into rallyc source (a tileset of made-up straight tiles,
numbered from 801, and a stage driving them in a row) and compiled by the real compiler, so a
sketched track has exactly the spaces and moves a written one would. Space ids follow the Track
contract: ``STEP.ZONE.LANE`` and ``STEP.cutK``.
"""

from __future__ import annotations

import re

from rallyc.compilation.pipeline import compile_loaded
from rallyc.compiler.track import Track
from rallyc.diagnostics import has_errors
from rallyc.project.loader import load_text

__all__ = ["sketch", "sketch_source", "SketchError"]


class SketchError(ValueError):
    """A sketch that is not a stage: ``column`` (from 1) is where in the sketch text the problem is, when known."""

    def __init__(self, message: str, column: int | None = None) -> None:
        super().__init__(message if column is None else f"{message} (column {column})")
        self.message = message
        self.column = column

_CORNER = re.compile(r"C\(([\d,]*);([\d,]*)\)([LR]?)$")
_CUT = re.compile(r"cut(\d+)\((\d+),(\d+)\)$")
_FIRST_NUMBER = 801
_DANGERS = ("low", "medium", "high")
_SURFACES = ("gravel", "asphalt", "snow")


#: the sketch's markers: the Starting Line, the finish line
_MARKERS = {"S": "start", "F": "finish"}
#: the sketch's straight zones, as lines of a rallyc road
_STRAIGHT = {"D": "slide", "N": "plain", "water": "plain water"}


def _zone(tok: str) -> str:
    """One sketch zone as a line of a rallyc road."""
    cm = _CORNER.match(tok)
    if cm:
        return _corner(cm)
    kind, _, limit = tok.partition("/")
    if limit and not _gear(limit):
        raise ValueError(f"`{tok}`: a limit after `/` is a gear 1 to 6")
    jump = kind.startswith("jump")
    if jump and not _gear(kind[4:]):
        raise ValueError(f"`{tok}`: a jump is `jumpN` with a gear N of 1 to 6")
    if kind == "W":
        return "wide" + (f" limit {int(limit)}" if limit else "")
    if jump:
        line = f"plain jump {int(kind[4:])}"
    elif kind in _STRAIGHT:
        line = _STRAIGHT[kind]
    else:
        raise ValueError(f"unknown zone `{tok}` (zones: N, D, W, C(IN;OUT)L/R, jumpN, water; markers S, F, "
                         "!danger, ~surface, cutN(a,b))")
    if limit:
        line += f" limit {int(limit)} {int(limit)}"
    return line


def _gear(text: str) -> bool:
    """``text`` is a gear 1 to 6 (one or two ASCII digits)."""
    return text.isascii() and text.isdigit() and len(text) <= 2 and 1 <= int(text) <= 6


def _corner(cm: re.Match[str]) -> str:
    """A sketch corner ``C(IN;OUT)R`` or ``...L`` as a line of a rallyc road."""
    side = "left" if cm.group(3) == "L" else "right"
    inside = " ".join(x for x in cm.group(1).split(",") if x)
    outside = " ".join(x for x in cm.group(2).split(",") if x)
    return f"corner {side} inside {inside} outside {outside}"


def _tile(part: str, offset: int, surface: str) -> tuple[str, str, list[str], list[str]]:
    """One tile of a sketch (``part``, from column ``offset + 1``): its danger colour, its surface, the lines of its
    road (zones, the Starting Line, the finish line) and its shortcuts."""
    danger = "low"
    tile_surface = surface
    body: list[str] = []
    cuts: list[str] = []
    for m_tok in re.finditer(r"\S+", part):
        tok, column = m_tok.group(), offset + m_tok.start() + 1
        try:
            if tok.startswith("!"):
                danger = tok[1:]
                if danger not in _DANGERS:
                    raise ValueError(f"`{tok}`: a danger colour is !low, !medium or !high")
            elif tok.startswith("~"):
                tile_surface = tok[1:]
                if tile_surface not in _SURFACES:
                    raise ValueError(f"`{tok}`: a surface is ~gravel, ~asphalt or ~snow")
            elif tok in _MARKERS:
                body.append(_MARKERS[tok])
            elif (m := _CUT.match(tok)):
                if any(len(g) > 2 for g in m.groups()):
                    raise ValueError(f"`{tok}`: shortcut numbers are small (a limit 1..6, zones of this tile)")
                cuts.append(f"shortcut {int(m.group(1))} from {int(m.group(2))} to {int(m.group(3))}")
            else:
                zone = _zone(tok)
                if any(len(n) > 2 for n in re.findall(r"\d+", tok)):
                    raise ValueError(f"`{tok}`: a limit is a gear 1 to 6")
                body.append(zone)
        except ValueError as exc:
            raise SketchError(f"sketch: {exc}", column) from None
    return danger, tile_surface, body, cuts


def sketch_source(text: str, name: str = "sketch", *, surface: str = "gravel", assistance: bool = False,
                  tokens: tuple[str, ...] | list[str] = ()) -> str:
    """The rallyc source a sketch stands for: a tileset of its tiles and a stage driving them."""
    tiles: list[str] = []
    steps: list[str] = []
    offset = 0
    for i, part in enumerate(text.split("|")):
        number = _FIRST_NUMBER + i
        danger, tile_surface, body, cuts = _tile(part, offset, surface)
        if not any(b not in ("start", "finish") for b in body):
            raise SketchError(f"sketch: tile {i + 1} has no zone (tiles are separated by `|`)", offset + 1)
        offset += len(part) + 1
        lines = "\n".join(f"      {b}" for b in body + cuts)
        tiles.append(f"  tile {number}a {tile_surface} danger {danger} copies 1 {{\n"
                     f"    road D -> A straight {{\n{lines}\n    }}\n  }}")
        steps.append(f"  {number}a")
    if assistance:
        steps.append("  201a")
    steps.extend(f"  token {t}" for t in tokens)
    return ("tileset sketch {\n" + "\n".join(tiles) + "\n}\n\n"
            f"stage {name} {{\n" + "\n".join(steps) + "\n}\n")


def sketch(text: str, name: str = "sketch", *, surface: str = "gravel", assistance: bool = False,
           tokens: tuple[str, ...] | list[str] = ()) -> Track:
    """Build and compile a :class:`Track` from a sketch (see the module docstring).

    Raises :class:`SketchError` (a ValueError) when the sketch does not make a legal stage.
    """
    if not isinstance(text, str):
        raise SketchError("sketch: a sketch is a text of zones")
    source = sketch_source(text, name, surface=surface, assistance=assistance, tokens=tokens)
    result = compile_loaded(load_text(source, "<sketch>"))
    errors = [d for d in result.diagnostics if d.severity.value == "error"]
    if has_errors(result.diagnostics) or not result.designs:
        raise SketchError(f"sketch `{text}` is not a legal stage: " + "; ".join(d.message for d in errors))
    return result.designs[0].track(name)
