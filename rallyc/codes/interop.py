"""RC7xx: reading and writing track files of other tools (Rekee JSON, RGT)."""

from __future__ import annotations

from rallyc.codes import CodeInfo
from rallyc.model import codes as rc

CODES: list[CodeInfo] = [
    CodeInfo(
        rc.RC701,
        "Rekee and RGT track files are JSON text. The file has a JSON syntax error at the line and "
        "column shown (as Python's JSON reader reports it).",
        (
            "{\n"
            "  \"title\": \"Sunday Sprint\",\n"
            "  \"tiles\": [\n"
            "    {\"q\": 0, \"r\": 0, \"id\": \"202a\", \"dir\": 0},\n"
            "    {\"q\": 1, \"r\": 0, \"id\": \"205a\", \"dir\": 0},\n"
            "    {\"q\": 2, \"r\": 0, \"id\": \"206a\", \"dir\": 0},\n"
            "    {\"q\": 3, \"r\": 0, \"id\": \"208a\", \"dir\": 2},\n"
            "    {\"q\": 4, \"r\": -1, \"id\": \"204a\", \"dir\": 5},\n"
            "    {\"q\": 5, \"r\": -2, \"id\": \"203a\", \"dir\": 5},\n"
            "  ]\n"
            "}\n"
        ),
        "Fix the JSON at the position shown (a trailing comma, a missing quote or bracket...).",
        example_kind="json",
    ),
    CodeInfo(
        rc.RC702,
        "The file is JSON but neither a Rekee track (an object with `tiles`) nor an RGT track "
        "(an object with `Tuiles`).",
        (
            "{\n"
            "  \"title\": \"Sunday Sprint\",\n"
            "  \"tile\": [\n"
            "    {\"q\": 0, \"r\": 0, \"id\": \"202a\", \"dir\": 0},\n"
            "    {\"q\": 1, \"r\": 0, \"id\": \"205a\", \"dir\": 0},\n"
            "    {\"q\": 2, \"r\": 0, \"id\": \"206a\", \"dir\": 0},\n"
            "    {\"q\": 3, \"r\": 0, \"id\": \"208a\", \"dir\": 2},\n"
            "    {\"q\": 4, \"r\": -1, \"id\": \"204a\", \"dir\": 5},\n"
            "    {\"q\": 5, \"r\": -2, \"id\": \"203a\", \"dir\": 5}\n"
            "  ]\n"
            "}\n"
        ),
        "Import a file saved by the Rekee editor (.json) or the Rallyman Track Editor (.rgt).",
        example_kind="json",
    ),
    CodeInfo(
        rc.RC703,
        "Every tile needs its cell, rotation and id (Rekee `q`, `r`, `dir`, `id`; RGT `X`, `Y`, "
        "`Orientation`, `TuileId`); every token its id and offset.",
        (
            "{\n"
            "  \"title\": \"Sunday Sprint\",\n"
            "  \"tiles\": [\n"
            "    {\"q\": 0, \"r\": 0, \"id\": \"202a\", \"dir\": 0},\n"
            "    {\"q\": 1, \"r\": 0, \"id\": \"205a\", \"dir\": 0},\n"
            "    {\"q\": 2, \"r\": 0, \"dir\": 0},\n"
            "    {\"q\": 3, \"r\": 0, \"id\": \"208a\", \"dir\": 2},\n"
            "    {\"q\": 4, \"r\": -1, \"id\": \"204a\", \"dir\": 5},\n"
            "    {\"q\": 5, \"r\": -2, \"id\": \"203a\", \"dir\": 5}\n"
            "  ]\n"
            "}\n"
        ),
        "Add the missing key (the message names it and the JSON path of the element).",
        example_kind="json",
    ),
    CodeInfo(
        rc.RC704,
        "Cells and rotations are whole numbers, token offsets numbers, ids strings, `tiles` an array "
        "of objects (or Rekee's array form `[id, q, r, dir, tokens]`).",
        (
            "{\n"
            "  \"title\": \"Sunday Sprint\",\n"
            "  \"tiles\": [\n"
            "    {\"q\": 0, \"r\": 0, \"id\": \"202a\", \"dir\": 0},\n"
            "    {\"q\": 1, \"r\": 0, \"id\": \"205a\", \"dir\": 0},\n"
            "    {\"q\": \"2\", \"r\": 0, \"id\": \"206a\", \"dir\": 0},\n"
            "    {\"q\": 3, \"r\": 0, \"id\": \"208a\", \"dir\": 2},\n"
            "    {\"q\": 4, \"r\": -1, \"id\": \"204a\", \"dir\": 5},\n"
            "    {\"q\": 5, \"r\": -2, \"id\": \"203a\", \"dir\": 5}\n"
            "  ]\n"
            "}\n"
        ),
        "Write the value with the type the message asks for.",
        example_kind="json",
    ),
    CodeInfo(
        rc.RC705,
        "The tile id is not a tile of any tileset in scope. Ids are a three-digit number, a side "
        "a/b and an optional graphical variant (`210b`, `210B-2`); aliases `filler1a`..`filler3b` "
        "and `podium` are accepted.",
        (
            "{\n"
            "  \"title\": \"Sunday Sprint\",\n"
            "  \"tiles\": [\n"
            "    {\"q\": 0, \"r\": 0, \"id\": \"202a\", \"dir\": 0},\n"
            "    {\"q\": 1, \"r\": 0, \"id\": \"205a\", \"dir\": 0},\n"
            "    {\"q\": 2, \"r\": 0, \"id\": \"233a\", \"dir\": 0},\n"
            "    {\"q\": 3, \"r\": 0, \"id\": \"208a\", \"dir\": 2},\n"
            "    {\"q\": 4, \"r\": -1, \"id\": \"204a\", \"dir\": 5},\n"
            "    {\"q\": 5, \"r\": -2, \"id\": \"203a\", \"dir\": 5}\n"
            "  ]\n"
            "}\n"
        ),
        "Correct the id, or define the tile in a tileset of your project.",
        example_kind="json",
    ),
    CodeInfo(
        rc.RC706,
        "The token id is not one rallyc knows: Rekee `chicane`, `chicane-limit`, `water`, `jump` "
        "(optionally `-asphalt`/`-gravel`/`-snow`), `climb-ascent`, `climb-descent`, `cloud`, "
        "`oxygen-1`..`oxygen-3`, `mud-spray`, `joker-entrance`, `joker-exit`, `finish`; RGT codes "
        "`dirt1`..`dirt4` (and asphalt/ice prints), `climbm1`, `climbp1`, `climbw`, `climbr1`..`climbr3`, "
        "`greendoor`, `reddoor`, `whitedoor`.",
        (
            "{\n"
            "  \"title\": \"Sunday Sprint\",\n"
            "  \"tiles\": [\n"
            "    {\"q\": 0, \"r\": 0, \"id\": \"202a\", \"dir\": 0},\n"
            "    {\"q\": 1, \"r\": 0, \"id\": \"205a\", \"dir\": 0},\n"
            "    {\"q\": 2, \"r\": 0, \"id\": \"206a\", \"dir\": 0, \"tokens\": [{\"id\": \"hay-bale\", \"q\": -0.125, \"r\": 0.0, \"dir\": 0.0}]},\n"
            "    {\"q\": 3, \"r\": 0, \"id\": \"208a\", \"dir\": 2},\n"
            "    {\"q\": 4, \"r\": -1, \"id\": \"204a\", \"dir\": 5},\n"
            "    {\"q\": 5, \"r\": -2, \"id\": \"203a\", \"dir\": 5}\n"
            "  ]\n"
            "}\n"
        ),
        "Use one of the token ids listed.",
        example_kind="json",
    ),
    CodeInfo(
        rc.RC707,
        "A token lies off every road of its tile (or its tile is scenery or unknown), so there is no "
        "space it could be given to.",
        (
            "{\n"
            "  \"title\": \"Sunday Sprint\",\n"
            "  \"tiles\": [\n"
            "    {\"q\": 0, \"r\": 0, \"id\": \"202a\", \"dir\": 0},\n"
            "    {\"q\": 1, \"r\": 0, \"id\": \"205a\", \"dir\": 0},\n"
            "    {\"q\": 2, \"r\": 0, \"id\": \"206a\", \"dir\": 0},\n"
            "    {\"q\": 3, \"r\": 0, \"id\": \"208a\", \"dir\": 2},\n"
            "    {\"q\": 4, \"r\": -1, \"id\": \"204a\", \"dir\": 5},\n"
            "    {\"q\": 5, \"r\": -2, \"id\": \"203a\", \"dir\": 5},\n"
            "    {\"q\": 2, \"r\": 1, \"id\": \"902a\", \"dir\": 0, \"tokens\": [{\"id\": \"water-gravel\", \"q\": 0.0, \"r\": 0.0, \"dir\": 0.0}]}\n"
            "  ]\n"
            "}\n"
        ),
        "Move the token onto the road in the editor, or remove it.",
        example_kind="json",
    ),
    CodeInfo(
        rc.RC708,
        "Two tiles of the file are on one cell. As in the Rekee editor, the later one is kept.",
        (
            "{\n"
            "  \"title\": \"Sunday Sprint\",\n"
            "  \"tiles\": [\n"
            "    {\"q\": 0, \"r\": 0, \"id\": \"202a\", \"dir\": 0},\n"
            "    {\"q\": 1, \"r\": 0, \"id\": \"205a\", \"dir\": 0},\n"
            "    {\"q\": 2, \"r\": 0, \"id\": \"206a\", \"dir\": 0},\n"
            "    {\"q\": 2, \"r\": 0, \"id\": \"207a\", \"dir\": 0},\n"
            "    {\"q\": 3, \"r\": 0, \"id\": \"208a\", \"dir\": 2},\n"
            "    {\"q\": 4, \"r\": -1, \"id\": \"204a\", \"dir\": 5},\n"
            "    {\"q\": 5, \"r\": -2, \"id\": \"203a\", \"dir\": 5}\n"
            "  ]\n"
            "}\n"
        ),
        "Remove the tile that is not meant to be there.",
        example_kind="json",
    ),
    CodeInfo(
        rc.RC709,
        "Road-effect tokens come with an asphalt, gravel or snow print. rallyc does not record the "
        "print: export writes the print of the tile's surface. A token whose print differs from its "
        "tile's surface will come back with the tile's print.",
        (
            "{\n"
            "  \"title\": \"Sunday Sprint\",\n"
            "  \"tiles\": [\n"
            "    {\"q\": 0, \"r\": 0, \"id\": \"202a\", \"dir\": 0},\n"
            "    {\"q\": 1, \"r\": 0, \"id\": \"205a\", \"dir\": 0},\n"
            "    {\"q\": 2, \"r\": 0, \"id\": \"206a\", \"dir\": 0, \"tokens\": [{\"id\": \"water-snow\", \"q\": -0.125, \"r\": 0.0, \"dir\": 0.0}]},\n"
            "    {\"q\": 3, \"r\": 0, \"id\": \"208a\", \"dir\": 2},\n"
            "    {\"q\": 4, \"r\": -1, \"id\": \"204a\", \"dir\": 5},\n"
            "    {\"q\": 5, \"r\": -2, \"id\": \"203a\", \"dir\": 5}\n"
            "  ]\n"
            "}\n"
        ),
        "Nothing to do if the print does not matter to you.",
        example_kind="json",
    ),
    CodeInfo(
        rc.RC710,
        "The importer writes a stage as a route (tiles in driving order with turn words) when the "
        "tiles chain from a start tile to a finish tile, or around a closed circuit. Otherwise every "
        "tile is written with its cell and rotation (`TILE at Q R rot N`), in the file's order.",
        (
            "{\n"
            "  \"title\": \"Sunday Sprint\",\n"
            "  \"tiles\": [\n"
            "    {\"q\": 1, \"r\": 0, \"id\": \"205a\", \"dir\": 0},\n"
            "    {\"q\": 2, \"r\": 0, \"id\": \"206a\", \"dir\": 0},\n"
            "    {\"q\": 3, \"r\": 0, \"id\": \"208a\", \"dir\": 2},\n"
            "    {\"q\": 4, \"r\": -1, \"id\": \"204a\", \"dir\": 5},\n"
            "    {\"q\": 5, \"r\": -2, \"id\": \"203a\", \"dir\": 5}\n"
            "  ]\n"
            "}\n"
        ),
        "Nothing to do; `rallyc check` says what keeps the stage from being a route.",
        example_kind="json",
    ),
    CodeInfo(
        rc.RC711,
        "Hay-bale tokens exist in neither format; the mud-spray token has no RGT code. They are "
        "left out of the exported file.",
        (
            "stage SS1 {\n"
            "  202a\n"
            "  205a\n"
            "  206a\n"
            "  208a left\n"
            "  204a\n"
            "  203a\n"
            "  token haybale at 3.2.l\n"
            "}\n"
        ),
        "Add the item by hand in the editor after importing the file there.",
        example_kind="export",
    ),
    CodeInfo(
        rc.RC712,
        "The file has no compiled design (or no stage of the name given with --stage), so there is "
        "nothing to write.",
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
        "Export a file that has a stage, rally or circuit; pick the stage with --stage NAME.",
        example_kind="export",
    ),
    CodeInfo(
        rc.RC713,
        "The track file was read but holds no tile.",
        (
            "{\n"
            "  \"title\": \"Sunday Sprint\",\n"
            "  \"tiles\": []\n"
            "}\n"
        ),
        "Nothing to import: add tiles in the editor.",
        example_kind="json",
    ),
    CodeInfo(
        rc.RC714,
        "The output file could not be written (folder missing, no permission...). Nothing was changed.",
        (
            "{\n"
            "  \"title\": \"Sunday Sprint\",\n"
            "  \"tiles\": [\n"
            "    {\"q\": 0, \"r\": 0, \"id\": \"202a\", \"dir\": 0},\n"
            "    {\"q\": 1, \"r\": 0, \"id\": \"205a\", \"dir\": 0},\n"
            "    {\"q\": 2, \"r\": 0, \"id\": \"206a\", \"dir\": 0},\n"
            "    {\"q\": 3, \"r\": 0, \"id\": \"208a\", \"dir\": 2},\n"
            "    {\"q\": 4, \"r\": -1, \"id\": \"204a\", \"dir\": 5},\n"
            "    {\"q\": 5, \"r\": -2, \"id\": \"203a\", \"dir\": 5}\n"
            "  ]\n"
            "}\n"
        ),
        "Check the output path.",
        example_kind="json",
        command="rallyc import track.json -o no-such-folder/sunday-sprint.rally",
    ),
    CodeInfo(
        rc.RC715,
        "Rekee and RGT jump tokens carry no gear, and their chicane-with-limit token no number "
        "(rallyc reads them as jump 4 and limit 2, assumptions). A `jump 5` or `chicane limit 3` "
        "token is exported as the plain token and reads back as `jump 4` / `chicane limit 2`.",
        (
            "stage SS1 {\n"
            "  202a\n"
            "  205a\n"
            "  206a\n"
            "  208a left\n"
            "  204a\n"
            "  203a\n"
            "  token jump 5 at 3.2\n"
            "}\n"
        ),
        "Nothing to do if the value can be set again after import.",
        example_kind="export",
    ),
    CodeInfo(
        rc.RC716,
        "Rekee and RGT files carry no gear on jump tokens, no number on chicane-with-limit tokens and "
        "no lap count. The importer writes `token jump 4`, `token chicane limit 2` and `laps 2` (the "
        "RX minimum, TRACK-RX-09): assumptions to check against the real tokens and race.",
        (
            "{\n"
            "  \"title\": \"Sunday Sprint\",\n"
            "  \"tiles\": [\n"
            "    {\"q\": 0, \"r\": 0, \"id\": \"202a\", \"dir\": 0},\n"
            "    {\"q\": 1, \"r\": 0, \"id\": \"205a\", \"dir\": 0},\n"
            "    {\"q\": 2, \"r\": 0, \"id\": \"206a\", \"dir\": 0, \"tokens\": [{\"id\": \"jump-gravel\", \"q\": -0.125, \"r\": 0.0, \"dir\": 0.0}]},\n"
            "    {\"q\": 3, \"r\": 0, \"id\": \"208a\", \"dir\": 2},\n"
            "    {\"q\": 4, \"r\": -1, \"id\": \"204a\", \"dir\": 5},\n"
            "    {\"q\": 5, \"r\": -2, \"id\": \"203a\", \"dir\": 5}\n"
            "  ]\n"
            "}\n"
        ),
        "Correct the value in the imported file if the token or race says otherwise.",
        example_kind="json",
    ),
    CodeInfo(
        rc.RC717,
        "A tile or token of the track file lies more than 100,000 cells from 0 0 (rallyc text refuses such "
        "cells too, RC211). No editor writes that: the file is damaged or was edited by hand.",
        (
            "{\n"
            "  \"title\": \"Sunday Sprint\",\n"
            "  \"tiles\": [\n"
            "    {\"q\": 0, \"r\": 0, \"id\": \"202a\", \"dir\": 0},\n"
            "    {\"q\": 100000000000000, \"r\": 0, \"id\": \"205a\", \"dir\": 0}\n"
            "  ]\n"
            "}\n"
        ),
        "Open the file in its editor and save it again, or correct the coordinate.",
        example_kind="json",
    ),
    CodeInfo(
        rc.RC718,
        "The file holds a Rekee tile list (`tiles`) and an RGT one (`Tuiles`). The one holding tiles is read "
        "and the warning names it; when both hold tiles the track cannot be told and the file is refused "
        "(an error with the same code).",
        (
            "{\n"
            "  \"title\": \"Sunday Sprint\",\n"
            "  \"Tuiles\": [],\n"
            "  \"tiles\": [\n"
            "    {\"q\": 0, \"r\": 0, \"id\": \"202a\", \"dir\": 0},\n"
            "    {\"q\": 1, \"r\": 0, \"id\": \"205a\", \"dir\": 0},\n"
            "    {\"q\": 2, \"r\": 0, \"id\": \"206a\", \"dir\": 0},\n"
            "    {\"q\": 3, \"r\": 0, \"id\": \"208a\", \"dir\": 2},\n"
            "    {\"q\": 4, \"r\": -1, \"id\": \"204a\", \"dir\": 5},\n"
            "    {\"q\": 5, \"r\": -2, \"id\": \"203a\", \"dir\": 5}\n"
            "  ]\n"
            "}\n"
        ),
        "Keep one of the two lists (save the track again from its editor).",
        example_kind="json",
    ),
    CodeInfo(
        rc.RC719,
        "A title or author holds characters no rallyc text may hold (control characters such as U+0000, "
        "the noncharacters U+FFFE and U+FFFF). They are left out of the written file, which `check` would "
        "otherwise refuse (RC102) and whose maps would not be well-formed XML.",
        (
            "{\n"
            "  \"title\": \"Sunday\\u0000 Sprint\",\n"
            "  \"tiles\": [\n"
            "    {\"q\": 0, \"r\": 0, \"id\": \"202a\", \"dir\": 0},\n"
            "    {\"q\": 1, \"r\": 0, \"id\": \"205a\", \"dir\": 0},\n"
            "    {\"q\": 2, \"r\": 0, \"id\": \"206a\", \"dir\": 0},\n"
            "    {\"q\": 3, \"r\": 0, \"id\": \"208a\", \"dir\": 2},\n"
            "    {\"q\": 4, \"r\": -1, \"id\": \"204a\", \"dir\": 5},\n"
            "    {\"q\": 5, \"r\": -2, \"id\": \"203a\", \"dir\": 5}\n"
            "  ]\n"
            "}\n"
        ),
        "Check the title and author in the written file.",
        example_kind="json",
    ),
    CodeInfo(
        rc.RC720,
        "The file lays a start or finish straight turned 180 degrees, so the route drives it from its printed "
        "exit (published layouts often show it so). Written `reversed`, two or three of its zones would lie "
        "after the Starting Line; a straight joins the same two edges either way round, so it is written "
        "the printed way round instead (rotation turned by 3), and this warning says so.",
        (
            "{\n"
            "  \"title\": \"Sunday Sprint\",\n"
            "  \"tiles\": [\n"
            "    {\"q\": 0, \"r\": 0, \"id\": \"202a\", \"dir\": 3},\n"
            "    {\"q\": 1, \"r\": 0, \"id\": \"205a\", \"dir\": 0},\n"
            "    {\"q\": 2, \"r\": 0, \"id\": \"206a\", \"dir\": 0},\n"
            "    {\"q\": 3, \"r\": 0, \"id\": \"208a\", \"dir\": 2},\n"
            "    {\"q\": 4, \"r\": -1, \"id\": \"204a\", \"dir\": 5},\n"
            "    {\"q\": 5, \"r\": -2, \"id\": \"203a\", \"dir\": 5}\n"
            "  ]\n"
            "}\n"
        ),
        "Nothing to do if the arch stands at the right end on the table.",
        example_kind="json",
    ),
    CodeInfo(
        rc.RC740,
        "The RX circuit file has no finish-line standee or no Joker arch (editor files often have none), "
        "so `rallyc import` sets it as the RX rulebook's setup does: the Joker's entrance and exit arches "
        "at the entry lines of the fork tiles where the Joker leaves and rejoins the loop (TRACK-RX-07, "
        "-08); the finish line on the first line the race crosses after the fork where the Pre-grid joins "
        "the loop, off corners and outside the Joker (TRACK-RX-02, -04..-06). Each inferred standee gets "
        "this warning, saying where and why.",
        (
            "{\n"
            "  \"title\": \"Club RX\",\n"
            "  \"tiles\": [\n"
            "    {\"q\": -3, \"r\": 2, \"id\": \"207A\", \"dir\": 5},\n"
            "    {\"q\": -2, \"r\": 1, \"id\": \"208B\", \"dir\": 5},\n"
            "    {\"q\": -3, \"r\": 4, \"id\": \"209A\", \"dir\": 2},\n"
            "    {\"q\": -1, \"r\": 1, \"id\": \"216B\", \"dir\": 1},\n"
            "    {\"q\": -1, \"r\": 2, \"id\": \"226B\", \"dir\": 5},\n"
            "    {\"q\": -1, \"r\": 0, \"id\": \"229B\", \"dir\": 4},\n"
            "    {\"q\": -3, \"r\": 3, \"id\": \"307A\", \"dir\": 0},\n"
            "    {\"q\": 0, \"r\": -1, \"id\": \"315A\", \"dir\": 5},\n"
            "    {\"q\": -4, \"r\": 4, \"id\": \"316A\", \"dir\": 3},\n"
            "    {\"q\": 0, \"r\": 2, \"id\": \"401A\", \"dir\": 4},\n"
            "    {\"q\": -2, \"r\": 3, \"id\": \"404B\", \"dir\": 2},\n"
            "    {\"q\": 0, \"r\": 1, \"id\": \"405A\", \"dir\": 1},\n"
            "    {\"q\": -4, \"r\": 3, \"id\": \"408A\", \"dir\": 2},\n"
            "    {\"q\": 0, \"r\": 0, \"id\": \"411A\", \"dir\": 1}\n"
            "  ]\n"
            "}\n"
        ),
        "Check the standees against the circuit; move one in the written file if it stands elsewhere.",
        example_kind="json",
    ),
    CodeInfo(
        rc.RC741,
        "A standee the RX circuit file lacks cannot be inferred: without a Pre-grid nothing tells where the "
        "start/finish line stands (any straight line of the loop could carry it, TRACK-RX-02), or no line "
        "within 3 tiles after the Pre-grid is off corners and outside the Joker. The file is written "
        "without it, and `rallyc check` on it reports the missing standee (RC403).",
        (
            "{\n"
            "  \"title\": \"Club RX\",\n"
            "  \"tiles\": [\n"
            "    {\"q\": -3, \"r\": 2, \"id\": \"207A\", \"dir\": 5},\n"
            "    {\"q\": -2, \"r\": 1, \"id\": \"208B\", \"dir\": 5},\n"
            "    {\"q\": -3, \"r\": 4, \"id\": \"209A\", \"dir\": 2},\n"
            "    {\"q\": -1, \"r\": 1, \"id\": \"216B\", \"dir\": 1},\n"
            "    {\"q\": -1, \"r\": 2, \"id\": \"226B\", \"dir\": 5},\n"
            "    {\"q\": -1, \"r\": 0, \"id\": \"229B\", \"dir\": 4},\n"
            "    {\"q\": -3, \"r\": 3, \"id\": \"307A\", \"dir\": 0},\n"
            "    {\"q\": 0, \"r\": -1, \"id\": \"315A\", \"dir\": 5},\n"
            "    {\"q\": -4, \"r\": 4, \"id\": \"316A\", \"dir\": 3},\n"
            "    {\"q\": -2, \"r\": 3, \"id\": \"404B\", \"dir\": 2},\n"
            "    {\"q\": 0, \"r\": 1, \"id\": \"405A\", \"dir\": 1},\n"
            "    {\"q\": -4, \"r\": 3, \"id\": \"408A\", \"dir\": 2},\n"
            "    {\"q\": 0, \"r\": 0, \"id\": \"411A\", \"dir\": 1}\n"
            "  ]\n"
            "}\n"
        ),
        "Add `standee finish at STEP.ZONE` to the written file, or the arch in the editor and import again.",
        example_kind="json",
    ),
]
