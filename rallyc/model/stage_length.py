"""A stage's length in road tiles, as the rulebook classes it (TRACK-STAGE-01..03) and as RC308 bounds it.

Read by the check (:mod:`rallyc.checks.route`), the statistics (:mod:`rallyc.compiler.stats`) and the next-tile
suggestions (:mod:`rallyc.suggest`), which must not import the compiler's graph for three numbers.
"""

from __future__ import annotations

__all__ = ["SHORT_STAGE", "LONG_STAGE", "STAGE_CLASSES", "stage_class"]

#: fewer road tiles than this draws RC308 (TRACK-STAGE-01: a Short stage is about 10 tiles)
SHORT_STAGE = 6
#: more road tiles than this draws RC308 (TRACK-STAGE-03: a Long stage is about 18 tiles)
LONG_STAGE = 22
#: the rulebook's classes and their tiles (TRACK-STAGE-01..03)
STAGE_CLASSES = (("Short", 10), ("Medium", 14), ("Long", 18))


def stage_class(tiles: int) -> str:
    """The rulebook's stage class nearest to this many tiles (TRACK-STAGE-01..03)."""
    return min(STAGE_CLASSES, key=lambda c: (abs(c[1] - tiles), c[1]))[0]
