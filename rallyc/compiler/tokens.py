"""Tokens on spaces (a build step): put each ``token`` of a stage on its space(s), if it may go there.

``token KIND at STEP.ZONE.LANE`` covers one space; ``at STEP.ZONE`` covers the
lane spaces of that zone (every space of a zone without lanes, slide halves
excepted). Road Effects tokens (water, jump, chicane) may only go on spaces
without a printed road effect (TRACK-TOKEN-01); rallyc counts water, jumps,
shortcut spaces and printed speed limits (corner spaces included) as printed
road effects. Other tokens (hay bales, mud, climb, cloud, oxygen) are recorded
in the space's ``tokens`` and not checked.
"""

from __future__ import annotations

from typing import Any

import networkx as nx

from rallyc.compiler.graph import ZoneSpaces
from rallyc.diagnostics import Diagnostic
from rallyc.model import codes as rc
from rallyc.syntax import ast

__all__ = ["place_tokens", "ROAD_EFFECTS"]

ROAD_EFFECTS = ("water", "jump", "chicane")


def _targets(by_step: dict[int, list[ZoneSpaces]], steps: int,
             token: ast.Token) -> tuple[list[str], Diagnostic | None]:
    ref = token.at
    zones = by_step.get(ref.step)
    span = ref.span or token.span
    if zones is None:
        n = steps
        return [], Diagnostic.of(rc.RC601, f"token at {ref}: the route has no step {ref.step}", span,
                                    f"steps are numbered 1..{n} in the order they are written")
    if not 1 <= ref.zone <= len(zones):
        return [], Diagnostic.of(rc.RC601, f"token at {ref}: step {ref.step} has {len(zones)} zone(s)", span,
                                    f"zones are counted from 1 in driving order: 1..{len(zones)}")
    zs = zones[ref.zone - 1]
    if ref.lane is None:
        return ([zs.lane_ids[l] for l in zs.lanes] or zs.non_slide()), None
    sid = f"{ref.step}.{ref.zone}.{ref.lane}"
    if sid not in zs.all():
        names = ", ".join(s.rsplit(".", 1)[1] for s in zs.all())
        return [], Diagnostic.of(rc.RC601, f"token at {ref}: zone {ref.step}.{ref.zone} has no space "
                                    f"`{ref.lane}`", span, f"its spaces are: {names}")
    return [sid], None


def _printed_effect(d: dict[str, Any]) -> str | None:
    if d.get("water") and "water" not in d["tokens"]:
        return "a water hazard"
    if d.get("jump") is not None and not any(t.startswith("jump") for t in d["tokens"]):
        return f"a jump (gear {d['jump']})"
    if d["kind"] == "shortcut":
        return "a shortcut"
    if d.get("limit") is not None:
        return f"a speed limit ({d['limit']})"
    return None


def place_tokens(tokens: list[ast.Token], steps: int, by_step: dict[int, list[ZoneSpaces]],
                 g: nx.DiGraph) -> list[Diagnostic]:
    """Put every token on its spaces of ``g`` (a route of ``steps`` steps whose zones are ``by_step``);
    diagnostics for tokens that cannot go there."""
    out: list[Diagnostic] = []
    chicanes = []
    for token in tokens:
        if token.kind in ("jump", "oxygen") and token.value is None:
            out.append(Diagnostic.of(rc.RC605, f"`token {token.kind}` needs a value", token.span,
                                        f"write e.g. `token {token.kind} 4 at {token.at}`"))
            continue
        targets, err = _targets(by_step, steps, token)
        if err is not None:
            out.append(err)
            continue
        if token.kind == "chicane":
            chicanes.append(token)
        for sid in targets:
            d = g.nodes[sid]
            if token.kind in ROAD_EFFECTS:
                held = [t for t in d["tokens"] if t.split(" ")[0] in ROAD_EFFECTS]
                if held:
                    out.append(Diagnostic.of(rc.RC603, f"space {sid} already has a {held[0]} token",
                                                token.span, "one token covers one space; move one of them"))
                    continue
                printed = _printed_effect(d)
                if printed:
                    out.append(Diagnostic.of(rc.RC602, f"space {sid} has {printed} printed on it; a "
                                                f"{token.kind} token cannot go there", token.span,
                                                "put Road Effects tokens on plain spaces (TRACK-TOKEN-01)"))
                    continue
            label = token.kind
            if token.kind == "water":
                d["water"] = True
            elif token.kind == "jump":
                d["jump"] = token.value
                label = f"jump {token.value}"
            elif token.kind == "chicane":
                d["chicane"] = token.limit
                label = "chicane" + (f" limit {token.limit}" if token.limit is not None else "")
            elif token.value is not None:
                label = f"{token.kind} {token.value}"
            d["tokens"] = tuple(d["tokens"]) + (label,)
    if chicanes and (len(chicanes) < 2 or all(t.limit is None for t in chicanes)):
        out.append(Diagnostic.of(rc.RC604, "chicane tokens should come in groups of 2 or more with at least "
                                      "one speed limit", chicanes[0].span,
                                      "add a second chicane token beside it, one with `limit N` (TRACK-TOKEN-03)"))
    return out
