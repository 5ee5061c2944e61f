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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rallyc.compilation import compile_paused
from rallyc.project import load

__all__ = ["CompiledFile", "compiled_track_file", "clear_cache"]


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


def compiled_track_file(path: Path) -> CompiledFile:
    """The file at ``path`` (resolved), compiled once per content: a cached compilation is used while the file
    and every file it includes hold the same bytes."""
    path = path.resolve()
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
