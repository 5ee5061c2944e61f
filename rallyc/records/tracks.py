"""The track files records are played on, compiled once per process.

Replaying many records on one design (a club's season, ``examples/games``, a benchmark) must not
recompile the design each time: :func:`compiled_track_file` keeps each compiled file keyed by the
SHA-256 of its bytes and of every file it includes, so an edited file (or an edited include) is
compiled again and an unchanged one never is. The compiled designs are shared, read-only: the
referee keeps its state in its own objects and recompiles flipped stages through a ``Flipper``.

A file is compiled with the garbage collector paused (:func:`rallyc.compilation.compiled.compile_paused`): the objects of
the compiled designs then go straight to the collector's oldest generation without counting towards its next
full collection, and nothing outside the call changes (the collector's setting, objects the program froze).
"""

from __future__ import annotations

import hashlib
import os
from contextvars import ContextVar, Token
from dataclasses import dataclass, field
from functools import wraps
from pathlib import Path
from stat import S_ISDIR, S_ISREG
from typing import Any, Callable, TypeVar, cast

from rallyc.cache.compiled_files import kept_compilation
from rallyc.compilation.compiled import compile_paused
from rallyc.project.loader import load

__all__ = ["CompiledFile", "compiled_track_file", "clear_cache", "track_file", "one_look"]


@dataclass(frozen=True)
class CompiledFile:
    """A track file, loaded and compiled: its designs and every diagnostic (loading and compiling)."""

    designs: list[Any]
    diagnostics: list[Any]
    #: (path, SHA-256) of the file and of each file it includes
    sources: tuple[tuple[Path, str], ...]
    _flippers: dict[tuple[int, str], Any] = field(default_factory=dict, compare=False, repr=False)

    def flipper(self, design: Any, name: str) -> Any:
        """``design.flipper(name)`` (what the Monte-Carlo weather needs to turn tiles over), placed once per
        compiled file: a Flipper only reads its stage's placement."""
        key = (id(design), name)
        got = self._flippers.get(key)
        if got is None:
            got = self._flippers[key] = (design, design.flipper(name))
        return got[1]


_CACHE: dict[Path, CompiledFile] = {}
F = TypeVar("F", bound=Callable[..., Any])


def _digest(path: Path) -> str | None:
    """The SHA-256 of the file's bytes, None if it cannot be read. Read with os.open and os.read: pathlib's
    read_bytes makes a file object and its buffer (about a third of this, once per replay)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        sha = hashlib.sha256()
        while chunk := os.read(fd, 1 << 20):
            sha.update(chunk)
        return sha.hexdigest()
    except OSError:
        return None
    finally:
        os.close(fd)


#: what :func:`one_look` has found meanwhile: ``(base_dir, name)`` -> :func:`track_file`'s answer, and a path as
#: given -> its compiled file (None outside the block)
_LOOKS: ContextVar[dict[Any, Any] | None] = ContextVar("rallyc_track_looks", default=None)


class _OneLook:
    """What :func:`one_look` returns: a context manager, and a decorator whose calls are each a block.

    A class, not ``@contextmanager``: decorating with a generator context manager makes a new one and a generator
    for every call (``ContextDecorator._recreate_cm``)."""

    __slots__ = ("_token",)
    _token: Token[dict[Any, Any] | None] | None

    def __enter__(self) -> None:
        self._token = _LOOKS.set({}) if _LOOKS.get() is None else None

    def __exit__(self, *exc: object) -> None:
        if self._token is not None:
            _LOOKS.reset(self._token)

    def __call__(self, fn: F) -> F:
        @wraps(fn)
        def looking(*args: Any, **kwargs: Any) -> Any:
            if _LOOKS.get() is not None:  # a block within another shares its looks
                return fn(*args, **kwargs)
            token = _LOOKS.set({})
            try:
                return fn(*args, **kwargs)
            finally:
                _LOOKS.reset(token)
        return cast(F, looking)


def one_look() -> _OneLook:
    """Within the block (or the decorated call), each track file is found (:func:`track_file`) and checked against
    the cache (:func:`compiled_track_file`: its bytes and its includes' hashed) once, however many readers of the
    record ask for it (its design, its stages, its options): one replay of a record looks at its files once, not
    five times. A block within another shares the outer one's looks."""
    return _OneLook()


#: ``(base_dir, name)`` -> (device, inode, resolved path) of a track file :func:`track_file` resolved before; at most
#: :data:`_MAX_FOUND` of them
_FOUND: dict[tuple[str, str], tuple[int, int, Path]] = {}
_MAX_FOUND = 256


def track_file(base_dir: Path | str, name: str) -> tuple[Path, bool, bool]:
    """The track file ``name`` of a record in ``base_dir``: (the resolved path, whether it is a folder, whether it
    is a file); looked up once within :func:`one_look`.

    The path is resolved component by component (``os.path.realpath``: a ``stat`` call and some Python per folder
    on the way, most of a replay's look at its files) once per name and folder: later, the name opening the same
    file as the path resolved then (a ``stat`` of each: the same device and inode) gives that path. A symbolic link
    on the way that now leads to another file, or a file replaced, is another inode, and the path is resolved
    again; only another hard link to the same file could be found under the old path."""
    looks = _LOOKS.get()
    key = (str(base_dir), name)
    if looks is not None:
        hit: tuple[Path, bool, bool] | None = looks.get(key)
        if hit is not None:
            return hit
    found = _known(key) or _resolve(base_dir, key)
    if looks is not None:
        looks[key] = found
        looks[found[0]] = None  # resolved: compiled_track_file need not resolve it again
    return found


def _known(key: tuple[str, str]) -> tuple[Path, bool, bool] | None:
    """:func:`track_file`'s answer from the path resolved before, if the name still opens that file."""
    seen = _FOUND.get(key)
    if seen is None:
        return None
    try:
        st = os.stat(os.path.join(*key))
        there = os.stat(seen[2])  # and the path resolved then is still that file (an inode number may be reused)
    except (OSError, ValueError):
        return None
    if st.st_ino != seen[1] or st.st_dev != seen[0] or there.st_ino != seen[1] or there.st_dev != seen[0]:
        return None
    return seen[2], S_ISDIR(st.st_mode), S_ISREG(st.st_mode)


def _resolve(base_dir: Path | str, key: tuple[str, str]) -> tuple[Path, bool, bool]:
    """:func:`track_file`'s answer, the path resolved; kept in :data:`_FOUND` when it names a file or a folder."""
    joined = Path(base_dir) / key[1]
    real = os.path.realpath(joined)
    try:
        st = os.stat(real)  # one stat: Path.resolve's own (a symlink loop) and is_dir's and is_file's
    except (OSError, ValueError):  # not there, a loop...: pathlib's own answers (and errors)
        path = joined.resolve()
        return path, path.is_dir(), path.is_file()
    path = Path(real)
    if len(_FOUND) >= _MAX_FOUND:
        _FOUND.clear()
    _FOUND[key] = (st.st_dev, st.st_ino, path)
    return path, S_ISDIR(st.st_mode), S_ISREG(st.st_mode)


def compiled_track_file(path: Path) -> CompiledFile:
    """The file at ``path`` (resolved), compiled once per content: a cached compilation is used while the file
    and every file it includes hold the same bytes (checked once within :func:`one_look`)."""
    looks = _LOOKS.get()
    if looks is not None:
        if path in looks:
            seen: CompiledFile | None = looks[path]
            if seen is None:  # resolved by track_file
                seen = looks[path] = _compiled_track_file(path)
            return seen
        seen = looks[path] = _compiled_track_file(path.resolve())
        return seen
    return _compiled_track_file(path.resolve())


def _compiled_track_file(path: Path) -> CompiledFile:
    """The file at ``path`` (resolved) compiled, from the cache while its bytes and its includes' are the same
    (this process's, then the user cache's: :mod:`rallyc.cache.compiled_files`)."""
    hit = _CACHE.get(path)
    if hit is not None and all(_digest(p) == h for p, h in hit.sources):
        return hit
    compiled = kept_compilation("track file", path, str(path), (), lambda: _compile(path))
    _CACHE[path] = compiled
    return compiled


def _compile(path: Path) -> tuple[CompiledFile, list[Path] | None]:
    """(the file compiled, the other files it read), the latter None when loading reported something (the
    compilation is then not kept in the user cache)."""
    digest = _digest(path)
    loaded = load(path)
    result = compile_paused(loaded)
    included = [Path(doc.path).resolve() for doc in loaded.documents[1:]]
    sources = ((path, digest or ""),) + tuple((p, _digest(p) or "") for p in included)
    diags = list(getattr(loaded, "diagnostics", [])) + list(result.diagnostics)
    return CompiledFile(result.designs, diags, sources), None if loaded.diagnostics else included


def clear_cache() -> None:
    """Forget every compiled file and resolved path (for measurements of a cold start)."""
    _CACHE.clear()
    _FOUND.clear()
