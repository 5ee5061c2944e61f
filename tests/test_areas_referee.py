"""The referee on stages over a rally area and on a junction stage: bot games through the Y junction
(examples/area-1.rally) and through a fork's branch link replay cleanly from their JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rallyc.compilation.pipeline import compile_loaded
from rallyc.project.loader import load, load_text
from rallyc.records import parse_record, replay_record
from rallyc.records.generate import bot_record
from rallyc.rules.core.options import Options
from rallyc.rules.core.stage import Player

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = [Player("A", "red"), Player("B", "blue")]

FORK_STAGE = """use dirt-core
use dirt-rx

stage SS1 {
  202a at 0 0 rot 0
  205a
  209b right
  402a right road 2
  206a
  208b left
  207a
  203a
  201a
}
"""


def _area_tracks():
    result = compile_loaded(load(ROOT / "examples" / "area-1.rally"))
    return result.designs[0].tracks


@pytest.mark.parametrize("seed", [0])
def test_bot_games_over_the_area_replay_cleanly(seed):
    """CORE-ORDER-01 CORE-STAGEEND-01: both stages of the area (they share the start and the junction)."""
    tracks = _area_tracks()
    rec = bot_record(tracks, PLAYERS, seed=seed, options=Options())
    report = replay_record(parse_record(json.dumps(rec)), tracks=tracks)
    assert report.ok, f"seed {seed}: {report.error.path}: {report.error}"
    assert [s["stage"] for s in rec["stages"]] == ["SS1", "SS2"]
    # the cars drove through the junction tile (step 4, 415b) on both stages
    for entry in rec["stages"]:
        spaces = {d["to"] for t in entry["turns"] for d in t.get("dice", [])}
        assert any(s.startswith("4.") for s in spaces), entry["stage"]


@pytest.mark.parametrize("seed", [0, 1])
def test_bot_games_through_a_fork_branch_replay_cleanly(seed):
    """RX-FORK-02/03 on a point-to-point stage: the line's limit rides on the edge into the main road."""
    tracks = compile_loaded(load_text(FORK_STAGE, "fork.rally", base_dir=ROOT)).designs[0].tracks
    rec = bot_record(tracks, PLAYERS, seed=seed, options=Options())
    report = replay_record(parse_record(json.dumps(rec)), tracks=tracks)
    assert report.ok, f"seed {seed}: {report.error.path}: {report.error}"
    turns = rec["stages"][0]["turns"]
    spaces = {d["to"] for t in turns for d in t.get("dice", [])} | {t["end"] for t in turns if t.get("end")}
    assert any(s.startswith("4.") for s in spaces)  # through the fork, where only 4.2.r is on the road
