"""The pieces a generated stage is built from: every road of every owned tile side, in each direction.

A :class:`Piece` is one tile side driven one way, with the words that pick that way in the route form
(``210b left``, ``205a reversed``, as ``rallyc suggest`` writes them), what it adds (the features a
designer can ask for) and a rough *slowness*, the order in which the tuner tries faster or slower tiles
(the measured par decides, never this number).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

from rallyc.checks.inventory import owned_copies
from rallyc.compiler.roads import DrivenRoad, drive_road
from rallyc.model.tiles import TileRole
from rallyc.suggest import step_words, turn_word
from rallyc.tiles.catalogue import Catalogue, TileInfo

__all__ = ["FEATURES", "Piece", "pieces", "owned"]

#: what ``--features`` can ask for: a printed jump, water, a shortcut, a hairpin (a 120° bend), a climb line
FEATURES = ("jump", "water", "shortcut", "hairpin", "climb")

#: the gear a car can keep where nothing limits it (Gear 6 is the top of the Gearbox)
_TOP_GEAR = 6


@dataclass(frozen=True)
class Piece:
    """One road of one tile side, driven one way."""

    info: TileInfo
    driven: DrivenRoad
    #: the step as written in the route form
    text: str
    features: frozenset[str]
    #: gears below the top that the road's limits take away, summed over its zones, plus one a jump or water
    slowness: int

    @property
    def tile(self) -> str:
        return self.info.id

    @property
    def number(self) -> str:
        return self.info.number

    @property
    def entry(self) -> str:
        return self.driven.entry

    @property
    def exit(self) -> str | None:
        return self.driven.exit

    @property
    def entry_lanes(self) -> int | None:
        return self.driven.zones[0].lanes if self.driven.zones else None

    @property
    def exit_lanes(self) -> int | None:
        return self.driven.zones[-1].lanes if self.driven.zones else None

    @property
    def role(self) -> str:
        """``start``, ``finish``, ``assistance`` or ``road``."""
        lines = {ln.kind for ln in self.driven.lines}
        if "start" in lines:
            return "start"
        if "finish" in lines:
            return "finish"
        return "assistance" if TileRole.ASSISTANCE in self.info.roles else "road"


def _features(driven: DrivenRoad) -> frozenset[str]:
    found = set()
    if any(z.jump for z in driven.zones):
        found.add("jump")
    if any(z.water for z in driven.zones):
        found.add("water")
    if driven.shortcuts:
        found.add("shortcut")
    if driven.turn in ("left120", "right120"):
        found.add("hairpin")
    if any(ln.kind == "climb" for ln in driven.lines):
        found.add("climb")
    return frozenset(found)


def _slowness(driven: DrivenRoad) -> int:
    total = 0
    for z in driven.zones:
        limits = [v for v in (*z.inside, *z.outside, *z.limits.values(), z.line_limit) if v is not None]
        if limits:
            total += _TOP_GEAR - min(limits)
        if z.jump or z.water:
            total += 1
    return total


def pieces(catalogue: Catalogue, boxes: Sequence[str], surfaces: Sequence[str] | None = None) -> list[Piece]:
    """Every piece of the owned boxes, in catalogue order: tiles with one road (forks, bridges and RX
    junctions are left out), start and finish tiles as printed (forward), the others both ways; with
    ``surfaces``, road tiles of those surfaces only (start, finish and Assistance tiles whatever theirs)."""
    out = []
    for info in catalogue:
        if info.box not in boxes or len(info.roads) != 1 or info.circuit_box and not _stage_tile(info):
            continue
        road = info.roads[0]
        for forward in (True, False):
            if not forward and (road.exit == "end" or info.roles & {TileRole.START, TileRole.FINISH}):
                continue
            driven = drive_road(road, 1, forward)
            if any(z.kind in ("junction", "half") for z in driven.zones):
                continue
            if not forward and _as_driven(driven) == _as_driven(drive_road(road, 1, True)):
                continue  # a tile that drives the same both ways (a plain straight): one piece
            piece = Piece(info, driven, step_words(info.id, turn_word(driven), None), _features(driven),
                          _slowness(driven))
            if surfaces and piece.role == "road" and info.surface not in surfaces:
                continue
            out.append(piece)
    return out


def _as_driven(driven: DrivenRoad) -> tuple:
    """What a car meets on a road driven one way (its zones, lines and shortcuts in driving order, and its turn),
    without where the tile's text says it: two ways of driving a tile that give the same are the same stage."""
    return (driven.turn, [replace(z, span=None) for z in driven.zones],
            [replace(ln, span=None) for ln in driven.lines], [replace(sc, span=None) for sc in driven.shortcuts])


def _stage_tile(info: TileInfo) -> bool:
    """An RX box's tile that a stage can use as well: a plain road with no fork or Joker markings."""
    return not info.limit_lines


def owned(catalogue: Catalogue, boxes: Sequence[str], number: str) -> int:
    """Copies of a tile number the boxes hold (a box listed twice counts twice)."""
    return owned_copies(catalogue, number, boxes)
