"""AST to Track: placement of tiles on the hex grid and the graph of spaces.

Public entry points:

- ``compile_loaded(loaded) -> CompileResult``: every design of a loaded file,
  compiled, with all diagnostics (names, geometry, route, RX, inventory, tokens).
- ``compile_flipped(stage_ast, catalogue, flipped_steps) -> Track``: a stage with some tiles on
  their other side, in place (Monte-Carlo Weather); ``Design.flipper(name)`` keeps what it needs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rallyc.compiler.flip import Flipper, compile_flipped
from rallyc.compiler.track import PlacedTile, Space, Track
from rallyc.diagnostics import Diagnostic

__all__ = ["CompileResult", "Design", "AreaDesign", "compile_loaded", "compile_flipped", "Flipper", "Track",
           "Space", "PlacedTile"]


@dataclass
class Design:
    """A compiled rally, one-off stage or circuit."""

    #: ``rally``, ``stage`` or ``circuit``
    kind: str
    title: str
    author: str | None
    #: the stages in driving order (a circuit or a one-off stage has one)
    tracks: list[Track]
    options: dict[str, str | int | None] = field(default_factory=dict)
    meta: dict[str, str] = field(default_factory=dict)
    #: per stage name: (the stage's AST, the tile catalogue), to recompile it with tiles flipped
    sources: dict[str, tuple] = field(default_factory=dict, repr=False, compare=False)

    def flipper(self, name: str | None = None) -> Flipper | None:
        """What recompiling the stage ``name`` (the first when None) with flipped tiles needs; None when
        the stage was not compiled from a route (circuits) or the design was built by hand."""
        track = self.track(name)
        src = self.sources.get(track.name)
        return Flipper(*src) if src is not None else None

    def track(self, name: str | None = None) -> Track:
        """The stage with this name (the first when None)."""
        if name is None:
            return self.tracks[0]
        for t in self.tracks:
            if t.name == name:
                return t
        raise KeyError(name)


@dataclass
class AreaDesign:
    """A rally area: its tiles (laid once) and the stages that run over it, each with its route."""

    title: str
    author: str | None
    #: every tile of the area (road tiles with no road driven, then scenery)
    placed: list[PlacedTile]
    #: stage name -> the steps of its route, as area tile numbers in driving order
    routes: dict[str, list[int]] = field(default_factory=dict)
    #: stage name -> its compiled track
    tracks: dict[str, Track] = field(default_factory=dict)


@dataclass
class CompileResult:
    designs: list[Design]
    diagnostics: list[Diagnostic]
    #: the rally areas of the file (and of the files it uses), in file order
    areas: list[AreaDesign] = field(default_factory=list)


def _options(opts) -> dict[str, str | int | None]:
    return {o.name: o.value for o in opts}


def _meta(items, author: str | None) -> dict[str, str]:
    meta = {m.key: m.value for m in items}
    if author and "author" not in meta:
        meta["author"] = author
    return meta


def _known_steps(steps, catalogue) -> set[int]:
    return {i for i, s in enumerate(steps, start=1) if catalogue.get(s.tile.text) is not None}


def compile_loaded(loaded, default_boxes=None) -> CompileResult:
    """Compile every design of a loaded file: rallies (stages in order), one-off stages, circuits.

    ``default_boxes``: the boxes owned when the file declares none (the settings' ``boxes``).

    A stage whose steps name tiles that are not in the catalogue is not built
    (the name check reports the tiles); everything else is compiled and checked.
    """
    from rallyc.checks.names import check_names
    from rallyc.checks.tiles import check_tiles
    from rallyc.compiler.circuit import compile_circuit
    from rallyc.compiler.stage import compile_stage
    from rallyc.tiles.catalogue import Catalogue

    catalogue = Catalogue.from_tilesets(loaded.tilesets)
    diags: list[Diagnostic] = list(loaded.diagnostics)
    diags.extend(check_names(loaded, catalogue))
    diags.extend(check_tiles(loaded))
    boxes = [b.text for doc in loaded.documents for bx in doc.boxes for b in bx.names] or (
        list(default_boxes) if default_boxes else None)
    designs: list[Design] = []
    sources: dict[str, tuple] = {}
    areas = _lay_areas(loaded, catalogue, diags)

    def stage_track(stage) -> Track | None:
        over = stage.area
        if over is not None:
            from rallyc.compiler.area import stage_over_area

            stage, found = stage_over_area(stage, areas)
            diags.extend(found)
            if stage is None:
                if over.title in areas:
                    areas[over.title].failed = True
                return None
        known = _known_steps(stage.steps, catalogue)
        if len(known) < len(stage.steps):
            return None
        build = compile_stage(stage, catalogue, known, boxes)
        # the stages of an area share its tiles: the inventory is checked once, for the area
        diags.extend(d for d in build.diagnostics if over is None or not d.code.startswith("RC50"))
        if build.track is not None:
            sources[build.track.name] = (stage, catalogue)
            if over is not None:
                areas[over.title].tracks[stage.name.text] = build.track
        return build.track

    root = loaded.root
    for item in root.items:
        kind = type(item).__name__
        if kind == "Rally":
            if not item.stages:
                diags.append(Diagnostic.error("RC310", f"rally \"{item.title}\" has no stages", item.span,
                                              "add `stage NAME { ... }` blocks with the route of each stage"))
            sources = {}
            tracks = [t for t in (stage_track(s) for s in item.stages) if t is not None]
            designs.append(Design("rally", item.title, item.author, tracks, _options(item.options),
                                  _meta(item.meta, item.author), sources))
        elif kind == "Stage":
            sources = {}
            t = stage_track(item)
            author = next((m.value for m in item.meta if m.key == "author"), None)
            designs.append(Design("stage", item.title or item.name.text, author, [t] if t else [], {},
                                  _meta(item.meta, None), sources))
        elif kind == "Circuit":
            known = _known_steps(item.steps, catalogue)
            tracks = []
            if len(known) == len(item.steps):
                build = compile_circuit(item, catalogue, boxes)
                diags.extend(build.diagnostics)
                if build.track is not None:
                    tracks.append(build.track)
            designs.append(Design("circuit", item.title, item.author, tracks, _options(item.options),
                                  _meta(item.meta, item.author)))
    area_designs = _area_designs(areas, boxes, diags)
    return CompileResult(designs, _dedupe(diags), area_designs)


def _lay_areas(loaded, catalogue, diags: list[Diagnostic]) -> dict:
    """Every ``area`` of the file and the files it uses, laid on the grid, by title (RC239: twice)."""
    from rallyc.compiler.area import lay_area
    from rallyc.syntax import ast

    areas: dict = {}
    for doc in loaded.documents or [loaded.root]:
        for item in doc.items:
            if not isinstance(item, ast.Area):
                continue
            first = areas.get(item.title)
            if first is not None:
                diags.append(Diagnostic.error(
                    "RC239", f'area "{item.title}" is written twice', item.span,
                    "give every area its own title", ((first.area.span, "first area of that title"),)
                    if first.area.span else ()))
                continue
            build = lay_area(item, catalogue)
            areas[item.title] = build
            diags.extend(build.diagnostics)
    return areas


def _area_designs(areas: dict, boxes, diags: list[Diagnostic]) -> list[AreaDesign]:
    """The areas as compiled designs, with their inventory (counted once) and the tiles no stage drives."""
    from rallyc.checks import inventory
    from rallyc.compiler.area import unused_tiles

    out = []
    for build in areas.values():
        found = inventory.check_sides(build, boxes) + inventory.check_boxes(build, boxes) + unused_tiles(build)
        diags.extend(d for d in _dedupe(found) if d not in diags)
        out.append(AreaDesign(build.area.title, build.area.author, build.placed(),
                              {name: r.keys() for name, r in build.used_by.items()}, dict(build.tracks)))
    return out


def _dedupe(diags: list[Diagnostic]) -> list[Diagnostic]:
    seen = set()
    out = []
    for d in diags:
        key = (d.code, d.message, d.span)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out
