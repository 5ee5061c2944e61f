"""Compile a loaded file: build every stage and circuit, then run the checks on each complete build.

The one place where the build (:mod:`rallyc.compiler`) and the checks (:mod:`rallyc.checks`) meet:
the build never calls a check and a check never builds.

- ``compile_loaded(loaded) -> CompileResult``: every design of a loaded file, compiled, with all
  diagnostics (names, geometry, route, RX, inventory, tokens).
- ``compile_file(path) -> (CompileResult, Loaded)``.
- ``compile_stage`` / ``compile_circuit``: one stage or circuit, built and checked.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Sequence

from rallyc.checks import check_file, inventory, run_checks
from rallyc.compiler.area import AreaBuild, lay_area, stage_over_area, unused_tiles
from rallyc.compiler.circuit import build_circuit
from rallyc.compiler.design import AreaDesign, CompileResult, Design
from rallyc.compiler.stage import CircuitBuild, StageBuild, build_stage
from rallyc.compiler.track import Track
from rallyc.diagnostics import Diagnostic, Span
from rallyc.model import codes as rc
from rallyc.project.loader import Loaded, load
from rallyc.syntax import ast
from rallyc.tiles.catalogue import Catalogue

__all__ = ["CompileResult", "Design", "compile_loaded", "compile_file", "compile_stage", "compile_circuit"]


def compile_stage(stage: ast.Stage, catalogue: Catalogue, known: set[int] | None = None,
                  boxes: list[str] | None = None) -> StageBuild:
    """Build one stage and check it: the build, its diagnostics followed by the checks'."""
    build = build_stage(stage, catalogue, known, boxes)
    build.diagnostics.extend(run_checks(build))
    return build


def compile_circuit(circuit: ast.Circuit, catalogue: Catalogue, boxes: list[str] | None = None) -> CircuitBuild:
    """Build one circuit and check it: the build, its diagnostics followed by the checks'."""
    build = build_circuit(circuit, catalogue, boxes)
    build.diagnostics.extend(run_checks(build))
    return build


def _options(opts: list[ast.Option]) -> dict[str, str | int | None]:
    return {o.name: o.value for o in opts}


def _meta(items: list[ast.Meta], author: str | None) -> dict[str, str]:
    meta = {m.key: m.value for m in items}
    if author and "author" not in meta:
        meta["author"] = author
    return meta


def _known_steps(steps: list[ast.Step], catalogue: Catalogue) -> set[int]:
    return {i for i, s in enumerate(steps, start=1) if catalogue.get(s.tile.text) is not None}


#: called with each stage's and circuit's track as soon as it is checked: (index of its design in
#: ``CompileResult.designs``, the track, the catalogue of its tiles)
EachTrack = Callable[[int, Track, Catalogue], None]


def compile_loaded(loaded: Loaded, default_boxes: Sequence[str] | None = None, *,
                   keep_tracks: bool = True, each_track: EachTrack | None = None) -> CompileResult:
    """Compile every design of a loaded file: rallies (stages in order), one-off stages, circuits.

    ``default_boxes``: the boxes owned when the file declares none (the settings' ``boxes``).
    ``keep_tracks=False`` (a check, which needs only the diagnostics): each stage's and circuit's track is
    dropped once it is checked, so memory stays that of one track, not of the whole file; the designs
    then carry no tracks. The tracks of an area's stages are kept (the area's checks read them).
    ``each_track`` sees every track the designs would hold, in their order, as soon as it is checked (with
    ``keep_tracks=False``, a command that reads each track once holds one track at a time: ``rallyc stats``).

    A stage whose steps name tiles that are not in the catalogue is not built
    (the name check reports the tiles); everything else is compiled and checked.
    """
    catalogue = Catalogue.from_tilesets(loaded.tilesets)
    diags: list[Diagnostic] = list(loaded.diagnostics)
    diags.extend(check_file(loaded, catalogue))
    boxes = [b.text for doc in loaded.documents for bx in doc.boxes for b in bx.names] or (
        list(default_boxes) if default_boxes else None)
    designs: list[Design] = []
    sources: dict[str, tuple[ast.Stage, Catalogue]] = {}
    areas = _lay_areas(loaded, catalogue, boxes, diags)

    def stage_track(stage: ast.Stage) -> Track | None:
        over = stage.area
        if over is not None:
            written, found = stage_over_area(stage, areas)
            diags.extend(found)
            if written is None:
                if over.title in areas:
                    areas[over.title].failed = True
                return None
            stage = written
        known = _known_steps(stage.steps, catalogue)
        if len(known) < len(stage.steps):
            return None
        build = compile_stage(stage, catalogue, known, boxes)
        # the stages of an area share its tiles: the inventory is checked once, for the area
        diags.extend(d for d in build.diagnostics if over is None or not d.code.startswith("RC50"))
        if build.track is None:
            return None
        if over is not None:
            areas[over.title].tracks[stage.name.text] = build.track
        if each_track is not None:
            each_track(len(designs), build.track, catalogue)
        if not keep_tracks:
            return None
        sources[build.track.name] = (stage, catalogue)
        return build.track

    root = loaded.root
    for item in root.items:
        if isinstance(item, ast.Rally):
            if not item.stages:
                diags.append(Diagnostic.of(rc.RC310, f"rally \"{item.title}\" has no stages", item.span,
                                              "add `stage NAME { ... }` blocks with the route of each stage"))
            sources = {}
            tracks = [t for t in (stage_track(st) for st in item.stages) if t is not None]
            designs.append(Design("rally", item.title, item.author, tracks, _options(item.options),
                                  _meta(item.meta, item.author), sources))
        elif isinstance(item, ast.Stage):
            sources = {}
            t = stage_track(item)
            author = next((m.value for m in item.meta if m.key == "author"), None)
            designs.append(Design("stage", item.title or item.name.text, author, [t] if t else [], {},
                                  _meta(item.meta, None), sources))
        elif isinstance(item, ast.Circuit):
            known = _known_steps(item.steps, catalogue)
            circuit_tracks: list[Track] = []
            if len(known) == len(item.steps):
                build = compile_circuit(item, catalogue, boxes)
                diags.extend(build.diagnostics)
                if build.track is not None and each_track is not None:
                    each_track(len(designs), build.track, catalogue)
                if build.track is not None and keep_tracks:
                    circuit_tracks.append(build.track)
            designs.append(Design("circuit", item.title, item.author, circuit_tracks, _options(item.options),
                                  _meta(item.meta, item.author)))
    area_designs = _area_designs(areas, diags)
    return CompileResult(designs, _dedupe(diags), area_designs)


def _lay_areas(loaded: Loaded, catalogue: Catalogue, boxes: list[str] | None,
               diags: list[Diagnostic]) -> dict[str, AreaBuild]:
    """Every ``area`` of the file and the files it uses, laid on the grid, by title (RC239: twice)."""
    areas: dict[str, AreaBuild] = {}
    for doc in loaded.documents or [loaded.root]:
        for item in doc.items:
            if not isinstance(item, ast.Area):
                continue
            first = areas.get(item.title)
            if first is not None:
                diags.append(Diagnostic.of(
                    rc.RC239, f'area "{item.title}" is written twice', item.span,
                    "give every area its own title", ((first.area.span, "first area of that title"),)
                    if first.area.span else ()))
                continue
            build = lay_area(item, catalogue, boxes)
            areas[item.title] = build
            diags.extend(build.diagnostics)
    return areas


def _area_designs(areas: dict[str, AreaBuild], diags: list[Diagnostic]) -> list[AreaDesign]:
    """The areas as compiled designs, with their inventory (counted once) and the tiles no stage drives."""
    out = []
    for build in areas.values():
        found = inventory.check_sides(build) + inventory.check_boxes(build) + unused_tiles(build)
        diags.extend(d for d in _dedupe(found) if d not in diags)
        out.append(AreaDesign(build.area.title, build.area.author, build.placed(),
                              {name: r.keys() for name, r in build.used_by.items()}, dict(build.tracks)))
    return out


def _dedupe(diags: list[Diagnostic]) -> list[Diagnostic]:
    seen: set[tuple[str, str, Span | None]] = set()
    out: list[Diagnostic] = []
    for d in diags:
        key = (d.code, d.message, d.span)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


def compile_file(path: str | Path, display: str | None = None) -> tuple[CompileResult, Loaded]:
    """Load a file with its includes and compile it: ``(CompileResult, Loaded)``."""
    loaded = load(path, display)
    return compile_loaded(loaded), loaded
