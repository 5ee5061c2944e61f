"""The neutral model of a track file of another tool (Rekee JSON or RGT).

Both formats say the same things: a title, an author, tiles on cells with a
rotation, and tokens on tiles with an offset from the tile centre. Readers turn
a file into a :class:`TrackFile`; writers turn a :class:`TrackFile` into text.
Positions in the file (for diagnostics) ride along as :class:`Span`.

Token kinds are the rallyc names (see ``TOKEN_KINDS``); what prints the token
shows (asphalt, gravel, snow) is kept in ``TokenRecord.print`` so a file read
and written again keeps it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rallyc.diagnostics import Span

__all__ = ["TokenRecord", "TileRecord", "TrackFile", "ROAD_EFFECTS", "STANDEES", "TOKEN_KINDS", "PRINTS"]

#: road-effect tokens of the Co-Pilot pack (they come in three prints)
ROAD_EFFECTS = ("chicane", "chicane-limit", "water", "jump")
#: RX standees (arches): rallyc standee name by token kind
STANDEES = {"finish": "finish", "joker-entrance": "joker-entry", "joker-exit": "joker-exit"}
#: every token kind the two formats know (rallyc spelling of the Rekee ids, without print)
TOKEN_KINDS = ROAD_EFFECTS + (
    "climb-ascent", "climb-descent", "cloud", "oxygen-1", "oxygen-2", "oxygen-3", "mud-spray",
) + tuple(STANDEES)
#: the prints a road-effect token comes in
PRINTS = ("asphalt", "gravel", "snow")


@dataclass
class TokenRecord:
    """A token on a tile: kind, offset from the tile centre (axial, tile's own frame), rotation."""

    kind: str
    q: float
    r: float
    #: rotation in 60-degree units, relative to the tile
    dir: float
    #: ``asphalt``/``gravel``/``snow`` for road-effect tokens with a print, else None
    print: str | None = None
    span: Span | None = field(default=None, compare=False)

    @property
    def rekee_id(self) -> str:
        return self.kind + (f"-{self.print}" if self.print else "")


@dataclass
class TileRecord:
    """A tile on a cell. ``id`` is canonical (``210b``); ``raw_id`` as written in the file."""

    id: str
    q: int
    r: int
    rot: int
    tokens: list[TokenRecord] = field(default_factory=list)
    raw_id: str | None = field(default=None, compare=False)
    span: Span | None = field(default=None, compare=False)


@dataclass
class TrackFile:
    """What a Rekee or RGT file holds."""

    title: str
    author: str
    tiles: list[TileRecord]
    #: ``rekee`` or ``rgt``
    format: str = "rekee"
