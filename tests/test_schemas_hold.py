"""Every schema the project ships holds for what the project writes (issue 32).

- schemas/track.schema.json: `rallyc compile` of every example, of the README's `my-rally.rally`, and of designs
  with every option of the registry switched on, each value it takes (all options, then hypothesis's mixes);
- schemas/diagnostics.schema.json and sarif-2.1.0-subset.schema.json: `rallyc check --format json|sarif` of every
  example and every bad file of tests/bad;
- schemas/game.schema.json and tour.schema.json: the records in examples/games (written by the generator) and
  records the bot writes now.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from rallyc.commands.cli import app
from rallyc.model.options import OPTIONS, OptionSpec, Variant
from rallyc.records.generate import bot_record
from rallyc.rules import Options, Player
from rallyc.rules.sketch import sketch

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("*.rally"))
GAMES = sorted((ROOT / "examples" / "games").rglob("*.json"))
assert len(EXAMPLES) >= 13 and len(GAMES) >= 19  # the parametrized tests below never run on an empty list


def validator(name: str) -> jsonschema.protocols.Validator:
    schema = json.loads((ROOT / "schemas" / name).read_text(encoding="utf-8"))
    return jsonschema.validators.validator_for(schema)(schema)


def assert_valid(doc: object, name: str) -> None:
    errors = sorted(validator(name).iter_errors(doc), key=lambda e: e.json_path)
    assert not errors, f"{name}: {errors[0].json_path}: {errors[0].message}"


def compile_text(tmp_path: Path, text: str, name: str = "design.rally") -> dict:
    """`rallyc compile` of a file holding ``text``: the JSON it writes (exit 0 asserted)."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    r = CliRunner().invoke(app, ["compile", str(path)], catch_exceptions=False)
    assert r.exit_code == 0, text + r.output
    return json.loads(r.stdout)


def readme_design() -> str:
    """The README's `my-rally.rally` (the first rally block after its lang marker)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    m = re.search(r"<!-- lang:start -->.*?```rally\n(.*?)```", readme, re.S)
    assert m is not None
    return m.group(1)


#: the README's rally with its options line replaced by OPTIONS_LINE; the RX circuit of examples/rx-1.rally
#: with an options line added
RALLY = readme_design()
assert "  options sisu per-rally, flying-start\n" in RALLY
CIRCUIT = (ROOT / "examples" / "rx-1.rally").read_text(encoding="utf-8")
assert "  laps 3\n" in CIRCUIT


def _values(spec: OptionSpec) -> list[str]:
    """Every way an options line can switch ``spec`` on: its name alone (a switch, or its first word), and each
    of its words."""
    alone = [spec.name] if spec.values is None or spec.value_optional else []
    return alone + [f"{spec.name} {word}" for word in spec.values or ()]


def _options(variant: Variant) -> dict[str, list[str]]:
    return {o.name: _values(o) for o in OPTIONS.values() if o.in_options_line and variant in o.variants}


RALLY_OPTIONS, RX_OPTIONS = _options(Variant.RALLY), _options(Variant.RX)


def rally_with(chosen: list[str]) -> str:
    line = f"  options {', '.join(chosen)}\n" if chosen else ""
    return RALLY.replace("  options sisu per-rally, flying-start\n", line)


def circuit_with(chosen: list[str]) -> str:
    return CIRCUIT.replace("  laps 3\n", "  laps 3\n" + (f"  options {', '.join(chosen)}\n" if chosen else ""))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_compile_of_every_example_holds(tmp_path, path):
    assert_valid(compile_text(tmp_path, path.read_text(encoding="utf-8"), path.name), "track.schema.json")


def test_compile_of_the_readme_design_holds(tmp_path):
    doc = compile_text(tmp_path, RALLY, "my-rally.rally")
    assert doc["design"]["options"] == {"flying-start": True, "sisu": "per-rally"}
    assert_valid(doc, "track.schema.json")


@pytest.mark.parametrize("kind,value", [("rally", v) for vs in RALLY_OPTIONS.values() for v in vs]
                         + [("circuit", v) for vs in RX_OPTIONS.values() for v in vs])
def test_compile_of_a_design_with_each_option_value_holds(tmp_path, kind, value):
    doc = compile_text(tmp_path, rally_with([value]) if kind == "rally" else circuit_with([value]))
    assert value.split()[0] in doc["design"]["options"]
    assert_valid(doc, "track.schema.json")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), kind=st.sampled_from(["rally", "circuit"]))
def test_compile_of_designs_with_mixed_options_holds(tmp_path, data, kind):
    table = RALLY_OPTIONS if kind == "rally" else RX_OPTIONS
    names = data.draw(st.lists(st.sampled_from(sorted(table)), unique=True))
    chosen = [data.draw(st.sampled_from(table[n])) for n in names]
    doc = compile_text(tmp_path, rally_with(chosen) if kind == "rally" else circuit_with(chosen))
    assert sorted(doc["design"]["options"]) == sorted(names)
    assert_valid(doc, "track.schema.json")


@pytest.mark.parametrize("fmt,schema", [("json", "diagnostics.schema.json"), ("sarif", "sarif-2.1.0-subset.schema.json")])
def test_check_reports_hold(fmt, schema):
    r = CliRunner().invoke(app, ["check", "--no-cache", "--format", fmt, str(ROOT / "examples"), str(ROOT / "tests" / "bad")],
                           catch_exceptions=False)
    assert r.exit_code == 1  # tests/bad has errors
    doc = json.loads(r.stdout)
    assert_valid(doc, schema)
    found = doc["diagnostics"] if fmt == "json" else doc["runs"][0]["results"]
    assert len(found) >= len(list((ROOT / "tests" / "bad").glob("*.rally")))


@pytest.mark.parametrize("path", GAMES, ids=lambda p: str(p.relative_to(ROOT / "examples" / "games")))
def test_the_written_records_hold(path):
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert_valid(doc, "tour.schema.json" if doc.get("format") == "rallyc-tour/1" else "game.schema.json")


@pytest.mark.parametrize("seed", range(4))
def test_a_record_the_bot_writes_now_holds(seed):
    text = "N S N N | !medium D C(2;3,3,3)R D cut3(1,3) | N jump4 water N | !high D C(1;2,2)L D | N F N N"
    options = Options(flying_start=seed % 2 == 0, redline=seed % 3 == 0, sisu="per-stage" if seed == 0 else None)
    rec = bot_record([sketch(text, "SS1")], [Player("A", "red"), Player("B", "blue")], seed=seed, options=options,
                     header={"sketch": [text]})
    assert_valid(json.loads(json.dumps(rec)), "game.schema.json")
