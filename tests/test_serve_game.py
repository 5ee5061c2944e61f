"""A whole game through ``rallyc serve``'s interface, as the page plays it: a three-car RX race on RX 1 with the dice
rolled by rallyc, each player's plan laid die by die from what the server offers, the server killed in the middle
and started again on its journal; at the end the journal replays with exit 0 and the sheet the page shows is the
race's result; and a two-player stage of Rally 1 with advanced and Monte-Carlo options. Only with ``RALLYC_SLOW=1``:
each takes minutes (the RX race 12 minutes on the 2-core machine under a load of 20), most of it listing the legal
plans at each plan."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import quote

from typer.testing import CliRunner

from helpers.paths import EXAMPLES
from helpers.served import Served
from rallyc.commands.cli import app
from rallyc.table import journal
from rallyc.table.setup import Seat, TableSetup

SLOW = os.environ.get("RALLYC_SLOW") == "1"


def _plan(served: Served) -> str:
    """The plan a page lays: die by die the first die offered, until the dice laid are a whole plan (no die when
    the server says none can be laid)."""
    laid: list[str] = []
    while True:
        offered = served.call("/plan?dice=" + quote(" ".join(laid)))[1]
        if offered["whole"] or offered["none"]:
            return " ".join(laid) or "none"
        assert offered["next"], (laid, offered)
        laid.append(offered["next"][0]["die"])


def _answer(state: dict, served: Served) -> str:
    prompt = state["prompt"]
    if prompt["kind"] == "plan":
        return _plan(served)
    keys = [c["key"] for c in prompt["choices"]]
    for wanted in ("r", "o", "n"):  # roll the next die; no Warning; no tire change
        if wanted in keys:
            return wanted
    if keys:
        return keys[0]
    return {"checkpoint": "0"}[prompt["kind"]]  # no penalty taken (the chance questions: rallyc rolls)


def _play(served: Served, steps: int) -> dict:
    """Answer what the game asks, ``steps`` times or to its end; the state after."""
    state = served.call("/state")[1]
    for _ in range(steps):
        if state["over"]:
            break
        status, body = served.call("/step", {"revision": state["revision"], "answer": _answer(state, served)})
        assert status == 200, (state["prompt"], body)
        state = served.call("/state")[1]
    return state


def _whole_game(tmp_path: Path, setup: TableSetup, limit: int) -> tuple[Path, dict, Served]:
    path = tmp_path / "game.jsonl"
    served = Served(journal.start(path, setup, tmp_path))
    try:
        middle = _play(served, 25)
        assert not middle["over"]
    finally:
        served.stop()  # the server stopped in the middle of the game...
    game, _ = journal.resume(path)  # ...and started again on its journal
    again = Served(game)
    state = again.call("/state")[1]
    assert state["version"] == middle["version"] and state["prompt"] == middle["prompt"]
    state = _play(again, limit)
    assert state["over"], "the game did not end"
    return path, state, again


if SLOW:  # whole games step by step: minutes each (the legal plans listed at every plan)
    def test_a_three_car_rx_race_from_start_to_finish_with_a_restart(tmp_path: Path):
        setup = TableSetup(str(EXAMPLES / "rx-1.rally"), (Seat("Ann", "red"), Seat("Bob", "blue"), Seat("Cleo", "green")),
                           dice="auto", seed=3)
        path, state, served = _whole_game(tmp_path, setup, 600)
        try:
            sheet = served.call("/sheet-table")[1]["html"]
            record = served.table.game.record()
        finally:
            served.stop()
        res = CliRunner().invoke(app, ["replay", str(path)])
        assert res.exit_code == 0, res.output
        result = record["race"]["result"]
        ranked = result["order"] + result["disqualified"] + result["retired"]
        assert sorted(ranked) == ["Ann", "Bob", "Cleo"]
        rows = [part.split('"', 1)[0] for part in sheet.split('<tr data-player="')[1:]]
        assert rows == ranked  # the sheet in the finishing order, the disqualified and the retired after
        assert "Finishing order" in res.output

    def test_a_two_player_stage_of_rally_1_with_advanced_and_monte_carlo_options(tmp_path: Path):
        setup = TableSetup(str(EXAMPLES / "rally-1.rally"), (Seat("Ann", "red"), Seat("Bob", "blue")), stage="SS1",
                           options={"flying_start": True, "sisu": "per-rally", "handbrake": True, "checkpoints": True},
                           dice="auto", seed=5)
        path, state, served = _whole_game(tmp_path, setup, 3000)
        served.stop()
        res = CliRunner().invoke(app, ["replay", str(path)])
        assert res.exit_code == 0, res.output
