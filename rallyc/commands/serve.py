"""``rallyc serve``: a game at the table served to the players' browsers (rallyc.table.server).

``rallyc serve game.jsonl`` serves the game its journal holds (resumed: every step replayed under the rules);
``rallyc serve FILE --stage S --players Ann,Bob`` starts a new game and its journal, set up from the same options
as ``rallyc play`` (declared and read once: :mod:`rallyc.commands.table_options`). Exit codes: 0 stopped with
Ctrl+C or SIGTERM (the journal keeps the game), 1 a journal the rules refuse (located: ``file:line``), 2 usage or
I/O error (a setup the referee refuses, a port in use).
"""

from __future__ import annotations

import signal
import socket
import sys
import threading
from pathlib import Path
from typing import Any, Optional

import typer

from rallyc.commands import table_options as opts
from rallyc.commands.errors import EXIT_PROBLEMS, fail, handles_errors

SERVE_EPILOG = """\b
Examples (each runs until Ctrl+C):
  $ rallyc serve examples/rally-1.rally --stage SS1 --players Ann,Bob     # journal rally-1.jsonl
  $ rallyc serve examples/rally-1.rally --rally --players Ann,Bob --seat Bob=strong --journal sunday.jsonl
  $ rallyc serve examples/rx-1.rally --players Ann,Bob,Cleo --dice auto    # rallyc rolls the dice
  $ rallyc serve sunday.jsonl                                            # the game again, where it was
  $ rallyc serve sunday.jsonl --host 0.0.0.0 --port 8034                 # the players' tablets too
\b
Open the URL it prints (its token guards the game). Ctrl+C (or SIGTERM) stops the server; the journal keeps
the game.
\b
Exit codes: 0 stopped, 1 a journal the rules refuse, 2 usage or I/O error."""

PROG = "rallyc serve"


def _lan_address() -> str:
    """This machine's address on the local network (the one it would reach other machines from), or localhost."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))  # no packet is sent: this only picks the outgoing interface
            return str(s.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def _url(host: str, port: int, token: str) -> str:
    shown = _lan_address() if host in ("0.0.0.0", "") else host
    shown = f"[{shown}]" if ":" in shown else shown
    return f"http://{shown}:{port}/?token={token}"


def register(app: typer.Typer) -> None:
    """Add ``rallyc serve`` to the app."""

    @app.command("serve", epilog=SERVE_EPILOG)
    @handles_errors(PROG)
    def serve_cmd(
        file: Path = typer.Argument(..., help="A design (.rally) to start a game on, or a game's journal (.jsonl) "
                                              "to serve again."),
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
        journal_path: Optional[Path] = typer.Option(None, "--journal", "-j", help="The new game's journal (JSON "
                                                                                  "Lines; default: FILE's name, "
                                                                                  ".jsonl, here)."),
        host: str = typer.Option("127.0.0.1", "--host", help="Where to listen: 127.0.0.1 (this machine), "
                                                             "0.0.0.0 (the local network too)."),
        port: int = typer.Option(8034, "--port", min=0, max=65535, help="The port (0: any free one)."),
        token: Optional[str] = typer.Option(None, "--token", help="The URL's token (default: a new random one; "
                                                                  "give the old one to keep the tablets' URL)."),
    ) -> None:
        """Serve a game at the table to browsers: the map, the legal moves as buttons, the dice entry and the rally
        sheet. Every step is checked by the rules and written to the journal before the page moves on."""
        # start-up: the table's engine only for a game
        from rallyc.table import journal as journals
        from rallyc.table.server import Table, make_server
        from rallyc.table.setup import SetupError

        if not file.exists():
            raise fail(f"no such file: {file}", prog=PROG)
        if token is not None and (len(token) < 8 or not token.replace("-", "").replace("_", "").isalnum()):
            raise fail("--token is 8 or more letters, digits, - or _", prog=PROG)
        try:
            head = file.read_bytes()[:4096].decode("utf-8", "replace")
        except OSError as exc:
            raise fail(f"cannot read {file}: {exc.strerror or exc}", prog=PROG)
        notes: list[str] = []
        try:
            if journals.is_journal(head):
                if players or stage or rally or options or cars or colours or race_format or seat or journal_path:
                    raise fail(f"{file} is a journal: its game is set up already (no --players, --stage, --rally, "
                               "--options, --cars, --colours, --race-format, --seat or --journal)", prog=PROG)
                game, notes = journals.resume(file)
                path = file
            else:
                if not players:
                    raise fail("a new game needs its players: --players Ann,Bob", prog=PROG)
                setup = opts.table_setup(file, stage, rally, players, cars, colours, options, race_format, seat,
                                         dice, seed, PROG)
                path = journal_path or Path(file.stem + ".jsonl")
                game = journals.start(path, setup, Path.cwd())
        except SetupError as exc:
            raise fail(str(exc), prog=PROG)
        except journals.JournalError as exc:
            typer.echo(f"{PROG}: error: {exc}", err=True)
            raise typer.Exit(EXIT_PROBLEMS)
        except FileExistsError:
            raise fail(f"{path} already holds a game: serve it with rallyc serve {path}, or choose another "
                       "--journal", prog=PROG)
        for note in notes:
            typer.echo(f"{PROG}: warning: {note}", err=True)
        table = Table(game, _catalogue(game))
        try:
            server = make_server(table, host, port, token)
        except OSError as exc:
            raise fail(f"cannot listen on {host}:{port}: {exc.strerror or exc} (another --port?)", prog=PROG)
        url = _url(host, server.server_address[1], server.token)
        print(f"{game.form.header.get('title', file.name)}: open {url}", flush=True)
        print(f"journal: {path} (Ctrl+C stops; rallyc serve {path} serves the game again)", flush=True)
        signal.signal(signal.SIGTERM, _stop)
        # The server's loop runs in a thread of its own and the main thread only waits for a signal: a signal's
        # exception raised inside socketserver's loop (in the middle of handing a request to its thread) made it
        # close that request's socket under the thread reading it, which printed a traceback (EBADF).
        loop = threading.Thread(target=server.serve_forever, name="rallyc-serve", daemon=True)
        loop.start()
        try:
            while loop.is_alive():
                loop.join(0.5)
        except (KeyboardInterrupt, _Stopped):
            pass
        finally:
            server.shutdown()  # the loop ends after the request it is handing over, if any
            server.server_close()
            table.lock.acquire()  # a step under way ends, on disk, first; no step starts after (the process ends)
            if game.journal is not None:
                game.journal.close()
        sys.exit(0)


class _Stopped(BaseException):
    """SIGTERM (``kill``, a service manager, a closed terminal session): the server stops as on Ctrl+C.

    A BaseException, as KeyboardInterrupt is, so that no ``except Exception`` on the way takes it for an error (the
    main thread only waits; socketserver once caught it as a request's error and went on serving)."""


def _stop(signum: int, frame: Any) -> None:
    raise _Stopped()


def _catalogue(game: Any) -> Any:
    """The tiles of the game's design (its tilesets), for the map."""
    # start-up: the parser (lark) and the tiles only for a game's map
    from rallyc.project.loader import load
    from rallyc.tiles.catalogue import Catalogue

    return Catalogue.from_tilesets(load(Path(game.form.header["track"])).tilesets)
