"""Where a circuit's standees stand, its finish line and its start spaces (a build step of a circuit).

The RX checks (:mod:`rallyc.checks.rx`) read what this module marks; the renderer and the exporters read
the standees through :attr:`rallyc.compiler.track.Track.standees`.
"""

from __future__ import annotations

from rallyc.compiler.graph import ZoneSpaces
from rallyc.compiler.stage import CircuitBuild
from rallyc.compiler.track import Standee
from rallyc.syntax import ast

__all__ = ["standee_zone", "finish_line", "mark_standees", "track_standees"]


def standee_zone(build: CircuitBuild, standee: ast.Standee) -> ZoneSpaces | None:
    """The zone (ZoneSpaces) whose entry line the standee stands on, or None."""
    zones = build.by_step.get(standee.at.step)
    if zones is None or not 1 <= standee.at.zone <= len(zones):
        return None
    return zones[standee.at.zone - 1]


def finish_line(build: CircuitBuild) -> tuple[int | None, str | None]:
    """(zone index in the loop sequence just after the finish line, what marks it) or (None, None).

    The ``standee finish`` stands on the line at the entry of its zone
    (TRACK-RX-04); without one, the first start/finish line printed on the loop.
    """
    for st in build.stage.standees:
        if st.kind == "finish":
            zs = standee_zone(build, st)
            i = next((k for k, z in enumerate(build.sequence) if z is zs), None)
            return i, "standee"
    pos = 0
    for ps in build.loop:
        for ln in ps.driven.lines:
            if ln.kind in ("start", "finish", "checkered"):
                return (pos + ln.after) % max(1, len(build.sequence)), "line"
        pos += len(ps.driven.zones)
    return None, None


def mark_standees(build: CircuitBuild) -> None:
    """Finish line and start spaces of a circuit.

    The zone after the finish line is ``after_finish``. Cars start on the
    Pre-grid (RX-START-01): its lane spaces behind its printed line (all of its
    lane spaces when it has none) are start spaces; without a Pre-grid the lane
    spaces just behind the finish line are.
    """
    g = build.graph
    i, _ = finish_line(build)
    seq = build.sequence
    if i is not None and seq:
        for sid in seq[i].all():
            g.nodes[sid]["after_finish"] = True
    pre = build.pregrid_steps
    if pre:
        for ps in pre:
            zones = [z for z in build.by_step.get(ps.index, []) if z.zone is not None]
            cut = next((ln.after for ln in ps.driven.lines if ln.kind in ("start", "checkered", "finish")), None)
            for zs in zones[: cut if cut else len(zones)]:
                for sid in [zs.lane_ids[l] for l in zs.lanes] or zs.non_slide():
                    g.nodes[sid]["start"] = True
    elif i is not None and seq:
        prev = seq[i - 1]
        for sid in [prev.lane_ids[l] for l in prev.lanes] or prev.non_slide():
            g.nodes[sid]["start"] = True




def track_standees(build: CircuitBuild) -> list[Standee]:
    """The circuit's standees as the Track keeps them, each with the spaces just past its line."""
    out = []
    for st in build.stage.standees:
        zs = standee_zone(build, st)
        spaces = tuple(sorted(zs.all())) if zs is not None else ()
        out.append(Standee(st.kind, st.at.step, st.at.zone, spaces, st.span))
    return out
