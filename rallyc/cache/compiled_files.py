"""Compiled files kept in the user cache, so that ``rallyc compile``, ``stats``, ``render`` and ``replay`` of an
unchanged file neither parse nor compile it again (issue 33).

An entry is a pickle of what the compilation gave (:class:`rallyc.compilation.Compilation`, or a record's
compiled track file), kept under a key that hashes everything the result depends on:

- what is kept (``kind``: a command's compilation applies the settings' boxes, a record's track file does not);
- the file's bytes, its resolved path, the name it is shown by and the current folder (messages name paths
  relative to it);
- the settings in force (which settings file, its boxes);
- rallyc itself, lark, networkx and Python (:func:`rallyc.cache.check_results.code_fingerprint`), which covers the
  bundled tilesets.

The entry also names every file the compilation read besides the file itself (``use "other.rally"``, a
project's tilesets) with the SHA-256 of its bytes: an entry whose included files changed is compiled again. A
file whose loading reported anything (an include missing or unreadable, a syntax error) is not kept, so that
an entry never stands for a file that was not read. A missing, unreadable or broken entry is compiled again,
never fatal; ``RALLYC_NO_CACHE=1`` turns the cache off. The folder is the user's own (:mod:`rallyc.cache.folder`).
"""

from __future__ import annotations

import hashlib
import os
import pickle
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, TypeVar

from rallyc.cache.check_results import code_fingerprint
from rallyc.cache.folder import cache_folder, write_pickle

__all__ = ["Kept", "kept_compilation"]

T = TypeVar("T")


@dataclass(frozen=True)
class Kept:
    """One kept compilation: what it gave, and the (path, SHA-256) of every other file it read."""

    value: Any
    includes: tuple[tuple[str, str], ...]


def _sha256(path: str) -> str | None:
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


def _key(kind: str, data: bytes, path: Path, display: str, settings: tuple) -> str:
    digest = hashlib.sha256()
    for part in (kind, code_fingerprint(), os.getcwd(), str(path.resolve()), display, repr(settings)):
        digest.update(part.encode("utf-8", "surrogatepass") + b"\0")
    digest.update(data)
    return digest.hexdigest()[:32]


def _read(entry: Path) -> Any:
    """The kept value, or None: no entry, an entry that cannot be read, or one whose included files changed."""
    try:
        with open(entry, "rb") as f:
            kept = pickle.load(f)
    except Exception:  # noqa: BLE001 - a missing or broken entry is compiled again, never fatal
        return None
    if not isinstance(kept, Kept) or any(_sha256(p) != h for p, h in kept.includes):
        return None
    return kept.value


def _write(entry: Path, kept: Kept) -> None:
    """Keep an entry, written whole; skipped silently when it cannot be written (or pickled)."""
    try:
        entry.parent.mkdir(mode=0o700, exist_ok=True)
        write_pickle(entry, kept)
    except Exception:  # noqa: BLE001 - a cache that cannot be written is skipped, never fatal
        pass


def kept_compilation(kind: str, path: Path, display: str, settings: tuple,
                     compile_file: Callable[[], tuple[T, Iterable[Path] | None]]) -> T:
    """What ``compile_file()`` gives for the file at ``path``, from the cache while the file, its includes, the
    settings and rallyc are unchanged. ``compile_file`` returns (value, the other files it read), or (value,
    None) when the value must not be kept (loading reported a problem)."""
    folder = cache_folder()
    try:
        data = path.read_bytes() if folder is not None else None
    except OSError:
        data = None
    if folder is None or data is None:
        return compile_file()[0]
    entry = Path(folder) / "compiled" / f"{_key(kind, data, path, display, settings)}.pickle"
    value = _read(entry)
    if value is not None:
        return value
    value, read = compile_file()
    if read is None:
        return value
    includes = []
    for other in read:
        digest = _sha256(str(other))
        if digest is None:
            return value
        includes.append((str(other), digest))
    try:
        unchanged = path.read_bytes() == data  # not written over while it compiled (an editor saving)
    except OSError:
        unchanged = False
    if unchanged:
        _write(entry, Kept(value, tuple(includes)))
    return value
