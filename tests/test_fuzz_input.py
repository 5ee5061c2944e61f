"""A small seeded slice of the careless-input fuzz run (benchmarks/fuzz_input.py; the full run is 13,000 inputs).

Every mutated .rally file, Rekee/RGT file and game record goes through the real command and must end
with exit 0, 1 or 2, no traceback, errors located, and within the fuzz script's time limit.
"""

from __future__ import annotations

import importlib.util
import os
import sys

import pytest

from helpers.paths import ROOT

_spec = importlib.util.spec_from_file_location("fuzz_input", ROOT / "benchmarks" / "fuzz_input.py")
fuzz = importlib.util.module_from_spec(_spec)
sys.modules["fuzz_input"] = fuzz  # dataclasses look their module up there
_spec.loader.exec_module(fuzz)

SEED = 2026
SLOW = os.environ.get("RALLYC_SLOW") == "1"
SLICE = [("rally", i) for i in range(200 if SLOW else 24)] + [("tracks", i) for i in range(60 if SLOW else 12)] + \
    [("records", i) for i in range(20 if SLOW else 3)]


@pytest.mark.parametrize("kind,index", SLICE, ids=[f"{k}-{i}" for k, i in SLICE])
def test_mutated_input_is_refused_cleanly(kind, index):
    outcome = fuzz.run_one((kind, index, SEED))
    assert outcome.status == "ok", (outcome, fuzz.make_input(kind, index, SEED, fuzz._CORPUS)[1][:400])


def test_inputs_are_reproducible():
    assert fuzz.make_input("rally", 5, SEED, fuzz._CORPUS) == fuzz.make_input("rally", 5, SEED, fuzz._CORPUS)
    assert fuzz.make_input("tracks", 5, SEED, fuzz._CORPUS) != fuzz.make_input("tracks", 6, SEED, fuzz._CORPUS)
