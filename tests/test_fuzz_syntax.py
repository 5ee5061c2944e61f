"""Property test: mutated valid files never make parse, fmt or the name checks raise (issue 2).

Valid files (the repository's examples and a built-in rally) are mutated by deleting, duplicating
and inserting characters and tokens and by swapping lines. Whatever comes out: no exception
escapes, every diagnostic points inside the file (line 1..lines+1, column >= 1), and when the
mutant still parses, fmt is idempotent and keeps its meaning.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rallyc.checks.names import check_names
from rallyc.project.loader import load_text
from rallyc.syntax.formatter import format_text
from rallyc.syntax.parser import parse
from rallyc.tiles.catalogue import Catalogue

ROOT = Path(__file__).resolve().parent.parent

BUILTIN = '''# a small valid rally
use dirt-core
boxes dirt-core

tileset mine "Mine" {
  tile 250a gravel danger low copies 2 {
    road D -> A straight lanes 2 {
      plain limit 3 - jump 4
      start
      corner inside 2 outside 3 3 water
      shortcut 3 from 1 to 3
    }
  }
}

rally "Rally \\"1\\"" by "Me" {
  source "rulebook"
  stage SS1 "first" {
    202a  # start
    210b left reversed road 1
    scenery 902a at 3 -1 rot 2
    token chicane limit 2 at 2.1.r
    203a
  }
  options sisu per-rally, flying-start
}

circuit "RX" {
  laps 3
  401b at -1 1 rot 2
  standee finish at 1.3
  joker 2 3
  pregrid 4
}
'''

SEEDS = [BUILTIN] + [p.read_text(encoding="utf-8") for p in sorted((ROOT / "examples").glob("*.rally"))[:6]]

TOKENS = ["{", "}", '"', "#", ";", ".", "-", "->", "\n", " ", "stage", "rally", "tile", "road", "use",
          "\"x.rally\"", "210b", "21b", "left", "lef", "at", "rot", "limit", "-3", "99999999999999999999",
          "token", "water", "options", "sisu", "laps", "\t", "\\", "\r\n", "é", "\u2028"]

mutation = st.one_of(
    st.tuples(st.just("delete"), st.integers(0, 10_000), st.integers(1, 12)),
    st.tuples(st.just("duplicate"), st.integers(0, 10_000), st.integers(1, 40)),
    st.tuples(st.just("insert"), st.integers(0, 10_000), st.sampled_from(TOKENS)),
    st.tuples(st.just("char"), st.integers(0, 10_000), st.characters(codec="utf-8")),
    st.tuples(st.just("swap"), st.integers(0, 10_000), st.integers(0, 10_000)),
)


def mutate(text: str, ops) -> str:
    for op, a, b in ops:
        if not text:
            text = str(b) if op in ("insert", "char") else text
            continue
        i = a % (len(text) + 1)
        if op == "delete":
            text = text[:i] + text[i + b:]
        elif op == "duplicate":
            text = text[:i] + text[i:i + b] + text[i:]
        elif op in ("insert", "char"):
            text = text[:i] + b + text[i:]
        elif op == "swap":
            lines = text.split("\n")
            x, y = a % len(lines), b % len(lines)
            lines[x], lines[y] = lines[y], lines[x]
            text = "\n".join(lines)
    return text


def assert_located(diags, text: str) -> None:
    lines = text.count("\n") + 1
    for d in diags:
        if d.span is None:
            continue
        assert 1 <= d.span.line <= lines + 1, (d, lines)
        assert d.span.column >= 1, d
        assert (d.span.end_line, d.span.end_column) >= (d.span.line, d.span.column), d


@settings(max_examples=200, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(seed=st.sampled_from(range(len(SEEDS))), ops=st.lists(mutation, min_size=1, max_size=4))
def test_mutated_files_never_raise_and_diagnostics_are_located(seed, ops):
    text = mutate(SEEDS[seed], ops)

    doc, diags = parse(text, "fuzz.rally")
    assert_located(diags, text)

    out, fdiags = format_text(text, "fuzz.rally")
    assert_located(fdiags, text)
    assert all(d.code != "RC108" for d in fdiags), "fmt would have changed the meaning"
    if out is not None:
        again, _ = format_text(out, "fuzz.rally")
        assert again == out
        assert parse(out, "f")[0].items == doc.items

    loaded = load_text(text, "fuzz.rally", base_dir=ROOT / "tests" / "bad")
    names = check_names(loaded, Catalogue.from_tilesets(loaded.tilesets))
    assert_located(loaded.diagnostics + names, text)
