"""The ranking of ``rallyc suggest`` fitted on published designs, and measured on designs it never saw (issue 35).

Every published step becomes an :class:`Example`: the stage so far, every legal suggestion of
:func:`rallyc.suggest.suggest_stage` for it (the stage's scenery left out: fillers are laid around a finished
stage) and which one its designer laid. :func:`fit_weights` fits the weights of :data:`rallyc.suggest.ranking.FEATURES` on
some designs' examples by maximum likelihood (a conditional logit: the designer chooses one among the candidates
alike, :func:`rallyc.suggest.ranking.kind`), with a unit Gaussian prior on each weight (ridge) so that a feature few steps
show stays small. The features read the counts of the same training designs (counts of the other training
designs alone, cross fitting, measured worse: 56 against 66 of 202 held-out steps in the top 5). Newton's method:
the likelihood is concave, a few rounds reach its top.

:func:`held_out_ranks` fits on every design but the held-out ones and ranks each held-out step as ``rallyc
suggest`` does; ``benchmarks/suggest_ranking.py`` leaves each design out in turn.
"""

from __future__ import annotations

import dataclasses
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from rallyc.compiler.placement import place_route
from rallyc.suggest.ranking import (FEATURES, PUBLISHED, Candidate, Context, Counts, FeatureReader, Ranking, kind,
                                   log_sum_exp, published_stages, published_steps, published_inputs)
from rallyc.data.resources import examples_dir
from rallyc.suggest import Suggestion, suggest_stage
from rallyc.syntax import ast
from rallyc.cache.folder import cached_pickle

__all__ = ["Example", "published_examples", "fit_weights", "fitted_ranking", "held_out_ranks", "weights_file",
           "RIDGE"]

#: the precision of the Gaussian prior on each weight (1: a weight of about 1 is as likely as not)
RIDGE = 1.0

#: Newton's method stops when no weight moves more than this
_TOLERANCE = 1e-7


@dataclass(frozen=True)
class Example:
    """One published step with its candidates: the legal suggestions, and which one the designer laid."""

    design: str
    stage: str
    #: the step laid (1: the start tile)
    step: int
    context: Context
    candidates: tuple[Candidate, ...]
    #: the designer's tile among ``candidates`` (None: not a legal suggestion)
    chosen: int | None


def _laid(s: Suggestion, tile: str, road: int, forward: bool) -> bool:
    return s.tile == tile and (s.road or 1) == road and s.forward == forward


def _read_examples(folder: Path) -> list[Example]:
    blank = Ranking(Counts(), {})  # nothing learnt: the candidates only
    out = []
    for design, stage, catalogue, earlier in published_stages(folder):
        bare = dataclasses.replace(stage, items=[i for i in stage.items if not isinstance(i, ast.Scenery)])
        placed = place_route(bare.steps, [], catalogue).steps
        for k in range(1, len(placed)):
            laid = placed[k]
            res = suggest_stage(bare, catalogue, k, None, blank, earlier)
            legal = [s for s in res.suggestions if s.legal]
            chosen = [i for i, s in enumerate(legal) if _laid(s, laid.info.id, laid.driven.number, laid.driven.forward)]
            assert res.context is not None  # a step is laid
            out.append(Example(design, stage.name.text, k + 1, res.context,
                               tuple(s.candidate for s in legal if s.candidate is not None),
                               chosen[0] if chosen else None))
    return out


def published_examples(folder: Path | None = None) -> list[Example]:
    """An example of every published step, in file and driving order (kept in the user cache)."""
    folder = folder or examples_dir()
    parts = published_inputs(folder) + [Path(__file__).read_bytes(), (Path(__file__).parent / "__init__.py").read_bytes()]
    return cached_pickle("published-examples", parts, lambda: _read_examples(folder))


def _rows(counts: Counts, ex: Example) -> tuple[list[list[float]], int]:
    """The feature rows of the candidates alike to the designer's (its :func:`kind`), and the designer's row."""
    assert ex.chosen is not None
    chosen = ex.candidates[ex.chosen]
    alike = [c for c in ex.candidates if kind(ex.context, c) == kind(ex.context, chosen)]
    read = FeatureReader(counts, ex.context, ex.candidates)
    rows = []
    for c in alike:
        f = read(c)
        rows.append([f.get(name, 0.0) for name in FEATURES])
    return rows, alike.index(chosen)


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a x = b (Gaussian elimination with partial pivoting; ``a`` is small and well conditioned)."""
    n = len(b)
    m = [row[:] + [v] for row, v in zip(a, b)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            factor = m[r][col] / m[col][col]
            if factor:
                m[r] = [x - factor * y for x, y in zip(m[r], m[col])]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def _newton(data: Sequence[tuple[list[list[float]], int]], k: int, rounds: int = 50) -> list[float]:
    """The weights that maximise the conditional logit's likelihood of ``data`` times the ridge prior."""
    w = [0.0] * k
    for _ in range(rounds):
        grad = [-RIDGE * v for v in w]
        # the negative Hessian: the prior's, then each step's covariance of the features under the model
        hess = [[RIDGE if i == j else 0.0 for j in range(k)] for i in range(k)]
        for rows, y in data:
            scores = [sum(a * b for a, b in zip(w, x)) for x in rows]
            log_z = log_sum_exp(scores)
            p = [math.exp(s - log_z) for s in scores]
            mean = [sum(pj * x[i] for pj, x in zip(p, rows)) for i in range(k)]
            for i in range(k):
                grad[i] += rows[y][i] - mean[i]
            for pj, x in zip(p, rows):
                if pj < 1e-12:
                    continue
                for i, xi in enumerate(x):
                    if xi:
                        hi, pxi = hess[i], pj * xi
                        for j, xj in enumerate(x):
                            hi[j] += pxi * xj
            for i in range(k):
                for j in range(k):
                    hess[i][j] -= mean[i] * mean[j]
        move = _solve(hess, grad)
        w = [a + b for a, b in zip(w, move)]
        if max(abs(v) for v in move) < _TOLERANCE:
            break
    return w


def fit_weights(examples: Iterable[Example], counts: Counts) -> dict[str, float]:
    """The weights of :data:`FEATURES` fitted on ``examples``, their features reading ``counts``."""
    data = [_rows(counts, ex) for ex in examples if ex.chosen is not None]
    return dict(zip(FEATURES, _newton(data, len(FEATURES))))


def fitted_ranking(designs: Iterable[str], folder: Path | None = None) -> Ranking:
    """The ranking learnt from the published ``designs`` alone (file stems, ``rally-2``)."""
    chosen = set(designs)
    counts = Counts.fit(s for s in published_steps(folder) if s.design in chosen)
    return Ranking(counts, fit_weights((ex for ex in published_examples(folder) if ex.design in chosen), counts))


def weights_file() -> str:
    """The shipped weights file's text: the fit on every published design (``rallyc/data/suggest-weights.json``)."""
    weights = fitted_ranking(Path(name).stem for name, _ in PUBLISHED).weights
    return json.dumps({
        "about": "weights of the features of rallyc suggest's ranking (rallyc/suggest/ranking.py), fitted on every published "
                 "design by rallyc/suggest/ranking_fit.py; written by python benchmarks/suggest_ranking.py --write-weights",
        "ridge": RIDGE,
        "weights": {name: round(weights[name], 6) for name in FEATURES},
    }, indent=2) + "\n"


def held_out_ranks(held_out: Iterable[str], folder: Path | None = None,
                   learn: bool = True) -> list[tuple[str, str, int, int | None]]:
    """How the ranking does on published designs it never saw: fitted on every published design but the
    ``held_out`` ones (file stems, ``rally-2``), it suggests each step of theirs as ``rallyc suggest`` does (the
    stage up to that step and the rally's earlier stages; its scenery left out). ``(design, stage, step, rank)``:
    the rank (0: first) of the designer's tile, road and direction among the legal suggestions, None if it is not
    one. ``learn=False``: a ranking that has learnt nothing (every candidate alike: the order before issue 35)."""
    out = set(held_out)
    trained = {Path(name).stem for name, _ in PUBLISHED} - out
    ranking = fitted_ranking(trained, folder) if learn else Ranking(Counts(), {})
    ranks: list[tuple[str, str, int, int | None]] = []
    for design, stage, catalogue, earlier in published_stages(folder):
        if design not in out:
            continue
        bare = dataclasses.replace(stage, items=[i for i in stage.items if not isinstance(i, ast.Scenery)])
        placed = place_route(bare.steps, [], catalogue).steps
        for k in range(1, len(placed)):
            laid = placed[k]
            legal = [s for s in suggest_stage(bare, catalogue, k, None, ranking, earlier).suggestions if s.legal]
            found = [i for i, s in enumerate(legal) if _laid(s, laid.info.id, laid.driven.number, laid.driven.forward)]
            ranks.append((design, stage.name.text, k + 1, found[0] if found else None))
    return ranks
