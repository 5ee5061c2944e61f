"""A file compiled, or why not: the one way the facade, the records and the analysis read a design.

:func:`compile_path` loads a file with its includes and compiles it into a :class:`Compilation` (never
raising for bad input); :func:`load_design` gives its first design, or the one holding a stage, and raises
:class:`~rallyc.diagnostics.DiagnosticError` when the file has errors. :func:`compile_paused` is the one call
of the compiler (:func:`rallyc.compilation.pipeline.compile_loaded`, looked up on its module at each call) with Python's
garbage collector paused.

This module sits above the pipeline and below the records, the analysis and :mod:`rallyc.api` (which
re-exports it); it imports the compiler at module level, so importing it costs what compiling needs.
"""

from __future__ import annotations

import gc
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Sequence

from rallyc.cache.compiled_files import kept_compilation
from rallyc.compilation.collector import held, paused_keeping
from rallyc.compiler import CompileResult, Design, Track
from rallyc.project.config import Config, ConfigError, load_config
from rallyc.diagnostics import Diagnostic, DiagnosticError, Span, has_errors
from rallyc.model import codes as rc
from rallyc.compilation import pipeline
from rallyc.compilation.pipeline import EachTrack
from rallyc.project.loader import Loaded, decode_source, load, load_text
from rallyc.tiles.catalogue import Catalogue

__all__ = ["Compilation", "collector_paused", "collector_held", "compile_paused", "check_boxes", "compile_path",
           "load_design"]


#: The collector paused while a file compiles (its objects then join the oldest generation), and paused for
#: a block then a young collection (:mod:`rallyc.compilation.collector`); kept under these names for their callers.
collector_paused = paused_keeping
collector_held = held


def compile_paused(loaded: Loaded, boxes: Sequence[str] | None = None, *, keep_tracks: bool = True,
                   each_track: EachTrack | None = None) -> CompileResult:
    """Every design of a loaded file compiled, with all diagnostics, the garbage collector paused meanwhile;
    ``boxes``: the boxes owned when the file declares none. ``keep_tracks=False`` drops each track once it is
    checked (designs without tracks; a check of a large file then holds one track at a time); ``each_track``
    sees each track once checked (:func:`rallyc.compilation.pipeline.compile_loaded`)."""
    if each_track is not None and gc.isenabled():
        each_track = _collecting_after(each_track)
    with collector_paused():
        return pipeline.compile_loaded(loaded, default_boxes=boxes, keep_tracks=keep_tracks, each_track=each_track)


def _collecting_after(each_track: EachTrack) -> EachTrack:
    """``each_track``, then a young collection: the reference cycles the reader made and left (a networkx graph
    that an algorithm read through a cached view is one) are freed before the next track is built, not once the
    whole file is compiled. It walks the objects made since the previous track's, so a compile walks each
    object about once. (The track itself is freed when the compiler drops it, by its reference count, unless
    the reader left a cycle that holds it: it is still alive during this collection.)"""
    def each(design: int, track: Track, catalogue: Catalogue) -> None:
        each_track(design, track, catalogue)
        gc.collect(0)

    return each


def check_boxes(config: Config, loaded: Loaded) -> None:
    """Raise :class:`ConfigError` when the settings name a box (tileset) the file does not have in scope."""
    for box in config.boxes or ():
        if box not in loaded.tilesets:
            raise ConfigError(f"{config.path}: boxes: no box (tileset) named `{box}` "
                              f"(boxes in scope: {', '.join(sorted(loaded.tilesets))})")


@dataclass
class Compilation:
    """A file compiled, or why not: the one way every command and :func:`load_design` read a design."""

    #: None when standard input was not text
    loaded: Loaded | None
    #: None when loading stopped (a code that stops compilation, :data:`rallyc.model.codes.STOPPING`) or the
    #: compiler failed
    result: CompileResult | None
    #: what to show the user: loading's diagnostics when it stopped, else the compiler's (all of them)
    diagnostics: list[Diagnostic]
    #: why there is nothing to use: None, ``"io"`` (the file cannot be read), ``"errors"`` (problems in the
    #: file), ``"empty"`` (no stage, rally or circuit) or ``"internal"`` (a bug in rallyc: ``internal``)
    problem: str | None = None
    internal: str | None = None

    @property
    def designs(self) -> list[Design]:
        """The compiled designs (empty unless the file compiled)."""
        return self.result.designs if self.result is not None else []


def compile_path(path: str | os.PathLike, *, stdin: bytes | None = None, display: str | None = None,
                 keep_tracks: bool = True, each_track: EachTrack | None = None) -> Compilation:
    """Load a file (``-``: standard input, whose bytes are ``stdin``) with its includes and compile it.

    Never raises for bad input: ``problem`` says what stopped it. The settings file's ``boxes`` apply.
    ``keep_tracks=False`` and ``each_track``: read each track once checked instead of keeping them all
    (:func:`rallyc.compilation.pipeline.compile_loaded`). A file (not standard input) compiled whole is kept in the
    user cache (:mod:`rallyc.cache.compiled_files`): the next compilation of the unchanged file unpickles it.
    """
    file = Path(path)
    shown = display or str(path)
    if str(path) == "-" or not keep_tracks or each_track is not None:
        return _compiled(path, stdin, shown, keep_tracks, each_track)
    config = load_config(_folder(file))
    return kept_compilation("compilation", file, shown, (str(config.path), config.boxes),
                            lambda: _keepable(_compiled(path, stdin, shown, keep_tracks, each_track)))


def _folder(file: Path) -> Path:
    """The folder whose settings apply to ``file``."""
    return file.parent if str(file.parent) else Path(".")


def _keepable(compiled: Compilation) -> tuple[Compilation, list[Path] | None]:
    """(the compilation, the other files it read), or (the compilation, None) when it must not be kept: loading
    reported something (an include not read), or it stopped on a missing file or a bug in rallyc."""
    loaded = compiled.loaded
    if loaded is None or loaded.diagnostics or compiled.problem in ("io", "internal"):
        return compiled, None
    return compiled, [Path(doc.path).resolve() for doc in loaded.documents[1:]]


def _compiled(path: str | os.PathLike, stdin: bytes | None, shown: str, keep_tracks: bool,
              each_track: EachTrack | None) -> Compilation:
    """A file (``-``: standard input, whose bytes are ``stdin``) loaded and compiled; ``shown``: the name its
    messages give it."""
    file = Path(path)
    if str(path) == "-":
        text, err = decode_source(stdin or b"", "<stdin>")
        if err is not None:
            return Compilation(None, None, [err], "errors")
        assert text is not None  # decoded (no error)
        loaded = load_text(text, "<stdin>", base_dir=Path.cwd())
        config = load_config(Path.cwd())
    else:
        loaded = load(file, shown)
        config = load_config(_folder(file))
    if rc.stops_compilation(d.code for d in loaded.diagnostics):
        io = any(d.code == rc.RC001 and d.span is None for d in loaded.diagnostics)
        return Compilation(loaded, None, list(loaded.diagnostics), "io" if io else "errors")
    check_boxes(config, loaded)
    try:
        result = compile_paused(loaded, config.boxes, keep_tracks=keep_tracks, each_track=each_track)
    except Exception as e:  # noqa: BLE001 - a bug in rallyc: the caller reports it, never a traceback
        return Compilation(loaded, None, [], "internal", f"{type(e).__name__}: {e}")
    if has_errors(result.diagnostics):
        return Compilation(loaded, result, result.diagnostics, "errors")
    if not result.designs:
        shown = "<stdin>" if str(path) == "-" else shown
        nothing = Diagnostic.of(rc.RC312, f"{shown} defines no stage, rally or circuit", Span(shown, 1, 1, 1, 2),
                                "add a `stage NAME { ... }`, a `rally` or a `circuit`")
        return Compilation(loaded, result, result.diagnostics + [nothing], "empty")
    return Compilation(loaded, result, result.diagnostics)


def load_design(path: str | os.PathLike, stage: str | None = None) -> Design:
    """Load and compile a track file: the first design (rally, stage or circuit) it defines.

    With ``stage``, the design that holds a stage of that name, with only that stage in its ``tracks``.
    Raises :class:`DiagnosticError` carrying the error diagnostics when the file has errors (warnings are
    allowed) or defines nothing, and ``KeyError`` when no stage has that name.
    """
    compiled = compile_path(path)
    if compiled.problem == "internal":
        raise DiagnosticError([Diagnostic.of(rc.RC100, f"internal error in the compiler: {compiled.internal}", None,
                                             "this is a bug in rallyc; please report it with the file")])
    if compiled.problem == "empty":
        raise DiagnosticError([Diagnostic.of(rc.RC312, f"{path} defines no stage, rally or circuit", None,
                                             "pass the file that holds the design")])
    if compiled.problem is not None:
        raise DiagnosticError([d for d in compiled.diagnostics if d.severity.value == "error"])
    if stage is None:
        return compiled.designs[0]
    for design in compiled.designs:
        for track in design.tracks:
            if track.name == stage:
                return replace(design, tracks=[track])
    raise KeyError(stage)
