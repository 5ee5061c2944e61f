"""docs/architecture.md names where each part of rallyc lives: every path it names exists, it names the parts a
reader looks for, and its picture is drawn from its table (``python docs/architecture.py``)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "architecture.md"

#: a path of the repository as the page writes it in backticks: a top-level folder, then a file or a folder
PATH = re.compile(r"`((?:rallyc|grammar|tilesets|schemas|examples|docs|tests|benchmarks)/[\w./-]*)`")
#: a module written with dots (``rallyc.rules.engine``)
MODULE = re.compile(r"`(rallyc(?:\.\w+)+)`")


def _architecture():
    spec = importlib.util.spec_from_file_location("architecture", ROOT / "docs" / "architecture.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_path_the_page_names_exists():
    """Each path in backticks exists and is no deprecated alias; each dotted module has its file."""
    text = PAGE.read_text(encoding="utf-8")
    paths = sorted(set(PATH.findall(text)))
    assert len(paths) >= 40, paths  # the page names some sixty: a page parsed to nothing fails here
    assert [p for p in paths if not (ROOT / p).exists()] == []
    # where the code lives, not a deprecated alias left at an old path (their docstrings say "Deprecated")
    aliases = [p for p in paths if p.endswith(".py") and (ROOT / p).read_text(encoding="utf-8").startswith('"""Deprecated')]
    assert aliases == []
    modules = sorted(set(MODULE.findall(text)))
    missing = [m for m in modules if not (ROOT / Path(*m.split("."))).with_suffix(".py").is_file()
               and not (ROOT / Path(*m.split(".")) / "__init__.py").is_file()]
    assert missing == []


def test_the_page_names_the_module_of_each_part():
    table = _architecture().parts(PAGE.read_text(encoding="utf-8"))
    wanted = ["language", "compiler", "checks", "core turn", "RX race's order of play", "custom races", "drivers",
              "records", "analysis", "render", "lsp", "table", "interop", "commands"]
    assert [p for p in wanted if not table.get(p)] == []
    assert any(p.startswith("rallyc/rules/") for p in table["core turn"])


def test_the_picture_is_drawn_from_the_table():
    architecture = _architecture()
    drawn = architecture.svg(architecture.parts(PAGE.read_text(encoding="utf-8")))
    assert (ROOT / "docs" / "img" / "architecture.svg").read_text(encoding="utf-8") == drawn, \
        "docs/img/architecture.svg is stale: python docs/architecture.py"
    assert "img/architecture.svg" in PAGE.read_text(encoding="utf-8")
