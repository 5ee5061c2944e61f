"""The analysis as text, as JSON, and as a risk heat map over the stage map."""

from __future__ import annotations

import json
from html import escape
from typing import Protocol

from rallyc.analysis.report import TURN_SECONDS_AT_TABLE, RallyWarning, StageAnalysis, percent

__all__ = ["to_text", "to_json", "heat_map", "heat_label"]


def _secs(v: float | None) -> str:
    return "-" if v is None else f"{v:.0f} s"


def to_text(stages: list[StageAnalysis], warnings: list[RallyWarning]) -> str:
    """A block per stage, then the rally's warnings."""
    out: list[str] = []
    for s in stages:
        err = f" ± {s.par_error:.0f}" if s.par_error is not None else ""
        out.append(f"{s.stage}: par {_secs(s.par)}{err} (10-90%: {_secs(s.p10)}-{_secs(s.p90)}), {s.runs} runs "
                   f"of the {s.driver} driver, seed {s.seed}")
        out.append(f"  finished {percent(s.finished)}, without a Loss of Control {percent(s.clean)}, "
                   f"damage {s.damage:.2f} tokens, {s.turns:.1f} turns")
        if s.corners:
            out.append("  riskiest corners:")
            for c in s.corners[:3]:
                gears = ", ".join(f"Gear {g} x{k}" for g, k in c.gears.items())
                out.append(f"    {c.where} (step {c.step}, {c.tile}): {percent(c.rate)} of runs ({gears})")
        else:
            out.append("  no Loss of Control in a corner")
        slow = sorted(s.steps.items(), key=lambda kv: (-kv[1]["per_space"], kv[0]))[:3]
        if slow:
            out.append("  slowest steps: " + ", ".join(f"step {k} {v['per_space']:.1f} s/space" for k, v in slow))
        if s.against is not None:
            out.append(_against(s))
        if s.playing_minutes is not None:
            agree = "agrees with" if s.measured_class == s.rulebook_class else "differs from"
            out.append(f"  length: {s.tiles} tiles, {s.rulebook_class} by the rulebook; four cars take "
                       f"{s.table_turns:.0f} turns, about {s.playing_minutes:.0f} min at {TURN_SECONDS_AT_TABLE:.0f} s "
                       f"a turn ({s.measured_class}, {agree} the rulebook)")
        else:
            out.append(f"  length: {s.tiles} tiles, {s.rulebook_class} by the rulebook")
    for w in warnings:
        out.append(f"warning[{w.code}]: {w.message}")
    return "\n".join(out) + "\n"


def _against(s: StageAnalysis) -> str:
    """The line comparing the analysed driver with the other on the same runs."""
    a = s.against
    assert a is not None
    err = f" ± {a.par_error:.0f}" if a.par_error is not None else ""
    line = (f"  against the {a.driver} driver (the same {s.runs} runs' seeds): par {_secs(a.par)}{err} "
            f"(10-90%: {_secs(a.p10)}-{_secs(a.p90)}), finished {percent(a.finished)}, without a Loss of Control "
            f"{percent(a.clean)}; ")
    if a.gain is None:
        return line + "no par to compare"
    gain_err = f" ± {a.gain_error:.0f}" if a.gain_error is not None else ""
    share = f" ({percent(abs(a.gain_share))})" if a.gain_share is not None else ""
    verb = "gains" if a.gain >= 0 else "loses"
    return line + f"the {s.driver} driver {verb} {abs(a.gain):.0f}{gain_err} s{share}"


def to_json(stages: list[StageAnalysis], warnings: list[RallyWarning]) -> str:
    """Deterministic JSON: sorted keys, rounded floats."""
    doc = {"format": "rallyc-analysis/1", "stages": [s.to_dict() for s in stages],
           "warnings": [{"code": w.code, "message": w.message} for w in warnings]}
    return json.dumps(doc, sort_keys=True, indent=2) + "\n"


def _colour(rate: float, top: float) -> str:
    """White (no risk) to red (the riskiest space of the stage)."""
    t = 0.0 if top <= 0 else min(1.0, rate / top)
    g = round(255 - 200 * t)
    return f"#ff{g:02x}{g:02x}" if t < 1 else "#d7301f"


class Risky(Protocol):
    """What a heat map is drawn from: a stage's or an RX circuit's analysis."""

    @property
    def stage(self) -> str:
        """The stage's or circuit's name."""
        ...

    @property
    def runs(self) -> int:
        """Solo runs (races) simulated."""
        ...

    @property
    def space_risk(self) -> dict[str, float]:
        """Losses of Control per run on each space."""
        ...


def heat_map(svg: str, analysis: Risky) -> str:
    """The stage or circuit map with every space coloured by how often cars lost control there (see
    :func:`heat_label`)."""
    top = max(analysis.space_risk.values(), default=0.0)
    rules = [f'[data-space="{escape(sid, quote=True)}"]{{fill:{_colour(rate, top)} !important}}'
             for sid, rate in sorted(analysis.space_risk.items()) if rate > 0]
    style = "<style>/* rallyc analyze: Loss-of-Control heat map */\n" + "\n".join(rules) + "\n</style>"
    head_end = svg.index(">", svg.index("<svg")) + 1
    return svg[:head_end] + style + svg[head_end:]


def heat_label(analysis: Risky) -> str:
    """The map's subtitle: what the colours mean (the map draws it in its title block)."""
    top = max(analysis.space_risk.values(), default=0.0)
    if hasattr(analysis, "circuit"):  # an RX race passes a space once a lap: Losses of Control per race
        return (f"{analysis.stage}: Losses of Control in {analysis.runs} races, white none to deep red "
                f"{top:.2f} a race")
    return (f"{analysis.stage}: Loss-of-Control risk in {analysis.runs} runs, white none to deep red "
            f"{percent(top)} of runs")
