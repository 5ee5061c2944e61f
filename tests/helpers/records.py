"""Helpers for the record tests: the command line, and the rule a mutated record is refused with."""

from __future__ import annotations

import json
import subprocess
import sys

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

