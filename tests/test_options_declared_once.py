"""Options are declared once, in the registry (rallyc.model.options): what else names them follows it.

Each test fails when an option is added to (or renamed in) the registry without the place that repeats it, or
declared somewhere the registry does not know."""

from __future__ import annotations

import ast
import re
from dataclasses import fields
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rallyc.commands.cli import app
from rallyc.model.options import OPTIONS, Chooser, OptionSpec, Variant, rule_span
from rallyc.rules import Options

ROOT = Path(__file__).resolve().parents[1]
GAME_OPTIONS = [o for o in OPTIONS.values() if o.in_options_line]


def test_the_referees_options_are_the_registrys_game_options():
    """One field per game option, under the records' spelling (laps is the circuit's, a statement of its own)."""
    assert sorted(f.name for f in fields(Options)) == sorted(o.record_name for o in GAME_OPTIONS)


def test_a_switch_is_a_bool_and_a_worded_option_its_word():
    """The field's type follows the registry; the referee keeps only whether the Weather rule is played."""
    types = {f.name: f.type for f in fields(Options)}
    expected = {o.record_name: "bool" if o.is_switch or o.name == "weather" else "str | None" for o in GAME_OPTIONS}
    assert types == expected


@pytest.mark.parametrize("spec", GAME_OPTIONS, ids=lambda o: o.name)
def test_every_game_option_is_read_from_a_record_and_checked_against_its_words(spec):
    on = Options.from_dict({spec.name: True})
    assert [o.name for o in on.specs_on()] == [spec.name]
    assert on.to_dict()[spec.record_name] in (True, *(spec.values or ()))
    if spec.values is not None and spec.name != "weather":
        with pytest.raises(ValueError):
            Options.from_dict({spec.record_name: "no-such-word"})


def test_the_options_flag_of_play_and_serve_lists_every_game_option_with_its_words():
    runner = CliRunner()
    for command in ("play", "serve"):
        result = runner.invoke(app, [command, "--help"], env={"COLUMNS": "400", "NO_COLOR": "1", "TERM": "dumb"})
        assert result.exit_code == 0, result.output
        text = re.sub(r"\s+", " ", re.sub(r"[│╭╮╰╯─]", " ", result.output))
        for spec in GAME_OPTIONS:
            assert spec.record_name in text, (command, spec.name)
            for word in spec.values or ():
                assert word in text, (command, spec.name, word)


@pytest.mark.parametrize("given, said", [("sisu=per-lap", "`sisu` takes per-stage, per-rally, assistance, not 'per-lap'"),
                                         ("flyingstart", "unknown option `flyingstart`")])
def test_the_options_flag_is_checked_by_the_registry(given, said):
    result = CliRunner().invoke(app, ["play", str(ROOT / "examples/rally-1.rally"), "--players", "Ann,Bob", "--options", given])
    assert result.exit_code == 2
    assert f"--options: {said}" in result.output


def test_no_module_but_the_registry_writes_out_an_options_words():
    """A tuple or list of the words of a registry option in its order (``("dirt", "gt", "light")``) is a second
    declaration of them: the module reads ``OPTIONS[name].values`` instead."""
    words = {o.values: o.name for o in OPTIONS.values() if o.values is not None and len(o.values) > 1}
    found = []
    for path in sorted((ROOT / "rallyc").rglob("*.py")):
        if path == ROOT / "rallyc/model/options.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Tuple, ast.List)) and node.elts and \
                    all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts):
                name = words.get(tuple(e.value for e in node.elts))
                if name is not None:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: the words of `{name}`")
    assert found == []


def _documented(spec: OptionSpec) -> list[str]:
    """The first columns of docs/options.md's row of ``spec``, as the registry gives them."""
    if spec.integer:
        values = "a whole number (`laps N`)"
    elif spec.values is None:
        values = "switch"
    else:
        values = " \\| ".join(spec.values) + (" (may be left out: the first)" if spec.value_optional else "")
    chooser = "the design (fixed)" if spec.chooser is Chooser.DESIGN else "the players (design = default)"
    variants = ", ".join(v.value for v in Variant if v in spec.variants)
    return [f"`{spec.name}`" + ("" if spec.in_options_line else " (own statement)"), f"`{spec.record_name}`", values,
            rule_span(spec.rules), chooser, variants]


def test_the_documented_table_of_options_is_the_registrys():
    """docs/options.md's table: one row per option, in the registry's order; its columns as the registry says (the
    last one may add a note after the variants)."""
    text = (ROOT / "docs/options.md").read_text(encoding="utf-8")
    rows = [[c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]] for line in text.splitlines()
            if line.startswith("| `")]
    expected = [_documented(o) for o in OPTIONS.values()]
    assert [r[:5] for r in rows] == [e[:5] for e in expected]
    assert [(r[0], r[5]) for r, e in zip(rows, expected)
            if not (r[5].startswith(e[5]) and r[5][len(e[5]):][:2] in ("", " ("))] == []
