"""The journal of a game at the table: JSON Lines, one step a line, appended and flushed to disk (``fsync``) before
the screen moves on, so that a ``kill -9`` at any moment loses at most the step being typed.

The format (``rallyc-table/1``)::

    {"journal": "rallyc-table/1", "setup": {...}}      the first line: the game's setup (rallyc.table.setup.TableSetup;
                                                        its design file relative to the journal's folder)
    {"n": 1, "step": {"plan": {"dice": [...]}}}         a step of the step machine (rallyc.rules.core.machine.step_to_json)
    {"n": 2, "step": "roll"}
    {"n": 3, "step": "ok"}
    {"n": 4, "checkpoint": {"player": "Ann", "tokens": 2}}  a Checkpoints penalty chosen (CORE-ADV-09)
    {"n": 5, "spare_between": {"player": "Ann", "fitted": true}}  the Spare Tire fitted between stages (CORE-RALLY-08)
    {"n": 6, "tires": {"player": "Ann", "tires": "asphalt"}}  tires fitted for the next stage (MC-TIRE-04), or before the first (MC-TIRE-03); null: kept
    {"n": 3, "undo": true}                              the last step taken back (the journal stays append-only)

``n`` is the number of steps in force after the line. :func:`resume` reads a journal back: every line replayed
through the rules again; a last line cut short (the process killed while writing it) is reported and dropped,
never fatal; any other bad line is a :class:`JournalError` naming its line.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from rallyc.data.components import Components
from rallyc.rules.core.machine import step_from_json, step_to_json
from rallyc.table.answers import TABLE_STEPS, Checkpoint, Refused, SpareBetween, TireChange
from rallyc.table.format import FORMAT, is_journal
from rallyc.table.session import TableGame
from rallyc.table.setup import SetupError, TableSetup

__all__ = ["FORMAT", "Journal", "JournalError", "JournalRead", "read_journal", "resume", "start", "is_journal"]

class JournalError(ValueError):
    """A journal that cannot be read back: ``line`` (1-based) and what is wrong there."""

    def __init__(self, path: Path, line: int, message: str, rule_id: str | None = None) -> None:
        super().__init__(f"{path}:{line}: " + (f"{rule_id}: " if rule_id else "") + message)
        self.path, self.line, self.message, self.rule_id = path, line, message, rule_id


class Journal:
    """A journal open for appending: each line written, flushed and synced to disk before :meth:`step` returns."""

    def __init__(self, path: Path, stream: IO[str], version: int = 0) -> None:
        self.path = path
        self._stream = stream
        self.version = version

    def _write(self, entry: dict[str, Any]) -> None:
        self._stream.write(json.dumps(entry, sort_keys=True, ensure_ascii=False) + "\n")
        self._stream.flush()
        os.fsync(self._stream.fileno())

    def step(self, step: Any) -> None:
        """Append a step (a machine step or one of the table's: :data:`~rallyc.table.answers.TABLE_STEPS`)."""
        self.version += 1
        if isinstance(step, TABLE_STEPS):
            self._write({"n": self.version, **step.to_json()})
        else:
            self._write({"n": self.version, "step": step_to_json(step)})

    def undo(self) -> None:
        """Append an undo: the last step in force taken back."""
        self.version -= 1
        self._write({"n": self.version, "undo": True})

    def close(self) -> None:
        self._stream.close()


def start(path: Path, setup: TableSetup, base: Path, components: Components | None = None) -> TableGame:
    """A new game at the table with its journal at ``path`` (which must not exist yet, or be empty): the setup
    checked and written as the first line. The surface then calls ``game.advance()`` (the bots' first steps, shown
    as they happen). :class:`SetupError` when the referee refuses the setup; FileExistsError when the journal holds
    a game (resume it instead)."""
    if path.exists() and path.stat().st_size > 0:
        raise FileExistsError(f"{path} already holds a game: resume it with --resume {path}, or choose another "
                              f"--journal")
    game = TableGame(setup, base, components)
    design = (base / setup.file).resolve()
    stored = setup.with_file(os.path.relpath(design, path.resolve().parent))
    stream = open(path, "w", encoding="utf-8")
    journal = Journal(path, stream)
    journal._write({"journal": FORMAT, "setup": stored.to_json()})
    game.journal = journal
    return game


@dataclass
class JournalRead:
    """A journal read back: its setup, its entries (``("step", step)``, ``("undo", None)``), the byte length of
    its whole lines, and the last line dropped because it was cut short (None when there was none)."""

    setup: TableSetup
    entries: list[tuple[str, Any]] = field(default_factory=list)
    good_bytes: int = 0
    torn: str | None = None
    lines: int = 0


def read_journal(path: Path) -> JournalRead:
    """The journal at ``path`` read (nothing replayed yet): :class:`JournalError` at its first bad line, except a
    last line cut short, which is dropped and reported in ``torn``."""
    data = path.read_bytes()
    raw_lines = data.split(b"\n")
    ends_with_newline = data.endswith(b"\n")
    if ends_with_newline:
        raw_lines = raw_lines[:-1]
    read: JournalRead | None = None
    offset = 0
    for i, raw in enumerate(raw_lines, start=1):
        last = i == len(raw_lines)
        try:
            entry = json.loads(raw.decode("utf-8"))
            if not isinstance(entry, dict):
                raise ValueError("not an object")
        except ValueError as exc:
            if last and read is not None:  # cut short while being written: dropped
                read.torn = f"{path}:{i}: the last line was cut short and is dropped ({len(raw)} bytes)"
                return read
            raise JournalError(path, i, f"not a journal line ({exc})") from None
        if last and not ends_with_newline and read is not None:
            read.torn = f"{path}:{i}: the last line has no end of line and is dropped"
            return read
        if i == 1:
            if entry.get("journal") != FORMAT or not isinstance(entry.get("setup"), dict):
                raise JournalError(path, 1, f"not a rallyc journal: its first line opens a {FORMAT} journal")
            try:
                read = JournalRead(TableSetup.from_json(entry["setup"]))
            except (KeyError, TypeError, ValueError) as exc:
                raise JournalError(path, 1, f"the setup cannot be read ({exc})") from None
        else:
            assert read is not None
            read.entries.append(_entry(path, i, entry))
        offset += len(raw) + 1
        assert read is not None
        read.good_bytes = offset
        read.lines = i
    if read is None:
        raise JournalError(path, 1, "the journal is empty")
    return read


def _entry(path: Path, line: int, entry: dict[str, Any]) -> tuple[str, Any]:
    if entry.get("undo") is True:
        return "undo", None
    if "checkpoint" in entry:
        c = entry["checkpoint"]
        try:
            return "step", Checkpoint(str(c["player"]), int(c["tokens"]))
        except (KeyError, TypeError, ValueError):
            raise JournalError(path, line, "a checkpoint line names the player and the tokens") from None
    if "spare_between" in entry:
        c = entry["spare_between"]
        try:
            return "step", SpareBetween(str(c["player"]), bool(c["fitted"]))
        except (KeyError, TypeError):
            raise JournalError(path, line, "a spare_between line names the player and whether it is fitted") from None
    if "tires" in entry:
        c = entry["tires"]
        try:
            return "step", TireChange(str(c["player"]), None if c["tires"] is None else str(c["tires"]))
        except (KeyError, TypeError):
            raise JournalError(path, line, "a tires line names the player and the tires (null: kept)") from None
    if "step" in entry:
        return "step", step_from_json(entry["step"])
    raise JournalError(path, line, "a journal line is a step, a checkpoint, a spare_between, a tires or an undo")


def replay_journal(path: Path, components: Components | None = None) -> tuple[TableGame, JournalRead]:
    """The game a journal describes, every step replayed through the rules (nothing appended): the game and what
    was read. :class:`JournalError` at the first line the rules refuse (or that cannot be read); SetupError when
    the setup is refused."""
    read = read_journal(path)
    game = TableGame(read.setup, path.resolve().parent, components)
    for i, (kind, step) in enumerate(read.entries, start=2):
        try:
            if kind == "undo":
                game.undo()
            else:
                game._apply_one(step)
        except Refused as exc:
            raise JournalError(path, i, exc.message, exc.rule_id) from None
    return game, read


def resume(path: Path, components: Components | None = None) -> tuple[TableGame, list[str]]:
    """A game continued from its journal: replayed (:func:`replay_journal`), a last line cut short cut off the file,
    the journal opened for appending (the surface then calls ``game.advance()``: a bot to move moves). Returns the
    game and what was reported (the torn line)."""
    game, read = replay_journal(path, components)
    notes = [read.torn] if read.torn else []
    if read.torn is not None:
        with open(path, "r+b") as f:
            f.truncate(read.good_bytes)
            f.flush()
            os.fsync(f.fileno())
    stream = open(path, "a", encoding="utf-8")
    game.journal = Journal(path, stream, game.version)
    return game, notes


__all__ += ["replay_journal", "SetupError"]
