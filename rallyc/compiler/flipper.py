"""A stage recompiled with some of its tiles on their other side, in place (Monte-Carlo Weather, MC-WEATHER-04).

>>> flip = Flipper(stage_ast, catalogue)          # doctest: +SKIP
>>> track = flip.track({3, 4})                    # doctest: +SKIP

How one step is flipped is :mod:`rallyc.compiler.flip`.
"""

from __future__ import annotations

from rallyc.compiler.flip import FlipError, flip_step, other_side
from rallyc.compiler.placement import place_route
from rallyc.compiler.stage import build_stage
from rallyc.compiler.track import Track
from rallyc.syntax import ast
from rallyc.tiles.catalogue import Catalogue

__all__ = ["Flipper", "compile_flipped"]


def compile_flipped(stage: ast.Stage, catalogue: Catalogue, flipped_steps: set[int]) -> Track:
    """Compile ``stage`` with the tiles of ``flipped_steps`` (1-based) on their other side.

    Raises :class:`FlipError` when a step cannot be flipped. Road Effects tokens
    written on a flipped step's spaces stay only where those spaces still exist.
    """
    build = build_stage(stage, catalogue, flipped=set(flipped_steps))
    if build.track is None:  # pragma: no cover - build_stage always builds a track from a placement
        raise FlipError(f"stage {stage.name.text} could not be built")
    return build.track


class Flipper:
    """What a referee needs to recompile one stage with tiles flipped: its AST and the tile catalogue."""

    def __init__(self, stage: ast.Stage, catalogue: Catalogue) -> None:
        self.stage = stage
        self.catalogue = catalogue
        self._placement = place_route(stage.steps, stage.scenery, catalogue)

    def can_flip(self, step: int) -> bool:
        """True when the step's tile has an other side with a road on the same world edges."""
        for ps in self._placement.steps:
            if ps.index == step:
                try:
                    flip_step(ps, self.catalogue)
                except FlipError:
                    return False
                return True
        return False

    def surface(self, step: int, flipped: set[int]) -> str | None:
        """The surface the step's tile shows when the steps in ``flipped`` are on their other side."""
        for ps in self._placement.steps:
            if ps.index == step:
                if step not in flipped:
                    return ps.info.definition.surface
                other_id = other_side(ps.info.id)
                other = self.catalogue.get(other_id) if other_id else None
                return other.definition.surface if other else None
        return None

    def track(self, flipped: set[int]) -> Track:
        """The stage compiled with ``flipped`` steps on their other side."""
        return compile_flipped(self.stage, self.catalogue, flipped)
