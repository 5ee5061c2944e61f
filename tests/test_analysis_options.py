"""What the strong drivers know of the road ahead (rallyc.analysis.lookahead); the next dice they may lay are
tested with the legal plans (test_rules_legal_plans.py)."""

from __future__ import annotations

from pathlib import Path

import rallyc

ROOT = Path(__file__).resolve().parent.parent


def test_safe_gears_are_the_highest_that_meet_every_limit_ahead_on_a_stage_and_around_a_circuit():
    """The strong stage and RX drivers share one table (rallyc.analysis.lookahead.safe_gears): a space's safe
    gear is its own limit (or Chicane limit), or one more than the safe gear of a space after it, whichever is
    lower; around a closed circuit the limits after the finish line count too."""
    from rallyc.analysis.lookahead import TOP_GEAR, safe_gears
    from rallyc.rules.core.state import index_of

    for file, name in (("rally-1.rally", "SS1"), ("rx-1.rally", "RX 1")):
        index = index_of(rallyc.load(str(ROOT / "examples" / file)).track(name))
        safe = safe_gears(index)
        for sid, sp in index.spaces.items():
            own = min(TOP_GEAR if sp.limit is None else sp.limit, TOP_GEAR if sp.chicane is None else sp.chicane)
            bound = min([own, *[safe[t] + 1 for t in index.succ.get(sid, ())]])
            assert safe[sid] == bound, (file, sid, safe[sid], bound)
        assert min(safe.values()) <= 2 < max(safe.values())  # hairpins ahead of fast stretches
