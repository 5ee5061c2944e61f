"""The language commands through the CLI: rallyc check / fmt / explain (issue 2).

Exit codes: 0 clean, 1 problems found, 2 usage or I/O error; text, JSON and SARIF reports.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

from rallyc.commands.cli import app
from rallyc.data.resources import schemas_dir

ROOT = Path(__file__).resolve().parent.parent
BAD = ROOT / "tests" / "bad"

GOOD = """use dirt-core

stage Hill {
  202a
  210b left
  203a
  201a
}
"""

MESSY = "stage   Hill {\n202a   # start\n      210b left\n}\n"


def run(*args: str, input: str | bytes | None = None):
    return CliRunner().invoke(app, list(args), input=input, catch_exceptions=False)


def schema(name: str) -> dict:
    return json.loads((schemas_dir() / name).read_text(encoding="utf-8"))


def validate(doc: dict, name: str) -> None:
    s = schema(name)
    cls = jsonschema.validators.validator_for(s)
    cls(s, format_checker=cls.FORMAT_CHECKER).validate(doc)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "good.rally").write_text(GOOD, encoding="utf-8")
    sub = tmp_path / "sub"
    sub.mkdir()
    shutil.copy(BAD / "unknown-tile.rally", sub / "unknown-tile.rally")
    shutil.copy(BAD / "bad-turn-word.rally", sub / "bad-turn-word.rally")
    return tmp_path


# ------------------------------------------------------------------ check

def test_check_clean_file_exits_0(project):
    r = run("check", str(project / "good.rally"))
    assert r.exit_code == 0, r.output
    assert "error[" not in r.output


def test_check_text_report_has_location_source_line_caret_and_hint(project):
    f = project / "sub" / "unknown-tile.rally"
    r = run("check", str(f))
    assert r.exit_code == 1
    lines = r.output.splitlines()
    assert lines[0] == f"{f}:4:3: error[RC130]: unknown tile 299a"
    assert lines[1].endswith("|   299a")
    assert lines[2].endswith("|   ^~~~")
    assert lines[3].startswith("  hint: did you mean")


def test_check_folder_is_searched_recursively_and_reports_several_errors(project):
    r = run("check", str(project))
    assert r.exit_code == 1
    assert "error[RC130]" in r.output and "error[RC107]" in r.output
    assert "2 error(s)" in r.output


def test_check_stdin(project):
    r = run("check", "-", input="stage A {\n  202a\n  299a\n}\n")
    assert r.exit_code == 1
    assert "<stdin>:3:3: error[RC130]" in r.output
    assert run("check", "-", input=GOOD).exit_code == 0


def test_check_missing_path_exits_2(project):
    r = run("check", str(project / "nope.rally"))
    assert r.exit_code == 2
    assert f"error[RC001]: no such file or folder: {project / 'nope.rally'}" in r.output


def test_check_folder_without_rally_files_exits_2(tmp_path):
    assert run("check", str(tmp_path)).exit_code == 2


def test_check_missing_path_wins_over_problems(project):
    assert run("check", str(project), str(project / "nope")).exit_code == 2


def test_check_unknown_format_is_a_usage_error(project):
    assert run("check", "--format", "xml", str(project)).exit_code == 2


def test_check_json_validates_against_schema(project):
    r = run("check", "--format", "json", str(project))
    assert r.exit_code == 1
    doc = json.loads(r.output)
    validate(doc, "diagnostics.schema.json")
    assert doc["summary"]["errors"] == 2
    assert [d["code"] for d in doc["diagnostics"] if d["severity"] == "error"] == ["RC107", "RC130"]
    assert len(doc["files"]) == 3


def test_check_json_is_deterministic(project):
    a = run("check", "--format", "json", str(project)).output
    b = run("check", "--format", "json", str(project)).output
    assert a == b


def test_check_sarif_validates_against_sarif_2_1_0_subset(project):
    r = run("check", "--format", "sarif", str(project))
    assert r.exit_code == 1
    log = json.loads(r.output)
    validate(log, "sarif-2.1.0-subset.schema.json")
    assert log["version"] == "2.1.0"
    driver = log["runs"][0]["tool"]["driver"]
    assert "informationUri" not in driver
    assert {"RC107", "RC130"} <= {rule["id"] for rule in driver["rules"]}
    res = [x for x in log["runs"][0]["results"] if x["ruleId"] == "RC130"]
    assert res[0]["level"] == "error"
    assert res[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 4


def test_sarif_of_the_whole_bad_corpus_validates():
    r = run("check", "--format", "sarif", str(BAD))
    assert r.exit_code == 1
    validate(json.loads(r.output), "sarif-2.1.0-subset.schema.json")


def test_sarif_schema_rejects_what_sarif_forbids():
    """The bundled subset is not a rubber stamp: wrong version, levels and lines fail."""
    good = json.loads(run("check", "--format", "sarif", str(BAD / "unknown-tile.rally")).output)
    for path, bad_value in ((("version",), "2.0.0"), (("runs", 0, "results", 0, "level"), "fatal"),
                            (("runs", 0, "results", 0, "locations", 0, "physicalLocation", "region",
                              "startLine"), 0)):
        doc = json.loads(json.dumps(good))
        target = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = bad_value
        with pytest.raises(jsonschema.ValidationError):
            validate(doc, "sarif-2.1.0-subset.schema.json")


def test_check_output_file(project, tmp_path):
    out = tmp_path / "report.json"
    r = run("check", "--format", "json", "--output", str(out), str(project / "good.rally"))
    assert r.exit_code == 0
    validate(json.loads(out.read_text()), "diagnostics.schema.json")


def test_check_binary_file_is_located_not_a_traceback(tmp_path):
    f = tmp_path / "x.rally"
    f.write_bytes(b"\x89PNG\x00\x00garbage")
    r = run("check", str(f))
    assert r.exit_code == 1
    assert "error[RC102]" in r.output and "Traceback" not in r.output


# ------------------------------------------------------------------ fmt

def test_fmt_rewrites_in_place(tmp_path):
    f = tmp_path / "a.rally"
    f.write_text(MESSY, encoding="utf-8")
    r = run("fmt", str(f))
    assert r.exit_code == 0
    assert f.read_text() == "stage Hill {\n  202a  # start\n  210b left\n}\n"
    assert run("fmt", "--check", str(f)).exit_code == 0


def test_fmt_check_lists_files_and_writes_nothing(tmp_path):
    f = tmp_path / "a.rally"
    f.write_text(MESSY, encoding="utf-8")
    r = run("fmt", "--check", str(tmp_path))
    assert r.exit_code == 1
    assert f"would reformat {f}" in r.output
    assert f.read_text() == MESSY


def test_fmt_diff_prints_unified_diff_and_writes_nothing(tmp_path):
    f = tmp_path / "a.rally"
    f.write_text(MESSY, encoding="utf-8")
    r = run("fmt", "--diff", str(f))
    assert r.exit_code == 0
    assert f"--- a/{f}" in r.output and "+  202a  # start" in r.output
    assert f.read_text() == MESSY


def test_fmt_never_rewrites_a_file_with_syntax_errors(tmp_path):
    f = tmp_path / "bad.rally"
    shutil.copy(BAD / "bad-turn-word.rally", f)
    before = f.read_bytes()
    r = run("fmt", str(f))
    assert r.exit_code == 1
    assert "error[RC107]" in r.output and "not formatted" in r.output
    assert f.read_bytes() == before


def test_fmt_stdin_to_stdout():
    r = run("fmt", "-", input=MESSY)
    assert r.exit_code == 0
    assert r.stdout == "stage Hill {\n  202a  # start\n  210b left\n}\n"


def test_fmt_missing_file_exits_2(tmp_path):
    assert run("fmt", str(tmp_path / "nope.rally")).exit_code == 2


def test_fmt_check_passes_on_every_rally_file_of_the_repository():
    """Issue 2: `rallyc fmt --check` passes on every (valid) file in the repository."""
    paths = [str(ROOT / d) for d in ("tilesets", "examples") if list((ROOT / d).rglob("*.rally"))]
    r = run("fmt", "--check", *paths)
    assert r.exit_code == 0, r.output


# ------------------------------------------------------------------ explain

def test_explain_prints_summary_example_fix_and_rules():
    r = run("explain", "RC143")
    assert r.exit_code == 0
    assert r.output.startswith("RC143 (error): bad option value")
    assert "Example:" in r.output and "Fix:" in r.output and "CORE-ADV-15" in r.output


def test_explain_accepts_lowercase_and_bare_number():
    assert run("explain", "rc130").output == run("explain", "130").output


def test_explain_unknown_code_exits_2_with_did_you_mean():
    r = run("explain", "RC1300")
    assert r.exit_code == 2
    assert "did you mean" in r.output


def test_explain_without_code_lists_codes():
    r = run("explain")
    assert r.exit_code == 0
    assert "RC130" in r.output and "RC001" in r.output


@pytest.mark.parametrize("command", ["check", "fmt", "explain"])
def test_help_has_examples(command):
    r = run(command, "--help")
    assert r.exit_code == 0
    assert "Examples:" in r.output and f"rallyc {command}" in r.output


def test_version():
    r = run("--version")
    assert r.exit_code == 0 and r.output.startswith("rallyc ")


def test_readme_language_example_checks_clean_and_is_formatted(tmp_path):
    """The complete example of the README's language section passes check and fmt --check."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("<!-- lang:start -->")[1].split("<!-- lang:end -->")[0]
    example = section.split("```rally\n")[1].split("```")[0]
    f = tmp_path / "my-rally.rally"
    f.write_text(example, encoding="utf-8")
    r = run("check", str(f))
    assert r.exit_code == 0 and "error[" not in r.output and "warning[" not in r.output, r.output
    assert run("fmt", "--check", str(f)).exit_code == 0
