"""The track files records are played on, compiled once per process.

Replaying many records on one design (a club's season, ``examples/games``, a benchmark) must not
recompile the design each time: :func:`compiled_track_file` keeps each compiled file keyed by the
SHA-256 of its bytes and of every file it includes, so an edited file (or an edited include) is
compiled again and an unchanged one never is. The compiled designs are shared, read-only: the
referee keeps its state in its own objects and recompiles flipped stages through a ``Flipper``.
"""

from __future__ import annotations

import gc
import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rallyc.pipeline import compile_loaded
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
    result = compile_loaded(loaded)
    included = [Path(doc.path).resolve() for doc in loaded.documents[1:]]
    sources = ((path, digest or ""),) + tuple((p, _digest(p) or "") for p in included)
    diags = list(getattr(loaded, "diagnostics", [])) + list(result.diagnostics)
    compiled = CompiledFile(result.designs, diags, sources)
    _CACHE[path] = compiled
    _out_of_full_collections()
    return compiled


def _out_of_full_collections() -> None:
    """Keep the cached designs (and whatever else is alive now: the modules, the bundled data) out of the cyclic
    garbage collector's full collections: they live as long as the process and are only read. A replay keeps
    each game's state alive for the whole record, so its objects reach the oldest generation and set off a
    full collection every one or two passes over ``examples/games``; each walked every compiled track again
    (130-160 ms, a quarter of the replay). ``gc.freeze()`` moves every object alive now into the permanent
    generation (a list splice), after a young collection so that fresh cyclic garbage is not kept;
    reference counting still frees any of them that stops being used. :func:`clear_cache` unfreezes them."""
    gc.collect(1)
    gc.freeze()


def clear_cache() -> None:
    """Forget every compiled file (for measurements of a cold start); the objects kept out of full collections
    since (:func:`_out_of_full_collections`) are collected as usual again."""
    _CACHE.clear()
    gc.unfreeze()
