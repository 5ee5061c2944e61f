"""Where rallyc keeps its user cache: each platform's folder for a user's caches (``~/.cache`` is wrong on macOS and
Windows), ``$XDG_CACHE_HOME`` still overriding it everywhere, and a real command writing there."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers.paths import ROOT
from rallyc.cache.folder import cache_folder_for

HOME = os.path.join(os.sep, "users", "ann")
XDG = os.path.join(HOME, "xdg-cache")


@pytest.mark.parametrize("platform,environ,want", [
    ("linux", {}, os.path.join(HOME, ".cache", "rallyc")),
    ("darwin", {}, os.path.join(HOME, "Library", "Caches", "rallyc")),
    ("win32", {"LOCALAPPDATA": os.path.join("C:", "Users", "ann", "AppData", "Local")},
     os.path.join("C:", "Users", "ann", "AppData", "Local", "rallyc", "Cache")),
    ("win32", {}, os.path.join(HOME, "AppData", "Local", "rallyc", "Cache")),
    ("freebsd14", {}, os.path.join(HOME, ".cache", "rallyc")),
    # the old override keeps working on every platform
    ("linux", {"XDG_CACHE_HOME": XDG}, os.path.join(XDG, "rallyc")),
    ("darwin", {"XDG_CACHE_HOME": XDG}, os.path.join(XDG, "rallyc")),
    ("win32", {"XDG_CACHE_HOME": XDG, "LOCALAPPDATA": "L"}, os.path.join(XDG, "rallyc")),
    # an empty variable is no override
    ("darwin", {"XDG_CACHE_HOME": ""}, os.path.join(HOME, "Library", "Caches", "rallyc")),
])
def test_the_cache_folder_follows_the_platform(platform, environ, want):
    assert cache_folder_for(platform, environ, HOME) == want


def _check(env: dict[str, str]) -> None:
    subprocess.run([sys.executable, "-m", "rallyc", "check", "examples/rally-1.rally"], cwd=ROOT, env=env,
                   capture_output=True, check=True)


def test_a_check_keeps_its_result_in_the_users_cache_folder(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("XDG_CACHE_HOME", "RALLYC_NO_CACHE")}
    env["HOME"] = str(tmp_path)
    _check(env)
    folder = Path(cache_folder_for(sys.platform, {}, str(tmp_path)))
    assert list((folder / "checks").glob("*.pickle"))
    # RALLYC_NO_CACHE=1 keeps nothing
    other = tmp_path / "other"
    _check(dict(env, HOME=str(other), RALLYC_NO_CACHE="1"))
    assert not other.exists()
