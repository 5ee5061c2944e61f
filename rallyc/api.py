"""The library facade: check, compile, format, load, import, export and replay.

The CLI (:mod:`rallyc.commands`), the language server and the tests call these functions; none of
them prints or exits. Diagnostics are values (:class:`rallyc.diagnostics.Diagnostic`); only
:func:`load` raises (:class:`rallyc.diagnostics.DiagnosticError`), for scripts that want a track or
nothing. The heavy layers (compiler, networkx, the referee, interop) are imported inside the functions
that need them, so importing ``rallyc`` or this module stays cheap for commands that do not use them.

    >>> import rallyc
    >>> run = rallyc.check(["examples/"], ignore=["RC302"])     # doctest: +SKIP
    >>> run.ok, len(run.files)                                   # doctest: +SKIP
    (True, 12)
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Sequence

from rallyc.project.config import (Config, ConfigError, filter_diagnostics, load_config, unignorable_inline,
                           unignorable_settings)
from rallyc.diagnostics import Diagnostic, Sources, has_errors
from rallyc.project.fileio import scan_folder
from rallyc.model import codes as rc

if TYPE_CHECKING:  # for annotations only; imported where used
    from rallyc.compilation.compiled import Compilation
    from rallyc.compiler import CompileResult, Design
    from rallyc.compilation.pipeline import EachTrack
    from rallyc.project.loader import Loaded

__all__ = ["Target", "CheckResult", "Compilation", "ConfigError", "collect_files", "check", "check_loaded",
           "check_text", "compile", "compile_loaded", "load", "format", "import_track", "export", "replay", "read_stdin"]


# ------------------------------------------------------------------ files


@dataclass
class Target:
    """A file to check: where to read it, how to show its name, and its project folder."""

    path: Path | None  # None: standard input
    display: str
    project_dir: Path | None = None


def _skip_dir(name: str) -> bool:
    return name.startswith(".") or name in ("__pycache__", "node_modules")


def collect_files(paths: Iterable[str | os.PathLike]) -> tuple[list[Target], list[Diagnostic]]:
    """The files named by ``paths``: files as given, folders searched for ``*.rally``, ``-`` for stdin.

    Missing paths and folders without ``.rally`` files become RC001 diagnostics.
    """
    targets: list[Target] = []
    problems: list[Diagnostic] = []
    for given in paths:
        raw = str(given)
        if raw == "-":
            targets.append(Target(None, "<stdin>"))
            continue
        p = Path(raw)
        if p.is_dir():
            found, left_out = scan_folder(p)  # stays in the folder; pipes and devices left out (RC118/RC119)
            problems += left_out
            if not found:
                problems.append(Diagnostic.of(rc.RC001, f"no .rally files in folder {raw}", None))
            targets += [Target(f, str(f), p.resolve()) for f in found]
        elif p.exists():
            targets.append(Target(p, raw))
        else:
            problems.append(Diagnostic.of(rc.RC001, f"no such file or folder: {raw}", None))
    return targets, problems


def read_stdin() -> bytes:
    """All of standard input, as bytes."""
    # start-up: the parser (lark) only when text is read
    from rallyc.syntax.parser import MAX_SOURCE_BYTES

    # at most one byte over the limit: enough for RC101, never a gigabyte in memory
    if hasattr(sys.stdin, "buffer"):
        return sys.stdin.buffer.read(MAX_SOURCE_BYTES + 1)
    return sys.stdin.read(MAX_SOURCE_BYTES + 1).encode("utf-8")


# ------------------------------------------------------------------ compile a loaded file


def compile_loaded(loaded: "Loaded", boxes: Sequence[str] | None = None, *,
                   keep_tracks: bool = True) -> "CompileResult":
    """Every design of a loaded file compiled, with all diagnostics; ``boxes``: the boxes owned when the file
    declares none. ``keep_tracks=False`` drops each track once it is checked (designs without tracks; a
    check of a large file then holds one track at a time). The one call of the compiler behind
    :func:`check` and :func:`compile` (:func:`rallyc.compilation.compiled.compile_paused`)."""
    from rallyc.compilation.compiled import compile_paused  # start-up: the compiler only when a file is compiled

    return compile_paused(loaded, boxes, keep_tracks=keep_tracks)


# ------------------------------------------------------------------ check


@dataclass
class CheckResult:
    """Everything one check of files and folders found."""

    files: list[str] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    sources: Sources = field(default_factory=Sources)
    #: a file or folder could not be read (a usage or I/O problem, not a problem in a file)
    io_error: bool = False
    #: settings that tried to hide an error (``--ignore RC130``, a settings file's ``select``, an inline
    #: ``# rallyc: ignore[RC130]``): errors are reported all the same; these say so (standard error)
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when every file was read and no error was found (warnings allowed)."""
        return not self.io_error and not has_errors(self.diagnostics)


def _internal(where: str, e: BaseException, file: str) -> Diagnostic:
    return Diagnostic.of(rc.RC100, f"internal error in {where} while checking {file}: {type(e).__name__}: {e}", None,
                            "this is a bug in rallyc; please report it with the file")


def check_loaded(loaded: "Loaded", boxes: Sequence[str] | None = None) -> list[Diagnostic]:
    """Syntax, include, name and compiler diagnostics of a loaded file.

    Name checks run even when some statements have syntax errors (on the statements that could be
    read); the compiler runs only on files that read cleanly, so a syntax error does not cascade into
    geometry errors. ``boxes``: the boxes owned when the file declares none (from the settings).
    """
    diags = list(loaded.diagnostics)
    if rc.stops_compilation(d.code for d in diags):  # the file could not be read as rallyc text
        return diags
    if not has_errors(diags):
        try:
            return compile_loaded(loaded, boxes, keep_tracks=False).diagnostics
        except Exception as e:  # noqa: BLE001 - reported, never a traceback; the name checks still run
            diags.append(_internal("the compiler", e, loaded.root.path))
    return diags + _name_checks(loaded)


def _name_checks(loaded: "Loaded") -> list[Diagnostic]:
    """Name and tile-definition checks alone, for a file the compiler cannot take."""
    # start-up: the compiler and checks (networkx) only when a file is compiled
    from rallyc.checks.names import check_names
    from rallyc.checks.tiles import check_tiles
    from rallyc.tiles.catalogue import Catalogue

    try:
        return check_names(loaded, Catalogue.from_tilesets(loaded.tilesets)) + check_tiles(loaded)
    except Exception as e:  # noqa: BLE001 - reported, never a traceback
        return [_internal("the name checks", e, loaded.root.path)]


class _Settings:
    """The settings in force per folder during one run (each settings file read once)."""

    def __init__(self, select: Iterable[str] | None, ignore: Iterable[str] | None, use_files: bool):
        self.select, self.ignore, self.use_files = select, ignore, use_files
        self._by_folder: dict[Path, Config] = {}
        #: settings that try to hide errors, said once each (the command line's first)
        self.warnings = unignorable_settings(Config().with_cli(select, ignore), "--")

    def for_path(self, path: Path | None) -> Config:
        folder = (path.resolve().parent if path is not None else Path.cwd().resolve())
        if folder not in self._by_folder:
            base = load_config(folder) if self.use_files else Config()
            if base.path is not None:
                said = unignorable_settings(base, f"{base.path}: ")
                self.warnings += [w for w in said if w not in self.warnings]
            self._by_folder[folder] = base.with_cli(self.select, self.ignore)
        return self._by_folder[folder]


def check(paths: Iterable[str | os.PathLike], *, select: Iterable[str] | None = None,
          ignore: Iterable[str] | None = None, stdin: bytes | None = None, settings: bool = True,
          cache: bool = True) -> CheckResult:
    """Check files and folders (``-``: standard input, read from ``stdin`` when given).

    ``select``/``ignore``: codes or code prefixes (``RC604``, ``RC6``); ``select`` replaces the settings
    file's, ``ignore`` adds to it. ``settings=False`` reads no ``rallyc.toml``/``pyproject.toml``.
    Lines with ``# rallyc: ignore[CODE]`` drop that code on that line. ``cache=False`` neither reads nor
    keeps results in the user cache (:mod:`rallyc.cache.check_results`). Raises :class:`ConfigError` for a settings
    file or a code list that cannot be used.
    """
    configs = _Settings(select, ignore, settings)
    run = CheckResult()
    targets, problems = collect_files(paths)
    if problems:
        run.io_error = has_errors(problems)  # RC118/RC119 (left out of a folder scan) are warnings
        run.diagnostics += problems
    for t in targets:
        run.files.append(t.display)
        config = configs.for_path(t.path)
        key = _cache_key(t, config) if cache else None
        entry = _kept(key)
        if entry is None:
            entry, keep = _check_target(t, config, stdin)
            if key is not None and keep:
                # start-up: the results cache only when a file is checked
                from rallyc.cache.check_results import write_entry

                write_entry(key, entry)
        for name, text in entry.sources:
            run.sources.add(name, text)
        run.io_error |= entry.io_error
        run.diagnostics += entry.diagnostics
    run.diagnostics = list(dict.fromkeys(run.diagnostics))
    run.warnings = configs.warnings + unignorable_inline(run.diagnostics, run.sources)
    return run


def _cache_key(target: Target, config: Config) -> str | None:
    """The results cache's key of a file (None for standard input or a file that cannot be read)."""
    if target.path is None:
        return None
    try:
        data = target.path.read_bytes()
    except OSError:
        return None
    # start-up: the results cache only when a file is checked
    from rallyc.cache.check_results import entry_key

    return entry_key(data, target.display, target.project_dir,
                     (config.select, config.ignore, config.boxes, str(config.path)))


def _kept(key: str | None):
    if key is None:
        return None
    # start-up: the results cache only when a file is checked
    from rallyc.cache.check_results import read_entry

    return read_entry(key)


def _check_target(t: Target, config: Config, stdin: bytes | None):
    """(entry, may it be kept) of one file's check: a :class:`rallyc.cache.check_results.Entry` with its diagnostics
    (settings applied), whether it could not be read, and the texts its diagnostics quote. A file with
    ``use "file"`` includes is not kept (its result depends on files the cache key does not hash)."""
    # start-up: the compiler (networkx) only when a file is compiled
    from rallyc.cache.check_results import Entry  # start-up: a file's check, only when the cache has no result
    from rallyc.compilation.compiled import check_boxes
    from rallyc.project.loader import decode_source, load, load_text

    if t.path is None:
        data = stdin if stdin is not None else read_stdin()
        text, err = decode_source(data, t.display)
        if err is not None:
            return Entry((err,), False, ()), False
        assert text is not None  # decoded (no error)
        loaded = load_text(text, t.display, base_dir=Path.cwd())
    else:
        loaded = load(t.path, t.display, project_dir=t.project_dir)
    check_boxes(config, loaded)
    diags = check_loaded(loaded, config.boxes)
    kept = filter_diagnostics(diags, config, loaded.sources)
    includes = any(use.is_path for doc in loaded.documents for use in doc.uses)
    quoted = {t.display} | {d.span.file for d in kept if d.span} | {s.file for d in kept for s, _ in d.related}
    sources = tuple((f, text) for f in sorted(quoted) if (text := loaded.sources.get(f)) is not None)
    io_error = any(d.code == rc.RC001 for d in diags)
    return Entry(tuple(kept), io_error, sources), t.path is not None and not includes and not io_error


def check_text(text: str, display: str, base_dir: Path, *, settings: bool = True) -> tuple["Loaded", list[Diagnostic]]:
    """(loaded file, diagnostics) of source text whose includes are read relative to ``base_dir``: what
    :func:`check` reports for that file (the settings found from ``base_dir`` and ``# rallyc: ignore`` apply),
    for an editor that checks unsaved text."""
    # start-up: the parser (lark) only when a file is read
    from rallyc.compilation.compiled import check_boxes  # start-up: the compiler only when a text is checked
    from rallyc.project.loader import load_text

    config = _Settings(None, None, settings).for_path(base_dir / "_")
    loaded = load_text(text, display, base_dir=base_dir)
    check_boxes(config, loaded)
    return loaded, filter_diagnostics(check_loaded(loaded, config.boxes), config, loaded.sources)


# ------------------------------------------------------------------ compile


def compile(path: str | os.PathLike, *, stdin: bytes | None = None, display: str | None = None,
            keep_tracks: bool = True, each_track: "EachTrack | None" = None) -> "Compilation":
    """Load a file (``-``: standard input, read from ``stdin`` when given) with its includes and compile it:
    a :class:`rallyc.compilation.compiled.Compilation`.

    Never raises for bad input: ``problem`` says what stopped it. The settings file's ``boxes`` apply.
    ``keep_tracks=False`` with ``each_track(design index, track, catalogue)``: each track is seen once checked,
    then dropped (a file of many stages is read one track at a time).
    """
    from rallyc.compilation.compiled import compile_path  # start-up: the compiler only when a file is compiled

    if str(path) == "-" and stdin is None:
        stdin = read_stdin()
    return compile_path(path, stdin=stdin, display=display, keep_tracks=keep_tracks, each_track=each_track)


def load(path: str | os.PathLike, stage: str | None = None) -> "Design":
    """Load and compile a track file: the first design (rally, stage or circuit) it defines.

    With ``stage``, the design that holds a stage of that name, with only that stage in its ``tracks``.
    Raises :class:`DiagnosticError` carrying the error diagnostics when the file has errors (warnings are
    allowed) or defines nothing, and ``KeyError`` when no stage has that name.
    """
    from rallyc.compilation.compiled import load_design  # start-up: the compiler only when a file is compiled

    return load_design(path, stage)


def __getattr__(name: str):
    # PEP 562: ``rallyc.api.Compilation`` (and ``rallyc.Compilation``) without importing the compiler at start-up
    if name == "Compilation":
        # start-up: the compiler (networkx) only when a file is compiled
        from rallyc.compilation.compiled import Compilation

        return Compilation
    raise AttributeError(f"module 'rallyc.api' has no attribute {name!r}")


# ------------------------------------------------------------------ format, import, export, replay


def format(text: str, path: str = "<input>") -> tuple[str | None, list[Diagnostic]]:
    """Source text in the canonical layout: (new text, diagnostics); the text is None if the file has errors.

    The result is checked (it parses to the same tree and keeps every comment)."""
    # start-up: the parser (lark) only when text is read
    from rallyc.syntax.formatter import format_text

    return format_text(text, path)


def import_track(text: str, display: str, *, fallback_title: str = "Imported track"):
    """A Rekee JSON or RGT track file's text as rallyc text: an ``ImportOutcome`` (text or None, diagnostics)."""
    # start-up: import and export only for those commands
    from rallyc.interop import import_text

    return import_text(text, display, fallback_title=fallback_title)


def export(path: str | os.PathLike, to: str, stage: str | None = None) -> tuple[str | None, list[Diagnostic]]:
    """A design's stage or circuit (the first, or ``stage``) as ``to`` (``rekee`` or ``rgt``): (text or None,
    diagnostics)."""
    # start-up: import and export only for those commands
    from rallyc.interop import export_loaded
    from rallyc.project.loader import load as load_project

    return export_loaded(load_project(Path(path), str(path)), to, stage)


def replay(record: str | os.PathLike | dict, base_dir: str | os.PathLike | None = None):
    """Replay a game record (a file, or parsed JSON with ``base_dir`` for its track files): a ``ReplayReport``
    whose ``error`` is the first illegal event, if any. Raises ``RecordError`` for a record that cannot be read."""
    # start-up: the referee and the record schema (jsonschema) only for replays
    from rallyc.records import load_record, replay_record

    if isinstance(record, dict):
        return replay_record(record, base_dir=Path(base_dir or "."))
    data = load_record(os.fspath(record))
    return replay_record(data, base_dir=Path(base_dir) if base_dir else Path(record).parent)
