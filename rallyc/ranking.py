"""What published designers lay next: the ranking of ``rallyc suggest``, learnt from the bundled published designs.

The model is counts, read from the published stages of ``examples/`` (:data:`PUBLISHED`: the rulebooks' Ready to
Play rallies as the Tabletop Simulator module lays them out) at first use and kept in the user cache under the hash
of those files, the bundled tilesets and this module. Every published step (the tiles laid so far, then the tile
the designer laid next) is one :class:`Step`. A candidate's chance is the product of what those steps say:

- the finish: of the published stages that reached this many road tiles, how many put the finish here (the
  length class as designers use it); after the finish, the Assistance tile;
- the rhythm: the character of the next tile (``tight hairpin``, ``fast bend``, ``straight``...) after the shape of
  the last one (``after a hairpin``), as often as published designers chose it;
- the tile itself among the candidates of that character: how many published stages lay it;
- a box the stage does not use yet, a tile number already laid (both sides of a tile are one tile), a change of
  surface: as rare as published designers made them.

Each suggestion says why in those words (``a fast bend after a hairpin, as in 9 of 40 published steps after a
hairpin; 227a in 4 of 19 published stages``). Nothing is tuned by hand: the counts are all there is, with half a
count added to every case (so that what no published designer did is unlikely, not impossible).
:func:`held_out_share` measures the ranking on designs the counts never saw (``benchmarks/suggest_ranking.py``).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

from rallyc.compiler.placement import PlacedStep, place_route
from rallyc.compiler.roads import DrivenRoad
from rallyc.model.tiles import TileRole
from rallyc.project import load
from rallyc.resources import examples_dir, tilesets_dir
from rallyc.syntax import ast
from rallyc.tiles.catalogue import Catalogue
from rallyc.usercache import cached_pickle

__all__ = ["PUBLISHED", "Step", "Context", "Ranking", "Ranked", "Candidate", "character", "shape_of",
           "context_of", "published_stages", "published_steps", "published_ranking"]

#: the bundled designs whose layouts are published (examples/README.md): file, and the stages (None: all of them).
#: Auto Tour 1's SS1 and SS2 are our own layouts of the listed tiles, not a designer's.
PUBLISHED: tuple[tuple[str, tuple[str, ...] | None], ...] = (
    ("rally-1.rally", None), ("rally-2.rally", None), ("rally-3.rally", None), ("rally-4.rally", None),
    ("rally-5.rally", None), ("rally-6.rally", None), ("auto-tour-1.rally", ("SS3",)),
)

#: half a count added to every case (Jeffreys' prior): an unseen case is unlikely, never impossible
_PRIOR = 0.5

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


@dataclass(frozen=True)
class Context:
    """What the ranking reads of the stage so far."""

    #: the shape of the last tile laid (:func:`shape_of`)
    before: str
    #: road tiles laid (the Assistance tile not counted)
    road_tiles: int
    finish_laid: bool
    #: boxes of the tiles laid, tile numbers laid, surface of the last tile
    boxes: frozenset[str]
    numbers: frozenset[str]
    surface: str


@dataclass(frozen=True)
class Step:
    """One published step: the stage so far and the tile its designer laid next."""

    design: str
    stage: str
    after: int
    context: Context
    tile: str
    character: str
    box: str
    number: str
    surface: str
    #: the same tile driven again on its other road (a bridge): not a second copy
    bridge: bool = False


#: a candidate as the ranking reads it: tile id, character, box, tile number, surface, a bridge?
Candidate = tuple[str, str, str, str, str, bool]


@dataclass(frozen=True)
class Ranked:
    """A candidate's log chance and the words that say why."""

    score: float
    why: str


def context_of(placed: Sequence[PlacedStep]) -> Context:
    """The context of the step after ``placed`` (at least the start tile)."""
    road = [ps for ps in placed if TileRole.ASSISTANCE not in ps.info.roles]
    return Context(shape_of(placed[-1].driven), len(road),
                   any(ln.kind == "finish" for ps in placed for ln in ps.driven.lines),
                   frozenset(ps.info.box for ps in placed), frozenset(ps.info.number for ps in placed),
                   placed[-1].info.surface)


def published_stages(folder: Path | None = None) -> list[tuple[str, ast.Stage, Catalogue]]:
    """(design, stage, catalogue) of every published stage (:data:`PUBLISHED`), the design named by its file."""
    folder = folder or examples_dir()
    out = []
    for name, only in PUBLISHED:
        loaded = load(folder / name)
        catalogue = Catalogue.from_tilesets(loaded.tilesets)
        stages = list(loaded.root.stages) + [s for r in loaded.root.rallies for s in r.stages]
        out += [(Path(name).stem, stage, catalogue) for stage in stages
                if stage.steps and (only is None or stage.name.text in only)]
    return out


def _stage_steps(design: str, stage: ast.Stage, catalogue: Catalogue) -> list[Step]:
    placed = place_route(stage.steps, [], catalogue).steps
    out = []
    for k in range(1, len(placed)):
        ps = placed[k]
        bridge = any(p.cell == ps.cell and p.info.id == ps.info.id for p in placed[:k])
        out.append(Step(design, stage.name.text, k, context_of(placed[:k]), ps.info.id, character(ps.driven),
                        ps.info.box, ps.info.number, ps.info.surface, bridge))
    return out


def _read_published(folder: Path) -> list[Step]:
    return [step for design, stage, catalogue in published_stages(folder)
            for step in _stage_steps(design, stage, catalogue)]


def published_steps(folder: Path | None = None) -> list[Step]:
    """Every step of the published designs, in file and driving order (kept in the user cache)."""
    folder = folder or examples_dir()
    parts: list[str | bytes] = [Path(__file__).read_bytes()]
    parts += [(folder / name).read_bytes() for name, _ in PUBLISHED]
    parts += [p.read_bytes() for p in sorted(tilesets_dir().glob("*.rally"))]
    return cached_pickle("published-steps", parts, lambda: _read_published(folder))


def _share(count: float, total: float, cases: int) -> float:
    return (count + _PRIOR) / (total + _PRIOR * cases)


def _times(n: int, of: int, what: str) -> str:
    return f"{n} of {of} {what}"


@dataclass
class Ranking:
    """The counts of the published steps the ranking learns from (:meth:`fit`)."""

    steps: int = 0
    #: road tiles laid -> [steps with the finish still to come, of which the finish was laid next]
    finish_at: dict[int, list[int]] = field(default_factory=dict)
    after_finish: Counter[str] = field(default_factory=Counter)
    #: shape of the last tile -> character of the next (finish and Assistance apart)
    rhythm: dict[str, Counter[str]] = field(default_factory=dict)
    characters: set[str] = field(default_factory=set)
    #: tile id -> published stages that lay it
    stages_with: Counter[str] = field(default_factory=Counter)
    stages: int = 0
    new_box: int = 0
    number_again: int = 0
    surface_changed: int = 0

    @classmethod
    def fit(cls, steps: Iterable[Step]) -> "Ranking":
        """Count what the designers of ``steps`` did."""
        m = cls()
        seen: dict[tuple[str, str], set[str]] = {}
        for s in steps:
            m.steps += 1
            c = s.context
            seen.setdefault((s.design, s.stage), set()).add(s.tile)
            m.new_box += s.box not in c.boxes
            m.number_again += s.number in c.numbers and not s.bridge
            m.surface_changed += _changes(c.surface, s.surface)
            if c.finish_laid:
                m.after_finish[s.character] += 1
                continue
            at = m.finish_at.setdefault(c.road_tiles, [0, 0])
            at[0] += 1
            if s.character == "finish":
                at[1] += 1
                continue
            m.rhythm.setdefault(c.before, Counter())[s.character] += 1
            m.characters.add(s.character)
        m.stages = len(seen)
        for tiles in seen.values():
            m.stages_with.update(tiles)
        return m

    def rank(self, context: Context, candidates: Sequence[Candidate]) -> list[Ranked]:
        """The log chance of each candidate and why."""
        # the tile among the candidates of its character that a designer would consider: from the stage's boxes,
        # not laid yet
        weight = [self.stages_with[c[0]] + _PRIOR for c in candidates]
        usual = [c[2] in context.boxes and (c[3] not in context.numbers or c[5]) for c in candidates]
        by_character: dict[str, float] = {}
        for c, w, u in zip(candidates, weight, usual):
            by_character[c[1]] = by_character.get(c[1], 0.0) + (w if u else 0.0)
        return [self._one(context, c, w / (by_character[c[1]] + (0 if u else w)))
                for c, w, u in zip(candidates, weight, usual)]

    def _one(self, context: Context, cand: Candidate, tile_share: float) -> Ranked:
        tile, char, box, number, surface, bridge = cand
        score = 0.0
        words: list[str] = []
        if context.finish_laid:
            n, total = self.after_finish[char], sum(self.after_finish.values())
            score += math.log(_share(n, total, len(self.after_finish) + 1))
            words.append(f"{_article(char)} after the finish, as in {_times(n, total, 'published stages')}")
        else:
            seen, ended = self.finish_at.get(context.road_tiles, [0, 0])
            p_finish = _share(ended, seen, 2)
            if char == "finish":
                score += math.log(p_finish)
                words.append(f"the finish after {context.road_tiles} road tiles: "
                             f"{_times(ended, seen, 'published stages')} that reached {context.road_tiles} ended there")
            else:
                score += math.log(1 - p_finish)
                follow = self.rhythm.get(context.before, Counter())
                n, total = follow[char], sum(follow.values())
                score += math.log(_share(n, total, len(self.characters) + 1))
                words.append(f"{_article(char)} after {_article(context.before)}, as in "
                             f"{_times(n, total, 'published steps after ' + _article(context.before))}")
            score += math.log(tile_share)
            words.append(f"{tile} in {_times(self.stages_with[tile], self.stages, 'published stages')}")
        if box not in context.boxes:
            score += math.log(_share(self.new_box, self.steps, 2))
            words.append(f"a box the stage does not use yet ({_times(self.new_box, self.steps, 'published steps')})")
        else:
            score += math.log(_share(self.steps - self.new_box, self.steps, 2))
        if number in context.numbers and not bridge:
            score += math.log(_share(self.number_again, self.steps, 2))
            words.append(f"tile {number} is already laid (published: {_times(self.number_again, self.steps, 'steps')})")
        else:
            score += math.log(_share(self.steps - self.number_again, self.steps, 2))
        if _changes(context.surface, surface):
            score += math.log(_share(self.surface_changed, self.steps, 2))
            words.append(f"{context.surface} to {surface} "
                         f"({_times(self.surface_changed, self.steps, 'published steps change surface')})")
        else:
            score += math.log(_share(self.steps - self.surface_changed, self.steps, 2))
        return Ranked(score, "; ".join(words))


def _changes(before: str, after: str) -> bool:
    """A change of surface (gravel to asphalt...); the Assistance tile (surface ``none``) changes none."""
    return "none" not in (before, after) and before != after


def _article(character: str) -> str:
    if character in ("finish", "assistance"):
        return {"finish": "the finish", "assistance": "the Assistance tile"}[character]
    return ("an " if character[0] in "aeiou" or character.startswith("s-") else "a ") + character


_PUBLISHED: list[Ranking] = []


def published_ranking() -> Ranking:
    """The ranking learnt from every published design (counted once a process)."""
    if not _PUBLISHED:
        _PUBLISHED.append(Ranking.fit(published_steps()))
    return _PUBLISHED[0]
