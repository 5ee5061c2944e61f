"""Helpers for the memory tests: a file of many small stages, the peak of what a call allocates, and what a call
leaves for the cyclic garbage collector."""

from __future__ import annotations

import gc
import tracemalloc
from pathlib import Path
from typing import Callable

#: an 8-tile stage, ``{i}`` its number
STAGE = "stage S{i} {{\n  202a\n  205a\n  206a\n  208a left\n  204a\n  205b\n  206b\n  203a\n}}\n"


def peak(run: Callable[[], object]) -> int:
    """The peak of the memory traced while ``run()`` runs (bytes)."""
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def cyclic_garbage(run: Callable[[], object]) -> list[object]:
    """What ``run()`` left for the cyclic collector (its result dropped). Young collections: all that ``run`` made is
    young (the collector is disabled meanwhile), and walking only that keeps a test quick."""
    was_on = gc.isenabled()
    gc.disable()
    gc.collect(0)
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        run()
        gc.collect(0)
        return list(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was_on:
            gc.enable()


def many_stages_file(tmp_path: Path, stages: int) -> tuple[str, Path]:
    """A file of ``stages`` stages in ``tmp_path``: its text and its path."""
    text = "".join(STAGE.format(i=i) for i in range(stages))
    path = tmp_path / f"many-{stages}.rally"
    path.write_text(text)
    return text, path
