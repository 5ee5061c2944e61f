"""Tiles on the hex grid: where each step of a route lies and which way its road is driven.

Route form (no ``at``): step 1 lies on cell (0, 0) with rotation 0 (as printed)
and is driven in its printed direction (or backwards with ``reversed`` or the
turn word that picks that direction). Every next step lies across the previous
step's exit edge; its road and direction come from the step's words and its
rotation puts its driven entry edge on the world edge facing the previous exit.

Absolute form (``at Q R rot N``): the cell and rotation are as written; the
road and direction are the ones whose entry faces the previous step (for the
first step: whose exit faces the second step). A route step with an ``at`` is
checked to land where the route puts it.

Problems become diagnostics (RC2xx); placement stops at a step it cannot place
unless a later step gives its own position.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Generic, TypeVar

from rallyc.compiler.roads import DrivenRoad, drive_road, driven_turn
from rallyc.compiler.placed import PlacedTile
from rallyc.diagnostics import Diagnostic, Span
from rallyc.geometry.hexgrid import Hex, neighbour, opposite, own_to_world, rotation_for
from rallyc.model import codes as rc
from rallyc.syntax import ast
from rallyc.tiles.catalogue import Catalogue, TileInfo

__all__ = ["PlacedStep", "Placement", "Placer", "place_route", "road_choices", "describe_road"]

_T = TypeVar("_T")


class _once(Generic[_T]):
    """``functools.cached_property`` without its lock (Python 3.11 takes one on every first read): the value
    is kept in the instance's ``__dict__`` under the same name, which then answers every later read."""

    def __init__(self, compute: Callable[[Any], _T]) -> None:
        self.compute = compute
        self.name = compute.__name__
        self.__doc__ = compute.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, owner: type | None = None) -> _T:
        if obj is None:
            return self  # type: ignore[return-value]
        value = obj.__dict__[self.name] = self.compute(obj)
        return value


@dataclass
class PlacedStep:
    """One placed route step: where, which road, which way."""

    index: int
    step: ast.Step
    info: TileInfo
    cell: Hex
    rot: int
    driven: DrivenRoad

    # cached: a placed step is not changed once made (a flipped step is a new one, dataclasses.replace)
    @_once
    def entry_world(self) -> str:
        return own_to_world(self.driven.entry, self.rot)

    @_once
    def exit_world(self) -> str | None:
        return own_to_world(self.driven.exit, self.rot) if self.driven.exit else None

    @_once
    def next_cell(self) -> Hex | None:
        e = self.exit_world
        return neighbour(self.cell, e) if e else None

    def placed_tile(self) -> PlacedTile:
        return PlacedTile(self.index, self.info.id, self.cell.q, self.cell.r, self.rot, self.driven.number,
                          self.entry_world, self.exit_world, False, self.step.span, self.info.roles)


@dataclass
class Placement:
    """The result of placing a route: the steps placed (in order) and what went wrong."""

    steps: list[PlacedStep] = field(default_factory=list)
    scenery: list[PlacedTile] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: True when every step was placed
    complete: bool = True

    def placed(self) -> list[PlacedTile]:
        return [s.placed_tile() for s in self.steps] + list(self.scenery)


def describe_road(road: ast.RoadDef) -> str:
    turn = road.turn or driven_turn(road, True)
    return f"{road.entry} -> {road.exit} {turn}"


def road_choices(info: TileInfo) -> str:
    return ", ".join(f"`{info.id} road {i}` ({describe_road(r)})" for i, r in enumerate(info.roads, start=1))


def _span(step: ast.Step) -> Span:
    return step.span


def _directions(info: TileInfo, step: ast.Step, road_numbers: list[int],
                drive: Callable[[ast.RoadDef, int, bool], DrivenRoad] = drive_road) -> list[DrivenRoad]:
    """Every (road, direction) the step's words allow (turn word and ``reversed``), laid out by ``drive``."""
    out = []
    for n in road_numbers:
        road = info.roads[n - 1]
        for forward in (True, False):
            if not forward and road.exit == "end":
                continue
            if step.reversed and forward:
                continue
            t = driven_turn(road, forward)
            if step.turn == "left" and not t.startswith("left"):
                continue
            if step.turn == "right" and not t.startswith("right"):
                continue
            if step.turn == "straight" and t not in ("straight", "s-bend"):
                continue
            out.append(drive(road, n, forward))
    return out


def _word_hint(info: TileInfo, road_numbers: list[int]) -> str:
    """The words that pick each direction of these roads, for hints."""
    parts = []
    for n in road_numbers:
        road = info.roads[n - 1]
        pick = f" road {n}" if len(info.roads) > 1 else ""
        for forward in (True, False):
            if not forward and road.exit == "end":
                continue
            t = driven_turn(road, forward)
            entry = road.entry if forward else road.exit
            if t.startswith("left"):
                word = " left"
            elif t.startswith("right"):
                word = " right"
            else:
                word = "" if forward else " reversed"
            parts.append(f"`{info.id}{pick}{word}` ({t} from its edge {entry})")
    return "; ".join(parts)


class Placer:
    """Places the steps of a route (or of a circuit's loop and branches) one after another."""

    def __init__(self, steps: list[ast.Step], catalogue: Catalogue, known: set[int]):
        self.steps = steps
        self.catalogue = catalogue
        self.known = known
        self.result = Placement()
        #: each road of the file laid out once per direction (a tile used 300 times is driven once):
        #: (id of the road's definition, road number, forward) -> the road driven
        self._driven: dict[tuple[int, int, bool], DrivenRoad] = {}
        #: the road direction a route-form step's words pick, once found: (id of the tile, turn word,
        #: reversed, road) -> the road driven (a step whose words pick none is reported every time)
        self._picked: dict[tuple[int, str | None, bool, int | None], DrivenRoad] = {}

    def drive(self, road: ast.RoadDef, number: int, forward: bool) -> DrivenRoad:
        """``drive_road``, made once per road and direction during this placement and shared (read only)."""
        key = (id(road), number, forward)
        driven = self._driven.get(key)
        if driven is None:
            driven = self._driven[key] = drive_road(road, number, forward)
        return driven

    def error(self, code: str, message: str, span: Span | None, hint: str | None = None) -> None:
        self.result.diagnostics.append(Diagnostic.error(code, message, span, hint))

    def road_numbers(self, idx: int, step: ast.Step, info: TileInfo, absolute: bool) -> list[int] | None:
        if not info.roads:
            self.error(rc.RC203, f"step {idx}: {info.id} has no road; it cannot be a step of the route",
                       _span(step), f"place it as scenery: `scenery {info.id} at Q R rot N`")
            return None
        if step.road is not None:
            if not 1 <= step.road <= len(info.roads):
                self.error(rc.RC203, f"step {idx}: {info.id} has no road {step.road} "
                           f"(it has {len(info.roads)})", _span(step), "write one of " + road_choices(info))
                return None
            return [step.road]
        if len(info.roads) > 1 and not absolute:
            self.error(rc.RC203, f"step {idx}: {info.id} has {len(info.roads)} roads; say which one is driven here",
                       _span(step), "write one of " + road_choices(info))
            return None
        return list(range(1, len(info.roads) + 1))

    def pick_direction(self, idx: int, step: ast.Step, info: TileInfo, numbers: list[int]) -> DrivenRoad | None:
        """Route form: the step's words must pick exactly one road direction."""
        cands = _directions(info, step, numbers, self.drive)
        if len(cands) == 1:
            return cands[0]
        if not cands:
            said = " ".join(w for w in (step.turn, "reversed" if step.reversed else None) if w)
            self.error(rc.RC202, f"step {idx}: {info.id} cannot be driven `{said}`", _span(step),
                       "write one of " + _word_hint(info, numbers))
            return None
        # several: a straight/s-bend without `reversed` is driven as printed
        forward = [c for c in cands if c.forward and c.turn in ("straight", "s-bend", "other")]
        if len(forward) == 1 and all(c.turn in ("straight", "s-bend", "other") for c in cands):
            return forward[0]
        self.error(rc.RC201, f"step {idx}: {info.id} turns left when driven one way and right the other; "
                   "say which way it is driven", _span(step), "write one of " + _word_hint(info, numbers))
        return None

    def run(self) -> Placement:
        prev: PlacedStep | None = None
        for idx, step in enumerate(self.steps, start=1):
            if idx not in self.known:
                self.result.complete = False
                prev = None
                continue
            info = self.catalogue.get(step.tile.text)
            assert info is not None
            placed = self.place(idx, step, info, prev)
            if placed is None:
                self.result.complete = False
            else:
                self.result.steps.append(placed)
            prev = placed
        return self.result

    def place(self, idx: int, step: ast.Step, info: TileInfo, prev: PlacedStep | None) -> PlacedStep | None:
        pos = step.position
        if pos is not None and not 0 <= pos.rot <= 5:
            self.error(rc.RC210, f"step {idx}: rotation {pos.rot} is not 0..5", pos.span,
                       f"write rot {pos.rot % 6}")
            return None
        if idx > 1 and prev is None and pos is None:
            return None  # the step before could not be placed; nothing to chain to
        if prev is not None and prev.next_cell is None:
            self.error(rc.RC307, f"step {idx}: the road of step {prev.index} ({prev.info.id}) is a dead end; "
                       "no tile can follow it", _span(step),
                       f"move {prev.info.id} to the end of the route or remove the steps after it")
            return None
        if pos is None:
            key = (id(info), step.turn, step.reversed, step.road)
            driven = self._picked.get(key)
            if driven is None:
                numbers = self.road_numbers(idx, step, info, absolute=False)
                if numbers is None:
                    return None
                driven = self.pick_direction(idx, step, info, numbers)
                if driven is None:
                    return None
                self._picked[key] = driven
            if prev is None:
                return PlacedStep(idx, step, info, Hex(0, 0), 0, driven)
            exit_world, cell = prev.exit_world, prev.next_cell
            assert exit_world is not None and cell is not None  # a dead end is reported above (RC307)
            return PlacedStep(idx, step, info, cell, rotation_for(driven.entry, opposite(exit_world)), driven)
        return self.place_absolute(idx, step, info, prev)

    def place_absolute(self, idx: int, step: ast.Step, info: TileInfo, prev: PlacedStep | None,
                       ahead: Hex | None = None, behind: Hex | None = None) -> PlacedStep | None:
        """Absolute form. ``ahead``/``behind``: the cells the road should lead to / come from, when known."""
        pos = step.position
        assert pos is not None  # the absolute form is the one with a position
        cell = Hex(pos.q, pos.r)
        numbers = self.road_numbers(idx, step, info, absolute=True)
        if numbers is None:
            return None
        cands = _directions(info, step, numbers, self.drive)
        if prev is not None and prev.next_cell is None:
            self.error(rc.RC307, f"step {idx}: the road of step {prev.index} ({prev.info.id}) is a dead end; "
                       "no tile can follow it", _span(step),
                       f"move {prev.info.id} to the end of the route or remove the steps after it")
            return None
        if prev is not None:
            ahead_of_prev, prev_exit = prev.next_cell, prev.exit_world
            if ahead_of_prev is None or prev_exit is None:
                self.error(rc.RC307, f"step {idx}: the road of step {prev.index} ({prev.info.id}) is a dead end; "
                           "no tile can follow it", _span(step),
                           f"move {prev.info.id} to the end of the route or remove the steps after it")
                return None
            if ahead_of_prev != cell:
                self.error(rc.RC205, f"step {idx}: {info.id} is written at {pos.q} {pos.r} but the road of step "
                           f"{prev.index} ({prev.info.id}) leads to {ahead_of_prev.q} {ahead_of_prev.r}",
                           pos.span, f"write `at {ahead_of_prev.q} {ahead_of_prev.r} rot ...` or check the "
                           f"rotation of step {prev.index}")
                return None
            want = opposite(prev_exit)
            fits = [c for c in cands if own_to_world(c.entry, pos.rot) == want]
            if not fits and (step.turn or step.reversed):
                plain = ast.Step(step.tile, None, False, step.road, step.position, step.span)
                geo = [c for c in _directions(info, plain, numbers, self.drive)
                       if own_to_world(c.entry, pos.rot) == want]
                if geo:
                    c = geo[0]
                    word = "left" if c.turn.startswith("left") else "right" if c.turn.startswith("right") else (
                        "reversed" if not c.forward else "")
                    pick = f" road {c.number}" if len(info.roads) > 1 else ""
                    self.error(rc.RC204, f"step {idx}: no road of {info.id} driven `{step.turn or 'reversed'}` "
                               f"enters from step {prev.index} at rot {pos.rot}: from here it turns {c.turn}, not "
                               f"`{step.turn or 'reversed'}`", _span(step),
                               f"write `{info.id}{pick}{(' ' + word) if word else ''} at {pos.q} {pos.r} rot {pos.rot}`"
                               " or drop the turn word (the position says which way)")
                    return None
            if not fits:
                rots = sorted({rotation_for(c.entry, want) for c in cands})
                hint = (f"with this tile the road enters from world edge {want} at rot "
                        + " or ".join(str(r) for r in rots)) if rots else "check the tile and its road"
                self.error(rc.RC204, f"step {idx}: at rot {pos.rot}, {info.id} has no road entering from step "
                           f"{prev.index} (world edge {want})", pos.span, hint)
                return None
        else:
            fits = cands
            if behind is not None:
                back = [c for c in fits if neighbour(cell, own_to_world(c.entry, pos.rot)) == behind]
                fits = back or fits
        if len(fits) > 1:
            nxt = self.steps[idx].position if idx < len(self.steps) else None
            if ahead is None and nxt is not None:
                ahead = Hex(nxt.q, nxt.r)
            if ahead is not None:
                fwd = [c for c in fits if c.exit and neighbour(cell, own_to_world(c.exit, pos.rot)) == ahead]
                if fwd:
                    fits = fwd
        if len(fits) > 1:
            straight = [c for c in fits if c.forward and c.turn in ("straight", "s-bend", "other")]
            if len(straight) == 1 and len({c.number for c in fits}) == 1 and step.turn is None:
                fits = straight
        if len(fits) > 1:
            self.error(rc.RC201, f"step {idx}: {info.id} at {pos.q} {pos.r} rot {pos.rot} can be driven "
                       f"{len(fits)} ways here", pos.span, "write one of " + _word_hint(info, numbers))
            return None
        if not fits:
            self.error(rc.RC202, f"step {idx}: {info.id} cannot be driven as written", _span(step),
                       "write one of " + _word_hint(info, numbers))
            return None
        return PlacedStep(idx, step, info, cell, pos.rot, fits[0])

    def place_chain(self, indices: list[int], wrap: bool = False, behind: Hex | None = None,
                    ahead: Hex | None = None) -> list[PlacedStep]:
        """Place steps in this order, each after the one before (``wrap``: the last leads to the first)."""
        out: list[PlacedStep] = []
        prev: PlacedStep | None = None
        for k, idx in enumerate(indices):
            step = self.steps[idx - 1]
            if idx not in self.known:
                self.result.complete = False
                prev = None
                continue
            info = self.catalogue.get(step.tile.text)
            assert info is not None  # only steps whose tile is known are placed
            nxt_cell = None
            if k + 1 < len(indices) or wrap:
                nxt = self.steps[indices[(k + 1) % len(indices)] - 1].position
                nxt_cell = Hex(nxt.q, nxt.r) if nxt is not None else None
            elif ahead is not None:
                nxt_cell = ahead
            if step.position is not None and (prev is not None or k > 0 or nxt_cell or behind):
                placed = self.place_absolute(idx, step, info, prev, nxt_cell, behind if k == 0 else None)
            else:
                placed = self.place(idx, step, info, prev)
            if placed is None:
                self.result.complete = False
            else:
                out.append(placed)
                self.result.steps.append(placed)
            prev = placed
        return out


def place_route(steps: list[ast.Step], scenery: list[ast.Scenery], catalogue: Catalogue,
                known: set[int] | None = None) -> Placement:
    """Place every step of a route (1-based ``known`` steps have tiles in the catalogue) and the scenery."""
    if known is None:
        known = {i for i, s in enumerate(steps, start=1) if catalogue.get(s.tile.text) is not None}
    placer = Placer(steps, catalogue, known)
    result = placer.run()
    for sc in scenery:
        info = catalogue.get(sc.tile.text)
        tid = info.id if info else sc.tile.text
        result.scenery.append(PlacedTile(0, tid, sc.position.q, sc.position.r, sc.position.rot % 6, None, None,
                                         None, True, sc.span))
    return result
