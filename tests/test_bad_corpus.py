"""The bad-file corpus: every malformed file gets a located diagnostic with the expected code and exit 1.

Each file in tests/bad/ (and each tests/bad/*/main.rally, for cases that need several files) starts
with ``# expect: CODE [FILE] line N``: the diagnostic CODE must be reported at line N (of FILE, when
the problem is in an included file). Issue 2: "a corpus of at least 30 bad files".
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import rallyc
from rallyc.diagnostics import Severity

BAD = Path(__file__).resolve().parent / "bad"
EXPECT = re.compile(rb"^# expect: (RC\d{3})(?: (\S+))? line (\d+)")


def corpus() -> list[Path]:
    return sorted(BAD.glob("*.rally")) + sorted(BAD.glob("*/main.rally"))


def test_corpus_has_at_least_30_files():
    assert len(corpus()) >= 30


@pytest.mark.parametrize("path", corpus(), ids=lambda p: str(p.relative_to(BAD)))
def test_bad_file_reports_expected_code_at_expected_line(path: Path):
    m = EXPECT.match(path.read_bytes())
    assert m, f"{path.name} has no '# expect: CODE line N' first line"
    code, file, line = m.group(1).decode(), m.group(2), int(m.group(3))
    run = rallyc.check([str(path)])
    assert not run.ok and not run.io_error
    located = [(d.code, Path(d.span.file).name, d.span.line) for d in run.diagnostics if d.span is not None]
    want_file = file.decode() if file else path.name
    assert (code, want_file, line) in located, run.diagnostics
    for d in run.diagnostics:
        if d.span is not None and d.severity is Severity.ERROR:
            assert d.span.line >= 1 and d.span.column >= 1


def test_huge_file_is_refused_not_parsed(tmp_path):
    """A 5 MB file: RC101 at line 1, exit 1."""
    big = tmp_path / "big.rally"
    big.write_text("stage A {\n" + "  202a\n" * 700_000 + "}\n", encoding="utf-8")
    assert big.stat().st_size > 4_000_000
    run = rallyc.check([str(big)])
    assert not run.ok and not run.io_error
    assert [(d.code, d.span.line) for d in run.diagnostics] == [("RC101", 1)]


def test_very_deep_nesting_is_refused(tmp_path):
    deep = tmp_path / "deep.rally"
    deep.write_text("stage A {\n" * 5000 + "}\n" * 5000, encoding="utf-8")
    run = rallyc.check([str(deep)])
    assert not run.ok and not run.io_error
    assert [(d.code, d.span.line) for d in run.diagnostics] == [("RC103", 9)]


def test_truncated_copies_of_a_valid_file_never_crash(tmp_path):
    """Cut a valid rally at every 7th character: each cut is located, never a traceback."""
    text = (BAD.parent / "bad" / "duplicate-option.rally").read_text(encoding="utf-8")
    for cut in range(1, len(text), 7):
        f = tmp_path / f"cut{cut}.rally"
        f.write_text(text[:cut], encoding="utf-8")
        run = rallyc.check([str(f)])
        lines = text[:cut].count("\n") + 1
        for d in run.diagnostics:
            assert d.code != "RC100"
            if d.span is not None:
                assert 1 <= d.span.line <= lines and d.span.column >= 1
