"""The boxes a designer owns, as every command takes them: ``--boxes dirt-core,dirt-110`` or the option repeated.

One reading for every command that takes a list of boxes (``suggest``, ``generate``, ``check``'s inventory):
:func:`box_list` splits the values of a repeated option on commas (and spaces), in the order given, keeping a
box given twice twice (two copies of a box on the shelf hold twice its tiles); :func:`unknown_boxes` words the
error for a name that is no box in scope, with the names that are; :func:`owned_copies` counts the copies of a
tile number the listed boxes hold.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Iterable

if TYPE_CHECKING:  # pragma: no cover
    from rallyc.tiles.catalogue import Catalogue

__all__ = ["box_list", "unknown_boxes", "owned_copies"]


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


def owned_copies(catalogue: "Catalogue", number: str, boxes: Iterable[str] | None = None) -> int:
    """Physical copies of tile ``number``: its box's copies, times the times ``boxes`` lists that box (a box owned
    twice holds twice its tiles, in a file's ``boxes`` line and on the command line alike); without ``boxes``, or
    when they do not list its box, one box's copies."""
    found = (catalogue.get(number + side) for side in ("a", "b", ""))
    infos = [i for i in found if i is not None]
    if not infos:
        return 1
    return max(i.copies for i in infos) * max(1, Counter(boxes or ())[infos[0].box])