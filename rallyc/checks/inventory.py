"""Inventory checks: physical tiles (two sides, copies) and the declared boxes (TRACK-TILE-06)."""

from __future__ import annotations

from collections import Counter
from typing import Protocol, Sequence

from rallyc.compiler.track import PlacedTile
from rallyc.diagnostics import Diagnostic, Span
from rallyc.model import codes as rc
from rallyc.tiles.catalogue import Catalogue

__all__ = ["Inventory", "check_sides", "check_boxes", "physical_use", "owned_copies"]


class Inventory(Protocol):
    """What the inventory checks read: a stage build, or a rally area whose stages share its tiles."""

    catalogue: Catalogue
    boxes: list[str] | None

    @property
    def name(self) -> str: ...

    def placed(self) -> list[PlacedTile]: ...


def physical_use(build: Inventory) -> list[tuple[str, Span | None]]:
    """(tile id, span) of every physical tile a stage lays down, in order.

    A tile driven twice on one cell (414b, a bridge) is one physical tile.
    """
    out = []
    seen = set()
    for p in build.placed():
        key = (p.q, p.r, p.tile, p.rot) if not p.scenery else None
        if key is not None and key in seen:
            continue
        if key is not None:
            seen.add(key)
        out.append((p.tile, p.span))
    return out


def owned_copies(catalogue: Catalogue, number: str, boxes: Sequence[str] | None = None) -> int:
    """Physical copies of tile ``number``: its box's copies, times the times ``boxes`` lists that box (a box
    owned twice holds twice its tiles); without ``boxes``, one box's copies."""
    found = (catalogue.get(number + side) for side in ("a", "b", ""))
    infos = [i for i in found if i is not None]
    if not infos:
        return 1
    per_box = max(i.copies for i in infos)
    return per_box * max(1, list(boxes or ()).count(infos[0].box))


def _copies(build: Inventory, number: str) -> int:
    return owned_copies(build.catalogue, number, build.boxes)


def _by_number(build: Inventory) -> dict[str, list[tuple[str, Span | None]]]:
    used: dict[str, list[tuple[str, Span | None]]] = {}
    for tid, span in physical_use(build):
        used.setdefault(tid[:3], []).append((tid, span))
    return used


def _both_sides_over(build: Inventory) -> set[str]:
    """Tile numbers used on both sides more times than their copies (reported by RC501)."""
    return {n for n, uses in _by_number(build).items()
            if len({t for t, _ in uses}) > 1 and len(uses) > _copies(build, n)}


def check_sides(build: Inventory) -> list[Diagnostic]:
    """RC501 (only with ``boxes`` declared): both sides of one physical tile in one stage (more uses of a
    number than its copies).

    Without a ``boxes`` line no inventory check runs, this one included: both sides of one tile cannot
    lie in one box, but an owner may have two boxes (a real RX file of the Windows editor does just
    that), and only ``boxes`` says what is on the shelf.
    """
    if not build.boxes:
        return []
    out = []
    for number, uses in _by_number(build).items():
        sides = {t for t, _ in uses}
        copies = _copies(build, number)
        if len(sides) > 1 and len(uses) > copies:
            first_side = uses[0][0]
            other = next((t, s) for t, s in uses if t != first_side)
            out.append(Diagnostic.of(
                rc.RC501, f"stage {build.name} uses both {first_side} and {other[0]}: "
                f"{len(uses)} uses of tile {number}, which has {copies} cop{'y' if copies == 1 else 'ies'}",
                other[1], f"use another tile than {other[0]} here",
                [(span, f"{first_side} is used here") for span in (uses[0][1],) if span is not None]))
    return out


def check_boxes(build: Inventory) -> list[Diagnostic]:
    """RC502/RC503 (only with ``boxes`` declared): copies beyond the boxes; tiles from boxes not declared."""
    boxes = build.boxes
    if not boxes:
        return []
    out = []
    count: Counter[str] = Counter()
    both = _both_sides_over(build)
    for tid, span in physical_use(build):
        info = build.catalogue.get(tid)
        if info is None:
            continue
        if info.box not in boxes:
            out.append(Diagnostic.of(rc.RC503, f"{tid} comes from the box {info.box}, which `boxes` does not list",
                                        span, f"add {info.box} to `boxes` or use a tile from "
                                        + ", ".join(sorted(set(boxes)))))
            continue
        count[info.number] += 1
        copies = _copies(build, info.number)
        if count[info.number] == copies + 1 and info.number not in both:
            out.append(Diagnostic.of(rc.RC502, f"stage {build.name} uses tile {info.number} "
                                        f"{count[info.number]} times; the declared boxes hold {copies}", span,
                                        "use another tile here (the boxes listed in `boxes` hold only these copies)"))
    return out
