"""The track of one stage of a design file, as the analysis plays it (each worker process loads its own)."""

from __future__ import annotations

from pathlib import Path

from rallyc.compilation import load_design

__all__ = ["load_track"]


def load_track(path: Path, stage: str):
    """The compiled track named ``stage`` in the design file ``path`` (raises DiagnosticError on errors)."""
    return load_design(path).track(stage)
