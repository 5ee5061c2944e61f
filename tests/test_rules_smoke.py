"""First checks of the interpreter: a stage played by the bot replays cleanly from its record."""

import json

from rallyc.records import parse_record, replay_record
from rallyc.records.generate import bot_record
from rallyc.rules import Options, Player
from rallyc.rules.sketch import sketch

SKETCH = "N S N N | !medium D C(2;3,3,3)R D cut3(1,3) | N jump4 water N | !high D C(1;2,2)L D | N N F N N"


def test_bot_stage_replays_from_json():
    """CORE-ORDER-01 CORE-STAGEEND-01: a whole stage, written as JSON, replays with every turn legal."""
    rec = bot_record([sketch(SKETCH, "SS1")], [Player("A", "red"), Player("B", "blue")], seed=7,
                     options=Options(flying_start=True), header={"sketch": [SKETCH]})
    report = replay_record(parse_record(json.dumps(rec)))
    assert report.ok, report.error
    assert set(report.stages[0]["times"]) == {"A", "B"}
    assert all(t is not None for t in report.stages[0]["times"].values())
