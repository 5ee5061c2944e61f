"""editors/: the TextMate grammar and the VS Code language files read every published track sensibly."""

from __future__ import annotations

import json
import re

import pytest

from helpers.paths import EXAMPLES, ROOT
from rallyc.project.loader import load

VSCODE = ROOT / "editors" / "vscode"
GRAMMAR = json.loads((VSCODE / "syntaxes" / "rallyc.tmLanguage.json").read_text(encoding="utf-8"))


def _patterns(node) -> list[tuple[str, str]]:
    """(scope name, regex) of every `match` rule in the grammar."""
    out = []
    if isinstance(node, dict):
        if "match" in node:
            out.append((node.get("name", ""), node["match"]))
        for v in node.values():
            out += _patterns(v)
    elif isinstance(node, list):
        for v in node:
            out += _patterns(v)
    return out


def test_the_extension_wires_the_grammar():
    pkg = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    (lang,) = pkg["contributes"]["languages"]
    (grammar,) = pkg["contributes"]["grammars"]
    assert lang["id"] == grammar["language"] == "rallyc" and lang["extensions"] == [".rally"]
    assert (VSCODE / grammar["path"]).is_file() and grammar["scopeName"] == GRAMMAR["scopeName"]
    assert json.loads((VSCODE / lang["configuration"]).read_text(encoding="utf-8"))["comments"]["lineComment"] == "#"


def test_every_rule_compiles():
    rules = _patterns(GRAMMAR)
    assert len(rules) > 15
    for _, rx in rules:
        re.compile(rx)


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.rally")), ids=lambda p: p.name)
def test_steps_comments_and_keywords_are_coloured(path):
    step = re.compile(GRAMMAR["repository"]["step"]["match"])
    comment = re.compile(GRAMMAR["repository"]["comment"]["match"])
    keywords = re.compile(GRAMMAR["repository"]["statement"]["patterns"][0]["match"])
    lines = path.read_text(encoding="utf-8").split("\n")
    loaded = load(path)
    designs = (loaded.root.stages + loaded.root.circuits + loaded.root.areas
               + [s for r in loaded.root.rallies for s in r.stages])
    steps = [s for d in designs for s in d.steps]
    assert steps
    for s in steps:
        line = lines[s.span.line - 1]
        m = step.search(line, s.span.column - 1)
        assert m and m.start() == s.span.column - 1 and m.group(1) == s.tile.text, (path.name, line)
    for line in lines:
        if line.lstrip().startswith("#"):
            assert comment.search(line).start() == line.index("#")
        first = line.split("#")[0].split()
        if first and first[0] in ("scenery", "token", "source", "laps", "standee", "joker", "pregrid", "options"):
            assert keywords.match(line.strip()), line
