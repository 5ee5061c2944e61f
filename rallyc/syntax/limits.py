"""How much one file may hold: every input the size limit accepts is read, compiled and checked in bounded time
and memory, or refused early with RC101 located at the statement that goes over, naming the limit.

The 2 MB size limit (:data:`rallyc.syntax.parser.MAX_SOURCE_BYTES`) alone does not bound the work: 2 MB of
four-tile stages or one stage of 250,000 tiles took minutes and more than a gigabyte. The limits below are far
above any real design (no published stage has more than about 60 tiles, no published file more than 6 stages)
and are checked while the file is read, statement by statement, so a file over a limit costs no more than the
statements before the one that goes over.
"""

from __future__ import annotations

from typing import Iterable

from rallyc.diagnostics import Diagnostic, Span
from rallyc.model import codes as rc
from rallyc.syntax import ast

__all__ = ["MAX_STATEMENTS", "MAX_STATEMENT_BYTES", "MAX_STAGE_TILES", "MAX_FILE_PIECES", "statement_too_large",
           "Pieces"]

#: top-level statements (stages, rallies, circuits, areas, tilesets, `use` and `boxes` lines) in one file
MAX_STATEMENTS = 1_000
#: bytes of one top-level statement (a rally with its stages, a tileset with its tiles), checked before it is parsed
MAX_STATEMENT_BYTES = 200_000
#: tiles (steps and scenery) of one stage, circuit or area
MAX_STAGE_TILES = 2_000
#: statements inside blocks in the whole file: tiles, tokens and every other line of a stage, rally, circuit or
#: area, and the tiles, roads and zones a tileset defines
MAX_FILE_PIECES = 20_000

_HINT = "a track file holds a few stages of tens of tiles: is this the right file? (docs/language.md, Limits)"


def statement_too_large(index: int, first_line: int, chunk: str, path: str) -> Diagnostic | None:
    """RC101 for the ``index``-th top-level statement (from 0) when the file has too many or it is too large."""
    where = Span(path, first_line, 1, first_line, 2)
    if index >= MAX_STATEMENTS:
        return Diagnostic.of(rc.RC101, f"more than {MAX_STATEMENTS:,} top-level statements (stages, rallies, "
                                       f"circuits, areas, tilesets) in one file; rallyc reads at most {MAX_STATEMENTS:,}",
                             where, _HINT)
    size = len(chunk.encode("utf-8", "surrogatepass"))
    if size > MAX_STATEMENT_BYTES:
        return Diagnostic.of(rc.RC101, f"this statement is {size // 1000:,} KB; one statement (a stage, a rally with "
                                       f"its stages, a tileset) is at most {MAX_STATEMENT_BYTES // 1000:,} KB",
                             where, _HINT)
    return None


class Pieces:
    """The statements read so far in one file, against :data:`MAX_STAGE_TILES` and :data:`MAX_FILE_PIECES`."""

    def __init__(self) -> None:
        self.count = 0

    def add(self, items: Iterable[object]) -> Diagnostic | None:
        """Count the statements just read; RC101 at the first stage (or statement) that goes over a limit."""
        for item in items:
            for block in _blocks(item):
                tiles = sum(1 for i in block.items if isinstance(i, (ast.Step, ast.Scenery)))
                if tiles > MAX_STAGE_TILES:
                    return Diagnostic.of(rc.RC101, f"{tiles:,} tiles in one {_kind(block)}; a stage, circuit or area "
                                                   f"has at most {MAX_STAGE_TILES:,}", _head(block.span), _HINT)
            self.count += _statements(item)
            if self.count > MAX_FILE_PIECES:
                return Diagnostic.of(rc.RC101, f"more than {MAX_FILE_PIECES:,} statements (tiles, tokens, options, "
                                               f"tile definitions) in one file; rallyc reads at most "
                                               f"{MAX_FILE_PIECES:,}",
                                     _head(getattr(item, "span", None)), _HINT)
        return None


def _statements(item: object) -> int:
    """The statements inside a top-level statement: a block's lines (a rally's and its stages'), or a tileset's
    tiles with their roads and what the roads hold."""
    if isinstance(item, ast.Tileset):
        return sum(1 + sum(1 + len(road.items) for road in tile.roads) for tile in item.tiles)
    items = getattr(item, "items", [])
    return len(items) + sum(len(i.items) for i in items if isinstance(i, ast.Stage))


def _blocks(item: object) -> list:
    """The stages, circuits and areas of a top-level statement (a rally's stages)."""
    if isinstance(item, (ast.Stage, ast.Circuit, ast.Area)):
        return [item]
    if isinstance(item, ast.Rally):
        return [i for i in item.items if isinstance(i, ast.Stage)]
    return []


def _kind(block: object) -> str:
    return {ast.Stage: "stage", ast.Circuit: "circuit", ast.Area: "area"}[type(block)]


def _head(span: Span | None) -> Span:
    """The first line of a statement's span (where the statement begins)."""
    assert span is not None  # every statement read from a file has its span
    return Span(span.file, span.line, span.column, span.line, span.column + 1)
