"""Codes RC2xx: placing tiles on the hex grid."""

from __future__ import annotations

from rallyc.codes import CodeInfo
from rallyc.model import codes as rc

CODES: list[CodeInfo] = [
    CodeInfo(
        rc.RC201,
        "A curve can be driven from either end: one way it turns left, the other way right. In route form "
        "the turn word picks the direction (a road printed `B -> D left60` is `left` driven from B and "
        "`right` driven from D). It is missing, or at a given position several roads fit.",
        (
            "stage SS1 {\n"
            "  202a\n"
            "  205a\n"
            "  210b  # a hairpin: driven left or right?\n"
            "  208a left\n"
            "  204a\n"
            "  203a\n"
            "}\n"
        ),
        "Write the turn word the hint lists, e.g. `210b left`.",
    ),
    CodeInfo(
        rc.RC202,
        "The turn word (or `reversed`) does not fit any road of the tile: `straight` on a hairpin, `left` on "
        "a road that only turns right in both directions' reading, `reversed` on a dead end.",
        (
            "stage SS1 {\n"
            "  202a\n"
            "  205a\n"
            "  210b straight  # a hairpin\n"
            "  208a left\n"
            "  204a\n"
            "  203a\n"
            "}\n"
        ),
        "Use one of the spellings listed in the hint.",
    ),
    CodeInfo(
        rc.RC203,
        "The tile has several roads (RX forks, 412, 414, bridges) and the step does not say which one is "
        "driven (`road N`), or names a road the tile does not have, or the tile has no road at all.",
        (
            "stage SS1 {\n"
            "  202a\n"
            "  205a\n"
            "  414b  # an RX tile with two roads\n"
            "  208a left\n"
            "  204a\n"
            "  203a\n"
            "}\n"
        ),
        "Write `road N` with one of the roads listed in the hint.",
    ),
    CodeInfo(
        rc.RC204,
        "With the position and rotation written (`at Q R rot N`), none of the tile's roads has its entry on "
        "the edge that faces the previous step: the road of the previous tile runs into a tile edge without "
        "road (TRACK-TILE-02: a tile edge is always a space edge, so roads must meet edge to edge).",
        (
            "stage SS1 {\n"
            "  202a at 0 0 rot 0\n"
            "  205a at 1 0 rot 1  # turned: no road faces 202a\n"
            "  206a\n"
            "  208a left\n"
            "  204a\n"
            "  203a\n"
            "}\n"
        ),
        "Change the rotation to one the hint lists, or drop `at` and let the route place the tile.",
    ),
    CodeInfo(
        rc.RC205,
        "A step written with `at Q R` is not on the cell across the previous step's exit edge, so the road "
        "has a gap (or the tiles are listed out of driving order).",
        (
            "stage SS1 {\n"
            "  202a at 0 0 rot 0\n"
            "  205a at 2 0 rot 0  # one cell too far\n"
            "  206a\n"
            "  208a left\n"
            "  204a\n"
            "  203a\n"
            "}\n"
        ),
        "Write the cell the hint gives, or check the previous step's rotation and turn word.",
    ),
    CodeInfo(
        rc.RC206,
        "Two tiles of the layout are on the same hex cell. Only one tile driven twice on two of its roads "
        "(a 414b, a Monte-Carlo bridge) may appear twice at one cell, with the same rotation.",
        (
            "stage SS1 {\n"
            "  202a\n"
            "  205a\n"
            "  216a right\n"
            "  210b right\n"
            "  213a right  # three hairpins: back to 205a\n"
            "  206a\n"
            "  203a\n"
            "}\n"
        ),
        "Change the turn words so that the route does not run into itself, or move the scenery.",
    ),
    CodeInfo(
        rc.RC207,
        "The exit of a step leads into a cell that holds another tile (scenery, or a tile of the route that "
        "is not the next step) with no road there. In route form the next step always lies across the exit, "
        "so this is met where the route stops before its finish line, or with `at` a step is out of place.",
        (
            "stage SS1 {\n"
            "  202a at 0 0 rot 0\n"
            "  205a\n"
            "  206a\n"
            "  208a left\n"
            "  204a\n"
            "  207a  # the finish tile is not laid yet\n"
            "  scenery 902a at 6 -3 rot 0\n"
            "}\n"
        ),
        "Move the scenery tile or change the route.",
    ),
    CodeInfo(
        rc.RC208,
        "Where two roads meet, their lane counts must agree or be 2 and 3 (RX / GT tiles, TRACK-TILE-03: "
        "diagonal moves between 2- and 3-lane spaces are allowed). Any other pair cannot be driven.",
        (
            "# a home-made tile: a one-lane bridge\n"
            "tileset my-tiles {\n"
            "  tile 991a gravel danger low copies 1 {\n"
            "    road D -> A straight lanes 1 {\n"
            "      plain\n"
            "      plain\n"
            "    }\n"
            "  }\n"
            "}\n"
            "\n"
            "stage SS1 {\n"
            "  202a\n"
            "  205a\n"
            "  991a\n"
            "  208a left\n"
            "  204a\n"
            "  203a\n"
            "}\n"
        ),
        "Use tiles whose lanes agree, or correct the tile definition (`lanes N`).",
    ),
    CodeInfo(
        rc.RC210,
        "A rotation counts 60-degree steps clockwise and is 0..5.",
        (
            "stage SS1 {\n"
            "  202a at 0 0 rot 7\n"
            "  205a\n"
            "  206a\n"
            "  208a left\n"
            "  204a\n"
            "  203a\n"
            "}\n"
        ),
        "Write the rotation modulo 6.",
    ),
    CodeInfo(
        rc.RC211,
        "A cell coordinate `at Q R` lies more than 100,000 cells from 0 0. No table is that large (a stage "
        "of 50,000 tiles laid in a row still fits), and maps of such a track could not be drawn.",
        (
            "stage SS1 {\n"
            "  202a at 0 0 rot 0\n"
            "  205a at 0 -1 rot 0\n"
            "  206a at 0 -2000000 rot 0\n"
            "  203a\n"
            "}\n"
        ),
        "Check the `at Q R` numbers; the first tile is usually at 0 0 and the others near it.",
    ),
]
