"""What published designers lay next: the ranking of ``rallyc suggest``, learnt from the bundled published designs.

Every published step (the tiles laid so far, then the tile the designer laid next) is one :class:`Step`, read from
the published stages of ``examples/`` (:data:`PUBLISHED`: the rulebooks' Ready to Play rallies as the Tabletop
Simulator module lays them out). A candidate's chance comes in two parts:

- what is rare: a tile from a box the stage does not use yet, a tile number already laid (both sides of a tile
  are one tile). Their chance is counted (:class:`Counts`): as often as published designers did it.
- among the usual candidates, a small log-linear model (a conditional logit) over named features
  (:data:`FEATURES`), each a reading a designer would give: the rhythm (the character of the tile after the
  character of the last one, as counted), where the finish falls (the length class as designers use it), how many
  published stages lay the tile side and its number, a change of surface, a tile laid reversed (as often as
  designers reverse a tile of its character: straights often, a finish never), a bend turning the way the last one
  did, the side (a or b) of the last tile again, the rally's earlier stages (the same tiles again, or fresh ones, as
  this stage has done so far, shared among the tiles of each kind left; the side an earlier stage laid; a pair of
  tiles that follow each other there), the tile number beside or next-but-one to the last one (designers take a
  box's tiles in runs), and the way the exit leads: back toward the middle of the table (cell 0 0) or away. Its
  weights are fitted on the published designs by maximum likelihood with a unit Gaussian prior (:func:`fit_weights`)
  and shipped in ``rallyc/data/suggest-weights.json`` (``python benchmarks/suggest_ranking.py --write-weights``
  writes it; a test checks it is the fit of today's designs).

Each suggestion says why, its main reason first: the feature that lifts it most above the other candidates, in
published counts (``a fast bend after a hairpin, as in 9 of 40 published steps after a hairpin``).
:mod:`rallyc.suggest.ranking_fit` fits and measures the ranking on designs it never saw (``benchmarks/suggest_ranking.py``).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Mapping, NamedTuple, Sequence

from rallyc.compiler.placement import PlacedStep, place_route
from rallyc.compiler.roads import DrivenRoad, turn_word
from rallyc.geometry.hexgrid import Hex, hex_distance
from rallyc.model.tiles import TileRole
from rallyc.project.loader import load
from rallyc.data.resources import examples_dir, tilesets_dir
from rallyc.syntax import ast
from rallyc.tiles.catalogue import Catalogue, TileInfo
from rallyc.cache.folder import cached_pickle

__all__ = ["PUBLISHED", "FEATURES", "WEIGHTS_PATH", "Earlier", "Step", "Context", "Candidate", "Counts", "Ranking", "Ranked",
           "character", "shape_of", "context_of", "candidate_of", "kind", "features", "FeatureReader", "published_stages", "published_steps",
           "published_ranking", "published_inputs", "earlier_stages", "load_weights", "log_sum_exp", "way_of"]

#: the bundled designs whose layouts are published (examples/README.md): file, and the stages (None: all of them).
#: Auto Tour 1's SS1 and SS2 are our own layouts of the listed tiles, not a designer's.
PUBLISHED: tuple[tuple[str, tuple[str, ...] | None], ...] = (
    ("rally-1.rally", None), ("rally-2.rally", None), ("rally-3.rally", None), ("rally-4.rally", None),
    ("rally-5.rally", None), ("rally-6.rally", None), ("auto-tour-1.rally", ("SS3",)),
)

#: the features of the log-linear part, in the order of the weights file
FEATURES: tuple[str, ...] = ("rhythm", "finish", "assistance", "tile", "surface", "reversed", "earlier", "reuse",
                             "fresh", "follows", "number_next", "number_two", "centre", "far", "way", "side",
                             "number", "earlier_side")

#: the fitted weights of :data:`FEATURES` (``python benchmarks/suggest_ranking.py --write-weights``)
WEIGHTS_PATH = Path(__file__).resolve().parent.parent / "data" / "suggest-weights.json"

#: half a count added to every case (Jeffreys' prior): an unseen case is unlikely, never impossible
_PRIOR = 0.5

#: the exit leads farther than this from the middle of the table (cell 0 0): the published stages never do
#: (every published tile lies within 4 cells of it)
_TABLE_RADIUS = 3

#: the features a why may name when they are 0 (a yes/no feature is otherwise named only when it holds)
_SAID_ABSENT = frozenset({"surface", "reversed", "rhythm", "finish", "assistance", "tile", "reuse", "fresh",
                          "centre", "way", "side", "number", "earlier_side"})

#: a feature lifts a candidate notably above the average one by this much (log chance): said in its why
_NOTABLE = 0.05

#: the middle of the table: the published layouts are centred on it
_MIDDLE = Hex(0, 0)

_TURN_SHAPES = {"straight": "straight", "s-bend": "s-bend", "left60": "bend", "right60": "bend",
                "left120": "hairpin", "right120": "hairpin"}


def shape_of(driven: DrivenRoad) -> str:
    """The road's shape as driven: ``straight``, ``s-bend``, ``bend`` (60 degrees), ``hairpin`` (120) or ``other``."""
    return _TURN_SHAPES.get(driven.turn, "other")


def character(driven: DrivenRoad) -> str:
    """What a driven road is to a designer: ``finish``, ``assistance``, or its shape with how tight its corner
    is (the lowest inside limit: ``tight`` 1-2, ``medium`` 3, ``fast`` 4 and over), e.g. ``tight hairpin``."""
    if any(ln.kind == "finish" for ln in driven.lines):
        return "finish"
    if driven.exit is None:
        return "assistance"
    limits = [min(z.inside) for z in driven.zones if z.kind in ("corner", "limited") and z.inside]
    shape = shape_of(driven)
    if not limits:
        return shape
    tight = min(limits)
    return ("tight " if tight <= 2 else "medium " if tight == 3 else "fast ") + shape


class Earlier(NamedTuple):
    """An earlier stage of the rally as the ranking reads it."""

    name: str
    #: its tile numbers and its tile sides (``216a``), in driving order
    numbers: tuple[str, ...]
    tiles: tuple[str, ...] = ()


@dataclass(frozen=True)
class Context:
    """What the ranking reads of the stage so far."""

    #: the character of the last tile laid (:func:`character`; the start tile is its shape)
    before: str
    #: road tiles laid (the Assistance tile not counted)
    road_tiles: int
    finish_laid: bool
    #: boxes of the tiles laid, tile numbers laid, surface and tile number of the last tile
    boxes: frozenset[str]
    numbers: frozenset[str]
    surface: str
    last_number: str
    #: the rally's stages before this one (the same file's stages before it)
    earlier: tuple[Earlier, ...] = ()
    #: the tiles of this stage between start and finish so far, and how many of them an earlier stage lays
    middle: int = 0
    reused: int = 0
    #: the last tile laid (its side: ``216a``) and the way the last bend of the stage turned (``left``, ``right``)
    last_tile: str = ""
    last_way: str | None = None


@dataclass(frozen=True)
class Candidate:
    """A tile that could be laid next, as the ranking reads it."""

    tile: str
    character: str
    box: str
    number: str
    surface: str
    #: the same tile driven again on its other road (a bridge): not a second copy
    bridge: bool
    #: laid with the word ``reversed`` (a straight or s-bend driven from its printed exit)
    reversed: bool
    #: the cell it lies on and the cell its exit leads to (None: a dead end)
    cell: Hex
    exit_cell: Hex | None
    #: the way it turns (``left``, ``right``; None: straight on)
    way: str | None = None

    @property
    def side(self) -> str:
        """The printed side (``a``, ``b``; empty for a tile with one face)."""
        return self.tile[len(self.number):]


@dataclass(frozen=True)
class Step:
    """One published step: the stage so far and the tile its designer laid next."""

    design: str
    stage: str
    after: int
    context: Context
    laid: Candidate

    @property
    def tile(self) -> str:
        return self.laid.tile


@dataclass(frozen=True)
class Ranked:
    """A candidate's log chance and the words that say why (its main reason first)."""

    score: float
    why: str


def _is_road(info: TileInfo) -> bool:
    return TileRole.ASSISTANCE not in info.roles


def candidate_of(info: TileInfo, driven: DrivenRoad, cell: Hex, exit_cell: Hex | None, bridge: bool) -> Candidate:
    """A tile side driven one way on ``cell`` as the ranking reads it."""
    return Candidate(info.id, character(driven), info.box, info.number, info.surface, bridge,
                     turn_word(driven) == "reversed", cell, exit_cell, way_of(driven))


def way_of(driven: DrivenRoad) -> str | None:
    """The way a road turns as driven: ``left``, ``right``, or None (straight on, an s-bend)."""
    return "left" if driven.turn.startswith("left") else "right" if driven.turn.startswith("right") else None


def context_of(placed: Sequence[PlacedStep], earlier: Sequence[Earlier] = ()) -> Context:
    """The context of the step after ``placed`` (at least the start tile); ``earlier``: the rally's stages before."""
    road = [ps for ps in placed if _is_road(ps.info)]
    before = character(placed[-1].driven) if len(placed) > 1 else shape_of(placed[-1].driven)
    middle = [ps.info.number for ps in placed[1:] if character(ps.driven) not in ("finish", "assistance")]
    earlier_numbers = {n for e in earlier for n in e.numbers}
    ways = [w for w in (way_of(ps.driven) for ps in placed) if w is not None]
    return Context(before, len(road), any(ln.kind == "finish" for ps in placed for ln in ps.driven.lines),
                   frozenset(ps.info.box for ps in placed), frozenset(ps.info.number for ps in placed),
                   placed[-1].info.surface, placed[-1].info.number, tuple(earlier), len(middle),
                   sum(n in earlier_numbers for n in middle), placed[-1].info.id, ways[-1] if ways else None)


def earlier_stages(stages: Sequence[ast.Stage], stage: ast.Stage, catalogue: Catalogue) -> tuple[Earlier, ...]:
    """The stages listed before ``stage`` (a rally's, or a file's one-off stages), as tile numbers in driving order;
    a step that names no tile in scope is left out."""
    out = []
    for other in stages:
        if other is stage:
            break
        infos = [i for i in (catalogue.get(s.tile.text) for s in other.steps) if i is not None]
        out.append(Earlier(other.name.text, tuple(i.number for i in infos), tuple(i.id for i in infos)))
    return tuple(out)


def published_stages(folder: Path | None = None) -> list[tuple[str, ast.Stage, Catalogue, tuple[Earlier, ...]]]:
    """(design, stage, catalogue, earlier stages) of every published stage (:data:`PUBLISHED`), the design named by
    its file; the earlier stages are the rally's stages before it, published or not (Auto Tour 1's SS1 and SS2)."""
    folder = folder or examples_dir()
    out = []
    for name, only in PUBLISHED:
        loaded = load(folder / name)
        catalogue = Catalogue.from_tilesets(loaded.tilesets)
        stages = list(loaded.root.stages) + [s for r in loaded.root.rallies for s in r.stages]
        out += [(Path(name).stem, stage, catalogue, earlier_stages(stages, stage, catalogue)) for stage in stages
                if stage.steps and (only is None or stage.name.text in only)]
    return out


def _stage_steps(design: str, stage: ast.Stage, catalogue: Catalogue, earlier: tuple[Earlier, ...]) -> list[Step]:
    placed = place_route(stage.steps, [], catalogue).steps
    out = []
    for k in range(1, len(placed)):
        ps = placed[k]
        bridge = any(p.cell == ps.cell and p.info.id == ps.info.id for p in placed[:k])
        out.append(Step(design, stage.name.text, k, context_of(placed[:k], earlier),
                        candidate_of(ps.info, ps.driven, ps.cell, ps.next_cell, bridge)))
    return out


def _read_published(folder: Path) -> list[Step]:
    return [step for design, stage, catalogue, earlier in published_stages(folder)
            for step in _stage_steps(design, stage, catalogue, earlier)]


def published_inputs(folder: Path) -> list[str | bytes]:
    """What the published steps are read from: this module, the published files, the bundled tilesets."""
    parts: list[str | bytes] = [Path(__file__).read_bytes()]
    parts += [(folder / name).read_bytes() for name, _ in PUBLISHED]
    parts += [p.read_bytes() for p in sorted(tilesets_dir().glob("*.rally"))]
    return parts


def published_steps(folder: Path | None = None) -> list[Step]:
    """Every step of the published designs, in file and driving order (kept in the user cache)."""
    folder = folder or examples_dir()
    return cached_pickle("published-steps", published_inputs(folder), lambda: _read_published(folder))


def _share(count: float, total: float, cases: int) -> float:
    return (count + _PRIOR) / (total + _PRIOR * cases)


def _article(character: str) -> str:
    if character in ("finish", "assistance"):
        return {"finish": "the finish", "assistance": "the Assistance tile"}[character]
    return ("an " if character[0] in "aeiou" or character.startswith("s-") else "a ") + character


def _plural(character: str) -> str:
    return {"finish": "finishes", "assistance": "Assistance tiles"}.get(character, character + "s")


def _changes(before: str, after: str) -> bool:
    """A change of surface (gravel to asphalt...); the Assistance tile (surface ``none``) changes none."""
    return "none" not in (before, after) and before != after


def _number_gap(a: str, b: str) -> int | None:
    return abs(int(a) - int(b)) if a.isdigit() and b.isdigit() else None


def _follows(context: Context, number: str) -> str | None:
    """The earlier stage where ``number`` and the last tile laid follow each other (either way), if any."""
    for name, numbers, _ in context.earlier:
        if any({a, b} == {context.last_number, number} for a, b in zip(numbers, numbers[1:])):
            return name
    return None


def _is_middle(candidate: Candidate) -> bool:
    return candidate.character not in ("finish", "assistance")


@dataclass
class Counts:
    """What the designers of some published steps did, counted (:meth:`fit`)."""

    steps: int = 0
    #: road tiles laid -> [steps with the finish still to come, of which the finish was laid next]
    finish_at: dict[int, list[int]] = field(default_factory=dict)
    after_finish: Counter[str] = field(default_factory=Counter)
    #: character of the last tile -> character of the next (finish and Assistance apart)
    rhythm: dict[str, Counter[str]] = field(default_factory=dict)
    characters: set[str] = field(default_factory=set)
    #: tile id, tile number -> published stages that lay it
    stages_with: Counter[str] = field(default_factory=Counter)
    stages_with_number: Counter[str] = field(default_factory=Counter)
    stages: int = 0
    new_box: int = 0
    number_again: int = 0
    surface_changed: int = 0
    #: steps whose tile number is beside (1) or next-but-one (2) to the last one's
    number_gap: Counter[int] = field(default_factory=Counter)
    #: character -> [steps that lay it, of which reversed]
    reversed_as: dict[str, list[int]] = field(default_factory=dict)
    #: bends after a bend of the stage, and how many turn the same way as the last one
    bends: int = 0
    same_way: int = 0
    #: steps after a tile with a side, and how many lay the same side (a after a, b after b)
    sided: int = 0
    same_side: int = 0
    #: steps laying a tile number an earlier stage lays, and how many lay the side it laid
    again_earlier: int = 0
    same_side_earlier: int = 0

    @classmethod
    def fit(cls, steps: Iterable[Step]) -> "Counts":
        """Count what the designers of ``steps`` did."""
        m = cls()
        seen: dict[tuple[str, str], set[str]] = {}
        seen_numbers: dict[tuple[str, str], set[str]] = {}
        for s in steps:
            m.steps += 1
            c, laid = s.context, s.laid
            seen.setdefault((s.design, s.stage), set()).add(laid.tile)
            seen_numbers.setdefault((s.design, s.stage), set()).add(laid.number)
            m.new_box += laid.box not in c.boxes
            m.number_again += laid.number in c.numbers and not laid.bridge
            m.surface_changed += _changes(c.surface, laid.surface)
            rev = m.reversed_as.setdefault(laid.character, [0, 0])
            rev[0] += 1
            rev[1] += laid.reversed
            if laid.way is not None and c.last_way is not None:
                m.bends += 1
                m.same_way += laid.way == c.last_way
            last_side = c.last_tile[len(c.last_number):]
            if last_side and laid.side:
                m.sided += 1
                m.same_side += laid.side == last_side
            if _is_middle(laid) and any(laid.number in e.numbers for e in c.earlier):
                m.again_earlier += 1
                m.same_side_earlier += any(laid.tile in e.tiles for e in c.earlier)
            gap = _number_gap(c.last_number, laid.number)
            if gap in (1, 2):
                m.number_gap[gap] += 1
            if c.finish_laid:
                m.after_finish[laid.character] += 1
                continue
            at = m.finish_at.setdefault(c.road_tiles, [0, 0])
            at[0] += 1
            if laid.character == "finish":
                at[1] += 1
                continue
            m.rhythm.setdefault(c.before, Counter())[laid.character] += 1
            m.characters.add(laid.character)
        m.stages = len(seen)
        for tiles in seen.values():
            m.stages_with.update(tiles)
        for numbers in seen_numbers.values():
            m.stages_with_number.update(numbers)
        return m

    def p_finish(self, context: Context) -> tuple[float, int, int]:
        """The chance that the finish comes next, and (stages that ended here, stages that reached here)."""
        reached, ended = self.finish_at.get(context.road_tiles, [0, 0])
        return _share(ended, reached, 2), ended, reached

    def rare(self, context: Context, cand: Candidate) -> tuple[float, list[str]]:
        """The counted log chance of what published designers hardly ever do (:func:`kind`), and the words for it."""
        score, words = 0.0, []
        new_box, again = kind(context, cand)
        if new_box:
            score += math.log(_share(self.new_box, self.steps, 2))
            words.append(f"a box the stage does not use yet ({self.new_box} of {self.steps} published steps)")
        else:
            score += math.log(_share(self.steps - self.new_box, self.steps, 2))
        if again:
            score += math.log(_share(self.number_again, self.steps, 2))
            words.append(f"tile {cand.number} is already laid ({self.number_again} of {self.steps} published steps)")
        else:
            score += math.log(_share(self.steps - self.number_again, self.steps, 2))
        return score, words


def kind(context: Context, cand: Candidate) -> tuple[bool, bool]:
    """What is rare about a candidate: (from a box the stage does not use yet, a tile number already laid)."""
    return cand.box not in context.boxes, cand.number in context.numbers and not cand.bridge


class FeatureReader:
    """The named features of the candidates of one step (:data:`FEATURES`): what depends on the stage so far alone
    is read once; ``candidates``: every candidate of the step, among whose tile numbers the earlier stages' share
    and the fresh tiles' are divided (:attr:`pool`)."""

    def __init__(self, counts: Counts, context: Context, candidates: Sequence[Candidate] = ()):
        self.counts, self.context = counts, context
        after = counts.after_finish
        self._after = (sum(after.values()), len(after) + 1)
        p_finish = counts.p_finish(context)[0]
        self._finish = (math.log(p_finish), math.log(1 - p_finish))
        self._follow = counts.rhythm.get(context.before, Counter())
        self._follow_total = sum(self._follow.values())
        rate = _share(context.reused, context.middle, 2)
        self._earlier = {n for e in context.earlier for n in e.numbers}
        # the rate is shared among the tile numbers still to choose from: one of few earlier tiles is likelier
        # than one of many fresh ones at the same rate
        usual = {c.number for c in candidates if _is_middle(c) and kind(context, c) == (False, False)}
        self.pool = (len(usual & self._earlier), len(usual - self._earlier))
        self._reuse = (math.log(rate / max(1, self.pool[0])), math.log((1 - rate) / max(1, self.pool[1])))
        self._earlier_tiles = {t for e in context.earlier for t in e.tiles}
        self._rhythm: dict[str, float] = {}
        self._last_side = context.last_tile[len(context.last_number):]

    def _reversed_of(self, cand: Candidate) -> float:
        laid, reversed_ = self.counts.reversed_as.get(cand.character, (0, 0))
        share = _share(reversed_, laid, 2)
        return math.log(share if cand.reversed else 1 - share)

    def _rhythm_of(self, character: str) -> float:
        if character not in self._rhythm:
            share = _share(self._follow[character], self._follow_total, len(self.counts.characters) + 1)
            self._rhythm[character] = math.log(share)
        return self._rhythm[character]

    def __call__(self, cand: Candidate) -> dict[str, float]:
        """The features of ``cand`` (a feature that does not apply is left out: 0)."""
        counts, context = self.counts, self.context
        f: dict[str, float] = {}
        if context.finish_laid:
            f["assistance"] = math.log(_share(counts.after_finish[cand.character], *self._after))
        else:
            finish = cand.character == "finish"
            f["finish"] = self._finish[0 if finish else 1]
            if not finish:
                f["rhythm"] = self._rhythm_of(cand.character)
            f["tile"] = math.log(_share(counts.stages_with[cand.tile], counts.stages, 2))
        f["surface"] = float(_changes(context.surface, cand.surface))
        f["reversed"] = self._reversed_of(cand)
        if cand.way is not None and context.last_way is not None:
            f["way"] = float(cand.way == context.last_way)
        if cand.side and self._last_side:
            f["side"] = float(cand.side == self._last_side)
        if _is_middle(cand):
            f["number"] = math.log(_share(counts.stages_with_number[cand.number], counts.stages, 2))
        if context.earlier and _is_middle(cand):
            again = cand.number in self._earlier
            f["earlier"] = float(again)
            if again:
                f["earlier_side"] = float(cand.tile in self._earlier_tiles)
            f["reuse" if again else "fresh"] = self._reuse[0 if again else 1]
            f["follows"] = float(again and _follows(context, cand.number) is not None)
        gap = _number_gap(context.last_number, cand.number)
        f["number_next"] = float(gap == 1)
        f["number_two"] = float(gap == 2)
        if cand.exit_cell is not None:
            out = hex_distance(cand.exit_cell, _MIDDLE)
            f["centre"] = float(out - hex_distance(cand.cell, _MIDDLE))
            f["far"] = float(max(0, out - _TABLE_RADIUS))
        return f


def features(counts: Counts, context: Context, cand: Candidate) -> dict[str, float]:
    """The named features of a candidate (:class:`FeatureReader`), read alone: the earlier stages' share is not
    divided among other candidates."""
    return FeatureReader(counts, context)(cand)


def _why(name: str, value: float, counts: Counts, context: Context, cand: Candidate,
         pool: tuple[int, int] = (0, 0)) -> str:
    """A feature (its ``value`` for ``cand``) in words, with the published counts behind it; ``pool``: the tile
    numbers left that an earlier stage lays, and the fresh ones (:class:`FeatureReader`)."""
    if name == "rhythm":
        follow = counts.rhythm.get(context.before, Counter())
        return (f"{_article(cand.character)} after {_article(context.before)}, as in {follow[cand.character]} of "
                f"{sum(follow.values())} published steps after {_article(context.before)}")
    if name == "finish":
        _, ended, reached = counts.p_finish(context)
        if cand.character == "finish":
            return (f"the finish after {context.road_tiles} road tiles: {ended} of {reached} published stages that "
                    f"reached {context.road_tiles} ended there")
        return f"the stage goes on after {context.road_tiles} road tiles, as {reached - ended} of {reached} published " \
               f"stages did"
    if name == "assistance":
        n, total = counts.after_finish[cand.character], sum(counts.after_finish.values())
        return f"{_article(cand.character)} after the finish, as in {n} of {total} published stages"
    if name == "tile":
        return f"{cand.tile} in {counts.stages_with[cand.tile]} of {counts.stages} published stages"
    if name == "surface":
        change = f"{counts.surface_changed} of {counts.steps} published steps change surface"
        if _changes(context.surface, cand.surface):
            return f"{context.surface} to {cand.surface} ({change})"
        return f"no change of surface ({change})"
    if name == "reversed":
        laid, reversed_ = counts.reversed_as.get(cand.character, (0, 0))
        return (f"laid {'reversed' if cand.reversed else 'as printed'}, as {reversed_ if cand.reversed else laid - reversed_}"
                f" of {laid} published {_plural(cand.character)}")
    if name == "way":
        return (f"turns {cand.way} {'again, as the last bend' if value else 'after a bend ' + str(context.last_way)} "
                f"({counts.same_way} of {counts.bends} published bends turn as the bend before)")
    if name == "side":
        return (f"side {cand.side} {'again' if value else 'after side ' + context.last_tile[len(context.last_number):]}"
                f" ({counts.same_side} of {counts.sided} published steps lay the side of the tile before)")
    if name == "number":
        return f"tile {cand.number} in {counts.stages_with_number[cand.number]} of {counts.stages} published stages"
    if name == "earlier_side":
        sides = sorted({t for e in context.earlier for t in e.tiles if t.startswith(cand.number)})
        return (f"{'the side' if value else 'not the side'} an earlier stage lays ({', '.join(sides)}; "
                f"{counts.same_side_earlier} of {counts.again_earlier} published tiles laid again keep their side)")
    names = [e.name for e in context.earlier if cand.number in e.numbers]
    if name in ("earlier", "reuse"):
        return (f"tile {cand.number} is in {', '.join(names)} too, as {context.reused} of the {context.middle} "
                f"tiles of this stage so far (one of {pool[0]} such tiles left)")
    if name == "fresh":
        return (f"a tile no earlier stage lays, as {context.middle - context.reused} of the {context.middle} tiles "
                f"of this stage so far (one of {pool[1]} such tiles left)")
    if name == "follows":
        return f"{context.last_number} and {cand.number} follow each other in {_follows(context, cand.number)}"
    if name in ("number_next", "number_two"):
        gap = 1 if name == "number_next" else 2
        return (f"tile {cand.number}, {'beside' if gap == 1 else 'two numbers from'} {context.last_number} in the "
                f"box ({counts.number_gap[gap]} of {counts.steps} published steps)")
    if name == "centre":
        way = "back toward" if value < 0 else "away from" if value > 0 else "no nearer to"
        return f"its exit leads {way} the middle of the table (cell 0 0)"
    return f"its exit leads more than {_TABLE_RADIUS} cells from the middle of the table (no published stage does)"


#: what the words of each feature read of a candidate (:func:`_why`): one phrase per value
_PHRASE_READS: dict[str, Callable[[float, Candidate], object]] = {
    "rhythm": lambda v, c: c.character, "assistance": lambda v, c: c.character,
    "finish": lambda v, c: c.character == "finish", "tile": lambda v, c: c.tile, "surface": lambda v, c: c.surface,
    "reversed": lambda v, c: (c.reversed, c.character), "earlier": lambda v, c: c.number, "reuse": lambda v, c: c.number,
    "fresh": lambda v, c: None, "follows": lambda v, c: c.number, "number_next": lambda v, c: c.number,
    "number_two": lambda v, c: c.number, "centre": lambda v, c: (v > 0) - (v < 0), "far": lambda v, c: None,
    "way": lambda v, c: c.way, "side": lambda v, c: c.side, "number": lambda v, c: c.number,
    "earlier_side": lambda v, c: c.tile,
}


def log_sum_exp(values: Sequence[float]) -> float:
    """log(sum(exp(v))), computed without overflow: the normaliser of a softmax (the model's chances in a kind,
    and the fit's, :mod:`rallyc.ranking_fit`)."""
    top = max(values)
    return top + math.log(sum(math.exp(v - top) for v in values))


def load_weights(path: Path = WEIGHTS_PATH) -> dict[str, float]:
    """The fitted weights of :data:`FEATURES` shipped with rallyc."""
    weights = json.loads(path.read_text(encoding="utf-8"))["weights"]
    return {name: float(weights.get(name, 0.0)) for name in FEATURES}


@dataclass
class Ranking:
    """What ranks the candidates: the counts of some published steps and the weights of the features."""

    counts: Counts
    weights: Mapping[str, float]

    def rank(self, context: Context, candidates: Sequence[Candidate]) -> list[Ranked]:
        """The log chance of each candidate (the counted rare part, then the model among the candidates alike) and
        why, its main reason first."""
        if not self.counts.steps:  # nothing learnt: every candidate alike
            return [Ranked(0.0, "") for _ in candidates]
        read = FeatureReader(self.counts, context, candidates)
        feats = [read(c) for c in candidates]
        weights = {k: self.weights.get(k, 0.0) for k in FEATURES}
        linear = [sum(weights[k] * v for k, v in f.items()) for f in feats]
        kinds = [kind(context, c) for c in candidates]
        # the model chooses among the candidates alike (as rare as each other): its chances add up to 1 in each kind
        members: dict[tuple[bool, bool], list[float]] = {}
        for k, lin in zip(kinds, linear):
            members.setdefault(k, []).append(lin)
        log_z = {k: log_sum_exp(values) for k, values in members.items()}
        sums = dict.fromkeys(FEATURES, 0.0)
        for f in feats:
            for n, v in f.items():
                sums[n] += v
        means = {n: v / len(feats) for n, v in sums.items()}
        rare: dict[tuple[bool, bool], tuple[float, list[str]]] = {}
        for c, k in zip(candidates, kinds):
            if k not in rare:
                rare[k] = self.counts.rare(context, c)
        phrases: dict[tuple, str] = {}
        out = []
        for cand, f, lin, k in zip(candidates, feats, linear, kinds):
            rare_score, rare_words = rare[k]
            # the main reason: what lifts this candidate most above the average candidate
            lift = sorted(((weights[n] * (v - means[n]), n) for n, v in f.items()), reverse=True)
            said = [n for d, n in lift if d > _NOTABLE and (f[n] or n in _SAID_ABSENT)][:3] or [lift[0][1]]
            if cand.character in ("finish", "assistance") and not {"finish", "assistance"} & set(said):
                said.append("assistance" if context.finish_laid else "finish")  # where the stage ends, always
            words = list(rare_words)
            for n in said:
                key = (n, _PHRASE_READS[n](f.get(n, 0.0), cand))
                if key not in phrases:
                    phrases[key] = _why(n, f.get(n, 0.0), self.counts, context, cand, read.pool)
                words.append(phrases[key])
            out.append(Ranked(rare_score + lin - log_z[k], "; ".join(words)))
        return out


_PUBLISHED: list[Ranking] = []


def published_ranking() -> Ranking:
    """The ranking of every published design: their counts and the shipped weights (read once a process)."""
    if not _PUBLISHED:
        _PUBLISHED.append(Ranking(Counts.fit(published_steps()), load_weights()))
    return _PUBLISHED[0]
