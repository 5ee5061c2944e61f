"""Extras (issue 32): the README's first command installs the runtime only, its test command the test extras; a
command whose feature lives in an extra that is missing says how to install it, with exit 2."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_readme_installs_the_runtime_first_and_the_test_extras_with_the_tests():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first_block = re.search(r"```sh\n(.*?)```", readme, re.S)
    assert first_block is not None
    install, tests = first_block.group(1).splitlines()
    assert "pip install . " in install and "[" not in install.split("#")[0]
    assert "pip install '.[test]'" in tests and "pytest" in tests
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert ci.index('pip install -q .\n') < ci.index("rallyc check examples/") < ci.index('pip install -q ".[test]"')


def test_the_runtime_is_six_dependencies_and_the_features_are_extras():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert sorted(re.split(r"[<>=]", d)[0] for d in project["dependencies"]) == [
        "jsonschema", "jsonschema-rs", "lark", "networkx", "svgwrite", "typer"]
    extras = project["optional-dependencies"]
    assert {"pdf", "lsp", "test"} <= set(extras)
    # the test extras hold every feature's dependencies, so the tests run them all
    for name in ("pdf", "lsp"):
        assert set(extras[name]) <= set(extras["test"]), name


def test_a_missing_extra_is_named_with_exit_2():
    code = ("import sys\nsys.modules['pygls'] = None  # as if the lsp extra were not installed\n"
            "from rallyc.__main__ import main\nsys.argv = ['rallyc', 'lsp']\nmain()")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert p.stderr.startswith("rallyc lsp: the language server needs pygls 2 (")
    assert p.stderr.rstrip().endswith("install it with pip install 'rallyc[lsp]'")
