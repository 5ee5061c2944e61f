"""Helpers for the memory tests: a file of many small stages, and the peak of what a call allocates."""

from __future__ import annotations

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


def many_stages_file(tmp_path: Path, stages: int) -> tuple[str, Path]:
    """A file of ``stages`` stages in ``tmp_path``: its text and its path."""
    text = "".join(STAGE.format(i=i) for i in range(stages))
    path = tmp_path / f"many-{stages}.rally"
    path.write_text(text)
    return text, path
