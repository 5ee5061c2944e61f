"""Rally areas: tiles laid once, stages that are routes over them through the junction tiles.

An ``area "TITLE" { ... }`` lays tiles: ``TILE at Q R rot N`` anywhere, or a
tile in route form right after the tile before it (across the exit of its
road, words as in a stage). A stage over an area says ``area "TITLE"`` and its
road at each junction where the area's routes part (``junction 402a left``,
``junction 7 straight`` by the area's line number, ``from 202a`` when the area
has several start tiles). The stage's route is the one start-to-finish route
of the area (:mod:`rallyc.compiler.routes`) that takes these roads; it is
written out as an ordinary stage in absolute form (every step at its cell, with
the words that pick its road and direction, spans pointing at the area's lines)
and compiled like any stage, so tokens, checks, maps and the referee work on it
unchanged. Step numbers in the stage's ``token`` lines count along its route.

Checks (RC230-RC239): unknown area, junction not found or not a junction,
no route or several routes for the stage's roads, tile lines in a stage over an
area, two tiles on one cell, a tile no stage drives, an area written twice.
The inventory (copies, both sides of a tile) is checked once for the area, not
per stage: the stages share its tiles.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from difflib import get_close_matches

from rallyc.compiler.placement import Placer
from rallyc.compiler.roads import driven_turn
from rallyc.compiler.routes import Drive, Laid, Route, find_routes, turn_word
from rallyc.compiler.track import PlacedTile, Track
from rallyc.diagnostics import Diagnostic, Span
from rallyc.geometry.hexgrid import Hex
from rallyc.model import codes as rc
from rallyc.syntax import ast
from rallyc.tiles.catalogue import Catalogue

__all__ = ["AreaBuild", "lay_area", "stage_over_area", "route_picks", "step_words", "tile_label"]


@dataclass
class AreaBuild:
    """An area's tiles on the grid, its routes and what went wrong laying them."""

    area: ast.Area
    catalogue: Catalogue
    #: the boxes the file declares (the inventory checks read them)
    boxes: list[str] | None = None
    laid: list[Laid] = field(default_factory=list)
    scenery: list[PlacedTile] = field(default_factory=list)
    routes: list[Route] = field(default_factory=list)
    #: True when the route search stopped at its limit
    truncated: bool = False
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: stage name -> its route (filled as stages are compiled over the area)
    used_by: dict[str, Route] = field(default_factory=dict)
    #: stage name -> its compiled track
    tracks: dict[str, Track] = field(default_factory=dict)
    #: True when a stage over the area could not be resolved (then unused tiles are not reported)
    failed: bool = False

    @property
    def name(self) -> str:
        return f'area "{self.area.title}"'

    def step(self, key: int) -> ast.Step:
        return self.area.steps[key - 1]

    def tile(self, key: int) -> Laid | None:
        return next((t for t in self.laid if t.key == key), None)

    def placed(self) -> list[PlacedTile]:
        """Every tile of the area as placed tiles (road tiles with no road driven, then the scenery)."""
        out = [PlacedTile(t.key, t.info.id, t.cell.q, t.cell.r, t.rot, None, None, None, False, self.step(t.key).span)
               for t in self.laid]
        return out + list(self.scenery)



def lay_area(area: ast.Area, catalogue: Catalogue, boxes: list[str] | None = None) -> AreaBuild:
    """Lay the area's tiles on the grid and find its routes (``boxes``: the boxes the file declares)."""
    build = AreaBuild(area, catalogue, boxes)
    steps = area.steps
    known = {i for i, s in enumerate(steps, start=1) if catalogue.get(s.tile.text) is not None}
    placer = Placer(steps, catalogue, known)
    prev = None  # the placed step a route-form tile follows
    for idx, step in enumerate(steps, start=1):
        if idx not in known:
            prev = None
            continue
        info = catalogue.get(step.tile.text)
        assert info is not None
        nxt = steps[idx] if idx < len(steps) else None
        pos = step.position
        if pos is not None:
            if not 0 <= pos.rot <= 5:
                build.diagnostics.append(Diagnostic.of(
                    rc.RC210, f"tile {idx}: rotation {pos.rot} is not 0..5", pos.span, f"write rot {pos.rot % 6}"))
                prev = None
                continue
            build.laid.append(Laid(idx, info, Hex(pos.q, pos.r), pos.rot))
            # the road a route-form tile after this one follows
            prev = placer.place_absolute(idx, step, info, None) if nxt is not None and nxt.position is None \
                and info.roads else None
            continue
        if prev is None and idx > 1:
            continue  # the tile before could not be placed (already reported)
        placed = placer.place(idx, step, info, prev)
        if placed is not None:
            build.laid.append(Laid(idx, info, placed.cell, placed.rot))
        prev = placed
    build.diagnostics.extend(placer.result.diagnostics)
    for sc in area.scenery:
        sinfo = catalogue.get(sc.tile.text)
        build.scenery.append(PlacedTile(0, sinfo.id if sinfo else sc.tile.text, sc.position.q, sc.position.r,
                                        sc.position.rot % 6, None, None, None, True, sc.span))
    build.diagnostics.extend(_overlaps(build))
    build.routes, build.truncated = find_routes(build.laid)
    return build


def _overlaps(build: AreaBuild) -> list[Diagnostic]:
    """RC237: two tiles of the area on one cell."""
    out = []
    seen: dict[Hex, Laid] = {}
    for t in build.laid:
        first = seen.get(t.cell)
        if first is None:
            seen[t.cell] = t
            continue
        out.append(Diagnostic.of(
            rc.RC237, f"{build.name}: {t.info.id} (tile {t.key}) is laid on {t.cell.q} {t.cell.r}, where "
            f"{first.info.id} (tile {first.key}) already lies", build.step(t.key).span,
            "an area lays each tile once: move one of them, or drop this line if it is the same tile",
            ((build.step(first.key).span, "the tile already there"),) if build.step(first.key).span else ()))
    return out


# ------------------------------------------------------------------ stages over an area

def _resolve(build: AreaBuild, ident: ast.Ident, what: str) -> tuple[Laid | None, Diagnostic | None]:
    """The laid tile a stage names: by tile id (laid once in the area) or by the area's line number."""
    info = build.catalogue.get(ident.text)
    if info is not None:
        hits = [t for t in build.laid if t.info.id == info.id]
        if len(hits) == 1:
            return hits[0], None
        if len(hits) > 1:
            lines = " or ".join(str(t.key) for t in hits)
            return None, Diagnostic.of(
                rc.RC232, f"{info.id} is laid {len(hits)} times in {build.name}; say which one", ident.span,
                f"name it by its tile number in the area: `{what} {hits[0].key}` (tiles {lines})")
    elif ident.text.isdigit():
        laid = build.tile(int(ident.text))
        if laid is not None:
            return laid, None
    ids = sorted({t.info.id for t in build.laid})
    close = get_close_matches(ident.text, ids, n=1, cutoff=0.6)
    hint = f"did you mean `{close[0]}`?" if close else (
        "name a tile of the area by its id (" + ", ".join(ids[:8]) + (", ..." if len(ids) > 8 else "")
        + f") or by its number (1..{len(build.area.steps)})")
    return None, Diagnostic.of(rc.RC231, f"{build.name} has no tile `{ident.text}`", ident.span, hint)


def tile_label(build: AreaBuild, key: int) -> str:
    """How a stage names an area tile: its id when laid once, else its number."""
    t = build.tile(key)
    if t is None:
        return str(key)
    return t.info.id if sum(1 for x in build.laid if x.info.id == t.info.id) == 1 else str(key)


def route_picks(build: AreaBuild, route: Route, among: list[Route] | None = None) -> list[ast.Pick]:
    """The fewest junction lines (in driving order) that single ``route`` out of ``among`` (all routes
    from its start by default)."""
    among = [r for r in (among if among is not None else build.routes) if r.start == route.start]
    picks: list[ast.Pick] = []
    left = [r for r in among if r is not route]
    for key, word in route.choices:
        if not left:
            break
        if all(r.choice_at(key) == word for r in left):
            continue
        picks.append(ast.Pick(ast.Ident(tile_label(build, key)), word))
        left = [r for r in left if r.choice_at(key) == word]
    return picks


def _parting(build: AreaBuild, routes: list[Route]) -> tuple[int, list[str]] | None:
    """The first junction (driving order of the first route) where ``routes`` take different roads."""
    for key, _ in routes[0].choices:
        words = sorted({r.choice_at(key) or "" for r in routes})
        if len(words) > 1:
            return key, [w for w in words if w]
    return None


def step_words(drive: Drive) -> tuple[str | None, bool, int | None]:
    """(turn word, reversed, road number) that pick a drive's road and direction on its tile."""
    rd = drive.road_def
    multi = len(drive.tile.info.roads) > 1
    printed = driven_turn(rd, True)
    word: str | None = None
    rev = False
    if printed.startswith(("left", "right")):
        word = turn_word(drive.turn)
    elif not drive.forward:
        rev = True
    return word, rev, (drive.road if multi else None)


def stage_over_area(stage: ast.Stage, areas: dict[str, AreaBuild]) -> tuple[ast.Stage | None, list[Diagnostic]]:
    """The stage written out as its route over its area (absolute steps), or None and why not."""
    ref = stage.area
    assert ref is not None
    diags: list[Diagnostic] = []
    build = areas.get(ref.title)
    if build is None:
        close = get_close_matches(ref.title, sorted(areas), n=1, cutoff=0.6)
        hint = f'did you mean `area "{close[0]}"`?' if close else (
            "areas in scope: " + ", ".join(f'"{a}"' for a in sorted(areas)) if areas else
            'write the area first: `area "TITLE" { 202a at 0 0 rot 0 ... }`')
        return None, [Diagnostic.of(rc.RC230, f'stage {stage.name.text}: no area "{ref.title}"', ref.span, hint)]
    if stage.steps:
        first = stage.steps[0]
        diags.append(Diagnostic.of(
            rc.RC236, f"stage {stage.name.text} runs over {build.name}, so its tiles are the area's; "
            "it cannot list tiles of its own", first.span,
            "remove the tile lines (name the road at each junction with `junction TILE left|right|straight`), "
            "or remove the `area` line"))
        return None, diags
    cands = list(build.routes)
    if stage.route_from is not None:
        laid, err = _resolve(build, stage.route_from.tile, "from")
        if err is not None:
            return None, [err]
        assert laid is not None  # resolved (no error)
        cands = [r for r in cands if r.start == laid.key]
    picks: list[tuple[ast.Pick, int]] = []
    for p in stage.picks:
        laid, err = _resolve(build, p.junction, "junction")
        if err is not None:
            diags.append(err)
            continue
        assert laid is not None  # resolved (no error)
        if not any(r.choice_at(laid.key) for r in build.routes):
            diags.append(Diagnostic.of(
                rc.RC231, f"{laid.info.id} (tile {laid.key} of {build.name}) is not a junction of any route: "
                "no route has two ways on there", p.junction.span,
                "name a junction tile (a Y junction or a fork) where the routes part, or remove this line"))
            continue
        picks.append((p, laid.key))
    if diags:
        return None, diags
    matching = [r for r in cands if all(r.choice_at(k) == p.turn for p, k in picks)]
    if not matching:
        return None, [_no_route(stage, build, cands, picks)]
    if len(matching) > 1:
        parting = _parting(build, matching)
        if parting is not None:
            key, words = parting
            hint = " or ".join(f"`junction {tile_label(build, key)} {w}`" for w in words)
            hint = f"add {hint}"
        else:
            starts = sorted({tile_label(build, r.start) for r in matching})
            hint = "add " + " or ".join(f"`from {s}`" for s in starts)
        return None, [Diagnostic.of(
            rc.RC234, f"stage {stage.name.text} can take {len(matching)} routes over {build.name}; "
            "say which road it takes where they part", ref.span, hint)]
    route = matching[0]
    build.used_by[stage.name.text] = route
    return _written_out(stage, build, route), []


def _no_route(stage: ast.Stage, build: AreaBuild, cands: list[Route],
              picks: list[tuple[ast.Pick, int]]) -> Diagnostic:
    ref = stage.area
    assert ref is not None  # a stage over an area
    if not build.routes:
        return Diagnostic.of(
            rc.RC233, f"stage {stage.name.text}: {build.name} has no route from a start tile to a finish tile",
            ref.span, "lay a start tile (202, 301) and a finish tile (203, 302) joined by roads in the area")
    # the first pick no route (of those matching the picks before it) can take
    left = cands
    for p, key in picks:
        words = sorted({w for r in left if (w := r.choice_at(key))})
        now = [r for r in left if r.choice_at(key) == p.turn]
        if not now:
            if words:
                how = " or ".join(f"`junction {p.junction.text} {w}`" for w in words)
                hint = f"from where the stage comes, {p.junction.text} goes {' or '.join(words)}: write {how}"
            else:
                hint = "no route of the stage (with the roads named before) passes this junction: remove this line"
            return Diagnostic.of(
                rc.RC233, f"stage {stage.name.text}: no route over {build.name} takes {p.junction.text} "
                f"{p.turn}", p.span, hint)
        left = now
    return Diagnostic.of(rc.RC233, f"stage {stage.name.text}: no route over {build.name} from this start",
                            ref.span, "check the `from` line")


def _written_out(stage: ast.Stage, build: AreaBuild, route: Route) -> ast.Stage:
    """The stage in absolute form: the route's steps (spans on the area's lines), the area's scenery,
    then the stage's own tokens and notes."""
    items: list[ast.StageItem] = []
    for d in route.drives:
        step = build.step(d.tile.key)
        word, rev, road = step_words(d)
        pos_span = step.position.span if step.position is not None else step.span
        items.append(ast.Step(ast.Ident(d.tile.info.id, step.tile.span), word, rev, road,
                              ast.Position(d.tile.cell.q, d.tile.cell.r, d.tile.rot, pos_span), step.span))
    items.extend(build.area.scenery)
    items.extend(i for i in stage.items if isinstance(i, (ast.Token, ast.Meta)))
    return ast.Stage(stage.name, stage.title, items, stage.span)


def unused_tiles(build: AreaBuild) -> list[Diagnostic]:
    """RC238: road tiles of an area that no stage over it drives (only when some stage does)."""
    if not build.used_by or build.failed:
        return []
    driven = {k for r in build.used_by.values() for k in r.keys()}
    out = []
    for t in build.laid:
        if t.key not in driven and t.info.roads:
            out.append(Diagnostic.of(
                rc.RC238, f"{build.name}: no stage drives {t.info.id} (tile {t.key})", build.step(t.key).span,
                "lay it as scenery (`scenery ID at Q R rot N`), or add a stage over the area that drives it"))
    return out


def area_span(build: AreaBuild) -> Span | None:
    return build.area.span
