"""Importing a file whose roads part at junction tiles: one junction stage, or a whole rally area.

A Rekee or RGT file holds tiles, not routes. When its tiles do not chain
from start to finish as one road (the importer's route form), but routes from
a start tile to a finish tile run through junction tiles (Y junctions, forks:
:mod:`rallyc.compiler.routes`), the file is:

- **one junction stage** when there is one such route and it drives every road
  tile: written in route form like any stage (``415b left road 1`` at the
  junction), inside ``rally "TITLE" { stage SS1 { ... } }``;
- **a rally area** otherwise: ``area "TITLE" { ... }`` with every road tile at
  its cell (the first route's tiles in driving order, then each other route's
  new tiles, then tiles no route drives, RC731), and one stage per route,
  ``SS1``, ``SS2``, ... in the order the routes are found, each naming the
  fewest ``junction`` lines (and ``from`` when the area has several start
  tiles) that single it out (RC730 says so).

Tokens go to every stage that drives the tile they lie on. A file with RX
arches or no start-to-finish route is left to the circuit importers.
"""

from __future__ import annotations

from rallyc.compiler.area import lay_area, route_picks, step_words, tile_label
from rallyc.compiler.routes import MAX_ROUTES, Laid, find_routes
from rallyc.diagnostics import Diagnostic, Severity
from rallyc.geometry.hexgrid import Hex
from rallyc.interop.model import STANDEES, TrackFile
from rallyc.interop.result import ImportResult, file_span, title_of
from rallyc.interop.tokens import place_tokens
from rallyc.syntax import ast

__all__ = ["import_junctions"]


def import_junctions(track: TrackFile, catalogue, road_tiles, scenery, diags: list[Diagnostic],
                     fallback_title: str):
    """The ImportResult of a junction stage or an area, or None when the file is neither."""
    if any(tok.kind in STANDEES for t, _ in road_tiles + scenery for tok in t.tokens):
        return None
    laid = [Laid(i, info, Hex(t.q, t.r), t.rot % 6) for i, (t, info) in enumerate(road_tiles, start=1)]
    routes, truncated = find_routes(laid)
    if not routes or not any(r.choices for r in routes):
        return None
    record = {i: t for i, (t, _info) in enumerate(road_tiles, start=1)}
    title = title_of(track, fallback_title)
    author = track.author.strip() or None
    span = file_span(track)
    if truncated:
        diags.append(Diagnostic.warning(
            "RC731", f"the junctions make more than {MAX_ROUTES} start-to-finish routes; the first "
            f"{MAX_ROUTES} are written as stages, the others could not be decided", span,
            "remove the stages you do not run and add the ones missing by hand (`junction TILE left|right`)"))
    covered = {k for r in routes for k in r.keys()}
    if len(routes) == 1 and covered == set(record):
        return _junction_stage(track, title, author, routes[0], record, scenery, diags)

    # a rally area: its tiles in driving order of the routes, then those no route drives
    order: list[int] = []
    for r in routes:
        order.extend(k for k in r.keys() if k not in order)
    left_out = [k for k in record if k not in covered]
    order.extend(left_out)
    area_items: list = []
    origins = []
    number = {}
    for n, k in enumerate(order, start=1):
        t = record[k]
        info = road_tiles[k - 1][1]
        area_items.append(ast.Step(ast.Ident(info.id), position=ast.Position(t.q, t.r, t.rot % 6)))
        origins.append(t.span)
        number[k] = n
    for t, info in scenery:
        area_items.append(ast.Scenery(ast.Ident(info.id), ast.Position(t.q, t.r, t.rot % 6)))
        origins.append(t.span)
    area = ast.Area(title, author, area_items)
    built = lay_area(area, catalogue)
    # the same routes, numbered by the area's lines, found again the way `check` will find them
    area_routes = {tuple(r.keys()): r for r in built.routes}
    stages: list[ast.RallyItem] = []
    for i, r in enumerate(routes, start=1):
        mine = area_routes.get(tuple(number[k] for k in r.keys()))
        if mine is None:  # pragma: no cover - the area lays exactly the file's tiles
            continue
        items: list = [ast.AreaRef(title)]
        starts = {x.start for x in built.routes}
        if len(starts) > 1:
            items.append(ast.RouteFrom(ast.Ident(tile_label(built, mine.start))))
        among = [x for x in built.routes if x.start == mine.start]
        items.extend(route_picks(built, mine, among))
        steps = [(record[d.tile.key], d.tile.info, d.road, d.forward) for d in r.drives]
        sub = TrackFile(track.title, track.author, [s[0] for s in steps], track.format)
        tokens, _standees, _spans = place_tokens(sub, steps, [], {}, [])
        items.extend(tokens)
        stages.append(ast.Stage(ast.Ident(f"SS{i}"), None, items))
    for k in left_out:
        t = record[k]
        diags.append(Diagnostic.warning(
            "RC731", f"{t.raw_id or t.id} at {t.q} {t.r} is on no route from a start tile to a finish tile; "
            f"written in the area (tile {number[k]}) and driven by no stage", t.span,
            "if a stage should drive it, check the tiles around it; else drop it or make it scenery"))
    for t, _info in road_tiles:
        for tok in t.tokens:
            if not any(s[0] is t for r in routes for s in [(record[d.tile.key],) for d in r.drives]):
                diags.append(Diagnostic.warning(
                    "RC731", f"token `{tok.rekee_id}` lies on a tile no stage drives; left out", tok.span))
    for t, _info in scenery:
        for tok in t.tokens:
            diags.append(Diagnostic.error(
                "RC707", f"token `{tok.rekee_id}` on {t.raw_id or t.id} at {t.q} {t.r}: it lies on a scenery "
                "tile, which has no space for it", tok.span, "move the token onto a road tile"))
    diags.append(Diagnostic(
        "RC730", Severity.NOTE,
        f"{len(routes)} routes from a start tile to a finish tile part at junction tiles: written as "
        f'area "{title}" with one stage over it per route (SS1..SS{len(routes)})', span,
        "rename the stages, and remove those your rally does not run"))
    rally = ast.Rally(title, author, stages)
    doc = ast.Document("<import>", [area, rally])
    return ImportResult(doc, "area", [], False, diags, None, origins, junctions=True)


def _junction_stage(track, title, author, route, record, scenery, diags):
    """One route through the junctions, driving every road tile: a stage in route form."""
    items: list = []
    origins = []
    steps = []
    for i, d in enumerate(route.drives):
        t = record[d.tile.key]
        word, rev, road = step_words(d)
        pos = ast.Position(t.q, t.r, t.rot % 6) if i == 0 else None
        items.append(ast.Step(ast.Ident(d.tile.info.id), word, rev, road, pos))
        origins.append(t.span)
        steps.append((t, d.tile.info, d.road, d.forward))
    for t, info in scenery:
        items.append(ast.Scenery(ast.Ident(info.id), ast.Position(t.q, t.r, t.rot % 6)))
        origins.append(t.span)
    tokens, _standees, spans = place_tokens(track, steps, scenery, {}, diags)
    items.extend(tokens)
    origins.extend(spans.get(id(tok)) for tok in tokens)
    doc = ast.Document("<import>", [ast.Rally(title, author, [ast.Stage(ast.Ident("SS1"), None, items)])])
    return ImportResult(doc, "stage", [], False, diags, None, origins, junctions=True)
