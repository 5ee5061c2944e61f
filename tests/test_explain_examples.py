"""Every registered diagnostic code has an example that really shows it (`rallyc explain CODE`).

Each example is written to a temporary folder and run through the real command that
`rallyc explain` names for it (`rallyc check`, `rallyc import`, `rallyc export`, or the
Python API `rallyc.load`), and must report its code. Other codes may appear only where
they cannot be avoided (ALSO below, with the reason) or as warnings. Codes that no file
can show (a missing, huge or binary file; failures inside rallyc) are listed in
NOT_A_FILE with the reason, and triggered here another way where that is possible.

Rule IDs named in the registry must exist in the rule inventory (tests/data/rules/INVENTORY.md).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

import rallyc
from rallyc.commands.cli import app
from rallyc.codes import EXAMPLE_KINDS, all_codes
from rallyc.codes.explain import explain_text
from rallyc.diagnostics import DiagnosticError
from rallyc.syntax.formatter import format_text

ROOT = Path(__file__).resolve().parent.parent
CODES = all_codes()

#: codes whose example also shows other errors, because no example can avoid them
ALSO = {
    "RC207": ({"RC303"}, "in route form the next step always lies across the exit edge, so a road runs into "
                         "another tile only where the route stops before its finish line"),
    "RC307": ({"RC309"}, "the only dead-end road is the Assistance tile's, so a tile after a dead end is an "
                         "Assistance tile before the finish"),
    "RC710": ({"RC301"}, "the example's tiles do not chain from a start tile, so the written file (which "
                         "`rallyc import` checks, issue 11) has no start line"),
    "RC713": ({"RC301", "RC303"}, "a track without tiles is written as an empty stage, which `rallyc import` "
                                  "checks (issue 11): it has no start and no finish"),
    "RC741": ({"RC403"}, "the standee that cannot be inferred is left out of the written file, which "
                         "`rallyc import` checks (issue 11)"),
    "RC309": ({"RC303"}, "the Assistance tile is a dead end: anywhere but after the finish it either ends the "
                         "route before a finish tile (RC303) or has a tile after it (RC307)"),
}

#: codes that no track file can show, and why (their `example_kind` is "shell" or "internal")
NOT_A_FILE = {
    "RC001": "a file that does not exist",
    "RC101": "a file above 2 MB, too big to print as an example",
    "RC102": "binary data, which cannot be printed as an example",
    "RC100": "a failure inside rallyc itself; no input is known to cause it",
    "RC108": "fmt checks its own output; only a bug in fmt can make the check fail",
    "RC117": "a file whose lines end with CR alone, which cannot be printed as an example",
    "RC118": "a FIFO in the folder, made with mkfifo",
    "RC119": "a symbolic link out of the folder",
    "RC160": "an option no referee plays: every option of the registry is refereed today (`repairs` since issue 12)",
}

_REPORTED = re.compile(r"\b(error|warning|note)\[(RC\d{3})\]")


def _write(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _run_command(command: str) -> dict[str, str]:
    """Run a `rallyc ...` command line in the current folder: {code: severity} it reports."""
    argv = shlex.split(command)
    assert argv[0] == "rallyc", command
    result = CliRunner().invoke(app, argv[1:], catch_exceptions=False)
    found: dict[str, str] = {}
    for severity, code in _REPORTED.findall(result.output):
        if found.get(code) != "error":
            found[code] = severity
    return found


def _reported(info, folder: Path) -> dict[str, str]:
    """{code: severity} reported on the example of ``info``, written into ``folder``."""
    files = info.example_files()
    _write(folder, files)
    if info.example_kind == "api":
        (name,) = files
        with pytest.raises(DiagnosticError) as raised:
            rallyc.load(folder / name)
        return {d.code: d.severity.value for d in raised.value.diagnostics}
    return _run_command(info.example_command())


@pytest.mark.parametrize("code", [c for c, i in CODES.items() if i.example_kind not in ("shell", "internal")])
def test_example_reports_its_code(code, tmp_path, monkeypatch):
    """The example `rallyc explain` prints reports the code, and no other error that it could avoid."""
    info = CODES[code]
    monkeypatch.chdir(tmp_path)
    found = _reported(info, tmp_path)
    assert code in found, f"{code}: its example reports {sorted(found)}"
    assert found[code] == info.severity
    allowed = ALSO.get(code, (set(), ""))[0]
    other_errors = {c for c, s in found.items() if s == "error" and c != code} - allowed
    assert not other_errors, f"{code}: its example also reports {sorted(other_errors)}"


@pytest.mark.parametrize("code", sorted(CODES))
def test_every_code_has_an_example_kind_and_a_known_exception(code):
    info = CODES[code]
    assert info.example_kind in EXAMPLE_KINDS
    if info.example_kind in ("shell", "internal"):
        assert code in NOT_A_FILE, f"{code} has no file example: say why in NOT_A_FILE and trigger it below"
    else:
        assert code not in NOT_A_FILE
    if info.example_kind == "files":
        assert len(info.example_files()) >= 2
    assert code not in ALSO or info.example_kind != "internal"


@pytest.mark.parametrize("code", [c for c, i in CODES.items() if i.example_kind in ("rally", "files", "export", "api")])
def test_examples_are_formatted(code):
    """Examples read as `rallyc fmt` writes them (those with syntax errors cannot be formatted)."""
    for name, text in CODES[code].example_files().items():
        new, _ = format_text(text, name)
        assert new is None or new == text, f"{code} {name} is not in the canonical layout"
        assert 3 <= len(text.splitlines()) <= 20, f"{code} {name}: keep examples short"


def test_explain_prints_the_example_and_the_command():
    text = explain_text("RC130")
    assert "rallyc check example.rally" in text and "233a" in text
    files = explain_text("RC112")
    assert "sunday-sprint.rally:" in files and "my-tiles.rally:" in files and 'use "sunday-sprint.rally"' in files
    assert "rallyc check picture.png" in explain_text("RC102")
    assert "rallyc export example.rally --to rgt" in explain_text("RC711")


# ------------------------------------------------------------------ codes no file can show


def test_unrefereed_option_rc160(tmp_path, monkeypatch):
    """An option the registry lists with no referee variant (here `repairs`, made so for the test) is RC160."""
    import dataclasses

    from rallyc.checks import names
    from rallyc.model import options as registry

    spec = dataclasses.replace(registry.OPTIONS["repairs"], variants=frozenset())
    monkeypatch.setitem(registry.OPTIONS, "repairs", spec)
    monkeypatch.setitem(names.OPTIONS, "repairs", spec)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "example.rally").write_text('rally "R" {\n  stage SS1 {\n    202a\n    203a\n  }\n'
                                            '  options repairs no\n}\n', encoding="utf-8")
    assert _run_command("rallyc check example.rally").get("RC160") == "warning"


def test_missing_file_rc001(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert _run_command(CODES["RC001"].example_command()) == {"RC001": "error"}


def test_file_too_large_rc101(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "server.log").write_text("# 2024-05-01 12:00:00 request served\n" * 80_000, encoding="utf-8")
    assert _run_command(CODES["RC101"].example_command()) == {"RC101": "error"}


def test_binary_file_rc102(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "picture.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    assert _run_command(CODES["RC102"].example_command()) == {"RC102": "error"}


def test_internal_error_rc100_is_reported_not_raised(tmp_path, monkeypatch):
    """A failure inside the compiler becomes RC100; the name checks still run."""
    import rallyc.compilation.pipeline

    def broken(loaded):
        raise RuntimeError("simulated bug")

    monkeypatch.setattr(rallyc.compilation.pipeline, "compile_loaded", broken)
    monkeypatch.chdir(tmp_path)
    _write(tmp_path, CODES["RC130"].example_files())
    assert _run_command("rallyc check example.rally") == {"RC100": "error", "RC130": "error"}


def test_fmt_refuses_to_change_meaning_rc108(monkeypatch):
    """fmt checks its own output: a formatter that loses a line is caught (RC108), the file left as is."""
    import rallyc.syntax.formatter as formatter

    real = formatter.format_document
    monkeypatch.setattr(formatter, "format_document", lambda doc, comments=None: real(doc, comments)[:-4] + "}\n")
    new, diags = format_text(CODES["RC605"].example, "example.rally")
    assert new is None and [d.code for d in diags] == ["RC108"]


# ------------------------------------------------------------------ rule IDs


#: the repository's copy of shared/rules/INVENTORY.md
INVENTORY = ROOT / "tests" / "data" / "rules" / "INVENTORY.md"


def test_rules_named_by_codes_exist_in_the_inventory():
    ids = set(re.findall(r"^\| ([A-Z]+(?:-[A-Z0-9]+)*-\d+) \|", INVENTORY.read_text(encoding="utf-8"), re.M))
    assert len(ids) > 400
    unknown = {code: [r for r in info.rules if r not in ids] for code, info in CODES.items()}
    assert not {c: r for c, r in unknown.items() if r}


def test_cr_only_line_endings_rc117(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "old-mac.rally").write_bytes(b"stage SS1 {\r  202a\r  203a\r}\r")
    assert _run_command(CODES["RC117"].example_command()) == {"RC117": "error"}


def test_fifo_in_a_checked_folder_rc118(tmp_path, monkeypatch):
    import os

    monkeypatch.chdir(tmp_path)
    (tmp_path / "ok.rally").write_text("tileset mine {}\n", encoding="utf-8")
    os.mkfifo(tmp_path / "pipe.rally")
    assert _run_command(CODES["RC118"].example_command()) == {"RC118": "warning"}


def test_link_out_of_the_folder_rc119(tmp_path, monkeypatch):
    (tmp_path / "outside.rally").write_text("tileset theirs {}\n", encoding="utf-8")
    inner = tmp_path / "project"
    inner.mkdir()
    (inner / "ok.rally").write_text("tileset mine {}\n", encoding="utf-8")
    (inner / "x.rally").symlink_to(tmp_path / "outside.rally")
    monkeypatch.chdir(inner)
    assert _run_command(CODES["RC119"].example_command()) == {"RC119": "warning"}
