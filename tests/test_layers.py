"""The import contracts (.importlinter) hold, and the lower layers import rallyc only at module level."""

from __future__ import annotations

import ast
from pathlib import Path

from importlinter.cli import EXIT_STATUS_SUCCESS, lint_imports

ROOT = Path(__file__).resolve().parent.parent

#: the layers below the referee, render, interop and the CLI: no import of rallyc inside a function
LOWER = ("rallyc/syntax", "rallyc/tiles", "rallyc/geometry", "rallyc/compiler", "rallyc/checks", "rallyc/codes",
         "rallyc/project.py", "rallyc/pipeline.py", "rallyc/diagnostics.py", "rallyc/fileio.py",
         "rallyc/resources.py", "rallyc/version.py")


def _files():
    for name in LOWER:
        path = ROOT / name
        yield from sorted(path.rglob("*.py")) if path.is_dir() else [path]


def test_import_contracts_are_kept(monkeypatch):
    monkeypatch.chdir(ROOT)
    status = lint_imports(config_filename=str(ROOT / ".importlinter"), no_cache=True, no_logo=True)
    assert status == EXIT_STATUS_SUCCESS


def test_no_function_level_import_of_rallyc_below_the_referee():
    """A function-level import in these layers would only be there to dodge a cycle."""
    found = []
    for path in _files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(fn):
                names = [node.module or ""] if isinstance(node, ast.ImportFrom) else \
                    [a.name for a in node.names] if isinstance(node, ast.Import) else []
                if any(n == "rallyc" or n.startswith("rallyc.") for n in names):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []
