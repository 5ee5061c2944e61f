"""Planning contexts for the dice check's and the roll's fast-path tests (``test_dice_tree``, ``test_roll_fast``)."""

from __future__ import annotations

import random
from dataclasses import replace

from rallyc.rules.dice import Die
from rallyc.rules.plans import PlanContext


def perturbed(ctx: PlanContext, dice: list[Die], rng: random.Random) -> list[PlanContext]:
    """The same planning situation with other cars and tokens around the spaces the plan enters: a car on one of
    them or beside it, a car in its corner by the other method, -1 tokens on its step (with and without the creep
    reading's floor), the space barred, a Yellow Flag there, the jump landing limit and water readings turned
    round. The tree filled by ``ctx`` must refuse there exactly as the validator does."""
    idx = ctx.index
    entered = [s for d in dice for s in (d.to, d.land) if s is not None and s in idx.spaces] or [ctx.start]

    def variant(**changes) -> PlanContext:
        base = dict(corner_methods={k: set(v) for k, v in ctx.corner_methods.items()}, contact=None)
        base.update(changes)
        return replace(ctx, **base)

    out = []
    for _ in range(3):
        sid = rng.choice(entered)
        s = idx.spaces[sid]
        near = [sid] + list(idx.overlap[sid]) + list(idx.alongside[sid])
        car = rng.choice(near)
        others = {**ctx.others, car: rng.randrange(0, 7)}
        out.append(variant(others=others))
        out.append(variant(others=others, no_alongside=frozenset(near)))
        if s.kind == "corner" and s.corner:
            methods = {k: set(v) for k, v in ctx.corner_methods.items()}
            methods.setdefault(s.corner, set()).add("in" if s.method == "out" else "out")
            out.append(variant(corner_methods=methods))
        minus1 = {**ctx.minus1, s.step: rng.randrange(1, 4)}
        out.append(variant(minus1=minus1))
        out.append(variant(minus1=minus1, limit_floor=1))
        out.append(variant(barred={**ctx.barred, sid: ("RX-JOKER-02", f"{sid} is barred")}))
    out.append(variant(others={}))
    out.append(variant(jump_landing_limit=not ctx.jump_landing_limit))
    out.append(variant(ignore_water=not ctx.ignore_water))
    out.append(variant(limit_floor=1))
    return out
