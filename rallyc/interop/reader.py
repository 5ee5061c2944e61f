"""Reading Rekee JSON and RGT track files into a :class:`TrackFile`, with located diagnostics.

Nothing here raises on bad input: every problem becomes a diagnostic that
names the JSON path of the element (``tiles[3].id``) and points at the line
and column where that element is written.
"""

from __future__ import annotations

import math
from typing import Callable

from rallyc.diagnostics import Diagnostic, Span
from rallyc.interop import coords
from rallyc.interop.jsonpos import JNode, JSONSyntaxError, parse, type_name
from rallyc.interop.model import PRINTS, ROAD_EFFECTS, TileRecord, TokenRecord, TrackFile
from rallyc.model import codes as rc
from rallyc.syntax.parser import MAX_CELL, NOT_TEXT
from rallyc.tiles.catalogue import normalize_id

__all__ = ["read_track", "detect_format", "parse_rekee_token", "RGT_TOKENS", "RGT_PRINTS"]

#: RGT token code -> (token kind, print)
RGT_PRINTS = {"asphalt": "asphalt", "dirt": "gravel", "ice": "snow"}
_RGT_EFFECT = {"1": "chicane-limit", "2": "chicane", "3": "water", "4": "jump"}
RGT_TOKENS: dict[str, tuple[str, str | None]] = {
    f"{prefix}{n}": (kind, print_) for prefix, print_ in RGT_PRINTS.items() for n, kind in _RGT_EFFECT.items()
}
RGT_TOKENS.update({
    "climbm1": ("climb-ascent", None), "climbp1": ("climb-descent", None), "climbw": ("cloud", None),
    "climbr1": ("oxygen-1", None), "climbr2": ("oxygen-2", None), "climbr3": ("oxygen-3", None),
    "greendoor": ("joker-entrance", None), "reddoor": ("joker-exit", None), "whitedoor": ("finish", None),
})
_PLAIN_TOKENS = ("climb-ascent", "climb-descent", "cloud", "oxygen-1", "oxygen-2", "oxygen-3", "mud-spray",
                 "joker-entrance", "joker-exit", "finish")


def parse_rekee_token(raw: str) -> tuple[str, str | None] | None:
    """``"water-gravel"`` -> ``("water", "gravel")``; None when not a token id."""
    text = raw.strip().lower().replace(" ", "-")
    if text in _PLAIN_TOKENS or text in ROAD_EFFECTS:
        return text, None
    head, _, tail = text.rpartition("-")
    if tail in PRINTS and head in ROAD_EFFECTS:
        return head, tail
    return None


def _span(file: str, node: JNode) -> Span:
    if node.end_line == node.line:
        return Span(file, node.line, node.column, node.end_line, node.end_column)
    return Span(file, node.line, node.column, node.line, node.column + 1)


class _Reader:
    def __init__(self, file: str, catalogue=None):
        self.file = file
        self.catalogue = catalogue
        self.diags: list[Diagnostic] = []

    # -- helpers
    def error(self, code: str, message: str, node: JNode, hint: str | None = None) -> None:
        self.diags.append(Diagnostic.error(code, message, _span(self.file, node), hint))

    def warning(self, code: str, message: str, node: JNode, hint: str | None = None) -> None:
        self.diags.append(Diagnostic.warning(code, message, _span(self.file, node), hint))

    def member(self, obj: JNode, key: str, kind: str, required: bool = True, what: str = "") -> JNode | None:
        """The member ``key`` of an object, checked for a JSON kind (``int``, ``number``, ``string``, ``array``)."""
        node = obj.value.get(key)
        if node is None:
            if required:
                where = f"`{obj.path}`" if obj.path else "the top level"
                self.error("RC703", f"{where} has no `{key}`{what}", obj,
                           f"add `\"{key}\": ...` to this {'object' if obj.path else 'file'}")
            return None
        return node if self.check(node, kind) else None

    def check(self, node: JNode, kind: str) -> bool:
        v = node.value
        ok = {
            "int": isinstance(v, int) and not isinstance(v, bool)
            or isinstance(v, float) and math.isfinite(v) and v == int(v),
            "number": isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(float(v)),
            "string": isinstance(v, str),
            "array": isinstance(v, list),
            "object": isinstance(v, dict),
        }[kind]
        if not ok:
            want = {"int": "a whole number", "number": "a number", "string": "a string", "array": "an array",
                    "object": "an object"}[kind]
            got = repr(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else type_name(node)
            self.error("RC704", f"`{node.path}` must be {want}, not {got}", node)
        return ok

    def in_range(self, *nodes: JNode) -> bool:
        """Coordinates within :data:`MAX_CELL` of 0 (RC717): a table is never larger, and rallyc text refuses more."""
        for node in nodes:
            if abs(node.value) > MAX_CELL:
                self.error("RC717", f"`{node.path}` is {node.value}: coordinates lie within {MAX_CELL:,} of 0",
                           node, "is the file damaged? an editor never writes a cell this far out")
                return False
        return True

    def tile_id(self, node: JNode) -> str | None:
        raw = node.value
        tid = normalize_id(raw)
        if tid is None:
            self.error("RC705", f"`{node.path}`: `{raw}` is not a tile id", node,
                       "tile ids are a three-digit number, a side a/b and an optional variant, e.g. 210b or 210B-2")
            return None
        if self.catalogue is not None and self.catalogue.get(tid) is None:
            close = self.catalogue.suggest(tid)
            hint = f"did you mean {', '.join(close[:3])}?" if close else "no tileset in scope defines it"
            self.error("RC705", f"`{node.path}`: unknown tile `{raw}`", node, hint)
            return None
        return tid

    def place(self, tiles: list[TileRecord], tile: TileRecord, node: JNode,
              where: dict[tuple[int, int], tuple[int, JNode]]) -> None:
        key = (tile.q, tile.r)
        if key in where:
            index, old = where[key]
            old_tile = tiles[index]
            self.diags.append(Diagnostic.warning(
                "RC708", f"`{node.path}` ({tile.raw_id}) replaces `{old.path}` ({old_tile.raw_id}) on cell "
                f"{tile.q} {tile.r}", _span(self.file, node),
                "the later tile is kept, as in the Rekee editor",
                related=[(_span(self.file, old), "the replaced tile")]))
            tiles[index] = tile
            where[key] = (index, node)
        else:
            where[key] = (len(tiles), node)
            tiles.append(tile)

    def text_member(self, root: JNode, key: str) -> str:
        node = root.value.get(key)
        if node is None or node.value is None:
            return ""
        if not self.check(node, "string"):
            return ""
        text = node.value
        if NOT_TEXT.search(text):
            bad = sorted({f"U+{ord(c):04X}" for c in NOT_TEXT.findall(text)})
            self.warning("RC719", f"`{node.path}` holds characters no rallyc text may hold ({', '.join(bad)}); "
                         "they are left out", node, "check the title and author in the written file")
            text = NOT_TEXT.sub("", text)
        return text

    # -- Rekee
    def rekee(self, root: JNode) -> TrackFile:
        title = self.text_member(root, "title")
        author = self.text_member(root, "author")
        tiles: list[TileRecord] = []
        tiles_node = self.member(root, "tiles", "array")
        where: dict[tuple[int, int], tuple[int, JNode]] = {}
        for el in tiles_node.value if tiles_node else []:
            tile = self.rekee_tile(el)
            if tile is not None:
                self.place(tiles, tile, el, where)
        return TrackFile(title, author, tiles, "rekee")

    def rekee_tile(self, el: JNode) -> TileRecord | None:
        if isinstance(el.value, list):  # array form [id, q, r, dir, tokens?]
            items = el.value
            names = ("id", "q", "r", "dir")
            if len(items) < 4:
                self.error("RC703", f"`{el.path}` has {len(items)} item(s); the array form is [id, q, r, dir, tokens]",
                           el, f"add the missing {', '.join(names[len(items):])}")
                return None
            fields = dict(zip(names + ("tokens",), items))
        elif isinstance(el.value, dict):
            fields = {}
            missing = [k for k in ("q", "r", "id", "dir") if k not in el.value]
            for k in missing:
                self.member(el, k, "int")
            if missing:
                return None
            fields = {k: el.value[k] for k in ("id", "q", "r", "dir", "tokens") if k in el.value}
        else:
            self.error("RC704", f"`{el.path}` must be an object (or an array [id, q, r, dir]), not {type_name(el)}", el)
            return None
        ok = all([self.check(fields["id"], "string"), self.check(fields["q"], "int"),
                  self.check(fields["r"], "int"), self.check(fields["dir"], "int")])
        if not ok or not self.in_range(fields["q"], fields["r"]):
            return None
        tid = self.tile_id(fields["id"])
        tokens = []
        tok_node = fields.get("tokens")
        if tok_node is not None and tok_node.value is not None and self.check(tok_node, "array"):
            for t in tok_node.value:
                tok = self.rekee_token(t)
                if tok is not None:
                    tokens.append(tok)
        if tid is None:
            return None
        return TileRecord(tid, int(fields["q"].value), int(fields["r"].value), int(fields["dir"].value) % 6,
                          tokens, fields["id"].value, _span(self.file, el))

    def rekee_token(self, t: JNode) -> TokenRecord | None:
        if not self.check(t, "object"):
            return None
        id_node = self.member(t, "id", "string")
        q = self.member(t, "q", "number")
        r = self.member(t, "r", "number")
        d = self.member(t, "dir", "number", required=False)
        if id_node is None or q is None or r is None or ("dir" in t.value and d is None):
            return None
        if not self.in_range(q, r):
            return None
        kind = parse_rekee_token(id_node.value)
        if kind is None:
            self.error("RC706", f"`{id_node.path}`: unknown token `{id_node.value}`", id_node,
                       "known tokens: chicane, chicane-limit, water, jump (optionally -asphalt/-gravel/-snow), "
                       "climb-ascent, climb-descent, cloud, oxygen-1..3, mud-spray, joker-entrance, joker-exit, "
                       "finish")
            return None
        return TokenRecord(kind[0], float(q.value), float(r.value), float(d.value) if d else 0.0, kind[1],
                           _span(self.file, t))

    # -- RGT
    def rgt(self, root: JNode) -> TrackFile:
        title = self.text_member(root, "Name")
        author = self.text_member(root, "Author")
        tiles: list[TileRecord] = []
        where: dict[tuple[int, int], tuple[int, JNode]] = {}
        tiles_node = self.member(root, "Tuiles", "array")
        for el in tiles_node.value if tiles_node else []:
            tile = self.rgt_tile(el)
            if tile is not None:
                self.place(tiles, tile, el, where)
        return TrackFile(title, author, tiles, "rgt")

    def rgt_tile(self, el: JNode) -> TileRecord | None:
        if not self.check(el, "object"):
            return None
        x = self.member(el, "X", "int")
        y = self.member(el, "Y", "int")
        o = self.member(el, "Orientation", "int")
        id_node = self.member(el, "TuileId", "string")
        tokens: list[TokenRecord] = []
        tok_node = el.value.get("Tokens")
        if tok_node is not None and tok_node.value is not None and self.check(tok_node, "array"):
            for t in tok_node.value:
                tok = self.rgt_token(t)
                if tok is not None:
                    tokens.append(tok)
        if x is None or y is None or o is None or id_node is None or not self.in_range(x, y):
            return None
        tid = self.tile_id(id_node)
        if tid is None:
            return None
        q, r = coords.rgt_cell_to_axial(int(x.value), int(y.value))
        return TileRecord(tid, q, r, int(o.value) % 6, tokens, id_node.value, _span(self.file, el))

    def rgt_token(self, t: JNode) -> TokenRecord | None:
        if not self.check(t, "object"):
            return None
        id_node = self.member(t, "TokenId", "string")
        x = self.member(t, "X", "number")
        y = self.member(t, "Y", "number")
        o = self.member(t, "Orientation", "number", required=False)
        if id_node is None or x is None or y is None or ("Orientation" in t.value and o is None):
            return None
        if not self.in_range(x, y):
            return None
        code = RGT_TOKENS.get(id_node.value.strip().lower())
        if code is None:
            self.error("RC706", f"`{id_node.path}`: unknown token code `{id_node.value}`", id_node,
                       "known codes: asphalt1-4, dirt1-4, ice1-4, climbm1, climbp1, climbw, climbr1-3, "
                       "greendoor, reddoor, whitedoor")
            return None
        q, r = coords.rgt_offset_to_axial(float(x.value), float(y.value))
        return TokenRecord(code[0], q, r, (float(o.value) / 60.0 if o else 0.0), code[1], _span(self.file, t))


def detect_format(root: JNode) -> str | None:
    """``rekee`` or ``rgt`` from what the JSON holds (not from the file name), or None.

    A file holding both ``tiles`` (Rekee) and ``Tuiles`` (RGT) is read by the one that holds tiles;
    :func:`read_track` says so (RC718), or refuses the file when both do.
    """
    if isinstance(root.value, dict):
        rekee, rgt = root.value.get("tiles"), root.value.get("Tuiles")
        if rekee is not None and rgt is not None:
            return "rekee" if _has_items(rekee) and not _has_items(rgt) else "rgt"
        if rgt is not None:
            return "rgt"
        if rekee is not None:
            return "rekee"
    return None


def _has_items(node: JNode) -> bool:
    return isinstance(node.value, list) and len(node.value) > 0


def _both_lists(root: JNode, fmt: str, file: str) -> Diagnostic | None:
    """RC718 for a file holding both ``tiles`` and ``Tuiles``: a warning naming the one read, an error if both hold tiles."""
    if not isinstance(root.value, dict) or "tiles" not in root.value or "Tuiles" not in root.value:
        return None
    rekee, rgt = root.value["tiles"], root.value["Tuiles"]
    if _has_items(rekee) and _has_items(rgt):
        # declared a warning; an error when both lists hold tiles
        return Diagnostic.error(rc.RC718, "the file holds both `tiles` (Rekee) and `Tuiles` (RGT), each with tiles: "
                                "which track is meant cannot be told", _span(file, root),
                                "keep one of the two lists (save the track again from its editor)")
    used, other = ("tiles", "Tuiles") if fmt == "rekee" else ("Tuiles", "tiles")
    why = "the other is empty" if _has_items(root.value[used]) else "neither holds tiles"
    return Diagnostic.of(rc.RC718, f"the file holds both `tiles` and `Tuiles`; `{used}` is read ({why})",
                              _span(file, root.value[other]), f"remove `{other}` from the file")


def read_track(text: str, file: str, catalogue=None) -> tuple[TrackFile | None, list[Diagnostic]]:
    """Read a Rekee or RGT track file (format told by content). Returns (track or None, diagnostics).

    ``catalogue`` (optional) makes unknown tile ids diagnostics here; without it
    only malformed ids are.
    """
    reader = _Reader(file, catalogue)
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        root = parse(text)
    except JSONSyntaxError as e:
        return None, [Diagnostic.error("RC701", f"not valid JSON: {e.message}",
                                       Span(file, e.line, e.column, e.line, e.column + 1),
                                       "Rekee (.json) and RGT (.rgt) track files are JSON text")]
    fmt = detect_format(root)
    if fmt is None:
        what = "an object" if isinstance(root.value, dict) else type_name(root)
        return None, [Diagnostic.error("RC702", f"not a track file: {what} without `tiles` (Rekee) or `Tuiles` (RGT)",
                                       _span(file, root),
                                       "import a file saved by the Rekee editor or the Rallyman Track Editor")]
    both = _both_lists(root, fmt, file)
    if both is not None:
        if both.severity.value == "error":
            return None, [both]
        reader.diags.append(both)
    reader_fn: Callable[[JNode], TrackFile] = reader.rekee if fmt == "rekee" else reader.rgt
    track = reader_fn(root)
    if not track.tiles and not reader.diags:
        reader.diags.append(Diagnostic.warning("RC713", "the track file has no tiles", _span(file, root)))
    return track, reader.diags
