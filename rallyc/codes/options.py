"""Codes RC160-RC169: the options a design switches on (``options ...``), read against the options registry."""

from __future__ import annotations

from rallyc.codes import CodeInfo
from rallyc.model import codes as rc

CODES: list[CodeInfo] = [
    CodeInfo(
        rc.RC160,
        "The option is a rule of the rulebooks and the file may name it, but no variant of the referee plays it "
        "yet: `rallyc replay` does not check the rules it switches on (the message lists them), so a game "
        "recorded on this design is refereed without them. Today every option of the registry is refereed (the "
        "last, a custom race's `repairs`, since issue 12: docs/custom-races.md); the warning stays for an option a "
        "rulebook adds before its referee does.",
        "none: no option of the registry is unrefereed today",
        "Keep the option if the table plays it, knowing the referee does not check those rules; remove it to "
        "silence the warning. `rallyc explain RULE-ID` prints each rule it names.",
        example_kind="internal",
    ),
    CodeInfo(
        rc.RC161,
        "The option is refereed, but not in the games this design holds: SISU, Checkpoints, One Shot and the "
        "Handbrake turn are DIRT stage and rally rules, not RX race rules (RX-ADV-01 names the advanced rules an "
        "RX race may use). `rallyc replay` refuses a race played with them.",
        (
            "circuit \"Ring\" {\n"
            "  laps 3\n"
            "  208a right\n"
            "  209a right\n"
            "  217a right\n"
            "  218a right\n"
            "  221a right\n"
            "  222a right\n"
            "  standee finish at 1.1\n"
            "  options sisu per-rally\n"
            "}\n"
        ),
        "Remove the option from the circuit; on a rally it is in place.",
    ),
    CodeInfo(
        rc.RC162,
        "The design's options make it a custom race (RX book, Customisable Races: a racetrack, a race type and "
        "track rules, CUSTOM-01/04) that no variant of the referee plays: a race under Technical Track rules (Time "
        "cards, a Time Trial or a Head-to-Head) drawing from a Damage set other than DIRT (CUSTOM-19; the GT and light "
        "sets' Yellow Flags are refereed in a race and in a Time Trial under Speed Track rules), or `repairs yes` in a "
        "race without Time cards (GT Pit Stops, CUSTOM-15, a Rallyman: GT rule). The rules allow it; `rallyc replay` "
        "refuses its games with a located error naming the rule. The referee plays every pairing of racetrack, race "
        "type and track rules, on a stage or a circuit (docs/custom-races.md).",
        (
            "circuit \"Ring\" {\n"
            "  laps 3\n"
            "  208a right\n"
            "  209a right\n"
            "  217a right\n"
            "  218a right\n"
            "  221a right\n"
            "  222a right\n"
            "  standee finish at 1.1\n"
            "  options race-type time-trial, track-rules technical, damage-bag gt\n"
            "}\n"
        ),
        "Under Technical Track rules leave `damage-bag` out or choose `dirt`; or choose `track-rules speed` (a Time "
        "Trial under Speed Track rules draws from any set).",
    ),
]
