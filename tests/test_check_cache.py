"""The results cache of `rallyc check` (rallyc/cache/check_results.py): an unchanged file is not checked again, and
anything its result depends on (its bytes, the settings, an included file) makes it checked again."""

from __future__ import annotations

from pathlib import Path

import pytest

import rallyc
from rallyc import api

SHORT = "stage SS1 {\n  202a\n  205a\n  203a\n}\n"  # RC308: a short stage, line 1
LONGER = "stage SS1 {\n  202a\n  205a\n  206a\n  207a\n  204a\n  209a left\n  203a\n}\n"  # clean


class Cache:
    """The test's user cache folder (``folder``) and the files checked, not read from it (``calls``)."""

    def __init__(self, folder: Path, calls: list[str]):
        self.folder, self.calls = folder, calls

    def __truediv__(self, name: str) -> Path:
        return self.folder / name


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Cache:
    """A private user cache folder for the test; checks done through ``api._check_target`` are counted."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("RALLYC_NO_CACHE", raising=False)
    calls: list[str] = []
    real = api._check_target

    def counting(target, config, stdin):
        calls.append(target.display)
        return real(target, config, stdin)

    monkeypatch.setattr(api, "_check_target", counting)
    return Cache(tmp_path / "cache" / "rallyc", calls)


def result(run) -> list[tuple[str, int]]:
    return [(d.code, d.span.line) for d in run.diagnostics]


def test_an_unchanged_file_is_not_checked_again(tmp_path, cache):
    f = tmp_path / "s.rally"
    f.write_text(SHORT, encoding="utf-8")
    first = rallyc.check([f])
    second = rallyc.check([f])
    assert result(first) == result(second) == [("RC308", 1)]
    assert cache.calls == [str(f)]
    assert second.sources.line(str(f), 1) == "stage SS1 {"  # the quoted line is kept with the result
    assert len(list((cache / "checks").glob("*.pickle"))) == 1


def test_a_changed_file_or_settings_are_checked_again(tmp_path, cache):
    f = tmp_path / "s.rally"
    f.write_text(SHORT, encoding="utf-8")
    rallyc.check([f])
    f.write_text(LONGER, encoding="utf-8")
    assert result(rallyc.check([f])) == []
    f.write_text(SHORT, encoding="utf-8")
    rallyc.check([f])  # kept from the first check
    assert result(rallyc.check([f], ignore=["RC308"])) == []
    (tmp_path / "rallyc.toml").write_text('select = ["RC5"]\n', encoding="utf-8")
    assert result(rallyc.check([f])) == []
    assert len(cache.calls) == 4


def test_a_file_with_includes_is_never_kept(tmp_path, cache):
    (tmp_path / "main.rally").write_text('use "tiles.rally"\n' + SHORT, encoding="utf-8")
    (tmp_path / "tiles.rally").write_text("# no tiles yet\n", encoding="utf-8")
    assert result(rallyc.check([tmp_path / "main.rally"])) == [("RC308", 2)]
    (tmp_path / "tiles.rally").write_text("stage Other {\n", encoding="utf-8")  # now broken
    assert "RC308" not in {c for c, _ in result(rallyc.check([tmp_path / "main.rally"]))}
    assert len(cache.calls) == 2 and not (cache / "checks").exists()


def test_no_cache_reads_and_keeps_nothing(tmp_path, cache, monkeypatch):
    f = tmp_path / "s.rally"
    f.write_text(SHORT, encoding="utf-8")
    rallyc.check([f], cache=False)
    rallyc.check([f], cache=False)
    assert len(cache.calls) == 2 and not (cache / "checks").exists()
    monkeypatch.setenv("RALLYC_NO_CACHE", "1")
    rallyc.check([f])
    assert len(cache.calls) == 3 and not (cache / "checks").exists()


def test_a_broken_entry_is_checked_again(tmp_path, cache):
    f = tmp_path / "s.rally"
    f.write_text(SHORT, encoding="utf-8")
    rallyc.check([f])
    (entry,) = (cache / "checks").glob("*.pickle")
    entry.write_bytes(b"not a pickle")
    assert result(rallyc.check([f])) == [("RC308", 1)]
    assert len(cache.calls) == 2
