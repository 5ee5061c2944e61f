"""Geometry checks: tiles overlapping, roads running into tiles without road, lane counts at joins."""

from __future__ import annotations

from rallyc.compiler.stage import StageBuild
from rallyc.compiler.track import PlacedTile
from rallyc.diagnostics import Diagnostic
from rallyc.geometry.hexgrid import opposite, world_to_own
from rallyc.model import codes as rc

__all__ = ["check_overlaps", "check_runs_into_tile", "check_lane_joins"]


def check_overlaps(build: StageBuild) -> list[Diagnostic]:
    """RC206: two tiles on one cell (TRACK-TILE-06).

    A tile driven twice on two of its roads (414b, the Monte-Carlo bridge,
    MC-BRIDGE-01) appears at two steps on one cell: that is one tile, not an
    overlap, when the id and rotation agree and the roads differ.
    """
    out = []
    seen: dict[tuple[int, int], PlacedTile] = {}
    for p in build.placed():
        cell = (p.q, p.r)
        first = seen.get(cell)
        if first is None:
            seen[cell] = p
            continue
        if (not p.scenery and not first.scenery and first.tile == p.tile and first.rot == p.rot
                and first.road != p.road):
            continue
        what = f"step {first.step} ({first.tile})" if not first.scenery else f"scenery {first.tile}"
        me = f"step {p.step} ({p.tile})" if not p.scenery else f"scenery {p.tile}"
        related = [(first.span, f"{what} is here")] if first.span else []
        hint = ("change the turn words so that the route does not run back into itself"
                if not p.scenery else "move the scenery tile to a free cell")
        if not p.scenery and not first.scenery and first.tile == p.tile:
            hint = (f"one tile driven twice must keep one rotation and use two different roads; "
                    f"step {first.step} has rot {first.rot} road {first.road}, this one rot {p.rot} road {p.road}")
        out.append(Diagnostic.of(rc.RC206, f"{me} lands on cell {p.q} {p.r}, where {what} already is",
                                    p.span, hint, related))
    return out


def check_runs_into_tile(build: StageBuild) -> list[Diagnostic]:
    """RC207: a step's exit leads into a cell holding a tile that is not the next step and has no road there."""
    out = []
    cells: dict[tuple[int, int], list[PlacedTile]] = {}
    for p in build.placed():
        cells.setdefault((p.q, p.r), []).append(p)
    steps = build.placement.steps
    by_index = {s.index: s for s in steps}
    for ps in steps:
        nxt = ps.next_cell
        if nxt is None:
            continue
        follow = by_index.get(ps.index + 1)
        if follow is not None and follow.cell == nxt:
            continue
        zones = build.by_step.get(ps.index) or []
        if zones and all(build.graph.nodes[s]["past_finish"] for s in zones[-1].all()):
            continue  # beyond the finish line the road may run out under scenery (published layouts do)
        exit_world = ps.exit_world
        assert exit_world is not None  # the step has a cell ahead
        for other in cells.get((nxt.q, nxt.r), []):
            facing = opposite(exit_world)
            info = build.catalogue.get(other.tile)
            own = world_to_own(facing, other.rot)
            has_road = info is not None and any(own in (r.entry, r.exit) for r in info.roads)
            if has_road:
                continue
            what = f"scenery {other.tile}" if other.scenery else f"step {other.step} ({other.tile})"
            out.append(Diagnostic.of(
                rc.RC207, f"step {ps.index} ({ps.info.id}) leads into {what}, which has no road on that edge",
                ps.step.span, "move that tile, or end the route before it"))
            break
    return out


def check_lane_joins(build: StageBuild) -> list[Diagnostic]:
    """RC208: lane counts that are neither equal nor 2 and 3 where two zones meet (TRACK-TILE-03)."""
    out = []
    for a, b, n, m in build.builder.lane_mismatches:
        step = int(b.split(".")[0])
        out.append(Diagnostic.of(
            rc.RC208, f"{n} lanes meet {m} lanes between space {a} and {b}", build.step_span(step),
            "joins must keep the lane count or go between 2 and 3 lanes; use a tile whose lanes fit"))
    return out
