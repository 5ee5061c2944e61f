"""Junction tiles on a point-to-point stage: a branch road driven onto or off the main road.

On a fork (402-409) the branch links share spaces with the main road: a branch
road's ``merge`` zone *is* a main-road zone, and its ``half`` zone (two
half-line spaces) touches only the main-road lane on its side (RX-FORK-02).
Crossing the speed-limit line from the half-line spaces into the main road, the
limit holds for that move only, an edge attribute ``limit`` (RX-FORK-03); the
space itself keeps the main road's limit. This is how :mod:`rallyc.compiler.circuit`
joins a Joker or Pre-grid to the loop, and a stage that drives a branch link of a
fork gets the same spaces and edges: :func:`join_branch_links` rewrites the
joins of such a step after the route is built. Leaving the main road into a
branch, the line is crossed into the half-line space, whose limit it is (as on
circuits). Y junctions (415) have a ``junction`` centre space per road and need
nothing more.

A circuit whose loop drives a branch link onto the main road (RX 2's 405a: the loop takes the B -> D link,
the Pre-grid the straight) gets the same moves from the half-line spaces (:func:`join_loop_branch_links`),
but the merge zone keeps the main road's other lanes when a Pre-grid or Joker drives the main road through
the fork: its zones from the merge zone on are the loop's spaces (:func:`link_onto_main`,
:mod:`rallyc.compiler.circuit`), one place, one space.
"""

from __future__ import annotations

import networkx as nx

from rallyc.compiler.graph import ZoneSpaces, replace_move
from rallyc.compiler.placement import PlacedStep
from rallyc.compiler.roads import DrivenRoad, drive_road
from rallyc.geometry.hexgrid import edge_index

__all__ = ["join_branch_links", "join_loop_branch_links", "link_onto_main", "branch_side"]


def branch_side(main: DrivenRoad, branch_own: str) -> str:
    """The main-road lane (as driven) on the side of the tile's own edge ``branch_own``."""
    e_in = edge_index(main.entry)
    e_out = edge_index(main.exit) if main.exit else (e_in + 3) % 6
    b = (edge_index(branch_own) - e_in) % 6
    return "l" if 0 < b < (e_out - e_in) % 6 else "r"


def _main_road(step: PlacedStep, shared_own: str, exiting: bool) -> DrivenRoad | None:
    """The tile's other road through the shared edge, driven the same way as the step at that edge."""
    driven = step.driven
    for n, rd in enumerate(step.info.roads, start=1):
        if n == driven.number:
            continue
        if any(getattr(z, "kind", None) == "half" for z in rd.zones):
            continue  # another branch link
        for forward in (True, False):
            d = drive_road(rd, n, forward)
            if (exiting and d.exit == shared_own) or (not exiting and d.entry == shared_own):
                return d
    return None


def link_onto_main(driven: DrivenRoad) -> int:
    """How many zones of a fork road, from its ``merge`` zone to its exit, are main-road zones, when the road is
    a branch link driven onto the main road (a ``half`` zone, then the ``merge`` zone); else 0."""
    zones = driven.zones
    for k, z in enumerate(zones):
        if z.merge and k > 0 and zones[k - 1].kind == "half":
            return len(zones) - k
    return 0


def join_loop_branch_links(loop: list[PlacedStep], by_step: dict[int, list[ZoneSpaces]], g: nx.DiGraph) -> None:
    """The loop's steps that drive a fork's branch link onto the main road: from the half-line spaces only the
    merge zone's lane on the branch's side is entered, across the speed-limit line (edge ``limit``,
    RX-FORK-03); the zone keeps the main road's limits; its other lanes stay only when a move reaches them (a
    Pre-grid or Joker driving the main road through the fork, joined before this runs)."""
    for ps in loop:
        zones = by_step.get(ps.index, [])
        for k, zs in enumerate(zones):
            before = zones[k - 1].zone if k > 0 else None
            if zs.zone is None or not zs.zone.merge or before is None or before.kind != "half":
                continue
            main = _main_road(ps, ps.driven.exit, exiting=True) if ps.driven.exit else None
            if main is None:
                continue
            lane = branch_side(main, ps.driven.entry)
            keep = zs.lane_ids.get(lane)
            if keep is None:
                continue
            for name, x in zs.lane_ids.items():
                g.nodes[x]["limit"] = zs.zone.limits.get(name)
            for h in zones[k - 1].halves:
                for x in zs.lane_ids.values():
                    if x != keep and g.has_edge(h, x):
                        g.remove_edge(h, x)
                if zs.zone.line_limit is not None and g.has_edge(h, keep):
                    replace_move(g, h, keep, limit=zs.zone.line_limit)
            gone = set()
            for name in [x for x in zs.lanes if x != lane]:
                if next(iter(g.predecessors(zs.lane_ids[name])), None) is None:
                    g.remove_node(zs.lane_ids.pop(name))
                    gone.add(name)
            if gone:  # a new list: a laid zone's lanes are its template's
                zs.lanes = [x for x in zs.lanes if x not in gone]


def join_branch_links(steps: list[PlacedStep], by_step: dict[int, list[ZoneSpaces]], g: nx.DiGraph) -> None:
    """Rewrite the joins of every placed step that drives a fork's branch link (see the module); ``by_step``:
    the zones of each step, ``g`` the graph of spaces."""
    for ps in steps:
        zones: list[ZoneSpaces] = by_step.get(ps.index, [])
        kinds = [zs.zone.kind if zs.zone is not None else None for zs in zones]
        for k, zs in enumerate(zones):
            if zs.zone is None or not zs.zone.merge:
                continue
            if k > 0 and kinds[k - 1] == "half":  # onto the main road, which leaves by the step's exit
                main = _main_road(ps, ps.driven.exit, exiting=True) if ps.driven.exit else None
                if main is None:
                    continue
                lane = branch_side(main, ps.driven.entry)
                keep = zs.lane_ids.get(lane)
                line = zs.zone.line_limit
                if keep is None:
                    continue
                g.nodes[keep]["limit"] = zs.zone.limits.get(lane)
                for h in zones[k - 1].halves:
                    if line is not None and g.has_edge(h, keep):
                        replace_move(g, h, keep, limit=line)
                _drop_other_lanes(g, zs, lane)
            elif k + 1 < len(zones) and kinds[k + 1] == "half":  # off the main road, entered by the step's entry
                main = _main_road(ps, ps.driven.entry, exiting=False)
                if main is None or ps.driven.exit is None:
                    continue
                lane = branch_side(main, ps.driven.exit)
                if lane in zs.lane_ids:
                    _drop_other_lanes(g, zs, lane)


def _drop_other_lanes(g: nx.DiGraph, zs: ZoneSpaces, lane: str) -> None:
    """The main-road lanes of a merge zone away from the branch are not spaces of this stage: no move
    of its route joins them to the branch (they belong to the stages that drive the main road)."""
    for other in [x for x in zs.lanes if x != lane]:
        g.remove_node(zs.lane_ids.pop(other))
    zs.lanes = [x for x in zs.lanes if x == lane]  # a new list: a laid zone's lanes are its template's
