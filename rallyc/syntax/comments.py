"""Comments of a rallyc file, found beside the parser (the grammar drops them).

The formatter puts them back: an own-line comment above the statement it
precedes, an end-of-line comment on the line of its statement.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Comment", "extract_comments"]


@dataclass(frozen=True)
class Comment:
    """A ``#`` comment: where it starts, its text (with the ``#``), and whether it has its own line."""

    line: int
    column: int
    text: str
    own_line: bool


def extract_comments(text: str) -> list[Comment]:
    """Every comment of ``text`` in source order; ``#`` inside quoted text is not a comment."""
    out: list[Comment] = []
    line, col = 1, 1
    line_has_code = False
    in_string = False
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\n":
            line, col = line + 1, 1
            line_has_code = False
            in_string = False
            i += 1
            continue
        if in_string:
            if ch == "\\" and i + 1 < n and text[i + 1] != "\n":
                i += 2
                col += 2
                continue
            if ch == '"':
                in_string = False
            i += 1
            col += 1
            continue
        if ch == "#":
            j = text.find("\n", i)
            j = n if j == -1 else j
            out.append(Comment(line, col, text[i:j].rstrip(), not line_has_code))
            col += j - i
            i = j
            continue
        if ch == '"':
            in_string = True
        if ch not in " \t\f\r":
            line_has_code = True
        i += 1
        col += 1
    return out
