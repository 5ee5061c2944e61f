"""Build one stage (a route of tiles from start to finish): a :class:`StageBuild` holding its :class:`Track`.

Steps: place the tiles (:mod:`rallyc.compiler.placement`), add the spaces of
every driven road and join consecutive steps (:mod:`rallyc.compiler.graph`),
mark the start and finish lines, put the tokens on their spaces
(:mod:`rallyc.compiler.tokens`). What goes wrong on the way is kept as the
build's diagnostics; the Track is built whenever the tiles could be placed, so
the checks (:mod:`rallyc.checks`, run on the complete build by
:mod:`rallyc.compilation.pipeline`) and other tools can still look at it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx

from rallyc.compiler.graph import GraphBuilder, ZoneSpaces
from rallyc.compiler.junction import join_branch_links
from rallyc.compiler.flip import flip_placement
from rallyc.compiler.placement import Placement, PlacedStep, place_route
from rallyc.compiler.tokens import place_tokens
from rallyc.compiler.track import PlacedTile, Track
from rallyc.diagnostics import Diagnostic, Span
from rallyc.geometry.hexgrid import opposite
from rallyc.syntax import ast
from rallyc.tiles.catalogue import Catalogue

__all__ = ["StageBuild", "CircuitBuild", "LineAt", "build_stage", "build_route", "mark_lines"]


@dataclass
class LineAt:
    """A line of a tile's road placed on the route: after ``position`` zones of the whole route."""

    kind: str
    step: PlacedStep
    position: int
    span: Span | None


@dataclass
class StageBuild:
    """A built stage, complete: everything the checks read (the AST, the placement, the graph, the route's
    zones, the declared boxes). The checks only read it; only the build steps write it."""

    #: ``stage`` or ``circuit`` (:class:`rallyc.compiler.circuit.CircuitBuild`)
    kind = "stage"
    stage: ast.Stage | ast.Circuit
    name: str
    span: Span | None
    catalogue: Catalogue
    placement: Placement
    builder: GraphBuilder
    #: the boxes the file declares (``boxes``), None when it declares none
    boxes: list[str] | None = None
    #: every zone of the route in driving order (consecutive connected steps)
    sequence: list[ZoneSpaces] = field(default_factory=list)
    #: zones by step
    by_step: dict[int, list[ZoneSpaces]] = field(default_factory=dict)
    lines: list[LineAt] = field(default_factory=list)
    #: pairs of consecutive steps whose roads meet edge to edge
    joined: set[int] = field(default_factory=set)
    track: Track | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: the placed tiles, once the placement is final (see :meth:`placed`)
    _tiles: list[PlacedTile] | None = field(default=None, repr=False)

    @property
    def graph(self) -> nx.DiGraph:
        """The graph of spaces being built (the Track's graph)."""
        return self.builder.graph

    def placed(self) -> list[PlacedTile]:
        """Every tile the stage lays down: its placed steps, then its scenery (made once: call it when the
        placement is final, as the Track and the checks do)."""
        if self._tiles is None:
            self._tiles = self.placement.placed()
        return list(self._tiles)

    def step_span(self, index: int) -> Span | None:
        """Where step ``index`` (1-based) was written; the stage's span for a step it does not have."""
        steps = self.stage.steps
        return steps[index - 1].span if 0 < index <= len(steps) else self.span


@dataclass
class CircuitBuild(StageBuild):
    """A built RX circuit: a :class:`StageBuild` with its main loop, its branches and their forks."""

    kind = "circuit"
    stage: ast.Circuit
    #: the steps of the main loop in driving order
    loop: list[PlacedStep] = field(default_factory=list)
    #: True when the last tile of the loop leads back into the first
    loop_closed: bool = False
    #: the steps of the Pre-grid and of the Joker branch, in driving order
    pregrid_steps: list[PlacedStep] = field(default_factory=list)
    joker_steps: list[PlacedStep] = field(default_factory=list)
    #: the loop steps (forks) where the Joker leaves and rejoins the loop (None when not found)
    joker_forks: tuple[PlacedStep | None, PlacedStep | None] = (None, None)
    #: the loop step (fork) where the Pre-grid joins the loop
    pregrid_fork: PlacedStep | None = None
    #: the zones of each branch (``joker``, ``pregrid``) in driving order
    branches: dict[str, list[ZoneSpaces]] = field(default_factory=dict)


def build_route(placement: Placement, builder: GraphBuilder) -> tuple[dict[int, list[ZoneSpaces]], set[int]]:
    """Spaces of every placed step, joined where a step's exit meets the next step's entry."""
    by_step: dict[int, list[ZoneSpaces]] = {}
    joined: set[int] = set()
    prev: PlacedStep | None = None
    for ps in placement.steps:
        defn = ps.info.definition
        zones = builder.add_road(ps.index, ps.info.id, ps.driven, defn.surface, tuple(defn.danger), ps.step.span)
        by_step[ps.index] = zones
        if prev is not None and prev.index == ps.index - 1 and prev.next_cell == ps.cell \
                and prev.exit_world is not None and ps.entry_world == opposite(prev.exit_world):
            if by_step[prev.index] and zones:
                builder.join_next(by_step[prev.index][-1], zones[0])
            joined.add(prev.index)
        prev = ps
    return by_step, joined


def mark_lines(build: StageBuild) -> None:
    """Start spaces, finish and past-finish flags from the lines printed on the route's tiles.

    A ``start`` line makes the lane spaces of the zone just before it (driving
    order) the start spaces (TRACK-STAGE-07: the space behind the Starting
    Line); a ``finish`` line makes the spaces of the zone just after it
    ``after_finish`` and every space beyond it ``past_finish``.
    """
    g = build.graph
    seq = build.sequence
    finishes = [ln for ln in build.lines if ln.kind == "finish"]
    starts = [ln for ln in build.lines if ln.kind == "start"]
    for ln in starts[:1]:
        if ln.position >= 1:
            zs = seq[ln.position - 1]
            spaces = [zs.lane_ids[l] for l in zs.lanes] or zs.non_slide()
            for sid in spaces:
                g.nodes[sid]["start"] = True
    for ln in finishes[:1]:
        if ln.position < len(seq):
            for sid in seq[ln.position].all():
                g.nodes[sid]["after_finish"] = True
            for zs in seq[ln.position:]:
                for sid in zs.all():
                    g.nodes[sid]["past_finish"] = True
            # shortcut spaces beyond the line: every way out of them is past the finish
            for sid, d in g.nodes(data=True):
                if d["kind"] == "shortcut":
                    succ = list(g.successors(sid))
                    if succ and all(g.nodes[s]["past_finish"] for s in succ) and \
                            all(g.nodes[p]["past_finish"] for p in g.predecessors(sid)):
                        d["past_finish"] = True


def _sequence(build: StageBuild) -> None:
    """The route's zones in driving order and the lines placed on it."""
    seq: list[ZoneSpaces] = []
    lines: list[LineAt] = []
    for ps in build.placement.steps:
        zones = build.by_step.get(ps.index, [])
        base = len(seq)
        for ln in ps.driven.lines:
            lines.append(LineAt(ln.kind, ps, base + ln.after, ps.step.span))
        seq.extend(zones)
    build.sequence = seq
    build.lines = lines


def build_stage(stage: ast.Stage, catalogue: Catalogue, known: set[int] | None = None,
                boxes: list[str] | None = None, flipped: set[int] | None = None) -> StageBuild:
    """Place and build one stage, tokens on their spaces: a complete build for the checks.

    ``known``: 1-based steps whose tiles are in the catalogue; ``boxes``: the boxes the file declares;
    ``flipped``: steps shown on their tile's other side, in place (:mod:`rallyc.compiler.flip`)."""
    placement = place_route(stage.steps, stage.scenery, catalogue, known)
    if flipped:
        placement = flip_placement(placement, catalogue, flipped)
    builder = GraphBuilder()
    build = StageBuild(stage, stage.name.text, stage.span, catalogue, placement, builder, boxes)
    build.diagnostics.extend(placement.diagnostics)
    build.by_step, build.joined = build_route(placement, builder)
    join_branch_links(placement.steps, build.by_step, builder.graph)
    _sequence(build)
    mark_lines(build)
    build.diagnostics.extend(place_tokens(stage.tokens, len(stage.steps), build.by_step, builder.graph))
    track = Track(stage.name.text, "stage", builder.graph, build.placed(), title=stage.title, span=stage.span)
    builder.graph.graph.update(name=stage.name.text, kind="stage", title=stage.title,
                               turns={ps.index: ps.driven.turn for ps in placement.steps})
    build.track = track
    return build
