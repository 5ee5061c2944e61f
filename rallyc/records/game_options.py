"""The options in force for a recorded game: its design's ``options`` line, then what the record sets.

The design's options are the defaults of its games; a record may set what the rulebook leaves to the
players (advanced rules, weather); a record that contradicts what the design fixes (a custom race's
choices, a circuit's laps) is a :class:`RecordError` at that option's JSON path (so ``rallyc replay``
prints file:line:column). The vocabulary is the registry's (:mod:`rallyc.model.options`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rallyc.compiler.design import Design
from rallyc.model.options import OptionSpec, in_force, lookup, rule_span
from rallyc.records.load import RecordError
from rallyc.records.tracks import compiled_track_file, track_file
from rallyc.rules.core.options import Options

__all__ = ["record_design", "design_options", "game_options", "unrefereed_in_force", "unrefereed_warning"]


def record_design(data: dict[str, Any], base_dir: Path) -> Design | None:
    """The design the record names (``track``, ``design``), compiled (cached); None for a sketch, or when the
    file cannot be found or compiled (:func:`rallyc.records.replay.record_stages` reports those)."""
    if "track" not in data or "sketch" in data:
        return None
    path, _, is_file = track_file(base_dir, data["track"])
    if not is_file:
        return None
    designs = compiled_track_file(path).designs
    if "design" in data:
        designs = [d for d in designs if d.title == data["design"]]
    return designs[0] if designs else None


def design_options(design: Design | None) -> dict[str, object]:
    """What a design fixes or proposes: its ``options`` line and, for a circuit, its laps."""
    if design is None:
        return {}
    out: dict[str, object] = dict(design.options)
    if design.kind == "circuit" and design.tracks and design.tracks[0].laps is not None:
        out["laps"] = design.tracks[0].laps
    return out


#: :func:`game_options`' answers by (the design's id, the ``repr`` of the record's options as written): (the design, the
#: options, the options in force); the design is kept so that an id is never taken for another design's
_ANSWERS: dict[tuple[Any, ...], tuple[Any, ...]] = {}
_MAX_ANSWERS = 256


def game_options(data: dict[str, Any], design: Design | None) -> tuple[Options, dict[str, bool | str | int | None]]:
    """The referee's :class:`Options` for a record played on ``design`` (None: the record's own options), and
    every option in force by canonical name (the RX start weather is a word there). Worked out once per design
    and options as written (the answer is the same function of the same inputs; a refusal is never kept)."""
    record = data.get("options") or {}
    # repr, not the values: True and 1 are equal keys of a dict, but not the same option value
    key = (id(design), repr(record)) if type(record) is dict else None
    hit = _ANSWERS.get(key) if key is not None else None
    if hit is not None and hit[0] is design:
        return hit[1], dict(hit[2])
    options, merged = _game_options(data, design)
    if key is not None:
        if len(_ANSWERS) >= _MAX_ANSWERS:
            _ANSWERS.clear()
        _ANSWERS[key] = (design, options, merged)
    return options, dict(merged)


def _game_options(data: dict[str, Any], design: Design | None) -> tuple[Options, dict[str, bool | str | int | None]]:
    record = data.get("options") or {}
    seen: dict[str, str] = {}
    for key in record:
        spec = lookup(key)
        if spec is not None and spec.name in seen:
            raise RecordError(f"option `{spec.name}` is given twice (as `{seen[spec.name]}` and `{key}`)",
                              path=f"$.options.{key}")
        if spec is not None:
            seen[spec.name] = key
    try:
        merged, conflicts = in_force(design_options(design), record)
    except ValueError as exc:
        raise RecordError(str(exc), path="$.options") from None
    if conflicts:
        first = conflicts[0]
        raise RecordError(first.message(), path=f"$.options.{first.key}")
    try:
        return Options.from_dict(merged), merged
    except ValueError as exc:
        raise RecordError(str(exc), path="$.options") from None


def unrefereed_in_force(data: dict[str, Any], base_dir: Path) -> list[Any]:
    """The options in force for this record (design and record) that no referee variant plays yet; empty when
    the record's options cannot be read (the replay reports that)."""
    try:
        options, _ = game_options(data, record_design(data, Path(base_dir)))
    except RecordError:
        return []
    return options.unrefereed()


def unrefereed_warning(spec: OptionSpec) -> str:
    """The line ``rallyc replay`` prints for an option in force that it does not referee."""
    return (f"warning: option `{spec.name}` is in force but not refereed: the replay did not check "
            f"{rule_span(spec.rules)}")
