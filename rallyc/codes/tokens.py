"""Codes RC6xx: road-effect and other tokens placed on spaces."""

from __future__ import annotations

from rallyc.codes import CodeInfo

CODES: list[CodeInfo] = [
    CodeInfo(
        "RC601", "error", "token on a space that does not exist",
        "`token KIND at STEP.ZONE[.LANE]` names a route step, a zone of that step's road (counted in driving "
        "order) and optionally a space (`l`, `m`, `r`, `s1`, `s2`, `in1`.., `out1`.., `w`, `j`). One of them "
        "is not on the route.",
        "stage S {\n  202a\n  token water at 1.9.l\n}",
        "Pick a space the hint lists (`rallyc compile FILE` lists every space id).",
        ("TRACK-TOKEN-01",),
    ),
    CodeInfo(
        "RC602", "error", "road-effect token on a printed road effect",
        "Road Effects tokens (Water Hazard, Jump, Chicane) may be placed only on spaces without a printed road "
        "effect (TRACK-TOKEN-01). rallyc counts as printed road effects: water, jumps, shortcut spaces and "
        "printed speed limits (corner spaces included).",
        "stage S {\n  202a\n  210b left\n  token water at 2.1.in1\n}",
        "Move the token to a plain space before or after.",
        ("TRACK-TOKEN-01",),
    ),
    CodeInfo(
        "RC603", "error", "two road-effect tokens on one space",
        "One token covers one space; two Road Effects tokens cannot share a space.",
        "token water at 3.1.l\ntoken jump 3 at 3.1.l",
        "Move one of the tokens.",
        ("TRACK-TOKEN-01",),
    ),
    CodeInfo(
        "RC604", "warning", "chicane tokens come in groups with a limit",
        "Chicane tokens should come in groups of 2 or more with at least one showing a speed limit "
        "(TRACK-TOKEN-03, advice).",
        "token chicane at 3.1.l",
        "Add a second chicane token next to it, one with `limit N`.",
        ("TRACK-TOKEN-03",),
    ),
    CodeInfo(
        "RC605", "error", "token needs a value",
        "A Jump token needs its gear (`token jump 4 at ...`) and an Oxygen token its value.",
        "token jump at 3.1",
        "Write the value after the token name.",
        ("TRACK-TOKEN-01", "CORE-JUMP-01"),
    ),
]
