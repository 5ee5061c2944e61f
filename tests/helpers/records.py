"""Helpers for the record tests: the command line, and the rule a mutated record is refused with."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

from helpers.paths import EXAMPLES, ROOT
from rallyc.records.load import RecordError, parse_record
from rallyc.records.replay import replay_record

GAMES = EXAMPLES / "games"


def rallyc(*args: str) -> subprocess.CompletedProcess:
    """``python -m rallyc ARGS`` from the repository's root."""
    return subprocess.run([sys.executable, "-m", "rallyc", *args], capture_output=True, text=True, cwd=ROOT)


def refused(rec: dict) -> tuple[str | None, str]:
    """The rule and path of the record's first error (a located refusal or the replay's first illegal event)."""
    try:
        report = replay_record(parse_record(json.dumps(rec)), GAMES)
    except RecordError as exc:
        return exc.rule_id, exc.path
    assert report.error is not None, "the mutant was accepted"
    return report.error.rule_id, report.error.path


def json_paths(node: Any, prefix: tuple = ()) -> Iterator[tuple]:
    """Every path in a parsed JSON document, the document's own (``()``) first: keys of objects, indexes of
    arrays, depth first in document order."""
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from json_paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from json_paths(v, prefix + (i,))
