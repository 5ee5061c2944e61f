"""Python's cyclic garbage collector paused for a block of work, in the three ways rallyc needs.

Reference counting frees objects as usual in every case; only the automatic cyclic collections wait. Each
context manager leaves the collector as it found it (switched off stays off, and then nothing is collected).

- :func:`paused`: nothing more (a map being drawn: hundreds of thousands of small objects, none of them cyclic
  garbage worth a scan meanwhile; a replay, which makes none at all).
- :func:`paused_keeping`: for work whose objects stay alive (a compile's space graph): afterwards they go
  straight to the oldest generation, so the next young collection does not walk them all once more.
- :func:`held`: for work that makes cyclic garbage: afterwards one young collection frees it.

:func:`paused` and :func:`held` also decorate a function: each call is then a block.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import Any, TypeVar, cast

__all__ = ["paused", "paused_keeping", "held"]

F = TypeVar("F", bound=Callable[..., Any])


class _Paused:
    """What :func:`paused` returns: a context manager, and a decorator whose calls are each a block.

    A class, not ``@contextmanager``: decorating with a generator context manager makes a new one and a generator
    for every call (``ContextDecorator._recreate_cm``)."""

    __slots__ = ("_was_on",)

    def __enter__(self) -> None:
        self._was_on = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc: object) -> None:
        if self._was_on:
            gc.enable()

    def __call__(self, fn: F) -> F:
        block = type(self)

        @wraps(fn)
        def in_block(*args: Any, **kwargs: Any) -> Any:
            with block():
                return fn(*args, **kwargs)
        return cast(F, in_block)


class _Held(_Paused):
    """What :func:`held` returns: :func:`paused`'s block, then one young collection."""

    __slots__ = ()

    def __exit__(self, *exc: object) -> None:
        if self._was_on:
            gc.enable()
            gc.collect(0)


def paused() -> _Paused:
    """No automatic collection during the block (or each call of the decorated function)."""
    return _Paused()


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


def held() -> _Held:
    """No automatic collection during the block (or each call of the decorated function), then one young
    collection.

    While the block runs no collection walks the long-lived objects the program holds (compiled tracks in a
    cache, the host program's own); the cyclic garbage it made is freed at its end. That collection walks every
    object still young, the block's and what the program made since the last collection (a record it has just
    read, say): for work that makes no cyclic garbage, :func:`paused` is the cheaper pause. Nothing is frozen. The
    collector is switched on again before that collection, as :func:`paused` leaves it.
    """
    return _Held()
