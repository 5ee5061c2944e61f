"""The track files records are played on, compiled once per process.

Replaying many records on one design (a club's season, ``examples/games``, a benchmark) must not
recompile the design each time: :func:`compiled_track_file` keeps each compiled file keyed by the
SHA-256 of its bytes and of every file it includes, so an edited file (or an edited include) is
compiled again and an unchanged one never is. The compiled designs are shared, read-only: the
referee keeps its state in its own objects and recompiles flipped stages through a ``Flipper``.

A file is compiled with the garbage collector paused (:func:`rallyc.compilation.compile_paused`): the objects of
the compiled designs then go straight to the collector's oldest generation without counting towards its next
full collection, and nothing outside the call changes (the collector's setting, objects the program froze).
"""

from __future__ import annotations

import hashlib
import os
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from stat import S_ISDIR, S_ISREG
from typing import Any, Iterator

from rallyc.compilation import compile_paused
from rallyc.project import load

__all__ = ["CompiledFile", "compiled_track_file", "clear_cache", "track_file", "one_look"]


@dataclass(frozen=True)
class CompiledFile:
    """A track file, loaded and compiled: its designs and every diagnostic (loading and compiling)."""

    designs: list
    diagnostics: list
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


def _digest(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


#: what :func:`one_look` has found meanwhile: ``(base_dir, name)`` -> :func:`track_file`'s answer, and a path as
#: given -> its compiled file (None outside the block)
_LOOKS: ContextVar[dict[Any, Any] | None] = ContextVar("rallyc_track_looks", default=None)


@contextmanager
def one_look() -> Iterator[None]:
    """Within the block, each track file is found (:func:`track_file`) and checked against the cache
    (:func:`compiled_track_file`: its bytes and its includes' hashed) once, however many readers of the record
    ask for it (its design, its stages, its options): one replay of a record looks at its files once, not five
    times. A block within another shares the outer one's looks."""
    if _LOOKS.get() is not None:
        yield
        return
    token = _LOOKS.set({})
    try:
        yield
    finally:
        _LOOKS.reset(token)


def track_file(base_dir: Path | str, name: str) -> tuple[Path, bool, bool]:
    """The track file ``name`` of a record in ``base_dir``: (the resolved path, whether it is a folder, whether it
    is a file); looked up once within :func:`one_look`."""
    looks = _LOOKS.get()
    key = (str(base_dir), name)
    if looks is not None:
        hit = looks.get(key)
        if hit is not None:
            return hit
    joined = Path(base_dir) / name
    real = os.path.realpath(joined)
    try:
        mode = os.stat(real).st_mode  # one stat: Path.resolve's own (a symlink loop) and is_dir's and is_file's
        found = (Path(real), S_ISDIR(mode), S_ISREG(mode))
    except (OSError, ValueError):  # not there, a loop...: pathlib's own answers (and errors)
        path = joined.resolve()
        found = (path, path.is_dir(), path.is_file())
    if looks is not None:
        looks[key] = found
        looks[found[0]] = None  # resolved: compiled_track_file need not resolve it again
    return found


def compiled_track_file(path: Path) -> CompiledFile:
    """The file at ``path`` (resolved), compiled once per content: a cached compilation is used while the file
    and every file it includes hold the same bytes (checked once within :func:`one_look`)."""
    looks = _LOOKS.get()
    if looks is not None:
        if path in looks:
            seen = looks[path]
            if seen is None:  # resolved by track_file
                seen = looks[path] = _compiled_track_file(path)
            return seen
        seen = looks[path] = _compiled_track_file(path.resolve())
        return seen
    return _compiled_track_file(path.resolve())


def _compiled_track_file(path: Path) -> CompiledFile:
    """The file at ``path`` (resolved) compiled, from the cache while its bytes and its includes' are the same."""
    hit = _CACHE.get(path)
    if hit is not None and all(_digest(p) == h for p, h in hit.sources):
        return hit
    digest = _digest(path)
    loaded = load(path)
    result = compile_paused(loaded)
    included = [Path(doc.path).resolve() for doc in loaded.documents[1:]]
    sources = ((path, digest or ""),) + tuple((p, _digest(p) or "") for p in included)
    diags = list(getattr(loaded, "diagnostics", [])) + list(result.diagnostics)
    compiled = CompiledFile(result.designs, diags, sources)
    _CACHE[path] = compiled
    return compiled


def clear_cache() -> None:
    """Forget every compiled file (for measurements of a cold start)."""
    _CACHE.clear()
