"""Writing a :class:`TrackFile` as Rekee JSON or RGT text (deterministic, same input same bytes)."""

from __future__ import annotations

import json

from rallyc.interop import coords
from rallyc.interop.model import TrackFile
from rallyc.interop.reader import RGT_PRINTS

__all__ = ["write_rekee", "write_rgt", "rgt_tile_id", "rgt_token_code", "LOW_RES_WIDTH", "LOW_RES_HEIGHT"]

LOW_RES_WIDTH = 2480
LOW_RES_HEIGHT = 1748
_RGT_EFFECT = {"chicane-limit": "1", "chicane": "2", "water": "3", "jump": "4"}
_RGT_OTHER = {
    "climb-ascent": "climbm1", "climb-descent": "climbp1", "cloud": "climbw",
    "oxygen-1": "climbr1", "oxygen-2": "climbr2", "oxygen-3": "climbr3",
    "joker-entrance": "greendoor", "joker-exit": "reddoor", "finish": "whitedoor",
}
_PRINT_PREFIX = {v: k for k, v in RGT_PRINTS.items()}


def _num(value: float, places: int) -> float:
    out = round(float(value), places)
    return 0.0 if out == 0 else out  # never -0.0


def write_rekee(track: TrackFile) -> str:
    """Compact Rekee JSON: keys title, author (left out when empty), tiles[q, r, id, dir, tokens[id, q, r, dir]]."""
    doc: dict = {"title": track.title}
    if track.author:
        doc["author"] = track.author
    tiles = []
    for t in track.tiles:
        tile: dict = {"q": t.q, "r": t.r, "id": t.id, "dir": t.rot % 6}
        if t.tokens:
            tile["tokens"] = [{"id": k.rekee_id, "q": _num(k.q, 4), "r": _num(k.r, 4), "dir": _num(k.dir % 6, 4)}
                              for k in t.tokens]
        tiles.append(tile)
    doc["tiles"] = tiles
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n"


def rgt_tile_id(tile_id: str) -> str:
    """The Windows editor's spelling: Rallyman GT tiles (1xx, 901) lower case, DIRT tiles upper case."""
    number = tile_id[:3]
    if number.startswith("1") or number == "901":
        return tile_id.lower()
    return tile_id.upper()


def rgt_token_code(kind: str, print_: str | None) -> str | None:
    """RGT code of a token (``water`` with a gravel print -> ``dirt3``); None when RGT has none (mud-spray)."""
    if kind in _RGT_EFFECT:
        return _PRINT_PREFIX.get(print_ or "gravel", "dirt") + _RGT_EFFECT[kind]
    return _RGT_OTHER.get(kind)


def write_rgt(track: TrackFile) -> str:
    """RGT text: Path "", Name, Author (left out when empty), Tuiles, lowResWidth, lowResHeight.

    Tokens with no RGT code (mud-spray) are left out; the exporter reports them.
    """
    doc: dict = {"Path": "", "Name": track.title}
    if track.author:
        doc["Author"] = track.author
    tiles = []
    for t in track.tiles:
        x, y = coords.axial_to_rgt_cell(t.q, t.r)
        tile: dict = {"X": x, "Y": y, "Orientation": t.rot % 6, "TuileId": rgt_tile_id(t.id)}
        toks = []
        for k in t.tokens:
            code = rgt_token_code(k.kind, k.print)
            if code is None:
                continue
            tx, ty = coords.axial_offset_to_rgt(k.q, k.r)
            toks.append({"X": _num(tx, 7), "Y": _num(ty, 7), "Orientation": _num((k.dir % 6) * 60.0, 4),
                         "TokenId": code})
        if toks:
            tile["Tokens"] = toks
        tiles.append(tile)
    doc["Tuiles"] = tiles
    doc["lowResWidth"] = LOW_RES_WIDTH
    doc["lowResHeight"] = LOW_RES_HEIGHT
    return json.dumps(doc, ensure_ascii=False, indent=3) + "\n"
