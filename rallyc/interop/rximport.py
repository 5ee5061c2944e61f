"""Import an RX circuit with fork tiles: its main loop, Joker and Pre-grid, checked by the compiler.

The tiles and arches of the file are read as a circuit by
:func:`rallyc.interop.rxlayout.rx_layouts`; the best readings are written as
rallyc text (the RX form of :mod:`rallyc.interop.importer`) and compiled, and
the first that compiles without errors is kept. When none does, the best
reading is kept with the compiler's errors (e.g. RC406, no Joker exit arch),
each put on the tile or token of the file it comes from, so that the import
says what is wrong with the file rather than writing a circuit that does not
compile.
"""

from __future__ import annotations

from rallyc.diagnostics import Diagnostic, Severity, Span
from rallyc.geometry.hexgrid import Hex
from rallyc.interop.importer import ImportResult, _file_span, import_track, split_tiles
from rallyc.interop.model import STANDEES, TrackFile
from rallyc.interop.rxlayout import rx_layouts
from rallyc.tiles.catalogue import Catalogue

__all__ = ["import_rx", "MAX_TRIES"]

#: readings compiled at most (the ranking puts the likely ones first)
MAX_TRIES = 6


def _arches(track: TrackFile) -> dict[Hex, set[str]]:
    out: dict[Hex, set[str]] = {}
    for t in track.tiles:
        kinds = {STANDEES[k.kind] for k in t.tokens if k.kind in STANDEES}
        if kinds:
            out.setdefault(Hex(t.q, t.r), set()).update(kinds)
    return out


def _compile_errors(text: str) -> list[Diagnostic]:
    from rallyc.pipeline import compile_loaded
    from rallyc.project import load_text

    result = compile_loaded(load_text(text, "<import>"))
    return [d for d in result.diagnostics if d.severity is Severity.ERROR]


def _located(errors: list[Diagnostic], result: ImportResult, text: str, track: TrackFile) -> list[Diagnostic]:
    """The compiler's errors on the imported text, put on the file's tiles and tokens."""
    from rallyc.syntax.parser import parse

    doc, _ = parse(text, "<import>")
    items = doc.items[0].items if doc.items else []
    origin: dict[int, Span | None] = {}
    for item, span in zip(items, result.origins):
        if item.span is not None:
            origin[item.span.line] = span
    fallback = _file_span(track)
    out = []
    for d in errors:
        span = origin.get(d.span.line) if d.span is not None and d.span.file == "<import>" else None
        out.append(Diagnostic(d.code, d.severity, f"the circuit read from this file does not compile: {d.message}",
                              span or fallback, f"{d.hint}; or fix the file in its editor and import it again"
                              if d.hint else "fix the file in its editor and import it again"))
    return out


def import_rx(track: TrackFile, catalogue: Catalogue, fallback_title: str
              ) -> tuple[ImportResult, str, list[Diagnostic]] | None:
    """(result, rallyc text, compile errors located in the file) of an RX circuit, or None when no
    closed loop takes in every tile (the importer then writes the absolute form)."""
    from rallyc.syntax.formatter import format_document

    road_tiles, _ = split_tiles(track, catalogue)
    layouts = rx_layouts(road_tiles, _arches(track))
    best = None
    for layout in layouts[:MAX_TRIES]:
        result = import_track(track, catalogue, fallback_title=fallback_title, layout=layout)
        text = format_document(result.document)
        errors = _compile_errors(text)
        if not errors:
            return result, text, []
        if best is None:
            best = (result, text, errors)
    if best is None:
        return None
    result, text, errors = best
    return result, text, _located(errors, result, text, track)
