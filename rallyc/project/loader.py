"""Reading a file with everything it uses: includes, tilesets, bundled boxes.

``load(path)`` parses the file, follows its ``use`` statements (files by
relative path, tilesets by name) and gathers every tileset that is in scope.
All bundled tilesets (``tilesets/``, one file per box) are always in scope; a
tileset the project defines or includes under the same name replaces the
bundled one, so a user can correct a tile without touching Python.

Nothing here raises on bad input: problems become diagnostics.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from rallyc import diagnostics as diagnostics_module
from rallyc.diagnostics import Diagnostic, Sources, Span
from rallyc.project.fileio import decode_utf8, looks_like_utf16, position, read_limited
from rallyc.model import codes as rc
from rallyc.data.resources import grammar_path, tilesets_dir
from rallyc.syntax import ast, parser as parser_module
from rallyc.syntax.parser import MAX_SOURCE_BYTES, lark_version, parse
from rallyc.cache.folder import cached_pickle

__all__ = ["Loaded", "load", "load_text", "read_source", "decode_source", "bundled_tilesets", "scan_folder",
           "MAX_INCLUDE_DEPTH"]

from rallyc.project.fileio import scan_folder  # noqa: E402 - kept importable from here


@dataclass
class Loaded:
    """A file with everything it uses."""

    #: the file that was asked for
    root: ast.Document
    #: the root and every file it includes (depth first, each once)
    documents: list[ast.Document]
    #: every tileset in scope by name (bundled ones, replaced by the project's own)
    tilesets: dict[str, ast.Tileset]
    sources: Sources
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: names of the tilesets that come from the bundled ``tilesets/`` folder (not replaced)
    bundled: set[str] = field(default_factory=set)


#: ``use`` chains nest at most this deep (a project includes a tileset that includes another, not 970 files)
MAX_INCLUDE_DEPTH = 32


def read_bytes(path: Path, display: str, regular_only: bool = False) -> tuple[bytes | None, Diagnostic | None]:
    """The bytes of a file, or why it cannot be read (RC001, not located: the path itself is the problem).

    The size limit (:data:`MAX_SOURCE_BYTES`, RC101) is applied before the file is read: a regular file
    is measured first, anything else (a pipe, ``/dev/stdin``) is read only up to the limit. With
    ``regular_only`` (files named by ``use``, files found in a folder) a pipe or a device is refused
    (RC118) instead of read, so a FIFO never blocks a check.
    """
    try:
        info = path.stat()
    except FileNotFoundError:
        return None, Diagnostic.of(rc.RC001, f"no such file: {display}", None)
    except OSError as e:
        return None, Diagnostic.of(rc.RC001, f"cannot read {display}: {e.strerror or e}", None)
    if stat.S_ISDIR(info.st_mode):
        return None, Diagnostic.of(rc.RC001, f"{display} is a folder, not a file", None)
    regular = stat.S_ISREG(info.st_mode)
    if not regular and regular_only:
        return None, Diagnostic.of(rc.RC118, f"{display} is not a regular file (a pipe, a device or a socket); "
                                      "rallyc does not read it", None, "name a .rally file")
    if regular and info.st_size > MAX_SOURCE_BYTES:
        return None, _too_large(display, info.st_size)
    try:
        data = read_limited(path, MAX_SOURCE_BYTES)
    except IsADirectoryError:
        return None, Diagnostic.of(rc.RC001, f"{display} is a folder, not a file", None)
    except OSError as e:
        return None, Diagnostic.of(rc.RC001, f"cannot read {display}: {e.strerror or e}", None)
    if len(data) > MAX_SOURCE_BYTES:
        return None, _too_large(display, None)
    return data, None


def _too_large(display: str, size: int | None) -> Diagnostic:
    what = f"is {size // 1024} KB" if size is not None else "is larger than that"
    return Diagnostic.of(rc.RC101, f"file {what}; rallyc reads files up to {MAX_SOURCE_BYTES // 1_000_000} MB",
                            Span(display, 1, 1, 1, 2), "a track file is a few KB of text: is this the right file?")


def read_source(path: Path, display: str, regular_only: bool = False) -> tuple[str | None, Diagnostic | None]:
    """Read a file as UTF-8 text, or say why it cannot be read."""
    data, err = read_bytes(path, display, regular_only)
    if data is None:
        return None, err
    return decode_source(data, display)


def decode_source(data: bytes, display: str) -> tuple[str | None, Diagnostic | None]:
    """Bytes of a file (or of standard input) as text, or say why they are not rallyc text.

    UTF-8 (with or without a byte-order mark) is read; UTF-16 with a byte-order mark is decoded (see
    :func:`rallyc.project.fileio.decode_utf8`); UTF-16 without one is named as such (RC102); a file whose lines
    end with a carriage return alone (classic Mac OS) is refused with a hint (RC117).
    """
    if data[:2] not in (b"\xff\xfe", b"\xfe\xff"):
        nul = data.find(b"\x00", 0, 65536)
        if nul >= 0:
            line, col = position(data, nul)
            span = Span(display, line, col, line, col + 1)
            if looks_like_utf16(data):
                return None, Diagnostic.of(rc.RC102, "this file looks like UTF-16 text without a byte-order mark",
                                              span, "save the file as UTF-8 (or as UTF-16 with a byte-order mark)")
            return None, Diagnostic.of(rc.RC102, "this file contains NUL bytes; it does not look like rallyc text",
                                          span, "rallyc reads UTF-8 text files (.rally); is this a binary file?")
    text, bad = decode_utf8(data)
    if text is None:
        line, col = bad or (1, 1)
        return None, Diagnostic.of(rc.RC102, "this file is not UTF-8 text", Span(display, line, col, line, col + 1),
                                      "save the file as UTF-8")
    if text.startswith("\ufeff"):
        text = text[1:]
    cr = text.find("\r")
    if cr >= 0 and "\n" not in text:
        return None, Diagnostic.of(
            rc.RC117, "the lines of this file end with a carriage return alone (CR, classic Mac OS)",
            Span(display, 1, cr + 1, 1, cr + 2),
            "save the file with LF (Unix, macOS) or CRLF (Windows) line endings; rallyc reads both")
    return text, None


@lru_cache(maxsize=1)
def _bundled() -> tuple[tuple[str, str, str], ...]:
    """(tileset name, display path, text) of every bundled tileset file."""
    out = []
    folder = tilesets_dir()
    for f in sorted(folder.glob("*.rally")):
        text = f.read_text(encoding="utf-8")
        out.append((f.stem, f"<bundled>/tilesets/{f.name}", text))
    return tuple(out)


@lru_cache(maxsize=1)
def _bundled_parsed() -> tuple[dict[str, ast.Tileset], tuple[tuple[str, str], ...]]:
    """(tilesets by name, (display path, text) of each file): parsed once, then kept in the user cache
    under the hash of the tileset texts, the grammar and the front end's own code (parsing them all costs
    more than the rest of a `rallyc check` of a file)."""
    bundled = _bundled()
    texts = tuple((display, text) for _stem, display, text in bundled)
    key: list[str | bytes] = [lark_version(), grammar_path().read_text(encoding="utf-8"), *_front_end_code()]
    key += [part for pair in texts for part in pair]
    return cached_pickle("tilesets", key, lambda: _parse_bundled(texts)), texts


def _front_end_code() -> list[bytes]:
    """The source of the modules that shape a parsed tileset (a change to them must not read a stale cache)."""
    return [Path(str(m.__file__)).read_bytes() for m in (ast, diagnostics_module, parser_module)]


def _parse_bundled(texts: tuple[tuple[str, str], ...]) -> dict[str, ast.Tileset]:
    tilesets: dict[str, ast.Tileset] = {}
    for display, text in texts:
        doc, diags = parse(text, display)
        if diags:  # a broken bundled tileset is a bug in rallyc itself
            raise RuntimeError(f"bundled tileset {display} does not parse: {diags[0].message} at {diags[0].span}")
        for ts in doc.tilesets:
            tilesets[ts.name.text] = ts
    return tilesets


def bundled_tilesets() -> dict[str, ast.Tileset]:
    """The tilesets shipped with rallyc, by name."""
    return dict(_bundled_parsed()[0])


def load(path: str | os.PathLike, display: str | None = None, project_dir: Path | None = None) -> Loaded:
    """Load a file from disk with its includes."""
    p = Path(path)
    display = display or str(path)
    text, err = read_source(p, display)
    if text is None:
        sources = Sources()
        return Loaded(ast.Document(display, []), [], bundled_tilesets(), sources, [err] if err else [],
                      set(bundled_tilesets()))
    return load_text(text, display, base_dir=p.resolve().parent, project_dir=project_dir)


def load_text(text: str, display: str = "<stdin>", base_dir: Path | None = None,
              project_dir: Path | None = None) -> Loaded:
    """Load source text (e.g. from stdin) with its includes, relative to ``base_dir``."""
    base_dir = (base_dir or Path.cwd()).resolve()
    project_dir = (project_dir or base_dir).resolve()
    sources = Sources()
    bundled, bundled_texts = _bundled_parsed()
    for name, t in bundled_texts:
        sources.add(name, t)
    diags: list[Diagnostic] = []
    documents: list[ast.Document] = []

    sources.add(display, text)
    root, parse_diags = parse(text, display)
    diags.extend(parse_diags)
    documents.append(root)
    if not parse_diags and not root.items:
        diags.append(Diagnostic.of(
            rc.RC115, f"{display} is empty: it holds no statement", Span(display, 1, 1, 1, 2),
            "write a `stage NAME { ... }`, a `rally`, a `circuit` or a `tileset` (see `rallyc explain RC115`)"))

    visiting: list[Path] = []
    seen: set[Path] = set()

    def follow(doc: ast.Document, doc_dir: Path, own: Path | None) -> None:
        if own is not None:
            visiting.append(own)
        for use in doc.uses:
            if not use.is_path:
                if use.target not in bundled and not _defined_in(documents, use.target):
                    diags.append(_unknown_tileset(use, bundled))
                continue
            try:
                target = (doc_dir / use.target).resolve()
            except (OSError, RuntimeError):  # a loop of links (RuntimeError before Python 3.13)
                diags.append(Diagnostic.of(rc.RC110, f"`use \"{use.target}\"`: a symbolic link in a loop, no file",
                                           use.span, "point the link at a .rally file, or name the file itself"))
                continue
            shown = os.path.relpath(target, Path.cwd()) if _inside(target, Path.cwd()) else str(target)
            if not _inside(target, project_dir):
                diags.append(Diagnostic.of(
                    rc.RC111, f"`use \"{use.target}\"` reaches outside the project folder {project_dir}",
                    use.span, "keep included files in the project folder (or below it)"))
                continue
            if target in visiting:
                chain = " -> ".join(p.name for p in visiting[visiting.index(target):]) + f" -> {target.name}"
                diags.append(Diagnostic.of(rc.RC112, f"`use \"{use.target}\"` makes a loop: {chain}", use.span,
                                              "remove one of the `use` lines so that no file includes itself"))
                continue
            if target in seen:
                continue
            if len(visiting) >= MAX_INCLUDE_DEPTH:
                diags.append(Diagnostic.of(
                    rc.RC116, f"`use \"{use.target}\"`: files include each other more than {MAX_INCLUDE_DEPTH} deep",
                    use.span, "include the files you need from one main file instead of in a long chain"))
                continue
            seen.add(target)
            inc_text, err = read_source(target, shown, regular_only=True)
            if err is not None:
                if err.code == rc.RC118:
                    diags.append(Diagnostic.of(rc.RC118, f"`use \"{use.target}\"`: {shown} is not a regular file "
                                                  "(a pipe, a device or a socket)", use.span,
                                                  "include .rally files only"))
                elif err.code == rc.RC001:
                    hint = "check the path; it is relative to the file that has the `use` line"
                    if any(c in use.target for c in "\\\t\n\r\f"):
                        hint = ("write `/` between folders, as in `use \"tiles/mine.rally\"` (it works on Windows "
                                "too); in quotes a backslash starts an escape (`\\t` is a tab)")
                    diags.append(Diagnostic.of(rc.RC110, f"`use \"{use.target}\"`: no such file ({shown})",
                                                  use.span, hint))
                else:
                    diags.append(err)
                continue
            assert inc_text is not None  # read_source gives the text or why it could not
            sources.add(shown, inc_text)
            inc, inc_diags = parse(inc_text, shown)
            diags.extend(inc_diags)
            documents.append(inc)
            follow(inc, target.parent, target)
        if own is not None:
            visiting.pop()

    own_root = None
    if display not in ("<stdin>", "<input>"):
        candidate = (base_dir / Path(display).name).resolve()
        own_root = candidate if candidate.exists() else None
        if own_root is not None:
            seen.add(own_root)
    follow(root, base_dir, own_root)

    tilesets = dict(bundled)
    replaced: set[str] = set()
    for doc in documents:
        for ts in doc.tilesets:
            tilesets[ts.name.text] = _merge(tilesets.get(ts.name.text), ts)
            replaced.add(ts.name.text)
    return Loaded(root, documents, tilesets, sources, diags, set(bundled) - replaced)


def _merge(base: ast.Tileset | None, own: ast.Tileset) -> ast.Tileset:
    """The project's tileset over one of the same name: its tiles replace those with the same id.

    So a user who corrects one tile of a box writes only that tile; the other tiles of
    the box stay in scope.
    """
    if base is None:
        return own
    own_ids = {t.id.text.lower() for t in own.tiles}
    kept = [t for t in base.tiles if t.id.text.lower() not in own_ids]
    return ast.Tileset(own.name, own.title or base.title, kept + list(own.tiles), own.span,
                       own.circuit or base.circuit)


def _defined_in(documents: list[ast.Document], name: str) -> bool:
    return any(ts.name.text == name for d in documents for ts in d.tilesets)


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.relative_to(folder)
        return True
    except ValueError:
        return False


def _unknown_tileset(use: ast.Use, bundled: dict[str, ast.Tileset]) -> Diagnostic:
    from difflib import get_close_matches

    names = sorted(bundled)
    close = get_close_matches(use.target, names, n=1)
    hint = f"did you mean `{close[0]}`?" if close else "bundled tilesets: " + ", ".join(names)
    return Diagnostic.of(rc.RC113, f"no tileset named `{use.target}`", use.span,
                            hint + ' (a file is included with quotes: use "file.rally")')
