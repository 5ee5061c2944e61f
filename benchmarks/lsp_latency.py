"""Benchmark: how soon ``rallyc lsp`` publishes diagnostics after an edit, on a 30-tile stage.

Run: ``python benchmarks/lsp_latency.py [--edits N] [--tiles T] [--json]`` (needs the ``lsp`` extra).
The stage is built by walking :func:`rallyc.suggest.suggest_stage` (first legal road tile each step, then a
finish tile): a legal stage of T road tiles. The server runs as its own process (``python -m rallyc lsp``)
and a pygls LanguageClient drives it over stdio, as an editor does. Each edit alternately breaks and
repairs one step (an unknown tile id, then the right one); the figure is the wall time from sending
``didChange`` to receiving ``publishDiagnostics``. Two more figures (issue 33): ``initialize``, the wall time
from starting the server's process to its answer to ``initialize`` (the server's start-up, imports included), and
completion, the wall time of a ``textDocument/completion`` request at the end of the stage's last step but one
(the tile ids that can follow: a route search), ``--completions N`` times (``--cpu``: only its CPU time, called in
this process without a server, a figure a busy machine hardly changes); ``initialize`` is the median of
``--starts N`` servers started one after the other (the first one's start included: it may fill the user cache).
Nothing is asserted; the figures go
in the docs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from lsprotocol import types as lsp  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402

from rallyc.suggest import Finish, suggest_stage  # noqa: E402
from rallyc.project.loader import load_text  # noqa: E402
from rallyc.syntax import ast  # noqa: E402
from rallyc.tiles.catalogue import Catalogue  # noqa: E402


def build_stage(tiles: int) -> str:
    """A legal stage of ``tiles`` road tiles (start and finish included), walked with ``suggest``."""
    loaded = load_text("stage SS1 {\n  202a\n}\n", "bench.rally")
    catalogue = Catalogue.from_tilesets(loaded.tilesets)
    words = ["202a"]
    stage = loaded.root.stages[0]
    turn = 0
    while len(words) < tiles:
        result = suggest_stage(stage, catalogue)
        want_finish = len(words) == tiles - 1
        legal = [s for s in result.suggestions if s.legal and s.tile.startswith("2")
                 and (s.finish is Finish.HERE) == want_finish]
        # alternate left and right so the road winds instead of closing on itself; vary the tiles
        side = "left" if turn % 2 == 0 else "right"
        sided = [s for s in legal if s.word == side] or legal
        pick = sided[(turn * 7) % len(sided)]
        turn += 1
        words.append(pick.text)
        stage.items.append(ast.Step(ast.Ident(pick.tile), pick.word if pick.word != "reversed" else None,
                                    pick.word == "reversed", pick.road))
    return "stage SS1 {\n" + "".join(f"  {w}\n" for w in words) + "}\n"


async def measure(text: str, edits: int, completions: int = 0) -> tuple[list[float], float, list[float]]:
    """(seconds from each edit to its diagnostics, seconds from starting the server to its ``initialize`` answer,
    seconds of each completion request)."""
    client = LanguageClient("bench", "1")
    arrived: list[float] = []
    event = asyncio.Event()

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def _published(params: lsp.PublishDiagnosticsParams) -> None:
        arrived.append(time.perf_counter())
        event.set()

    folder = Path(tempfile.mkdtemp())
    path = folder / "bench.rally"
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    t_start = time.perf_counter()
    await client.start_io(sys.executable, "-m", "rallyc", "lsp")
    await client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
    initialize = time.perf_counter() - t_start
    client.initialized(lsp.InitializedParams())
    event.clear()
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        text_document=lsp.TextDocumentItem(uri=uri, language_id="rallyc", version=1, text=text)))
    await event.wait()
    line = 5  # step 5: "  <tile> ..."
    tile = text.split("\n")[line].split()[0]
    times = []
    for n in range(edits):
        new = "999a" if n % 2 == 0 else tile
        old_len = len(tile) if n % 2 == 0 else 4
        event.clear()
        t0 = time.perf_counter()
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=n + 2),
            content_changes=[lsp.TextDocumentContentChangePartial(
                range=lsp.Range(start=lsp.Position(line=line, character=2),
                                end=lsp.Position(line=line, character=2 + old_len)), text=new)]))
        await event.wait()
        times.append(arrived[-1] - t0)
    # completion after the last step but one: a new line below it, where the next tile ids are offered
    lines = text.split("\n")
    last_step = len(lines) - 3
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=edits + 2),
        content_changes=[lsp.TextDocumentContentChangePartial(
            range=lsp.Range(start=lsp.Position(line=last_step, character=len(lines[last_step])),
                            end=lsp.Position(line=last_step, character=len(lines[last_step]))), text="\n  ")]))
    completion_times = []
    for _ in range(completions):
        t0 = time.perf_counter()
        got = await client.text_document_completion_async(lsp.CompletionParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line=last_step + 1, character=2)))
        completion_times.append(time.perf_counter() - t0)
        if got is None or not any(item.kind == lsp.CompletionItemKind.Module for item in _items(got)):
            raise SystemExit("the completion offered no tile id: the benchmark measures nothing")
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return times, initialize, completion_times


async def initialize_once() -> float:
    """Seconds from starting a server's process to its answer to ``initialize``."""
    client = LanguageClient("bench", "1")
    t0 = time.perf_counter()
    await client.start_io(sys.executable, "-m", "rallyc", "lsp")
    await client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
    took = time.perf_counter() - t0
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return took


def completion_cpu(text: str, completions: int) -> list[float]:
    """CPU seconds of each of ``completions`` calls of the server's completion (``rallyc.lsp.analysis.completions``)
    in this process, at the same place as :func:`measure` asks it: a figure a busy machine hardly changes."""
    from rallyc.lsp import analysis

    lines = text.split("\n")
    last_step = len(lines) - 3
    lines[last_step] += "\n  "
    path = Path(tempfile.mkdtemp()) / "bench.rally"
    path.write_text("\n".join(lines), encoding="utf-8")
    doc = analysis.Document(path.read_text(encoding="utf-8"), path, str(path))
    analysis.check_document(doc)
    times = []
    for _ in range(completions):
        t0 = time.process_time()
        items = analysis.completions(doc, last_step + 1, 2)
        times.append(time.process_time() - t0)
        if not any(item.kind == "tile" for item in items):
            raise SystemExit("the completion offered no tile id: the benchmark measures nothing")
    return times


def _items(got: lsp.CompletionList | list[lsp.CompletionItem]) -> list[lsp.CompletionItem]:
    return got.items if isinstance(got, lsp.CompletionList) else got


def _figures(values: list[float]) -> dict:
    ms = sorted(t * 1000 for t in values)
    return {"edits": len(ms), "best_ms": round(ms[0], 1), "median_ms": round(statistics.median(ms), 1),
            "p90_ms": round(ms[int(0.9 * (len(ms) - 1))], 1), "worst_ms": round(ms[-1], 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=40)
    parser.add_argument("--tiles", type=int, default=30)
    parser.add_argument("--completions", type=int, default=40)
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--cpu", action="store_true",
                        help="only the completion's CPU time, in this process (no server): for a busy machine")
    args = parser.parse_args()
    text = build_stage(args.tiles)
    if args.cpu:
        f = _figures(completion_cpu(text, args.completions))
        print(f"completion of the next tile, {args.tiles}-tile stage, CPU in one process, {f['edits']} requests: "
              f"best {f['best_ms']} ms, median {f['median_ms']} ms, p90 {f['p90_ms']} ms, worst {f['worst_ms']} ms")
        return
    times, first_initialize, completion_times = asyncio.run(measure(text, args.edits, args.completions))
    starts = [first_initialize] + [asyncio.run(initialize_once()) for _ in range(args.starts - 1)]
    initialize = statistics.median(starts)
    # even edits break a step (an unknown tile: the stage is not compiled), odd ones repair it (a full check)
    kinds = {"all": times, "repair (full check)": times[1::2], "break (unknown tile)": times[0::2]}
    figures = {kind: _figures(values) for kind, values in kinds.items()}
    completion = _figures(completion_times) if completion_times else None
    if args.json:
        print(json.dumps({"tiles": args.tiles, "figures": figures, "initialize_ms": round(initialize * 1000, 1),
                          "completion": completion}, indent=2, sort_keys=True))
        return
    print(f"initialize (server process started to its answer), median of {len(starts)} starts: "
          f"{initialize * 1000:.0f} ms (each: {', '.join(f'{t * 1000:.0f}' for t in starts)} ms)")
    for kind, f in figures.items():
        print(f"diagnostics after an edit, {args.tiles}-tile stage, {kind}, {f['edits']} edits: best {f['best_ms']} "
              f"ms, median {f['median_ms']} ms, p90 {f['p90_ms']} ms, worst {f['worst_ms']} ms")
    if completion is not None:
        print(f"completion of the next tile, {args.tiles}-tile stage, {completion['edits']} requests: best "
              f"{completion['best_ms']} ms, median {completion['median_ms']} ms, p90 {completion['p90_ms']} ms, "
              f"worst {completion['worst_ms']} ms")


if __name__ == "__main__":
    main()
