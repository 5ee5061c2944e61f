"""`rallyc explain RULE-ID`: every rule of the inventory has a statement in rallyc's words, inside the package."""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rallyc.commands.cli import app
from rallyc.codes.explain import explain_text
from rallyc.data import rulebook

ROOT = Path(__file__).resolve().parent.parent
#: the repository's copy of the rule inventory (tests never read outside the repository)
_ROWS = re.findall(r"^\| ([A-Z][A-Z0-9-]*-\d+) \| (.*?) \| (.*?) \| (\w+) \|$",
                   (ROOT / "tests/data/rules/INVENTORY.md").read_text(encoding="utf-8"), re.M)
INVENTORY = {rid: (rule, source, kind) for rid, rule, source, kind in _ROWS}


def _explain(*args: str):
    r = CliRunner().invoke(app, ["explain", *args])
    return r.exit_code, r.stdout, r.stderr


def test_every_inventory_id_has_a_statement_and_nothing_else_does():
    assert len(INVENTORY) == 419
    assert list(rulebook.statements()) == list(INVENTORY)


def test_statements_keep_the_group_section_and_kind():
    for rid, (_, source, kind) in INVENTORY.items():
        s = rulebook.statements()[rid]
        assert (s.group, s.section, s.kind) == (rid.rsplit("-", 1)[0], source, kind), rid
        assert s.book == source.split(":", 1)[0] and s.book in rulebook.BOOKS


def test_statements_are_paraphrases_not_copies():
    """Each statement is rallyc's own wording: not the inventory's sentence, nor a near copy of it."""
    copies = [rid for rid, (rule, _, _) in INVENTORY.items()
              if SequenceMatcher(None, rulebook.statements()[rid].statement.lower(), rule.lower()).ratio() > 0.95]
    assert copies == []
    assert all(len(s.statement) >= 10 for s in rulebook.statements().values())


@pytest.mark.parametrize("rule_id, words", [
    ("CORE-JUMP-04", ["two spaces on", "Loss of Control", "Section: Core: Other Terrain > Jumps"]),
    ("MC-HANDBRAKE-01", ["outside", "inside", "Monte-Carlo rulebook", "kind: option"]),
    ("RX-JOKER-04", ["disqualified", "RX rulebook", "The Joker lap"]),
])
def test_explain_a_core_an_mc_and_an_rx_rule(rule_id, words):
    code, out, _ = _explain(rule_id)
    assert code == 0
    assert out.startswith(rule_id + " (")
    for w in words:
        assert w in out


def test_explain_accepts_any_case_and_a_short_number():
    assert _explain("core-jump-4")[1] == _explain("CORE-JUMP-04")[1]


def test_explain_says_a_reading_is_a_reading():
    assert "Basis: our reading of an ambiguous passage" in _explain("CORE-DICE-18")[1]


def test_a_mistyped_rule_id_gets_a_did_you_mean_and_exit_2():
    # written in lower case: the rule-coverage test counts upper-case IDs named in tests
    code, out, err = _explain("core-jumpp-04")
    assert code == 2 and out == ""
    assert "unknown rule or code core-jumpp-04; did you mean CORE-JUMP-04" in err


def test_an_unknown_rule_id_exit_2():
    code, _, err = _explain("nothing-01")
    assert code == 2 and "rule IDs look like CORE-JUMP-04" in err


def test_a_word_that_is_no_rule_id_is_an_unknown_code():
    code, _, err = _explain("nothing")
    assert code == 2 and "unknown code nothing" in err


def test_codes_are_explained_as_before():
    code, out, _ = _explain("RC130")
    assert code == 0 and out == explain_text("RC130")
    assert _explain("130")[1] == out
    code, _, err = _explain("RC999")
    assert code == 2 and "unknown code RC999" in err


@pytest.mark.parametrize("rule, reading, words", [
    ("CORE-SHORTCUT-10", "unusable_corner", "other choice: wait"),
    ("CORE-WATER-04", "water_stuck", "other choice: wait"),
    ("CORE-LOC-08", "crashed_return", "put back on the LoC space"),
    ("CORE-ADV-14", "sisu_jump_warning", "other choice: ignored"),
    ("RX-DAMAGE-08", "rx_retired_flag", "other choice: removed"),
    ("RX-END-03", "pushed_across_finish", "during their turn"),
])
def test_explain_names_the_readings_the_referee_takes_of_a_rule(rule, reading, words):
    """A rule the referee reads by a named reading (components.toml's [readings.NAME] with the rules it reads):
    `rallyc explain` says which, its value and what a rules file may choose instead."""
    code, out, _ = _explain(rule)
    assert code == 0 and f"Reading {reading} (named in components.toml)" in out and words in out
    assert "Reading " not in _explain("CORE-JUMP-04")[1]


def test_every_rule_a_reading_names_exists():
    named = {rule for rules in rulebook._readings() for rule in [rules]}
    assert named and named <= set(rulebook.statements())
