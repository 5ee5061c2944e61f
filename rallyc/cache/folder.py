"""The user's own cache folder, for work that every start would otherwise repeat.

Lark's built LALR tables (:mod:`rallyc.syntax.parser`), the parsed bundled tilesets (:mod:`rallyc.project.loader`) and
the check results (:mod:`rallyc.cache.check_results`) live there. They are pickles, so the folder is the user's own (created
private), never the shared temp folder: a pickle that someone else could write would be code run by rallyc. Every
file's name hashes what it was built from, so a changed input never reads a stale file; ``RALLYC_NO_CACHE=1``
turns the cache off. The folder follows each platform's convention for a user's caches
(:func:`cache_folder_for`); ``$XDG_CACHE_HOME`` overrides it on every platform, as it always has.
This module imports nothing else of rallyc.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from typing import Callable, Iterable, Mapping, TypeVar

__all__ = ["cache_folder", "cache_path", "cached_pickle", "cache_folder_for", "write_pickle"]

T = TypeVar("T")


def cache_folder_for(platform: str, environ: Mapping[str, str], home: str) -> str:
    """rallyc's cache folder by the platform's convention for a user's caches, as platformdirs'
    ``user_cache_dir("rallyc")`` names it: ``~/Library/Caches/rallyc`` on macOS, ``%LOCALAPPDATA%\\rallyc\\Cache``
    on Windows, ``~/.cache/rallyc`` elsewhere; ``$XDG_CACHE_HOME/rallyc`` when that variable is set, on every
    platform (it has always overridden the folder). ``platform`` as :data:`sys.platform` spells it."""
    if environ.get("XDG_CACHE_HOME"):
        return os.path.join(environ["XDG_CACHE_HOME"], "rallyc")
    if platform == "darwin":
        return os.path.join(home, "Library", "Caches", "rallyc")
    if platform == "win32":
        return os.path.join(environ.get("LOCALAPPDATA") or os.path.join(home, "AppData", "Local"), "rallyc", "Cache")
    return os.path.join(home, ".cache", "rallyc")


def cache_folder() -> str | None:
    """The cache folder (created private when missing), or None when caching is off or impossible."""
    if os.environ.get("RALLYC_NO_CACHE"):
        return None
    folder = cache_folder_for(sys.platform, os.environ, os.path.expanduser("~"))
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        if not os.access(folder, os.W_OK):
            return None
    except OSError:
        return None
    return folder


def cache_path(prefix: str, parts: Iterable[str | bytes], suffix: str) -> str | None:
    """``<cache folder>/<prefix>-<hash of parts><suffix>``, or None when caching is off."""
    folder = cache_folder()
    if folder is None:
        return None
    digest = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return os.path.join(folder, f"{prefix}-{digest.hexdigest()[:20]}{suffix}")


def cached_pickle(prefix: str, parts: Iterable[str | bytes], build: Callable[[], T]) -> T:
    """``build()``, kept in the cache under the hash of ``parts``: the next call with the same parts unpickles it.

    A missing, unreadable or broken cache file is rebuilt; a cache that cannot be written is skipped.
    The file is written whole (temporary file, then rename), so a reader never sees half of it.
    """
    path = cache_path(prefix, parts, ".pickle")
    if path is not None:
        try:
            with open(path, "rb") as f:
                return pickle.load(f)
        except Exception:  # noqa: BLE001 - a missing or broken cache file is rebuilt, never fatal
            pass
    value = build()
    if path is not None:
        try:
            write_pickle(path, value)
        except OSError:
            pass
    return value


def write_pickle(path: str | os.PathLike[str], value: object) -> None:
    """Pickle ``value`` to ``path`` whole: to a temporary file beside it, then renamed over it, so a reader never
    sees half of it; the temporary file is removed when writing fails, and the error is raised."""
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as f:
            pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
