"""Tokens and RX arches of a track file put on the spaces of the imported design's steps.

Where a token lies on a tile is read with the map's model of the tile (:mod:`rallyc.interop.roadgeom`).
"""

from __future__ import annotations

from rallyc.diagnostics import Diagnostic, Span
from rallyc.interop import roadgeom
from rallyc.interop.model import STANDEES, TrackFile
from rallyc.syntax import ast

__all__ = ["CHICANE_TOKEN_LIMIT", "JUMP_TOKEN_GEAR", "place_tokens", "token_of"]

#: ASSUMPTIONS (the formats do not carry these values; the importer says so with RC716):
#: the speed limit on the Co-Pilot pack's chicane-with-limit token,
CHICANE_TOKEN_LIMIT = 2
#: and the gear of its jump token.
JUMP_TOKEN_GEAR = 4


def place_tokens(track: TrackFile, steps, scenery, directions, diags):
    """(tokens, standees, id of each -> span of its token in the file) of the steps' tiles.

    ``steps``: (tile record, tile info, road or None, forward or None) per step, in driving order;
    ``directions``: step -> (road, forward) where the step itself does not say."""
    spans: dict[int, Span | None] = {}
    tokens: list[ast.Token] = []
    standees: list[ast.Standee] = []
    scenery_ids = {id(t) for t, _ in scenery}
    steps_of: dict[int, list[int]] = {}
    for index, (t, _info, _road, _fwd) in enumerate(steps, start=1):
        steps_of.setdefault(id(t), []).append(index)
    for t in track.tiles:
        for tok in t.tokens:
            where = steps_of.get(id(t))
            if not where:
                why = "a scenery tile" if id(t) in scenery_ids else "a tile that is not imported"
                diags.append(Diagnostic.error(
                    "RC707", f"token `{tok.rekee_id}` on {t.raw_id or t.id} at {t.q} {t.r}: it lies on {why}, "
                    "which has no space for it", tok.span, "move the token onto a road tile"))
                continue
            info = steps[where[0] - 1][1]
            known_roads = {steps[i - 1][2] for i in where} - {None}
            if directions:
                known_roads |= {directions[i][0] for i in where if i in directions}
            pl = roadgeom.locate(info.definition, tok.q, tok.r, sorted(known_roads) or None)
            if pl is None:
                diags.append(Diagnostic.error(
                    "RC707", f"token `{tok.rekee_id}` on {info.id} at {t.q} {t.r} lies off the road "
                    f"(offset {tok.q:.2f} {tok.r:.2f})", tok.span, "move the token onto a space of the road"))
                continue
            step = next((i for i in where if (steps[i - 1][2] or directions.get(i, (None,))[0]) == pl.road), where[0])
            forward = steps[step - 1][3]
            if forward is None:
                forward = directions.get(step, (pl.road, True))[1]
            zones = roadgeom.zone_count(info.definition, pl.road)
            if tok.print and info.surface in ("asphalt", "gravel", "snow") and tok.print != info.surface:
                diags.append(Diagnostic.warning(
                    "RC709", f"token `{tok.rekee_id}` has a {tok.print} print on a {info.surface} tile; "
                    f"rallyc keeps the token, not its print (export writes `{tok.kind}-{info.surface}`)",
                    tok.span))
            if tok.kind in STANDEES:
                zone = pl.driven_boundary(forward, zones)
                standees.append(ast.Standee(STANDEES[tok.kind], ast.SpaceRef(step, zone)))
                spans[id(standees[-1])] = tok.span
                continue
            zone, lane = pl.driven(forward, zones)
            ref = ast.SpaceRef(step, zone, lane)
            token = token_of(tok.kind, ref)
            if tok.kind in ("jump", "chicane-limit"):
                what = f"jump {token.value}" if tok.kind == "jump" else f"chicane limit {token.limit}"
                diags.append(Diagnostic.warning(
                    "RC716", f"token `{tok.rekee_id}` carries no number in the file; written `token {what}` "
                    "(an assumption)", tok.span, "check the value against the token and correct it if needed"))
            tokens.append(token)
            spans[id(token)] = tok.span
    return tokens, standees, spans


def token_of(kind: str, ref: ast.SpaceRef) -> ast.Token:
    """The rallyc token of a Rekee/RGT token kind on a space (numbers the files do not carry assumed)."""
    if kind == "chicane-limit":
        return ast.Token("chicane", None, CHICANE_TOKEN_LIMIT, ref)
    if kind.startswith("oxygen-"):
        return ast.Token("oxygen", int(kind[-1]), None, ref)
    if kind == "jump":
        return ast.Token("jump", JUMP_TOKEN_GEAR, None, ref)
    if kind == "mud-spray":
        return ast.Token("mud", None, None, ref)
    return ast.Token(kind, None, None, ref)
