"""Compile an RX circuit: a closed loop of tiles, laps, standees, the Joker lap and the Pre-grid.

Tile lines
    The steps not named by ``joker`` / ``pregrid`` are the main loop, written in
    driving order (absolute ``at`` positions or route form); the last one leads
    back into the first. The ``joker`` steps form the Joker branch in driving
    order, from the fork where it leaves the loop (the tile of the
    ``joker-entry`` standee when there is one) to the fork where it rejoins it.
    The ``pregrid`` steps lead to the fork where the Pre-grid joins the loop.

Forks (RX-FORK, TRACK-RX-08)
    A fork tile on the loop is driven on its loop road. A branch uses another
    road of the same tile, the one joining the branch's edge to the loop road's
    entry (leaving) or exit (joining). The two roads share the spaces at their
    common edge: the branch road's zones from that edge up to its ``merge``
    zone (``N*``: the main-road zone the branch reaches through one space only;
    just the zone at the edge when the road has none) *are* the loop's zones.
    Through a ``merge`` zone the branch touches only the loop lane on its side
    (left when the branch edge lies clockwise between the loop road's entry and
    exit, else right). The other zones of the branch road are spaces of their
    own, numbered after the loop road's zones on that step (``STEP.4.l`` on a
    fork whose loop road has 3 zones). A speed-limit line crossed into a shared
    space is an edge attribute ``limit`` (RX-FORK-03); crossed into a branch
    space it is that space's ``limit``. When the loop itself drives a branch
    link onto the main road (RX 2's 405a) and a branch drives the main road,
    the main road's zones from the link's ``merge`` zone on are the loop's
    (all their lanes; from the half-line spaces the loop enters only the lane
    on its side: :func:`rallyc.compiler.junction.join_loop_branch_links`).

Progress
    Along the loop from step 1's entry: ``[0, L)`` for a loop of ``L`` tiles,
    stored as ``Track.lap_length``; the edges that close the loop carry
    ``lap=True`` and distance on a circuit is ``laps * lap_length + progress``
    (Ambiguities #26). Joker spaces are spread evenly over the loop stretch the
    Joker runs beside (between the space where it leaves and the one where it
    rejoins); Pre-grid spaces over the tile's length before the space where it
    joins.

Standees
    ``Track.standees`` keeps the written standees (kind, ``STEP.ZONE``, the
    spaces just past the line, the statement's span) for the renderer and the
    exporters.

Start and finish
    The finish line is the ``standee finish`` (the line at the entry of that
    zone, TRACK-RX-04), or else the first start/finish line printed on the loop.
    Cars start on the Pre-grid (RX-START-01): its lane spaces behind its
    printed line (all its lane spaces when it has none) are the start spaces;
    without a Pre-grid, the lane spaces just behind the finish line are.
"""

from __future__ import annotations

from rallyc.compiler.graph import GraphBuilder, ZoneSpaces
from rallyc.compiler.junction import join_loop_branch_links, link_onto_main
from rallyc.compiler.roads import DrivenRoad, DrivenZone, drive_road
from rallyc.compiler.stage import CircuitBuild, build_route
from rallyc.compiler.standees import mark_standees, track_standees
from rallyc.compiler.tokens import place_tokens
from rallyc.compiler.track import PlacedTile, Track
from rallyc.diagnostics import Diagnostic
from rallyc.geometry.hexgrid import Hex, edge_index, neighbour, opposite, world_to_own
from rallyc.compiler.placement import PlacedStep, Placement, Placer
from rallyc.model import codes as rc
from rallyc.syntax import ast
from rallyc.tiles.catalogue import Catalogue

__all__ = ["CircuitBuild", "build_circuit"]


def _facing(a: PlacedStep, cell: Hex | tuple[int, int]) -> str | None:
    """The world edge of ``a``'s cell that faces the neighbouring ``cell`` (None if not adjacent)."""
    for e in "ABCDEF":
        if neighbour(a.cell, e) == cell:
            return e
    return None


def _side(loop: DrivenRoad, branch_own: str) -> str:
    """The loop lane (as driven) on the side of the tile's own edge ``branch_own``."""
    e_in = edge_index(loop.entry)
    e_out = edge_index(loop.exit) if loop.exit else (e_in + 3) % 6
    b = (edge_index(branch_own) - e_in) % 6
    return "l" if 0 < b < (e_out - e_in) % 6 else "r"


class _CircuitBuilder:
    def __init__(self, circuit: ast.Circuit, catalogue: Catalogue, boxes: list[str] | None):
        self.c = circuit
        self.catalogue = catalogue
        self.boxes = boxes
        self.diags: list[Diagnostic] = []
        n = len(circuit.steps)
        self.joker = [i for j in circuit.joker for i in j.steps if 1 <= i <= n]
        self.pregrid = [i for p in circuit.pregrid for i in p.steps if 1 <= i <= n]
        for item in list(circuit.joker) + list(circuit.pregrid):
            for i in item.steps:
                if not 1 <= i <= n:
                    self.diags.append(Diagnostic.of(
                        rc.RC407, f"step {i} is not a tile line of this circuit (it has {n})", item.span,
                        f"steps are numbered 1..{n} in the order the tiles are written"))
        branch = set(self.joker) | set(self.pregrid)
        self.loop_idx = [i for i in range(1, n + 1) if i not in branch]

    # ------------------------------------------------------------ placement
    def place(self) -> Placement:
        c = self.c
        known = {i for i, s in enumerate(c.steps, start=1) if self.catalogue.get(s.tile.text) is not None}
        placer = Placer(c.steps, self.catalogue, known)
        self.loop = placer.place_chain(self.loop_idx, wrap=True)
        by_index = {p.index: p for p in self.loop}
        self.loop_cells = {p.cell: p for p in self.loop}
        self.joker_steps: list[PlacedStep] = []
        self.pregrid_steps: list[PlacedStep] = []
        if self.joker:
            entry = next((s for s in c.standees if s.kind == "joker-entry"), None)
            exit_ = next((s for s in c.standees if s.kind == "joker-exit"), None)
            behind = by_index[entry.at.step].cell if entry and entry.at.step in by_index else None
            ahead = by_index[exit_.at.step].cell if exit_ and exit_.at.step in by_index else None
            first = c.steps[self.joker[0] - 1].position
            if behind is None and first is not None:
                behind = self._adjacent_loop_cell((first.q, first.r))
            self.joker_steps = placer.place_chain(self.joker, behind=behind, ahead=ahead)
        if self.pregrid:
            order = list(self.pregrid)
            first = c.steps[order[0] - 1].position
            last = c.steps[order[-1] - 1].position
            if len(order) > 1 and first is not None and last is not None and \
                    self._adjacent_loop_cell((first.q, first.r)) and not self._adjacent_loop_cell((last.q, last.r)):
                order.reverse()
            last = c.steps[order[-1] - 1].position
            ahead = self._adjacent_loop_cell((last.q, last.r)) if last is not None else None
            self.pregrid_steps = placer.place_chain(order, ahead=ahead)
        placement = placer.result
        for sc in c.scenery:
            info = self.catalogue.get(sc.tile.text)
            placement.scenery.append(PlacedTile(0, info.id if info else sc.tile.text, sc.position.q,
                                                sc.position.r, sc.position.rot % 6, None, None, None, True,
                                                sc.span))
        placement.steps.sort(key=lambda p: p.index)
        return placement

    def _adjacent_loop_cell(self, qr: tuple[int, int]) -> Hex | None:
        for e in "ABCDEF":
            cell = neighbour(qr, e)
            if cell in self.loop_cells:
                return cell
        return None

    # ------------------------------------------------------------ branches
    def branch_road(self, fork: PlacedStep, branch_world: str, leaving: bool) -> DrivenRoad | None:
        """The fork's road from its loop entry to the branch edge (leaving) or from the branch edge to its loop exit."""
        own = world_to_own(branch_world, fork.rot)
        loop = fork.driven
        for n, road in enumerate(fork.info.roads, start=1):
            if n == loop.number:
                continue
            for forward in (True, False):
                d = drive_road(road, n, forward)
                if leaving and d.entry == loop.entry and d.exit == own:
                    return d
                if not leaving and d.entry == own and d.exit == loop.exit:
                    return d
        return None

    @staticmethod
    def _merge_index(driven: DrivenRoad, leaving: bool) -> int:
        """How many zones of the branch road (from its shared end) are the loop road's zones."""
        zones = driven.zones
        if leaving:
            for i, z in enumerate(zones):
                if z.merge:
                    return i + 1
            return 1
        for i in range(len(zones) - 1, -1, -1):
            if zones[i].merge:
                return len(zones) - i
        return 1

    def add_branch(self, build: CircuitBuild, fork_a: PlacedStep | None, chain: list[PlacedStep],
                   fork_b: PlacedStep | None, flag: str) -> None:
        """Spaces of a branch (Joker or Pre-grid) and its joins to the loop through fork tiles."""
        g = build.graph
        builder = build.builder
        parts: list[list[ZoneSpaces]] = []
        lead: tuple[ZoneSpaces, str | None] | None = None  # loop zone the branch leaves from, touching lane
        tail: tuple[ZoneSpaces, str | None, int | None] | None = None
        joins_link = False  # the branch joins the main road where the loop drives a branch link onto it
        planned: list[tuple[PlacedStep, DrivenRoad, list[DrivenZone], list[int]]] = []
        if fork_a is not None and chain:
            world = _facing(fork_a, chain[0].cell)
            d = self.branch_road(fork_a, world, leaving=True) if world else None
            if d is None or world is None:
                self._not_a_fork(fork_a, chain[0], flag)
            else:
                k = self._merge_index(d, True)
                loop_zones = build.by_step[fork_a.index]
                shared = loop_zones[min(k, len(loop_zones)) - 1]
                lane = _side(fork_a.driven, world_to_own(world, fork_a.rot)) if d.zones[k - 1].merge else None
                lead = (shared, lane)
                own_zones = d.zones[k:]
                base = len(loop_zones)
                planned.append((fork_a, d, own_zones, [base + i for i in range(1, len(own_zones) + 1)]))
        for ps in chain:
            planned.append((ps, ps.driven, ps.driven.zones, [z.index for z in ps.driven.zones]))
        if fork_b is not None and chain:
            world = _facing(fork_b, chain[-1].cell)
            d = self.branch_road(fork_b, world, leaving=False) if world else None
            if d is None or world is None:
                self._not_a_fork(fork_b, chain[-1], flag)
            else:
                k = self._merge_index(d, False)
                # the loop drives a branch link onto this (main) road: its zones from the merge zone on are these
                onto = link_onto_main(fork_b.driven) if not any(z.merge for z in d.zones) else 0
                if 0 < onto <= len(d.zones):
                    k = onto
                loop_zones = build.by_step[fork_b.index]
                shared = loop_zones[max(0, len(loop_zones) - k)]
                mz = d.zones[len(d.zones) - k]
                lane = _side(fork_b.driven, world_to_own(world, fork_b.rot)) if mz.merge else None
                tail = (shared, lane, mz.line_limit)
                joins_link = onto > 0 and k == onto
                own_zones = d.zones[:len(d.zones) - k]
                base = len(loop_zones) + (sum(len(p[2]) for p in planned if p[0] is fork_b))
                planned.append((fork_b, d, own_zones, [base + i for i in range(1, len(own_zones) + 1)]))
        total = sum(len(p[2]) for p in planned)
        if total == 0:
            return
        lap = (build.track.lap_length if build.track is not None else None) or 0.0
        if lead is not None:
            p_a = max(g.nodes[s]["progress"] for s in lead[0].all())
        elif tail is not None:
            p_a = min(g.nodes[s]["progress"] for s in tail[0].all()) - 1.0
        else:
            p_a = 0.0
        p_b = min(g.nodes[s]["progress"] for s in tail[0].all()) if tail is not None else p_a + 1.0
        wrapped = p_b <= p_a
        if wrapped:
            p_b += lap
        k = 0
        for ps, d, zones, ids in planned:
            positions = []
            for _ in zones:
                positions.append((p_a + (p_b - p_a) * k / (total + 1), p_a + (p_b - p_a) * (k + 1) / (total + 1)))
                k += 1
            defn = ps.info.definition
            part = builder.add_zones(ps.index, ps.info.id, d, zones, ids, positions, defn.surface,
                                     tuple(defn.danger), ps.step.span, **{flag: True})
            build.by_step.setdefault(ps.index, []).extend(part)
            parts.append(part)
        parts = [p for p in parts if p]
        for p, q in zip(parts, parts[1:]):
            builder.join(p[-1], q[0])
        flat = [zs for part in parts for zs in part]
        if lead is not None:
            shared, lane = lead
            src = [shared.lane_ids[lane]] if lane and lane in shared.lane_ids else shared.exits()
            for x in src:
                for y in flat[0].entries():
                    builder.edge(x, y, "straight")
        if tail is not None:
            shared, lane, limit = tail
            dst = [shared.lane_ids[lane]] if lane and lane in shared.lane_ids else shared.entries()
            attrs = {"limit": limit} if limit is not None else {}
            if wrapped:
                attrs["lap"] = True
            if joins_link and not wrapped and lane is None:
                # the same road on: lane to lane, straight or diagonal
                builder.join(flat[-1], shared)
                build.branches[flag] = flat
                return
            for x in flat[-1].exits():
                for y in dst:
                    if wrapped:
                        builder.link(x, y, {"move": "straight", **attrs})
                    else:
                        builder.edge(x, y, "straight", **attrs)
        build.branches[flag] = flat

    def _not_a_fork(self, fork: PlacedStep, branch: PlacedStep, flag: str) -> None:
        what = "Joker" if flag == "joker" else "Pre-grid"
        self.diags.append(Diagnostic.of(
            rc.RC408, f"the {what} (step {branch.index}, {branch.info.id}) meets step {fork.index} ({fork.info.id}), "
            f"which has no road joining it to the loop there", branch.step.span,
            f"the {what} is attached through a Fork tile (TRACK-RX-03, TRACK-RX-08): check the fork's rotation"))


def build_circuit(circuit: ast.Circuit, catalogue: Catalogue, boxes: list[str] | None = None) -> CircuitBuild:
    """Place and build one circuit: loop, branches, standees, tokens; a complete build for the checks."""
    cb = _CircuitBuilder(circuit, catalogue, boxes)
    placement = cb.place()
    builder = GraphBuilder()
    build = CircuitBuild(circuit, circuit.title, circuit.span, catalogue, placement, builder, boxes)
    build.diagnostics.extend(cb.diags)
    placed_diags = len(cb.diags)  # the branches below may report more (RC408)
    build.diagnostics.extend(placement.diagnostics)
    loop_placement = Placement(steps=list(cb.loop))
    build.by_step, build.joined = build_route(loop_placement, builder)
    build.sequence = [zs for ps in cb.loop for zs in build.by_step.get(ps.index, [])]
    laps = circuit.laps[0].count if circuit.laps else None
    lap_length = float(len(cb.loop_idx))
    track = Track(circuit.title, "circuit", builder.graph, placement.placed(), title=circuit.title, laps=laps,
                  span=circuit.span, lap_length=lap_length)
    builder.graph.graph.update(name=circuit.title, kind="circuit", title=circuit.title, laps=laps,
                               lap_length=lap_length, turns={ps.index: ps.driven.turn for ps in placement.steps})
    build.track = track
    if placement.complete and cb.loop:
        _close_loop(build, cb.loop)
    if placement.complete:
        if cb.joker_steps:
            a = _adjacent(cb, cb.joker_steps[0], entry=True)
            b = _adjacent(cb, cb.joker_steps[-1], entry=False)
            cb.add_branch(build, a, cb.joker_steps, b, "joker")
            build.joker_forks = (a, b)
        if cb.pregrid_steps:
            b = _adjacent(cb, cb.pregrid_steps[-1], entry=False)
            if b is None:
                last = cb.pregrid_steps[-1]
                build.diagnostics.append(Diagnostic.of(
                    rc.RC408, f"the Pre-grid (step {last.index}, {last.info.id}) does not lead onto the loop",
                    last.step.span, "its last tile's road must lead into a Fork tile of the loop (TRACK-RX-03)"))
            else:
                cb.add_branch(build, None, cb.pregrid_steps, b, "pregrid")
                build.pregrid_fork = b
    if placement.complete:
        join_loop_branch_links(cb.loop, build.by_step, builder.graph)
    build.diagnostics.extend(cb.diags[placed_diags:])
    build.loop = cb.loop
    build.pregrid_steps = cb.pregrid_steps
    build.joker_steps = cb.joker_steps
    mark_standees(build)
    track.standees = track_standees(build)
    build.diagnostics.extend(place_tokens(circuit.tokens, len(circuit.steps), build.by_step, builder.graph))
    return build


def _adjacent(cb: _CircuitBuilder, ps: PlacedStep, entry: bool) -> PlacedStep | None:
    """The loop step across the step's entry (or exit) edge, if there is one."""
    edge = ps.entry_world if entry else ps.exit_world
    return cb.loop_cells.get(neighbour(ps.cell, edge)) if edge else None


def _close_loop(build: CircuitBuild, loop: list[PlacedStep]) -> None:
    """Join the last tile of the loop to the first with ``lap=True`` edges (RC401 when they do not meet)."""
    first, last = loop[0], loop[-1]
    if last.next_cell == first.cell and last.exit_world and first.entry_world == opposite(last.exit_world):
        a, b = build.by_step[last.index][-1], build.by_step[first.index][0]
        build.builder.join(a, b, lap=True)
        build.joined.add(last.index)
        build.loop_closed = True
