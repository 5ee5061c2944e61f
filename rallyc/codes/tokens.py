"""Codes RC6xx: road-effect and other tokens placed on spaces."""

from __future__ import annotations

from rallyc.codes import CodeInfo
from rallyc.model import codes as rc

CODES: list[CodeInfo] = [
    CodeInfo(
        rc.RC601,
        "`token KIND at STEP.ZONE[.LANE]` names a route step, a zone of that step's road (counted in driving "
        "order) and optionally a space (`l`, `m`, `r`, `s1`, `s2`, `in1`.., `out1`.., `w`, `j`). One of them "
        "is not on the route.",
        (
            "stage SS1 {\n"
            "  202a\n"
            "  205a\n"
            "  206a\n"
            "  208a left\n"
            "  204a\n"
            "  203a\n"
            "  token water at 2.4  # 205a has 3 zones\n"
            "}\n"
        ),
        "Pick a space the hint lists (`rallyc compile FILE` lists every space id).",
    ),
    CodeInfo(
        rc.RC602,
        "Road Effects tokens (Water Hazard, Jump, Chicane) may be placed only on spaces without a printed road "
        "effect (TRACK-TOKEN-01). rallyc counts as printed road effects: water, jumps, shortcut spaces and "
        "printed speed limits (corner spaces included).",
        (
            "stage SS1 {\n"
            "  202a\n"
            "  205b\n"
            "  206a\n"
            "  208a left\n"
            "  204a\n"
            "  203a\n"
            "  token water at 2.2  # the jump printed on 205b\n"
            "}\n"
        ),
        "Move the token to a plain space before or after.",
    ),
    CodeInfo(
        rc.RC603,
        "One token covers one space; two Road Effects tokens cannot share a space.",
        (
            "stage SS1 {\n"
            "  202a\n"
            "  205a\n"
            "  206a\n"
            "  208a left\n"
            "  204a\n"
            "  203a\n"
            "  token water at 3.2.l\n"
            "  token jump 3 at 3.2.l\n"
            "}\n"
        ),
        "Move one of the tokens.",
    ),
    CodeInfo(
        rc.RC604,
        "Chicane tokens should come in groups of 2 or more with at least one showing a speed limit "
        "(TRACK-TOKEN-03, advice).",
        (
            "stage SS1 {\n"
            "  202a\n"
            "  205a\n"
            "  206a\n"
            "  208a left\n"
            "  204a\n"
            "  203a\n"
            "  token chicane at 3.2.l\n"
            "}\n"
        ),
        "Add a second chicane token next to it, one with `limit N`.",
    ),
    CodeInfo(
        rc.RC605,
        "A Jump token needs its gear (`token jump 4 at ...`) and an Oxygen token its value.",
        (
            "stage SS1 {\n"
            "  202a\n"
            "  205a\n"
            "  206a\n"
            "  208a left\n"
            "  204a\n"
            "  203a\n"
            "  token jump at 3.2\n"
            "}\n"
        ),
        "Write the value after the token name.",
    ),
    CodeInfo(
        rc.RC606,
        "A token's number or speed limit is one the token cannot have: a Jump token is taken in gear 1 to 6, "
        "an Oxygen token is 1 to 3, a Chicane's `limit` is a gear 1 to 6, and the other tokens (water, hay "
        "bale, mud, ...) have no number and no limit. The same values in a tile definition are refused too "
        "(RC151).",
        (
            "stage SS1 {\n"
            "  202a\n"
            "  205a\n"
            "  206a\n"
            "  208a left\n"
            "  204a\n"
            "  203a\n"
            "  token jump 7 at 3.2\n"
            "}\n"
        ),
        "Write a jump gear 1..6, a chicane limit 1..6, an oxygen value 1..3; water and other tokens take no number.",
    ),
]
