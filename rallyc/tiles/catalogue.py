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

from rallyc.syntax import ast

__all__ = ["TileInfo", "Catalogue", "normalize_id"]

_ALIASES = {
    "filler1a": "902a", "filler1b": "902b",
    "filler2a": "903a", "filler2b": "903b",
    "filler3a": "904a", "filler3b": "904b",
    "podium": "905a",
}

_ID = re.compile(r"^(?P<num>\d{3})(?P<side>[ab])?(?:-?(?P<variant>\d+))?$")


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

    @property
    def surface(self) -> str:
        return self.definition.surface

    @property
    def roads(self) -> list[ast.RoadDef]:
        return self.definition.roads

    @property
    def is_scenery(self) -> bool:
        return not self.definition.roads


class Catalogue:
    """Every tile side of the tilesets in scope."""

    def __init__(self, tiles: dict[str, TileInfo]):
        self._tiles = dict(sorted(tiles.items()))

    @classmethod
    def from_tilesets(cls, tilesets: dict[str, ast.Tileset]) -> "Catalogue":
        """Index tilesets; a later tileset's definition of an id replaces an earlier one."""
        tiles: dict[str, TileInfo] = {}
        for name, ts in tilesets.items():
            for t in ts.tiles:
                tid = normalize_id(t.id.text) or t.id.text
                num = tid[:3]
                side = tid[3:] if len(tid) > 3 else ""
                tiles[tid] = TileInfo(tid, num, side, name, t.copies if t.copies is not None else 1, t)
        return cls(tiles)

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
