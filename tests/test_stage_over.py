"""A stage is over once every car has finished or retired: the record's next turn is refused (CORE-ORDER-09)."""

from __future__ import annotations

from pathlib import Path

from rallyc.records import load_record, replay_record
from rallyc.rules.core.stage import Stage

ROOT = Path(__file__).resolve().parent.parent
GAMES = [g for g in sorted((ROOT / "examples" / "games").glob("*.json")) if "race" not in load_record(g)]


def test_a_stage_ended_by_retirements_refuses_the_next_turn(monkeypatch):
    """A stage whose last car retires (no example does): the next turn of the record is refused in the words of the
    replay's own check (CORE-ORDER-09, ``no more turns``), at that turn. Every car of a recorded game of four cars
    retires at its turn of round 5, when all four are on the stage (a Stage whose commit retires it, as
    CORE-RETIRE-01 does)."""
    from rallyc.rules.core.domain import CarStatus

    last = 5

    class Retiring(Stage):
        def commit(self, car, turn, out, change):
            super().commit(car, turn, out, change)
            if self.round == last and not out.finished:
                car.status = CarStatus.RETIRED
                out.retired = True

    path = next(g for g in GAMES if g.name.startswith("rally-3"))
    data = load_record(path)
    monkeypatch.setattr("rallyc.rules.rally.Stage", Retiring)
    report = replay_record(data, path.parent, explain=False)
    rounds = report.stages[0]["rounds"]
    assert len(rounds) == last and len(rounds[-1]["turns"]) == len(data["players"]) == 4
    assert all(t["retired"] for t in rounds[-1]["turns"])
    played = sum(len(r["turns"]) for r in rounds)
    assert played == sum(t["round"] <= last for t in data["stages"][0]["turns"]) < len(data["stages"][0]["turns"])
    assert report.error is not None and report.error.rule_id == "CORE-ORDER-09"
    assert report.error.message == "every car has finished or retired: no more turns"
    assert report.error.path == f"$.stages[0].turns[{played}]"
