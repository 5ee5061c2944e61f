"""The wheel carries every package: pyproject.toml lists each folder of rallyc/ that has an __init__.py.

A package left out installs fine and fails only where it is imported (as rallyc.model once did, found by the
pre-commit test that installs the hooks from a wheel)."""

from __future__ import annotations

import tomllib

from helpers.paths import ROOT


def test_every_package_is_in_the_wheel():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "rallyc").rglob("__init__.py")}
    assert found - listed == set()
