"""RX circuit checks (TRACK-RX-01..09): closed loop, laps, finish standee, Joker, Pre-grid."""

from __future__ import annotations

from rallyc.compiler.stage import CircuitBuild
from rallyc.compiler.standees import finish_line, standee_zone
from rallyc.diagnostics import Diagnostic
from rallyc.model import codes as rc

__all__ = ["circuit_checks"]


def _loop_position(build: CircuitBuild, step: int, zone: int, arch: str | None = None) -> int | None:
    """Where the line at the entry of zone ``zone`` of step ``step`` lies along the main loop (zones counted).

    An arch standing on the Joker's own tiles counts from the fork where the Joker leaves the loop
    (entry arch) or to the fork where it rejoins it (exit arch), so the finish line is compared with
    the stretch the Joker bypasses.
    """
    loop = build.loop or build.placement.steps
    forks = build.joker_forks
    joker = {ps.index for ps in build.joker_steps}
    if step in joker and arch in ("joker-entry", "joker-exit"):
        fork = forks[0] if arch == "joker-entry" else forks[1]
        if fork is None:
            return None
        step = fork.index
        # the branch leaves somewhere inside the fork tile: count from the fork's entry line (and
        # rejoin at its exit line), so a finish line on the fork tile's far side counts as bypassed
        zone = 1 if arch == "joker-entry" else len(build.by_step.get(step, [])) + 1
    pos = 0
    for ps in loop:
        zones = build.by_step.get(ps.index, [])
        if ps.index == step:
            return pos + zone - 1
        pos += len(zones)
    return None


def circuit_checks(build: CircuitBuild) -> list[Diagnostic]:
    """RC401..RC406: loop closed, laps, finish standee (one, not on a corner, not inside the Joker), Joker arches."""
    out: list[Diagnostic] = []
    c = build.stage
    title_span = c.span
    if build.placement.complete and build.placement.steps and not build.loop_closed:
        last = build.placement.steps[-1]
        out.append(Diagnostic.of(
            rc.RC401, f"circuit \"{c.title}\" is not a closed loop: the road of its last tile (step {last.index}, "
            f"{last.info.id}) does not lead back into the first", last.step.span,
            "an RX circuit is a closed loop (TRACK-RX-01): list the tiles in driving order and end next to the first"))
    if not c.laps:
        out.append(Diagnostic.of(rc.RC402, f"circuit \"{c.title}\" does not say how many laps", title_span,
                                    "add `laps N` (at least 2, TRACK-RX-09)"))
    elif c.laps[0].count < 2:
        out.append(Diagnostic.of(rc.RC402, f"an RX race is at least 2 laps, not {c.laps[0].count}",
                                    c.laps[0].span, "write `laps 2` or more (TRACK-RX-09)"))
    finishes = [s for s in c.standees if s.kind == "finish"]
    if not finishes and finish_line(build)[0] is None and build.placement.complete:
        out.append(Diagnostic.of(rc.RC403, f"circuit \"{c.title}\" has no finish-line standee", title_span,
                                    "add `standee finish at STEP.ZONE` (the line at the entry of that zone)"))
    for extra in finishes[1:]:
        out.append(Diagnostic.of(rc.RC403, "a second finish-line standee", extra.span, "keep one"))
    for st in c.standees:
        zs = standee_zone(build, st)
        if zs is None and build.placement.complete:
            out.append(Diagnostic.of(rc.RC407, f"standee at {st.at}: no such step and zone on the circuit",
                                        st.at.span or st.span, "write STEP.ZONE of a zone of a listed tile"))
            continue
        if st.kind == "finish" and zs is not None and zs.zone is not None and zs.zone.kind == "corner":
            out.append(Diagnostic.of(rc.RC404, f"the finish-line standee at {st.at} stands on a corner",
                                        st.span, "move it to a line outside corners (TRACK-RX-05)"))
    entries = [s for s in c.standees if s.kind == "joker-entry"]
    exits = [s for s in c.standees if s.kind == "joker-exit"]
    if c.joker or entries or exits:
        if not entries:
            out.append(Diagnostic.of(rc.RC406, "the Joker has no entry arch", title_span,
                                        "add `standee joker-entry at STEP.ZONE` (TRACK-RX-07)"))
        if not exits:
            out.append(Diagnostic.of(rc.RC406, "the Joker has no exit arch", title_span,
                                        "add `standee joker-exit at STEP.ZONE` (TRACK-RX-07)"))
    if finishes and entries and exits:
        f = _loop_position(build, finishes[0].at.step, finishes[0].at.zone)
        a = _loop_position(build, entries[0].at.step, entries[0].at.zone, "joker-entry")
        b = _loop_position(build, exits[0].at.step, exits[0].at.zone, "joker-exit")
        if f is not None and a is not None and b is not None and \
                finishes[0].at.step not in {s for j in c.joker for s in j.steps}:
            inside = a < f < b if a <= b else (f > a or f < b)
            if inside:
                out.append(Diagnostic.of(rc.RC405, "the finish-line standee stands between the Joker's entry "
                                            "and exit", finishes[0].span,
                                            "move it outside the stretch the Joker bypasses (TRACK-RX-06)"))
    out += _pregrid_distance(build)
    return out


def _pregrid_distance(build: CircuitBuild) -> list[Diagnostic]:
    """RC409: the Pre-grid lies within 2 to 3 tiles of the Starting line (TRACK-RX-02).

    Counted in loop tiles from the fork where the Pre-grid joins, forward to the
    tile of the finish-line standee; more than 3 is reported.
    """
    fork = build.pregrid_fork
    loop = build.loop
    finishes = [s for s in build.stage.standees if s.kind == "finish"]
    if fork is None or not loop or not finishes:
        return []
    order = [p.index for p in loop]
    if finishes[0].at.step not in order:
        return []
    d = (order.index(finishes[0].at.step) - order.index(fork.index)) % len(order)
    if d <= 3:
        return []
    pre = build.pregrid_steps[-1]
    return [Diagnostic.of(rc.RC409, f"the Pre-grid joins the loop at step {fork.index} ({fork.info.id}), {d} tiles "
                             f"before the finish line (step {finishes[0].at.step})", pre.step.span,
                             "the Pre-grid lies within 2 to 3 tiles of the Starting line (TRACK-RX-02): move it or "
                             "the finish standee")]
