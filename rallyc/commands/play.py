"""``rallyc play FILE --players Ann,Bob``: a game at the table, refereed in a terminal (rallyc.table).

Exit codes: 0 the game is over (or left with ``q``: the journal keeps it), 1 a journal the rules refuse (the line
named), 2 usage or I/O error (a setup the referee refuses, a journal that already holds a game, no prompt-toolkit
for a game in a terminal: ``pip install 'rallyc[play]'``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, List, Optional

import typer

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


def _option_value(text: str) -> Any:
    low = text.casefold()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low.lstrip("-").isdigit():
        return int(low)
    return text


def parse_options(text: str | None) -> dict[str, Any]:
    """``flying_start,sisu=per-rally,laps=3`` as a record's options (a name alone is true)."""
    out: dict[str, Any] = {}
    for item in (text or "").split(","):
        item = item.strip()
        if not item:
            continue
        name, eq, value = item.partition("=")
        out[name.strip()] = _option_value(value.strip()) if eq else True
    return out


def _seats(players: str, cars: str | None, colours: str | None, seat: list[str]) -> tuple[Any, ...]:
    """The seats from ``--players``, ``--cars`` (``car`` or ``car:tires`` per player), ``--colours`` and
    ``--seat NAME=DRIVER``; a usage error names what does not fit."""
    # start-up: the table only for a game
    from rallyc.table.setup import COLOURS, DRIVERS, Seat

    names = [n.strip() for n in players.split(",") if n.strip()]
    if not names:
        raise fail("--players: name the players, e.g. --players Ann,Bob", EXIT_USAGE, "rallyc play")
    car_list = [c.strip() for c in cars.split(",")] if cars else []
    colour_list = [c.strip() for c in colours.split(",")] if colours else list(COLOURS)
    for given, what in ((car_list, "--cars"), (colour_list, "--colours")):
        if given and len(given) != len(names) and (what == "--cars" or colours):
            raise fail(f"{what}: one per player ({len(names)}), not {len(given)}", EXIT_USAGE, "rallyc play")
    if len(colour_list) < len(names):
        raise fail(f"--players: {len(names)} players and {len(colour_list)} colours: name one per player with "
                   f"--colours", EXIT_USAGE, "rallyc play")
    drivers: dict[str, str] = {}
    for item in seat:
        name, eq, driver = item.partition("=")
        if not eq or name not in names or driver not in DRIVERS[1:]:
            raise fail(f"--seat {item}: NAME=DRIVER, a player of --players and one of {', '.join(DRIVERS[1:])}",
                       EXIT_USAGE, "rallyc play")
        drivers[name] = driver
    out = []
    for i, name in enumerate(names):
        car, _, tires = car_list[i].partition(":") if car_list else ("", "", "")
        out.append(Seat(name, colour_list[i], car or None, tires or None, drivers.get(name, "person")))
    return tuple(out)


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
        stage: Optional[str] = typer.Option(None, "--stage", "-s", help="The stage (or circuit) to play "
                                                                         "(default: the first)."),
        rally: bool = typer.Option(False, "--rally", help="Play every stage of the design, one after the other."),
        players: Optional[str] = typer.Option(None, "--players", "-p", help="The players, in seat order: Ann,Bob."),
        cars: Optional[str] = typer.Option(None, "--cars", help="One car per player, with its tires if you like: "
                                                                 "r5:asphalt,r4:snow (default: the game's)."),
        colours: Optional[str] = typer.Option(None, "--colours", help="One colour per player (default: red, blue, "
                                                                       "green, yellow...)."),
        options: Optional[str] = typer.Option(None, "--options", help="Game options: flying_start,sisu=per-rally,"
                                                                       "handbrake (docs/options.md)."),
        race_format: Optional[str] = typer.Option(None, "--race-format", help="A race on a circuit: rx (default) "
                                                                               "or ice."),
        seat: Optional[List[str]] = typer.Option(None, "--seat", help="A bot in a seat: NAME=random|greedy|strong "
                                                                      "(repeatable)."),
        dice: str = typer.Option("typed", "--dice", help="typed: the players roll the physical dice and type the "
                                                         "faces; auto: rallyc rolls (seeded)."),
        seed: int = typer.Option(0, "--seed", min=0, max=2**31 - 1, help="Seed of the bots and of --dice auto."),
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
        from rallyc.table.setup import SetupError, TableSetup
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
            setup = TableSetup(str(file.resolve()), _seats(players, cars, colours, seat or []), stage, rally,
                               race_format, None, parse_options(options), seed, dice)
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
