"""Codes RC4xx: RX circuits."""

from __future__ import annotations

from rallyc.codes import CodeInfo
from rallyc.model import codes as rc

CODES: list[CodeInfo] = [
    CodeInfo(
        rc.RC401,
        "An RX circuit is a closed loop (TRACK-RX-01): the road of its last tile must lead back into its first.",
        (
            "circuit \"Ring\" {\n"
            "  laps 3\n"
            "  208a right\n"
            "  209a right\n"
            "  217a right\n"
            "  218a right\n"
            "  221a right\n"
            "  222a left\n"
            "  standee finish at 1.1\n"
            "}\n"
        ),
        "List the loop's tiles in driving order so that the last one meets the first.",
    ),
    CodeInfo(
        rc.RC402,
        "An RX race is at least 2 laps (TRACK-RX-09); the circuit gives fewer, or no `laps` at all.",
        (
            "circuit \"Ring\" {\n"
            "  laps 1\n"
            "  208a right\n"
            "  209a right\n"
            "  217a right\n"
            "  218a right\n"
            "  221a right\n"
            "  222a right\n"
            "  standee finish at 1.1\n"
            "}\n"
        ),
        "Write `laps 2` or more.",
    ),
    CodeInfo(
        rc.RC403,
        "The start/finish line of an RX circuit is a standee set on a dividing line spanning the track "
        "(TRACK-RX-04); there must be exactly one.",
        (
            "circuit \"Ring\" {\n"
            "  laps 3\n"
            "  208a right\n"
            "  209a right\n"
            "  217a right\n"
            "  218a right\n"
            "  221a right\n"
            "  222a right\n"
            "}\n"
        ),
        "Add one `standee finish at STEP.ZONE`.",
    ),
    CodeInfo(
        rc.RC404,
        "The start/finish standee may not be placed on a corner space (TRACK-RX-05). `standee finish at S.Z` "
        "stands on the line at the entry of zone Z of step S; that zone is a corner.",
        (
            "circuit \"Ring\" {\n"
            "  laps 3\n"
            "  208a right\n"
            "  209a right\n"
            "  217a right\n"
            "  218a right\n"
            "  221a right\n"
            "  222a right\n"
            "  standee finish at 3.2  # zone 2 of 217a is its corner\n"
            "}\n"
        ),
        "Move the standee to a line before or after the corner.",
    ),
    CodeInfo(
        rc.RC405,
        "The start/finish standee may not be placed between the Joker's entry and exit (TRACK-RX-06).",
        (
            "circuit \"Lakeside RX\" {\n"
            "  laps 3\n"
            "  208a at -2 3 rot 3\n"
            "  408a at -1 3 rot 0  # fork: the Joker leaves here\n"
            "  204a at 0 2 rot 2\n"
            "  410a at 1 1 rot 0\n"
            "  415a at 0 1 rot 1  # Y fork: the Joker rejoins here\n"
            "  411a at 0 0 rot 1\n"
            "  210a at 0 -1 rot 5\n"
            "  205b at -1 0 rot 5\n"
            "  218a at -2 1 rot 4\n"
            "  404a at -2 2 rot 4  # fork: the Pre-grid joins here\n"
            "  209b at -1 2 rot 4\n"
            "  401b at -1 1 rot 2\n"
            "  standee finish at 3.1\n"
            "  standee joker-entry at 2.1\n"
            "  standee joker-exit at 5.1\n"
            "  joker 11\n"
            "  pregrid 12\n"
            "}\n"
        ),
        "Move the standee before the Joker entry or after its exit.",
    ),
    CodeInfo(
        rc.RC406,
        "The Joker lap has its entry marked by a green arch and its exit by a red arch (TRACK-RX-07): "
        "`standee joker-entry` and `standee joker-exit`.",
        (
            "circuit \"Lakeside RX\" {\n"
            "  laps 3\n"
            "  208a at -2 3 rot 3\n"
            "  408a at -1 3 rot 0  # fork: the Joker leaves here\n"
            "  204a at 0 2 rot 2\n"
            "  410a at 1 1 rot 0\n"
            "  415a at 0 1 rot 1  # Y fork: the Joker rejoins here\n"
            "  411a at 0 0 rot 1\n"
            "  210a at 0 -1 rot 5\n"
            "  205b at -1 0 rot 5\n"
            "  218a at -2 1 rot 4\n"
            "  404a at -2 2 rot 4  # fork: the Pre-grid joins here\n"
            "  209b at -1 2 rot 4\n"
            "  401b at -1 1 rot 2\n"
            "  standee finish at 1.1\n"
            "  standee joker-entry at 2.1\n"
            "  joker 11\n"
            "  pregrid 12\n"
            "}\n"
        ),
        "Add the missing `standee joker-exit at STEP.ZONE` (or joker-entry).",
    ),
    CodeInfo(
        rc.RC407,
        "`standee KIND at STEP.ZONE` names a step of the circuit and a zone of its road (driving order).",
        (
            "circuit \"Ring\" {\n"
            "  laps 3\n"
            "  208a right\n"
            "  209a right\n"
            "  217a right\n"
            "  218a right\n"
            "  221a right\n"
            "  222a right\n"
            "  standee finish at 7.1\n"
            "}\n"
        ),
        "Pick a listed step and one of its zones.",
    ),
    CodeInfo(
        rc.RC408,
        "The Pre-grid is joined to the circuit through a Fork tile (TRACK-RX-03, TRACK-RX-08).",
        (
            "circuit \"Lakeside RX\" {\n"
            "  laps 3\n"
            "  208a at -2 3 rot 3\n"
            "  408a at -1 3 rot 0\n"
            "  204a at 0 2 rot 2\n"
            "  410a at 1 1 rot 0\n"
            "  415a at 0 1 rot 1\n"
            "  411a at 0 0 rot 1\n"
            "  210a at 0 -1 rot 5\n"
            "  205b at -1 0 rot 5\n"
            "  218a at -2 1 rot 4\n"
            "  404a at -2 2 rot 4  # fork: the Pre-grid joins here\n"
            "  401b at -1 1 rot 1  # turned away from the fork\n"
            "  standee finish at 1.1\n"
            "  pregrid 11\n"
            "}\n"
        ),
        "Attach the Pre-grid tiles to a branch of a fork tile.",
    ),
    CodeInfo(
        rc.RC409,
        "The Pre-grid lies within 2 to 3 tiles of the Starting line (TRACK-RX-02).",
        (
            "circuit \"Lakeside RX\" {\n"
            "  laps 3\n"
            "  208a at -2 3 rot 3\n"
            "  408a at -1 3 rot 0\n"
            "  204a at 0 2 rot 2\n"
            "  410a at 1 1 rot 0\n"
            "  415a at 0 1 rot 1\n"
            "  411a at 0 0 rot 1\n"
            "  210a at 0 -1 rot 5\n"
            "  205b at -1 0 rot 5\n"
            "  218a at -2 1 rot 4\n"
            "  404a at -2 2 rot 4  # fork: the Pre-grid joins here\n"
            "  401b at -1 1 rot 2\n"
            "  standee finish at 6.1\n"
            "  pregrid 11\n"
            "}\n"
        ),
        "Move the Pre-grid (or the standee) closer: at most 3 tiles apart.",
    ),
]
