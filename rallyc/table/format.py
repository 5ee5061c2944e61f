"""The journal's format name, and telling a journal from a game record by its first line (without the referee:
``rallyc replay`` asks this of every file it reads)."""

from __future__ import annotations

import json

__all__ = ["FORMAT", "is_journal"]

#: the first line of a journal opens one of this format (rallyc.table.journal)
FORMAT = "rallyc-table/1"


def is_journal(text: str) -> bool:
    """The text is a journal (its first line opens one), not a game record."""
    first = text.lstrip("\ufeff").split("\n", 1)[0]
    try:
        head = json.loads(first)
    except ValueError:
        return False
    return isinstance(head, dict) and head.get("journal") == FORMAT
