"""The pre-commit hooks (``.pre-commit-hooks.yaml``) run by pre-commit itself, offline, on a scratch repository.

The hook repository is a copy of this checkout committed to a scratch git repository (so uncommitted work is
tested too). Two modes, the same assertions:

- with ``RALLYC_WHEELHOUSE`` (``.ci/run`` builds it with ``pip wheel``) or ``RALLYC_SLOW=1``: pre-commit
  installs the hooks as published (``language: python``) from that wheel folder with ``PIP_NO_INDEX``
  (under ``RALLYC_SLOW=1`` without a folder, the test builds one: the only step that may use the index);
- otherwise (the quick default run) the copy's manifest says ``language: system`` and the hooks run the
  ``rallyc`` of this environment; entries, file patterns and behaviour are the manifest's own.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from helpers.paths import EXAMPLES, ROOT
from rallyc.syntax.formatter import format_text

GIT = ["git", "-c", "user.name=rallyc tests", "-c", "user.email=tests@rallyc.invalid", "-c", "init.defaultBranch=main",
       "-c", "commit.gpgsign=false"]
COPY = ("pyproject.toml", "README.md", ".pre-commit-hooks.yaml", "rallyc", "grammar", "tilesets", "schemas", "examples")


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(GIT + list(args), cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


#: install the hooks as published (from a wheel folder), or run this environment's rallyc
INSTALL = bool(os.environ.get("RALLYC_WHEELHOUSE") or os.environ.get("RALLYC_SLOW"))


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory) -> tuple[Path, str]:
    repo = tmp_path_factory.mktemp("hooks")
    for name in COPY:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, repo / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(src, repo / name)
    if not INSTALL:
        manifest = repo / ".pre-commit-hooks.yaml"
        hooks = yaml.safe_load(manifest.read_text(encoding="utf-8"))
        for h in hooks:
            h["language"] = "system"
        manifest.write_text(yaml.safe_dump(hooks), encoding="utf-8")
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "rallyc")
    return repo, _git(repo, "rev-parse", "HEAD")


@pytest.fixture(scope="module")
def wheelhouse(tmp_path_factory, hook_repo) -> Path | None:
    if not INSTALL:
        return None
    given = os.environ.get("RALLYC_WHEELHOUSE")
    if given:
        return Path(given)
    folder = tmp_path_factory.mktemp("wheels")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--wheel-dir", str(folder), str(hook_repo[0]),
                    "setuptools>=68", "wheel"], check=True, capture_output=True, text=True)
    return folder


@pytest.fixture(scope="module")
def scratch(tmp_path_factory, hook_repo, wheelhouse):
    repo, rev = hook_repo
    work = tmp_path_factory.mktemp("club")
    _git(work, "init", "-q")
    config = {"repos": [{"repo": str(repo), "rev": rev, "hooks": [{"id": "rallyc-fmt"}, {"id": "rallyc-check"}]}]}
    (work / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    env = dict(os.environ, PIP_NO_INDEX="1", PIP_FIND_LINKS=str(wheelhouse or work),
               PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]),
               PRE_COMMIT_HOME=str(tmp_path_factory.mktemp("pre-commit-home")), GIT_CONFIG_GLOBAL=os.devnull,
               GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@rallyc.invalid", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@rallyc.invalid")
    env.pop("PIP_REQUIRE_VIRTUALENV", None)

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "pre_commit", *args], cwd=work, env=env, capture_output=True,
                              text=True)

    return work, run


def test_the_manifest_names_both_hooks():
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert {h["id"]: h["entry"] for h in hooks} == {"rallyc-check": "rallyc check", "rallyc-fmt": "rallyc fmt"}
    assert all(h["files"] == r"\.rally$" and h["language"] == "python" for h in hooks)


def test_hooks_pass_a_clean_file_and_stop_a_bad_one(scratch):
    work, run = scratch
    good = (EXAMPLES / "rally-1.rally").read_text(encoding="utf-8")
    (work / "good.rally").write_text(good, encoding="utf-8")
    (work / "notes.txt").write_text("not a track\n", encoding="utf-8")
    first = run("run", "--files", "good.rally", "notes.txt")
    assert first.returncode == 0, first.stdout + first.stderr
    assert "rallyc check" in first.stdout and "Passed" in first.stdout
    (work / "bad.rally").write_text("stage SS1 {\n  202a\n  299a left\n  203a\n}\n", encoding="utf-8")
    bad = run("run", "rallyc-check", "--files", "bad.rally")
    assert bad.returncode == 1
    assert "bad.rally:3:3: error[RC130]" in bad.stdout


def test_fmt_hook_rewrites_and_then_passes(scratch):
    work, run = scratch
    messy = "stage   SS1 {\n202a\n  210b    left\n    203a\n}\n"
    (work / "messy.rally").write_text(messy, encoding="utf-8")
    _git(work, "add", "messy.rally")  # pre-commit sees a hook's changes in tracked files
    changed = run("run", "rallyc-fmt", "--files", "messy.rally")
    assert changed.returncode == 1 and "files were modified by this hook" in changed.stdout
    assert (work / "messy.rally").read_text(encoding="utf-8") == format_text(messy)[0]
    again = run("run", "rallyc-fmt", "--files", "messy.rally")
    assert again.returncode == 0, again.stdout
