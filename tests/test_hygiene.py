"""The test suite's own rules: every case runs (no skips), every input is inside the repository, helpers are
a package (never a test module imported by name). Read from the test sources, so a new test that breaks a
rule fails here with its file and line."""

from __future__ import annotations

import re

import pytest

from helpers.paths import ROOT

SOURCES = sorted((ROOT / "tests").glob("**/*.py"))
THIS = "test_hygiene.py"

#: (what is wrong, pattern); each is a rule of the team brief
RULES = [
    ("a skipped case (make the case fit or fail instead)", re.compile(r"pytest\.skip\(|importorskip|mark\.skip")),
    ("a path outside the repository (copy the data into tests/data/)",
     re.compile(r"""["'](?:/work|/home|/bin|/usr|/tmp)/|\.\./+shared|\.parent\s*/\s*["']shared|ROOT\.parent\b""")),
    ("a test module imported by name (put helpers in tests/helpers/)", re.compile(r"^\s*(?:from|import)\s+test_\w+",
                                                                                re.M)),
]


def test_the_suite_has_sources():
    assert len([p for p in SOURCES if p.name.startswith("test_")]) > 50
    assert (ROOT / "tests" / "conftest.py") in SOURCES


@pytest.mark.parametrize("what,pattern", RULES, ids=["skip", "outside", "by-name"])
def test_no_test_breaks_the_rule(what, pattern):
    found = []
    for path in SOURCES:
        if path.name == THIS:
            continue
        text = path.read_text(encoding="utf-8")
        for m in pattern.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            found.append(f"{path.relative_to(ROOT)}:{line}: {what}")
    assert not found, "\n".join(found)


def test_the_rules_catch_what_they_name():
    """Each pattern does match the mistake it names (so the test above can fail)."""
    samples = ['    pytest.skip("no game")', 'P = Path("/work/shared/rules/INVENTORY.md")',
               "from test_compiler_helpers import codes"]
    for (_, pattern), sample in zip(RULES, samples):
        assert pattern.search(sample)
