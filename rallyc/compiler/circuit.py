"""Compile an RX circuit: a closed loop of tiles (absolute or route form), laps, standees, Joker, Pre-grid.

The circuit's tile lines are taken in the order written as the loop in
driving order (the Joker and Pre-grid steps, when listed with ``joker`` /
``pregrid``, are branches off it). Progress runs along the loop from step 1's
entry: ``[0, L)`` for a loop of ``L`` tiles, stored as ``Track.lap_length``.
The edges that close the loop (last tile -> first tile) carry ``lap=True``;
the interpreter adds the lap length per lap completed, so distance along a
circuit is ``laps * lap_length + progress`` (see Ambiguities #26).
"""

from __future__ import annotations

from rallyc.compiler.graph import GraphBuilder
from rallyc.compiler.stage import StageBuild, build_route, mark_lines
from rallyc.compiler.track import Track
from rallyc.diagnostics import Diagnostic
from rallyc.geometry.hexgrid import opposite
from rallyc.geometry.placement import place_route
from rallyc.syntax import ast
from rallyc.tiles.catalogue import Catalogue

__all__ = ["compile_circuit"]


def compile_circuit(circuit: ast.Circuit, catalogue: Catalogue, boxes: list[str] | None = None) -> StageBuild:
    """Place, build and check one circuit."""
    from rallyc.checks import inventory, geometry, rx
    from rallyc.checks.tokens import place_tokens

    joker = {s for j in circuit.joker for s in j.steps}
    pregrid = {s for p in circuit.pregrid for s in p.steps}
    loop_steps = [s for i, s in enumerate(circuit.steps, start=1) if i not in joker | pregrid]
    placement = place_route(circuit.steps, circuit.scenery, catalogue)
    builder = GraphBuilder()
    name = circuit.title
    build = StageBuild(circuit, name, circuit.span, catalogue, placement, builder)
    build.diagnostics.extend(placement.diagnostics)
    build.by_step, build.joined = build_route(placement, builder)
    seq = []
    for ps in placement.steps:
        seq.extend(build.by_step.get(ps.index, []))
    build.sequence = seq
    laps = circuit.laps[0].count if circuit.laps else None
    lap_length = float(len(loop_steps))
    track = Track(name, "circuit", builder.graph, placement.placed(), title=circuit.title, laps=laps,
                  span=circuit.span)
    track.lap_length = lap_length
    builder.graph.graph.update(name=name, kind="circuit", title=circuit.title, laps=laps, lap_length=lap_length,
                               turns={ps.index: ps.driven.turn for ps in placement.steps})
    build.track = track
    if placement.complete and placement.steps:
        _close_loop(build)
    _mark_branches(build, joker, pregrid)
    rx.mark_standees(build)
    build.diagnostics.extend(place_tokens(build))
    build.diagnostics.extend(geometry.check_overlaps(build))
    build.diagnostics.extend(geometry.check_lane_joins(build))
    build.diagnostics.extend(rx.circuit_checks(build))
    build.diagnostics.extend(inventory.check_sides(build, boxes))
    build.diagnostics.extend(inventory.check_boxes(build, boxes))
    return build


def _close_loop(build: StageBuild) -> None:
    """Join the last tile of the loop to the first (edges with ``lap=True``), or report RC401."""
    steps = build.placement.steps
    first, last = steps[0], steps[-1]
    g = build.graph
    if last.next_cell == first.cell and last.exit_world and first.entry_world == opposite(last.exit_world):
        a, b = build.by_step[last.index][-1], build.by_step[first.index][0]
        before = set(g.edges)
        # join without the progress guard: this edge crosses the lap seam
        saved = build.builder._edge
        build.builder._edge = lambda x, y, move, **kw: g.add_edge(x, y, move=move, lap=True, **kw)
        try:
            build.builder.join(a, b)
        finally:
            build.builder._edge = saved
        build.joined.add(last.index)
        build.loop_closed = True
        assert set(g.edges) >= before
    else:
        build.loop_closed = False


def _mark_branches(build: StageBuild, joker: set[int], pregrid: set[int]) -> None:
    g = build.graph
    for sid, d in g.nodes(data=True):
        if d["step"] in joker:
            d["joker"] = True
        if d["step"] in pregrid:
            d["pregrid"] = True
