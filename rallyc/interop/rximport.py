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

from typing import cast

from rallyc.diagnostics import Diagnostic, Severity, Span
from rallyc.geometry.hexgrid import Hex
from rallyc.interop.importer import import_track, split_tiles
from rallyc.interop.model import STANDEES, TrackFile
from rallyc.interop.result import ImportResult, file_span
from rallyc.interop.rxlayout import RxLayout, rx_layouts
from rallyc.interop.rxstandees import Inferred, NotInferred, infer_standees
from rallyc.compilation.pipeline import compile_circuit, compile_loaded
from rallyc.project.loader import load_text
from rallyc.syntax import ast
from rallyc.syntax.formatter import format_document
from rallyc.syntax.parser import parse
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
    result = compile_loaded(load_text(text, "<import>"))
    return [d for d in result.diagnostics if d.severity is Severity.ERROR]


def _located(errors: list[Diagnostic], result: ImportResult, text: str, track: TrackFile) -> list[Diagnostic]:
    """The compiler's errors on the imported text, put on the file's tiles and tokens."""
    doc, _ = parse(text, "<import>")
    items = cast(ast.Circuit, doc.items[0]).items if doc.items else []  # the imported text is one circuit
    origin: dict[int, Span | None] = {}
    for item, span in zip(items, result.origins):
        if item.span is not None:
            origin[item.span.line] = span
    fallback = file_span(track)
    out = []
    for d in errors:
        span = origin.get(d.span.line) if d.span is not None and d.span.file == "<import>" else None
        out.append(Diagnostic(d.code, d.severity, f"the circuit read from this file does not compile: {d.message}",
                              span or fallback, f"{d.hint}; or fix the file in its editor and import it again"
                              if d.hint else "fix the file in its editor and import it again"))
    return out


#: what each standee is called in the two file formats (for the warnings)
_TOKEN_NAMES = {
    "rgt": {"finish": "whitedoor", "joker-entry": "greendoor", "joker-exit": "reddoor"},
    "rekee": {"finish": "finish", "joker-entry": "joker-entrance", "joker-exit": "joker-exit"},
}
_WHAT = {"finish": "finish-line standee", "joker-entry": "Joker entrance arch", "joker-exit": "Joker exit arch"}
_ORDER = ("finish", "joker-entry", "joker-exit")


def _insert(circuit: ast.Circuit, result: ImportResult, st: ast.Standee, span: Span | None) -> None:
    """Put a standee among the circuit's standees (finish, Joker entrance, Joker exit), before joker/pregrid."""
    at = next((k for k, it in enumerate(circuit.items) if isinstance(it, (ast.Joker, ast.Pregrid))),
              len(circuit.items))
    later = [k for k, it in enumerate(circuit.items[:at]) if isinstance(it, ast.Standee)
             and _ORDER.index(it.kind) > _ORDER.index(st.kind)]
    at = later[0] if later else at
    circuit.items.insert(at, st)
    result.origins.insert(at, span)


def _layout_arches(circuit: ast.Circuit, layout: RxLayout) -> list[Inferred]:
    """The Joker arches the file lacks, at the entry lines of the forks of the reading (the compiler reads
    the Joker's direction from its entrance arch, so they are set before the circuit is built)."""
    if not layout.joker or layout.forks is None:
        return []
    have = {s.kind for s in circuit.standees}
    out = []
    for kind, fork, verb in (("joker-entry", layout.forks[0], "leaves"), ("joker-exit", layout.forks[1], "rejoins")):
        if kind in have:
            continue
        tile = layout.loop[fork].info.id
        out.append(Inferred(ast.Standee(kind, ast.SpaceRef(fork + 1, 1)), fork + 1,
                            f"at the entry line of fork {tile} (step {fork + 1}), where the Joker {verb} the loop "
                            "(TRACK-RX-07, -08)"))
    return out


def _turned(layout: RxLayout, step: int) -> RxLayout:
    """The reading with its loop starting at loop step ``step`` (1-based)."""
    k = step - 1
    n = len(layout.loop)
    forks = None if layout.forks is None else ((layout.forks[0] - k) % n, (layout.forks[1] - k) % n)
    return RxLayout(layout.loop[k:] + layout.loop[:k], layout.joker, layout.pregrid, layout.misfits, forks)


def _with_inferred_standees(result: ImportResult, track: TrackFile, catalogue: Catalogue,
                            layout: RxLayout) -> RxLayout | None:
    """Add the standees the file lacks to the imported circuit (in place), each with a warning RC740, and a
    warning RC741 for each that cannot be inferred (the written file then fails check with RC403/RC406).

    Returns the reading turned to start at an inferred finish line that is not at step 1 (to import again),
    else None."""
    circuit = result.document.items[0]
    if not isinstance(circuit, ast.Circuit):
        return None
    wanted = {"finish"} | ({"joker-entry", "joker-exit"} if layout.joker else set())
    if wanted <= {s.kind for s in circuit.standees}:
        return None
    steps = layout.steps
    names = _TOKEN_NAMES.get(track.format, _TOKEN_NAMES["rekee"])

    def span_of(step: int) -> Span | None:
        return steps[step - 1].tile.span if 0 < step <= len(steps) else file_span(track)

    found = _layout_arches(circuit, layout)
    for inf in found:
        _insert(circuit, result, inf.standee, span_of(inf.step))
    missing: list[NotInferred] = []
    build = compile_circuit(circuit, catalogue)
    if build.placement.complete and build.loop_closed:
        more, missing = infer_standees(build)
        for inf in more:
            if inf.standee.kind == "finish" and 1 < inf.standee.at.step <= len(layout.loop):
                return _turned(layout, inf.standee.at.step)
            _insert(circuit, result, inf.standee, span_of(inf.step))
        found += more
    for inf in sorted(found, key=lambda f: _ORDER.index(f.standee.kind)):
        st = inf.standee
        result.diagnostics.append(Diagnostic.warning(
            "RC740", f"the file has no {_WHAT[st.kind]} (`{names[st.kind]}`): written `standee {st.kind} at "
            f"{st.at}`, {inf.why}", span_of(inf.step),
            f"check it against the circuit as you race it; move the standee (or add the `{names[st.kind]}` token "
            "in the editor and import again) if it stands elsewhere"))
    for miss in missing:
        result.diagnostics.append(Diagnostic.warning(
            "RC741", f"the file has no {_WHAT[miss.kind]} (`{names[miss.kind]}`) and none can be inferred: "
            f"{miss.why}", file_span(track),
            f"{miss.hint} in the written file, or add the `{names[miss.kind]}` token in the editor and import again"))
    return None


def import_rx(track: TrackFile, catalogue: Catalogue, fallback_title: str
              ) -> tuple[ImportResult, str, list[Diagnostic]] | None:
    """(result, rallyc text, compile errors located in the file) of an RX circuit, or None when no
    closed loop takes in every tile (the importer then writes the absolute form)."""
    road_tiles, _ = split_tiles(track, catalogue)
    layouts = rx_layouts(road_tiles, _arches(track))
    best = None
    for layout in layouts[:MAX_TRIES]:
        result = import_track(track, catalogue, fallback_title=fallback_title, layout=layout)
        turned = _with_inferred_standees(result, track, catalogue, layout)
        if turned is not None:  # start the loop at the inferred finish line, as when the file has the arch
            layout = turned
            result = import_track(track, catalogue, fallback_title=fallback_title, layout=layout)
            _with_inferred_standees(result, track, catalogue, layout)
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
