"""``rallyc check --format github|gitlab``: annotations GitHub reads and a Code Quality report GitLab reads."""

from __future__ import annotations

import json
import re

from typer.testing import CliRunner

from helpers.paths import BAD
from rallyc.diagnostics.ci_formats import render_github, render_gitlab
from rallyc.commands.cli import app
from rallyc.diagnostics import Diagnostic, Span

RUN = CliRunner()

#: a workflow command: ::level props::message (GitHub Actions toolkit)
COMMAND = re.compile(r"^::(error|warning|notice) ((?:[a-zA-Z]+=[^,:]*)(?:,[a-zA-Z]+=[^,:]*)*)::(.*)$")

STAGE = "stage SS1 {\n  202a\n  299a left\n  205a\n  203a\n}\n"


def _props(text: str) -> dict[str, str]:
    return dict(p.split("=", 1) for p in text.split(","))


def test_github_annotations_for_the_bad_corpus():
    res = RUN.invoke(app, ["check", str(BAD), "--format", "github"])
    assert res.exit_code == 1
    lines = res.stdout.splitlines()
    assert len(lines) > 20
    for line in lines:
        m = COMMAND.match(line)
        assert m, line
        props = _props(m.group(2))
        assert props["title"].startswith("rallyc (RC")
        if "file" in props:
            assert int(props["line"]) >= 1 and int(props["col"]) >= 1
            assert int(props["endLine"]) >= int(props["line"])
        assert "\n" not in m.group(3)


def test_github_escapes_and_levels(tmp_path):
    f = tmp_path / "a,b:c.rally"
    f.write_text(STAGE)
    res = RUN.invoke(app, ["check", str(f), "--format", "github"])
    assert res.exit_code == 1
    err = next(l for l in res.stdout.splitlines() if "RC130" in l)
    m = COMMAND.match(err)
    assert m and m.group(1) == "error"
    props = _props(m.group(2))
    assert props["file"].endswith("a%2Cb%3Ac.rally") and props["line"] == "3" and props["col"] == "3"
    assert "%0Ahint: " in m.group(3)  # the hint on a second line of the annotation
    warn = render_github([Diagnostic.warning("RC308", "100% short", Span("x.rally", 1, 1, 1, 2))])
    assert warn.startswith("::warning ") and "100%25 short" in warn
    assert render_github([Diagnostic.error("RC001", "no such file: x", None)]) == \
        "::error title=rallyc (RC001)::RC001 no such file: x\n"


def test_gitlab_code_quality_report(tmp_path):
    f = tmp_path / "s.rally"
    f.write_text(STAGE)
    res = RUN.invoke(app, ["check", str(f), "--format", "gitlab"])
    assert res.exit_code == 1
    issues = json.loads(res.stdout)
    assert issues and all(set(i) >= {"description", "check_name", "fingerprint", "severity", "location"}
                          for i in issues)
    unknown = next(i for i in issues if i["check_name"] == "RC130")
    assert unknown["severity"] == "major" and unknown["location"]["path"] == str(f)
    assert unknown["location"]["positions"]["begin"] == {"line": 3, "column": 3}
    assert len({i["fingerprint"] for i in issues}) == len(issues)
    # same input, same bytes; a line added above keeps the fingerprints
    again = RUN.invoke(app, ["check", str(f), "--format", "gitlab"])
    assert again.stdout == res.stdout
    f.write_text("# a comment\n" + STAGE)
    moved = json.loads(RUN.invoke(app, ["check", str(f), "--format", "gitlab"]).stdout)
    assert {i["fingerprint"] for i in moved} == {i["fingerprint"] for i in issues}
    assert next(i for i in moved if i["check_name"] == "RC130")["location"]["positions"]["begin"]["line"] == 4


def test_gitlab_numbers_repeated_problems():
    d = Diagnostic.error("RC206", "overlap", Span("x.rally", 1, 1, 1, 2))
    e = Diagnostic.error("RC206", "overlap", Span("x.rally", 5, 1, 5, 2))
    issues = json.loads(render_gitlab([d, e]))
    assert len({i["fingerprint"] for i in issues}) == 2
    assert json.loads(render_gitlab([])) == []


def test_clean_files_give_empty_reports(examples_dir):
    gh = RUN.invoke(app, ["check", str(examples_dir / "rally-1.rally"), "--format", "github"])
    assert gh.exit_code == 0 and gh.stdout == ""
    gl = RUN.invoke(app, ["check", str(examples_dir / "rally-1.rally"), "--format", "gitlab"])
    assert gl.exit_code == 0 and json.loads(gl.stdout) == []
