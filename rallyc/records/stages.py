"""The tracks a game record is played on (its ``track`` file's design, or its ``sketch``) and the bundled
component numbers: what the setup of a rally and of a race reads (:mod:`rallyc.records.start`)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from rallyc.compiler.design import Design
from rallyc.compiler.flipper import Flipper
from rallyc.compiler.track import Track
from rallyc.data.components import Components, load_components
from rallyc.records.load import RecordError
from rallyc.records.tracks import CompiledFile, compiled_track_file, track_file
from rallyc.rules.sketch import SketchError, sketch

__all__ = ["record_tracks", "record_stages", "default_components"]


def record_tracks(data: dict[str, Any], base_dir: Path) -> tuple[list[Track], str]:
    """The tracks a record is played on: compiled from ``track`` (relative to the record) or ``sketch``."""
    tracks, title, _ = record_stages(data, base_dir)
    return tracks, title


def record_stages(data: dict[str, Any], base_dir: Path) -> tuple[list[Track], str, list[Flipper | None]]:
    """Like :func:`record_tracks`, with each track's flipper (``Design.flipper``; None for sketches), which
    the Monte-Carlo ``weather`` option needs to turn tiles over (MC-WEATHER-04)."""
    if "sketch" in data:
        return _sketched_stages(data)
    compiled = _compiled_track(data, base_dir)
    design = _record_design(data, compiled.designs)
    tracks = _stage_tracks(data["stages"], design)
    return tracks, design.title, [compiled.flipper(design, t.name) for t in tracks]


def _sketched_stages(data: dict[str, Any]) -> tuple[list[Track], str, list[Flipper | None]]:
    """The stages a record sketches (``sketch``, each with its ``assistance``), its title, and no flippers."""
    assist = data.get("assistance", [])
    tracks: list[Track] = []
    for i, s in enumerate(data["sketch"]):
        try:
            tracks.append(sketch(s, f"SS{i + 1}", assistance=bool(assist[i]) if i < len(assist) else False))
        except SketchError as exc:
            raise RecordError(str(exc), path=f"$.sketch[{i}]") from None
    return tracks, data.get("title", "sketch"), [None] * len(tracks)


def _compiled_track(data: dict[str, Any], base_dir: Path) -> CompiledFile:
    """The record's ``track`` file (relative to the record) compiled; :class:`RecordError` at ``$.track`` when it
    is missing, a folder, or has errors (the first located, and how many more)."""
    if "track" not in data:
        raise RecordError("the record names no `track` file (or `sketch`)", path="$")
    path, is_dir, is_file = track_file(base_dir, data["track"])
    if is_dir:
        raise RecordError(f"the track is a folder, not a .rally file: {path}", path="$.track")
    if not is_file:
        raise RecordError(f"track file not found: {path}", path="$.track")
    compiled = compiled_track_file(path)
    errors = [d for d in compiled.diagnostics if getattr(d, "severity", "error") == "error"]
    if errors:
        first = errors[0]
        span = getattr(first, "span", None)
        where = f"{span.file}:{span.line}:{span.column}: " if span is not None else f"{path}: "
        more = f" (and {len(errors) - 1} more; run `rallyc check` on it)" if len(errors) > 1 else ""
        raise RecordError(f"track file has errors: {where}{getattr(first, 'code', '')} "
                          f"{getattr(first, 'message', first)}{more}", path="$.track")
    return compiled


def _record_design(data: dict[str, Any], designs: list[Design]) -> Design:
    """The design (stage or rally) of the track file the record is played on: the one titled ``design``, else the
    first; :class:`RecordError` when there is none."""
    if not designs:
        raise RecordError(f"{data['track']} holds no stage or rally", path="$.track")
    if "design" not in data:
        return designs[0]
    match = [d for d in designs if d.title == data["design"]]
    if not match:
        raise RecordError(f"no design titled {data['design']!r} in {data['track']} "
                          f"(there are: {', '.join(d.title for d in designs)})", path="$.design")
    return match[0]


def _stage_tracks(stages: list[dict[str, Any]], design: Design) -> list[Track]:
    """The track of each of the record's stages: the one it names (``stage``), else the design's stage in the
    same place; :class:`RecordError` at a stage the design does not have."""
    tracks = []
    names = [s.get("stage") for s in stages]
    for i, name in enumerate(names):
        if name is None:
            if i >= len(design.tracks):
                raise RecordError(f"{design.title} has {len(design.tracks)} stage(s)", path=f"$.stages[{i}]")
            tracks.append(design.tracks[i])
        else:
            found = [t for t in design.tracks if t.name == name]
            if not found:
                raise RecordError(f"no stage {name!r} in {design.title} "
                                  f"(there are: {', '.join(t.name for t in design.tracks)})",
                                  path=f"$.stages[{i}].stage")
            tracks.append(found[0])
    return tracks


@lru_cache(maxsize=1)
def default_components() -> Components:
    """The bundled component numbers, read once per process (the referee only reads them)."""
    return load_components()
