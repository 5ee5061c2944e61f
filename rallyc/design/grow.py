"""Grow a stage tile by tile: a depth-first search over the legal continuations, with backtracking.

The stage is laid as the route form lays it (``rallyc/compiler/placement.py``): the start tile on cell
0 0 at rot 0, every next tile on the cell across the last exit, turned so that its entry faces it. A
continuation is legal when its cell and the cell its exit leads into are free (no overlap, RC206; no
road into a tile edge, RC207), the lanes join (RC208), a copy is left in the boxes (RC501/RC502), and
enough free cells lie ahead for the tiles still to come. The search takes the continuations in a
seeded random order weighted towards the pace asked for, and backs up from a dead end.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Sequence

from rallyc.design.pieces import Piece
from rallyc.geometry.hexgrid import Hex, neighbour, opposite, own_to_world, rotation_for
from rallyc.suggest import lanes_join

__all__ = ["Laid", "Layout", "grow", "exit_of", "MAX_TRIES"]

#: continuations tried in one growth before it gives up (a walled-in search stops here)
MAX_TRIES = 4000


@dataclass(frozen=True)
class Laid:
    """A piece on the board: its cell, its rotation and the world edge its road leaves by."""

    piece: Piece
    cell: Hex
    rot: int
    exit_world: str | None

    @property
    def next_cell(self) -> Hex | None:
        return neighbour(self.cell, self.exit_world) if self.exit_world else None


def exit_of(piece: Piece, cell: Hex, entry_world: str | None) -> Laid:
    """``piece`` laid on ``cell`` entered from world edge ``entry_world`` (None: the start, at rot 0)."""
    rot = 0 if entry_world is None else rotation_for(piece.entry, entry_world)
    return Laid(piece, cell, rot, own_to_world(piece.exit, rot) if piece.exit else None)


@dataclass
class Layout:
    """What a growth should lay: road tiles (start and finish included), features, pace."""

    road_tiles: int
    features: frozenset[str]
    #: the slowness a middle tile should have on average (the pace asked for)
    pace: float
    #: copies of each tile number the boxes hold
    copies: dict[str, int]


def _weighted_order(rng: random.Random, options: list[Laid], pace: float) -> list[Laid]:
    """The options in a random order that favours pieces near the pace (weighted sampling without
    replacement: Efraimidis and Spirakis' keys)."""
    def key(laid: Laid) -> float:
        weight = math.exp(-abs(laid.piece.slowness - pace) / 2.0)
        return rng.random() ** (1.0 / weight)
    return sorted(options, key=key, reverse=True)


def _room(start: Hex, taken: set[Hex], need: int) -> bool:
    """At least ``need`` free cells can be reached from ``start`` (a bounded flood fill)."""
    if start in taken:
        return False
    seen, todo = {start}, [start]
    while todo and len(seen) < need:
        c = todo.pop()
        for e in range(6):
            n = neighbour(c, e)
            if n not in seen and n not in taken:
                seen.add(n)
                todo.append(n)
    return len(seen) >= need


def grow(rng: random.Random, by_role: dict[str, list[Piece]], layout: Layout,
         accept: Callable[[list[Laid]], bool] = lambda laid: True) -> list[Laid] | None:
    """A stage of ``layout.road_tiles`` road tiles (start, middle tiles, finish) with every feature asked
    for, and the Assistance tile after the finish when the boxes hold one and there is room; None when
    the search gives up (:data:`MAX_TRIES`). ``accept`` may refuse a finished stage (a duplicate)."""
    n = layout.road_tiles
    laid: list[Laid] = []
    taken: set[Hex] = set()
    used: Counter[str] = Counter()
    tries = 0

    def options(k: int) -> list[Laid]:
        role = "start" if k == 0 else "finish" if k == n - 1 else "road"
        cell = laid[-1].next_cell if laid else Hex(0, 0)
        assert cell is not None  # every laid piece but the Assistance tile has an exit
        entry = opposite(laid[-1].exit_world) if laid else None  # type: ignore[arg-type]
        have = frozenset().union(*(lp.piece.features for lp in laid))
        missing = layout.features - have
        middle_left = n - 1 - k  # middle tiles still to lay, this one included
        out = []
        for piece in by_role.get(role, ()):
            if used[piece.number] >= layout.copies.get(piece.number, 1):
                continue
            if laid and not lanes_join(laid[-1].piece.exit_lanes, piece.entry_lanes):
                continue
            if role == "road" and len(missing) >= middle_left and not (piece.features & missing):
                continue
            if role == "finish" and missing - piece.features:
                continue
            place = exit_of(piece, cell, entry)
            ahead = place.next_cell
            if ahead is None or ahead in taken or ahead == cell:
                continue
            if not _room(ahead, taken | {cell}, n - k):
                continue
            out.append(place)
        return _weighted_order(rng, out, layout.pace if role == "road" else 0.0)

    def search(k: int) -> bool:
        nonlocal tries
        if k == n:
            return accept(laid)
        for place in options(k):
            tries += 1
            if tries > MAX_TRIES:
                return False
            laid.append(place)
            taken.add(place.cell)
            used[place.piece.number] += 1
            if search(k + 1):
                return True
            laid.pop()
            taken.discard(place.cell)
            used[place.piece.number] -= 1
        return False

    if not search(0):
        return None
    _add_assistance(laid, by_role.get("assistance", []), used, layout.copies)
    return laid


def _add_assistance(laid: list[Laid], assistance: Sequence[Piece], used: Counter[str],
                    copies: dict[str, int]) -> None:
    """The Assistance tile after the finish (TRACK-STAGE-08), when a copy is owned and the lanes join."""
    cell = laid[-1].next_cell
    if cell is None:
        return
    for piece in assistance:
        if used[piece.number] < copies.get(piece.number, 1) and lanes_join(laid[-1].piece.exit_lanes,
                                                                           piece.entry_lanes):
            laid.append(exit_of(piece, cell, opposite(laid[-1].exit_world)))  # type: ignore[arg-type]
            used[piece.number] += 1
            return
