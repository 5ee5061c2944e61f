"""A stage with some of its tiles turned to their other side, in place (Monte-Carlo Weather, MC-WEATHER-04).

A flipped tile keeps its cell and rotation; the road driven on its other side is
the one that joins the same two world edges as the road the step drove before
(the other side of a tile carries its roads on the same edges, but the turn
word and the printed direction may differ: 302a is written ``D -> A``, 302b
``A -> D``). Space ids stay ``STEP.ZONE.LANE``, so the spaces of the steps that
were not flipped keep their ids; the spaces of a flipped step are those of its
other side.

Recompiling a whole stage with flipped tiles is :mod:`rallyc.compiler.flipper`.
"""

from __future__ import annotations

from dataclasses import replace

from rallyc.compiler.roads import DrivenRoad, drive_road
from rallyc.geometry.hexgrid import own_to_world
from rallyc.compiler.placement import Placement, PlacedStep
from rallyc.tiles.catalogue import Catalogue, TileInfo

__all__ = ["FlipError", "other_side", "flip_step", "flip_placement"]


class FlipError(ValueError):
    """A step cannot be shown on its other side (no other side, or no road on the same edges)."""


def other_side(tile_id: str) -> str | None:
    """``304a`` -> ``304b``, ``304b`` -> ``304a``; None for a one-faced tile id."""
    if len(tile_id) == 4 and tile_id[3] in "ab":
        return tile_id[:3] + ("b" if tile_id[3] == "a" else "a")
    return None


def _same_edges(info: TileInfo, rot: int, entry: str, exit: str | None) -> DrivenRoad | None:
    """The road (and direction) of ``info`` entering at world edge ``entry`` and leaving at ``exit``."""
    for n, road in enumerate(info.roads, start=1):
        for forward in (True, False):
            if not forward and road.exit == "end":
                continue
            driven = drive_road(road, n, forward)
            out = own_to_world(driven.exit, rot) if driven.exit else None
            if own_to_world(driven.entry, rot) == entry and out == exit:
                return driven
    return None


def flip_step(ps: PlacedStep, catalogue: Catalogue) -> PlacedStep:
    """The placed step shown on its other side: same cell and rotation, the road on the same world edges."""
    other_id = other_side(ps.info.id)
    other = catalogue.get(other_id) if other_id else None
    if other is None:
        raise FlipError(f"step {ps.index}: {ps.info.id} has no other side in the tilesets in scope")
    driven = _same_edges(other, ps.rot, ps.entry_world, ps.exit_world)
    if driven is None:
        raise FlipError(f"step {ps.index}: {other.id} has no road from world edge {ps.entry_world} to "
                        f"{ps.exit_world} (the road {ps.info.id} is driven on here)")
    return replace(ps, info=other, driven=driven)


def flip_placement(placement: Placement, catalogue: Catalogue, flipped: set[int]) -> Placement:
    """A copy of ``placement`` with the steps in ``flipped`` shown on their other side."""
    unknown = set(flipped) - {ps.index for ps in placement.steps}
    if unknown:
        raise FlipError(f"no placed step {', '.join(str(s) for s in sorted(unknown))} to flip")
    steps = [flip_step(ps, catalogue) if ps.index in flipped else ps for ps in placement.steps]
    return Placement(steps, list(placement.scenery), list(placement.diagnostics), placement.complete)
