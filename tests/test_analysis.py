"""Stage analysis (``rallyc analyze``): par times and risk from a strong driver, sanity against the rules.

The default run uses few runs on a few stages; ``RALLYC_SLOW=1`` compares the drivers on every published
stage (``benchmarks/analyze.py`` prints the table).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import rallyc
from rallyc.analysis import DriverKind, analyze_track
from rallyc.analysis.simulate import simulate

ROOT = Path(__file__).resolve().parents[1]
SLOW = os.environ.get("RALLYC_SLOW") == "1"


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rallyc", *args], capture_output=True, text=True, cwd=ROOT)


def _track(text: str, tmp_path: Path, name: str):
    f = tmp_path / f"{name}.rally"
    f.write_text(text, encoding="utf-8")
    return rallyc.load(str(f)).track(name)


def _ss1_text(rename: str = "SS1") -> str:
    """Rally 1 SS1 as a one-off stage, without its scenery fillers."""
    text = (ROOT / "examples" / "rally-1.rally").read_text(encoding="utf-8")
    body = text[text.index("  stage SS1 {"):text.index("  stage SS2 {")]
    lines = [ln for ln in body.splitlines() if "scenery" not in ln and not ln.strip().startswith("#")]
    return "use dirt-core\n" + "\n".join(ln[2:] for ln in lines).replace("stage SS1", f"stage {rename}") + "\n"


def test_cli_prints_a_par_time_and_the_riskiest_corners_of_every_stage(tmp_path):
    heat = tmp_path / "risk.svg"
    r = _cli("analyze", "examples/rally-1.rally", "--runs", "24", "--table-runs", "2", "--heat-map", str(heat))
    assert r.returncode == 0, r.stderr
    for stage in ("SS1", "SS2", "SS3"):
        assert re.search(rf"^{stage}: par \d+ s ± \d+ ", r.stdout, re.M), r.stdout
    blocks = r.stdout.split("\nSS")
    shown = 0
    for block in blocks:
        corners = re.findall(r"^    \d+\.\d+ \(step \d+, \d{3}[ab]\): \d+% of runs", block, re.M)
        # at most the three riskiest; a stage the strong driver drives through without a Loss of Control in a
        # corner in these runs says so instead
        assert len(corners) <= 3 and (bool(corners) != ("  no Loss of Control in a corner" in block)), block
        shown += bool(corners)
    assert shown >= 2, r.stdout
    # issue 15: the strong driver against the greedy one on the same runs, and what it gains (strong is the default)
    against = re.findall(r"^  against the greedy driver \(the same 24 runs' seeds\): par (\d+) s ± \d+ .*; the strong "
                         r"driver (gains|loses) (\d+) ± \d+ s \(\d+%\)$", r.stdout, re.M)
    assert len(against) == 3, r.stdout
    pars = [int(p) for p in re.findall(r"^SS\d: par (\d+) s", r.stdout, re.M)]
    for par, (greedy, verb, gain) in zip(pars, against):
        assert abs((int(greedy) - par) - (int(gain) if verb == "gains" else -int(gain))) <= 1
    assert "Short by the rulebook; four cars take" in r.stdout
    for stage in ("SS1", "SS2", "SS3"):  # one heat map per stage, and each draws
        svg = (tmp_path / f"risk-{stage}.svg").read_text(encoding="utf-8")
        assert "Loss-of-Control heat map" in svg and f"{stage}: Loss-of-Control risk in 24 runs" in svg
        import cairosvg

        assert cairosvg.svg2png(bytestring=svg.encode(), output_width=400).startswith(b"\x89PNG")
        coloured = re.findall(r'\[data-space="([^"]+)"\]\{fill:#', svg)
        assert coloured and all(f'data-space="{sid}"' in svg.replace(f'[data-space="{sid}"]', "") for sid in coloured)


def test_json_is_deterministic_and_the_same_whatever_the_jobs():
    args = ("analyze", "examples/rally-1.rally", "--stage", "SS2", "--runs", "12", "--table-runs", "0", "-f", "json")
    one = _cli(*args, "--jobs", "1")
    two = _cli(*args, "--jobs", "2")
    assert one.returncode == two.returncode == 0, one.stderr + two.stderr
    assert one.stdout == two.stdout
    doc = json.loads(one.stdout)
    assert doc["format"] == "rallyc-analysis/1" and doc["stages"][0]["runs"] == 12
    stage = doc["stages"][0]
    assert stage["against"]["driver"] == "greedy"
    assert stage["against"]["gain"] == round(stage["against"]["par"] - stage["par"], 3)
    r = _cli("analyze", "examples/rally-1.rally", "--stage", "SS2", "--runs", "2", "--table-runs", "0", "-f", "json",
             "--against", "none")
    assert r.returncode == 0 and json.loads(r.stdout)["stages"][0]["against"] is None


@pytest.fixture(scope="module")
def easy_ss1(tmp_path_factory):
    """Rally 1 SS1 as published, analysed once for the harder-stage tests (40 runs, seed 3)."""
    return analyze_track(_track(_ss1_text(), tmp_path_factory.mktemp("easy"), "SS1"), runs=40, seed=3)


def _step_risk(a, step: int) -> float:
    """Losses of Control per run on the spaces of one route step."""
    return sum(z.rate for z in a.zones if z.step == step)


#: Rally 1 SS1 made harder at one place (issue 15, "Done when"), the route step of that place, and how much more
#: time (seconds on the steps listed, the step before the place included where the car slows for it) it must cost
HARDER = {
    # a Chicane token with limit 1 on the straight 205a (step 3)
    "a lower limit": (lambda t: t.replace("}", "  token chicane limit 1 at 3.2\n}", 1), (3,), 1.3),
    # every space of the straight 205a a Water Hazard: crossed only with Coast or Leader dice or a Gear 1 die
    # (CORE-WATER-02); the car slows for it on the hairpin before (step 2)
    "water": (lambda t: t.replace("}", "  token water at 3.1\n  token water at 3.2\n  token water at 3.3\n}", 1),
              (2, 3), 1.5),
    # the fast curve 227a (limits 4/5, step 4) replaced by the hairpin 212a (limits 1/2)
    "an extra hairpin": (lambda t: t.replace("227a right  # limits 4/5", "212a left  # hairpin, limits 1/2"), (4,),
                         1.3),
}


@pytest.mark.parametrize("change", list(HARDER))
def test_a_harder_stage_has_a_higher_par_and_loses_time_where_it_was_made_harder(change, easy_ss1, tmp_path):
    harder, steps, factor = HARDER[change]
    text = harder(_ss1_text())
    assert text != _ss1_text()
    hard = analyze_track(_track(text, tmp_path, "SS1"), runs=40, seed=3)
    a, b = easy_ss1, hard
    assert b.par > a.par, (a.par, b.par)
    # the time lost is lost at that place: more seconds on its step(s) than the published stage spends there
    before, after = (sum(x.steps[s]["seconds"] for s in steps) for x in (a, b))
    assert after > factor * before, (change, before, after)
    if change == "an extra hairpin":
        # and more risk there: the new hairpin is the stage's riskiest corner, and more runs lose control on its
        # step than on the fast curve's
        assert b.corners[0].step == 4 and b.corners[0].tile == "212a", b.corners[:3]
        assert _step_risk(b, 4) > _step_risk(a, 4) + 0.05, (_step_risk(a, 4), _step_risk(b, 4))


def test_the_same_stage_laid_elsewhere_gives_exactly_the_same_figures(tmp_path):
    base = _ss1_text()
    assert "202a at -1 1 rot 5" in base
    moved = base.replace("202a at -1 1 rot 5", "202a at 7 -4 rot 2")  # shifted and turned by 3 steps
    here = _track(base, tmp_path, "SS1")
    (tmp_path / "m").mkdir()
    there = _track(moved, tmp_path / "m", "SS1")
    # not the same layout under another name: every tile of the stage stands elsewhere, turned
    assert len(here.placed) == len(there.placed) >= 10
    assert all((p.q, p.r) != (m.q, m.r) and p.rot != m.rot for p, m in zip(here.placed, there.placed))
    a = analyze_track(here, runs=16, seed=11)
    b = analyze_track(there, runs=16, seed=11)
    assert a.to_dict() == b.to_dict()


def test_two_seeds_agree_within_the_reported_error():
    track = rallyc.load(str(ROOT / "examples" / "rally-1.rally")).track("SS2")
    a = analyze_track(track, runs=40, seed=1)
    b = analyze_track(track, runs=40, seed=2)
    assert abs(a.par - b.par) <= a.par_error + b.par_error
    # and the errors are not so wide that any two pars would agree: each within 15% of its par
    assert a.par_error < 0.15 * a.par and b.par_error < 0.15 * b.par, (a.par, a.par_error, b.par, b.par_error)


STAGES = [("rally-1.rally", "SS1"), ("rally-5.rally", "SS1")]
if SLOW:
    STAGES = [(f.name, t.name) for f in sorted((ROOT / "examples").glob("*.rally"))
              for t in rallyc.load(str(f)).tracks if t.kind == "stage"]


@pytest.mark.parametrize("file,stage", STAGES)
def test_the_strong_driver_beats_the_greedy_and_the_random_driver(file, stage):
    track = rallyc.load(str(ROOT / "examples" / file)).track(stage)
    n = 60 if SLOW else 16
    medians = {}
    for kind in (DriverKind.strong, DriverKind.greedy, DriverKind.random):
        runs = simulate(track, n, seed=5, kind=kind)
        times = sorted(r.seconds if r.seconds is not None else 10**6 for r in runs)
        medians[kind] = times[len(times) // 2]
        if kind is not DriverKind.random:  # not won by the other car failing to finish: both drive it through
            assert all(r.finished for r in runs), (kind, [r.index for r in runs if not r.finished])
    assert medians[DriverKind.strong] < medians[DriverKind.greedy] < medians[DriverKind.random], medians


def test_rx_circuit_is_analysed_lap_times_joker_and_grid_places():
    """Issue 15, RX: `rallyc analyze` on a circuit prints lap times in turns (RX-SETUP-10: no Time cards),
    the Joker's cost by lap and the finishing places of each grid place; JSON has the same figures."""
    r = _cli("analyze", "examples/rx-2.rally", "--runs", "2", "--table-runs", "1")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("RX 2: race ") and "2 laps of 12 tiles, 2 solo runs of the strong driver" in lines[0]
    assert lines[1].startswith("  raced as an RX race (a Joker lap: TRACK-RX-07): RX Dashboards")
    assert lines[3].startswith("  lap times (turns, median / mean): lap 1 ") and ", lap 2 " in lines[3]
    assert lines[5].startswith("    lap 1: driven in 50% of runs") and lines[6].startswith("    lap 2: driven in 50%")
    assert "  four cars (1 races), by grid place:" in lines and sum(ln.startswith("    Car ") for ln in lines) == 4
    assert sum(ln.startswith("  against the greedy driver (the same 2 races' seeds and Joker laps): race ")
               for ln in lines) == 1
    r = _cli("analyze", "examples/rx-2.rally", "--runs", "2", "--table-runs", "0", "-f", "json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["stages"] == [] and [c["circuit"] for c in doc["circuits"]] == ["RX 2"]
    c = doc["circuits"][0]
    assert c["laps"] == 2 and [j["lap"] for j in c["joker"]] == [1, 2] and c["grid"] == []
    assert [lt["runs"] for lt in c["lap_times"]] == [2, 2] and c["finished"] == 1.0 and c["race_format"] == "rx"
    assert c["against"]["driver"] == "greedy" and c["against"]["gain"] == round(c["against"]["par"] - c["race"], 3)


def test_rx_races_follow_their_joker_plans_and_are_deterministic():
    """RX-JOKER-01: each solo run plans its Joker on every lap in turn, and drives it then; same seed, same runs
    (in one process or two)."""
    from rallyc.analysis.circuit_runs import joker_plan, simulate_races

    track = rallyc.load(str(ROOT / "examples" / "rx-1.rally")).tracks[0]
    runs = simulate_races(track, 3, seed=3, cars=1, kind=DriverKind.greedy)
    assert [r.cars[0].joker_lap for r in runs] == [joker_plan(i, 0, 3) for i in range(3)] == [1, 2, 3]
    for r in runs:
        car = r.cars[0]
        assert car.status == "finished" and car.position == 1 and len(car.laps) == 3
        assert car.turns == car.start + sum(car.laps)
    again = simulate_races(track, 3, seed=3, cars=1, kind=DriverKind.greedy, jobs=2,
                           source=(ROOT / "examples" / "rx-1.rally", track.name))
    assert again == runs
