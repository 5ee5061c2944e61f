"""Python's cyclic garbage collector paused for a block of work, in the three ways rallyc needs.

Reference counting frees objects as usual in every case; only the automatic cyclic collections wait. Each
context manager leaves the collector as it found it (switched off stays off, and then nothing is collected).

- :func:`paused`: nothing more (a map being drawn: hundreds of thousands of small objects, none of them cyclic
  garbage worth a scan meanwhile).
- :func:`paused_keeping`: for work whose objects stay alive (a compile's space graph): afterwards they go
  straight to the oldest generation, so the next young collection does not walk them all once more.
- :func:`held`: for work that makes many short-lived objects and keeps few (a replay): afterwards one young
  collection frees the cyclic garbage it made, walking only the objects made in the block.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import Any, TypeVar, cast

__all__ = ["paused", "paused_keeping", "held"]

F = TypeVar("F", bound=Callable[..., Any])


@contextmanager
def paused() -> Iterator[None]:
    """No automatic collection during the block."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


@contextmanager
def paused_keeping() -> Iterator[None]:
    """No automatic collection during the block; the objects made meanwhile then join the oldest generation.

    A compile allocates tens of thousands of objects that all stay alive, so every automatic collection during
    it walks a growing heap and frees nothing (at 10,000 tiles that was 42% of the compile). ``gc.freeze()``
    then ``gc.unfreeze()`` (two list splices) moves what is alive to the oldest generation, so the first young
    collection afterwards does not walk it only to find it alive (a fifth of a 1,000-tile compile); a full
    collection still frees any of it that becomes garbage. Skipped when the program froze objects itself
    (``gc.get_freeze_count()``): unfreezing would undo that.
    """
    was_on = gc.isenabled()
    with paused():
        try:
            yield
        finally:  # still paused: nothing collected before the objects move
            if was_on and not gc.get_freeze_count():
                gc.freeze()
                gc.unfreeze()


class _Held:
    """What :func:`held` returns: a context manager, and a decorator whose calls each hold the collector.

    A class, not ``@contextmanager``: decorating with a generator context manager makes a new one and a generator
    for every call (``ContextDecorator._recreate_cm``), about 400 bytecodes a replayed record."""

    __slots__ = ("_was_on",)

    def __enter__(self) -> None:
        self._was_on = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc: object) -> None:
        if self._was_on:
            gc.enable()
            gc.collect(0)

    def __call__(self, fn: F) -> F:
        @wraps(fn)
        def holding(*args: Any, **kwargs: Any) -> Any:
            was_on = gc.isenabled()
            gc.disable()
            try:
                return fn(*args, **kwargs)
            finally:
                if was_on:
                    gc.enable()
                    gc.collect(0)
        return cast(F, holding)


def held() -> _Held:
    """No automatic collection during the block (or the decorated call), then one young collection.

    While the block runs no collection walks the long-lived objects the program holds (compiled tracks in a
    cache, the host program's own); the cyclic garbage it made is freed at its end by a collection that walks
    only the objects made in the block and still tracked. Nothing is frozen. The collector is switched on again
    before that collection, as :func:`paused` leaves it.
    """
    return _Held()
