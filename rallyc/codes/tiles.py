"""Codes RC15x: tile definitions written by the user (rallyc/checks/tiles.py)."""

from __future__ import annotations

from rallyc.codes import CodeInfo
from rallyc.model import codes as rc


def _tile(body: str, header: str = "tile 217a gravel danger low copies 1") -> str:
    """An example: the user's own correction of a core-box tile, next to a short stage."""
    return (
        "# my correction of a core-box tile\n"
        "tileset dirt-core {\n"
        f"  {header} {{\n"
        + "".join(f"    {line}\n" for line in body.splitlines())
        + "  }\n"
        "}\n"
        "\n"
        "stage S {\n"
        "  202a\n"
        "  206a\n"
        "  208a left\n"
        "  204a\n"
        "  203a\n"
        "}\n"
    )


CODES: list[CodeInfo] = [
    CodeInfo(
        rc.RC150,
        "A shortcut joins a zone of the road to a later zone of the same road (`shortcut 3 from 1 to 3`, "
        "zones counted from the road's entry edge; lines are not zones). This one names a zone the road "
        "does not have, or runs backwards.",
        _tile("road B -> D left60 {\n  slide\n  corner inside 2 outside 3 3 3\n  slide\n"
              "  shortcut 3 from 3 to 1\n}"),
        "Count the zones from the entry edge and write the earlier zone first: `shortcut 3 from 1 to 3`.",
    ),
    CodeInfo(
        rc.RC151,
        "Speed limits, shortcut limits, limit lines and jumps are gears, 1 to 6. Any other number can "
        "never be met (or always is) and is a typing mistake.",
        _tile("road B -> D left60 {\n  slide\n  corner inside 2 outside 3 3 33\n  slide\n}"),
        "Write the number printed on the tile.",
    ),
    CodeInfo(
        rc.RC152,
        "`plain limit a b` gives one limit per lane, left to right as driven from the road's entry "
        "(`-` for a lane without a limit), or one limit for every lane. The count matches neither.",
        _tile("road D -> A straight {\n  plain\n  plain limit 3 3 3\n  plain\n}",
              "tile 205a gravel danger low copies 1"),
        "Give one limit per lane, or a single limit for all lanes.",
    ),
    CodeInfo(
        rc.RC153,
        "A road goes from one edge of the hex to another (or to `end`, a dead end such as the Assistance "
        "area). Entry and exit are the same edge here.",
        _tile("road D -> D straight {\n  plain\n  plain\n  plain\n}",
              "tile 205a gravel danger low copies 1"),
        "Write the edge where the road leaves the tile (A top, then clockwise), or `-> end`.",
    ),
    CodeInfo(
        rc.RC154,
        "A road lists its zones from the entry edge to the exit edge; a road with none has no space for "
        "a car. (The Assistance area is one `service` zone.)",
        _tile("road D -> A straight {\n  start\n}", "tile 205a gravel danger low copies 1")
        ,
        "List the zones: `plain`, `slide`, `corner inside .. outside ..`, `wide` ...",
    ),
    CodeInfo(
        rc.RC155,
        "Roads have 1 to 4 lanes where they meet a tile edge (2 on DIRT tiles, 3 on some RX and GT "
        "tiles, 4 on some GT tiles).",
        _tile("road D -> A straight lanes 5 {\n  plain\n  plain\n  plain\n}",
              "tile 205a gravel danger low copies 1"),
        "Write the number of lanes of the printed road.",
    ),
    CodeInfo(
        rc.RC156,
        "A tile has at most one road between two edges; a second one (either way round) is a copy.",
        _tile("road D -> A straight {\n  plain\n}\nroad A -> D straight {\n  plain\n}",
              "tile 205a gravel danger low copies 1"),
        "Describe each road once; it can be driven both ways.",
    ),
    CodeInfo(
        rc.RC157,
        "The turn written on a road (`straight`, `left60`, `right120`, `s-bend` ...) must be the one its "
        "edges make when driven from the entry to the exit: from D, B is right60 and F is left60.",
        _tile("road B -> D right60 {\n  slide\n  corner inside 2 outside 3 3 3\n  slide\n}"),
        "Write the turn the edges make, or leave it out: rallyc works it out from the edges.",
    ),
]
