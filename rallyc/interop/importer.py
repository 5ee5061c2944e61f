"""A track file of another tool (read into a :class:`TrackFile`) as a rallyc design (AST).

Two forms are written:

- the **route form**, when the tiles chain edge to edge from a start tile
  (202, 301, 102) to a finish tile (203, 302) and beyond (e.g. the Assistance
  tile), or around a closed circuit, every road tile being driven: the steps in
  driving order with the turn word that picks the direction (``left``/``right``
  for a bend, ``reversed`` for a straight or S-bend driven from its printed
  exit), ``road N`` on tiles with several roads, and ``at Q R rot N`` on the
  first step so that the placement is exactly the file's;
- the **RX form**, for a circuit with fork tiles (:mod:`rallyc.interop.rxlayout`
  finds its main loop, Joker and Pre-grid): every step as ``TILE [words] at Q R
  rot N``, the loop in driving order from the finish arch's tile, then the
  Joker, then the Pre-grid, with ``joker STEP...`` and ``pregrid STEP...``
  lines (the words say how each step is driven, as in the route form);
- the **absolute form** otherwise: every road tile as ``TILE at Q R rot N`` in
  the file's order (note RC710).

Scenery tiles (no road, e.g. 902-905) become ``scenery ID at Q R rot N``.
Tokens are given the space they lie on (:mod:`rallyc.interop.roadgeom`); RX
arches become standees on the line at the entry of a zone.

A stage is written inside ``rally "TITLE" by "AUTHOR" { stage SS1 { ... } }``
(the rally is the file's title and author); a closed circuit, or a track with
RX arches or RX tiles, as ``circuit "TITLE" by "AUTHOR" { ... }`` without a
``laps`` line (the file does not say how many).
"""

from __future__ import annotations

from rallyc.compiler.roads import driven_turn
from rallyc.diagnostics import Diagnostic, Severity, Span
from rallyc.geometry.hexgrid import Hex, neighbour, opposite, world_to_own
from rallyc.interop.areaimport import import_junctions
from rallyc.interop.model import STANDEES, TileRecord, TrackFile
from rallyc.interop.result import Drive, ImportResult, file_span, title_of
from rallyc.interop.tokens import CHICANE_TOKEN_LIMIT, JUMP_TOKEN_GEAR, place_tokens
from rallyc.model.tiles import TileRole
from rallyc.syntax import ast
from rallyc.tiles.catalogue import Catalogue, TileInfo

__all__ = ["ImportResult", "Drive", "import_track", "split_tiles", "driven_turn", "CHICANE_TOKEN_LIMIT",
           "JUMP_TOKEN_GEAR"]

#: ASSUMPTION (the formats do not carry it; the importer says so): the laps of an imported circuit (the RX
#: minimum, TRACK-RX-09). The token assumptions are in :mod:`rallyc.interop.tokens`.
CIRCUIT_LAPS = 2
_STANDEE_ORDER = ("finish", "joker-entry", "joker-exit")
def _chain(first: Drive, by_cell: dict[Hex, tuple[TileRecord, TileInfo]]) -> tuple[list[Drive], bool]:
    """Follow the road from ``first`` tile to tile; (steps, closed). Stops at a dead end, at an
    edge with no road to take, at a choice of roads (fork) or when the route comes back on itself."""
    route = [first]
    used = {(Hex(first.tile.q, first.tile.r), first.road)}
    while True:
        cur = route[-1]
        out = cur.exit_world
        if out is None:
            return route, False
        cell = neighbour((cur.tile.q, cur.tile.r), out)
        if cell not in by_cell:
            return route, False
        tile, info = by_cell[cell]
        own_in = world_to_own(opposite(out), tile.rot)
        options = []
        for n, rd in enumerate(info.roads, start=1):
            if rd.entry == own_in:
                options.append(Drive(tile, info, n, True))
            if rd.exit == own_in:
                options.append(Drive(tile, info, n, False))
        if len(options) != 1:
            return route, False
        nxt = options[0]
        if (cell, nxt.road) in used:
            closed = (cell == Hex(first.tile.q, first.tile.r) and nxt.road == first.road
                      and nxt.forward == first.forward)
            return route, closed
        used.add((cell, nxt.road))
        route.append(nxt)


def find_route(road_tiles: list[tuple[TileRecord, TileInfo]]) -> tuple[list[Drive], bool]:
    """The route through every road tile (stage: start to finish; or a closed circuit), or ([], False)."""
    by_cell = {Hex(t.q, t.r): (t, i) for t, i in road_tiles}
    cells = set(by_cell)

    def covers(route: list[Drive]) -> bool:
        return {Hex(d.tile.q, d.tile.r) for d in route} == cells

    starts = [(t, i) for t, i in road_tiles if TileRole.START in i.roles]
    for tile, info in starts:
        for n, rd in enumerate(info.roads, start=1):
            for forward in (True, False):
                if not forward and rd.exit == "end":
                    continue
                route, closed = _chain(Drive(tile, info, n, forward), by_cell)
                finishes = any(TileRole.FINISH in d.info.roles for d in route)
                if covers(route) and (closed or finishes):
                    return route, closed
    if road_tiles:  # a closed circuit with no start tile: from the first tile of the file
        tile, info = road_tiles[0]
        for n, rd in enumerate(info.roads, start=1):
            for forward in (True, False):
                if not forward and rd.exit == "end":
                    continue
                route, closed = _chain(Drive(tile, info, n, forward), by_cell)
                if closed and covers(route):
                    return route, True
    return [], False


def _step_words(drive: Drive, multi_road: bool) -> tuple[str | None, bool, int | None]:
    turn = driven_turn(drive.road_def, True)
    word: str | None = None
    rev = False
    if turn.startswith(("left", "right")):
        word = "left" if driven_turn(drive.road_def, drive.forward).startswith("left") else "right"
    elif not drive.forward:
        rev = True
    return word, rev, (drive.road if multi_road else None)


def _printed_line(info: TileInfo) -> str | None:
    """``start`` or ``finish`` for a tile with that line printed on it (its arch), else None."""
    for road in info.roads:
        for item in road.items:
            if isinstance(item, ast.Line) and item.kind in ("start", "finish"):
                return item.kind
    return None


def _against_arch(d, rev: bool, diags: list[Diagnostic]) -> bool:
    """True when a start or finish straight is laid 180 degrees against its arch (driven from its printed exit).

    Such a straight joins the same two edges either way round, and published layouts often show it turned
    (19 of 56 start/finish placements in one collection): driving it ``reversed`` would put zones of the
    tile after the start line (or before the finish). It is written the printed way round, with a warning.
    """
    line = _printed_line(d.info)
    if not rev or line is None:
        return False
    diags.append(Diagnostic.warning(
        "RC720", f"{line} tile {d.info.id} is laid 180 degrees against its arch; it is written the printed way "
        f"round (the {line} line where the arch stands)", d.tile.span,
        "a straight joins the same edges either way; check the arch stands at the right end on the table"))
    return True


def split_tiles(track: TrackFile, catalogue: Catalogue):
    """(road tiles, scenery tiles) of a track file as (record, info) pairs; unknown ids left out."""
    road_tiles: list[tuple[TileRecord, TileInfo]] = []
    scenery: list[tuple[TileRecord, TileInfo]] = []
    for t in track.tiles:
        info = catalogue.get(t.id)
        if info is not None:
            (scenery if info.is_scenery else road_tiles).append((t, info))
    return road_tiles, scenery


def import_track(track: TrackFile, catalogue: Catalogue, *, fallback_title: str = "Imported track",
                 directions: dict[int, tuple[int, bool]] | None = None, layout=None) -> ImportResult:
    """The rallyc design of a track file.

    ``directions`` (step -> (road, forward)) tells, for the absolute form, how
    each step is driven (e.g. from compiling the steps); without it a token
    goes on the nearest road, zones counted in the road's written direction.
    ``layout`` (an :class:`rallyc.interop.rxlayout.RxLayout`) writes the RX form.
    """
    diags: list[Diagnostic] = []
    road_tiles: list[tuple[TileRecord, TileInfo]] = []
    scenery: list[tuple[TileRecord, TileInfo]] = []
    for t in track.tiles:
        info = catalogue.get(t.id)
        if info is None:  # the reader reports unknown ids when given the catalogue
            diags.append(Diagnostic.error("RC705", f"unknown tile `{t.raw_id or t.id}`", t.span))
            continue
        (scenery if info.is_scenery else road_tiles).append((t, info))

    route, closed = ([], False) if layout is not None else find_route(road_tiles)
    if layout is None and not route:

        found = import_junctions(track, catalogue, road_tiles, scenery, diags, fallback_title)
        if found is not None:
            return found
    has_standees = any(tok.kind in STANDEES for t, _ in road_tiles + scenery for tok in t.tokens)
    has_rx = any(TileRole.CIRCUIT in i.roles for _, i in road_tiles)
    kind = "circuit" if (closed or has_standees or (not route and has_rx) or layout is not None) else "stage"

    items: list = []
    origins: list[Span | None] = []
    # steps: (record, info, road, forward or None when unknown)
    steps: list[tuple[TileRecord, TileInfo, int | None, bool | None]] = []
    if layout is not None or route:
        for i, d in enumerate(layout.steps if layout is not None else route):
            word, rev, road = _step_words(d, len(d.info.roads) > 1)
            tile, forward = d.tile, d.forward
            if _against_arch(d, rev, diags):
                rev, forward = False, True
                tile = TileRecord(tile.id, tile.q, tile.r, (tile.rot + 3) % 6, tile.tokens, tile.raw_id, tile.span)
            pos = ast.Position(tile.q, tile.r, tile.rot) if (layout is not None or i == 0) else None
            items.append(ast.Step(ast.Ident(d.info.id), word, rev, road, pos))
            origins.append(tile.span)
            steps.append((tile, d.info, d.road, forward))
    else:
        if road_tiles and kind == "stage":
            diags.append(Diagnostic(
                "RC710", Severity.NOTE,
                "the tiles do not chain from a start tile to a finish tile (nor around a closed circuit); "
                "every tile is written with its cell and rotation", file_span(track), None))
        for t, info in road_tiles:
            items.append(ast.Step(ast.Ident(info.id), position=ast.Position(t.q, t.r, t.rot)))
            origins.append(t.span)
            steps.append((t, info, None, None))
    for t, info in scenery:
        items.append(ast.Scenery(ast.Ident(info.id), ast.Position(t.q, t.r, t.rot)))
        origins.append(t.span)

    tokens, standees, spans = place_tokens(track, steps, scenery, directions or {}, diags)
    if layout is not None:  # the steps are in driving order, not the file's: so are tokens and standees
        tokens.sort(key=lambda t: (t.at.step, t.at.zone, t.at.lane or "", t.kind))
        standees.sort(key=lambda st: (_STANDEE_ORDER.index(st.kind), st.at.step, st.at.zone))
    items.extend(tokens)
    origins.extend(spans.get(id(tok)) for tok in tokens)
    title = title_of(track, fallback_title)
    author = track.author.strip() or None
    if kind == "circuit":
        diags.append(Diagnostic.warning(
            "RC716", f"the file does not say how many laps; written `laps {CIRCUIT_LAPS}` (the RX minimum)",
            file_span(track), "change the `laps` line if the race is longer"))
        items.insert(0, ast.Laps(CIRCUIT_LAPS))
        origins.insert(0, file_span(track))
        if layout is not None:
            standees = _arches_on_forks(standees, layout, spans)
        items.extend(standees)
        origins.extend(spans.get(id(st)) for st in standees)
        if layout is not None:
            first = len(layout.loop) + 1
            if layout.joker:
                items.append(ast.Joker(list(range(first, first + len(layout.joker)))))
                origins.append(layout.joker[0].tile.span)
            if layout.pregrid:
                start = first + len(layout.joker)
                items.append(ast.Pregrid(list(range(start, start + len(layout.pregrid)))))
                origins.append(layout.pregrid[0].tile.span)
        top: ast.TopItem = ast.Circuit(title, author, items)
    else:
        top = ast.Rally(title, author, [ast.Stage(ast.Ident("SS1"), None, items)])
    doc = ast.Document("<import>", [top])
    return ImportResult(doc, kind, route, closed, diags, layout, origins)


def _arches_on_forks(standees: list[ast.Standee], layout, spans: dict) -> list[ast.Standee]:
    """Joker arches found on a Joker tile stand on its forks instead: the entrance at the entry
    line of the fork where the Joker leaves, the exit at that of the fork where it rejoins (the
    way the rulebook's circuits are written, and where the RX checks measure them from)."""
    first = len(layout.loop) + 1
    on_joker = range(first, first + len(layout.joker))
    out = []
    for st in standees:
        if layout.forks is not None and st.kind in ("joker-entry", "joker-exit") and st.at.step in on_joker:
            fork = layout.forks[0 if st.kind == "joker-entry" else 1] + 1
            moved = ast.Standee(st.kind, ast.SpaceRef(fork, 1))
            spans[id(moved)] = spans.get(id(st))
            st = moved
        out.append(st)
    return out
