"""A game at the table served in a thread of the test (rallyc.table.server), and calls to it as a page makes them."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from typing import Any

from rallyc.table.server import Table, make_server


class Served:
    """A game served on a free port of this machine, in a thread, with its journal."""

    def __init__(self, game: Any) -> None:
        self.table = Table(game)
        self.server = make_server(self.table)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        host, port = self.server.server_address[:2]
        self.base = f"http://{host}:{port}"
        self.url = f"{self.base}/?token={self.server.token}"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.table.game.journal.close()

    def call(self, path: str, body: dict | None = None, token: str | None = None) -> tuple[int, Any]:
        sep = "&" if "?" in path else "?"
        req = urllib.request.Request(f"{self.base}{path}{sep}token={token or self.server.token}",
                                     data=None if body is None else json.dumps(body).encode("utf-8"),
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())
