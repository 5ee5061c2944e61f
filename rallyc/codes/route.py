"""Codes RC3xx: a stage's route (start, finish, reachability, guidelines) and rallies."""

from __future__ import annotations

from rallyc.codes import CodeInfo
from rallyc.model import codes as rc

CODES: list[CodeInfo] = [
    CodeInfo(
        rc.RC301,
        "A stage has one Starting Line with the start spaces behind it (TRACK-STAGE-07); none of the route's "
        "tiles has a `start` line.",
        (
            "stage SS1 {\n"
            "  205a\n"
            "  206a\n"
            "  208a left\n"
            "  204a\n"
            "  207a\n"
            "  203a\n"
            "}\n"
        ),
        "Begin the route with a start tile (202a, 202b, 301a, 301b).",
    ),
    CodeInfo(
        rc.RC302,
        "A stage has one Starting Line; this route crosses a second one.",
        (
            "stage SS1 {\n"
            "  202a\n"
            "  205a\n"
            "  206a\n"
            "  301a  # a second start tile\n"
            "  204a\n"
            "  203a\n"
            "}\n"
        ),
        "Keep one start tile, at the beginning of the route.",
    ),
    CodeInfo(
        rc.RC303,
        "A stage ends at one finish line with at least one space beyond it (TRACK-STAGE-07); none of the "
        "route's tiles has a `finish` line, so the route stops with its road open.",
        (
            "stage SS1 {\n"
            "  202a\n"
            "  205a\n"
            "  206a\n"
            "  208a left\n"
            "  204a\n"
            "  207a\n"
            "}\n"
        ),
        "End the route with a finish tile (203a, 203b, 302a, 302b).",
    ),
    CodeInfo(
        rc.RC304,
        "A stage has one finish line; this route crosses a second one.",
        (
            "stage SS1 {\n"
            "  202a\n"
            "  205a\n"
            "  203a\n"
            "  206a\n"
            "  204a\n"
            "  302a\n"
            "}\n"
        ),
        "Keep one finish tile, at the end of the route.",
    ),
    CodeInfo(
        rc.RC305,
        "No sequence of legal single steps leads from a start space to a space beyond the finish line: the "
        "finish comes before the start, or a step breaks the road.",
        (
            "stage SS1 {\n"
            "  203a\n"
            "  205a\n"
            "  206a\n"
            "  208a left\n"
            "  204a\n"
            "  202a\n"
            "}\n"
        ),
        "Put the start tile first and the finish tile last, driven in their printed direction.",
    ),
    CodeInfo(
        rc.RC306,
        "Some spaces after the start line cannot be reached from any start space. Usually a tile definition "
        "problem (a shortcut joining zones in the wrong order, a zone that cannot be entered).",
        (
            "# my reading of 211b, with the shortcut joining zones 2 and 3 (the tile shows 1 to 3)\n"
            "tileset dirt-core {\n"
            "  tile 211b gravel danger medium copies 1 {\n"
            "    road D -> C right120 {\n"
            "      slide\n"
            "      corner inside 1 outside 2 2 2\n"
            "      slide\n"
            "      shortcut 2 from 2 to 3\n"
            "    }\n"
            "  }\n"
            "}\n"
            "\n"
            "stage SS1 {\n"
            "  202a\n"
            "  205a\n"
            "  211b right\n"
            "  208a left\n"
            "  204a\n"
            "  203a\n"
            "}\n"
        ),
        "Check the tile definition named in the message (`rallyc tiles show ID`).",
    ),
    CodeInfo(
        rc.RC307,
        "A step's road is a dead end (the Assistance area) but more steps follow it.",
        (
            "stage SS1 {\n"
            "  202a\n"
            "  205a\n"
            "  206a\n"
            "  208a left\n"
            "  204a\n"
            "  201a\n"
            "  203a\n"
            "}\n"
        ),
        "Put the dead-end tile last (the Assistance tile goes after the finish).",
    ),
    CodeInfo(
        rc.RC308,
        "The rulebook's guidelines for 4 players: a Short stage is about 10 tiles, a Medium 14 and a Long 18 "
        "(TRACK-STAGE-01..03). rallyc warns below 6 or above 22 road tiles (start and finish tiles counted, "
        "the Assistance tile not).",
        (
            "stage SS1 {\n"
            "  202a\n"
            "  205a\n"
            "  203a\n"
            "}\n"
        ),
        "Nothing is illegal; adjust the length if the stage should fit a game session.",
    ),
    CodeInfo(
        rc.RC309,
        "The Assistance tile (201) is a dead end that grants Assistance at the end of the stage: it goes after "
        "the finish line, at most once per stage (TRACK-STAGE-08).",
        (
            "stage SS1 {\n"
            "  202a\n"
            "  205a\n"
            "  206a\n"
            "  208a left\n"
            "  204a\n"
            "  207a\n"
            "  201a\n"
            "}\n"
        ),
        "Put the Assistance tile last, after the finish tile.",
    ),
    CodeInfo(
        rc.RC310,
        "A rally is a sequence of special stages (CORE-RALLY-01); this one has none.",
        (
            "rally \"Sunday Sprint\" {\n"
            "  options sisu per-rally\n"
            "}\n"
        ),
        "Add at least one `stage NAME { ... }` block.",
    ),
    CodeInfo(
        rc.RC311,
        "The start line must have a space behind it for the starting cars and the finish line at least one "
        "space beyond it (TRACK-STAGE-07).",
        (
            "# my reading of 202a, with the start line at the tile's edge\n"
            "tileset dirt-core {\n"
            "  tile 202a gravel danger low copies 1 {\n"
            "    road D -> A straight {\n"
            "      start\n"
            "      plain\n"
            "      plain\n"
            "      plain\n"
            "    }\n"
            "  }\n"
            "}\n"
            "\n"
            "stage SS1 {\n"
            "  202a\n"
            "  205a\n"
            "  206a\n"
            "  208a left\n"
            "  204a\n"
            "  203a\n"
            "}\n"
        ),
        "Drive the start/finish tile in its printed direction (remove `reversed`).",
    ),
    CodeInfo(
        rc.RC313,
        "The start or finish tile is driven `reversed`, against its arch: some of its zones then lie after "
        "the Starting Line (or before the finish line), which is rarely what was meant. A start or finish "
        "straight joins the same two edges either way round, so it can always be laid the printed way "
        "(`rallyc import` does so for editor files that show it turned, RC720).",
        (
            "stage SS1 {\n"
            "  202a reversed\n"
            "  205a\n"
            "  206a\n"
            "  208a left\n"
            "  204a\n"
            "  203a\n"
            "}\n"
        ),
        "Remove `reversed` from the start or finish tile.",
    ),
]

CODES.append(CodeInfo(
    rc.RC312,
    "The file defines no stage, rally or circuit (only tilesets or includes), so there is no track to "
    "compile, replay or render. The Python API (`rallyc.load`) reports it with this code; `rallyc compile`, "
    "`stats` and `render` say the same in words.",
    (
        "# my reading of 205a\n"
        "tileset dirt-core {\n"
        "  tile 205a gravel danger low copies 1 {\n"
        "    road D -> A straight {\n"
        "      plain\n"
        "      plain\n"
        "      plain\n"
        "    }\n"
        "  }\n"
        "}\n"
    ),
    "Pass the file that holds the stage, rally or circuit, or add one.",
    example_kind="api",
))
