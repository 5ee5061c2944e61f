"""The track of one stage of a design, as the analysis plays it (each worker process loads its own)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rallyc.compilation.compiled import compile_paused, load_design
from rallyc.diagnostics import DiagnosticError, has_errors
from rallyc.project.loader import load_text

__all__ = ["load_track", "TrackSource"]


def load_track(path: Path, stage: str):
    """The compiled track named ``stage`` in the design file ``path`` (raises DiagnosticError on errors)."""
    return load_design(path).track(stage)


@dataclass(frozen=True)
class TrackSource:
    """Where a worker process compiles a track from: a design file, or a design's text (its ``use`` lines read
    from ``base_dir``, which must hold the same files on every machine of a cluster)."""

    name: str
    path: Path | None = None
    text: str | None = None
    base_dir: Path | None = None

    def load(self):
        """The compiled track (raises DiagnosticError on errors)."""
        if self.path is not None:
            return load_track(self.path, self.name)
        loaded = load_text(self.text or "", f"{self.name}.rally", base_dir=self.base_dir)
        result = compile_paused(loaded)
        errors = [d for d in loaded.diagnostics + result.diagnostics if d.severity.value == "error"]
        if has_errors(errors) or not result.designs:
            raise DiagnosticError(errors)
        return result.designs[0].track(self.name)
