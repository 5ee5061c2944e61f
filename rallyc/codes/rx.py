"""Codes RC4xx: RX circuits."""

from __future__ import annotations

from rallyc.codes import CodeInfo

CODES: list[CodeInfo] = [
    CodeInfo(
        "RC401", "error", "circuit not closed",
        "An RX circuit is a closed loop (TRACK-RX-01): the road of its last tile must lead back into its first.",
        'circuit "C" {\n  laps 2\n  301b at 0 0 rot 0\n  304b at 0 -1 rot 0\n}',
        "List the loop's tiles in driving order so that the last one meets the first.",
        ("TRACK-RX-01",),
    ),
    CodeInfo(
        "RC402", "error", "fewer than 2 laps",
        "An RX race is at least 2 laps (TRACK-RX-09); the circuit gives fewer, or no `laps` at all.",
        'circuit "C" {\n  laps 1\n  ...\n}',
        "Write `laps 2` or more.",
        ("TRACK-RX-09",),
    ),
    CodeInfo(
        "RC403", "error", "finish-line standee missing or doubled",
        "The start/finish line of an RX circuit is a standee set on a dividing line spanning the track "
        "(TRACK-RX-04); there must be exactly one.",
        'circuit "C" {\n  laps 3\n  ...  # no standee finish\n}',
        "Add one `standee finish at STEP.ZONE`.",
        ("TRACK-RX-04",),
    ),
    CodeInfo(
        "RC404", "error", "finish-line standee on a corner",
        "The start/finish standee may not be placed on a corner space (TRACK-RX-05). `standee finish at S.Z` "
        "stands on the line at the entry of zone Z of step S; that zone is a corner.",
        "standee finish at 2.1   # zone 1 of a hairpin",
        "Move the standee to a line before or after the corner.",
        ("TRACK-RX-05",),
    ),
    CodeInfo(
        "RC405", "error", "finish-line standee inside the Joker stretch",
        "The start/finish standee may not be placed between the Joker's entry and exit (TRACK-RX-06).",
        "standee joker-entry at 2.1\nstandee finish at 3.1\nstandee joker-exit at 5.1",
        "Move the standee before the Joker entry or after its exit.",
        ("TRACK-RX-06",),
    ),
    CodeInfo(
        "RC406", "error", "Joker entry or exit missing",
        "The Joker lap has its entry marked by a green arch and its exit by a red arch (TRACK-RX-07): "
        "`standee joker-entry` and `standee joker-exit`.",
        "joker 6 7\nstandee joker-entry at 5.1   # no joker-exit",
        "Add the missing `standee joker-exit at STEP.ZONE` (or joker-entry).",
        ("TRACK-RX-07",),
    ),
    CodeInfo(
        "RC407", "error", "standee on a zone that does not exist",
        "`standee KIND at STEP.ZONE` names a step of the circuit and a zone of its road (driving order).",
        "standee finish at 30.1",
        "Pick a listed step and one of its zones.",
        ("TRACK-RX-04",),
    ),
    CodeInfo(
        "RC408", "error", "Pre-grid not joined through a fork",
        "The Pre-grid is joined to the circuit through a Fork tile (TRACK-RX-03, TRACK-RX-08).",
        "pregrid 12   # tile 12 does not meet a fork tile",
        "Attach the Pre-grid tiles to a branch of a fork tile.",
        ("TRACK-RX-03", "TRACK-RX-08"),
    ),
    CodeInfo(
        "RC409", "error", "Pre-grid too far from the start line",
        "The Pre-grid lies within 2 to 3 tiles of the Starting line (TRACK-RX-02).",
        "pregrid 9 with the finish standee 6 tiles away",
        "Move the Pre-grid (or the standee) closer: at most 3 tiles apart.",
        ("TRACK-RX-02",),
    ),
]
