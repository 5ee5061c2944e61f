"""Infer the standees an RX circuit file does not carry: the finish line and the Joker's two arches.

Editor files often hold the tiles of an RX circuit and no standee at all. A player
building that circuit sets the standees the way the RX rulebook's setup says
(Setup > 1. Build Your Track; TRACK-RX-02, -04..-08), and so does this module, on
the built circuit (loop, Joker and Pre-grid found from the tiles' roads):

- **Joker arches** (TRACK-RX-07, -08): the Joker is attached through two fork
  tiles; its entrance arch stands at the entry line of the fork where it leaves
  the loop, its exit arch at the entry line of the fork where it rejoins it (the
  way the rulebook circuits in ``examples/`` are written and where the RX checks
  measure them from).
- **Finish line** (TRACK-RX-02, -04..-06): the Pre-grid lies within 2 to 3
  tiles of the Starting line and cars start on it, so the standee stands on the
  first line the race crosses after the fork where the Pre-grid joins the loop
  (the line between that fork and the next tile), or, when that line opens a
  corner zone or lies between the Joker's arches, on the next line that does
  not, within 3 tiles of the fork.

Without a Pre-grid the finish line has no anchor (any straight line of the loop
would do): it is not inferred, and the caller says so. A printed start/finish
line on the loop needs no standee (the compiler takes it).
"""

from __future__ import annotations

from dataclasses import dataclass

from rallyc.compiler.stage import CircuitBuild
from rallyc.compiler.standees import finish_line
from rallyc.syntax import ast

__all__ = ["Inferred", "NotInferred", "infer_standees", "MAX_FINISH_DISTANCE"]

#: the Pre-grid lies within 2 to 3 tiles of the Starting line (TRACK-RX-02): loop tiles from the fork
#: where it joins to the tile whose entry line carries the standee, as the RX check RC409 counts them
MAX_FINISH_DISTANCE = 3


@dataclass(frozen=True)
class Inferred:
    """A standee the file does not have, and why it stands there (for the warning)."""

    standee: ast.Standee
    #: the loop step the standee's line is on (for locating the warning on that tile of the file)
    step: int
    why: str


@dataclass(frozen=True)
class NotInferred:
    """A standee that could not be inferred, and why."""

    kind: str
    why: str
    hint: str


def _loop_positions(build: CircuitBuild) -> dict[tuple[int, int], int]:
    """(step, zone) -> position of the line at that zone's entry along the main loop (zones counted)."""
    out: dict[tuple[int, int], int] = {}
    pos = 0
    for ps in build.loop:
        zones = build.by_step.get(ps.index, [])
        for k in range(len(zones)):
            out[(ps.index, k + 1)] = pos + k
        pos += len(zones)
    return out


def _arch_position(build: CircuitBuild, positions: dict[tuple[int, int], int], st: ast.Standee) -> int | None:
    """Where a Joker arch lies along the loop (an arch on the Joker's own tiles counts at its fork)."""
    joker = {ps.index for ps in build.joker_steps}
    if st.at.step in joker:
        fork = build.joker_forks[0 if st.kind == "joker-entry" else 1]
        if fork is None:
            return None
        zones = len(build.by_step.get(fork.index, []))
        start = positions.get((fork.index, 1))
        return None if start is None else (start if st.kind == "joker-entry" else start + zones)
    return positions.get((st.at.step, st.at.zone))


def _between_arches(f: int, a: int | None, b: int | None) -> bool:
    """True when loop position ``f`` lies strictly between the Joker's entry ``a`` and exit ``b`` (TRACK-RX-06)."""
    if a is None or b is None:
        return False
    return a < f < b if a <= b else (f > a or f < b)


def _joker_arches(build: CircuitBuild, have: set[str]) -> tuple[list[Inferred], list[NotInferred]]:
    found: list[Inferred] = []
    missing: list[NotInferred] = []
    if not build.joker_steps:
        return found, missing
    for kind, fork, verb in (("joker-entry", build.joker_forks[0], "leaves"),
                             ("joker-exit", build.joker_forks[1], "rejoins")):
        if kind in have:
            continue
        if fork is None:
            missing.append(NotInferred(kind, f"no fork tile where the Joker {verb} the loop",
                                       f"add `standee {kind} at STEP.ZONE` (TRACK-RX-07)"))
            continue
        found.append(Inferred(
            ast.Standee(kind, ast.SpaceRef(fork.index, 1)), fork.index,
            f"at the entry line of fork {fork.info.id} (step {fork.index}), where the Joker {verb} the loop "
            "(TRACK-RX-07, -08)"))
    return found, missing


def _finish(build: CircuitBuild, arches: list[ast.Standee]) -> Inferred | NotInferred:
    fork = build.pregrid_fork
    hint = "add `standee finish at STEP.ZONE` where the race's start/finish line stands (TRACK-RX-04)"
    if fork is None:
        return NotInferred("finish", "the circuit has no Pre-grid to measure the Starting line from (TRACK-RX-02), "
                                     "so any straight line of the loop could carry it", hint)
    order = [ps.index for ps in build.loop]
    if fork.index not in order:
        return NotInferred("finish", f"the Pre-grid's fork {fork.info.id} is not on the main loop", hint)
    positions = _loop_positions(build)
    entry = next((s for s in arches if s.kind == "joker-entry"), None)
    exit_ = next((s for s in arches if s.kind == "joker-exit"), None)
    a = _arch_position(build, positions, entry) if entry else None
    b = _arch_position(build, positions, exit_) if exit_ else None
    at = order.index(fork.index)
    skipped: list[str] = []
    for d in range(1, MAX_FINISH_DISTANCE + 1):
        ps = build.loop[(at + d) % len(order)]
        for z, zs in enumerate(build.by_step.get(ps.index, []), start=1):
            if zs.zone is not None and zs.zone.kind == "corner":
                skipped.append(f"{ps.index}.{z} opens a corner")
                continue
            if _between_arches(positions[(ps.index, z)], a, b):
                skipped.append(f"{ps.index}.{z} lies between the Joker's arches")
                continue
            where = "the line between the fork and the next tile" if (d, z) == (1, 1) else \
                f"the first line past it that is not on a corner nor between the Joker's arches ({'; '.join(skipped)})"
            return Inferred(
                ast.Standee("finish", ast.SpaceRef(ps.index, z)), ps.index,
                f"on the first line the race crosses after fork {fork.info.id} (step {fork.index}), where the "
                f"Pre-grid joins the loop: {where}, {d} tile{'s' if d > 1 else ''} after the fork (TRACK-RX-02, "
                "-04..-06)")
    return NotInferred("finish", f"no line within {MAX_FINISH_DISTANCE} tiles after fork {fork.info.id} (step "
                                 f"{fork.index}), where the Pre-grid joins, is off corners and outside the Joker "
                                 "(TRACK-RX-02, -05, -06)", hint)


def infer_standees(build: CircuitBuild) -> tuple[list[Inferred], list[NotInferred]]:
    """The standees ``build``'s circuit lacks, inferred as a player would set them, and those that cannot be.

    Only missing kinds are inferred; written standees are kept as they are. The
    finish line is not needed when the loop has a printed start/finish line.
    """
    written = list(build.stage.standees)
    have = {s.kind for s in written}
    found, missing = _joker_arches(build, have)
    if "finish" not in have and finish_line(build)[0] is None:
        arches = [s for s in written if s.kind != "finish"] + [f.standee for f in found]
        got = _finish(build, arches)
        (found if isinstance(got, Inferred) else missing).append(got)  # type: ignore[arg-type]
    return found, missing
