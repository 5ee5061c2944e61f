"""What ``rallyc check`` found in a file, kept in the user cache (like ruff's cache).

A club's CI and an editor check the same unchanged files again and again; with the result kept, a
check of an unchanged file reads the file, hashes it and unpickles its diagnostics, without importing
the parser or the compiler. The key hashes everything the result depends on:

- the file's bytes, the name it is shown by, its project folder and the current folder (messages
  name paths relative to it);
- the settings in force (select, ignore, boxes, and which settings file);
- rallyc itself: size and modification time of every file of the package, the grammar, the bundled
  tilesets and schemas, and of the Lark and networkx packages, and the Python version.

A file that includes other files (``use "other.rally"``) is not kept: its result depends on files the
key does not hash. ``RALLYC_NO_CACHE=1`` (every cache) or ``rallyc check --no-cache`` turns it off. The
folder is the user's own (:mod:`rallyc.cache.folder`); entries are pickles, written whole.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
from dataclasses import dataclass
from functools import lru_cache
from importlib.util import find_spec
from pathlib import Path

from rallyc.diagnostics import Diagnostic
from rallyc.cache.folder import cache_folder, write_pickle

__all__ = ["Entry", "entry_key", "read_entry", "write_entry"]


@dataclass(frozen=True)
class Entry:
    """One file's check: its diagnostics (settings applied), whether it was unreadable, and the texts of the
    files its diagnostics quote."""

    diagnostics: tuple[Diagnostic, ...]
    io_error: bool
    sources: tuple[tuple[str, str], ...]


def _stat_line(path: Path, root: Path) -> str:
    st = path.stat()
    return f"{path.relative_to(root).as_posix()} {st.st_size} {st.st_mtime_ns}"


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """A hash of the rallyc code and data in use and of the libraries that shape a check's result."""
    package = Path(__file__).resolve().parent.parent
    lines = [sys.version]
    for folder in (package, package.parent / "grammar", package.parent / "tilesets", package.parent / "schemas"):
        if folder.is_dir():
            root = folder.parent
            lines += sorted(_stat_line(p, root) for p in folder.rglob("*")
                            if p.is_file() and "__pycache__" not in p.parts)
    for library in ("lark", "networkx"):
        spec = find_spec(library)
        if spec is not None and spec.origin:
            origin = Path(spec.origin)
            lines.append(_stat_line(origin, origin.parent.parent))
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()


def entry_key(data: bytes, display: str, project_dir: Path | None, settings: tuple) -> str:
    """The key of one file's check (see the module's docstring for what it hashes)."""
    digest = hashlib.sha256()
    for part in (code_fingerprint(), os.getcwd(), display, str(project_dir), repr(settings)):
        digest.update(part.encode("utf-8", "surrogatepass") + b"\0")
    digest.update(data)
    return digest.hexdigest()[:32]


def _path(key: str) -> Path | None:
    folder = cache_folder()
    return Path(folder) / "checks" / f"{key}.pickle" if folder is not None else None


def read_entry(key: str) -> Entry | None:
    """The kept check, or None (not kept, caching off, or an entry that cannot be read)."""
    path = _path(key)
    if path is None:
        return None
    try:
        with open(path, "rb") as f:
            entry = pickle.load(f)
    except Exception:  # noqa: BLE001 - a missing or broken entry is checked again, never fatal
        return None
    return entry if isinstance(entry, Entry) else None


def write_entry(key: str, entry: Entry) -> None:
    """Keep a check (silently skipped when the cache cannot be written)."""
    path = _path(key)
    if path is None:
        return
    try:
        path.parent.mkdir(mode=0o700, exist_ok=True)
        write_pickle(path, entry)
    except OSError:
        pass
