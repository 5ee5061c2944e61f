"""Diagnostic codes as symbols, each declared once: code, severity, summary, the rule IDs it enforces, and
whether it stops compilation.

Checks report ``Diagnostic.of(rc.RC301, message, span, hint)``; ``rallyc explain`` (:mod:`rallyc.codes`,
which holds each code's explanation, example and fix), the docs and SARIF rules read the same symbol.
Ranges: RC0xx reading files; RC1xx syntax, includes and names; RC2xx geometry; RC3xx route; RC4xx RX
circuits; RC5xx inventory; RC6xx tokens; RC7xx import and export. A code is a ``str`` (``"RC301"``),
so it compares, sorts and prints as its text.
"""

from __future__ import annotations

from enum import Enum
from typing import Callable, Iterable

__all__ = ["Severity", "Code", "CODES", "STOPPING", "code_of", "stops_compilation"]


class Severity(str, Enum):
    """How bad a diagnostic is. Errors make ``rallyc check`` exit 1."""

    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"


class Code(str):
    """A diagnostic code: its text (``RC301``) with what is declared about it."""

    severity: Severity
    #: what the code means, in a few words (``rallyc explain`` and SARIF rule names)
    summary: str
    rules: tuple[str, ...]
    #: the file could not be read as rallyc text: nothing is compiled or checked after it
    stops: bool

    def __new__(cls, code: str, severity: Severity, summary: str, rules: tuple[str, ...] = (),
                stops: bool = False) -> Code:
        self = super().__new__(cls, code)
        self.severity = severity
        self.summary = summary
        self.rules = rules
        self.stops = stops
        return self

    def __reduce__(self) -> tuple[Callable[[str], Code], tuple[str]]:
        """Pickled as its text: unpickling gives the declared symbol back (the check results cache)."""
        return (code_of, (str(self),))


E, W, N = Severity.ERROR, Severity.WARNING, Severity.NOTE

# reading files, syntax, includes and names
RC001 = Code("RC001", E, "cannot read a file", stops=True)
RC100 = Code("RC100", E, "internal error")
RC101 = Code("RC101", E, "file too large", stops=True)
RC102 = Code("RC102", E, "not a text file", stops=True)
RC103 = Code("RC103", E, "blocks nested too deep", stops=True)
RC104 = Code("RC104", E, "unexpected character")
RC105 = Code("RC105", E, "quoted text not closed")
RC106 = Code("RC106", E, "file ends in the middle of a statement")
RC107 = Code("RC107", E, "unexpected word")
RC108 = Code("RC108", E, "fmt would change the file's meaning")
RC110 = Code("RC110", E, "included file not found")
RC111 = Code("RC111", E, "include outside the project folder")
RC112 = Code("RC112", E, "include loop")
RC113 = Code("RC113", E, "unknown tileset")
RC114 = Code("RC114", E, "number too long")
RC115 = Code("RC115", E, "empty file")
RC116 = Code("RC116", E, "includes nested too deep")
RC117 = Code("RC117", E, "lines end with CR alone", stops=True)
RC118 = Code("RC118", E, "not a regular file")
RC119 = Code("RC119", W, "a link out of the checked folder")
RC120 = Code("RC120", E, "duplicate stage name", ("CORE-RALLY-01",))
RC121 = Code("RC121", E, "duplicate tileset name")
RC122 = Code("RC122", E, "tile defined twice in a tileset")
RC130 = Code("RC130", E, "unknown tile", ("CUSTOM-17",))
RC131 = Code("RC131", E, "malformed tile id")
RC140 = Code("RC140", E, "unknown box")
RC141 = Code("RC141", E, "unknown option",
             ("CORE-ADV-01", "CORE-ADV-07", "CORE-ADV-09", "CORE-ADV-11", "CORE-ADV-16", "MC-HANDBRAKE-01",
              "MC-WEATHER-01", "RX-WEATHER-01", "RX-ADV-01", "IMPROV-01", "CUSTOM-23"))
RC142 = Code("RC142", E, "option given twice")
RC143 = Code("RC143", E, "bad option value", ("CORE-ADV-15", "RX-WEATHER-01", "CUSTOM-05", "CUSTOM-06"))
RC144 = Code("RC144", E, "laps given twice", ("TRACK-RX-09", "CUSTOM-02"))
RC145 = Code("RC145", W, "box listed twice")

# tile definitions
RC150 = Code("RC150", E, "shortcut between zones that are not there", ("CORE-SHORTCUT-03", "TRACK-TILE-02"))
RC151 = Code("RC151", E, "a limit or jump that is not a gear", ("CORE-CORNER-06", "CORE-JUMP-01"))
RC152 = Code("RC152", E, "wrong number of per-lane limits", ("CORE-CORNER-09",))
RC153 = Code("RC153", E, "a road that leaves by the edge it enters", ("TRACK-TILE-02",))
RC154 = Code("RC154", E, "a road with no zones", ("TRACK-TILE-02",))
RC155 = Code("RC155", E, "a lane count no road has", ("TRACK-TILE-03",))
RC156 = Code("RC156", E, "two roads between the same edges", ("TRACK-TILE-02",))
RC157 = Code("RC157", E, "a turn the edges do not make", ("TRACK-TILE-02",))

# geometry (placement on the grid)
RC201 = Code("RC201", E, "which way is this tile driven?", ("TRACK-TILE-01",))
RC202 = Code("RC202", E, "the tile cannot be driven as the words say", ("TRACK-TILE-01",))
RC203 = Code("RC203", E, "which road of the tile?", ("TRACK-TILE-01", "RX-FORK-01"))
RC204 = Code("RC204", E, "no road enters from the previous tile", ("TRACK-TILE-02",))
RC205 = Code("RC205", E, "the tile is not where the route leads", ("TRACK-TILE-02",))
RC206 = Code("RC206", E, "two tiles on one cell", ("TRACK-TILE-06", "MC-BRIDGE-01"))
RC207 = Code("RC207", E, "the road runs into a tile without road", ("TRACK-TILE-02",))
RC208 = Code("RC208", E, "lane counts do not agree at a join", ("TRACK-TILE-03",))
RC210 = Code("RC210", E, "rotation out of range", ("TRACK-TILE-01",))
RC211 = Code("RC211", E, "cell too far out", ("TRACK-TILE-01",))

# rally areas and junction stages
RC230 = Code("RC230", E, "no area of that title", ("TRACK-STAGE-07",))
RC231 = Code("RC231", E, "no such junction in the area", ("TRACK-STAGE-07", "RX-FORK-01"))
RC232 = Code("RC232", E, "a tile laid twice in the area is named by its id", ("TRACK-TILE-06",))
RC233 = Code("RC233", E, "no route of the area takes these roads", ("TRACK-STAGE-07",))
RC234 = Code("RC234", E, "the stage could take several routes", ("TRACK-STAGE-07",))
RC236 = Code("RC236", E, "a stage over an area lists tiles", ("TRACK-STAGE-07",))
RC237 = Code("RC237", E, "two tiles of an area on one cell", ("TRACK-TILE-06",))
RC238 = Code("RC238", W, "an area tile no stage drives", ("TRACK-TILE-06",))
RC239 = Code("RC239", E, "an area written twice", ("TRACK-STAGE-07",))
RC730 = Code("RC730", N, "the file is a rally area: written as an area and one stage per route")
RC731 = Code("RC731", W, "a tile or token the import could not put on a stage")

# a stage's route
RC301 = Code("RC301", E, "no start line", ("TRACK-STAGE-07", "CORE-START-03"))
RC302 = Code("RC302", E, "more than one start line", ("TRACK-STAGE-07",))
RC303 = Code("RC303", E, "no finish line", ("TRACK-STAGE-07", "CORE-STAGEEND-01"))
RC304 = Code("RC304", E, "more than one finish line", ("TRACK-STAGE-07",))
RC305 = Code("RC305", E, "the finish cannot be reached from the start", ("TRACK-STAGE-07", "CORE-MOVE-04"))
RC306 = Code("RC306", W, "spaces no car can reach", ("CORE-MOVE-03", "CORE-MOVE-04"))
RC307 = Code("RC307", E, "the road ends before the route does", ("TRACK-STAGE-08",))
RC308 = Code("RC308", W, "stage length far from the guidelines",
             ("TRACK-STAGE-01", "TRACK-STAGE-02", "TRACK-STAGE-03"))
RC309 = Code("RC309", E, "Assistance tile misplaced", ("TRACK-STAGE-08",))
RC310 = Code("RC310", E, "rally with no stages", ("CORE-RALLY-01",))
RC311 = Code("RC311", E, "no space behind the start line or beyond the finish line", ("TRACK-STAGE-07",))
RC312 = Code("RC312", E, "nothing to compile")
RC313 = Code("RC313", W, "a start or finish tile driven reversed", ("TRACK-STAGE-07",))

# RX circuits
RC401 = Code("RC401", E, "circuit not closed", ("TRACK-RX-01",))
RC402 = Code("RC402", E, "fewer than 2 laps", ("TRACK-RX-09",))
RC403 = Code("RC403", E, "finish-line standee missing or doubled", ("TRACK-RX-04",))
RC404 = Code("RC404", E, "finish-line standee on a corner", ("TRACK-RX-05",))
RC405 = Code("RC405", E, "finish-line standee inside the Joker stretch", ("TRACK-RX-06",))
RC406 = Code("RC406", E, "Joker entry or exit missing", ("TRACK-RX-07",))
RC407 = Code("RC407", E, "standee on a zone that does not exist", ("TRACK-RX-04",))
RC408 = Code("RC408", E, "Pre-grid not joined through a fork", ("TRACK-RX-03", "TRACK-RX-08"))
RC409 = Code("RC409", E, "Pre-grid too far from the start line", ("TRACK-RX-02",))

# inventory (boxes and copies)
RC501 = Code("RC501", E, "both sides of one physical tile", ("TRACK-TILE-06",))
RC502 = Code("RC502", E, "more copies than the declared boxes hold", ("TRACK-TILE-06",))
RC503 = Code("RC503", E, "tile from a box not declared", ("TRACK-TILE-06",))

# road-effect tokens
RC601 = Code("RC601", E, "token on a space that does not exist", ("TRACK-TOKEN-01",))
RC602 = Code("RC602", E, "road-effect token on a printed road effect", ("TRACK-TOKEN-01",))
RC603 = Code("RC603", E, "two road-effect tokens on one space", ("TRACK-TOKEN-01",))
RC604 = Code("RC604", W, "chicane tokens come in groups with a limit", ("TRACK-TOKEN-03",))
RC605 = Code("RC605", E, "token needs a value", ("TRACK-TOKEN-01", "CORE-JUMP-01"))
RC606 = Code("RC606", E, "token value out of range", ("TRACK-TOKEN-01", "CORE-JUMP-01"))

# import and export
RC701 = Code("RC701", E, "the track file is not valid JSON")
RC702 = Code("RC702", E, "not a track file of a known format")
RC703 = Code("RC703", E, "a required key is missing")
RC704 = Code("RC704", E, "a value has the wrong type")
RC705 = Code("RC705", E, "unknown tile id")
RC706 = Code("RC706", E, "unknown token id")
RC707 = Code("RC707", E, "a token cannot be placed on a space", ("TRACK-TOKEN-01",))
RC708 = Code("RC708", W, "a later tile replaces an earlier one on the same cell")
RC709 = Code("RC709", W, "a token's print is not kept")
RC710 = Code("RC710", N, "the tiles do not form a route: written in the absolute form")
RC711 = Code("RC711", W, "a token or standee has no equivalent in the target format")
RC712 = Code("RC712", E, "nothing to export")
RC713 = Code("RC713", W, "the file has no tiles")
RC714 = Code("RC714", E, "cannot write the output file")
RC715 = Code("RC715", W, "a token's value is not kept by the target format")
RC716 = Code("RC716", W, "a value the file does not carry was assumed", ("TRACK-RX-09",))
RC717 = Code("RC717", E, "a coordinate too far out")
RC718 = Code("RC718", W, "both `tiles` and `Tuiles` in one file")
RC719 = Code("RC719", W, "characters left out of a title")
RC720 = Code("RC720", W, "a start or finish tile laid against its arch")
RC740 = Code("RC740", W, "a standee the file does not have was inferred", ("TRACK-RX-02", "TRACK-RX-04",
                                                                           "TRACK-RX-07"))
RC741 = Code("RC741", W, "a standee the file does not have cannot be inferred", ("TRACK-RX-02", "TRACK-RX-04"))

# options a design switches on
RC160 = Code("RC160", W, "option not refereed", ("IMPROV-01", "RX-ADV-01", "CUSTOM-23"))
RC161 = Code("RC161", W, "option not played by this kind of design", ("RX-ADV-01", "CORE-ADV-11"))
RC162 = Code("RC162", W, "a custom race the referee cannot play", ("CUSTOM-04", "CUSTOM-15",
                                                                    "CUSTOM-19"))

#: every code by its text, sorted
CODES: dict[str, Code] = dict(sorted((str(v), v) for v in list(globals().values()) if isinstance(v, Code)))


def code_of(text: str) -> Code:
    """The declared symbol of a code's text (KeyError if none is declared)."""
    return CODES[text]


#: the codes that stop compilation: the file could not be read as rallyc text, nothing else is reported
STOPPING: frozenset[str] = frozenset(c for c in CODES.values() if c.stops)


def stops_compilation(codes: Iterable[str]) -> bool:
    """True when one of these codes stops compilation (the file could not be read as rallyc text)."""
    return any(c in STOPPING for c in codes)
