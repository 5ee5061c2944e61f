"""The snapshot scripts never empty a folder that is not a snapshot (benchmarks/snapshot_target.py)."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from snapshot_target import prepare  # noqa: E402

ENTRIES = frozenset({"examples", "mutants"})


def _prepare(target: Path) -> Path:
    return prepare(argparse.ArgumentParser(prog="snap"), target, ROOT, ENTRIES)


def test_new_and_empty_folders_are_used(tmp_path: Path) -> None:
    assert _prepare(tmp_path / "a" / "b").is_dir()
    assert _prepare(tmp_path / "a" / "b") == (tmp_path / "a" / "b").resolve()


def test_a_snapshot_written_before_is_emptied(tmp_path: Path) -> None:
    (tmp_path / "examples" / "games").mkdir(parents=True)
    (tmp_path / "examples" / "games" / "old.txt").write_text("old")
    (tmp_path / "mutants").mkdir()
    assert _prepare(tmp_path) == tmp_path.resolve()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("held", ["notes.txt", "src", "examples.txt"])
def test_any_other_folder_is_refused_and_kept(tmp_path: Path, held: str, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "examples").mkdir()
    (tmp_path / "examples" / "kept.txt").write_text("mine")
    if "." in held:
        (tmp_path / held).write_text("mine")
    else:
        (tmp_path / held).mkdir()
    with pytest.raises(SystemExit) as exc:
        _prepare(tmp_path)
    assert exc.value.code == 2
    assert "not a snapshot written before" in capsys.readouterr().err
    assert (tmp_path / "examples" / "kept.txt").read_text() == "mine"
    assert (tmp_path / held).exists()


def test_a_file_and_the_repository_are_refused(tmp_path: Path) -> None:
    f = tmp_path / "file"
    f.write_text("mine")
    for target in (f, ROOT, ROOT / "examples"):
        with pytest.raises(SystemExit):
            _prepare(target)
    assert f.read_text() == "mine"


def test_the_scripts_refuse_a_folder_they_did_not_write(tmp_path: Path) -> None:
    (tmp_path / "thesis.tex").write_text("mine")
    for script in ("replay_snapshot.py", "render_snapshot.py", "snapshot_outputs.py"):
        p = subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), str(tmp_path)],
                           capture_output=True, text=True)
        assert p.returncode == 2, (script, p.stderr)
        assert "not a snapshot written before" in p.stderr
    assert (tmp_path / "thesis.tex").read_text() == "mine"
