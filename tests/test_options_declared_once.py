"""Options are declared once, in the registry (rallyc.model.options): what else names them follows it.

Each test fails when an option is added to (or renamed in) the registry without the place that repeats it, or
declared somewhere the registry does not know."""

from __future__ import annotations

from dataclasses import fields

import pytest

from rallyc.model.options import OPTIONS
from rallyc.rules import Options

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
