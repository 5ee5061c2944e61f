"""Every example compiles with no errors; every code the compiler can emit is registered."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rallyc.codes import all_codes
from rallyc.compilation.pipeline import compile_loaded
from rallyc.project.loader import load

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.rally"))
assert len(EXAMPLES) == 13, EXAMPLES  # the parametrized test below never runs on an empty list


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_compiles_without_errors(path):
    result = compile_loaded(load(path))
    errors = [(d.code, str(d.span), d.message) for d in result.diagnostics if d.severity.value == "error"]
    assert errors == []
    assert result.designs and all(d.tracks for d in result.designs)
    for design in result.designs:
        for track in design.tracks:
            assert track.start_spaces, track.name
            assert track.finish_spaces, track.name


def test_every_code_the_compiler_emits_is_registered():
    """Codes appear as symbols ``rc.RCnnn`` (or string literals "RCnnn") in the compiler, geometry and checks."""
    registered = set(all_codes())
    used = set()
    for folder in ("compiler", "geometry", "checks"):
        for f in (ROOT / "rallyc" / folder).glob("*.py"):
            used |= set(re.findall(r'(?:"|\brc\.)(RC\d{3})', f.read_text()))
    used |= set(re.findall(r'"(RC\d{3})"', (ROOT / "rallyc" / "__init__.py").read_text()))
    assert used and used <= registered, sorted(used - registered)


def test_registered_compiler_codes_name_rules():
    """Each RC2xx-RC6xx code says which rule IDs it enforces (except RC312, nothing to compile)."""
    for code, info in all_codes().items():
        if code[2] in "23456" and code != "RC312":
            assert info.rules, code
            assert info.summary and info.explanation and info.example and info.fix
