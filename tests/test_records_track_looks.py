"""A record's track file found once per replay (``one_look``) and its path resolved once per name and folder
(``track_file``): the path resolved before is taken again only while the name still opens that very file, and
the answer is always the one resolving it again would give."""

from __future__ import annotations

import gc
import os
from pathlib import Path

import pytest

from rallyc.compilation.collector import held
from rallyc.records import load_record
from rallyc.records import tracks
from rallyc.records.tracks import one_look, track_file

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "examples" / "games").glob("*.json"))


def _resolved(base_dir: Path | str, name: str) -> tuple[Path, bool, bool]:
    """What track_file answered before it kept resolved paths: pathlib's own answers."""
    path = (Path(base_dir) / name).resolve()
    return path, path.is_dir(), path.is_file()


@pytest.fixture
def fresh():
    """No path resolved before the test, nor kept after it."""
    tracks._FOUND.clear()
    yield
    tracks._FOUND.clear()


#: the example records played on a track file (not a sketch)
ON_FILES = [g for g in GAMES if "track" in load_record(g)]


def test_most_examples_are_played_on_track_files():
    assert len(ON_FILES) >= len(GAMES) - 2


@pytest.mark.parametrize("game", ON_FILES, ids=lambda p: p.name)
def test_every_example_record_finds_its_track_as_a_fresh_resolution_does(fresh, game):
    data = load_record(game)
    for base in (game.parent, str(game.parent), os.path.relpath(game.parent)):
        for _ in range(2):  # resolved, then taken again
            assert track_file(base, data["track"]) == _resolved(base, data["track"])
            with one_look():
                assert track_file(base, data["track"]) == _resolved(base, data["track"])
                assert track_file(base, data["track"]) == _resolved(base, data["track"])


def test_a_link_that_leads_elsewhere_is_resolved_again(fresh, tmp_path):
    (tmp_path / "a.rally").write_text("a")
    (tmp_path / "b.rally").write_text("b")
    (tmp_path / "games").mkdir()
    link = tmp_path / "track.rally"
    link.symlink_to(tmp_path / "a.rally")
    base = tmp_path / "games"
    assert track_file(base, "../track.rally") == (tmp_path / "a.rally", False, True)
    link.unlink()
    link.symlink_to(tmp_path / "b.rally")
    assert track_file(base, "../track.rally") == (tmp_path / "b.rally", False, True)
    link.unlink()
    link.symlink_to(tmp_path / "games")
    assert track_file(base, "../track.rally") == (tmp_path / "games", True, False)
    link.unlink()
    assert track_file(base, "../track.rally") == _resolved(base, "../track.rally")


def test_a_folder_on_the_way_that_leads_elsewhere_is_resolved_again(fresh, tmp_path):
    for side in ("one", "two"):
        (tmp_path / side).mkdir()
        (tmp_path / side / "t.rally").write_text(side)
    (tmp_path / "games").mkdir()
    link = tmp_path / "tracks"
    link.symlink_to(tmp_path / "one")
    assert track_file(tmp_path / "games", "../tracks/t.rally")[0] == tmp_path / "one" / "t.rally"
    link.unlink()
    link.symlink_to(tmp_path / "two")
    assert track_file(tmp_path / "games", "../tracks/t.rally")[0] == tmp_path / "two" / "t.rally"


def test_the_path_kept_must_still_be_the_file_the_name_opens(fresh, tmp_path):
    """An inode number may be reused: a kept path whose file is gone, or another file now, is not taken again."""
    (tmp_path / "t.rally").write_text("t")
    (tmp_path / "old.rally").write_text("old")
    st = os.stat(tmp_path / "t.rally")
    key = (str(tmp_path), "t.rally")
    tracks._FOUND[key] = (st.st_dev, st.st_ino, tmp_path / "old.rally")  # same inode, another file's path
    assert track_file(tmp_path, "t.rally") == (tmp_path / "t.rally", False, True)
    tracks._FOUND[key] = (st.st_dev, st.st_ino, tmp_path / "gone.rally")  # same inode, a path not there
    assert track_file(tmp_path, "t.rally") == (tmp_path / "t.rally", False, True)
    tracks._FOUND[key] = (st.st_dev, st.st_ino + 1, tmp_path / "t.rally")  # another inode
    assert track_file(tmp_path, "t.rally") == (tmp_path / "t.rally", False, True)


def test_names_not_there_are_never_kept(fresh, tmp_path):
    assert track_file(tmp_path, "none.rally") == _resolved(tmp_path, "none.rally")
    assert not tracks._FOUND
    (tmp_path / "none.rally").write_text("now")
    assert track_file(tmp_path, "none.rally") == (tmp_path / "none.rally", False, True)


def test_the_kept_paths_are_bounded(fresh, tmp_path, monkeypatch):
    monkeypatch.setattr(tracks, "_MAX_FOUND", 3)
    for i in range(10):
        (tmp_path / f"{i}.rally").write_text(str(i))
        assert track_file(tmp_path, f"{i}.rally") == (tmp_path / f"{i}.rally", False, True)
        assert len(tracks._FOUND) <= 3


def test_one_look_blocks_nest_and_end_with_their_outermost(fresh, tmp_path):
    (tmp_path / "t.rally").write_text("t")

    @one_look()
    def inner() -> dict:
        return tracks._LOOKS.get()

    assert tracks._LOOKS.get() is None
    with one_look():
        outer = tracks._LOOKS.get()
        assert outer is not None
        assert inner() is outer  # a block within another shares its looks
        with one_look():
            assert tracks._LOOKS.get() is outer
        assert tracks._LOOKS.get() is outer
    assert tracks._LOOKS.get() is None
    assert inner() is not None
    assert tracks._LOOKS.get() is None

    @one_look()
    def fails() -> None:
        raise KeyError("x")

    with pytest.raises(KeyError):
        fails()
    assert tracks._LOOKS.get() is None


def test_a_held_call_collects_its_cyclic_garbage_and_leaves_the_setting(tmp_path):
    import weakref

    class Node:
        other: object

    seen: list = []

    @held()
    def cyclic() -> None:
        a, b = Node(), Node()
        a.other, b.other = b, a
        seen.append(weakref.ref(a))
        assert not gc.isenabled()

    was_on = gc.isenabled()
    try:
        gc.enable()
        cyclic()
        assert gc.isenabled()
        assert seen[-1]() is None
        gc.disable()
        cyclic()
        assert not gc.isenabled()  # switched off stays off, and nothing is collected
        assert seen[-1]() is not None
    finally:
        (gc.enable if was_on else gc.disable)()
        gc.collect()
