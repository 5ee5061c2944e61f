"""Compiled files kept in the user cache (rallyc/cache/compiled_files.py, issue 33): what ``rallyc compile``
prints never comes from a stale entry (an edited file, an edited include, an include created,
other settings), and a broken entry is compiled again, never fatal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from helpers.paths import ROOT
from rallyc.commands.cli import app

SHORT = "stage SS1 {\n  202a\n  205a\n  203a\n}\n"  # RC308: a short stage (a warning), 3 tiles
LONGER = "stage SS1 {\n  202a\n  205a\n  206a\n  207a\n  204a\n  209a left\n  203a\n}\n"  # clean, 7 tiles


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    """The test's own user cache folder (the compiled files go in ``compiled/`` below it); the test runs in
    ``tmp_path``."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("RALLYC_NO_CACHE", raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path / "cache" / "rallyc"


def rallyc(*args: str, cwd: Path):
    """``rallyc ARGS`` run in ``cwd`` (the test's folder) by typer's test runner: exit code, stdout, stderr."""
    assert Path.cwd() == cwd
    return CliRunner().invoke(app, list(args), prog_name="rallyc")


def entries(cache: Path) -> list[Path]:
    return sorted((cache / "compiled").glob("*.pickle"))


def tiles(run) -> int:
    """The tiles of the stage that ``rallyc stats --format json`` printed."""
    (stage,) = json.loads(run.stdout)["stages"]
    return stage["tiles"]


def test_an_unchanged_file_compiles_from_its_entry_with_the_same_output(tmp_path, cache):
    (tmp_path / "s.rally").write_text(SHORT, encoding="utf-8")
    first = rallyc("compile", "s.rally", cwd=tmp_path)
    assert first.exit_code == 0 and "RC308" in first.stderr and len(entries(cache)) == 1
    again = rallyc("compile", "s.rally", cwd=tmp_path)
    assert (again.exit_code, again.stdout, again.stderr) == (first.exit_code, first.stdout, first.stderr)
    assert len(entries(cache)) == 1


def test_an_edited_file_is_compiled_again(tmp_path, cache):
    f = tmp_path / "s.rally"
    f.write_text(SHORT, encoding="utf-8")
    assert "RC308" in rallyc("compile", "s.rally", cwd=tmp_path).stderr
    f.write_text(LONGER, encoding="utf-8")
    longer = rallyc("compile", "s.rally", cwd=tmp_path)
    assert longer.exit_code == 0 and "RC308" not in longer.stderr
    f.write_text(SHORT, encoding="utf-8")  # back to the first text: its entry
    assert "RC308" in rallyc("compile", "s.rally", cwd=tmp_path).stderr
    assert len(entries(cache)) == 2


def test_an_edited_include_is_compiled_again(tmp_path, cache):
    (tmp_path / "main.rally").write_text('use "tiles.rally"\n' + LONGER, encoding="utf-8")
    (tmp_path / "tiles.rally").write_text("# no tiles yet\n", encoding="utf-8")
    assert rallyc("compile", "main.rally", cwd=tmp_path).exit_code == 0
    assert len(entries(cache)) == 1  # a file with includes is kept, with its includes' digests
    (tmp_path / "tiles.rally").write_text("stage Other {\n", encoding="utf-8")  # now broken
    broken = rallyc("compile", "main.rally", cwd=tmp_path)
    assert broken.exit_code == 1 and "tiles.rally:1:14: error[RC106]" in broken.stderr


def test_a_missing_include_is_not_kept_and_is_read_once_it_exists(tmp_path, cache):
    (tmp_path / "main.rally").write_text('use "tiles.rally"\n' + LONGER, encoding="utf-8")
    missing = rallyc("compile", "main.rally", cwd=tmp_path)
    assert missing.exit_code == 1 and "RC110" in missing.stderr and entries(cache) == []
    (tmp_path / "tiles.rally").write_text("# no tiles yet\n", encoding="utf-8")
    found = rallyc("compile", "main.rally", cwd=tmp_path)
    assert found.exit_code == 0 and found.stderr == ""


def test_stats_reads_the_file_it_is_given(tmp_path, cache):
    """``rallyc stats`` reads a file one track at a time (never kept whole): an edit shows at once."""
    f = tmp_path / "s.rally"
    f.write_text(SHORT, encoding="utf-8")
    assert tiles(rallyc("stats", "--format", "json", "s.rally", cwd=tmp_path)) == 3
    f.write_text(LONGER, encoding="utf-8")
    assert tiles(rallyc("stats", "--format", "json", "s.rally", cwd=tmp_path)) == 7


def test_other_settings_are_compiled_again(tmp_path, cache):
    (tmp_path / "s.rally").write_text(LONGER, encoding="utf-8")
    assert "RC503" not in rallyc("compile", "s.rally", cwd=tmp_path).stderr
    (tmp_path / "rallyc.toml").write_text('boxes = ["dirt-110"]\n', encoding="utf-8")  # 2xx tiles not owned
    assert "RC503" in rallyc("compile", "s.rally", cwd=tmp_path).stderr


@pytest.mark.parametrize("broken", [b"", b"not a pickle", b"\x80\x05\x95\x10"])
def test_a_broken_entry_is_compiled_again(tmp_path, cache, broken):
    (tmp_path / "s.rally").write_text(SHORT, encoding="utf-8")
    first = rallyc("compile", "s.rally", cwd=tmp_path)
    (entry,) = entries(cache)
    entry.write_bytes(broken)
    again = rallyc("compile", "s.rally", cwd=tmp_path)
    assert (again.exit_code, again.stdout, again.stderr) == (first.exit_code, first.stdout, first.stderr)


def test_no_cache_keeps_nothing(tmp_path, cache, monkeypatch):
    monkeypatch.setenv("RALLYC_NO_CACHE", "1")
    (tmp_path / "s.rally").write_text(SHORT, encoding="utf-8")
    assert rallyc("compile", "s.rally", cwd=tmp_path).exit_code == 0
    assert not (cache / "compiled").exists()


def test_a_replay_reads_its_tracks_from_their_entries(tmp_path, cache):
    """``rallyc replay`` keeps the record's track files compiled; a new process (here: this process's own
    cache of compiled files cleared) replays from the entries, and from broken entries, alike."""
    from rallyc.records.tracks import clear_cache

    game = str(ROOT / "examples" / "games" / "rally-4-full.json")
    clear_cache()
    first = rallyc("replay", game, cwd=tmp_path)
    assert first.exit_code == 0 and entries(cache)
    clear_cache()
    again = rallyc("replay", game, cwd=tmp_path)
    for entry in entries(cache):
        entry.write_bytes(b"not a pickle")
    clear_cache()
    broken = rallyc("replay", game, cwd=tmp_path)
    assert first.stdout == again.stdout == broken.stdout and first.stderr == again.stderr == broken.stderr
