"""rallyc fmt: canonical layout, idempotent, comments kept, meaning unchanged (issue 2)."""

from __future__ import annotations

import copy
import dataclasses
from pathlib import Path

import pytest

from rallyc.syntax import ast
from rallyc.syntax.comments import extract_comments
from rallyc.syntax.formatter import format_document, format_text, quote
from rallyc.syntax.parser import parse

ROOT = Path(__file__).resolve().parent.parent

MESSY = '''# file header

use dirt-core
boxes dirt-core   dirt-110
tileset mine "My tiles" {
  # the first tile
  tile 217a gravel danger low copies 1 {
    road B -> D left60 {          # own edges as printed
      slide                       # a slide zone
      corner inside 2 outside 3 3 3
      slide
      shortcut 3 from 1 to 3      # shortcut
    }
  }
  tile 202a gravel danger low low copies 01 { road D -> A straight { plain; plain; start; plain } }


  tile 203a gravel danger none copies 1 {
     road D -> A { plain limit 3 - water jump 4;
       finish
       plain }
     # end of tile
  }
}
rally "Rally 1" by "Jean-Christophe \\"JC\\" Bouvier" {
  source "Rallyman: DIRT rulebook, Ready to Play"
  stage SS1 "a \\\\ title" {
    202a                      # start tile
    210b left
    206b reversed ; 414b road 2   ;  203a
    scenery 902a at 3 -1 rot 2
    token chicane limit 2 at 4.1.r
  }
  options sisu per-rally, flying-start
  # trailing
}
stage Hillclimb {  # hc
}
stage Empty {}
circuit "RX 1" {
  laps 4
  401b at -1 1 rot 2
  standee finish at 1.3
  joker 6 7 8
  pregrid 11 12
}
# the end
'''

EXPECTED = '''# file header

use dirt-core
boxes dirt-core dirt-110

tileset mine "My tiles" {
  # the first tile
  tile 217a gravel danger low copies 1 {
    road B -> D left60 {  # own edges as printed
      slide  # a slide zone
      corner inside 2 outside 3 3 3
      slide
      shortcut 3 from 1 to 3  # shortcut
    }
  }
  tile 202a gravel danger low copies 1 {
    road D -> A straight {
      plain
      plain
      start
      plain
    }
  }

  tile 203a gravel danger none copies 1 {
    road D -> A {
      plain limit 3 - jump 4 water
      finish
      plain
    }
    # end of tile
  }
}

rally "Rally 1" by "Jean-Christophe \\"JC\\" Bouvier" {
  source "Rallyman: DIRT rulebook, Ready to Play"
  stage SS1 "a \\\\ title" {
    202a  # start tile
    210b left
    206b reversed
    414b road 2
    203a
    scenery 902a at 3 -1 rot 2
    token chicane limit 2 at 4.1.r
  }
  options sisu per-rally, flying-start
  # trailing
}

stage Hillclimb {  # hc
}

stage Empty {}

circuit "RX 1" {
  laps 4
  401b at -1 1 rot 2
  standee finish at 1.3
  joker 6 7 8
  pregrid 11 12
}
# the end
'''


def _repo_rally_files() -> list[Path]:
    files = []
    for folder in ("tilesets", "examples"):
        files += sorted((ROOT / folder).rglob("*.rally"))
    return files


def _strip_spans(node):
    """A deep copy of an AST with every span set to None (as an importer builds it)."""
    node = copy.deepcopy(node)

    def walk(n):
        if dataclasses.is_dataclass(n) and not isinstance(n, type):
            for f in dataclasses.fields(n):
                v = getattr(n, f.name)
                if f.name == "span":
                    object.__setattr__(n, "span", None)
                else:
                    walk(v)
        elif isinstance(n, (list, tuple)):
            for x in n:
                walk(x)
    walk(node)
    return node


def test_canonical_layout_of_a_messy_file():
    out, diags = format_text(MESSY, "messy.rally")
    assert diags == []
    assert out == EXPECTED


def test_formatting_twice_changes_nothing():
    once, _ = format_text(MESSY, "messy.rally")
    twice, _ = format_text(once, "messy.rally")
    assert twice == once


def test_meaning_unchanged_ast_equal():
    before, _ = parse(MESSY, "m")
    after, diags = parse(format_text(MESSY, "m")[0], "m")
    assert diags == []
    assert after.items == before.items


def test_comments_preserved_count_and_text():
    out, _ = format_text(MESSY, "m")
    assert [c.text for c in extract_comments(out)] == [c.text for c in extract_comments(MESSY)]


def test_end_of_line_comment_stays_on_its_line():
    out, _ = format_text("stage A {\n  202a    # go\n  203a\n}\n", "m")
    assert "  202a  # go\n" in out


def test_own_line_comment_stays_above_its_statement_at_its_indentation():
    out, _ = format_text("stage A {\n202a\n     # next is the finish\n203a\n}\n", "m")
    assert out == "stage A {\n  202a\n  # next is the finish\n  203a\n}\n"


def test_comment_at_end_of_block_stays_before_closing_brace():
    out, _ = format_text("stage A {\n  202a\n# last\n}\nstage B {}\n", "m")
    assert out == "stage A {\n  202a\n  # last\n}\n\nstage B {}\n"


def test_hash_inside_text_is_not_a_comment():
    text = 'rally "No #1" {\n  note "a # b"  # real\n}\n'
    out, _ = format_text(text, "m")
    assert out == text
    assert [c.text for c in extract_comments(text)] == ["# real"]


def test_one_zone_per_line_even_for_short_roads():
    text = "tileset t { tile 202a gravel danger low { road D -> A straight { plain; start } } }\n"
    out, _ = format_text(text, "m")
    assert out == ("tileset t {\n  tile 202a gravel danger low {\n    road D -> A straight {\n"
                   "      plain\n      start\n    }\n  }\n}\n")


def test_empty_road_and_tile_blocks():
    out, _ = format_text("tileset t { tile 902a none danger none copies 2 {}\n tile 903a none danger none {\n}}", "m")
    assert out == "tileset t {\n  tile 902a none danger none copies 2 {}\n  tile 903a none danger none {}\n}\n"


def test_comment_inside_road_keeps_it_expanded():
    text = "tileset t {\n  tile 205b gravel danger medium {\n    road D -> A {\n      plain  # x\n      plain\n    }\n  }\n}\n"
    out, _ = format_text(text, "m")
    assert out == text


def test_strings_are_re_escaped():
    doc = ast.Document("m", [ast.Rally('tab\there "q" back\\slash\nnew\rcr', None, [])])
    out = format_document(doc)
    assert out == 'rally "tab\\there \\"q\\" back\\\\slash\\nnew\\rcr" {}\n'
    again, diags = parse(out, "m")
    assert diags == [] and again.items == doc.items
    assert quote("plain") == '"plain"'


def test_numbers_are_normalised():
    out, _ = format_text("stage A {\n  202a at 007 -01 rot 0003\n  token jump 04 at 03.02\n}\n", "m")
    assert out == "stage A {\n  202a at 7 -1 rot 3\n  token jump 4 at 3.2\n}\n"


def test_works_on_an_ast_without_spans():
    """Importers build trees without spans and without comments."""
    doc, _ = parse(MESSY, "m")
    bare = _strip_spans(doc)
    out = format_document(bare)
    again, diags = parse(out, "m")
    assert diags == []
    assert again.items == doc.items
    assert format_text(out, "m")[0] == out


def test_syntax_errors_are_reported_not_formatted():
    out, diags = format_text("stage A {\n  202a lef\n}\n", "bad.rally")
    assert out is None
    assert diags and diags[0].code.startswith("RC1")


def test_empty_and_comment_only_files():
    assert format_text("", "m") == ("", [])
    assert format_text("\n\n# only a comment   \n\n", "m") == ("# only a comment\n", [])


@pytest.mark.parametrize("path", _repo_rally_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_repository_files_format_idempotently_and_keep_meaning(path: Path):
    text = path.read_text(encoding="utf-8")
    out, diags = format_text(text, str(path))
    assert out is not None, [str(d.span) + " " + d.message for d in diags]
    again, _ = format_text(out, str(path))
    assert again == out
    assert parse(out, "x")[0].items == parse(text, "x")[0].items
    assert sorted(c.text for c in extract_comments(out)) == sorted(c.text for c in extract_comments(text))


def test_parser_tables_cache_is_private_and_keyed_by_the_grammar(tmp_path, monkeypatch):
    """The built LALR tables go to the user's own cache folder (never the shared temp folder), under a
    name that changes with the grammar; RALLYC_NO_CACHE turns the cache off."""
    import os

    from rallyc.syntax.parser import _cache_file

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("RALLYC_NO_CACHE", raising=False)
    first = _cache_file("start: \"a\"")
    assert first and os.path.dirname(first) == str(tmp_path / "rallyc")
    assert (os.stat(tmp_path / "rallyc").st_mode & 0o077) == 0
    assert _cache_file("start: \"b\"") != first
    monkeypatch.setenv("RALLYC_NO_CACHE", "1")
    assert _cache_file("start: \"a\"") is False
