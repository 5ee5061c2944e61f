"""``rallyc play FILE --players Ann,Bob``: a game at the table, refereed in a terminal (rallyc.table).

Exit codes: 0 the game is over (or left with ``q``: the journal keeps it), 1 a journal the rules refuse (the line
named), 2 usage or I/O error (a setup the referee refuses, a journal that already holds a game, no prompt-toolkit
for a game in a terminal: ``pip install 'rallyc[play]'``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Optional

import typer

from rallyc.commands import table_options as opts
from rallyc.commands.errors import EXIT_PROBLEMS, EXIT_USAGE, fail, handles_errors, needs_extra

PLAY_EPILOG = """\b
Examples:
  rallyc play examples/rally-1.rally --stage SS1 --players Ann,Bob
  rallyc play examples/rally-1.rally --players Ann,Bob --seat Bob=strong --options flying_start,sisu=per-rally
  rallyc play examples/rx-1.rally --players Ann,Bob,Cleo --journal rx.jsonl
  rallyc play --resume game.jsonl                        # continue exactly where it was
  rallyc play --resume game.jsonl --export game.json     # a finished game's record (rallyc replay reads it)
  rallyc play examples/ice-track-1.rally --race-format ice --players A,B --seat A=greedy --seat B=random --dice auto
\b
Exit codes: 0 the game over or left (the journal keeps it), 1 a journal the rules refuse, 2 usage or I/O error."""


def _reader(game: Any) -> Any:
    """prompt-toolkit's prompt in a terminal; plain lines from a script piped in."""
    # start-up: the table only for a game
    from rallyc.table.terminal import line_reader, prompt_reader

    if not sys.stdin.isatty():
        return line_reader(sys.stdin, echo=typer.echo)
    try:
        return prompt_reader()
    except ImportError as e:
        raise needs_extra("rallyc play", "a game in a terminal needs prompt-toolkit", "play", e)


def export_record(game: Any, path: Path) -> None:
    """A finished game's record written to ``path`` (its ``track`` relative to the record's folder)."""
    # start-up: the records only for an export
    from rallyc.records.generate import write_record

    record = game.record()
    record["track"] = os.path.relpath(record["track"], path.resolve().parent)
    write_record(record, path)


def register(app: typer.Typer) -> None:
    """Add ``rallyc play`` to the app."""

    @app.command("play", epilog=PLAY_EPILOG)
    @handles_errors("rallyc play")
    def play(
        file: Optional[Path] = typer.Argument(None, help="The design (.rally): a rally, a stage or an RX circuit "
                                                         "(not needed with --resume)."),
        stage: opts.Stage = None,
        rally: opts.Rally = False,
        players: opts.Players = None,
        cars: opts.Cars = None,
        colours: opts.Colours = None,
        options: opts.Options = None,
        race_format: opts.RaceFormat = None,
        seat: opts.SeatOption = None,
        dice: opts.Dice = "typed",
        seed: opts.Seed = 0,
        journal: Optional[Path] = typer.Option(None, "--journal", "-j", help="The journal to write (JSON Lines; "
                                                                             "default: FILE's name, .jsonl)."),
        resume: Optional[Path] = typer.Option(None, "--resume", help="Continue the game of this journal."),
        export: Optional[Path] = typer.Option(None, "--export", help="When the game is over, write its record "
                                                                     "here (rallyc replay reads it)."),
    ) -> None:
        """Play a game at the table: rallyc referees every step, keeps the times, and the journal loses nothing.

        Each turn shows the road around the car, lists the dice that may be laid, takes the faces as the
        players roll the dice, then says what happened with the rule IDs. See docs/play.md.
        """
        # start-up: the referee and the table only for a game
        from rallyc.table.journal import JournalError, resume as resume_game, start
        from rallyc.table.setup import SetupError
        from rallyc.table.terminal import Terminal

        if resume is not None:
            if file is not None or players is not None:
                raise fail("--resume continues a journal's game: give no FILE nor --players", EXIT_USAGE,
                           "rallyc play")
            try:
                game, notes = resume_game(resume)
            except JournalError as exc:
                raise fail(str(exc), EXIT_PROBLEMS, "rallyc play")
            except SetupError as exc:
                raise fail(f"{resume}: {exc}", EXIT_USAGE, "rallyc play")
            for note in notes:
                typer.echo(f"warning: {note}", err=True)
            typer.echo(f"Resumed {resume} at step {game.version}.")
        else:
            if file is None or players is None:
                raise fail("name the design FILE and the --players (or --resume a journal)", EXIT_USAGE,
                           "rallyc play")
            setup = opts.table_setup(file, stage, rally, players, cars, colours, options, race_format, seat, dice,
                                     seed, "rallyc play")
            path = journal or Path(file.stem + ".jsonl")
            try:
                game = start(path, setup, Path.cwd())
            except SetupError as exc:
                raise fail(str(exc), EXIT_USAGE, "rallyc play")
            except FileExistsError as exc:
                raise fail(str(exc), EXIT_USAGE, "rallyc play")
            typer.echo(f"Journal: {path} (rallyc play --resume {path} continues this game)")
        Terminal(game, _reader(game), typer.echo).run()
        if export is not None:
            if not game.is_over():
                raise fail(f"--export: the game is not over (step {game.version}); `rallyc replay "
                           f"{game.journal.path if game.journal else 'JOURNAL'}` replays it as far as it goes",
                           EXIT_USAGE, "rallyc play")
            export_record(game, export)
            typer.echo(f"Record: {export}")
        raise typer.Exit(0)
