"""``rallyc serve``: a game at the table served to browsers on this machine or the local network.

One engine behind both surfaces: the server holds one :class:`rallyc.table.session.TableGame` (the terminal's
``rallyc play`` holds another of the same kind) and every page asks it, through a small JSON interface, what the
game is waiting on and sends it the answers. Built on the standard library (``http.server``) rather than an ASGI
stack: a table has a handful of pages that ask for the state once a second, which a threaded server answers
without a dependency to install (docs/serve.md says more).

The game is shared: every request takes one lock, so the steps of two pages are applied one after the other.
Each change of the game (a step, the bots' steps after it, an undo) makes a new *revision*; a page sends the
revision it has seen with each step, and a step from a page that had not seen the latest revision is refused
(HTTP 409) and applied to nothing, so a double click or two players tapping at once never plays a step twice.
The revision is the server's start (random) and a count, so a page open across a restart of the server is
refused too. The game's journal (when the game has one) is written before a step's answer is sent: a reload,
or a server started again on the journal, loses nothing.

Every request carries the token the server printed in its URL (``?token=...``): without it, another user of
this machine, another device on the network or a web page in the browser that guesses the port (DNS rebinding)
gets HTTP 403 and sees nothing.

Routes (``GET`` unless said): ``/`` the page; ``/state`` the game as JSON; ``/revision``; ``/plan?dice=...``
the dice that may be laid next; ``/map`` the map of the stage being played (SVG); ``/sheet-table`` the rally sheet
as an HTML table (made once per revision: the game's record replayed), ``/sheet`` as a page; ``/record`` the
game's record so far (JSON); ``POST /step`` ``{"revision", "answer"}``; ``POST /undo``
``{"revision"}``.
"""

from __future__ import annotations

import hmac
import html
import json
import secrets
import sys
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable
from urllib.parse import parse_qs, urlsplit

from rallyc.records.replay import replay_record
from rallyc.render.viewer import map_svg, space_points
from rallyc.table.answers import Refused, read_dice, step_words
from rallyc.table.page import PAGE
from rallyc.table.sheet import record_sheet, under_way
from rallyc.table.sheet_render import sheet_html, sheet_table_html

__all__ = ["Table", "make_server", "new_token"]

#: the largest request body read (a step is a few hundred bytes)
MAX_BODY = 64 * 1024
#: the turns of the game shown on the page, the latest last
SHOWN_TURNS = 30


def new_token() -> str:
    """A random token for the URL (128 bits)."""
    return secrets.token_urlsafe(16)


class Stale(Exception):
    """A step or an undo sent from a page that had not seen the latest revision of the game."""


class Table:
    """The game served: the :class:`~rallyc.table.session.TableGame`, its revision, and what the page shows of it
    (each worked out once per revision: the sheet replays the game's record; the map once per stage). The steps the
    bots and the auto dice give at the start are applied when the table is made."""

    def __init__(self, game: Any, catalogue: Any = None, on_change: Callable[[], None] | None = None) -> None:
        self.game = game
        self.catalogue = catalogue
        self.lock = threading.RLock()
        self._boot = secrets.token_hex(4)
        self._count = 0
        self._maps: dict[str, tuple[str, dict[str, list[float]]]] = {}
        self._sheet: tuple[str, Any] | None = None
        self._plans: tuple[str, Any] | None = None
        self._on_change = on_change
        game.advance()  # a bot to move (the first seat's, or a resumed game's) moves before any page asks

    @property
    def revision(self) -> str:
        return f"{self._boot}-{self._count}"

    def _changed(self) -> None:
        self._count += 1
        if self._on_change is not None:
            self._on_change()

    def _check(self, revision: Any) -> None:
        if revision != self.revision:
            raise Stale(f"this page had not seen the latest step (it saw revision {revision}, the game is at "
                        f"{self.revision}): nothing was applied; look again")

    # -- steps
    def step(self, revision: Any, answer: str) -> list[dict[str, Any]]:
        """Apply a typed answer (a choice's key, dice ``gear2@1.1.in ...``, a face...) sent at ``revision``; the
        turns it played. :class:`Stale` or the session's ``Refused`` (nothing changed) otherwise."""
        with self.lock:
            self._check(revision)
            happened = self.game.answer(answer)
            self._changed()
            return [_happened(h) for h in happened]

    def undo(self, revision: Any) -> str:
        """Take the last step back (sent at ``revision``); the step in words."""
        with self.lock:
            self._check(revision)
            step = self.game.undo()
            self._changed()
            return step_words(step)

    def plan(self, dice_text: str) -> dict[str, Any]:
        """While a plan is laid die by die: the dice that may follow ``dice_text`` and whether it is a whole plan
        (the session's :meth:`~rallyc.table.session.TableGame.plan_dice` over the legal plans, which are listed
        once per revision: a page asks after every die it lays)."""
        with self.lock:
            laid = read_dice(dice_text) if dice_text.strip() else ()
            if self._plans is None or self._plans[0] != self.revision:
                self._plans = (self.revision, list(self.game.state.legal_plans()))
            nxt, whole = self.game.plan_dice(laid, self._plans[1])
            spaces = self.game.state.game.track.spaces
            return {"next": [{"die": str(d), "label": _die_label(d, spaces)} for d in nxt], "whole": whole,
                    "none": not nxt and not laid and not whole}

    # -- what the page shows
    def state(self) -> dict[str, Any]:
        """The game as the page shows it."""
        with self.lock:
            game = self.game
            prompt = game.prompt()
            stage = game.stage_name
            return {
                "revision": self.revision, "version": game.version, "over": game.is_over(), "stage": stage,
                "title": str(game.form.header.get("title") or game.setup.file),
                "prompt": None if prompt is None else {
                    "who": prompt.who, "kind": prompt.kind, "words": prompt.words, "chance": prompt.chance,
                    "secret": prompt.secret, "bot": prompt.bot,
                    "choices": [{"key": c.key, "label": c.label} for c in prompt.choices]},
                "whose_turn": game.whose_turn(),
                "happened": [_happened(h) for h in game.happened[-SHOWN_TURNS:]],
                "turns": len(game.happened),
                "standings": list(game.standings()),
                "cars": self._cars(),
                "colours": {s.name: s.colour for s in game.setup.seats},
            }

    def _cars(self) -> list[dict[str, Any]]:
        cars = getattr(self.game.state.game, "cars", {})
        return [{"name": name, "space": car.space, "gear": getattr(car, "gear", None)}
                for name, car in cars.items() if getattr(car, "space", None)]

    def map(self) -> tuple[str, dict[str, list[float]]]:
        """The map of the stage (or circuit) being played, as inline SVG, and where a car stands on each space."""
        with self.lock:
            track = self.game.state.game.track
            if track.name not in self._maps:
                title = str(self.game.form.header.get("title") or "")
                self._maps[track.name] = (map_svg(track, self.catalogue, title, None, track.name),
                                          space_points(track, self.catalogue))
            return self._maps[track.name]

    def sheet(self) -> Any:
        """The rally sheet of the game so far (its record replayed: the referee's times and classification)."""
        with self.lock:
            if self._sheet is None or self._sheet[0] != self.revision:
                record = self.game.record()
                report = replay_record(record, Path("."), explain=False)
                sheet = record_sheet(record, report)
                if not self.game.is_over():
                    sheet = under_way(sheet)
                self._sheet = (self.revision, sheet)
            return self._sheet[1]

    def sheet_table(self) -> str:
        try:
            return sheet_table_html(self.sheet())
        except Exception as exc:  # a sheet that cannot be made must not take the game's page down
            return f'<p class="sheet-note">no sheet yet: {_escape(str(exc))}</p>'


def _die_label(die: Any, spaces: Any) -> str:
    """A die as a button says it: its kind and the space it is laid on, with the tile (``gear2 to 2.1.in1, tile
    #2 210b``)."""
    space = spaces.get(die.to)
    where = f", tile #{space.step} {space.tile}" if space is not None else ""
    return f"{die.die}{' + brake' if die.brake else ''}{' + boost' if die.boost else ''} to {die.to}{where}"


def _escape(text: str) -> str:
    return html.escape(text, quote=True)


def _happened(h: Any) -> dict[str, Any]:
    return {"player": h.player, "stage": h.stage, "text": h.text, "rules": list(h.rules)}


class _Handler(BaseHTTPRequestHandler):
    """One request: the token checked, then the route."""

    server: "_Server"
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # the table's screen is not a server log
        if self.server.verbose:
            super().log_message(format, *args)

    def _send(self, status: int, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, data: Any) -> None:
        self._send(status, json.dumps(data, sort_keys=True).encode("utf-8"), "application/json; charset=utf-8")

    def _refuse(self, status: int, message: str, **more: Any) -> None:
        self._json(status, {"ok": False, "error": message, **more})

    def _token_ok(self, query: dict[str, list[str]]) -> bool:
        given = self.headers.get("X-Rallyc-Token") or (query.get("token") or [""])[0]
        return hmac.compare_digest(given.encode("utf-8", "replace"), self.server.token.encode("utf-8"))

    def _route(self, method: str) -> None:
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        if not self._token_ok(query):
            self._refuse(HTTPStatus.FORBIDDEN, "wrong or missing token: open the URL rallyc serve printed")
            return
        table = self.server.table
        try:
            if method == "GET":
                self._get(url.path, query, table)
            elif url.path in ("/step", "/undo"):
                self._post(url.path, table)
            else:
                self._refuse(HTTPStatus.NOT_FOUND, f"no {method} {url.path} here")
        except Stale as exc:
            self._refuse(HTTPStatus.CONFLICT, str(exc), stale=True, revision=table.revision)
        except Refused as exc:
            self._refuse(HTTPStatus.UNPROCESSABLE_ENTITY, exc.message, rule=exc.rule_id, revision=table.revision)
        except Exception as exc:  # never a traceback to the page: the message, and a line for the server's screen
            print(f"rallyc serve: {type(exc).__name__}: {exc}", file=sys.stderr)
            self._refuse(HTTPStatus.INTERNAL_SERVER_ERROR, f"the server could not answer: {exc}")

    def _get(self, path: str, query: dict[str, list[str]], table: Table) -> None:
        if path == "/":
            self._send(HTTPStatus.OK, PAGE.encode("utf-8"), "text/html; charset=utf-8")
        elif path == "/state":
            self._json(HTTPStatus.OK, table.state())
        elif path == "/revision":
            self._json(HTTPStatus.OK, {"revision": table.revision})
        elif path == "/plan":
            self._json(HTTPStatus.OK, table.plan((query.get("dice") or [""])[0]))
        elif path == "/map":
            svg, points = table.map()
            self._json(HTTPStatus.OK, {"svg": svg, "points": points})
        elif path == "/sheet-table":
            self._json(HTTPStatus.OK, {"html": table.sheet_table(), "revision": table.revision})
        elif path == "/sheet":
            self._send(HTTPStatus.OK, sheet_html(table.sheet()).encode("utf-8"), "text/html; charset=utf-8")
        elif path == "/record":
            with table.lock:
                record = table.game.record()
            self._send(HTTPStatus.OK, (json.dumps(record, indent=2, sort_keys=True) + "\n").encode("utf-8"),
                       "application/json; charset=utf-8")
        else:
            self._refuse(HTTPStatus.NOT_FOUND, f"no page {path} here")

    def _post(self, path: str, table: Table) -> None:
        try:
            length = int(self.headers.get("Content-Length") or "0")
        except ValueError:
            length = -1
        if not 0 <= length <= MAX_BODY:
            self._refuse(HTTPStatus.BAD_REQUEST, f"a request body is JSON of at most {MAX_BODY} bytes")
            self.close_connection = True
            return
        try:
            body = json.loads(self.rfile.read(length).decode("utf-8") or "{}")
        except (UnicodeDecodeError, ValueError):
            self._refuse(HTTPStatus.BAD_REQUEST, "the request body is not JSON")
            return
        if not isinstance(body, dict) or "revision" not in body:
            self._refuse(HTTPStatus.BAD_REQUEST, 'send {"revision": ..., "answer": "..."}')
            return
        if path == "/undo":
            words = table.undo(body["revision"])
            self._json(HTTPStatus.OK, {"ok": True, "undone": words, "revision": table.revision})
            return
        answer = body.get("answer")
        if not isinstance(answer, str):
            self._refuse(HTTPStatus.BAD_REQUEST, 'send {"revision": ..., "answer": "..."} with the answer as text')
            return
        happened = table.step(body["revision"], answer)
        self._json(HTTPStatus.OK, {"ok": True, "happened": happened, "revision": table.revision})

    def do_GET(self) -> None:
        self._route("GET")

    def do_HEAD(self) -> None:
        self._route("GET")

    def do_POST(self) -> None:
        self._route("POST")


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int], table: Table, token: str, verbose: bool = False) -> None:
        super().__init__(address, _Handler)
        self.table = table
        self.token = token
        self.verbose = verbose

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A page that went away before its answer was written (a tab closed, a tablet asleep, the server stopping)
        is no error of the table's; anything else is reported as socketserver reports it."""
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


def make_server(table: Table, host: str = "127.0.0.1", port: int = 0, token: str | None = None,
                verbose: bool = False) -> _Server:
    """A server of ``table`` on ``host:port`` (port 0: any free port), guarded by ``token`` (a new one when None);
    ``server.serve_forever()`` runs it, ``server.token`` and ``server.server_address`` make its URL."""
    return _Server((host, port), table, token or new_token(), verbose)
