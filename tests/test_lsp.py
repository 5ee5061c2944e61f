"""``rallyc lsp`` driven the way an editor drives it: a real LSP client (pygls's LanguageClient) talks to the
server process over stdio; documents are opened and edited, published diagnostics, completions, hovers,
definitions, symbols, formatting and code actions are checked."""

from __future__ import annotations

import pytest

from helpers.lsp import Session
from helpers.paths import EXAMPLES
from rallyc.syntax.formatter import format_text

RALLY_1 = (EXAMPLES / "rally-1.rally").read_text(encoding="utf-8")

STAGE = """\
use "tiles.rally"

stage SS1 {
  202a
  210b left
  205a
  227a right
  213a right
  208a left
  216a right
  219a left
  217a right
  203a
}
"""

TILES = """\
tileset club "Club tiles" {
  tile 250a gravel danger low {
    road D -> A { plain; plain; plain }
  }
}
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lsp")
    (folder / "tiles.rally").write_text(TILES, encoding="utf-8")
    (folder / "stage.rally").write_text(STAGE, encoding="utf-8")
    (folder / "rally-1.rally").write_text(RALLY_1, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def ls(project):
    session = Session(str(project))
    yield session
    session.close()


def _uri(project, name: str) -> str:
    return (project / name).resolve().as_uri()


def _codes(diags) -> list[str]:
    return [d.code for d in diags]


def _labels(items) -> list[str]:
    return [i.label for i in items]


def test_server_says_what_it_can(ls):
    caps = ls.capabilities
    assert caps.completion_provider and caps.hover_provider and caps.definition_provider
    assert caps.document_symbol_provider and caps.document_formatting_provider and caps.code_action_provider


def test_diagnostics_as_you_type(ls, project):
    uri = _uri(project, "stage.rally")
    assert _codes(ls.open(uri, STAGE)) == []
    # line 5 (0-based 4) is "  210b left": make it an unknown tile
    diags = ls.change(uri, 4, 2, 4, 6, "210c")
    assert _codes(diags) == ["RC131"]
    d = diags[0]
    assert (d.range.start.line, d.range.start.character, d.range.end.character) == (4, 2, 6)
    assert d.severity == 1 and d.source == "rallyc" and "hint: did you mean `210a` or `210b`?" in d.message
    # the same code, span and hint as `rallyc check`
    from rallyc.lsp.checking import check_text

    _, cli = check_text(STAGE.replace("210b left", "210c left"), "x.rally", project)
    assert [(c.code, c.span.line, c.span.column, c.hint) for c in cli] == \
        [("RC131", 5, 3, d.message.split("hint: ", 1)[1])]
    # typing on: an overlap, then the fix
    assert "RC202" in _codes(ls.change(uri, 4, 2, 4, 11, "210b straight"))
    assert _codes(ls.change(uri, 4, 2, 4, 15, "210b left")) == []


def test_diagnostics_of_an_included_file(ls, project):
    bad = project / "broken.rally"
    bad.write_text('tileset broken {\n  tile 260a gravel danger purple {\n  }\n}\n', encoding="utf-8")
    uri = _uri(project, "uses-broken.rally")
    ls.open(uri, 'use "broken.rally"\n' + STAGE.split("\n", 1)[1])
    inc = ls.wait(bad.resolve().as_uri(), 0.0)
    assert _codes(inc) == ["RC107"] and inc[0].range.start.line == 1


def test_completion_of_the_next_tile_from_suggest(ls, project):
    uri = _uri(project, "rally-1.rally")
    ls.open(uri, RALLY_1)
    lines = RALLY_1.split("\n")
    at = lines.index("    210b left  # hairpin, limits 1/2")  # SS1 step 2; the design puts 205a next
    text = "\n".join(lines[:at + 1] + ["    "] + lines[at + 1:])
    ls.replace_all(uri, text)
    items = ls.completion(uri, at + 1, 4)
    labels = _labels(items)
    assert "205a" in labels and "scenery" in labels and "token" in labels
    hair = next(i for i in items if i.label == "213a right")
    assert "hairpin right, limits 1/2" in hair.detail
    # after a tile id: the words of a step
    ls.change(uri, at + 1, 4, at + 1, 4, "213a ")
    words = _labels(ls.completion(uri, at + 1, 9))
    assert {"left", "right", "reversed", "road", "at"} <= set(words)
    ls.replace_all(uri, RALLY_1)


def test_completion_of_keywords_options_tokens_and_positions(ls, project):
    uri = _uri(project, "stage.rally")
    ls.replace_all(uri, STAGE + "\n")
    top = _labels(ls.completion(uri, STAGE.count("\n"), 0))
    assert {"use", "boxes", "stage", "rally", "circuit", "tileset"} <= set(top)
    text = STAGE.replace("  203a\n}", "  203a\n  token \n}")
    ls.replace_all(uri, text)
    line = text.split("\n").index("  token ")
    kinds = _labels(ls.completion(uri, line, 8))
    assert {"water", "jump", "chicane"} <= set(kinds)
    text = text.replace("  token \n", "  token water at \n")
    ls.replace_all(uri, text)
    places = ls.completion(uri, line, 17)
    assert "3.2" in _labels(places) and "10.1" in _labels(places)
    assert "11.1" not in _labels(places)  # the stage has 10 steps
    rally = 'rally "R" {\n  options \n}\n'
    ls.replace_all(uri, rally)
    assert {"sisu", "flying-start"} <= set(_labels(ls.completion(uri, 1, 10)))
    ls.replace_all(uri, 'rally "R" {\n  options sisu \n}\n')
    assert "per-rally" in _labels(ls.completion(uri, 1, 15))
    ls.replace_all(uri, STAGE)


def test_hover_on_tile_step_and_code(ls, project):
    uri = _uri(project, "stage.rally")
    ls.replace_all(uri, STAGE + "# rallyc: see RC205\n")
    h = ls.hover(uri, 4, 3)  # "210b" of step 2
    text = h.contents.value
    assert "210b  gravel, danger low, 1 copy (box dirt-core)" in text and "road 1: D -> C right120" in text
    assert "**step 2**" in text and "running line from step 1" in text
    assert (h.range.start.character, h.range.end.character) == (2, 6)
    code = ls.hover(uri, STAGE.count("\n"), 15)
    assert "RC205 (error): the tile is not where the route leads" in code.contents.value
    assert ls.hover(uri, 0, 0) is None
    ls.replace_all(uri, STAGE)


def test_definition_of_an_include_and_a_project_tile(ls, project):
    uri = _uri(project, "stage.rally")
    text = STAGE.replace("  203a\n", "  250a\n  203a\n")
    ls.replace_all(uri, text)
    loc = ls.definition(uri, 0, 7)
    assert loc.uri == (project / "tiles.rally").resolve().as_uri()
    line = text.split("\n").index("  250a")
    loc = ls.definition(uri, line, 3)
    assert loc.uri == (project / "tiles.rally").resolve().as_uri() and loc.range.start.line == 1
    bundled = ls.definition(uri, 4, 3)  # 210b: in the bundled dirt-core tileset
    assert bundled.uri.endswith("dirt-core.rally")
    ls.replace_all(uri, STAGE)


def test_document_symbols(ls, project):
    uri = _uri(project, "rally-1.rally")
    ls.replace_all(uri, RALLY_1)
    (rally,) = ls.symbols(uri)
    assert rally.name == "Rally 1" and [c.name for c in rally.children] == ["SS1", "SS2", "SS3"]
    assert rally.children[0].selection_range.start.line == RALLY_1.split("\n").index("  stage SS1 {")


def test_formatting_is_fmt(ls, project):
    uri = _uri(project, "stage.rally")
    messy = "stage   SS1 {\n202a\n  210b    left\n 203a\n}\n"
    ls.replace_all(uri, messy)
    (edit,) = ls.formatting(uri)
    assert edit.new_text == format_text(messy)[0]
    ls.replace_all(uri, edit.new_text)
    assert ls.formatting(uri) is None
    ls.replace_all(uri, STAGE)


def test_code_actions_from_hints(ls, project):
    uri = _uri(project, "stage.rally")
    ls.replace_all(uri, STAGE.replace("210b left", "210c left"))
    titles = [a.title for a in ls.code_actions(uri, 4)]
    assert titles == ["Replace with 210a", "Replace with 210b"]
    fix = ls.code_actions(uri, 4)[1].edit.changes[uri][0]
    assert (fix.range.start.character, fix.range.end.character, fix.new_text) == (2, 6, "210b")
    # RC205: the `at` the hint proposes
    moved = "stage SS1 {\n  202a at 0 0 rot 0\n  205a at 2 0 rot 0\n  206a\n  208a left\n  204a\n  203a\n}\n"
    diags = ls.replace_all(uri, moved)
    assert "RC205" in _codes(diags)
    (action,) = [a for a in ls.code_actions(uri, 2) if a.title.startswith("Move to")]
    edit = action.edit.changes[uri][0]
    line = moved.split("\n")[2]
    fixed = line[:edit.range.start.character] + edit.new_text + line[edit.range.end.character:]
    after = ls.replace_all(uri, moved.replace(line, fixed))
    assert "RC205" not in _codes(after)
    # a circuit without laps
    ring = 'circuit "Ring" {\n  208a right\n  209a right\n  217a right\n  218a right\n  221a right\n' \
           '  222a right\n  standee finish at 1.1\n}\n'
    assert "RC402" in _codes(ls.replace_all(uri, ring))
    (laps,) = [a for a in ls.code_actions(uri, 0, 8) if "laps" in a.title]
    e = laps.edit.changes[uri][0]
    lines = ring.split("\n")
    lines[0] = lines[0][:e.range.start.character] + e.new_text + lines[0][e.range.end.character:]
    assert "RC402" not in _codes(ls.replace_all(uri, "\n".join(lines)))
    ls.replace_all(uri, STAGE)


def test_without_pygls_the_command_says_how_to_install_it():
    import subprocess
    import sys

    code = ("import sys; sys.modules['pygls'] = None; sys.modules['pygls.lsp.server'] = None; "
            "sys.argv = ['rallyc', 'lsp']; from rallyc.commands.cli import main; main()")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 2
    assert "pip install 'rallyc[lsp]'" in done.stderr and "Traceback" not in done.stderr
