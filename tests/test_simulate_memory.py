"""A process that plays many tracks in turn (``rallyc generate`` tunes a stage through dozens of tracks, a slow
test run plays hundreds) frees what the strong driver valued on a track once it is dropped.

A cost-to-go table and the evaluator that valued it referred to each other, and every track's index stayed in a
cache keyed weakly by the index (whose entry referred to it): each table dropped (the process keeps the last few,
:func:`rallyc.analysis.costtogo.cost_to_go`), with its millions of partial plans, waited for one of the cyclic
garbage collector's rare full collections, and every track stayed. A slow-suite run of ``rallyc generate`` grew to
22 GB and the kernel killed it (issue 35).
"""

from __future__ import annotations

import gc
import weakref

from rallyc import api
from rallyc.analysis.costtogo import KEEP
from rallyc.analysis.drivers import StrongDriver
from rallyc.analysis.simulate import KEEP_DRIVERS, simulate
from rallyc.project.loader import load_text
from rallyc.rules.core.options import Options
from rallyc.rules.core.stage import Player, Stage


#: a 4-tile stage, ``{i}`` its number
STAGE = "stage S{i} {{\n  202a\n  205a\n  206a\n  203a\n}}\n"


def _track(i: int):
    return api.compile_loaded(load_text(STAGE.format(i=i), f"s{i}.rally")).designs[0].tracks[0]


def test_a_table_dropped_is_freed_without_a_full_collection():
    first = _track(0)
    simulate(first, 1)
    player = Player("Car 1", "red")
    _, table = StrongDriver().table(Stage(first, [player], Options()), player.name)  # the one the runs used
    gone = weakref.ref(table)
    del table, first
    for i in range(1, max(KEEP, KEEP_DRIVERS) + 1):  # enough other tracks that the process keeps none of the first
        simulate(_track(i), 1)
    gc.collect(1)  # the young generations only: what reference counting leaves there is garbage made just now
    assert gone() is None
