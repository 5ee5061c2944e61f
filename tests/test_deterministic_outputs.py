"""Same input, same bytes: every output that can be diffed or cached is identical across processes
whose hash seeds differ (set iteration order is the usual way such output goes wrong)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

COMMANDS = {
    "compile": ["compile", "examples/rx-2.rally"],
    "stats": ["stats", "examples/auto-tour-1.rally", "--format", "json"],
    "check-sarif": ["check", "tests/bad", "--format", "sarif"],
    "replay": ["replay", "examples/games/rally-4-full.json", "--format", "json"],
    "export": ["export", "examples/rx-1.rally", "--to", "rgt"],
    "import": ["import", "tests/data/interop/rx-hand.json"],
}


def _run(args: list[str], seed: str) -> bytes:
    env = dict(os.environ, PYTHONHASHSEED=seed)
    return subprocess.run([sys.executable, "-m", "rallyc", *args], cwd=ROOT, env=env, capture_output=True,
                          check=False).stdout


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_output_is_the_same_whatever_the_hash_seed(name):
    first, second = _run(COMMANDS[name], "1"), _run(COMMANDS[name], "2")
    assert first, f"{name} printed nothing"
    assert first == second
