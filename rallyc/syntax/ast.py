"""The typed syntax tree of a rallyc file.

Every node keeps the :class:`~rallyc.diagnostics.Span` it came from so that any
later stage can point at the line. Spans are excluded from equality, so two
trees that say the same thing compare equal whatever their layout: this is how
``rallyc fmt`` proves it never changes meaning.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

from rallyc.diagnostics import Span

__all__ = [
    "Ident", "Use", "Boxes", "Tileset", "TileDef", "RoadDef", "Zone", "Corner", "LimitLine", "Line",
    "Shortcut", "RoadItem", "Stage", "Step", "Position", "Scenery", "Token", "SpaceRef", "Meta",
    "Option", "Options", "Rally", "Circuit", "Laps", "Standee", "Joker", "Pregrid", "Document",
    "TopItem", "StageItem", "CircuitItem", "RallyItem", "Area", "AreaRef", "Pick", "RouteFrom", "AreaItem",
]


def _span() -> Span:
    return field(default=None, compare=False, repr=False)  # type: ignore[return-value]


@dataclass
class Ident:
    """A name or tile reference as written, with where it was written."""

    text: str
    span: Span = _span()

    def __str__(self) -> str:
        return self.text


# ------------------------------------------------------------------ includes

@dataclass
class Use:
    """``use dirt-core`` (a tileset by name) or ``use "file.rally"`` (a file by path)."""

    target: str
    is_path: bool
    span: Span = _span()


@dataclass
class Boxes:
    """``boxes dirt-core dirt-110``: the boxes the designer owns (limits tile copies)."""

    names: list[Ident]
    span: Span = _span()


# ------------------------------------------------------------------ tilesets

@dataclass
class Zone:
    """A cross-section of a road: ``plain``, ``slide``, ``wide``, ``half``, ``junction`` or ``service``.

    ``limits`` has one entry per lane (None where a lane has no limit), or is None.
    """

    kind: str
    limits: tuple[int | None, ...] | None = None
    jump: int | None = None
    water: bool = False
    lanes: int | None = None
    merge: bool = False
    span: Span = _span()


@dataclass
class Corner:
    """A corner (``corner``: no lane divider, cut or drift) or a ``limited`` section (lane divider kept).

    ``inside`` and ``outside`` hold the speed limit of each space in driving order.
    ``side`` (``left``/``right``) is the way the corner turns when the road is driven
    from its entry to its exit, i.e. the lane that is inside; None means the road's own
    turn tells (a right60 road has its inside on the right).
    """

    kind: str
    inside: tuple[int, ...]
    outside: tuple[int, ...]
    side: str | None = None
    limits: tuple[int | None, ...] | None = None
    jump: int | None = None
    water: bool = False
    lanes: int | None = None
    merge: bool = False
    span: Span = _span()


@dataclass
class LimitLine:
    """``limitline 4``: an RX speed-limit line; the next space entered across it has this limit."""

    value: int
    span: Span = _span()


@dataclass
class Line:
    """A line across the road between two zones: ``start``, ``finish``, ``checkered`` or ``climb``."""

    kind: str
    span: Span = _span()


@dataclass
class Shortcut:
    """``shortcut 3 from 1 to 3``: a shortcut space with limit 3 joining zone 1 to zone 3.

    ``shortcut 5 5 from 1 to 3`` is two of them in a row (224b), sharing the statement's span."""

    limit: int
    from_zone: int
    to_zone: int
    span: Span = _span()


RoadItem = Union[Zone, Corner, LimitLine, Line, Shortcut]


@dataclass
class RoadDef:
    """A road through a tile, from its entry edge to its exit edge (own edges A..F), or to ``end``."""

    entry: str
    exit: str
    turn: str | None
    lanes: int | None
    items: list[RoadItem]
    span: Span = _span()

    @property
    def zones(self) -> list[Zone | Corner]:
        """The zones in order from entry to exit (lines, limit lines and shortcuts left out)."""
        return [i for i in self.items if isinstance(i, (Zone, Corner))]

    @property
    def shortcuts(self) -> list[Shortcut]:
        return [i for i in self.items if isinstance(i, Shortcut)]


@dataclass
class TileDef:
    """One side of a tile: ``tile 217a gravel danger low copies 1 { road ... }``."""

    id: Ident
    surface: str
    danger: tuple[str, str]
    copies: int | None
    roads: list[RoadDef]
    span: Span = _span()


@dataclass
class Tileset:
    """``tileset NAME "title" [circuit] { tile ... }``: the tiles of one box."""

    name: Ident
    title: str | None
    tiles: list[TileDef]
    span: Span = _span()
    #: ``circuit``: the box's tiles are RX circuit tiles (:attr:`rallyc.model.tiles.TileRole.CIRCUIT`)
    circuit: bool = False


# ------------------------------------------------------------------ designs

@dataclass
class Position:
    """``at Q R rot N``: an absolute cell (axial) and rotation (0..5)."""

    q: int
    r: int
    rot: int
    span: Span = _span()


@dataclass
class Step:
    """One tile of a route in driving order, e.g. ``210b left`` or ``202b at -2 1 rot 0``."""

    tile: Ident
    turn: str | None = None
    reversed: bool = False
    road: int | None = None
    position: Position | None = None
    span: Span = _span()


@dataclass
class Scenery:
    """``scenery 902a at Q R rot N``: a filler tile with no road."""

    tile: Ident
    position: Position
    span: Span = _span()


@dataclass
class SpaceRef:
    """``STEP.ZONE[.LANE]``: a space (or a whole zone) by route step, zone and lane."""

    step: int
    zone: int
    lane: str | None = None
    span: Span = _span()

    def __str__(self) -> str:
        return f"{self.step}.{self.zone}" + (f".{self.lane}" if self.lane else "")


@dataclass
class Token:
    """``token water at 3.2.l``, ``token chicane limit 2 at 4.1.r``, ``token jump 4 at 5.2``."""

    kind: str
    value: int | None
    limit: int | None
    at: SpaceRef
    span: Span = _span()


@dataclass
class Meta:
    """``source "..."``, ``note "..."`` or ``author "..."``."""

    key: str
    value: str
    span: Span = _span()


@dataclass
class Option:
    """One advanced-rule option, e.g. ``sisu per-rally`` or ``flying-start``."""

    name: str
    value: str | int | None = None
    span: Span = _span()


@dataclass
class Options:
    """``options sisu per-rally, flying-start``."""

    options: list[Option]
    span: Span = _span()


class _Statements:
    """A node whose body is a list of statements."""

    items: list

    def _of(self, cls) -> list:
        return [i for i in self.items if isinstance(i, cls)]


class _Block(_Statements):
    """A stage, rally or circuit body, with typed views of its statements."""

    @property
    def steps(self) -> list["Step"]:
        return self._of(Step)

    @property
    def scenery(self) -> list["Scenery"]:
        return self._of(Scenery)

    @property
    def tokens(self) -> list["Token"]:
        return self._of(Token)

    @property
    def meta(self) -> list["Meta"]:
        return self._of(Meta)

    @property
    def options(self) -> list["Option"]:
        return [o for i in self._of(Options) for o in i.options]


@dataclass
class AreaRef:
    """``area "Col de Turini"``: the stage is a route over the tiles of this area."""

    title: str
    span: Span = _span()


@dataclass
class Pick:
    """``junction 402a left``: the road a stage over an area takes at a junction tile.

    ``junction`` names the tile by its id (when the area lays it once) or by its line number in
    the area (``junction 7 right``); ``turn`` is ``left``, ``right`` or ``straight``.
    """

    junction: Ident
    turn: str
    span: Span = _span()


@dataclass
class RouteFrom:
    """``from 202a``: the start tile of a stage over an area that has several."""

    tile: Ident
    span: Span = _span()


StageItem = Union[Step, Scenery, Token, Meta, AreaRef, Pick, RouteFrom]


@dataclass
class Stage(_Block):
    """``stage SS1 "title" { ... }``: a route of tiles from start to finish."""

    name: Ident
    title: str | None
    items: list[StageItem]
    span: Span = _span()

    @property
    def area(self) -> AreaRef | None:
        """The area this stage is a route over (None for a stage that lists its own tiles)."""
        refs = self._of(AreaRef)
        return refs[0] if refs else None

    @property
    def picks(self) -> list[Pick]:
        return self._of(Pick)

    @property
    def route_from(self) -> RouteFrom | None:
        froms = self._of(RouteFrom)
        return froms[0] if froms else None


RallyItem = Union[Stage, Meta, Options]


@dataclass
class Rally(_Block):
    """``rally "title" by "author" { stage ...; options ... }``."""

    title: str
    author: str | None
    items: list[RallyItem]
    span: Span = _span()

    @property
    def stages(self) -> list[Stage]:
        return self._of(Stage)


@dataclass
class Laps:
    """``laps 4``."""

    count: int
    span: Span = _span()


@dataclass
class Standee:
    """``standee finish at 1.3``: an RX standee on the line at the entry of a zone."""

    kind: str
    at: SpaceRef
    span: Span = _span()


@dataclass
class Joker:
    """``joker 7 8``: the steps (tiles) that form the Joker lap branch."""

    steps: list[int]
    span: Span = _span()


@dataclass
class Pregrid:
    """``pregrid 11 12``: the steps (tiles) that form the Pre-grid."""

    steps: list[int]
    span: Span = _span()


CircuitItem = Union[Step, Scenery, Token, Meta, Options, Laps, Standee, Joker, Pregrid]


@dataclass
class Circuit(_Block):
    """``circuit "title" by "author" { laps; tiles; standees; joker; pregrid }``: an RX or ice circuit."""

    title: str
    author: str | None
    items: list[CircuitItem]
    span: Span = _span()

    @property
    def laps(self) -> list[Laps]:
        return self._of(Laps)

    @property
    def standees(self) -> list[Standee]:
        return self._of(Standee)

    @property
    def joker(self) -> list[Joker]:
        return self._of(Joker)

    @property
    def pregrid(self) -> list[Pregrid]:
        return self._of(Pregrid)


AreaItem = Union[Step, Scenery, Meta]


@dataclass
class Area(_Block):
    """``area "title" by "author" { tiles }``: tiles laid once, that stages drive over as routes.

    Its steps are laid, not driven: ``TILE at Q R rot N`` anywhere, or route form right after the
    tile before (across the exit of its road, as in a stage).
    """

    title: str
    author: str | None
    items: list[AreaItem]
    span: Span = _span()


TopItem = Union[Use, Boxes, Tileset, Stage, Rally, Circuit, Area]


@dataclass
class Document(_Statements):
    """A parsed file: its statements in order."""

    path: str
    items: list[TopItem]
    span: Span = _span()

    @property
    def uses(self) -> list[Use]:
        return self._of(Use)

    @property
    def boxes(self) -> list[Boxes]:
        return self._of(Boxes)

    @property
    def tilesets(self) -> list[Tileset]:
        return self._of(Tileset)

    @property
    def stages(self) -> list[Stage]:
        return self._of(Stage)

    @property
    def rallies(self) -> list[Rally]:
        return self._of(Rally)

    @property
    def circuits(self) -> list[Circuit]:
        return self._of(Circuit)

    @property
    def areas(self) -> list[Area]:
        return self._of(Area)
