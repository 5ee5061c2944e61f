"""A real LSP client over stdio for the language-server tests: pygls's LanguageClient driving ``rallyc lsp``."""

from __future__ import annotations

import asyncio
import sys
import time

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient


class Session:
    """One ``python -m rallyc lsp`` process and a client that records what it publishes."""

    def __init__(self, cwd: str):
        self.loop = asyncio.new_event_loop()
        self.client = LanguageClient("rallyc-tests", "1")
        self.published: dict[str, list[lsp.Diagnostic]] = {}
        self.arrived: dict[str, float] = {}
        self.versions: dict[str, int] = {}

        @self.client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def _published(params: lsp.PublishDiagnosticsParams) -> None:
            self.published[params.uri] = params.diagnostics
            self.arrived[params.uri] = time.perf_counter()

        self.run(self.client.start_io(sys.executable, "-m", "rallyc", "lsp", cwd=cwd))
        self.capabilities = self.run(self.client.initialize_async(lsp.InitializeParams(
            capabilities=lsp.ClientCapabilities(), root_uri=None, process_id=None))).capabilities
        self.client.initialized(lsp.InitializedParams())

    def run(self, coro, timeout: float = 60):
        return self.loop.run_until_complete(asyncio.wait_for(coro, timeout))

    def wait(self, uri: str, after: float, timeout: float = 30) -> list[lsp.Diagnostic]:
        """The diagnostics published for ``uri`` after the time ``after`` (perf_counter)."""

        async def poll():
            while self.arrived.get(uri, -1.0) <= after:
                await asyncio.sleep(0.002)
            return self.published[uri]

        return self.run(poll(), timeout)

    def open(self, uri: str, text: str) -> list[lsp.Diagnostic]:
        t = time.perf_counter()
        self.versions[uri] = 1
        self.client.text_document_did_open(lsp.DidOpenTextDocumentParams(
            text_document=lsp.TextDocumentItem(uri=uri, language_id="rallyc", version=1, text=text)))
        return self.wait(uri, t)

    def change(self, uri: str, line: int, start: int, end_line: int, end: int, text: str) -> list[lsp.Diagnostic]:
        """An incremental edit; returns the diagnostics published after it."""
        t = time.perf_counter()
        self.versions[uri] += 1
        rng = lsp.Range(start=lsp.Position(line=line, character=start), end=lsp.Position(line=end_line, character=end))
        self.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
            content_changes=[lsp.TextDocumentContentChangePartial(range=rng, text=text)]))
        return self.wait(uri, t)

    def replace_all(self, uri: str, text: str) -> list[lsp.Diagnostic]:
        t = time.perf_counter()
        self.versions[uri] += 1
        self.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=text)]))
        return self.wait(uri, t)

    def completion(self, uri: str, line: int, character: int) -> list[lsp.CompletionItem]:
        res = self.run(self.client.text_document_completion_async(lsp.CompletionParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line=line, character=character))))
        return list(res.items if isinstance(res, lsp.CompletionList) else res or [])

    def hover(self, uri: str, line: int, character: int) -> lsp.Hover | None:
        return self.run(self.client.text_document_hover_async(lsp.HoverParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line=line, character=character))))

    def definition(self, uri: str, line: int, character: int):
        return self.run(self.client.text_document_definition_async(lsp.DefinitionParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line=line, character=character))))

    def symbols(self, uri: str):
        return self.run(self.client.text_document_document_symbol_async(lsp.DocumentSymbolParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri))))

    def formatting(self, uri: str):
        return self.run(self.client.text_document_formatting_async(lsp.DocumentFormattingParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri), options=lsp.FormattingOptions(tab_size=2,
                                                                                              insert_spaces=True))))

    def code_actions(self, uri: str, line: int, end_line: int | None = None):
        rng = lsp.Range(start=lsp.Position(line=line, character=0),
                        end=lsp.Position(line=end_line if end_line is not None else line, character=200))
        return self.run(self.client.text_document_code_action_async(lsp.CodeActionParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri), range=rng,
            context=lsp.CodeActionContext(diagnostics=[]))))

    def close(self) -> None:
        try:
            self.run(self.client.shutdown_async(None), timeout=10)
            self.client.exit(None)
            self.run(self.client.stop(), timeout=10)
        finally:
            self.loop.close()
