"""Legality checks of a built track: read-only functions of a complete build, each rule with a stable code.

Every check is a function ``check_xxx(build) -> list[Diagnostic]`` that reads a
:class:`~rallyc.compiler.stage.StageBuild` (or, for the RX rules, a
:class:`~rallyc.compiler.stage.CircuitBuild`) and never writes it. :data:`RULES` lists them once, in the
order they run, with the kinds of build each reads (like graphql-core's ``specified_rules``); adding a
check is one module and one line here.

- :mod:`rallyc.checks.names`, :mod:`rallyc.checks.tiles`: the file as a whole (RC1xx; :data:`FILE_RULES`);
- :mod:`rallyc.checks.geometry`: overlapping tiles, roads into tiles without road, lane counts (RC2xx);
- :mod:`rallyc.checks.route`: start, finish, reachability, length, Assistance (RC3xx);
- :mod:`rallyc.checks.rx`: RX circuits (RC4xx);
- :mod:`rallyc.checks.inventory`: both sides of one tile, copies and boxes (RC5xx).

Problems found while building (placement RC2xx, tokens RC6xx) are the build's own diagnostics.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from rallyc.checks import geometry, inventory, names, route, rx, tiles
from rallyc.compiler.stage import StageBuild
from rallyc.diagnostics import Diagnostic
from rallyc.project.loader import Loaded
from rallyc.tiles.catalogue import Catalogue

__all__ = ["Rule", "RULES", "FILE_RULES", "STAGES", "CIRCUITS", "ALL", "run_checks", "check_file"]

STAGES = frozenset({"stage"})
CIRCUITS = frozenset({"circuit"})
ALL = STAGES | CIRCUITS


@dataclass(frozen=True)
class Rule:
    """A check and the kinds of build (``stage``, ``circuit``) it reads."""

    #: reads a StageBuild; a rule only for circuits reads a CircuitBuild
    check: Callable[[Any], list[Diagnostic]]
    kinds: frozenset[str] = ALL


#: every check of a build, in the order they run
RULES: tuple[Rule, ...] = (
    Rule(geometry.check_overlaps),
    Rule(geometry.check_runs_into_tile, STAGES),
    Rule(geometry.check_lane_joins),
    Rule(route.check_start_finish, STAGES),
    Rule(route.check_assistance, STAGES),
    Rule(route.check_reachability, STAGES),
    Rule(route.check_length, STAGES),
    Rule(rx.circuit_checks, CIRCUITS),
    Rule(inventory.check_sides),
    Rule(inventory.check_boxes),
)

#: the checks of a whole loaded file (names and tile definitions), run before anything is built
FILE_RULES: tuple[Callable[[Loaded, Catalogue], list[Diagnostic]], ...] = (
    names.check_names,
    tiles.check_tiles,
)


def run_checks(build: StageBuild) -> list[Diagnostic]:
    """Every rule of :data:`RULES` that reads this kind of build, in order."""
    out: list[Diagnostic] = []
    for rule in RULES:
        if build.kind in rule.kinds:
            out += rule.check(build)
    return out


def check_file(loaded: Loaded, catalogue: Catalogue) -> list[Diagnostic]:
    """Every rule of :data:`FILE_RULES`, in order."""
    out: list[Diagnostic] = []
    for check in FILE_RULES:
        out += check(loaded, catalogue)
    return out
