"""Legality checks of a compiled track: one small module per area, each rule with a stable code.

- :mod:`rallyc.checks.names`: unknown tiles, duplicate names (RC1xx; run on the whole file);
- :mod:`rallyc.checks.geometry`: overlapping tiles, roads into tiles without road, lane counts (RC2xx);
- :mod:`rallyc.checks.route`: start, finish, reachability, length, Assistance (RC3xx);
- :mod:`rallyc.checks.inventory`: both sides of one tile, copies and boxes (RC5xx);
- :mod:`rallyc.checks.tokens`: tokens on spaces (RC6xx);
- :mod:`rallyc.checks.rx`: RX circuits (RC4xx).

Each check is a function ``check_xxx(build) -> list[Diagnostic]`` reading a
:class:`rallyc.compiler.stage.StageBuild`.
"""

from __future__ import annotations

from rallyc.diagnostics import Diagnostic

__all__ = ["stage_checks"]


def stage_checks(build, boxes: list[str] | None = None) -> list[Diagnostic]:
    """Every check of a stage (geometry, route, inventory), in a fixed order."""
    from rallyc.checks import geometry, inventory, route

    out: list[Diagnostic] = []
    out += geometry.check_overlaps(build)
    out += geometry.check_runs_into_tile(build)
    out += geometry.check_lane_joins(build)
    out += route.check_start_finish(build)
    out += route.check_assistance(build)
    out += route.check_reachability(build)
    out += route.check_length(build)
    out += inventory.check_sides(build, boxes)
    out += inventory.check_boxes(build, boxes)
    return out
