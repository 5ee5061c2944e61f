"""The rallyc language server over stdio (pygls 2): the protocol side of :mod:`rallyc.lsp.analysis`.

Diagnostics are published on open, change and save, for the document and for
every file it includes (the include graph: a problem in an included file is shown
in that file). Positions: rallyc counts code points, the client (by default)
UTF-16 code units; :func:`_pos` converts.

Junk from the client is answered, not crashed on: a request whose parameters do not fit the protocol gets a
JSON-RPC error response (Invalid params), a body that is not JSON a Parse error, an edit whose range lies outside
the document a message and a diagnostic (the editor's copy and the server's then differ until the file is
reopened); each is logged as one line on standard error, never a traceback.
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path
from typing import Any, Sequence
from urllib.parse import unquote, urlparse

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException, JsonRpcParseError
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.workspace import TextDocument

from rallyc import __version__
from rallyc.diagnostics import Diagnostic, Severity, Span
from rallyc.lsp import analysis

__all__ = ["server", "serve", "RallycServer"]

_SEVERITY = {Severity.ERROR: lsp.DiagnosticSeverity.Error, Severity.WARNING: lsp.DiagnosticSeverity.Warning,
             Severity.NOTE: lsp.DiagnosticSeverity.Information}

_COMPLETION_KIND = {"keyword": lsp.CompletionItemKind.Keyword, "tile": lsp.CompletionItemKind.Module,
                    "value": lsp.CompletionItemKind.EnumMember, "position": lsp.CompletionItemKind.Reference}

_SYMBOL_KIND = {"rally": lsp.SymbolKind.Namespace, "stage": lsp.SymbolKind.Class, "circuit": lsp.SymbolKind.Class,
                "tileset": lsp.SymbolKind.Package, "tile": lsp.SymbolKind.Struct}


log = logging.getLogger("rallyc.lsp")

#: what :meth:`RallycProtocol.structure_message` returns for a request it has already answered with an error
_ANSWERED = object()


class RallycProtocol(LanguageServerProtocol):
    """pygls's protocol, answering a request it cannot read with an error response instead of no response."""

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            method = data.get("method")
            log.warning("rallyc lsp: %s (id %s): the parameters do not fit the protocol (%s)", method,
                        data.get("id"), exc.message)
            if "id" in data and method is not None:
                self._send_response(data["id"], error=JsonRpcException(
                    f"{method}: the parameters do not fit the protocol", code=exc.code).to_response_error())
            return _ANSWERED

    def handle_message(self, message: Any) -> None:
        if message is _ANSWERED:
            return
        super().handle_message(message)


class RallycServer(LanguageServer):
    """The server with the rallyc view of every open document, by URI."""

    def __init__(self) -> None:
        super().__init__("rallyc", __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental,
                         protocol_cls=RallycProtocol)
        self.documents: dict[str, analysis.Document] = {}
        #: per open document, the other files it got diagnostics published for (to clear them later)
        self.published: dict[str, set[str]] = {}
        #: per open document, why the server's copy may differ from the editor's (an edit outside the document)
        self.out_of_sync: dict[str, str] = {}

    def report_server_error(self, error: Exception, source: Any) -> None:
        """A message the server could not read or handle: one line in the log, a Parse error answered to a body
        that is not JSON, an error message to the user for anything else."""
        if isinstance(error, json.JSONDecodeError):
            log.warning("rallyc lsp: a message that is not JSON: %s", error)
            # a Parse error has no id to answer (JSON-RPC 2.0: null)
            self.protocol._send_response(None, error=JsonRpcParseError(  # type: ignore[arg-type]
                f"not JSON: {error}").to_response_error())
            return
        log.error("rallyc lsp: %s: %s", type(error).__name__, error)
        self.window_show_message(lsp.ShowMessageParams(type=lsp.MessageType.Error,
                                                       message=f"rallyc: {type(error).__name__}: {error}"))


server = RallycServer()


def _path(uri: str) -> Path | None:
    parsed = urlparse(uri)
    return Path(unquote(parsed.path)) if parsed.scheme == "file" else None


def _uri(path: Path) -> str:
    return path.resolve().as_uri()


def _document(ls: RallycServer, uri: str) -> analysis.Document:
    """The rallyc view of an open document, refreshed from the workspace's text."""
    text = ls.workspace.get_text_document(uri).source
    doc = ls.documents.get(uri)
    if doc is None or doc.text != text:
        path = _path(uri)
        doc = analysis.Document(text, path, str(path) if path else uri)
        ls.documents[uri] = doc
    return doc


def _utf16(line: str, column: int) -> int:
    """A code-point column as UTF-16 code units (characters outside the BMP take two)."""
    return len(line[:column].encode("utf-16-le")) // 2


def _from_utf16(line: str, units: int) -> int:
    n = 0
    for i, ch in enumerate(line):
        if n >= units:
            return i
        n += 2 if ord(ch) > 0xFFFF else 1
    return len(line)


def _pos(lines: list[str], line: int, column: int) -> lsp.Position:
    """A 0-based line and code-point column as an LSP position."""
    text = lines[line] if 0 <= line < len(lines) else ""
    return lsp.Position(line=max(line, 0), character=_utf16(text, max(column, 0)))


def _range(lines: list[str], span: Span | None) -> lsp.Range:
    if span is None:
        return lsp.Range(start=lsp.Position(line=0, character=0), end=lsp.Position(line=0, character=0))
    return lsp.Range(start=_pos(lines, span.line - 1, span.column - 1),
                     end=_pos(lines, span.end_line - 1, span.end_column - 1))


def _diagnostic(d: Diagnostic, lines: list[str], uri_of) -> lsp.Diagnostic:
    related = [lsp.DiagnosticRelatedInformation(location=lsp.Location(uri=uri_of(s.file), range=_range([], s)),
                                                message=m) for s, m in d.related if uri_of(s.file)]
    message = d.message + (f"\nhint: {d.hint}" if d.hint else "")
    return lsp.Diagnostic(range=_range(lines, d.span), message=message, severity=_SEVERITY[d.severity],
                          code=d.code, source="rallyc", related_information=related or None,
                          data={"hint": d.hint} if d.hint else None)


def publish(ls: RallycServer, uri: str) -> None:
    """Check a document and publish its diagnostics and those of the files it includes."""
    doc = _document(ls, uri)
    diags = analysis.check_document(doc)

    def uri_of(file: str) -> str | None:
        if file == doc.display:
            return uri
        if file.startswith("<"):
            return None
        return _uri(analysis._file_of(file, doc))

    by_uri: dict[str, list[lsp.Diagnostic]] = {uri: []}
    texts: dict[str, list[str]] = {uri: doc.lines}
    for d in diags:
        target = uri_of(d.span.file) if d.span is not None else uri
        if target is None:
            continue
        if target not in texts:
            src = doc.loaded.sources.get(d.span.file) if doc.loaded is not None and d.span is not None else None
            texts[target] = (src or "").split("\n")
        by_uri.setdefault(target, []).append(_diagnostic(d, texts[target], uri_of))
    if uri in ls.out_of_sync:
        end = lsp.Position(line=len(doc.lines), character=0)
        by_uri[uri].append(lsp.Diagnostic(range=lsp.Range(start=end, end=end), message=ls.out_of_sync[uri],
                                          severity=lsp.DiagnosticSeverity.Error, source="rallyc"))
    for stale in ls.published.get(uri, set()) - set(by_uri):
        if stale not in ls.documents:
            ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=stale, diagnostics=[]))
    ls.published[uri] = set(by_uri) - {uri}
    for target, items in by_uri.items():
        if target != uri and target in ls.documents:
            continue  # an open included file publishes its own
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=target, diagnostics=items))


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: RallycServer, params: lsp.DidOpenTextDocumentParams) -> None:
    ls.out_of_sync.pop(params.text_document.uri, None)
    publish(ls, params.text_document.uri)


def _edit_outside(source: str, changes: Sequence[lsp.TextDocumentContentChangeEvent]) -> str | None:
    """Why one of these changes, applied in order to ``source``, lies outside the document (None if none does).
    A position past the end of a line is the line's end (the protocol's rule); a line past the last is not."""
    doc = TextDocument("untitled:check", source)
    for change in changes:
        if isinstance(change, lsp.TextDocumentContentChangePartial):
            count = len(doc.lines)
            last = max(change.range.start.line, change.range.end.line)
            if last > count or (last == count and max(change.range.start.character, change.range.end.character)):
                return f"an edit at line {last + 1} of a document of {count} line{'s' if count != 1 else ''}"
        doc.apply_change(change)
    return None


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: RallycServer, params: lsp.DidChangeTextDocumentParams) -> None:
    uri = params.text_document.uri
    if any(isinstance(c, lsp.TextDocumentContentChangeWholeDocument) for c in params.content_changes):
        ls.out_of_sync.pop(uri, None)
    before = ls.documents.get(uri)
    why = _edit_outside(before.text, params.content_changes) if before is not None else None
    if why is not None:
        message = (f"rallyc: {why} (version {params.text_document.version}) lies outside it: the server's copy "
                   "now differs from the editor's; save and reopen the file")
        log.warning("rallyc lsp: %s: %s", uri, message)
        ls.out_of_sync[uri] = message
        ls.window_show_message(lsp.ShowMessageParams(type=lsp.MessageType.Error, message=message))
    publish(ls, uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: RallycServer, params: lsp.DidSaveTextDocumentParams) -> None:
    publish(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: RallycServer, params: lsp.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.documents.pop(uri, None)
    for target in ls.published.pop(uri, set()) | {uri}:
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=target, diagnostics=[]))


def _char(doc: analysis.Document, position: lsp.Position) -> tuple[int, int]:
    lines = doc.lines
    text = lines[position.line] if position.line < len(lines) else ""
    return position.line, _from_utf16(text, position.character)


@server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=[" ", "."]))
def completion(ls: RallycServer, params: lsp.CompletionParams) -> lsp.CompletionList:
    doc = _document(ls, params.text_document.uri)
    line, char = _char(doc, params.position)
    items = []
    for it in analysis.completions(doc, line, char):
        items.append(lsp.CompletionItem(
            label=it.label, kind=_COMPLETION_KIND.get(it.kind, lsp.CompletionItemKind.Text), detail=it.detail or None,
            documentation=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=it.documentation)
            if it.documentation else None, sort_text=it.sort or None, insert_text=it.insert))
    return lsp.CompletionList(is_incomplete=False, items=items)


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
def hover(ls: RallycServer, params: lsp.HoverParams) -> lsp.Hover | None:
    doc = _document(ls, params.text_document.uri)
    line, char = _char(doc, params.position)
    info = analysis.hover(doc, line, char)
    if info is None:
        return None
    lines = doc.lines
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=info.text),
                     range=lsp.Range(start=_pos(lines, info.line, info.start), end=_pos(lines, info.line, info.end)))


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
def definition(ls: RallycServer, params: lsp.DefinitionParams) -> lsp.Location | None:
    doc = _document(ls, params.text_document.uri)
    line, char = _char(doc, params.position)
    found = analysis.definition(doc, line, char)
    if found is None:
        return None
    path, l0, c0 = found
    where = lsp.Position(line=l0, character=c0)
    return lsp.Location(uri=_uri(path), range=lsp.Range(start=where, end=where))


def _symbol(s: analysis.Symbol, lines: list[str]) -> lsp.DocumentSymbol:
    whole = _range(lines, s.span)
    name = _range(lines, s.name_span) if s.name_span is not None else whole
    return lsp.DocumentSymbol(name=s.name, kind=_SYMBOL_KIND[s.kind], range=whole, selection_range=name,
                              detail=s.detail or None, children=[_symbol(c, lines) for c in s.children] or None)


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def document_symbol(ls: RallycServer, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
    doc = _document(ls, params.text_document.uri)
    return [_symbol(s, doc.lines) for s in analysis.symbols(doc)]


@server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
def formatting(ls: RallycServer, params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit] | None:
    doc = _document(ls, params.text_document.uri)
    new = analysis.format_document(doc)
    if new is None:
        return None
    lines = doc.lines
    end = _pos(lines, len(lines) - 1, len(lines[-1]))
    return [lsp.TextEdit(range=lsp.Range(start=lsp.Position(line=0, character=0), end=end), new_text=new)]


@server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION,
                lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]))
def code_action(ls: RallycServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
    uri = params.text_document.uri
    doc = _document(ls, uri)
    if not doc.diagnostics and doc.loaded is None:
        analysis.check_document(doc)
    first, last = params.range.start.line, params.range.end.line
    near = [d for d in doc.diagnostics if d.span is not None and d.span.file == doc.display
            and d.span.line - 1 <= last and d.span.end_line - 1 >= first]
    lines = doc.lines
    out = []
    for fix in analysis.code_actions(doc, near):
        edits = [lsp.TextEdit(range=lsp.Range(start=_pos(lines, a, b), end=_pos(lines, c, e)), new_text=t)
                 for a, b, c, e, t in fix.edits]
        out.append(lsp.CodeAction(title=fix.title, kind=lsp.CodeActionKind.QuickFix,
                                  diagnostics=[_diagnostic(fix.diagnostic, lines, lambda f: uri)],
                                  edit=lsp.WorkspaceEdit(changes={uri: edits}), is_preferred=fix.preferred))
    return out


class _OneLine(logging.Formatter):
    """A log record as one line: its message's first line, no traceback (pygls logs whole tracebacks)."""

    def format(self, record: logging.LogRecord) -> str:
        first = record.getMessage().split("\n", 1)[0]
        return first if first.startswith("rallyc lsp:") else f"rallyc lsp: {record.name}: {first}"


def _not_said_again(record: logging.LogRecord) -> bool:
    """pygls's own line before a message it could not read or handle: rallyc logs its own line for each."""
    return not record.getMessage().startswith(("Unable to deserialize message", "Unable to handle message"))


def serve() -> None:
    """Run the server on standard input/output until the client says exit; log one line a problem on stderr."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_OneLine())
    handler.addFilter(_not_said_again)
    for name in ("rallyc", "pygls"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.setLevel(logging.WARNING)
        logger.propagate = False
    server.start_io()
