"""The boxes a designer owns, as every command takes them: ``--boxes dirt-core,dirt-110`` or the option repeated.

One reading for every command that takes a list of boxes (``suggest`` today, the stage generator to come):
:func:`box_list` splits the values of a repeated option on commas (and spaces), in the order given, keeping a
box given twice twice (two copies of a box on the shelf hold twice its tiles); :func:`unknown_boxes` words the
error for a name that is no box in scope, with the names that are; :func:`copies_owned` counts the copies of a
tile number the listed boxes hold.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable

__all__ = ["box_list", "unknown_boxes", "copies_owned"]


def box_list(values: Iterable[str] | None) -> list[str] | None:
    """The boxes named by the values of ``--boxes`` (repeated, or comma-separated, or both), in order; None when
    no box is named. ``["dirt-core,dirt-110", "dirt-core"]`` is ``["dirt-core", "dirt-110", "dirt-core"]``."""
    names = [name for value in (values or ()) for name in value.replace(",", " ").split()]
    return names or None


def unknown_boxes(names: Iterable[str], known: Iterable[str]) -> str | None:
    """The error for the names that are no box in scope (``no box named dirt-111; boxes in scope: ...``), or None
    when every name is a box."""
    in_scope = sorted(set(known))
    unknown = sorted(set(names) - set(in_scope))
    if not unknown:
        return None
    word = "box" if len(unknown) == 1 else "boxes"
    return f"no {word} named {', '.join(unknown)}; boxes in scope: {', '.join(in_scope)}"


def copies_owned(copies_in_box: int, box: str, boxes: Iterable[str]) -> int:
    """Copies of a tile number that the listed ``boxes`` hold: its copies in its box times how many times the
    list names that box."""
    return copies_in_box * Counter(boxes)[box]
