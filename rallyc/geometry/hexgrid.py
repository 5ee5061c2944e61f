"""The hex grid: axial coordinates (q, r) and edges A..F, as in the Rekee track editor.

Edge/direction ``A..F`` are the neighbour offsets (+1,0), (0,+1), (-1,+1), (-1,0),
(0,-1), (+1,-1), clockwise on screen; the opposite of an edge is +3. A tile's own
edges are named A..F as printed (A top); placed with rotation ``rot`` (0..5) the
tile shows its own edge ``(w - rot) mod 6`` on world edge ``w``.
"""

from __future__ import annotations

from typing import Iterator, NamedTuple

__all__ = [
    "EDGES", "Hex", "edge_index", "edge_name", "opposite", "neighbour", "own_to_world", "world_to_own",
    "rotation_for", "hex_distance", "turn_of", "mirror_turn",
]

EDGES = "ABCDEF"

_OFFSETS = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)]


class Hex(NamedTuple):
    """An axial cell."""

    q: int
    r: int

    def __str__(self) -> str:
        return f"({self.q},{self.r})"


_INDEX = {e: i for i, e in enumerate(EDGES)}


def edge_index(edge: str | int) -> int:
    """``"A"`` -> 0 ... ``"F"`` -> 5 (ints pass through, taken mod 6)."""
    if isinstance(edge, int):
        return edge % 6
    found = _INDEX.get(edge)
    return found if found is not None else EDGES.index(edge)


def edge_name(index: int) -> str:
    """0 -> ``"A"`` ... 5 -> ``"F"``."""
    return EDGES[index % 6]


def opposite(edge: str) -> str:
    """The edge facing this one across the border between two cells."""
    return edge_name(edge_index(edge) + 3)


def neighbour(cell: Hex | tuple[int, int], edge: str | int) -> Hex:
    """The cell across ``edge`` (a world edge) from ``cell``."""
    dq, dr = _OFFSETS[edge_index(edge)]
    return Hex(cell[0] + dq, cell[1] + dr)


def own_to_world(own_edge: str, rot: int) -> str:
    """The world edge on which a tile placed with ``rot`` shows its own edge ``own_edge``."""
    return edge_name(edge_index(own_edge) + rot)


def world_to_own(world_edge: str, rot: int) -> str:
    """The tile's own edge shown on ``world_edge`` when placed with ``rot``."""
    return edge_name(edge_index(world_edge) - rot)


def rotation_for(own_edge: str, world_edge: str) -> int:
    """The rotation that puts the tile's own edge ``own_edge`` on ``world_edge``."""
    return (edge_index(world_edge) - edge_index(own_edge)) % 6


def hex_distance(a: Hex | tuple[int, int], b: Hex | tuple[int, int]) -> int:
    """Number of steps between two cells."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def ring(center: Hex, radius: int) -> Iterator[Hex]:
    """The cells at exactly ``radius`` steps from ``center``."""
    if radius == 0:
        yield Hex(*center)
        return
    cell = Hex(center[0] + _OFFSETS[4][0] * radius, center[1] + _OFFSETS[4][1] * radius)
    for side in range(6):
        for _ in range(radius):
            yield cell
            cell = neighbour(cell, side)


#: a road's turn by how many edges clockwise its exit lies from the edge opposite its entry
_TURNS = {0: "straight", 5: "left60", 4: "left120", 1: "right60", 2: "right120"}
_MIRROR = {"left60": "right60", "right60": "left60", "left120": "right120", "right120": "left120"}


def turn_of(entry: str, exit: str) -> str:
    """The turn of a road from its edges: straight, left60, left120, right60, right120 (or other)."""
    return _TURNS.get((edge_index(exit) - edge_index(entry) - 3) % 6, "other")


def mirror_turn(turn: str) -> str:
    """The turn driven the other way round: a left bend driven backwards turns right."""
    return _MIRROR.get(turn, turn)
