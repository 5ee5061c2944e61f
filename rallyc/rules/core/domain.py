"""The referee's vocabulary as types: die faces, car statuses, Joker states, the icons of a "0" side.

String enums (``StrEnum``): each member is its rulebook word, so records, JSON reports and messages read the
same as before, and a member compares equal to its word.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Face", "CarStatus", "RaceStatus", "JokerState", "LocIcon"]


class Face(StrEnum):
    """What a rolled die shows that matters for the rules (CORE-ROLL-04)."""

    OK = "ok"
    WARNING = "warning"


class CarStatus(StrEnum):
    """A car in a stage: waiting to start, on the road, spun out (on the road), crashed or changing a tire
    (beside the road), finished, retired."""

    WAITING = "waiting"
    ROAD = "road"
    SPUN = "spun"
    CRASHED = "crashed"
    TIRE = "tire"
    FINISHED = "finished"
    RETIRED = "retired"


class RaceStatus(StrEnum):
    """A car in an RX race: racing, finished, disqualified (no Joker, RX-JOKER-04), retired (no Gear die)."""

    ROAD = "road"
    FINISHED = "finished"
    DISQUALIFIED = "disqualified"
    RETIRED = "retired"


class JokerState(StrEnum):
    """The Joker of an RX car: still to drive, being driven, driven (the token on its OK side, RX-JOKER-03), or
    no Joker on the circuit."""

    TODO = "todo"
    IN = "in"
    DONE = "done"
    NONE = "none"


class LocIcon(StrEnum):
    """The icon on a Time card's "0" side (CORE-LOC-05)."""

    SPINOUT = "spinout"
    CRASH = "crash"
    SISU = "sisu"
