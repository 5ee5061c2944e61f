"""The documented CI recipe (docs/ci-workflow.yml): its steps, and its render step run in a scratch repository."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import yaml

from helpers.paths import ROOT

WORKFLOW = yaml.safe_load((ROOT / "docs" / "ci-workflow.yml").read_text(encoding="utf-8"))
STEPS = {s.get("name", s.get("uses")): s for s in WORKFLOW["jobs"]["tracks"]["steps"]}
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@rallyc.invalid", "-c", "init.defaultBranch=main",
       "-c", "commit.gpgsign=false"]


def test_the_recipe_checks_uploads_sarif_and_maps():
    assert "rallyc check . --format github" in STEPS["Check every track (annotations)"]["run"]
    assert "--format sarif --output rallyc.sarif" in STEPS["Check every track (SARIF)"]["run"]
    assert STEPS["Upload SARIF"]["uses"].startswith("github/codeql-action/upload-sarif@")
    assert STEPS["Upload SARIF"]["with"]["sarif_file"] == "rallyc.sarif"
    assert STEPS["Upload the maps"]["with"]["path"] == "maps/"


STAGE = "stage {name} {{\n  202a\n  210b left\n  205a\n  227a right\n  213a right\n  203a\n}}\n"


def _render(work: Path, base: str) -> list[str]:
    env = dict(os.environ, BASE=base, PATH=os.pathsep.join([str(Path(sys.executable).parent),
                                                             os.environ.get("PATH", "")]),
               GIT_CONFIG_GLOBAL=os.devnull)
    script = STEPS["Render the changed stages"]["run"].replace("python -c", f'"{sys.executable}" -c')
    done = subprocess.run(["bash", "-eo", "pipefail", "-c", script], cwd=work, env=env, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    return sorted(p.name for p in (work / "maps").glob("*.svg"))


def test_the_render_step_draws_the_changed_stages(tmp_path):
    work = tmp_path
    subprocess.run(GIT + ["init", "-q"], cwd=work, check=True)
    (work / "old.rally").write_text(STAGE.format(name="SS1"), encoding="utf-8")
    subprocess.run(GIT + ["add", "-A"], cwd=work, check=True)
    subprocess.run(GIT + ["commit", "-qm", "one"], cwd=work, check=True)
    base = subprocess.run(GIT + ["rev-parse", "HEAD"], cwd=work, check=True, capture_output=True,
                          text=True).stdout.strip()
    (work / "tracks").mkdir()
    (work / "tracks" / "new.rally").write_text(STAGE.format(name="SS1") + STAGE.format(name="SS2"),
                                              encoding="utf-8")
    subprocess.run(GIT + ["add", "-A"], cwd=work, check=True)
    subprocess.run(GIT + ["commit", "-qm", "two"], cwd=work, check=True)
    assert _render(work, base) == ["new-SS1.svg", "new-SS2.svg"]
    svg = (work / "maps" / "new-SS2.svg").read_text(encoding="utf-8")
    assert svg.lstrip().startswith("<?xml") or svg.lstrip().startswith("<svg")
    # a first push (no base): every track
    for p in (work / "maps").iterdir():
        p.unlink()
    assert _render(work, "") == ["new-SS1.svg", "new-SS2.svg", "old-SS1.svg"]
