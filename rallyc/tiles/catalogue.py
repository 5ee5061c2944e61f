"""The tile catalogue: every tile side in scope, by id, with its box and copies.

Tiles are data written in the rallyc language (``tilesets/``); this module only
indexes them. Tile ids are written as a three-digit number and a side
(``210b``); 101 has one face. Aliases used by other editors (``filler1a``,
``podium``, upper case, graphical variants ``-V``) are normalised here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import get_close_matches
from functools import cached_property, lru_cache

from rallyc.model.tiles import TileRole
from rallyc.syntax import ast

__all__ = ["TileInfo", "Catalogue", "normalize_id", "box_of", "BOX_TITLES", "BOX_RANGES", "describe_road",
           "road_summary", "lanes_at"]

#: The bundled boxes (tileset names) with their titles, in catalogue order.
BOX_TITLES: dict[str, str] = {
    "gt-core": "Rallyman: GT core box",
    "gt-championship": "Rallyman: GT Championship",
    "gt-world-tour": "Rallyman: GT World Tour",
    "gt-team-challenge": "Rallyman: GT Team Challenge",
    "gt-adrenaline": "Rallyman: GT Adrenaline Pack",
    "dirt-core": "Rallyman: DIRT core box",
    "dirt-110": "Rallyman: DIRT 110% and Monte-Carlo",
    "dirt-rx": "Rallyman: DIRT RX",
    "dirt-monte-carlo": "Rallyman: DIRT Monte-Carlo (Co-Pilot road tiles)",
    "dirt-the-climb": "Rallyman: DIRT The Climb",
    "scenery": "Scenery fillers",
}

#: Tile numbers of each bundled box (inclusive ranges); source: data/README.md (the Rekee tile table).
BOX_RANGES: dict[str, tuple[tuple[int, int], ...]] = {
    "gt-core": ((101, 120),),
    "gt-championship": ((121, 130),),
    "gt-world-tour": ((131, 138),),
    "gt-team-challenge": ((139, 150),),
    "gt-adrenaline": ((151, 154), (901, 901)),
    "dirt-core": ((201, 232),),
    "dirt-110": ((301, 324),),
    "dirt-rx": ((401, 415),),
    "dirt-monte-carlo": ((416, 417),),
    "dirt-the-climb": ((325, 326), (418, 419)),
    "scenery": ((902, 905),),
}


def box_of(number: int | str) -> str | None:
    """The bundled box a tile number belongs to (``217``, ``"217b"`` -> ``dirt-core``), or None."""
    text = str(number).strip()
    if not text[:3].isdigit():
        tid = normalize_id(text)
        if tid is None:
            return None
        text = tid
    n = int(text[:3])
    for box, ranges in BOX_RANGES.items():
        if any(lo <= n <= hi for lo, hi in ranges):
            return box
    return None

_ALIASES = {
    "filler1a": "902a", "filler1b": "902b",
    "filler2a": "903a", "filler2b": "903b",
    "filler3a": "904a", "filler3b": "904b",
    "podium": "905a",
}

_ID = re.compile(r"^(?P<num>\d{3})(?P<side>[ab])?(?:-?(?P<variant>\d+))?$")


@lru_cache(maxsize=4096)
def normalize_id(raw: str) -> str | None:
    """Canonical tile id (``210B-0`` -> ``210b``, ``filler1a`` -> ``902a``), or None if malformed.

    The graphical variant is dropped: it does not change the road.
    """
    text = raw.strip().lower()
    if text in _ALIASES:
        return _ALIASES[text]
    m = _ID.match(text)
    if not m:
        return None
    num, side = m.group("num"), m.group("side") or ""
    if num == "101":
        return "101"
    return num + side


_LINE_ROLES = {"start": TileRole.START, "finish": TileRole.FINISH}


@dataclass(frozen=True)
class TileInfo:
    """One tile side in scope."""

    id: str
    number: str
    side: str
    #: the tileset (box) it comes from
    box: str
    #: physical copies of this tile number in its box
    copies: int
    definition: ast.TileDef
    #: the tileset is declared ``circuit`` (an RX box)
    circuit_box: bool = False

    @property
    def surface(self) -> str:
        return self.definition.surface

    @property
    def roads(self) -> list[ast.RoadDef]:
        return self.definition.roads

    @cached_property
    def roles(self) -> frozenset[TileRole]:
        """The tile's roles, from its definition: a printed start or finish line, an Assistance (service) zone,
        a tile of a ``circuit`` tileset."""
        found: set[TileRole] = {TileRole.CIRCUIT} if self.circuit_box else set()
        for road in self.roads:
            for item in road.items:
                if isinstance(item, ast.Line) and item.kind in _LINE_ROLES:
                    found.add(_LINE_ROLES[item.kind])
                elif isinstance(item, ast.Zone) and item.kind == "service":
                    found.add(TileRole.ASSISTANCE)
        return frozenset(found)

    @property
    def limit_lines(self) -> tuple[int, ...]:
        """The numbers of the RX speed-limit lines printed on the tile (``limitline N``), in road order."""
        return tuple(item.value for road in self.roads for item in road.items if isinstance(item, ast.LimitLine))

    @property
    def is_scenery(self) -> bool:
        return not self.definition.roads

    @property
    def danger(self) -> tuple[str, str]:
        """Signpost colours at the entry and exit ends (the same on every printed tile)."""
        return self.definition.danger

    def edges(self) -> dict[str, int]:
        """Own edges where a road meets the tile edge, with the lanes there (forks: the widest road)."""
        out: dict[str, int] = {}
        for road in self.roads:
            for edge, at_entry in ((road.entry, True), (road.exit, False)):
                if edge != "end":
                    out[edge] = max(out.get(edge, 0), lanes_at(road, at_entry))
        return dict(sorted(out.items()))

    def describe(self) -> str:
        """A readable text summary: surface, danger, copies, each road with its zones, limits and features."""
        danger = self.danger[0] if self.danger[0] == self.danger[1] else " / ".join(self.danger)
        copies = f"{self.copies} cop{'y' if self.copies == 1 else 'ies'}"
        lines = [f"{self.id}  {self.surface}, danger {danger}, {copies} (box {self.box})"]
        if not self.roads:
            lines.append("  scenery: no road")
        for i, road in enumerate(self.roads, 1):
            lines.extend(describe_road(road, i))
        return "\n".join(lines) + "\n"


class Catalogue:
    """Every tile side of the tilesets in scope."""

    def __init__(self, tiles: dict[str, TileInfo], titles: dict[str, str] | None = None):
        self._tiles = dict(sorted(tiles.items()))
        self._titles = dict(titles or {})

    @classmethod
    def from_tilesets(cls, tilesets: dict[str, ast.Tileset]) -> "Catalogue":
        """Index tilesets; a later tileset's definition of an id replaces an earlier one."""
        tiles: dict[str, TileInfo] = {}
        titles: dict[str, str] = {}
        for name, ts in tilesets.items():
            if ts.title:
                titles[name] = ts.title
            for t in ts.tiles:
                tid = normalize_id(t.id.text) or t.id.text
                num = tid[:3]
                side = tid[3:] if len(tid) > 3 else ""
                tiles[tid] = TileInfo(tid, num, side, name, t.copies if t.copies is not None else 1, t,
                                       ts.circuit)
        return cls(tiles, titles)

    def __contains__(self, tile_id: str) -> bool:
        return self.get(tile_id) is not None

    def __iter__(self):
        return iter(self._tiles.values())

    def __len__(self) -> int:
        return len(self._tiles)

    def get(self, tile_id: str) -> TileInfo | None:
        """The tile side with this id (aliases and case accepted), or None."""
        tid = normalize_id(tile_id)
        return self._tiles.get(tid) if tid else None

    def boxes(self) -> list[str]:
        return sorted({t.box for t in self._tiles.values()})

    def box_title(self, box: str) -> str | None:
        """The title of a box (tileset), as its file gives it, else the bundled title."""
        return self._titles.get(box) or BOX_TITLES.get(box)

    def in_box(self, box: str) -> list[TileInfo]:
        return [t for t in self._tiles.values() if t.box == box]

    def suggest(self, tile_id: str) -> list[str]:
        """Close matches for an unknown id, best first (for did-you-mean hints)."""
        text = tile_id.strip().lower()
        ids = list(self._tiles)
        same_number = [i for i in ids if i[:3] == text[:3]]
        if same_number and text[:3].isdigit():
            return same_number
        return get_close_matches(text, ids, n=3, cutoff=0.5)


def lanes_at(road: ast.RoadDef, at_entry: bool) -> int:
    """Lanes where a road meets its entry (or exit) edge: the zone touching that edge decides."""
    zones = road.zones
    if zones:
        z = zones[0] if at_entry else zones[-1]
        if isinstance(z, ast.Zone) and z.lanes is not None:
            return z.lanes
    return road.lanes or 2


def _limits(values: tuple[int | None, ...]) -> str:
    return " ".join("-" if v is None else str(v) for v in values)


def _zone_text(z: ast.Zone | ast.Corner) -> str:
    if isinstance(z, ast.Corner):
        turning = f" ({z.side}-hander)" if z.side else ""
        words = [f"{z.kind}{turning}: inside {_limits(z.inside)} / outside {_limits(z.outside)}"]
    else:
        words = [z.kind]
        if z.limits:
            words.append(f"limit {_limits(z.limits)}")
    if z.lanes is not None:
        words.append(f"{z.lanes} lanes")
    if z.jump is not None:
        words.append(f"jump {z.jump}")
    if z.water:
        words.append("water")
    if z.merge:
        words.append("merge (the branch reaches one space of it)")
    return ", ".join(words)


def describe_road(road: ast.RoadDef, number: int = 1) -> list[str]:
    """Lines describing one road: header, then each zone, line and shortcut in order."""
    turn = f" {road.turn}" if road.turn else ""
    exit_ = "dead end" if road.exit == "end" else road.exit
    lines = [f"  road {number}: {road.entry} -> {exit_}{turn}, {road.lanes or 2} lanes"]
    zone = 0
    pending_limit: int | None = None
    for item in road.items:
        if isinstance(item, (ast.Zone, ast.Corner)):
            zone += 1
            text = _zone_text(item)
            if pending_limit is not None:
                text += f" (entered across limit line {pending_limit})"
                pending_limit = None
            lines.append(f"    zone {zone}: {text}")
        elif isinstance(item, ast.Line):
            lines.append(f"    -- {item.kind} line after zone {zone}")
        elif isinstance(item, ast.LimitLine):
            pending_limit = item.value
        elif isinstance(item, ast.Shortcut):
            lines.append(f"    shortcut: limit {item.limit}, from zone {item.from_zone} to zone {item.to_zone}")
    return lines


def road_summary(road: ast.RoadDef) -> str:
    """One-line summary of a road, e.g. ``B->D left60 3 zones limits 2,3 cut3``."""
    exit_ = "end" if road.exit == "end" else road.exit
    parts = [f"{road.entry}->{exit_}"]
    if road.turn:
        parts.append(road.turn)
    parts.append(f"{len(road.zones)} zone{'s' if len(road.zones) != 1 else ''}")
    limits: set[int] = set()
    jumps: set[int] = set()
    water = False
    for item in road.items:
        if isinstance(item, (ast.Zone, ast.Corner)):
            limits |= {v for v in (item.limits or ()) if v is not None}
            if isinstance(item, ast.Corner):
                limits |= set(item.inside) | set(item.outside)
            if item.jump is not None:
                jumps.add(item.jump)
            water = water or item.water
        elif isinstance(item, ast.LimitLine):
            limits.add(item.value)
    if limits:
        parts.append("limits " + ",".join(map(str, sorted(limits))))
    parts += [f"cut{s.limit}" for s in road.shortcuts]
    parts += [f"jump{j}" for j in sorted(jumps)]
    if water:
        parts.append("water")
    return " ".join(parts)
