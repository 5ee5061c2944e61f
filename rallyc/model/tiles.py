"""Tile roles: what a tile is for in a design, read from its definition in the tileset (tiles are data).

A tile whose road carries a printed ``start`` line is a start tile, one with a ``finish`` line a
finish tile, one with a ``service`` zone the Assistance tile (TRACK-STAGE-08); a tile of a tileset
declared ``circuit`` (``tileset dirt-rx "..." circuit``) is an RX circuit tile. No tile number is
written in Python: a tileset that defines a new start tile makes it one.
"""

from __future__ import annotations

from enum import Enum

__all__ = ["TileRole"]


class TileRole(str, Enum):
    """What a tile is for in a design."""

    START = "start"
    FINISH = "finish"
    ASSISTANCE = "assistance"
    #: a tile of an RX circuit box: an imported track of such tiles with no stage route is a circuit
    CIRCUIT = "circuit"
