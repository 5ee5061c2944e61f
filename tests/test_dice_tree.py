"""The dice check's fast path agrees with the validator, die by die (issue 9, speed; lane "dice check").

:func:`rallyc.rules.plans.check_plan` takes a die laid before after the same dice under the same planning
situation from a tree on the track's index and checks only what this turn's cars and tokens can change;
:func:`rallyc.rules.plans.can_lay` takes the dice that may follow a partial plan from a table. These tests catch
every plan the referee checks while replaying every recorded game of ``examples/games`` (stages, RX races, Full
Contact), and seeded one-change variants of each (another space, another gear, a Brake or Boost added or taken
off, a landing changed, a die added or dropped), and lay each through the fast path with cold tables, again
with warm ones, and through the validator alone (:func:`check_die` die by die): the same placed dice, or the
same refusal word for word at the same path. ``can_lay`` is compared with the validator's options after every
partial plan and in the creep and dry contexts the referee builds.
"""

from __future__ import annotations

import copy
import random
from dataclasses import replace
from pathlib import Path

import pytest

import rallyc.rules
from rallyc.records import load_record, replay_record
from rallyc.rules import plans
from rallyc.rules.dice import GEAR_DICE, Die, DieKind
from rallyc.rules.errors import IllegalMove
from rallyc.rules.plans import PlanContext, _check_plan_full, can_lay, check_die, die_options, start_walk
from rallyc.rules.state import forget_placements

from helpers.plans import perturbed

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "examples" / "games").glob("*.json"))
ORIGINAL = plans.check_plan
KINDS = list(GEAR_DICE) + [DieKind.COAST, DieKind.LEADER, DieKind.BRAKE]


def _laid(fn, ctx: PlanContext, dice: list[Die]):
    """The placed dice, or the refusal (rule, message, path)."""
    try:
        return [tuple(p) for p in fn(ctx, dice, "dice")]
    except IllegalMove as exc:
        return (exc.rule_id, exc.message, exc.path)


def _variants(ctx: PlanContext, dice: list[Die], rng: random.Random, n: int) -> list[list[Die]]:
    """``n`` seeded one-change variants of a plan."""
    idx = ctx.index
    out = []
    for _ in range(n):
        ds = list(dice)
        op = rng.randrange(7)
        i = rng.randrange(len(ds)) if ds else 0
        if not ds or op == 0:  # a die added at the end, one step ahead of the last
            pos = ds[-1].land or ds[-1].to if ds else ctx.start
            nxt = idx.succ.get(pos) or [pos]
            ds.append(Die(rng.choice(KINDS), rng.choice(nxt)))
        elif op == 1:  # another space of the same zone, or one step further
            d = ds[i]
            zone = list(idx.zones[idx.spaces[d.to].zone_key]) + list(idx.succ.get(d.to, []))
            ds[i] = d._replace(to=rng.choice(zone))
        elif op == 2:  # another die
            ds[i] = ds[i]._replace(die=rng.choice(KINDS))
        elif op == 3:  # a Brake or a Boost added or taken off
            d = ds[i]
            ds[i] = d._replace(brake=not d.brake) if rng.random() < 0.5 else d._replace(boost=not d.boost)
        elif op == 4:  # a landing changed
            d = ds[i]
            spots = list(idx.succ.get(d.to, [])) + [s for a in idx.succ.get(d.to, []) for s in idx.succ.get(a, [])]
            ds[i] = d._replace(land=rng.choice(spots + [None]) if spots else None)
        elif op == 5:  # a die dropped
            del ds[i]
        else:  # two dice swapped
            j = rng.randrange(len(ds))
            ds[i], ds[j] = ds[j], ds[i]
        out.append(ds)
    return out


def _compare(ctx: PlanContext, dice: list[Die], seen: list[int]) -> None:
    cold_full = _laid(_check_plan_full, ctx, dice)
    fast = _laid(ORIGINAL, ctx, dice)
    warm = _laid(ORIGINAL, ctx, dice)
    assert fast == cold_full and warm == cold_full, (dice, fast, warm, cold_full)
    paths = [f"replans[0].dice[{k}]" for k in range(len(dice))]  # each die its own path (a re-plan's)
    each = _laid(lambda c, ds, _: ORIGINAL(c, ds, paths=paths), ctx, dice)
    assert each == _laid(lambda c, ds, _: _check_plan_full(c, ds, "", paths), ctx, dice), (dice, each)
    seen[0] += 1
    seen[1] += not isinstance(cold_full, list)


def _one_more(ctx: PlanContext, dice: list[Die], rng: random.Random) -> list[Die]:
    """The plan and a die one step ahead of its end."""
    pos = dice[-1].land or dice[-1].to if dice else ctx.start
    return dice + [Die(rng.choice(KINDS), rng.choice(ctx.index.succ.get(pos) or [pos]))]


def _lowered(ctx: PlanContext, sid: str) -> PlanContext:
    """``ctx`` on a copy of its track's index where ``sid``'s speed limit is 1 (its own, empty tables)."""
    idx = copy.copy(ctx.index)
    idx.spaces = dict(idx.spaces)
    idx.spaces[sid] = replace(idx.spaces[sid], limit=1)
    idx.placements, idx.placements_size, idx.dice_spaces = {}, 0, {}
    return replace(ctx, index=idx, corner_methods={k: set(v) for k, v in ctx.corner_methods.items()}, contact=None)


def _can_lay_agrees(ctx: PlanContext, dice: list[Die], seen: list[int], dry: bool = True) -> None:
    """``can_lay`` after every partial plan of ``dice`` (and in the creep and dry contexts) as the validator says."""
    ctxs = [ctx]
    if dry:
        ctxs += [replace(ctx, limit_floor=1, corner_methods={}), replace(ctx, ignore_water=True, corner_methods={})]
    for c in ctxs:
        w = start_walk(c)
        walks = [w]
        for d in dice:
            try:
                _, w = check_die(c, w, d)
            except IllegalMove:
                break
            walks.append(w)
        for w in walks:
            full = bool(die_options(c, w))
            assert can_lay(c, w) == full and can_lay(c, w) == full, (w, full)
            seen[2] += 1
            seen[3] += not full


@pytest.fixture
def catch_plans(monkeypatch):
    """Every plan the referee checks, compared (fast, warm, validator) with seeded variants, as it is checked."""
    forget_placements()
    seen = [0, 0, 0, 0]  # plans compared, refused; can_lay compared, nothing to lay
    rng = random.Random("dice-tree")

    def checked(ctx: PlanContext, dice: list[Die], path: str = "dice"):
        dice = list(dice)
        _compare(ctx, dice, seen)
        for v in _variants(ctx, dice, rng, 4):
            _compare(ctx, v, seen)
        for other in perturbed(ctx, dice, rng):  # the tree filled above, under other cars and tokens
            _compare(other, dice, seen)
            for k in range(len(dice)):  # a die after each die (refused after a die that ends the plan)
                _compare(other, _one_more(ctx, dice[:k + 1], rng), seen)
            variant = _variants(ctx, dice, rng, 1)[0]  # filled under the other cars and tokens, laid under these
            _compare(other, variant, seen)
            _compare(ctx, variant, seen)
            _can_lay_agrees(other, variant, seen, dry=False)
        for k, d in enumerate(dice):
            if d.land is not None:  # the landing's limit lowered: the jump ends the plan, or not
                low = _lowered(ctx, d.land)
                for jll in (low.jump_landing_limit, not low.jump_landing_limit):
                    _compare(replace(low, jump_landing_limit=jll), dice[:k + 1], seen)
                    _compare(replace(low, jump_landing_limit=jll), _one_more(ctx, dice[:k + 1], rng), seen)
        _can_lay_agrees(ctx, dice, seen)
        return ORIGINAL(ctx, dice, path)

    for name in dir(rallyc.rules):
        mod = getattr(rallyc.rules, name)
        if getattr(mod, "check_plan", None) is ORIGINAL:
            monkeypatch.setattr(mod, "check_plan", checked)
    monkeypatch.setattr(plans, "check_plan", checked)
    yield seen
    forget_placements()


@pytest.mark.parametrize("game", GAMES, ids=lambda p: p.stem)
def test_every_plan_of_every_example_game_is_checked_alike_fast_and_full(game, catch_plans):
    report = replay_record(load_record(game), game.parent, explain=False)
    assert report.ok
    compared, refused, lay, stuck = catch_plans
    assert compared > 0 and 0 < refused < compared and lay > 0, catch_plans
