"""Codes RC230-RC239 (rally areas and stages over them) and RC730-RC739 (importing and exporting them)."""

from __future__ import annotations

from rallyc.codes import CodeInfo
from rallyc.model import codes as rc

_AREA = (
    'area "Col des Mines" {\n'
    "  202a at 0 0 rot 0  # start\n"
    "  205a\n"
    "  206a\n"
    "  415b left road 1  # the Y junction\n"
    "  207a\n"
    "  203a  # finish of the left road\n"
    "  201a\n"
    "  305a at 3 1 rot 1  # the right road\n"
    "  218a left\n"
    "  302a  # finish of the right road\n"
    "}\n"
)


def _with(stages: str, area: str = _AREA) -> str:
    return area + "\n" + stages



_TILES = [
    (0, 0, "202a", 0), (1, 0, "205a", 0), (2, 0, "206a", 0), (3, 0, "415b", 4), (4, -1, "207a", 5),
    (5, -2, "203a", 5), (6, -3, "201a", 5), (3, 1, "305a", 1), (3, 2, "218a", 3), (4, 2, "302a", 0),
]


def _rekee(extra: tuple = ()) -> str:
    """The small area as the Rekee editor writes it (one tile a line here, for reading)."""
    rows = [f'    {{"q": {q}, "r": {r}, "id": "{i}", "dir": {d}}}' for q, r, i, d in _TILES + list(extra)]
    return '{\n  "title": "Col des Mines",\n  "tiles": [\n' + ",\n".join(rows) + "\n  ]\n}\n"


CODES: list[CodeInfo] = [
    CodeInfo(
        rc.RC230,
        "A stage over an area names it by its title (`area \"TITLE\"`); no `area` block of the file, or of the "
        "files it uses, has that title.",
        _with('stage SS1 {\n  area "Col des Mine"\n  junction 415b left\n}\n'),
        "Write the area's title exactly as in its `area` block, or write the area.",
    ),
    CodeInfo(
        rc.RC231,
        "`junction TILE WORD` names a tile of the area, by its id or by its number in the area (1 for its first "
        "tile line), where the area's routes have two ways on (a Y junction or a fork). The tile named is not in "
        "the area, or no route has a choice there.",
        _with('stage SS1 {\n  area "Col des Mines"\n  junction 205a left\n}\n'),
        "Name the junction tile where the stage's road parts from the others (`junction 415b left`).",
    ),
    CodeInfo(
        rc.RC232,
        "The area lays this tile id more than once (an owner of two boxes), so `junction ID` or `from ID` does "
        "not say which one.",
        _with(
            'stage SS1 {\n  area "Col des Mines"\n  from 202a\n  junction 415b left\n}\n',
            _AREA.replace("  302a  # finish of the right road\n",
                          "  302a  # finish of the right road\n  202a at -3 0 rot 0  # a second box's start tile\n")),
        "Name the tile by its number in the area (`from 1`): tiles are numbered 1, 2, ... in the order the "
        "area lists them.",
    ),
    CodeInfo(
        rc.RC233,
        "A stage over an area is the area's route from a start tile to a finish tile that takes the roads its "
        "`junction` lines name. No route does: a junction is named with a way that does not leave it from where "
        "the stage comes (or the area has no start-to-finish route at all).",
        _with('stage SS1 {\n  area "Col des Mines"\n  junction 415b straight\n}\n'),
        "Name a way the junction has from where the stage enters it (the hint lists them).",
    ),
    CodeInfo(
        rc.RC234,
        "More than one start-to-finish route of the area takes the roads the stage names: it must say which road "
        "it takes where they part.",
        _with('stage SS1 {\n  area "Col des Mines"\n}\n'),
        "Add the `junction` line the hint gives (or `from TILE` when the routes start on different tiles).",
    ),
    CodeInfo(
        rc.RC236,
        "A stage over an area drives the area's tiles; its route comes from its `junction` lines, so it cannot "
        "list tiles of its own.",
        _with('stage SS1 {\n  area "Col des Mines"\n  202a\n  junction 415b left\n}\n'),
        "Remove the tile lines (put the tiles in the area), or remove the `area` line to write a stage of its own.",
    ),
    CodeInfo(
        rc.RC237,
        "An area lays each tile once on its own cell; this tile lands where another already lies.",
        _with('stage SS1 {\n  area "Col des Mines"\n  junction 415b left\n}\n',
              _AREA.replace("  302a  # finish of the right road\n",
                            "  302a  # finish of the right road\n  204a at 1 0 rot 0  # on 205a's cell\n")),
        "Move one of the tiles, or remove the line if it is the same tile written twice.",
    ),
    CodeInfo(
        rc.RC238,
        "Some stage runs over the area, but none drives this road tile: it is laid for nothing (or a stage is "
        "missing).",
        _with('stage SS1 {\n  area "Col des Mines"\n  junction 415b left\n}\n'),
        "Add the stage that drives it, or lay the tile as scenery.",
    ),
    CodeInfo(
        rc.RC239,
        "Stages name their area by its title, so two areas cannot share one.",
        _AREA + '\narea "Col des Mines" {\n  202a at 9 9 rot 0\n}\n',
        "Give every area its own title.",
    ),
    CodeInfo(
        rc.RC730,
        "The file's roads part at junction tiles and several routes run from a start tile to a finish tile: "
        "`import` writes the tiles once in an `area` block and one stage over it per route (SS1, SS2, ...), "
        "each with the `junction` lines that single its route out.",
        _rekee(),
        "Rename the stages as your rally runs them and remove those it does not run.",
        example_kind="json",
    ),
    CodeInfo(
        rc.RC731,
        "Some road tile lies on no route from a start tile to a finish tile (it is written in the area and "
        "driven by no stage), a token lies on such a tile (left out), or the junctions make more routes than "
        "the import writes.",
        _rekee(((0, 3, "204a", 0),)),
        "Check the tiles around it (a rotation, a missing tile); drop it or lay it as scenery if no stage "
        "should drive it.",
        example_kind="json",
    ),
]
