"""``rallyc serve`` as a user starts it: a new game on a port it prints with its token, a bot in a seat, stopped
and served again from its journal where it was; bad input answered with a message and an exit code."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from typer.testing import CliRunner

from helpers.paths import EXAMPLES
from rallyc.commands.cli import app
from rallyc.table.journal import resume

runner = CliRunner()
RALLY_1 = EXAMPLES / "rally-1.rally"


class Process:
    """``rallyc serve ARGS`` in a process of its own, until the URL it prints."""

    def __init__(self, *args: str, cwd: Path) -> None:
        # started as from a terminal: Ctrl+C's signal at its default (a test run started in the background of a
        # script ignores SIGINT, and a child inherits that)
        self.proc = subprocess.Popen([sys.executable, "-m", "rallyc", "serve", *args, "--port", "0"], cwd=cwd,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        found = re.search(r"open (http://127\.0\.0\.1:\d+/)\?token=([\w-]+)", line)
        assert found, (line, self.proc.stderr.read() if self.proc.poll() is not None else "")
        self.base, self.token = found.group(1), found.group(2)
        self.journal_line = self.proc.stdout.readline()

    def get(self, path: str, token: str | None = None) -> tuple[int, dict]:
        try:
            with urllib.request.urlopen(f"{self.base}{path}?token={token or self.token}", timeout=60) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def post(self, path: str, body: dict) -> tuple[int, dict]:
        req = urllib.request.Request(f"{self.base}{path}?token={self.token}", data=json.dumps(body).encode())
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def stop(self, sig: int = signal.SIGINT) -> int:
        """Ctrl+C (or another signal), then what the server wrote read to the end (a pipe left full would hold its
        exit)."""
        self.proc.send_signal(sig)
        try:
            _, err = self.proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            _, err = self.proc.communicate()
            raise AssertionError(f"rallyc serve did not stop on signal {sig}; it wrote: {err[-2000:]}")
        assert "Traceback" not in err, err
        return self.proc.returncode


def test_a_new_game_with_a_bot_then_served_again_from_its_journal(tmp_path: Path):
    served = Process(str(RALLY_1), "--stage", "SS1", "--players", "Ann,Bob", "--seat", "Bob=greedy", cwd=tmp_path)
    try:
        assert "rally-1.jsonl" in served.journal_line
        status, state = served.get("/state")
        assert status == 200 and state["prompt"]["who"] == "Ann" and state["prompt"]["kind"] == "tires"
        assert served.get("/state", token="x" * 22)[0] == 403
        # Ann keeps her tires for SS1 (MC-TIRE-03), then rallyc keeps Bob's
        assert served.post("/step", {"revision": state["revision"], "answer": "k"})[0] == 200
        state = served.get("/state")[1]
        assert state["prompt"]["who"] == "Ann" and state["prompt"]["kind"] == "plan"
        # Ann lays the first die offered, rolls it and it shows no Warning; then the greedy bot plays Bob's turn
        die = served.get("/plan")[1]["next"][0]["die"]
        for answer in (die, "r", "o"):
            status, body = served.post("/step", {"revision": state["revision"], "answer": answer})
            assert status == 200, body
            state = served.get("/state")[1]
        version, words = state["version"], state["prompt"]["words"]
    finally:
        assert served.stop() == 0
    journal = tmp_path / "rally-1.jsonl"
    assert len(journal.read_text(encoding="utf-8").splitlines()) == 1 + version

    again = Process("rally-1.jsonl", cwd=tmp_path)
    try:
        state = again.get("/state")[1]
        assert state["version"] == version and state["prompt"]["words"] == words
        status, body = again.post("/step", {"revision": state["revision"], "answer": again.get("/plan")[1]["next"][0]
                                            ["die"]})
        assert status == 200, body
        version = again.get("/state")[1]["version"]
    finally:
        assert again.stop(signal.SIGTERM) == 0  # kill's signal: stopped as by Ctrl+C, the journal closed whole
    game, notes = resume(journal)
    assert not notes and game.version == version
    assert len(journal.read_text(encoding="utf-8").splitlines()) == 1 + version


def test_sigterm_while_pages_keep_asking_stops_the_server(tmp_path: Path):
    """A SIGTERM that arrives while the server handles a request stops it as Ctrl+C does (it once printed a traceback
    from inside the request and went on serving): four pages asking for the state without a pause, three times."""
    import threading
    import time

    for k in range(3):
        folder = tmp_path / str(k)
        folder.mkdir()
        served = Process(str(RALLY_1), "--stage", "SS1", "--players", "Ann,Bob", cwd=folder)
        done = threading.Event()

        def ask() -> None:
            while not done.is_set():
                try:
                    urllib.request.urlopen(f"{served.base}state?token={served.token}", timeout=5).read()
                except (OSError, http.client.HTTPException):
                    pass  # the server has stopped listening, or stopped in the middle of an answer

        pages = [threading.Thread(target=ask) for _ in range(4)]
        for page in pages:
            page.start()
        try:
            time.sleep(0.3)
            assert served.stop(signal.SIGTERM) == 0
        finally:
            done.set()
            for page in pages:
                page.join()
        assert resume(folder / "rally-1.jsonl")[0].version == 0


@pytest.mark.parametrize("args, words", [
    (["no-such.rally", "--players", "Ann"], "no such file"),
    ([str(RALLY_1), "--stage", "SS9", "--players", "Ann"], "has no stage 'SS9'"),
    ([str(RALLY_1)], "needs its players"),
    ([str(RALLY_1), "--players", "Ann", "--seat", "Ann=robot"], "--seat Ann=robot"),
    ([str(RALLY_1), "--players", "Ann", "--dice", "loaded"], "dice are typed or auto"),
    ([str(RALLY_1), "--players", "Ann", "--token", "short"], "--token"),
    ([str(RALLY_1), "--players", "Ann,Bob", "--cars", "r5"], "--cars: one per player (2), not 1"),
    ([str(RALLY_1), "--players", " , "], "--players: name the players"),
])
def test_bad_setups_say_why_and_write_no_journal(tmp_path: Path, monkeypatch, args, words):
    monkeypatch.chdir(tmp_path)
    res = runner.invoke(app, ["serve", *args, "--port", "0"])
    assert res.exit_code == 2 and words in res.output and "Traceback" not in res.output
    assert res.output.startswith("rallyc serve: "), res.output  # the command the user typed, not rallyc play
    assert not list(tmp_path.glob("*.jsonl"))


def test_a_journal_holding_a_game_is_not_overwritten_and_a_broken_one_is_located(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    held = tmp_path / "held.jsonl"
    held.write_text('{"journal": "rallyc-table/1", "setup": {"file": "x.rally", "seats": []}}\n', encoding="utf-8")
    res = runner.invoke(app, ["serve", str(RALLY_1), "--players", "Ann", "--journal", str(held), "--port", "0"])
    assert res.exit_code == 2 and "already holds a game" in res.output
    res = runner.invoke(app, ["serve", str(held), "--players", "Ann"])
    assert res.exit_code == 2 and "is a journal" in res.output
    rel = os.path.relpath(RALLY_1, tmp_path)
    broken = tmp_path / "broken.jsonl"
    broken.write_text(json.dumps({"journal": "rallyc-table/1", "setup": {
        "file": rel, "seats": [{"name": "Ann", "colour": "red"}], "stage": "SS1"}}) + "\n"
        + '{"n": 1, "step": "roll"}\n{"n": 2, "step": "ok"}\n', encoding="utf-8")
    res = runner.invoke(app, ["serve", str(broken), "--port", "0"])
    assert res.exit_code == 1 and f"{broken}:2:" in res.output and "Traceback" not in res.output
