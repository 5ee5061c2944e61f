"""The next tile: every tile side that can legally follow a step of a stage.

``suggest(loaded, stage, after)`` places the stage's steps up to ``after`` (as
the compiler does), then tries every road of every tile side in scope, in both
directions, on the cell across the last step's exit. Each try is a
:class:`Suggestion`: the words that pick that road (``210b left``,
``412a reversed road 1``), the cell and rotation it would lie on, whether it
overlaps a tile already laid, what it adds (corners with their limits, jumps,
water, shortcuts, start/finish lines) and whether a finish can still be
reached from its exit. Suggestions are ranked for a designer: legal ones that
keep the stage within its length class first.

Scope: the tiles of the boxes named by ``boxes`` (the file's ``boxes`` lines or
the caller's list), with the copies still left; without boxes every tile side
in scope (bundled and the project's) is offered and copies are not limited.

The finish bound (:data:`FINISH_BOUND`) is cheap and only necessary: a flood
fill over free cells from the candidate's exit. It ignores how sharply roads
can turn, so "reachable" means "not walled in", not "a route exists".

The command line (``rallyc suggest``) and the language server's completion both
call :func:`suggest`.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import AbstractSet, cast
from dataclasses import dataclass, field
from enum import Enum

from rallyc.compiler.roads import DrivenRoad, drive_road, turn_word
from rallyc.model.stage_length import LONG_STAGE, SHORT_STAGE, stage_class
from rallyc.model.tiles import TileRole
from rallyc.geometry.hexgrid import Hex, hex_distance, neighbour, opposite, own_to_world, rotation_for, world_to_own
from rallyc.compiler.placement import PlacedStep, place_route
from rallyc.suggest.ranking import Candidate, Context, Earlier, Ranking, candidate_of, context_of, earlier_stages, \
    published_ranking
from rallyc.syntax import ast
from rallyc.tiles.boxes import owned_copies, unknown_boxes
from rallyc.tiles.catalogue import Catalogue, TileInfo

__all__ = ["Finish", "Suggestion", "SuggestResult", "SuggestError", "suggest", "suggest_stage", "road_features",
           "road_spaces", "step_words", "turn_word", "lanes_join", "FINISH_BOUND", "find_stage", "stage_names"]

#: How "a finish can still be reached" is decided (printed with every result).
FINISH_BOUND = ("free-cell bound: the exit leads into a free cell from which the open board (or a pocket of "
                "free cells) can be reached, and a finish tile is still in scope; it ignores how sharply roads "
                "turn, so it is necessary, not sufficient")

#: a pocket of at least this many free cells counts as room for the rest of the stage
_ROOM = 12


class Finish(str, Enum):
    """Whether a finish line can still be reached after a candidate."""

    HERE = "here"  # the candidate has the finish line
    REACHABLE = "reachable"  # the bound holds
    UNREACHABLE = "unreachable"  # walled in, dead end, or no finish tile left
    PASSED = "passed"  # the finish line is already behind


class SuggestError(ValueError):
    """The request cannot be answered (no such stage, step not placed...)."""


@dataclass(frozen=True)
class Suggestion:
    """One tile side, road and direction that could be the next step."""

    tile: str
    #: the road number, when the tile has more than one road (route form must then say ``road N``)
    road: int | None
    #: the turn as driven: straight, s-bend, left60, right120, other...
    turn: str
    #: driven from its printed entry to its printed exit?
    forward: bool
    #: the word that picks this direction: ``left``, ``right``, ``reversed`` or None (as printed)
    word: str | None
    q: int
    r: int
    rot: int
    surface: str
    danger: tuple[str, str]
    box: str
    #: what the road adds, e.g. ``hairpin left, limits 1/2``, ``jump 4``, ``water``
    adds: tuple[str, ...]
    #: spaces entered on the shortest and the longest line through the tile
    spaces: tuple[int, int]
    #: what the tile would lie on (``step 3 (205a)``, ``scenery 904a``), or None
    overlaps: str | None
    finish: Finish
    #: copies of the tile number left in the boxes (None: not limited)
    copies_left: int | None
    #: the stage's road tiles if this one is laid (and, before the finish, the finish tile still to come)
    length_ok: bool
    #: why this tile would make the stage illegal (empty: legal)
    problems: tuple[str, ...] = ()
    #: a bridge: the same tile, driven again on its other road
    bridge: bool = False
    #: the tile's box already lays other tiles of this stage
    familiar: bool = False
    #: what the road is to a designer (``tight hairpin``, ``straight``, ``finish``...: :func:`rallyc.suggest.ranking.character`)
    character: str = ""
    #: log chance that a published designer lays it next (:mod:`rallyc.suggest.ranking`), and why in words
    score: float = 0.0
    why: str = ""
    #: the candidate as the ranking reads it
    candidate: Candidate | None = field(default=None, repr=False, compare=False)

    @property
    def text(self) -> str:
        """The step as written in the route form: ``210b left``, ``412a reversed road 1``."""
        return step_words(self.tile, self.word, self.road)

    @property
    def legal(self) -> bool:
        return not self.problems

    def rank(self) -> tuple:
        """Sort key: legal first (then fewest problems), within the length class, then what published designers
        would lay next (:mod:`rallyc.suggest.ranking`), finish reachable, the boxes the stage already uses, then by id."""
        return (len(self.problems), not self.length_ok, -self.score, self.finish is Finish.UNREACHABLE,
                self.overlaps is not None, not self.familiar, self.tile, self.road or 0, self.word or "")

    def to_dict(self) -> dict:
        return {
            "tile": self.tile, "road": self.road, "turn": self.turn, "forward": self.forward, "word": self.word, "text": self.text,
            "cell": [self.q, self.r], "rot": self.rot, "surface": self.surface, "danger": list(self.danger),
            "box": self.box, "adds": list(self.adds), "spaces": list(self.spaces), "overlaps": self.overlaps,
            "bridge": self.bridge, "finish": self.finish.value, "copies_left": self.copies_left,
            "length_ok": self.length_ok, "legal": self.legal, "problems": list(self.problems),
            "character": self.character, "why": self.why,
        }

    def summary(self) -> str:
        """One line for people: ``210b left  hairpin left, limits 1/2  at 0 1 rot 3``."""
        adds = ", ".join(self.adds) or "-"
        return f"{self.text:<22} {self.turn:<9} {adds}"


@dataclass
class SuggestResult:
    """Everything ``suggest`` found for one step of one stage."""

    stage: str
    after: int
    #: where the next tile goes and from which world edge it is entered (None: no step laid yet)
    cell: Hex | None
    entry: str | None
    #: road tiles laid so far (the Assistance tile not counted) and the finish line already laid?
    road_tiles: int
    finish_laid: bool
    boxes: list[str] | None
    suggestions: list[Suggestion] = field(default_factory=list)
    bound: str = FINISH_BOUND
    #: the stage so far as the ranking reads it (None: no step laid yet)
    context: Context | None = None

    def to_dict(self) -> dict:
        return {
            "stage": self.stage, "after": self.after,
            "cell": [self.cell.q, self.cell.r] if self.cell else None, "entry": self.entry,
            "road_tiles": self.road_tiles, "finish_laid": self.finish_laid, "boxes": self.boxes,
            "finish_bound": self.bound, "suggestions": [s.to_dict() for s in self.suggestions],
        }


# ------------------------------------------------------------------ words and features


def step_words(tile: str, word: str | None, road: int | None) -> str:
    """A route step in the formatter's word order: tile, turn word, ``road N``."""
    parts = [tile] + ([word] if word else []) + ([f"road {road}"] if road is not None else [])
    return " ".join(parts)


def _limits(values) -> str:
    return "/".join(str(v) for v in values)


def road_features(driven: DrivenRoad) -> list[str]:
    """What a driven road adds, in driving order: corners with their limits, jumps, water, shortcuts, lines."""
    out: list[str] = []
    bend = {"left120": "hairpin left", "right120": "hairpin right", "left60": "bend left",
            "right60": "bend right", "s-bend": "s-bend"}.get(driven.turn)
    corners = [z for z in driven.zones if z.kind in ("corner", "limited") and (z.inside or z.outside)]
    if corners:
        lims = ", ".join(f"limits {min(z.inside)}/{min(z.outside)}" for z in corners)
        out.append(f"{bend or 'corner'}, {lims}")
    elif bend:
        out.append(bend)
    flat = sorted({v for z in driven.zones for v in z.limits.values() if v is not None}
                  | {z.line_limit for z in driven.zones if z.line_limit is not None})
    if flat:
        out.append("limit " + _limits(flat))
    out += [f"jump {z.jump}" for z in driven.zones if z.jump]
    if any(z.water for z in driven.zones):
        out.append("water")
    out += [f"shortcut {s.limit}" for s in driven.shortcuts]
    out += [f"{ln.kind} line" for ln in driven.lines if ln.kind in ("start", "finish")]
    if driven.exit is None:
        out.append("dead end")
    return out


def road_spaces(driven: DrivenRoad) -> tuple[int, int]:
    """Spaces entered on the shortest and the longest line through a driven road.

    One space per zone; a corner counts its inside (shortest) or outside (longest)
    spaces; a shortcut replaces the zones it jumps over by its one space.
    """
    short = [min(len(z.inside), len(z.outside)) if (z.inside and z.outside) else 1 for z in driven.zones]
    long_ = [max(len(z.inside), len(z.outside)) if (z.inside or z.outside) else 1 for z in driven.zones]
    best = sum(short)
    for s in driven.shortcuts:
        skipped = sum(short[s.src:s.dst - 1])
        best = min(best, sum(short) - skipped + 1)
    return best, sum(long_)


def _has_line(driven: DrivenRoad, kind: str) -> bool:
    return any(ln.kind == kind for ln in driven.lines)


def _is_assistance(info: TileInfo) -> bool:
    return TileRole.ASSISTANCE in info.roles


def _entry_lanes(driven: DrivenRoad) -> int | None:
    return driven.zones[0].lanes if driven.zones else None


def _exit_lanes(driven: DrivenRoad) -> int | None:
    return driven.zones[-1].lanes if driven.zones else None


def lanes_join(a: int | None, b: int | None) -> bool:
    """TRACK-TILE-03: lane counts at a join are equal or go between 2 and 3 (as RC208 checks)."""
    return a is None or b is None or a == b or {a, b} == {2, 3}


# ------------------------------------------------------------------ the board


@dataclass
class _Board:
    """Cells taken by the steps laid so far and by scenery."""

    cells: dict[Hex, list[tuple[str, str, int, int | None]]]  # cell -> [(what, tile, rot, road)]
    #: answers of :meth:`room_from` so far: every candidate of one step asks about one of at most six exits
    _room: dict[tuple[Hex, frozenset[Hex], bool], bool] = field(default_factory=dict)

    def free(self, cell: Hex, extra: AbstractSet[Hex] = frozenset()) -> bool:
        return cell not in self.cells and cell not in extra

    def room_from(self, start: Hex, extra: set[Hex], through: bool = False) -> bool:
        """Free cells around ``start`` reach the open board or make a pocket of at least ``_ROOM`` cells.

        ``through``: ``start`` holds a tile whose road the route joins (a bridge); the fill starts there.
        """
        key = (start, frozenset(extra), through)
        if key not in self._room:
            self._room[key] = self._flood(start, extra, through)
        return self._room[key]

    def _flood(self, start: Hex, extra: set[Hex], through: bool) -> bool:
        if not through and not self.free(start, extra):
            return False
        taken = list(self.cells) + list(extra)
        centre = taken[0] if taken else start
        radius = max((hex_distance(centre, c) for c in taken), default=0) + 2
        seen = {start}
        todo = [start]
        while todo:
            c = todo.pop()
            if hex_distance(centre, c) > radius or len(seen) >= _ROOM:
                return True
            for e in range(6):
                n = neighbour(c, e)
                if n not in seen and self.free(n, extra):
                    seen.add(n)
                    todo.append(n)
        return False


def _board(placed: list[PlacedStep], scenery: list[ast.Scenery]) -> _Board:
    cells: dict[Hex, list] = {}
    for ps in placed:
        cells.setdefault(ps.cell, []).append((f"step {ps.index} ({ps.info.id})", ps.info.id, ps.rot,
                                              ps.driven.number))
    for sc in scenery:
        cells.setdefault(Hex(sc.position.q, sc.position.r), []).append(
            (f"scenery {sc.tile.text}", sc.tile.text, sc.position.rot % 6, None))
    return _Board(cells)


# ------------------------------------------------------------------ the engine


def stage_names(loaded) -> list[str]:
    """Names of every stage of the root file (rallies' stages and one-off stages), in order."""
    return [s.name.text for s in _stages(loaded.root)]


def _stages(doc: ast.Document) -> list[ast.Stage]:
    out = list(doc.stages)
    for r in doc.rallies:
        out += r.stages
    return sorted(out, key=lambda s: (s.span.line if s.span else 0))


def find_stage(loaded, name: str | None) -> ast.Stage:
    """The stage called ``name`` (case-insensitive) in the root file; the only one when ``name`` is None."""
    stages = _stages(loaded.root)
    if not stages:
        raise SuggestError("the file has no stage (suggest works on the stages of rallies and one-off stages)")
    if name is None:
        if len(stages) == 1:
            return stages[0]
        raise SuggestError("the file has several stages; say which with --stage (" +
                           ", ".join(s.name.text for s in stages) + ")")
    for s in stages:
        if s.name.text.lower() == name.lower():
            return s
    raise SuggestError(f"no stage {name}; the file has " + ", ".join(s.name.text for s in stages))


def _boxes_of(loaded) -> list[str] | None:
    """The boxes of the file's ``boxes`` lines (a box listed twice holds twice its tiles, as ``check`` counts it;
    RC145 reminds the designer)."""
    names = [b.text for doc in loaded.documents for bx in doc.boxes for b in bx.names]
    return names or None


def suggest(loaded, stage: str | None = None, after: int | None = None, boxes: list[str] | None = None,
            catalogue: Catalogue | None = None, ranking: Ranking | None = None) -> SuggestResult:
    """Suggestions for the step after ``after`` (default: the stage's last step) of a loaded file's stage.

    ``boxes`` replaces the file's ``boxes`` lines. Raises :class:`SuggestError` when the
    request cannot be answered (no such stage, a step that names no tile in scope...).
    """
    st = find_stage(loaded, stage)
    cat = catalogue or Catalogue.from_tilesets(loaded.tilesets)
    return suggest_stage(st, cat, after, boxes if boxes is not None else _boxes_of(loaded), ranking,
                         earlier_stages(_stages(loaded.root), st, cat))


def suggest_stage(stage: ast.Stage, catalogue: Catalogue, after: int | None = None,
                  boxes: list[str] | None = None, ranking: Ranking | None = None,
                  earlier: tuple[Earlier, ...] = ()) -> SuggestResult:
    """Suggestions for the step after ``after`` of one stage (see :func:`suggest`), ranked by ``ranking`` (default:
    what every published design does, :func:`rallyc.suggest.ranking.published_ranking`); ``earlier``: the tile numbers of
    the rally's stages before this one (:func:`rallyc.suggest.ranking.earlier_stages`), which the ranking reads too."""
    if getattr(stage, "area", None) is not None:
        raise SuggestError(f"stage {stage.name.text} is a route over an area; suggest the next tile of the area's "
                           "own route, or write the stage's tiles in the stage")
    steps = stage.steps
    after = len(steps) if after is None else after
    if not 0 <= after <= len(steps):
        raise SuggestError(f"stage {stage.name.text} has {len(steps)} steps; --after takes 0..{len(steps)}")
    if boxes:
        unknown = unknown_boxes(boxes, catalogue.boxes())
        if unknown:
            raise SuggestError(unknown)
    head = steps[:after]
    for i, s in enumerate(head, start=1):
        if catalogue.get(s.tile.text) is None:
            raise SuggestError(f"step {i}: no tile {s.tile.text} in scope; fix it first (rallyc check)")
    placement = place_route(head, stage.scenery, catalogue)
    if after and not any(ps.index == after for ps in placement.steps):
        first = placement.diagnostics[0].message if placement.diagnostics else "it could not be placed"
        raise SuggestError(f"step {after} of stage {stage.name.text} is not placed: {first}")
    placed = placement.steps
    board = _board(placed, stage.scenery)
    road_tiles = sum(1 for s in head if not _is_assistance(cast(TileInfo, catalogue.get(s.tile.text))))
    finish_laid = any(_has_line(ps.driven, "finish") for ps in placed)
    start_laid = any(_has_line(ps.driven, "start") for ps in placed)
    used: Counter[str] = Counter()
    seen_bridge: set[tuple] = set()
    for ps in placed:
        key = (ps.cell, ps.info.id, ps.rot)
        if key in seen_bridge:
            continue  # one tile driven twice is one physical tile
        seen_bridge.add(key)
        used[ps.info.number] += 1
    for sc in stage.scenery:
        info = catalogue.get(sc.tile.text)
        if info is not None:
            used[info.number] += 1

    last = placed[-1] if after else None
    result = SuggestResult(stage.name.text, after, None, None, road_tiles, finish_laid, boxes)
    if last is not None:
        if last.next_cell is None:
            return result  # a dead end: nothing can follow
        result.cell = last.next_cell
        assert last.exit_world is not None  # it has a next cell
        result.entry = opposite(last.exit_world)
    tiles = [t for t in catalogue if t.roads and (not boxes or t.box in boxes)]
    finish_left = _finish_left(tiles, catalogue, used, boxes)
    for info in tiles:
        copies = owned_copies(catalogue, info.number, boxes) - used[info.number] if boxes else None
        for n, road in enumerate(info.roads, start=1):
            for forward in (True, False):
                if not forward and road.exit == "end":
                    continue
                driven = drive_road(road, n, forward)
                found = _try(catalogue, info, driven, last, result, board, copies, finish_left, start_laid,
                             finish_laid, road_tiles)
                if found is not None:
                    result.suggestions.append(found)
    familiar = {ps.info.box for ps in placed}
    tried = result.suggestions
    if placed:
        result.context = context_of(placed, earlier)
        ranked = (ranking or published_ranking()).rank(result.context, [cast(Candidate, s.candidate) for s in tried])
        tried = [dataclasses.replace(s, familiar=s.box in familiar, score=r.score, why=r.why)
                 for s, r in zip(tried, ranked)]
    result.suggestions = sorted(tried, key=Suggestion.rank)
    return result


def _finish_left(tiles: list[TileInfo], catalogue: Catalogue, used: Counter, boxes) -> bool:
    for t in tiles:
        if boxes and owned_copies(catalogue, t.number, boxes) - used[t.number] <= 0:
            continue
        for n, road in enumerate(t.roads, start=1):
            if any(isinstance(i, ast.Line) and i.kind == "finish" for i in road.items):
                return True
    return False


def _try(catalogue: Catalogue, info: TileInfo, driven: DrivenRoad, last: PlacedStep | None, result: SuggestResult, board: _Board,
         copies: int | None, finish_left: bool, start_laid: bool, finish_laid: bool,
         road_tiles: int) -> Suggestion | None:
    problems: list[str] = []
    if last is None:  # the first step: as the route form lays it, on 0 0 at rot 0
        if not _has_line(driven, "start"):
            return None  # only tiles with a start line begin a stage
        cell, rot = Hex(0, 0), 0
    else:
        assert result.cell is not None and result.entry is not None  # set from the last step
        cell = result.cell
        rot = rotation_for(driven.entry, result.entry)
    bridge = False
    overlaps = None
    for what, tile, orot, oroad in board.cells.get(cell, []):
        if tile == info.id and orot == rot and oroad is not None and oroad != driven.number:
            bridge = True  # MC-BRIDGE-01: one tile driven twice on two roads
            continue
        overlaps = what
    if overlaps:
        problems.append(f"lands on cell {cell.q} {cell.r}, where {overlaps} already is (RC206)")
    if copies is not None and copies <= 0 and not bridge:
        return None  # no copy left in the boxes
    if last is not None and not lanes_join(_exit_lanes(last.driven), _entry_lanes(driven)):
        problems.append(f"{_exit_lanes(last.driven)} lanes meet {_entry_lanes(driven)} lanes (RC208)")
    has_start, has_finish = _has_line(driven, "start"), _has_line(driven, "finish")
    if last is not None and has_start:
        problems.append("a second start line (RC302)")
    if has_finish and finish_laid:
        problems.append("a second finish line (RC304)")
    exit_world = own_to_world(driven.exit, rot) if driven.exit else None
    nxt = neighbour(cell, exit_world) if exit_world else None
    joins = False  # the exit meets the road of a tile already laid (a bridge driven again)
    if nxt is not None and exit_world is not None and not board.free(nxt) and not finish_laid and not has_finish:
        what, tile, orot, _road = board.cells[nxt][0]
        other = catalogue.get(tile)
        facing = world_to_own(opposite(exit_world), orot)
        joins = other is not None and any(facing in (r.entry, r.exit) for r in other.roads)
        if not joins:
            problems.append(f"its exit runs into {what}, which has no road on that edge (RC207)")
    assistance = _is_assistance(info)
    if assistance and not finish_laid:
        problems.append("a dead end before the finish line (the Assistance tile goes after the finish)")
    # the finish
    if finish_laid:
        finish = Finish.PASSED
    elif has_finish:
        finish = Finish.HERE
    elif nxt is None or not finish_left or not board.room_from(nxt, {cell}, through=joins):
        finish = Finish.UNREACHABLE
    else:
        finish = Finish.REACHABLE
    if finish is Finish.UNREACHABLE and not problems:
        problems.append("no finish can be reached from its exit (" + ("dead end" if nxt is None else
                        "no finish tile left" if not finish_left else "walled in") + ")")
    # the length class (TRACK-STAGE-01..03), as RC308 counts it
    tiles_after = road_tiles + (0 if assistance else 1)
    if finish_laid:
        length_ok = True
    elif has_finish:
        length_ok = SHORT_STAGE <= tiles_after <= LONG_STAGE
    else:
        length_ok = tiles_after + 1 <= LONG_STAGE
    candidate = candidate_of(info, driven, cell, nxt, bridge)
    return Suggestion(info.id, driven.number if len(info.roads) > 1 else None, driven.turn, driven.forward,
                      turn_word(driven),
                      cell.q, cell.r, rot, info.surface, cast("tuple[str, str]", tuple(info.danger)), info.box,
                      tuple(road_features(driven)),
                      road_spaces(driven), overlaps, finish, copies, length_ok, tuple(problems), bridge,
                      character=candidate.character, candidate=candidate)


def class_after(result: SuggestResult, suggestion: Suggestion) -> str:
    """The rulebook class (Short/Medium/Long) the stage would be if it ended with this finish tile."""
    return stage_class(result.road_tiles + 1)
