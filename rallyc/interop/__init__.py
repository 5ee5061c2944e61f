"""Exchange tracks with other tools: the Rekee web editor (JSON) and the Windows Rallyman Track Editor (RGT).

- :func:`import_text`: a Rekee or RGT file (format told by its content) as rallyc text;
- :func:`export_loaded`: a compiled stage or circuit as Rekee JSON or RGT text.

Formats, coordinates and token codes: ``/work/shared/data/formats.md`` (summarised in
the README). Every problem is a located diagnostic (codes RC7xx); nothing raises on bad input.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from rallyc.compiler.track import PlacedTile, Track
from rallyc.diagnostics import Diagnostic, has_errors
from rallyc.geometry.hexgrid import world_to_own
from rallyc.interop.exporter import export_track
from rallyc.interop.importer import ImportResult, import_track
from rallyc.interop.model import TileRecord, TokenRecord, TrackFile
from rallyc.interop.reader import detect_format, read_track
from rallyc.interop.rximport import import_rx
from rallyc.interop.writer import write_rekee, write_rgt
from rallyc.compilation.pipeline import compile_loaded
from rallyc.project.loader import bundled_tilesets, load_text
from rallyc.syntax import ast
from rallyc.syntax.formatter import format_document
from rallyc.tiles.catalogue import Catalogue

if TYPE_CHECKING:  # for annotations only
    from rallyc.compiler.design import Design

__all__ = [
    "ImportOutcome", "import_text", "export_loaded", "read_track", "detect_format", "write_rekee", "write_rgt",
    "TrackFile", "TileRecord", "TokenRecord", "import_track", "export_track", "placed_from_route",
    "bundled_catalogue", "FORMATS",
]

FORMATS = ("rekee", "rgt")


def bundled_catalogue() -> Catalogue:
    """The catalogue of the tilesets shipped with rallyc."""

    return Catalogue.from_tilesets(bundled_tilesets())


@dataclass
class ImportOutcome:
    """The rallyc text of an imported track (None when the file has errors) and what was found."""

    text: str | None
    track: TrackFile | None = None
    result: ImportResult | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)


def placed_from_route(result: ImportResult) -> list[PlacedTile]:
    """The placed tiles of an imported route (as the compiler places them), for checks and tests."""
    out = []
    for i, d in enumerate(result.route, start=1):
        out.append(PlacedTile(i, d.info.id, d.tile.q, d.tile.r, d.tile.rot, d.road, d.entry_world, d.exit_world))
    top = result.document.items[0]
    stage = top.stages[0] if isinstance(top, ast.Rally) else cast(ast.Stage, top)  # an import writes a stage
    for sc in stage.scenery:
        p = sc.position
        out.append(PlacedTile(0, sc.tile.text, p.q, p.r, p.rot, None, None, None, True))
    return out


def _compile_text(text: str):
    """Compile rallyc text; the designs, or [] when the compiler cannot."""
    try:
        return compile_loaded(load_text(text, "<import>")).designs
    except Exception:  # noqa: BLE001 - verification is best effort; import itself never depends on it
        return []


def _directions(designs, result: ImportResult, catalogue: Catalogue) -> dict[int, tuple[int, bool]]:
    """Step -> (road, forward) as the compiler drives the steps of an absolute-form import."""
    out: dict[int, tuple[int, bool]] = {}
    if not designs or not designs[0].tracks:
        return out
    for p in designs[0].tracks[0].placed:
        if p.scenery or not p.road or p.entry is None:
            continue
        info = catalogue.get(p.tile)
        if info is None:
            continue
        rd = info.roads[p.road - 1]
        out[p.step] = (p.road, world_to_own(p.entry, p.rot) == rd.entry)
    return out


def import_text(text: str, display: str, catalogue: Catalogue | None = None, *,
                fallback_title: str = "Imported track") -> ImportOutcome:
    """Read a Rekee/RGT file's text and write it as rallyc text (canonical layout)."""
    catalogue = catalogue or bundled_catalogue()
    track, diags = read_track(text, display, catalogue)
    if track is None:
        return ImportOutcome(None, None, None, diags)
    result = import_track(track, catalogue, fallback_title=fallback_title)
    out = format_document(result.document)
    compile_errors: list[Diagnostic] = []
    if result.kind == "circuit" and not result.route and not has_errors(diags):
        rx = import_rx(track, catalogue, fallback_title)
        if rx is not None:  # an RX circuit: loop, Joker and Pre-grid found
            result, out, compile_errors = rx
    if not result.route and result.layout is None and not result.junctions and any(t.tokens for t in track.tiles):
        # absolute form: number the zones the way the compiler drives each step
        directions = _directions(_compile_text(out), result, catalogue)
        if directions:
            result = import_track(track, catalogue, fallback_title=fallback_title, directions=directions)
            out = format_document(result.document)
    if has_errors(diags):  # tiles were left out: whether they chain says nothing
        diags = diags + [d for d in result.diagnostics if d.code != "RC710"]
    else:
        # the errors of the circuit as written (a standee the file does not have, say) are not problems of
        # the file read: the text is written, and `rallyc import` reports check's errors on it and exits 1
        diags = diags + result.diagnostics
    if has_errors(diags):
        return ImportOutcome(None, track, result, diags)
    return ImportOutcome(out, track, result, diags)


#: (title, author, stage or circuit node, track name)
_Node = tuple[str, "str | None", "ast.Stage | ast.Circuit", str]


def _design_nodes(doc: ast.Document) -> list[_Node]:
    """(title, author, stage or circuit node, track name) for every stage and circuit, in file order."""
    out: list[_Node] = []
    for item in doc.items:
        if isinstance(item, ast.Rally):
            for st in item.stages:
                out.append((item.title, item.author, st, st.name.text))
        elif isinstance(item, ast.Stage):
            author = next((m.value for m in item.meta if m.key == "author"), None)
            out.append((item.title or item.name.text, author, item, item.name.text))
        elif isinstance(item, ast.Circuit):
            out.append((item.title, item.author, item, item.title))
    return out


def _area_to_export(compiled, stage: str | None):
    """The area to write: the one ``stage`` names by its title, or the first area when no stage is named."""
    areas = getattr(compiled, "areas", [])
    if stage is None:
        return areas[0] if areas else None
    return next((a for a in areas if a.title == stage), None)


def _export_area(area, doc: ast.Document, catalogue: Catalogue, fmt: str):
    """A whole rally area as one track file: every tile once, the tokens of every stage over it (a token
    on a tile two stages share is written once)."""
    records: dict[tuple[int, int], TileRecord] = {}
    for p in area.placed:
        records.setdefault((p.q, p.r), TileRecord(p.tile, p.q, p.r, p.rot % 6, [], p.tile))
    diags: list[Diagnostic] = []
    stages = {n[3]: n[2] for n in _design_nodes(doc)}
    for name, track in area.tracks.items():
        node = stages.get(name)
        tokens = list(node.tokens) if node is not None else []
        tf, more = export_track(area.title, area.author, track.placed, tokens, track.standees, catalogue, fmt)
        diags += more
        for rec in tf.tiles:
            target = records.get((rec.q, rec.r))
            if target is None:
                continue
            target.tokens.extend(t for t in rec.tokens if t not in target.tokens)
    return TrackFile(area.title, area.author or "", list(records.values()), fmt), diags


def export_loaded(loaded, fmt: str, stage: str | None = None) -> tuple[str | None, list[Diagnostic]]:
    """Compile a loaded file and write one of its stages or circuits (the first, or ``stage``) as ``fmt``.

    A file with a rally area writes the whole area (every tile once) unless ``stage`` names one of its
    stages; ``stage`` may also name an area by its title.

    Returns (text or None, diagnostics). Nothing is written for a file with errors.
    """
    diags = list(loaded.diagnostics)
    if has_errors(diags):
        return None, diags
    compiled = compile_loaded(loaded)
    diags += compiled.diagnostics
    if has_errors(diags):
        return None, diags
    area = _area_to_export(compiled, stage)
    if area is not None:
        catalogue = Catalogue.from_tilesets(loaded.tilesets)
        tf, more = _export_area(area, loaded.root, catalogue, fmt)
        diags += more
        return (write_rekee(tf) if fmt == "rekee" else write_rgt(tf)), diags
    tracks = [(d, t) for d in compiled.designs for t in d.tracks]
    nodes = _design_nodes(loaded.root)
    pairs: list[tuple[Design, Track, _Node | None]] = []
    if len(nodes) == len(tracks):
        pairs = [(d, t, n) for (d, t), n in zip(tracks, nodes)]
    else:
        for d, t in tracks:
            node = next((n for n in nodes if n[3] == t.name), None)
            pairs.append((d, t, node))
    if stage is not None:
        pairs = [p for p in pairs if p[1].name == stage or p[0].title == stage]
    if not pairs:
        what = f"no stage or circuit named `{stage}`" if stage else "no stage or circuit to export"
        names = ", ".join(t.name for _, t in tracks)
        diags.append(Diagnostic.error("RC712", f"{loaded.root.path}: {what}", None,
                                      f"stages in this file: {names}" if names else
                                      "export a file that has a stage, rally or circuit"))
        return None, diags
    design, track, node = pairs[0]
    title = design.title if len(design.tracks) == 1 else f"{design.title} {track.name}"
    tokens = list(node[2].tokens) if node else []
    catalogue = Catalogue.from_tilesets(loaded.tilesets)
    tf, more = export_track(title, design.author, track.placed, tokens, track.standees, catalogue, fmt)
    diags += more
    return (write_rekee(tf) if fmt == "rekee" else write_rgt(tf)), diags
