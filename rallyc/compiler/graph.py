"""The space graph: one node per space, one edge per legal single step.

Space ids and attributes follow :mod:`rallyc.compiler.track`. How each kind of
zone is modelled (rule IDs in brackets):

- lane zone (``plain``): one space per lane; a step goes to the next zone's space
  in the same lane (``straight``) or an adjacent lane (``diagonal``), never
  sideways within a zone and never backwards (CORE-MOVE-03/04). Two- and
  three-lane zones join by the lanes' position across the road (TRACK-TILE-03):
  the lane straight ahead is ``straight``, its neighbours ``diagonal``.
- slide zone: the lane spaces as above plus two full-width halves ``s1``/``s2``:
  any space of the previous zone -> ``s1`` (``slide``) -> ``s2`` -> every entry
  space of the next zone. Lane spaces and slide spaces are separate paths
  through the zone: the choice is made on entering (CORE-SLIDE-02..04).
- corner: from the previous zone to ``in1`` and ``out1`` (no lane divider,
  CORE-CORNER-01), then ``in1 -> in2 ...`` and ``out1 -> out2 ...`` with no
  switching (CORE-CORNER-02) except the Monte-Carlo handbrake edges
  (``handbrake=True``): from an outside space that is not the last one to the
  inside space alongside its front edge, further along the road; never inside
  -> outside (MC-HANDBRAKE-01..04). The last inside and outside spaces lead to
  every entry space of the next zone; two corners in a row are two corners
  (CORE-CORNER-03).
- ``limited`` (lane divider kept, not a corner): modelled like a corner's two
  paths, with kind ``lane`` and no corner method.
- ``wide``: one full-width space ``w`` entered from every space of the previous
  zone and leading to every entry space of the next zone. On snow tiles the
  full-width spaces are slide spaces that must be taken by sliding
  (MC-SNOW-01): the edges into them have ``move="slide"``.
- ``half`` (RX): two spaces ``l``/``r`` split by a half line, each entered from
  any space touching either and leading to every entry space of the next zone
  (RX-FORK-02).
- ``junction`` (RX): one centre space ``j``.
- ``service`` (the Assistance area): no spaces; the road ends there.

Progress: step ``s`` covers ``[s-1, s)``; zone ``z`` of ``n`` zones has its
front edge at ``s-1+z/n``; the spaces of each corner path divide their zone
evenly; ``s1`` is at the zone's middle and ``s2`` at its end; a shortcut's
front edge is at the start of its exit zone (K shortcut spaces in a row share
the stretch from the end of the entry zone to the start of the exit zone).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Sequence

import networkx as nx

from rallyc.compiler.adjacency import graph_dicts
from rallyc.compiler.roads import DrivenRoad, DrivenShortcut, DrivenZone
from rallyc.compiler.track import SPACE_DEFAULTS, space_attributes
from rallyc.diagnostics import Span

__all__ = ["ZoneSpaces", "GraphBuilder", "lane_moves", "replace_move"]


def replace_move(graph: nx.DiGraph, x: str, y: str, **attrs: Any) -> None:
    """Give the move ``x -> y`` (it exists) these attributes too, in a new dict.

    The moves of a road laid again from its template share one attribute dict per move of the template, and so
    do the joins repeated between two templates (:meth:`GraphBuilder.join_next`): writing into a move's dict
    (``graph.edges[x, y][key] = ...``, or ``graph.add_edge`` on a move that is there) would change every move
    that shares it. The build changes a move only through here (or :meth:`GraphBuilder.link` and
    :meth:`GraphBuilder.edge`, which do the same); a compiled track's moves are read only."""
    _, succ, pred = graph_dicts(graph)
    succ[x][y] = pred[y][x] = {**succ[x][y], **attrs}


@lru_cache(maxsize=None)
def lane_moves(n: int, m: int) -> dict[int, list[tuple[int, str]]]:
    """Lane index ``i`` of an ``n``-lane zone -> [(lane index of the ``m``-lane zone ahead, move)].

    Lanes are mapped by their position across the road: the lane ahead whose
    centre is nearest is ``straight`` (none when two are equally near), the
    lanes beside it are ``diagonal``. Computed once per (n, m): the result is shared, read it only.
    """
    out: dict[int, list[tuple[int, str]]] = {}
    for i in range(n):
        c = (i + 0.5) / n
        dists = [abs((j + 0.5) / m - c) for j in range(m)]
        best = min(dists)
        nearest = [j for j in range(m) if abs(dists[j] - best) < 1e-9]
        moves: dict[int, str] = {}
        if len(nearest) == 1:
            k = nearest[0]
            moves[k] = "straight"
            for j in (k - 1, k + 1):
                if 0 <= j < m:
                    moves[j] = "diagonal"
        else:
            for j in nearest:
                moves[j] = "diagonal"
        out[i] = sorted(moves.items())
    return out


@dataclass(slots=True)
class ZoneSpaces:
    """The spaces of one zone (or shortcut) and how they join the zones around them.

    Read its sequences, never change them in place: a zone laid from a template shares the template's tuples
    (its lane names; an empty tuple where it has no such spaces)."""

    key: str
    zone: DrivenZone | None
    lanes: Sequence[str] = ()
    lane_ids: dict[str, str] = field(default_factory=dict)
    slide: tuple[str, str] | None = None
    inside: Sequence[str] = ()
    outside: Sequence[str] = ()
    single: str | None = None
    halves: Sequence[str] = ()
    #: the road laid from a template this zone belongs to (:meth:`GraphBuilder.add_road`), and the zone's index
    #: in it, to join it to the next step's alike
    origin: "_RoadOrigin | None" = field(default=None, repr=False, compare=False)
    origin_zone: int = field(default=0, repr=False, compare=False)

    def entries(self) -> list[str]:
        out = [self.lane_ids[l] for l in self.lanes]
        if self.slide:
            out.append(self.slide[0])
        if self.inside:
            out.append(self.inside[0])
        if self.outside:
            out.append(self.outside[0])
        if self.single:
            out.append(self.single)
        out.extend(self.halves)
        return out

    def exits(self) -> list[str]:
        out = [self.lane_ids[l] for l in self.lanes]
        if self.slide:
            out.append(self.slide[1])
        if self.inside:
            out.append(self.inside[-1])
        if self.outside:
            out.append(self.outside[-1])
        if self.single:
            out.append(self.single)
        out.extend(self.halves)
        return out

    def all(self) -> list[str]:
        out = [self.lane_ids[l] for l in self.lanes]
        if self.slide:
            out.extend(self.slide)
        out.extend(self.inside)
        out.extend(self.outside)
        if self.single:
            out.append(self.single)
        out.extend(self.halves)
        return out

    def non_slide(self) -> list[str]:
        """Spaces a token on the whole zone covers: every space but the slide halves."""
        return [s for s in self.all() if not self.slide or s not in self.slide]


#: how a space's progress follows from its step (the same expressions as :meth:`GraphBuilder.add_road` uses, so
#: a road laid again from its template has the same floats): (_FRONT, zone), (_MIDDLE, zone),
#: (_PART, zone, i, k) for the i-th of k corner spaces, (_CUT, src, dst, i, k) for the i-th of k shortcut spaces
_Recipe = tuple[int, ...]
_FRONT, _MIDDLE, _PART, _CUT = range(4)


def _terms(n: int, recipe: _Recipe) -> tuple[int, float, float, int, int]:
    """The parts of a recipe that do not depend on the step: (kind, a, b, i, k) for :func:`_progress`."""
    kind = recipe[0]
    if kind == _FRONT:
        return (_FRONT, recipe[1] / n, 0.0, 0, 1)
    if kind == _CUT:  # start + (end - start) * i / k, start and end as a corner's back and front
        return (_PART, recipe[1] / n, (recipe[2] - 1) / n, recipe[3], recipe[4])
    if kind == _MIDDLE:
        return (_MIDDLE, (recipe[1] - 1) / n, recipe[1] / n, 0, 1)
    return (_PART, (recipe[1] - 1) / n, recipe[1] / n, recipe[2], recipe[3])


def _progress(before: int, terms: tuple[int, float, float, int, int]) -> float:
    """The progress of a space at the step after ``before`` (= step - 1), as the builder computes it."""
    kind, a, b, i, k = terms
    if kind == _FRONT:
        return before + a
    back = before + a
    front = before + b
    if kind == _MIDDLE:
        return (back + front) / 2
    return back + (front - back) * i / k


@dataclass(slots=True)
class _RoadOrigin:
    """Where the zones of a road laid from a template came from: the template, the ids laid and each space's
    successor and predecessor dicts (the graph's own, in the order of the ids: a join writes them without
    looking each space up in the graph)."""

    template: "_RoadTemplate"
    ids: list[str]
    succs: list[dict[str, dict[str, Any]]]
    preds: list[dict[str, dict[str, Any]]]


@dataclass
class _ZoneShape:
    """A :class:`ZoneSpaces` of a template, its spaces as indexes into the template's spaces."""

    key: str
    zone: DrivenZone | None
    lanes: tuple[str, ...]
    lane_ids: tuple[tuple[str, int], ...]
    slide: tuple[int, int] | None
    inside: tuple[int, ...]
    outside: tuple[int, ...]
    single: int | None
    halves: tuple[int, ...]


@dataclass
class _RoadTemplate:
    """One road as :meth:`GraphBuilder.add_road` builds it, recorded once at step 1 and laid again at any step.

    A long stage repeats a handful of tiles: laying a road again copies its space and move dicts (with the
    step, progress, span and corner key of the new step) in the order they were made, instead of building
    every zone and join anew. Everything a road's spaces and moves hold besides those four is the same at
    every step: the moves within a road join zones one ahead of another, far apart in progress."""

    driven: DrivenRoad
    n: int
    #: the spaces: id without its ``STEP.`` prefix, attributes (at step 1, no span), progress recipe,
    #: corner key without its prefix
    suffixes: tuple[str, ...]
    data: tuple[dict[str, Any], ...]
    terms: tuple[tuple[int, float, float, int, int], ...]
    corners: tuple[str | None, ...]
    #: the moves in the order they were made: (from, to, attributes), spaces as indexes
    moves: tuple[tuple[int, int, dict[str, Any]], ...]
    zones: tuple[_ZoneShape, ...]
    #: lane mismatches within the road: (zone key, zone key, lanes, lanes), keys without their prefix
    mismatches: tuple[tuple[str, str, int, int], ...]

    @classmethod
    def record(cls, tile: str, driven: DrivenRoad, surface: str, danger: tuple[str, ...]) -> "_RoadTemplate":
        scratch = GraphBuilder()
        scratch._recipes = {}
        scratch._made = []
        zones = scratch._build_road(1, tile, driven, surface, danger, None)
        ids = list(scratch._nodes)
        index = {sid: i for i, sid in enumerate(ids)}

        def bare(key: str) -> str:
            return key[2:]  # "1.rest" -> "rest"

        data = tuple(scratch._nodes[sid] for sid in ids)
        shapes = tuple(_ZoneShape(
            bare(zs.key), zs.zone, tuple(zs.lanes), tuple((lane, index[sid]) for lane, sid in zs.lane_ids.items()),
            (index[zs.slide[0]], index[zs.slide[1]]) if zs.slide else None,
            tuple(index[s] for s in zs.inside), tuple(index[s] for s in zs.outside),
            index[zs.single] if zs.single is not None else None, tuple(index[s] for s in zs.halves))
            for zs in zones)
        return cls(
            driven, len(driven.zones), tuple(bare(sid) for sid in ids), data,
            tuple(_terms(len(driven.zones), scratch._recipes[sid]) for sid in ids),
            tuple(bare(d["corner"]) if d["corner"] is not None else None for d in data),
            tuple((index[x], index[y], scratch._succ[x][y]) for x, y in scratch._made),
            shapes,
            tuple((bare(a), bare(b), n, m) for a, b, n, m in scratch.lane_mismatches))

    def lay(self, builder: "GraphBuilder", step: int, span: Span | None) -> list[ZoneSpaces] | None:
        """The road's spaces and moves at ``step``, added to ``builder``; None (nothing added) when a space
        of it is already there (a tile driven twice at one step: build it the long way)."""
        prefix = f"{step}."
        ids = [prefix + s for s in self.suffixes]
        nodes, succ, pred = builder._nodes, builder._succ, builder._pred
        if not nodes.keys().isdisjoint(ids):
            return None
        before = step - 1
        succs: list[dict[str, dict[str, Any]]] = []
        preds: list[dict[str, dict[str, Any]]] = []
        for sid, data, terms, corner in zip(ids, self.data, self.terms, self.corners):
            d = data.copy()
            d["step"] = step
            # _progress(before, terms), the common case without the call
            d["progress"] = before + terms[1] if terms[0] == _FRONT else _progress(before, terms)
            d["span"] = span
            if corner is not None:
                d["corner"] = prefix + corner
            ahead: dict[str, dict[str, Any]] = {}
            behind: dict[str, dict[str, Any]] = {}
            succ[sid] = ahead
            pred[sid] = behind
            succs.append(ahead)
            preds.append(behind)
            nodes[sid] = d
        for i, j, attrs in self.moves:  # the template's attribute dicts, shared (see replace_move)
            succs[i][ids[j]] = preds[j][ids[i]] = attrs
        builder.lane_mismatches.extend((prefix + a, prefix + b, k, m) for a, b, k, m in self.mismatches)
        out = []
        origin = _RoadOrigin(self, ids, succs, preds)
        at = ids.__getitem__
        for k, z in enumerate(self.zones):
            # most of these are empty: the template's empty tuple, shared, for those
            out.append(ZoneSpaces(
                prefix + z.key, z.zone, z.lanes, {lane: ids[i] for lane, i in z.lane_ids} if z.lane_ids else {},
                (ids[z.slide[0]], ids[z.slide[1]]) if z.slide else None,
                tuple(map(at, z.inside)) if z.inside else (), tuple(map(at, z.outside)) if z.outside else (),
                ids[z.single] if z.single is not None else None, tuple(map(at, z.halves)) if z.halves else (),
                origin, k))
        return out


class GraphBuilder:
    """Adds the spaces of driven roads to a graph and joins them."""

    def __init__(self) -> None:
        self.graph = nx.DiGraph()
        # The builder adds ~7 spaces and ~13 moves per tile: it writes the graph's own node and adjacency
        # dicts (what DiGraph.add_node/add_edge write, sharing the moves' dicts of a template; why and what it
        # saves: rallyc.compiler.adjacency) and reads a space's attributes from them directly.
        self._nodes, self._succ, self._pred = graph_dicts(self.graph)
        #: lanes that do not agree at a join: (zone key before, zone key after, lanes before, lanes after)
        self.lane_mismatches: list[tuple[str, str, int, int]] = []
        #: each road laid once per (tile, road as driven, surface, danger), then repeated at every step that
        #: lays it again (:class:`_RoadTemplate`)
        self._templates: dict[tuple[str, int, str, tuple[str, ...]], _RoadTemplate] = {}
        #: while recording a template: how each space's progress is computed, and the moves in the order made
        self._recipes: dict[str, _Recipe] | None = None
        self._made: list[tuple[str, str]] | None = None
        #: the moves joining a zone of one template to a zone of another at the next step, once made:
        #: (from, to, attributes) as indexes into each one's ids, and whether the lanes did not agree
        self._joins: dict[tuple[int, int, int, int], tuple[tuple[tuple[int, int, dict[str, Any]], ...], bool]] = {}

    # -- nodes
    def _node(self, sid: str, **attrs: Any) -> str:
        """Add the space ``sid``: every attribute of :class:`~rallyc.compiler.track.Space` (but its id),
        the defaults of the ones not given, in one order."""
        return self._space(sid, {**SPACE_DEFAULTS, **attrs})

    def _space(self, sid: str, data: dict[str, Any]) -> str:
        """Add the space ``sid`` with ``data``: the defaults updated with its own values (so every attribute
        of a Space, in one order)."""
        if len(data) != len(SPACE_DEFAULTS):
            unknown = data.keys() - SPACE_DEFAULTS.keys()
            raise TypeError(f"not a space attribute: {', '.join(sorted(unknown))}")
        if sid in self._nodes:
            self._nodes[sid].update(data)
        else:
            self._succ[sid] = {}
            self._pred[sid] = {}
            self._nodes[sid] = space_attributes(data)
        return sid

    def link(self, x: str, y: str, attrs: dict[str, Any]) -> None:
        """The move ``x -> y`` with ``attrs`` (both spaces exist), as ``graph.add_edge(x, y, **attrs)`` would make
        it, but a move already there gets a new dict (its old one may be shared: :func:`replace_move`)."""
        data = self._succ[x].get(y)
        if data is None:
            self._succ[x][y] = self._pred[y][x] = dict(attrs)
            if self._made is not None:
                self._made.append((x, y))
        else:
            self._succ[x][y] = self._pred[y][x] = {**data, **attrs}

    def add_road(self, step: int, tile: str, driven: DrivenRoad, surface: str, danger: tuple[str, ...],
                 span: Span | None) -> list[ZoneSpaces]:
        """The spaces of one driven road at route step ``step`` (joined zone to zone, shortcuts included).

        A road laid before in this build (same tile, road as driven, surface and danger) is laid again from
        its template: the same spaces, attributes and moves, made in the same order, as building it anew."""
        key = (tile, id(driven), surface, danger)
        template = self._templates.get(key)
        if template is None or template.driven is not driven:
            template = self._templates[key] = _RoadTemplate.record(tile, driven, surface, danger)
        zones = template.lay(self, step, span)
        return zones if zones is not None else self._build_road(step, tile, driven, surface, danger, span)

    def _build_road(self, step: int, tile: str, driven: DrivenRoad, surface: str, danger: tuple[str, ...],
                    span: Span | None) -> list[ZoneSpaces]:
        n = len(driven.zones)
        positions = [(step - 1 + (z.index - 1) / n, step - 1 + z.index / n) for z in driven.zones]
        zones = self.add_zones(step, tile, driven, driven.zones, [z.index for z in driven.zones], positions,
                               surface, danger, span)
        self._add_shortcuts(step, tile, driven, zones, n, surface, danger, span)
        return zones

    def add_zones(self, step: int, tile: str, driven: DrivenRoad, zones: list[DrivenZone], ids: list[int],
                  positions: list[tuple[float, float]], surface: str, danger: tuple[str, ...],
                  span: Span | None, **extra: Any) -> list[ZoneSpaces]:
        """Some zones of a driven road, numbered ``ids``, between the given (back, front) progress, joined in a row.

        Used for whole roads and for the parts of RX fork roads that only a branch drives.
        """
        n = len(driven.zones)
        out: list[ZoneSpaces] = []
        for z, zid, (back, front) in zip(zones, ids, positions):
            out.append(self._add_zone(step, tile, driven, z, n, surface, danger, span, zid, back, front, extra))
        for a, b in zip(out, out[1:]):
            self.join(a, b, driven.inside_lane)
        return out

    def _base(self, step: int, tile: str, driven: DrivenRoad, z: DrivenZone, n: int, surface: str,
              danger: tuple[str, ...], span: Span | None) -> dict[str, Any]:
        """What every space of zone ``z`` shares: where it is, the tile's surface and danger colour, printed effects."""
        colour = danger[0] if len(danger) == 1 or (z.index - 0.5) <= n / 2 else danger[1]
        if not driven.forward and len(danger) > 1:
            colour = danger[1] if (z.index - 0.5) <= n / 2 else danger[0]
        return dict(step=step, tile=tile, road=driven.number, zone=z.index, surface=surface, danger=colour,
                    jump=z.jump, water=z.water, span=span)

    def _add_zone(self, step: int, tile: str, driven: DrivenRoad, z: DrivenZone, n: int, surface: str,
                  danger: tuple[str, ...], span: Span | None, zid: int, back: float, front: float,
                  extra: dict[str, Any]) -> ZoneSpaces:
        key = f"{step}.{zid}"
        base = {**SPACE_DEFAULTS, **self._base(step, tile, driven, z, n, surface, danger, span)}
        base["zone"] = zid
        base.update(extra)
        lanes: list[str] = []
        inside: list[str] = []
        outside: list[str] = []
        halves: list[str] = []
        zs = ZoneSpaces(key, z, lanes, {}, None, inside, outside, None, halves)
        line = z.line_limit
        recipes = self._recipes

        def lim(v: int | None) -> int | None:
            if line is None:
                return v
            return line if v is None else min(v, line)

        if z.kind in ("plain", "slide"):
            for lane in z.lane_ids:
                sid = self._space(f"{key}.{lane}", {**base, "lane": lane, "kind": "lane",
                                                    "limit": lim(z.limits.get(lane)), "progress": front})
                lanes.append(lane)
                zs.lane_ids[lane] = sid
                if recipes is not None:
                    recipes[sid] = (_FRONT, z.index)
            if z.kind == "slide":
                mid = (back + front) / 2
                s1 = self._space(f"{key}.s1", {**base, "lane": "s1", "kind": "slide", "progress": mid,
                                               "limit": lim(None), "jump": None, "water": False})
                s2 = self._space(f"{key}.s2", {**base, "lane": "s2", "kind": "slide", "progress": front,
                                               "limit": None, "jump": None, "water": False})
                if recipes is not None:
                    recipes[s1] = (_MIDDLE, z.index)
                    recipes[s2] = (_FRONT, z.index)
                self.link(s1, s2, {"move": "slide"})
                zs.slide = (s1, s2)
        elif z.kind in ("corner", "limited"):
            is_corner = z.kind == "corner"
            for method, limits, target in (("in", z.inside, inside), ("out", z.outside, outside)):
                k = len(limits)
                for i, value in enumerate(limits, start=1):
                    sid = self._space(f"{key}.{method}{i}", {
                        **base, "lane": f"{method}{i}", "kind": "corner" if is_corner else "lane",
                        "limit": lim(value) if i == 1 else value, "progress": back + (front - back) * i / k,
                        "method": method if is_corner else None, "corner": key if is_corner else None})
                    if recipes is not None:
                        recipes[sid] = (_PART, z.index, i, k)
                    if target:
                        self.link(target[-1], sid, {"move": "straight"})
                    target.append(sid)
            if is_corner:
                self._add_handbrake(zs)
            else:
                self._add_limited_diagonals(zs)
        elif z.kind in ("wide", "junction"):
            lane = "w" if z.kind == "wide" else "j"
            zs.single = self._space(f"{key}.{lane}", {**base, "lane": lane, "kind": z.kind,
                                                      "limit": lim(z.limits.get("*")), "progress": front})
            if recipes is not None:
                recipes[zs.single] = (_FRONT, z.index)
        elif z.kind == "half":
            for lane, i in (("l", 0), ("r", 1)):
                halves.append(self._space(f"{key}.{lane}", {
                    **base, "lane": lane, "kind": "half", "progress": front,
                    "limit": lim(z.limits.get(lane, z.limits.get("*")))}))
                if recipes is not None:
                    recipes[halves[-1]] = (_FRONT, z.index)
        # service: no spaces (the Assistance area is not driven)
        return zs

    def _add_handbrake(self, zs: ZoneSpaces) -> None:
        """MC-HANDBRAKE-01..04: outside (not the last) -> the inside space alongside its front edge."""
        nodes = self._nodes
        for i, out in enumerate(zs.outside[:-1]):
            p = nodes[out]["progress"]
            for j, ins in enumerate(zs.inside):
                back = nodes[zs.inside[j - 1]]["progress"] if j else None
                front = nodes[ins]["progress"]
                starts_before = back is None or back <= p + 1e-9
                if front > p + 1e-9 and starts_before:
                    self.link(out, ins, {"move": "diagonal", "handbrake": True})

    def _add_limited_diagonals(self, zs: ZoneSpaces) -> None:
        """Limited spaces keep their lane divider: a lane change goes to the space ahead in the other lane."""
        nodes = self._nodes
        for a, b in ((zs.inside, zs.outside), (zs.outside, zs.inside)):
            for sid in a[:-1]:
                p = nodes[sid]["progress"]
                ahead = [t for t in b if nodes[t]["progress"] > p + 1e-9]
                if ahead:
                    self.link(sid, ahead[0], {"move": "diagonal"})

    # -- joins
    def join_next(self, a: ZoneSpaces, b: ZoneSpaces) -> None:
        """:meth:`join` the last zone ``a`` of one step to the first zone ``b`` of the next step.

        Between two zones laid from templates, the moves are the same at every pair of steps: made once by
        :meth:`join`, then copied (in the same order) for every other pair."""
        oa, ob = a.origin, b.origin
        if oa is None or ob is None:
            self.join(a, b)
            return
        key = (id(oa.template), a.origin_zone, id(ob.template), b.origin_zone)
        known = self._joins.get(key)
        if known is None:
            made: list[tuple[str, str]] = []
            self._made, mismatches = made, len(self.lane_mismatches)
            try:
                self.join(a, b)
            finally:
                self._made = None
            ia = {sid: i for i, sid in enumerate(oa.ids)}
            ib = {sid: i for i, sid in enumerate(ob.ids)}
            known = self._joins[key] = (tuple((ia[x], ib[y], dict(self._succ[x][y])) for x, y in made),
                                        len(self.lane_mismatches) > mismatches)
            return
        moves, mismatch = known
        succs, preds, xs, ys = oa.succs, ob.preds, oa.ids, ob.ids
        for i, j, attrs in moves:  # shared, as in _RoadTemplate.lay
            succs[i][ys[j]] = preds[j][xs[i]] = attrs
        if mismatch:
            self.lane_mismatches.append((a.key, b.key, len(a.lanes), len(b.lanes)))

    def join(self, a: ZoneSpaces, b: ZoneSpaces, inside_lane: str | None = None, *, lap: bool = False) -> None:
        """Edges from the exit spaces of zone ``a`` to the entry spaces of zone ``b`` just ahead of it.

        ``lap``: the join that closes a circuit's loop; its edges carry ``lap=True`` and go back in progress."""
        nodes = self._nodes
        edge = self._lap_edge if lap else self.edge
        exits, entries = a.exits(), b.entries()
        if not exits or not entries:
            return
        if a.lanes and b.lanes:
            n, m = len(a.lanes), len(b.lanes)
            if n != m and {n, m} != {2, 3}:
                self.lane_mismatches.append((a.key, b.key, n, m))
            for i, moves in lane_moves(n, m).items():
                for j, move in moves:
                    edge(a.lane_ids[a.lanes[i]], b.lane_ids[b.lanes[j]], move)
            if len(exits) == n and len(entries) == m:
                return  # lane spaces only, on both sides: joined above
        if b.zone is not None and b.zone.inside_lane:
            inside_lane = b.zone.inside_lane  # the corner says which side is inside (s-bends)
        lane_exits = set(a.lane_ids.values())
        lane_entries = set(b.lane_ids.values())
        first_in = b.inside[0] if b.inside else None
        first_out = b.outside[0] if b.outside else None
        for x in exits:
            for y in entries:
                if x in lane_exits and y in lane_entries:
                    continue
                if b.slide and y == b.slide[0]:
                    move = "slide"
                elif y == b.single and nodes[y]["kind"] == "wide" and nodes[y]["surface"] == "snow":
                    move = "slide"  # MC-SNOW-01: full-width spaces on snow are taken by sliding
                elif (y == first_in or y == first_out) and x in lane_exits and inside_lane:
                    lane = nodes[x]["lane"]
                    on_inside = lane == inside_lane
                    move = "straight" if on_inside == (y == first_in) else "diagonal"
                else:
                    move = "straight"
                edge(x, y, move)

    def _lap_edge(self, x: str, y: str, move: str, **attrs: Any) -> None:
        self.link(x, y, {"move": move, "lap": True, **attrs})

    def edge(self, x: str, y: str, move: str, **attrs: Any) -> None:
        """A move from space ``x`` to space ``y``, unless it would go back or sideways (CORE-MOVE-04)."""
        nodes = self._nodes
        if nodes[y]["progress"] <= nodes[x]["progress"] + 1e-9:
            return  # never backwards or sideways (CORE-MOVE-04)
        succ = self._succ[x]
        data = succ.get(y)
        if data is None:
            succ[y] = self._pred[y][x] = {"move": move, **attrs}
            if self._made is not None:
                self._made.append((x, y))
        else:  # a dict of its own (the old one may be shared: replace_move)
            succ[y] = self._pred[y][x] = {**data, "move": move, **attrs}

    # -- shortcuts
    def _add_shortcuts(self, step: int, tile: str, driven: DrivenRoad, zones: list[ZoneSpaces], n: int,
                       surface: str, danger: tuple[str, ...], span: Span | None) -> list[ZoneSpaces]:
        """Shortcut spaces (CORE-SHORTCUT-03/04), entered and left from non-corner spaces only.

        "Inside of the bend" is the lane on the side the road turns to as driven
        (``l`` for a left bend, ``r`` for a right one: the same physical lane
        either way round, since reversing swaps both). On s-bends and ``other``
        roads the side of the corner between the two zones tells
        (``corner right inside ...``); where nothing tells, both lanes touch the
        shortcut (an assumption). In a slide zone the
        slide halves touch it too (s1 and s2 of the entry zone, s1 of the exit
        zone: a car may slide into or out of it); a wide zone's one space
        touches it; corner spaces never do.
        """
        out: list[ZoneSpaces] = []
        groups: dict[tuple[int, int], list[DrivenShortcut]] = {}
        for cut in driven.shortcuts:
            groups.setdefault((cut.src, cut.dst), []).append(cut)
        k = 0
        for (src, dst), cuts in sorted(groups.items()):
            if not (1 <= src <= n and 1 <= dst <= n and src < dst):
                continue
            a, b = zones[src - 1], zones[dst - 1]
            start = step - 1 + src / n
            end = step - 1 + (dst - 1) / n
            chain: list[str] = []
            for i, cut in enumerate(cuts, start=1):
                k += 1
                sid = f"{step}.cut{k}"
                self._node(sid, step=step, tile=tile, road=driven.number, zone=None, lane=f"cut{k}",
                           kind="shortcut", surface=surface, danger=danger[0], limit=cut.limit,
                           progress=start + (end - start) * i / len(cuts), span=span)
                if self._recipes is not None:
                    self._recipes[sid] = (_CUT, src, dst, i, len(cuts))
                if chain:
                    self.edge(chain[-1], sid, "shortcut")
                chain.append(sid)
                out.append(ZoneSpaces(sid, None, single=sid))
            side = driven.inside_between(src, dst)
            inside = [side] if side else ["l", "r"]

            def touching(zs: ZoneSpaces, halves: tuple[int, ...]) -> list[str]:
                t = [zs.lane_ids[l] for l in inside if l in zs.lane_ids]
                if zs.slide:
                    t.extend(zs.slide[h] for h in halves)
                if zs.single and zs.zone is not None and zs.zone.kind == "wide":
                    t.append(zs.single)
                return t

            for x in touching(a, (0, 1)):
                self.edge(x, chain[0], "shortcut")
            for y in touching(b, (0,)):
                self.edge(chain[-1], y, "slide" if b.slide and y == b.slide[0] else "straight")
        return out
