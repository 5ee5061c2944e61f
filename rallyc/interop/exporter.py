"""A compiled rallyc stage or circuit as a :class:`TrackFile` (for Rekee JSON or RGT).

Tiles come from the compiled track (cells, rotations, scenery), standees from
``Track.standees``, tokens from the design's statements; tokens and standees
are put at the modelled centre of their
space (:mod:`rallyc.interop.roadgeom`). A tile driven twice (two separate
roads) is written once.
"""

from __future__ import annotations

from rallyc.compiler.track import PlacedTile, Standee
from rallyc.diagnostics import Diagnostic
from rallyc.geometry.hexgrid import world_to_own
from rallyc.interop import roadgeom
from rallyc.interop.tokens import CHICANE_TOKEN_LIMIT, JUMP_TOKEN_GEAR
from rallyc.interop.model import TileRecord, TokenRecord, TrackFile
from rallyc.syntax import ast
from rallyc.tiles.catalogue import Catalogue

__all__ = ["export_track", "STANDEE_TOKENS"]

#: rallyc standee -> token kind of the formats
STANDEE_TOKENS = {"finish": "finish", "joker-entry": "joker-entrance", "joker-exit": "joker-exit"}
_PRINTED = ("asphalt", "gravel", "snow")


def _kind(token: ast.Token, fmt: str) -> tuple[str | None, str | None]:
    """(token kind of the formats or None, why it is left out or loses something)."""
    k = token.kind
    if k == "haybale":
        return None, "hay-bale tokens exist in neither Rekee nor RGT files"
    if k == "mud":
        if fmt == "rgt":
            return None, "the mud-spray token has no RGT code"
        return "mud-spray", None
    if k == "oxygen":
        if token.value not in (1, 2, 3):
            return None, f"oxygen {token.value} has no token (the files know oxygen 1 to 3)"
        return f"oxygen-{token.value}", None
    if k == "chicane":
        if token.limit is None:
            return "chicane", None
        note = None if token.limit == CHICANE_TOKEN_LIMIT else (
            f"the files' chicane-limit token carries no number; limit {token.limit} reads back as "
            f"limit {CHICANE_TOKEN_LIMIT}")
        return "chicane-limit", note
    if k == "jump":
        note = None if token.value in (None, JUMP_TOKEN_GEAR) else (
            f"the files' jump token carries no gear; `jump {token.value}` reads back as `jump {JUMP_TOKEN_GEAR}`")
        return "jump", note
    return k, None


def export_track(title: str, author: str | None, placed, tokens: list[ast.Token], standees: list[Standee],
                 catalogue: Catalogue, fmt: str = "rekee") -> tuple[TrackFile, list[Diagnostic]]:
    """The track file of a compiled track.

    ``placed`` are the track's PlacedTile values (route steps then scenery);
    ``tokens`` the token statements of its stage or circuit; ``standees`` the
    track's standees (``Track.standees``).
    """
    diags: list[Diagnostic] = []
    records: list[TileRecord] = []
    by_cell: dict[tuple[int, int], TileRecord] = {}
    by_step: dict[int, tuple[PlacedTile, TileRecord]] = {}
    for p in placed:
        cell = (p.q, p.r)
        rec = by_cell.get(cell)
        if rec is None:
            rec = TileRecord(p.tile, p.q, p.r, p.rot % 6, [], p.tile)
            by_cell[cell] = rec
            records.append(rec)
        if not p.scenery:
            by_step[p.step] = (p, rec)

    def where(ref: ast.SpaceRef, what: str, span):
        hit = by_step.get(ref.step)
        if hit is None:
            diags.append(Diagnostic.warning("RC711", f"{what} at {ref}: step {ref.step} is not a placed road tile; "
                                            "left out", span))
            return None
        p, rec = hit
        info = catalogue.get(p.tile)
        if info is None or not p.road:
            diags.append(Diagnostic.warning("RC711", f"{what} at {ref}: no road on step {ref.step}; left out", span))
            return None
        rd = info.roads[p.road - 1]
        forward = True if p.entry is None else world_to_own(p.entry, p.rot) == rd.entry
        return info, p.road, forward, rec

    for tok in tokens:
        kind, note = _kind(tok, fmt)
        label = f"token {tok.kind}"
        if kind is None:
            diags.append(Diagnostic.warning("RC711", f"{label} at {tok.at}: {note}; left out", tok.span))
            continue
        if note:
            diags.append(Diagnostic.warning("RC715", f"{label} at {tok.at}: {note}", tok.span))
        hit = where(tok.at, label, tok.span)
        if hit is None:
            continue
        info, road, forward, rec = hit
        q, r, d = roadgeom.token_offset(info.definition, road, forward, tok.at.zone, tok.at.lane)
        print_ = info.surface if kind in ("chicane", "chicane-limit", "water", "jump") and \
            info.surface in _PRINTED else None
        rec.tokens.append(TokenRecord(kind, q, r, d, print_))
    for st in standees:
        hit = where(ast.SpaceRef(st.step, st.zone), f"standee {st.kind}", st.span)
        if hit is None:
            continue
        info, road, forward, rec = hit
        q, r, d = roadgeom.standee_offset(info.definition, road, forward, st.zone)
        rec.tokens.append(TokenRecord(STANDEE_TOKENS[st.kind], q, r, d, None))
    return TrackFile(title, author or "", records, fmt), diags
