"""A game at the table (issue 34, the terminal): ``rallyc play`` driven as a person would drive it, through
prompt-toolkit's own input (a whole two-player stage of Rally 1 with an undo and bad input at every prompt), in a
real terminal (tmux) killed with ``kill -9`` in the middle of a turn and resumed, and the journals replayed by
``rallyc replay`` with the classification the table saw."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from typer.testing import CliRunner

from rallyc.analysis.drivers import GreedyDriver
from rallyc.commands.cli import app
from rallyc.table.journal import resume, start
from rallyc.table.session import Refused, TableGame
from rallyc.table.setup import Seat, TableSetup
from rallyc.table.terminal import Terminal, prompt_reader

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
_OPTION = re.compile(r"^  (\d+)\. ")
_WARNINGS = re.compile(r"(\d+) Warning\(s\) of (\d+) allowed")
_DRAWS = re.compile(r"draws (\d+) Damage token")
_REFUSED = re.compile(r"refused \[([A-Z]+-[A-Z0-9]+-\d+)\] .* \(nothing changed\)")
#: what a careless person types first at each kind of question (each refused, the game unchanged)
BAD = {"plan": ["99", "gear6@10.3.l", "gear2@nowhere"], "die": ["fly"], "face": ["7", "six"],
       "zero_side": ["crash a b c", "upside-down"], "damage": ["3 tokens"], "token": ["maybe"],
       "spare_tire": ["perhaps"], "checkpoint": ["abc"], "tires": ["tank", "7"]}


class Person:
    """Someone at the table who reads the screen and types: lays the dice they have in mind (:attr:`plan`) by
    their numbers on the screen, rolls on unless one more Warning would be a Loss of Control, types the faces of
    the physical dice (a Warning now and then), and reads the cards and tokens off the real components. The first
    time each kind of question comes, they type something wrong first (:data:`BAD`)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.screen: list[str] = []
        self.tried: set[str] = set()
        self.refusals: list[tuple[str, str]] = []  # (question kind, rule ID named)
        self.queue: list[str] = []
        self.draws = 0
        self.question = ""  # the last question asked in words
        #: the dice the person has in mind for this turn (a good player's plan: the greedy driver's)
        self.plan: list[object] = []
        self.planned_at = -1

    def write(self, text: str) -> None:
        lines = str(text).split("\n")
        self.screen.extend(lines)
        if lines and not lines[0].startswith(" ") and ("?" in lines[0] or "draws" in lines[0] or ", " in lines[0]):
            self.question = lines[0]

    def since_prompt(self) -> list[str]:
        """The lines written since the last question was answered."""
        out = []
        for line in reversed(self.screen):
            if line.endswith("> ") or re.match(r"^\S+( lays)?> ", line):
                break
            out.append(line)
        return out[::-1]

    def answer(self, kind: str) -> str:
        if self.queue:
            return self.queue.pop(0)
        if kind not in self.tried and kind in BAD:
            self.tried.add(kind)
            self.queue = list(BAD[kind][1:])
            return BAD[kind][0]
        lines = self.since_prompt()
        text = "\n".join(lines)
        if kind == "plan":  # the next die of the plan in mind, by its number on the screen; then done
            laid = next((line.split()[1:] for line in lines if line.startswith("  laid:")), [])
            laid = [w for w in laid if "@" in w]
            if len(laid) < len(self.plan):
                want = str(self.plan[len(laid)])
                number = next(m.group(1) for line in lines if (m := _OPTION.match(line)) and line.endswith(" " + want))
                return number
            return "d"
        if kind == "die":
            m = _WARNINGS.search(text)
            if m and int(m.group(1)) >= int(m.group(2)) - 1 and "die 1," not in text:
                return "s"
            return "r"
        if kind == "face":
            return "w" if self.rng.random() < 0.2 else "o"
        if kind == "zero_side":
            return self.rng.choice(["spinout", "crash 0 1 1"])
        if kind == "damage":  # the sides the question lists; another one after a refusal (the bag lacks it)
            m = _DRAWS.search(self.question)
            assert m is not None, self.question
            sides = self.question.split("type their Damage sides (", 1)[1].split(")", 1)[0].split(", ")
            self.draws += 1
            return " ".join([sides[self.draws % len(sides)]] * int(m.group(1)))
        if kind == "token":
            return "ok"
        if kind == "relay":
            return "1"
        if kind == "spare_tire":
            return "n"
        if kind == "checkpoint":
            return "1"
        if kind == "tires":  # the first stage's tires (MC-TIRE-03): Ann fits asphalt, Bob keeps his
            return "asphalt" if self.question.startswith("Ann") else "k"
        raise AssertionError(kind)


def play_in_terminal(game: TableGame, person: Person, undo_at: int | None = None, stop_at: int | None = None) -> bool:
    """Play ``game`` through the terminal's prompt-toolkit prompt, the person's keys sent to its input. After a
    bad answer the screen names the rule and the game (and its journal) are unchanged."""
    undone = False
    expecting: list[tuple[str, int, int]] = []  # a bad answer typed: its kind, the version and journal size before
    with create_pipe_input() as keys, create_app_session(input=keys, output=DummyOutput()):
        typed = prompt_reader()

        def read(question: str, secret: bool, words: list[str]) -> str:
            nonlocal undone
            p = game.prompt()
            assert p is not None
            if stop_at is not None and game.version >= stop_at:
                keys.send_text("q\r")
                return typed(question, secret, words)
            if undo_at is not None and not undone and game.version >= undo_at:
                undone = True
                before = game.version
                keys.send_text("u\r")
                line = typed(question, secret, words)
                person.screen.append(question + line)
                assert line == "u" and game.version == before  # the terminal undoes once it reads it
                return line
            if p.kind == "plan" and not person.queue and game.version != person.planned_at:
                person.planned_at = game.version
                person.plan = [r.die for r in GreedyDriver(0).turn(game.state.game).dice]
            answer = person.answer(p.kind)
            version, journal_size = game.version, game.journal.path.stat().st_size if game.journal else 0
            keys.send_text(answer + "\r")
            line = typed(question, secret, words)
            person.screen.append(question + ("*" * len(line) if secret else line))
            if answer in BAD.get(p.kind, []):
                expecting.append((p.kind, version, journal_size))
            return line

        def write(text: str) -> None:
            person.write(text)
            if expecting and "refused" in str(text):
                kind, version, size = expecting.pop()
                m = _REFUSED.search(str(text))
                assert m is not None, text
                person.refusals.append((kind, m.group(1)))
                assert game.version == version
                assert game.journal is None or game.journal.path.stat().st_size == size

        return Terminal(game, read, write).run()


def _replay(path: Path, *more: str):
    return CliRunner().invoke(app, ["replay", str(path), *more], catch_exceptions=False)


def _classification(text: str) -> list[str]:
    lines = text.splitlines()
    i = lines.index("Rally classification:")
    return [line.split(". ", 1)[1] for line in lines[i + 1:] if re.match(r"^  \d+\. ", line)]


def test_a_whole_stage_of_rally_1_played_at_the_terminal_with_an_undo_and_bad_input(tmp_path):
    """Two people play SS1 of Rally 1 with the advanced options, typing the faces of their dice; one undo; every
    kind of question gets a wrong answer first, refused with its rule ID and nothing changed. The journal and the
    exported record replay (exit 0) with the classification the table saw."""
    journal = tmp_path / "game.jsonl"
    setup = TableSetup(str(EXAMPLES / "rally-1.rally"), (Seat("Ann", "red"), Seat("Bob", "blue")), "SS1",
                       options={"flying_start": True, "sisu": "per-rally", "checkpoints": True}, seed=4)
    game = start(journal, setup, tmp_path)
    person = Person(11)
    assert play_in_terminal(game, person, undo_at=9) is True
    assert game.is_over()
    screen = "\n".join(person.screen)
    assert "Ann's car is not on the road yet" in screen and "Next: Bob" in screen
    assert "Undone: 1 step(s) taken back" in screen
    lines = journal.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["journal"] == "rallyc-table/1"
    assert sum(1 for line in lines if '"undo": true' in line) == 1
    assert json.loads(lines[-1])["n"] == game.version == len(lines) - 3  # the setup line, the undo and its step
    kinds = {kind for kind, _ in person.refusals}
    assert {"plan", "die", "face", "checkpoint", "tires"} <= kinds, person.refusals
    rules = dict(person.refusals)
    assert rules["face"] == "CORE-ROLL-04" and rules["die"] == "CORE-ROLL-06" and rules["checkpoint"] == "CORE-ADV-09"
    # the first stage's tires, asked of each player before the first turn (MC-TIRE-03): Ann fitted asphalt
    assert rules["tires"] == "MC-TIRE-03" and "Ann, your tires for SS1" in screen and "Bob, your tires for SS1" in screen
    assert "* Stage SS1: Ann fits asphalt tires (MC-TIRE-03)." in screen
    assert [json.loads(line)["tires"] for line in lines[1:3]] == [{"player": "Ann", "tires": "asphalt"},
                                                                  {"player": "Bob", "tires": None}]
    # the Checkpoints penalties were typed hidden, and revealed only with the stage times (CORE-ADV-10)
    assert re.search(r"Ann> \*$", screen, re.M) and "Checkpoint penalties (CORE-ADV-10): Ann 5 s, Bob 5 s" in screen
    table = game.result_lines()[0]
    replayed = _replay(journal)
    assert replayed.exit_code == 0 and "unfinished" not in replayed.output
    names = [part.split(". ", 1)[1] for part in table.split(": ", 1)[1].split(", ")]
    assert _classification(replayed.output) == names
    export = tmp_path / "game.json"
    r = CliRunner().invoke(app, ["play", "--resume", str(journal), "--export", str(export)], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    assert _classification(_replay(export).output) == names and _replay(export).exit_code == 0
    assert json.loads(export.read_text(encoding="utf-8"))["stages"][0]["tires"] == {"Ann": "asphalt"}
    # a turn's step while the table asks for the tires (a journal written before they were asked) is refused there
    old = tmp_path / "old.jsonl"
    old.write_text("\n".join([lines[0]] + lines[3:]) + "\n", encoding="utf-8")
    r = _replay(old)
    assert r.exit_code == 1 and "old.jsonl:2: error[MC-TIRE-03]: the table asks for Ann's tires for SS1 now" in r.stderr


class Tmux:
    """A real terminal: a tmux server of its own, one window running a command; keys sent, the screen read."""

    def __init__(self, tmp: Path) -> None:
        self.sock = f"rallyc-play-{os.getpid()}-{tmp.name}"
        self.env = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp), "TERM": "xterm", "LANG": "C.UTF-8"}
        self.cwd = tmp

    def _run(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.sock, *args], check=True, capture_output=True, text=True,
                              env=self.env, cwd=self.cwd).stdout

    def start(self, command: str) -> None:
        self._run("-f", "/dev/null", "new-session", "-d", "-s", "table", "-x", "150", "-y", "50", command)

    def screen(self) -> str:
        return self._run("capture-pane", "-p", "-t", "table")

    def pid(self) -> int:
        return int(self._run("display-message", "-p", "-t", "table", "#{pane_pid}").strip())

    def keys(self, text: str) -> None:
        self._run("send-keys", "-t", "table", "-l", text)
        self._run("send-keys", "-t", "table", "Enter")

    def wait(self, pattern: str, timeout: float = 60, unlike: str | None = None) -> str:
        """The screen once ``pattern`` shows on it (and it differs from ``unlike``)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            screen = self.screen()
            if re.search(pattern, screen, re.M) and screen != unlike:
                return screen
            time.sleep(0.05)
        raise AssertionError(f"{pattern!r} never showed:\n{self.screen()}")

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.sock, "kill-server"], capture_output=True, env=self.env)


#: the end of the screen when the game waits on a question
_WAITS = r"^(Ann|Bob)( lays)?> *$(?![\s\S]*\S)"


def _lay_or_roll(laying: str) -> str:
    """What the person in the terminal types: before a die, roll; laying dice, the first die listed until three are
    laid or none is listed, then done."""
    if not laying:
        return "r"
    lines = laying.splitlines()
    laid = [line for line in lines if line.startswith("  laid:")]
    last = laid[-1] if laid else ""
    listed = [line for line in lines[lines.index(last) if last else 0:] if _OPTION.match(line)]
    if "a whole plan" in last and (not listed or sum("@" in w for w in last.split()) >= 3):
        return "d"
    return "1"


def test_kill_9_in_the_middle_of_a_turn_then_resume_in_a_real_terminal(tmp_path):
    """rallyc play in tmux (a real terminal, prompt-toolkit's prompt): answers typed until a turn is under way, the
    process killed with SIGKILL before a die, every step answered is in the journal, which replays as an
    unfinished game; ``--resume`` in a new terminal asks the same question again; the game is then played to its
    end and replays with exit 0."""
    assert shutil.which("tmux"), "tmux is missing (.ci/run installs it: apt-get install tmux)"
    journal = tmp_path / "game.jsonl"
    term = Tmux(tmp_path)
    term.start(f"exec {sys.executable} -m rallyc play {EXAMPLES / 'rally-1.rally'} --players Ann,Bob --dice auto "
               f"--seed 2 --journal {journal}")
    try:
        screen = term.wait(_WAITS)
        for _ in range(60):
            tail = screen[screen.rfind("lay your dice"):] if "lays>" in screen.rstrip().splitlines()[-1] else ""
            steps = len(journal.read_text(encoding="utf-8").splitlines()) - 1
            asked = [line for line in screen.splitlines()
                     if "lay your dice" in line or ", before the " in line or "your tires for" in line]
            if not tail and steps >= 8 and asked and "before the next die" in asked[-1]:
                break
            if not tail and asked and "your tires for" in asked[-1]:  # MC-TIRE-03: Ann fits snow, Bob keeps his
                term.keys("snow" if asked[-1].startswith("Ann") else "k")
            else:
                term.keys(_lay_or_roll(tail))
            screen = term.wait(_WAITS, unlike=screen)
        else:
            raise AssertionError(screen)
        question = [line for line in screen.splitlines() if "before the next die" in line][-1]
        before = journal.read_text(encoding="utf-8")
        os.kill(term.pid(), signal.SIGKILL)
    finally:
        term.close()
    assert journal.read_text(encoding="utf-8") == before  # every step answered is on disk
    assert '"tires": {"player": "Ann", "tires": "snow"}' in before  # MC-TIRE-03 typed in the terminal
    steps = len(before.splitlines()) - 1
    r = _replay(journal)
    assert r.exit_code == 0 and f"unfinished: the journal stops at step {steps}" in r.output
    term = Tmux(tmp_path)
    term.start(f"exec {sys.executable} -m rallyc play --resume {journal}")
    try:
        screen = term.wait(_WAITS)
        assert f"Resumed {journal} at step {steps}." in screen
        assert question in screen  # the question the killed game was asking, asked again
        term.keys("q")
        term.wait("Left the table")
    finally:
        term.close()
    game, notes = resume(journal)
    assert notes == [] and game.version == steps
    assert play_in_terminal(game, Person(3)) is True
    r = _replay(journal)
    assert r.exit_code == 0 and "unfinished" not in r.output and "Rally classification:" in r.output


def test_a_torn_last_line_is_reported_and_dropped(tmp_path):
    journal = tmp_path / "game.jsonl"
    setup = TableSetup(str(EXAMPLES / "rx-1.rally"), (Seat("Ann", "red", driver="random"), Seat("Bob", "blue")),
                       dice="auto", seed=5)
    game = start(journal, setup, tmp_path)
    game.advance()
    while game.version < 6:  # Bob lays the first dice listed, die by die, and rolls
        p = game.prompt()
        assert p is not None and p.who == "Bob"
        if p.kind == "plan":
            laid: list = []
            while True:
                listed, whole = game.plan_dice(laid)
                if whole and (len(laid) >= 3 or not listed):
                    break
                laid.append(listed[0])
            game.answer(" ".join(str(d) for d in laid))
        else:
            game.answer("r")
    whole = journal.read_text(encoding="utf-8")
    steps = game.version
    with open(journal, "a", encoding="utf-8") as f:
        f.write('{"n": 99, "step": "ro')  # killed while writing
    again, notes = resume(journal)
    assert len(notes) == 1 and "cut short and is dropped" in notes[0] and f"game.jsonl:{len(whole.splitlines()) + 1}" in notes[0]
    assert again.version == steps and journal.read_text(encoding="utf-8") == whole
    r = _replay(journal)
    assert r.exit_code == 0 and "unfinished" in r.output
    # a bad line before the last is an error naming its line, exit 1
    lines = whole.splitlines()
    lines.insert(2, '{"n": 2, "step": "fly"}')
    journal.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = _replay(journal)
    assert r.exit_code == 1 and "game.jsonl:3:" in r.stderr and "error[" in r.stderr


#: the forms played with --dice auto and a bot in every seat: (design, extra arguments)
BOT_GAMES = {
    "rally-1 SS1, advanced and Monte-Carlo options, R5 and R4": (
        "rally-1.rally", ["--stage", "SS1", "--players", "Ann,Bob", "--cars", "r5:asphalt,r4:snow",
                          "--seat", "Ann=strong", "--seat", "Bob=greedy", "--options",
                          "flying_start,redline,sisu=per-rally,checkpoints,one_shot,handbrake,weather"]),
    "rx-1, three cars": ("rx-1.rally", ["--players", "Ann,Bob,Cleo", "--seat", "Ann=random", "--seat", "Bob=greedy",
                                        "--seat", "Cleo=random"]),
    "rx-2, Full Contact": ("rx-2.rally", ["--players", "Ann,Bob,Cleo", "--seat", "Ann=random", "--seat",
                                          "Bob=greedy", "--seat", "Cleo=random", "--options", "full_contact"]),
    "rx-1, RX weather": ("rx-1.rally", ["--players", "Ann,Bob", "--seat", "Ann=random", "--seat", "Bob=greedy",
                                        "--options", "weather=wet"]),
    "ice": ("ice-track-1.rally", ["--race-format", "ice", "--players", "Ann,Bob", "--seat", "Ann=random",
                                  "--seat", "Bob=greedy"]),
    "improvisation": ("rally-2.rally", ["--players", "Ann,Bob,Cleo", "--seat", "Ann=random", "--seat",
                                        "Bob=random", "--seat", "Cleo=greedy", "--options", "improvisation"]),
    "a whole rally": ("rally-3.rally", ["--rally", "--players", "Ann,Bob", "--seat", "Ann=random", "--seat",
                                        "Bob=greedy", "--options", "checkpoints"]),
}
_TWO = ["--players", "Ann,Bob", "--cars", "r5:asphalt,r4:snow", "--seat", "Ann=random", "--seat", "Bob=greedy"]
#: each custom race (the Auto Tour's events are custom races: Time Trials on stages, Head-to-Heads on circuits)
for _name, (_file, _stage, _type, _rules, _bag) in {
    "custom head-to-head, speed, on a stage": ("auto-tour-1.rally", "SS1", "head-to-head", "speed", "light"),
    "custom time trial, technical, on a circuit": ("track-1.rally", None, "time-trial", "technical", None),
    "custom head-to-head, technical, on a circuit": ("track-2.rally", None, "head-to-head", "technical", None),
    "custom time trial, speed, on a stage": ("auto-tour-1.rally", "SS1", "time-trial", "speed", "light"),
    "custom time trial, speed, on a circuit": ("track-1.rally", None, "time-trial", "speed", None),
    "Auto Tour event: time trial, technical, on SS2": ("auto-tour-1.rally", "SS2", "time-trial", "technical", None),
    "Auto Tour event: head-to-head, speed, on Track 1": ("track-1.rally", None, "head-to-head", "speed", "light"),
}.items():
    _options = f"race_type={_type},track_rules={_rules}" + (f",damage_bag={_bag}" if _bag else "")
    BOT_GAMES[_name] = (_file, (["--stage", _stage] if _stage else []) + _TWO + ["--options", _options])


@pytest.mark.parametrize("name", list(BOT_GAMES))
def test_bots_in_every_seat_play_to_the_end_and_the_record_replays(name, tmp_path, monkeypatch):
    """``--dice auto`` with a bot in every seat: the game is played to its end, and both the journal and the
    exported record replay with exit 0 and the table's classification (or finishing order)."""
    monkeypatch.chdir(tmp_path)
    design, args = BOT_GAMES[name]
    r = CliRunner().invoke(app, ["play", str(EXAMPLES / design), *args, "--dice", "auto", "--seed", "1",
                                 "--journal", "game.jsonl", "--export", "game.json"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    assert "The game is over." in r.output and "Record: game.json" in r.output
    final = r.output.split("The game is over.", 1)[1]
    for path in ("game.jsonl", "game.json"):
        replayed = _replay(tmp_path / path)
        assert replayed.exit_code == 0, replayed.output
        if "Rally classification:" in replayed.output:
            names = _classification(replayed.output)
            assert ", ".join(f"{i}. {n}" for i, n in enumerate(names, 1)) in final.replace(" " * 2, " ")
        else:
            order = replayed.output.split("Finishing order:", 1)[1].split("\n")
            first = order[1].strip()
            assert f"Finishing order: {first}" in final or "Finishing order: nobody" in final


def test_a_setup_the_referee_refuses_is_said_with_exit_2(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for args, says in (
            (["--players", "Ann,Ann"], "player names must be unique"),
            (["--players", "Ann,Bob", "--stage", "SS9"], "has no stage 'SS9'"),
            (["--players", "Ann,Bob", "--seat", "Bob=wizard"], "--seat Bob=wizard"),
            (["--players", "Ann,Bob", "--cars", "tank,r5"], "tank")):
        r = CliRunner().invoke(app, ["play", str(EXAMPLES / "rally-1.rally"), *args, "--journal", "j.jsonl"],
                               catch_exceptions=False)
        assert r.exit_code == 2 and says in r.output and "Traceback" not in r.output, (args, r.output)
    r = CliRunner().invoke(app, ["play", str(EXAMPLES / "rally-1.rally"), "--players", "Ann,Bob", "--journal",
                                 "j.jsonl"], catch_exceptions=False)
    assert r.exit_code == 0
    again = CliRunner().invoke(app, ["play", str(EXAMPLES / "rally-1.rally"), "--players", "Ann,Bob", "--journal",
                                     "j.jsonl"], catch_exceptions=False)
    assert again.exit_code == 2 and "already holds a game" in again.output


def test_a_missing_play_extra_is_named_with_exit_2(tmp_path):
    code = ("import sys, pty\nsys.modules['prompt_toolkit'] = None\n"
            "from rallyc.commands.play import _reader\n_reader(None)\n")
    # _reader asks prompt-toolkit only in a terminal: run it under a pseudo-terminal
    p = subprocess.run([sys.executable, "-c", "import os, pty, sys; pty.spawn([sys.executable, '-c', "
                        + repr(code) + "])"], capture_output=True, text=True, cwd=tmp_path, timeout=60)
    out = p.stdout + p.stderr
    assert "Traceback" not in out
    assert "rallyc play: a game in a terminal needs prompt-toolkit" in out
    assert "pip install 'rallyc[play]'" in out


def test_a_failed_flat_out_re_laid_on_another_path_the_rules_allow(tmp_path, monkeypatch):
    """After a failed Flat Out the rolled dice are re-laid on any path the rules allow, dice left out (CORE-ROLL-13),
    typed as a plan at the prompt; a die not rolled, or a re-laying that no longer causes the Loss of Control, is
    refused with its rule and changes nothing."""
    monkeypatch.chdir(tmp_path)
    typed = ["k", "gear1@1.3.l gear2@2.1.out1 leader@2.1.out2 gear3@3.1.l gear4@3.2.l flat", "w", "o", "o", "w", "w",
             "gear1@1.3.l gear6@2.1.in1",  # no gear6 die was rolled
             "gear1@1.3.l leader@2.1.in1 gear2@3.1.r",  # two Warnings, under the limits of that path: no LoC
             "gear1@1.3.l gear2@2.1.in1",  # into the hairpin's inside (limit 1) with the Warning of gear1
             "spinout", "q"]
    r = CliRunner().invoke(app, ["play", str(EXAMPLES / "rally-1.rally"), "--stage", "SS1", "--players", "Ann",
                                 "--journal", "game.jsonl"], input="\n".join(typed) + "\n", catch_exceptions=False)
    assert r.exit_code == 0, r.output
    assert ("the rolled dice laid again on the same path: gear1@1.3.l w, gear2@2.1.out1 o, leader@2.1.out2 o, "
            "gear3@3.1.l w, gear4@3.2.l w") in r.output
    assert "refused [CORE-ROLL-13] gear6@2.1.in1: no gear6 die was rolled" in r.output
    assert "refused [CORE-ROLL-14] the re-laid dice must still cause the Loss of Control" in r.output
    assert ("Ann: 1.2.l -> 2.1.in1 (2 spaces, flat out), Gear 0, Flat Out failed, Loss of Control (Gear 2 over the "
            "limit 1) on 2.1.in1") in r.output
    # the board after the turn: the whole route, one character a zone, Ann's car at the hairpin of limit 1
    lines = r.output.split("Ann's car on 2.1.in1:\n", 1)[1].splitlines()
    assert lines[0].startswith("  road |---1----4") and lines[1].startswith("  cars |")
    assert lines[1].index("A") == lines[0].index("1") and lines[1].strip("|").strip() == "cars |   A"
    replayed = _replay(tmp_path / "game.jsonl")
    assert replayed.exit_code == 0 and "Loss of Control (Gear 2 over the limit 1) on 2.1.in1" in replayed.output


def test_two_rolled_dice_of_a_kind_with_different_faces_are_told_apart_when_re_laid(tmp_path):
    game = TableGame(TableSetup(str(EXAMPLES / "rally-1.rally"), (Seat("Ann", "red"),), stage="SS1"), tmp_path)
    game.answer("k")  # Ann keeps her gravel tires (MC-TIRE-03)
    game.answer("flat gear1@1.3.l gear2@2.1.out1 leader@2.1.out2 gear3@3.1.l gear4@3.2.l gear5@3.3.l gear6@4.1.l "
                "leader@4.2.in1")
    for face in "oowoowwo":  # the first Leader die shows a Warning, the second none
        game.answer(face)
    assert game.prompt().kind == "relay"
    other_path = "gear1@1.3.l leader@2.1.in1{} gear2@3.1.l gear3@3.2.l gear4@3.3.l gear5@4.1.l gear6@4.2.in1"
    with pytest.raises(Refused) as refused:
        game.answer(other_path.format(""))
    assert refused.value.rule_id == "CORE-ROLL-13" and "two leader dice were rolled" in refused.value.message
    assert game.version == 10 and game.prompt().kind == "relay"
    game.answer(other_path.format("=o"))
    game.answer("spinout")
    turn = game.happened[-1].text
    assert "1.2.l -> " in turn and "flat out" in turn and "Loss of Control" in turn, turn
    assert game.record()["stages"][0]["turns"][0]["relaid"][1] == {"die": "leader", "to": "2.1.in1", "face": "ok"}


def _plays_on(game: TableGame, flat_out_first: bool = False) -> None:
    """Answer the game's questions (both players' dice typed from the table) until it asks one between stages: each
    plan the first dice listed up to a whole plan (the first, if asked, every die listed, Flat Out), no Warning
    (Ann's first Flat Out: all Warnings, a crash, the Damage token drawn a Coast/Leader one), roll on, no tire."""
    while game.prompt().kind not in ("spare_between", "tires"):
        p = game.prompt()
        if p.kind == "plan":
            laid: list = []
            while (flat_out_first and game.plan_dice(laid)[0]) or not game.plan_dice(laid)[1]:
                laid.append(game.plan_dice(laid)[0][0])
            game.answer(("flat " if flat_out_first else "") + " ".join(str(d) for d in laid))
            flat_out_first = False
        elif p.kind == "face":
            game.answer("w" if not game.happened else "o")
        elif p.kind == "zero_side":
            game.answer("crash 1 1 1")
        elif p.kind == "damage":
            game.answer(" ".join(["coast"] * int(_DRAWS.search(p.words).group(1))))
        else:
            keys = [c.key for c in p.choices]
            game.answer(next((k for k in ("r", "n", "1") if k in keys), keys[0]))


def test_between_stages_the_spare_tire_and_the_tires_for_the_next_stage(tmp_path):
    """Rally 4 at the table: no Assistance after SS1, so a car with a Coast/Leader Damage token may fit its Spare
    Tire between the stages (CORE-RALLY-08); Assistance after SS2, so each player chooses the tires for SS3
    (MC-TIRE-04, the car's category, MC-TIRE-06). Wrong answers are refused with the rule; an undo goes back to the
    question; the journal replays, the record stating the changes."""
    path = tmp_path / "game.jsonl"
    game = start(path, TableSetup(str(EXAMPLES / "rally-4.rally"), (Seat("Ann", "red"), Seat("Bob", "blue",
                                                                                           driver="greedy")),
                                  rally=True), tmp_path)
    game.advance()
    game.answer("k")  # the first stage's tires (MC-TIRE-03): Ann keeps hers, then rallyc keeps Bob's
    _plays_on(game, flat_out_first=True)
    p = game.prompt()
    assert (p.who, p.kind) == ("Ann", "spare_between") and "no Assistance after SS1" in p.words
    assert [(c.key, c.label) for c in p.choices] == [("n", "no: keep the Spare Tire card"),
                                                     ("y", "yes: fit it, one Coast/Leader Damage token off")]
    assert "coast 1" in game.standings()[0]
    with pytest.raises(Refused) as refused:
        game.answer("maybe")
    assert refused.value.rule_id == "CORE-RALLY-08"
    game.answer("y")  # Bob, rallyc's greedy driver, fits his too
    assert any(h.text.startswith("Stage SS1 over: ") and h.text.endswith(
        "Spare Tire fitted between the stages, one Coast/Leader Damage token off (CORE-RALLY-08): Ann, Bob.")
        for h in game.happened)
    assert game.stage_name == "SS2" and "coast" not in game.standings()[0]

    _plays_on(game)
    p = game.prompt()
    assert (p.who, p.kind) == ("Ann", "tires") and "Assistance after SS2: tires for SS3?" in p.words
    assert [c.key for c in p.choices] == ["k", "asphalt", "snow", "soft"]  # the R6's Dashboards; gravel fitted
    with pytest.raises(Refused) as refused:
        game.answer("slicks")
    assert refused.value.rule_id == "MC-TIRE-04" and game.prompt().kind == "tires"
    game.answer("asphalt")
    assert game.stage_name == "SS3" and any(h.text == "Stage SS3: Ann fits asphalt tires (MC-TIRE-04)."
                                            for h in game.happened)
    game.undo_to_person()  # back to the question (rallyc's steps for Bob taken back with it)
    assert (game.prompt().who, game.prompt().kind) == ("Ann", "tires") and game.stage_name == "SS2"
    game.answer("snow")
    version = game.version
    record = game.record()
    assert record["stages"][0]["spare_tire"] == ["Ann", "Bob"] and record["stages"][2]["tires"] == {"Ann": "snow"}
    lines = path.read_text(encoding="utf-8").splitlines()
    assert '"spare_between": {"fitted": true, "player": "Ann"}' in "\n".join(lines)
    again, notes = resume(path)
    assert not notes and again.version == version and again.record() == record
    replayed = _replay(path)
    assert replayed.exit_code == 0 and "unfinished" in replayed.output, replayed.output


def test_an_auto_tour_played_event_by_event_at_the_table_and_scored(tmp_path, monkeypatch):
    """The Auto Tour as the table plays it today (docs/play.md): each event a game of its own, exported, in the
    starting order the tour gives (TOUR-08, then the lowest tour time first, TOUR-09); a tour file listing the
    records is scored by ``rallyc replay`` (exit 0, the winner)."""
    monkeypatch.chdir(tmp_path)
    cars = {"Ann": ("red", "r5:asphalt"), "Bob": ("blue", "r4:snow")}

    def event(design: str, options: str, order: list[str], out: str, *stage: str) -> None:
        r = CliRunner().invoke(app, ["play", str(EXAMPLES / design), *stage, "--players", ",".join(order),
                                     "--colours", ",".join(cars[n][0] for n in order),
                                     "--cars", ",".join(cars[n][1] for n in order), "--seat", "Ann=greedy",
                                     "--seat", "Bob=greedy", "--options", options, "--dice", "auto", "--seed", "1",
                                     "--journal", out + "l", "--export", out], catch_exceptions=False)
        assert r.exit_code == 0 and f"Record: {out}" in r.output, r.output

    event("auto-tour-1.rally", "race_type=time-trial,track_rules=technical", ["Ann", "Bob"], "e1.json",
          "--stage", "SS1")
    first = json.loads((tmp_path / "e1.json").read_text(encoding="utf-8"))["classification"]
    order = [c["name"] for c in first]  # the lowest tour time starts first (TOUR-09)
    event("track-1.rally", "race_type=head-to-head,track_rules=speed,damage_bag=light", order, "e2.json")
    tour = {"format": "rallyc-tour/1", "players": [{"name": n, "colour": c, "car": car.split(":")[0]}
                                                    for n, (c, car) in cars.items()],
            "events": [{"race_type": "time-trial", "record": "e1.json"},
                       {"race_type": "head-to-head", "record": "e2.json"}]}
    (tmp_path / "tour.json").write_text(json.dumps(tour), encoding="utf-8")
    r = _replay(tmp_path / "tour.json")
    assert r.exit_code == 0, r.output
    assert f"Event 2: Head-to-Head on Auto Tour 1 - Track 1; starting order {', '.join(order)}" in r.output
    assert re.search(r"^Winner: (Ann|Bob)$", r.output, re.M), r.output
