"""Codes RC5xx: inventory (physical tiles, boxes and copies)."""

from __future__ import annotations

from rallyc.codes import CodeInfo
from rallyc.model import codes as rc

CODES: list[CodeInfo] = [
    CodeInfo(
        rc.RC501,
        "Tiles are double-sided: one physical tile shows side a or side b, never both (TRACK-TILE-06). The "
        "stage uses both sides of a tile number more times than the declared boxes have copies of it. Like "
        "every inventory check it runs only with `boxes ...` declared: without it rallyc cannot know how "
        "many boxes (and copies) the owner has.",
        (
            "boxes dirt-core\n"
            "\n"
            "stage SS1 {\n"
            "  202a\n"
            "  205a\n"
            "  206a\n"
            "  208a left\n"
            "  208b right\n"
            "  203a\n"
            "}\n"
        ),
        "Use another tile for one of the two steps.",
    ),
    CodeInfo(
        rc.RC502,
        "With `boxes ...` declared, a stage may not use more copies of a tile than those boxes hold "
        "(TRACK-TILE-06). Without `boxes`, copies are not checked.",
        (
            "boxes dirt-core\n"
            "\n"
            "stage SS1 {\n"
            "  202a\n"
            "  205a\n"
            "  206a\n"
            "  205a  # the core box has one 205\n"
            "  204a\n"
            "  203a\n"
            "}\n"
        ),
        "Replace some copies with other tiles.",
    ),
    CodeInfo(
        rc.RC503,
        "With `boxes ...` declared, every tile must come from one of those boxes.",
        (
            "boxes dirt-core\n"
            "\n"
            "stage SS1 {\n"
            "  202a\n"
            "  205a\n"
            "  303a  # from the 110% box\n"
            "  208a left\n"
            "  204a\n"
            "  203a\n"
            "}\n"
        ),
        "Add the box to `boxes` or use a tile you own.",
    ),
]
