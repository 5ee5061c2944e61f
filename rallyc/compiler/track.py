"""The compiled track: a directed graph of every space a car can occupy.

This module is the contract between the compiler (which builds tracks) and
everything that reads them: the checks, the rules interpreter, the renderer and
the exporters.

Space ids
---------
Every space has a stable, readable id built from where it is:

``STEP.ZONE.LANE``
    ``STEP`` is the 1-based route step (the tile's position in the stage's list
    of steps; for a circuit, the order of its tile lines); ``ZONE`` is the
    1-based zone along the road *in driving order*; ``LANE`` is

    - ``l``, ``m``, ``r``: a lane space, left/middle/right as driven (two lanes: ``l``, ``r``;
      four lanes, on some Rallyman: GT tiles: ``l``, ``ml``, ``mr``, ``r``);
    - ``s1``, ``s2``: the two full-width slide spaces of a slide zone, in driving order;
    - ``in1``, ``in2``...: inside-lane spaces of a corner; ``out1``, ``out2``...: outside-lane spaces;
    - ``w``: the one full-width space of a ``wide`` zone;
    - ``j``: the centre space of an RX junction.
``STEP.cutK``
    the K-th shortcut space of the road taken at that step.

Graph
-----
Nodes carry the :class:`Space` fields as attributes (``graph.nodes[id]``) and
one directed edge joins two spaces when a single step from the first to the
second is legal (straight ahead or diagonal, never sideways or backwards).
Edge attributes: ``move`` (``"straight"``, ``"diagonal"``, ``"slide"``,
``"shortcut"``), and ``handbrake=True`` on the Monte-Carlo outside-to-inside
corner edges (only usable under that rule). On a circuit the edges that close
the loop carry ``lap=True``: progress starts again there, and distance along
the circuit is ``laps completed * Track.lap_length + progress``. An edge that
crosses an RX speed-limit line into a space shared with the main road carries
``limit=N``: that space has limit N when entered along this edge (RX-FORK-03).

A compiled track is read only. Moves may share one attribute dict (the moves of a road laid again from its
template do): never write into ``graph.edges[a, b]``; the build replaces a move's dict instead
(:func:`rallyc.compiler.graph.replace_move`). Each space has a dict of its own (its keys shared with every
other space's, :func:`space_attributes`).

Circuits: ``joker``/``pregrid`` mark the spaces of the Joker branch and the
Pre-grid; ``Track.standees`` lists the RX standees (finish line, Joker entry
and exit arches), each on the line at the entry of a zone (TRACK-RX-04,
TRACK-RX-07); the modelling of fork tiles is described in
:mod:`rallyc.compiler.circuit`, that of each zone kind in
:mod:`rallyc.compiler.graph`.
"""

from __future__ import annotations

from dataclasses import MISSING, asdict, dataclass, field
from typing import Any, Iterable, Iterator

import networkx as nx

from rallyc.compiler.placed import PlacedTile
from rallyc.diagnostics import Span
from rallyc.model.tiles import TileRole

__all__ = ["Space", "PlacedTile", "Standee", "Track", "SPACE_FIELDS", "SPACE_DEFAULTS", "STANDEE_KINDS",
           "space_attributes"]


@dataclass(frozen=True)
class Space:
    """One space a car can occupy."""

    id: str
    step: int
    tile: str
    road: int
    zone: int | None
    lane: str
    #: ``lane``, ``slide``, ``corner``, ``wide``, ``shortcut``, ``junction`` or ``half``
    kind: str
    surface: str
    #: danger colour of the tile (signpost colour): ``low``, ``medium``, ``high`` (``none`` for fillers)
    danger: str
    #: printed speed limit (None when the space has none)
    limit: int | None = None
    #: jump gear printed on (or token placed on) this space
    jump: int | None = None
    water: bool = False
    #: ``in`` or ``out`` for corner spaces (the corner method), else None
    method: str | None = None
    #: ``STEP.ZONE`` of the corner this space belongs to (corner spaces only)
    corner: str | None = None
    #: position of the space's front edge along the road; orders the cars for the order of play
    progress: float = 0.0
    #: a space directly behind the Starting Line (where a starting car is placed)
    start: bool = False
    #: the space lies beyond the finish line
    past_finish: bool = False
    #: the space is in the first zone after the finish line (decides the finishing Time card)
    after_finish: bool = False
    #: the space belongs to the Joker lap branch / the Pre-grid (RX)
    joker: bool = False
    pregrid: bool = False
    #: chicane token limit or other token effects placed on this space
    chicane: int | None = None
    tokens: tuple[str, ...] = ()
    #: where in the source the tile of this space was written (not part of equality)
    span: Span | None = field(default=None, compare=False)

    @property
    def zone_key(self) -> str:
        """``STEP.ZONE`` (or ``STEP.cutK`` for a shortcut): spaces with one key are side by side."""
        head, _, _ = self.id.rpartition(".")
        return head if self.zone is not None else self.id


SPACE_FIELDS = [f for f in Space.__dataclass_fields__ if f != "span"]

#: a space node's attributes before the build fills them in: every field of :class:`Space` but its id, in
#: the order of the fields; a field without a default must be given (None here marks it)
SPACE_DEFAULTS: dict[str, Any] = {
    name: (f.default if f.default is not MISSING else None)
    for name, f in Space.__dataclass_fields__.items() if name != "id"
}


class _SpaceAttributes:
    """Holds nothing itself: the ``__dict__`` of its instances share one table of keys (key-sharing
    dictionaries, PEP 412), which :func:`space_attributes` hands out."""


def _key_sharing(items: dict[str, Any]) -> dict[str, Any]:
    holder = _SpaceAttributes()
    for name, value in items.items():
        setattr(holder, name, value)
    return holder.__dict__


#: :data:`SPACE_DEFAULTS` as a key-sharing dict: its copies share its table of keys
_SPACE_PROTOTYPE = _key_sharing(SPACE_DEFAULTS)


def space_attributes(values: dict[str, Any]) -> dict[str, Any]:
    """A space node's attribute dict: :data:`SPACE_DEFAULTS` (in that order) updated with ``values`` (keys of
    it only, else the dict is an ordinary one).

    A plain dict and what it holds; only its layout differs: the keys live once in a table that every space
    of every graph shares (PEP 412), and each space keeps only its values, about a third of the memory of a
    22-key dict of its own (296 bytes against 832 on CPython 3.11). Copies (``dict.copy``) share the table
    too. A compile makes one such dict per space, so this is most of the memory a track's spaces take, and
    the time to make, read and free them."""
    data = _SPACE_PROTOTYPE.copy()
    data.update(values)
    return data


#: the RX standees (arches): the start/finish line, the Joker's entry (green) and exit (red)
STANDEE_KINDS = ("finish", "joker-entry", "joker-exit")


@dataclass(frozen=True)
class Standee:
    """An RX standee of a circuit, standing on the line at the entry of zone ``zone`` of step ``step``."""

    #: ``finish``, ``joker-entry`` or ``joker-exit``
    kind: str
    step: int
    zone: int
    #: the spaces of that zone (just past the line), sorted; empty when the step has no such zone
    spaces: tuple[str, ...] = ()
    #: where the ``standee`` statement was written (not part of equality)
    span: Span | None = field(default=None, compare=False)

    @property
    def at(self) -> str:
        """``STEP.ZONE``: the zone whose entry line the standee stands on."""
        return f"{self.step}.{self.zone}"


class Track:
    """A compiled stage or circuit."""

    def __init__(
        self,
        name: str,
        kind: str,
        graph: nx.DiGraph,
        placed: list[PlacedTile],
        *,
        title: str | None = None,
        laps: int | None = None,
        span: Span | None = None,
        lap_length: float | None = None,
        standees: list[Standee] | None = None,
    ) -> None:
        self.name = name
        #: ``stage`` or ``circuit``
        self.kind = kind
        self.graph = graph
        self.placed = placed
        self.title = title
        self.laps = laps
        self.span = span
        #: circuits: the progress covered by one lap of the main loop (distance = laps * lap_length + progress)
        self.lap_length = lap_length
        #: circuits: the RX standees in the order written (a stage has none)
        self.standees: list[Standee] = list(standees or [])
        self._spaces: dict[str, Space] | None = None
        #: spaces by route step and by zone, built once on first use (``spaces_of_step`` and ``alongside``
        #: are asked once per step or per move: a scan of every space each time made them quadratic)
        self._by_step: dict[int | None, list[Space]] | None = None
        self._by_zone: dict[object, list[str]] | None = None

    # -- spaces
    @property
    def spaces(self) -> dict[str, Space]:
        """Every space by id."""
        if self._spaces is None:
            self._spaces = {n: self._make_space(n, d) for n, d in self.graph.nodes(data=True)}
        return self._spaces

    def _make_space(self, node: str, data: dict[str, Any]) -> Space:
        values = {k: data[k] for k in SPACE_FIELDS if k in data}
        values["id"] = node
        values["span"] = data.get("span")
        if "tokens" in values:
            values["tokens"] = tuple(values["tokens"])
        return Space(**values)

    def space(self, space_id: str) -> Space:
        """The space with this id (KeyError if there is none)."""
        return self.spaces[space_id]

    def __contains__(self, space_id: object) -> bool:
        return space_id in self.graph

    def __iter__(self) -> Iterator[Space]:
        return iter(self.spaces.values())

    def successors(self, space_id: str) -> list[str]:
        """Spaces one legal step ahead of this one, sorted by id."""
        return sorted(self.graph.successors(space_id))

    def predecessors(self, space_id: str) -> list[str]:
        return sorted(self.graph.predecessors(space_id))

    def move(self, a: str, b: str) -> dict[str, Any] | None:
        """The attributes of the step ``a -> b`` or None if that is not a legal single step."""
        return self.graph.edges[a, b] if self.graph.has_edge(a, b) else None

    def progress(self, space_id: str) -> float:
        """How far along the road the front edge of this space is."""
        progress: float = self.graph.nodes[space_id]["progress"]
        return progress

    def alongside(self, space_id: str) -> list[str]:
        """The other spaces side by side with this one (same zone), sorted by id."""
        if self._by_zone is None:
            by_zone: dict[object, list[str]] = {}
            for sp in self.spaces.values():
                by_zone.setdefault(sp.zone_key, []).append(sp.id)
            self._by_zone = {k: sorted(v) for k, v in by_zone.items()}
        return [i for i in self._by_zone[self.spaces[space_id].zone_key] if i != space_id]

    # -- landmarks
    @property
    def start_spaces(self) -> list[str]:
        """Spaces directly behind the Starting Line, sorted by id."""
        return sorted(n for n, d in self.graph.nodes(data=True) if d.get("start"))

    @property
    def finish_spaces(self) -> list[str]:
        """Spaces of the first zone after the finish line, sorted by id."""
        return sorted(n for n, d in self.graph.nodes(data=True) if d.get("after_finish"))

    @property
    def has_assistance(self) -> bool:
        """True when the stage includes the Assistance tile (TRACK-STAGE-08)."""
        return any(TileRole.ASSISTANCE in p.roles for p in self.placed)

    @property
    def steps(self) -> list[PlacedTile]:
        """The placed road tiles in route order (scenery left out)."""
        return [p for p in self.placed if not p.scenery]

    def spaces_of_step(self, step: int) -> list[Space]:
        """The spaces of one route step, by progress then id."""
        if self._by_step is None:
            by_step: dict[int | None, list[Space]] = {}
            for sp in self.spaces.values():
                by_step.setdefault(sp.step, []).append(sp)
            self._by_step = {k: sorted(v, key=lambda x: (x.progress, x.id)) for k, v in by_step.items()}
        return list(self._by_step.get(step, ()))

    def ordered_spaces(self) -> list[Space]:
        """Every space ordered by progress, then id."""
        return sorted(self.spaces.values(), key=lambda s: (s.progress, s.id))

    def space_dicts(self) -> Iterable[dict[str, Any]]:
        for s in self.ordered_spaces():
            d = asdict(s)
            d.pop("span", None)
            yield d
