"""A library call leaves Python's garbage collector as it found it: replaying a record (which compiles its track
file once per process, into the track cache) freezes nothing and does not change whether the collector runs."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

import pytest

from rallyc.compilation.compiled import collector_held, collector_paused
from rallyc.records import load_record, replay_record
from rallyc.records.tracks import clear_cache

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "examples" / "games" / "rally-1-ss1-failed-flat-out.json"


def _replay() -> None:
    clear_cache()  # the track file is compiled again, into the cache, within the call
    report = replay_record(load_record(GAME), base_dir=GAME.parent)
    assert report.error is None


@pytest.fixture
def collector():
    """The collector's setting and frozen objects restored after the test, whatever it did to them."""
    was_on, frozen = gc.isenabled(), gc.get_freeze_count()
    yield
    if gc.get_freeze_count() > frozen:
        gc.unfreeze()
    (gc.enable if was_on else gc.disable)()


def test_a_replay_freezes_nothing_and_leaves_the_collector_on(collector):
    gc.enable()
    _replay()
    assert gc.get_freeze_count() == 0
    assert gc.isenabled()


def test_a_replay_leaves_the_collector_off_when_the_program_turned_it_off(collector):
    gc.disable()
    _replay()
    assert not gc.isenabled()
    assert gc.get_freeze_count() == 0


def test_objects_the_program_froze_stay_frozen(collector):
    gc.enable()
    kept = [[] for _ in range(1000)]  # alive throughout: frozen now, still frozen after unless unfrozen
    gc.freeze()
    assert gc.get_freeze_count() >= len(kept)
    _replay()
    assert gc.get_freeze_count() >= len(kept)  # (objects frozen then freed since leave the count)


def test_the_cyclic_garbage_of_a_held_block_is_freed_at_its_end(collector):
    gc.enable()

    class Node:
        pass

    with collector_held():
        a, b = Node(), Node()
        a.other, b.other = b, a  # a cycle: reference counting alone never frees it
        gone = weakref.ref(a)
        del a, b
        assert gone() is not None  # no collection inside the block
    assert gone() is None


def test_collector_paused_restores_the_setting(collector):
    gc.disable()
    with collector_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()
    gc.enable()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled() and gc.get_freeze_count() == 0
