"""``rallyc lsp`` fed what a broken or hostile client sends, over raw stdio: every request gets an answer (a
JSON-RPC error where it cannot be read), an edit outside the document is reported to the user, standard error
gets one line a problem and no traceback, and the server goes on serving."""

from __future__ import annotations

import json
import subprocess
import sys


def _frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _messages(out: bytes) -> list[dict]:
    found = []
    while out:
        head, _, rest = out.partition(b"\r\n\r\n")
        length = int(next(h for h in head.split(b"\r\n") if h.lower().startswith(b"content-length")).split(b":")[1])
        found.append(json.loads(rest[:length]))
        out = rest[length:]
    return found


def test_junk_gets_answers_and_one_line_each(tmp_path):
    uri = (tmp_path / "a.rally").as_uri()
    sent = [
        {"id": 1, "method": "initialize", "params": {"capabilities": {}, "processId": None, "rootUri": None}},
        {"method": "initialized", "params": {}},
        b"{not json",
        {"id": 2, "method": "textDocument/completion", "params": {"textDocument": 42}},
        {"id": 3, "method": "textDocument/hover", "params": "junk"},
        {"method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "rallyc", "version": 1, "text": "stage SS1 {\n  202a\n}\n"}}},
        {"method": "textDocument/didChange", "params": {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
            {"range": {"start": {"line": 50, "character": 0}, "end": {"line": 50, "character": 0}}, "text": "203a"}]}},
        {"id": 4, "method": "textDocument/documentSymbol", "params": {"textDocument": {"uri": uri}}},
        {"id": 9, "method": "shutdown"},
        {"method": "exit"},
    ]
    stdin = b"".join(_frame(m if isinstance(m, bytes) else json.dumps({"jsonrpc": "2.0", **m}).encode())
                     for m in sent)
    done = subprocess.run([sys.executable, "-m", "rallyc", "lsp"], input=stdin, capture_output=True, timeout=120,
                          cwd=tmp_path)
    got = _messages(done.stdout)
    answers = {m.get("id"): m for m in got if "method" not in m}
    assert answers[2]["error"]["code"] == -32602 and "textDocument/completion" in answers[2]["error"]["message"]
    assert answers[3]["error"]["code"] == -32602
    assert any(m.get("error", {}).get("code") == -32700 for m in got)  # the body that is not JSON
    assert [s["name"] for s in answers[4]["result"]] == ["SS1"]  # still serving
    assert 9 in answers
    shown = [m["params"]["message"] for m in got if m.get("method") == "window/showMessage"]
    assert any("line 51 of a document of 3 lines" in s for s in shown), shown
    last = [m["params"]["diagnostics"] for m in got if m.get("method") == "textDocument/publishDiagnostics"][-1]
    assert any("outside" in d["message"] for d in last)
    err = done.stderr.decode()
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 4 and all(line.startswith("rallyc lsp: ") for line in lines), err
