"""Diagnostic codes are symbols declared once (rallyc.model.codes), used by the checks and by explain."""

from __future__ import annotations

import re
from pathlib import Path

from rallyc.codes import all_codes
from rallyc.diagnostics import Diagnostic, Severity
from rallyc.model import codes as rc

ROOT = Path(__file__).resolve().parent.parent

#: these layers name codes by symbol only (no "RCxxx" string literal)
SYMBOLS_ONLY = ("rallyc/syntax", "rallyc/tiles", "rallyc/compiler", "rallyc/checks", "rallyc/project/loader.py",
                "rallyc/compilation/pipeline.py")


def _py(names):
    for name in names:
        path = ROOT / name
        yield from sorted(path.rglob("*.py")) if path.is_dir() else [path]


def test_every_symbol_has_an_explain_entry_and_back():
    assert list(all_codes()) == list(rc.CODES)
    for code, info in all_codes().items():
        assert info.code is rc.CODES[code]
        assert info.severity == info.code.severity.value and info.summary == info.code.summary


def test_a_diagnostic_takes_its_severity_from_the_symbol():
    d = Diagnostic.of(rc.RC308, "stage SS1 has 3 road tile(s)", None)
    assert (d.code, d.severity) == ("RC308", Severity.WARNING)
    assert d.to_dict()["code"] == "RC308" and rc.CODES[d.code].rules[0] == "TRACK-STAGE-01"


def test_a_pickled_diagnostic_keeps_its_symbol():
    import pickle

    d = pickle.loads(pickle.dumps(Diagnostic.of(rc.RC308, "short", None)))
    assert d.code is rc.RC308 and d.severity is Severity.WARNING


def test_the_codes_that_stop_compilation():
    assert sorted(rc.STOPPING) == ["RC001", "RC101", "RC102", "RC103", "RC117"]
    assert rc.stops_compilation(["RC130", "RC103"]) and not rc.stops_compilation(["RC104", "RC130"])


def test_no_code_literal_in_the_language_build_and_checks():
    found = [f"{p.relative_to(ROOT)}:{i}" for p in _py(SYMBOLS_ONLY)
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if re.search(r'"RC\d{3}"', line)]
    assert found == []


def test_codes_still_written_as_text_elsewhere_are_declared_with_that_severity():
    """The CLI and interop still write some codes as text: each must be declared, with the severity used."""
    calls = re.compile(r'Diagnostic\.(error|warning)\(\s*"(RC\d{3})"')
    for path in _py(["rallyc"]):
        text = path.read_text(encoding="utf-8")
        for code in re.findall(r'"(RC\d{3})"', text):
            assert code in rc.CODES, f"{path.relative_to(ROOT)}: {code} is not declared in rallyc.model.codes"
        for severity, code in calls.findall(text):
            assert rc.CODES[code].severity.value == severity, f"{path.relative_to(ROOT)}: {code} as {severity}"


def test_one_rule_stops_check_and_compile_alike(tmp_path):
    """A code declared ``stops`` ends check and compile alike: nothing is compiled after it."""
    from rallyc import api

    cr_only = tmp_path / "old-mac.rally"
    cr_only.write_bytes(b"stage SS1 {\r  202a\r  203a\r}\r")
    for path, code in ((ROOT / "tests/bad/deep-nesting.rally", "RC103"), (cr_only, "RC117")):
        compiled = api.compile(path)
        assert (compiled.problem, compiled.result, [d.code for d in compiled.diagnostics]) == ("errors", None, [code])
        assert [d.code for d in api.check([str(path)]).diagnostics] == [code]


def test_a_code_that_stops_compilation_cannot_be_ignored():
    """Ignoring it would leave a file that was never checked looking clean (exit 0)."""
    from rallyc import api

    run = api.check([str(ROOT / "tests/bad/deep-nesting.rally")], ignore=["RC103"])
    assert [d.code for d in run.diagnostics] == ["RC103"] and not run.ok
