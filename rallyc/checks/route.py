"""Route checks of a stage: start and finish lines, reachability, length guideline, Assistance tile."""

from __future__ import annotations

import networkx as nx

from rallyc.compiler.stage import StageBuild
from rallyc.diagnostics import Diagnostic, Span
from rallyc.model import codes as rc
from rallyc.model.stage_length import LONG_STAGE, SHORT_STAGE
from rallyc.model.tiles import TileRole
from rallyc.syntax import ast

__all__ = ["check_start_finish", "check_reachability", "check_length", "check_assistance",
           "SHORT_STAGE", "LONG_STAGE"]


def _stage_span(build: StageBuild) -> Span | None:
    stage = build.stage
    return (stage.name.span if isinstance(stage, ast.Stage) else None) or build.span


def check_start_finish(build: StageBuild) -> list[Diagnostic]:
    """RC301..RC304, RC311: one start line with a space behind it, one finish line with a space beyond it."""
    if not build.placement.complete:
        return []
    out = []
    seq = build.sequence
    for kind, none_code, many_code, tiles in (("start", rc.RC301, rc.RC302, "202a/202b/301a/301b"),
                                              ("finish", rc.RC303, rc.RC304, "203a/203b/302a/302b")):
        lines = [ln for ln in build.lines if ln.kind == kind]
        if not lines:
            where = "begin" if kind == "start" else "end"
            out.append(Diagnostic.error(none_code, f"stage {build.name} has no {kind} line", _stage_span(build),
                                        f"{where} the route with a {kind} tile ({tiles})"))
            continue
        for ln in lines[1:]:
            out.append(Diagnostic.error(
                many_code, f"stage {build.name} crosses a second {kind} line at step {ln.step.index} "
                f"({ln.step.info.id})", ln.span, f"keep one {kind} tile",
                [(lines[0].span, f"the first {kind} line is here")] if lines[0].span else []))
        first = lines[0]
        step = getattr(first.step, "step", None)
        if step is not None and getattr(step, "reversed", False):
            out.append(Diagnostic.of(
                rc.RC313, f"the {kind} tile of step {first.step.index} ({first.step.info.id}) is driven `reversed`, "
                f"against its arch", getattr(step, "span", None) or first.span,
                f"a {kind} tile is driven in its printed direction: remove `reversed` (a straight joins the same "
                "edges either way round)"))
        if kind == "start" and first.position == 0:
            out.append(Diagnostic.of(rc.RC311, f"no space behind the start line of step {first.step.index} "
                                        f"({first.step.info.id})", first.span,
                                        "drive the start tile in its printed direction (remove `reversed`)"))
        if kind == "finish" and first.position >= len(seq):
            out.append(Diagnostic.of(rc.RC311, f"no space beyond the finish line of step {first.step.index} "
                                        f"({first.step.info.id})", first.span,
                                        "drive the finish tile in its printed direction (remove `reversed`)"))
    return out


def _reachable(g: nx.DiGraph, starts: list[str]) -> set[str]:
    """The spaces reachable from any of ``starts`` (the starts included): one search from all of them, each
    space's successors read where they are (``DiGraph.successors``; no copy of the graph's adjacency: at 10,000
    tiles the copy of a 65,000-space dict cost a fifth of the search)."""
    succ = g.successors
    reached = set(starts)
    todo = list(starts)
    add, push = reached.add, todo.append
    while todo:
        for m in succ(todo.pop()):
            if m not in reached:
                add(m)
                push(m)
    return reached


def check_reachability(build: StageBuild) -> list[Diagnostic]:
    """RC305 finish unreachable from the start; RC306 spaces after the start that no car can reach."""
    if not build.placement.complete:
        return []
    g = build.graph
    starts: list[str] = []
    finish: set[str] = set()
    shortcuts: list[tuple[str, dict]] = []
    for n, d in g.nodes(data=True):  # one pass over the spaces
        if d["start"]:
            starts.append(n)
        if d["after_finish"]:
            finish.add(n)
        if d["kind"] == "shortcut":
            shortcuts.append((n, d))
    if not starts or not finish:
        return []
    reached = _reachable(g, starts)
    out = []
    if not reached & finish:
        fin = next(ln for ln in build.lines if ln.kind == "finish")
        st = next(ln for ln in build.lines if ln.kind == "start")
        out.append(Diagnostic.of(
            rc.RC305, f"stage {build.name}: no legal path leads from the start (step {st.step.index}) to beyond "
            f"the finish line (step {fin.step.index})", fin.span,
            "the finish must come after the start in driving order; check the order of the steps and `reversed`"))
        return out
    start_line = next(ln for ln in build.lines if ln.kind == "start")
    behind = max(g.nodes[s]["progress"] for s in starts)
    missing: dict[int, list[str]] = {}
    # the zones of the route from the start line on that hold a space not reached (a zone's key is the step
    # and zone of its spaces), looked into one by one
    nodes = g.nodes
    # (the spaces not reached, found by a look-up of each: no set of every space made to subtract from)
    short = {f"{nodes[sid]['step']}.{nodes[sid]['zone']}" for sid in g if sid not in reached}
    for zs in build.sequence[start_line.position:]:
        if zs.key in short:
            for sid in zs.all():
                if sid not in reached:
                    missing.setdefault(nodes[sid]["step"], []).append(sid)
    for sid, d in shortcuts:
        if d["progress"] > behind and sid not in reached:
            missing.setdefault(d["step"], []).append(sid)
    for step, sids in sorted(missing.items()):
        tile = g.nodes[sids[0]]["tile"]
        out.append(Diagnostic.of(
            rc.RC306, f"step {step} ({tile}): no car can reach space(s) {', '.join(sorted(sids))}",
            build.step_span(step), f"check the definition of {tile} (`rallyc tiles show {tile}`)"))
    return out


def _road_tiles(build: StageBuild) -> int:
    infos = (build.catalogue.get(s.tile.text) for s in build.stage.steps)
    return sum(1 for info in infos if info is None or TileRole.ASSISTANCE not in info.roles)


def check_length(build: StageBuild) -> list[Diagnostic]:
    """RC308 (warning): far from the Short 10 / Medium 14 / Long 18 tile guidelines (TRACK-STAGE-01..03)."""
    n = _road_tiles(build)
    if n < SHORT_STAGE:
        return [Diagnostic.of(rc.RC308, f"stage {build.name} has {n} road tile(s); a Short stage is about "
                                   "10 tiles", _stage_span(build),
                                   f"add tiles if the stage should last a game session (fewer than {SHORT_STAGE} "
                                   "draws this warning)")]
    if n > LONG_STAGE:
        return [Diagnostic.of(rc.RC308, f"stage {build.name} has {n} road tiles; a Long stage is about "
                                   "18 tiles", _stage_span(build),
                                   f"split it into two stages if it is too long to play (more than {LONG_STAGE} "
                                   "draws this warning)")]
    return []


def check_assistance(build: StageBuild) -> list[Diagnostic]:
    """RC309: the Assistance tile comes after the finish line, at most once (TRACK-STAGE-08)."""
    out = []
    assist = [ps for ps in build.placement.steps if TileRole.ASSISTANCE in ps.info.roles]
    finish = [ln for ln in build.lines if ln.kind == "finish"]
    fin_step = finish[0].step.index if finish else None
    for i, ps in enumerate(assist):
        if i > 0:
            out.append(Diagnostic.of(rc.RC309, f"stage {build.name} has a second Assistance tile "
                                        f"(step {ps.index})", ps.step.span, "keep one Assistance tile, last"))
        elif fin_step is None or ps.index <= fin_step:
            out.append(Diagnostic.of(rc.RC309, f"the Assistance tile (step {ps.index}) is not after the finish "
                                        "line", ps.step.span, "put the Assistance tile after the finish tile"))
    return out
