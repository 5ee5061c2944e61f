"""Careless input (issue 11): records, editor files and sketches that used to crash or pass silently.

Every case runs through the real command (``CliRunner`` on ``rallyc.commands.cli.app``) and must give a located
message (``file:line:column``) and exit 1, never a traceback and never exit 0.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from helpers.paths import EXAMPLES
from rallyc.commands.cli import app
from rallyc.diagnostics import Sources, Span, Diagnostic, render_text
from rallyc.records.load import RecordError, parse_record
from rallyc.records.replay import replay_record
from rallyc.rules.sketch import SketchError, sketch

LOCATED = re.compile(r"^(error: )?[^:\s]+:\d+:\d+: ", re.M)


def _run(*argv: str):
    result = CliRunner().invoke(app, list(argv))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return result


def _record(tmp_path: Path) -> dict:
    """The rally-1 failed-flat-out game, its track copied beside it (a record names its track relatively)."""
    data = json.loads((EXAMPLES / "games" / "rally-1-ss1-failed-flat-out.json").read_text(encoding="utf-8"))
    track = (EXAMPLES / "games" / data["track"]).resolve()
    (tmp_path / track.name).write_text(track.read_text(encoding="utf-8"), encoding="utf-8")
    data["track"] = track.name
    return data


def _replay(tmp_path: Path, text: str):
    f = tmp_path / "game.json"
    f.write_text(text, encoding="utf-8")
    return _run("replay", str(f))


# ------------------------------------------------------------------ records


def test_the_record_used_here_replays(tmp_path):
    result = _replay(tmp_path, json.dumps(_record(tmp_path), indent=1))
    assert result.exit_code == 0, result.output


def test_duplicate_key_in_a_record_is_refused_at_the_second_key(tmp_path):
    text = json.dumps(_record(tmp_path), indent=1).replace('"title":', '"title": "first",\n "title":', 1)
    result = _replay(tmp_path, text)
    assert result.exit_code == 1
    line = next(i for i, l in enumerate(text.splitlines(), 1) if l.startswith(' "title":') and "first" not in l)
    assert f"game.json:{line}:2:" in result.output and 'key "title" appears twice' in result.output


@pytest.mark.parametrize("number", ["9" * 5000, "-" + "9" * 4400, "1" + "0" * 20])
def test_a_number_too_long_in_a_record_is_located(tmp_path, number):
    text = json.dumps(_record(tmp_path), indent=1).replace('"round": 1', f'"round": {number}', 1)
    result = _replay(tmp_path, text)
    assert result.exit_code == 1
    assert "is too long" in result.output and LOCATED.search(result.output)


def test_nan_in_a_record_is_refused(tmp_path):
    text = json.dumps(_record(tmp_path), indent=1).replace('"round": 1', '"round": NaN', 1)
    result = _replay(tmp_path, text)
    assert result.exit_code == 1 and "`NaN` is not a JSON number" in result.output


def test_render_record_with_a_huge_number_is_located(tmp_path):
    data = _record(tmp_path)
    text = json.dumps(data, indent=1).replace('"round": 1', '"round": ' + "7" * 4500, 1)
    (tmp_path / "game.json").write_text(text, encoding="utf-8")
    result = _run("render", str(tmp_path / data["track"]), "--record", str(tmp_path / "game.json"),
                  "-o", str(tmp_path / "map.svg"))
    assert result.exit_code in (1, 2) and "is too long" in result.output
    assert not (tmp_path / "map.svg").exists()


def test_unknown_top_level_key_is_refused_by_replay_and_by_the_api(tmp_path):
    data = _record(tmp_path)
    data["colour_scheme"] = "dark"
    result = _replay(tmp_path, json.dumps(data, indent=1))
    assert result.exit_code == 1 and "colour_scheme" in result.output
    with pytest.raises(RecordError) as raised:
        replay_record(data, tmp_path)
    assert raised.value.path == "$.colour_scheme"


def test_spare_tire_for_an_unknown_player_is_refused(tmp_path):
    data = _record(tmp_path)
    data["stages"][0]["spare_tire"] = ["Nobody"]
    result = _replay(tmp_path, json.dumps(data, indent=1))
    assert result.exit_code == 1
    assert "$.stages[0].spare_tire[0]" in result.output and '"Nobody"' in result.output
    with pytest.raises(RecordError):
        replay_record(data, tmp_path)


def test_first_schema_error_is_the_first_in_the_document(tmp_path):
    data = _record(tmp_path)
    turns = data["stages"][0]["turns"]
    assert len(turns) > 10
    turns[10]["round"] = "ten"
    turns[2]["round"] = "two"
    with pytest.raises(RecordError) as raised:
        parse_record(json.dumps(data, indent=1), "game.json")
    assert raised.value.path == "$.stages[0].turns[2].round"


def test_first_schema_error_follows_key_order_not_the_alphabet(tmp_path):
    data = _record(tmp_path)
    data = {"title": 5, **{k: v for k, v in data.items() if k != "title"}}
    data["format"] = 7
    first = list(data)[0]
    with pytest.raises(RecordError) as raised:
        parse_record(json.dumps(data), "game.json")
    assert raised.value.path == f"$.{first}"


@pytest.mark.parametrize("text, column", [("X N S | F N", 1), ("N/x S | F N", 1), ("", 1), ("| | |", 1),
                                          ("N S | !purple N | F N", 7), ("N S jump9 | F N", 5)])
def test_sketch_typos_in_a_record_are_located(tmp_path, text, column):
    data = {"format": "rallyc-game/1", "sketch": ["N N S N | N N | F N N", text],
            "players": [{"name": "A", "colour": "red"}], "stages": [{"turns": []}, {"turns": []}]}
    result = _replay(tmp_path, json.dumps(data, indent=1))
    assert result.exit_code == 1
    assert "$.sketch[1]" in result.output and f"(column {column})" in result.output
    assert LOCATED.search(result.output)
    with pytest.raises(SketchError):
        sketch(text)


# ------------------------------------------------------------------ editor files (careless)


def _import(tmp_path: Path, doc: dict | str, name: str = "track.json"):
    f = tmp_path / name
    f.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return _run("import", str(f), "-o", str(tmp_path / "out.rally"))


SMALL = {"title": "T", "tiles": [{"id": "202a", "q": 0, "r": 0, "dir": 0}, {"id": "203a", "q": 0, "r": -1, "dir": 0}]}


@pytest.mark.parametrize("q", [10 ** 331, 10 ** 20, 10 ** 14, -(10 ** 6)])
def test_rekee_coordinates_out_of_range_are_located(tmp_path, q):
    doc = json.loads(json.dumps(SMALL))
    doc["tiles"][1]["q"] = q
    result = _import(tmp_path, doc)
    assert result.exit_code == 1
    assert "track.json:1:" in result.output and ("RC717" in result.output or "too long" in result.output)
    assert not (tmp_path / "out.rally").exists()


def test_duplicate_key_in_an_editor_file_is_refused(tmp_path):
    result = _import(tmp_path, '{"title": "a", "tiles": [], "title": "b"}')
    assert result.exit_code == 1 and "track.json:1:29:" in result.output and "appears twice" in result.output


@pytest.mark.parametrize("char", ["\u0000", "\ufffe", "\uffff", "\u001b"])
def test_title_characters_check_refuses_are_left_out_by_import(tmp_path, char):
    doc = dict(SMALL, title=f"Col{char}de Turini", author=f"A{char}")
    _import(tmp_path, doc)
    out = tmp_path / "out.rally"
    assert out.exists()
    text = out.read_text(encoding="utf-8")
    assert char not in text and '"Colde Turini"' in text
    assert "RC102" not in _run("check", str(out)).output


def test_tiles_and_tuiles_the_empty_one_is_not_used(tmp_path):
    rgt = {"Name": "T", "Tuiles": [], **SMALL}
    result = _import(tmp_path, rgt)
    assert "RC718" in result.output and "`tiles` is read" in result.output
    assert "202a" in (tmp_path / "out.rally").read_text(encoding="utf-8")
    both = dict(SMALL, Tuiles=[{"X": 0, "Y": 0, "Orientation": 0, "TuileId": "202a"}])
    result = _import(tmp_path, both, "both.json")
    assert result.exit_code == 1 and "error[RC718]" in result.output


# ------------------------------------------------------------------ diagnostics printing


def test_control_characters_in_a_quoted_line_are_escaped():
    sources = Sources()
    sources.add("f.rally", "stage S \"a\x1b[2Jb\u202e\" {\n")
    out = render_text([Diagnostic.error("RC102", "bad", Span("f.rally", 1, 11, 1, 12))], sources)
    assert "\x1b" not in out and "\u202e" not in out
    quoted = out.splitlines()[1]
    assert quoted.endswith('stage S "a\u241b[2Jb\ufffd" {')
    caret = out.splitlines()[2]
    assert caret.index("^") == quoted.index("\u241b")


def test_a_long_line_is_quoted_around_the_column():
    sources = Sources()
    line = " ".join(f"{200 + i % 9}a" for i in range(5000))
    sources.add("f.rally", f"stage S {{ {line} }}\n")
    col = len("stage S { ") + 4 * 4000 + 1
    out = render_text([Diagnostic.error("RC130", "x", Span("f.rally", 1, col, 1, col + 4))], sources)
    quoted, caret = out.splitlines()[1:3]
    assert len(quoted) < 230
    assert quoted[caret.index("^"):caret.index("^") + 4] == line[4 * 4000:4 * 4000 + 4]


def test_quoting_many_diagnostics_splits_the_source_once(monkeypatch):
    sources = Sources()
    sources.add("f.rally", "x\n" * 1000)
    calls = []
    real = str.split

    class Counting(str):
        def split(self, *a, **k):
            calls.append(1)
            return real(self, *a, **k)

    sources._text["f.rally"] = Counting("x\n" * 1000)
    for n in range(1, 1000, 7):
        assert sources.line("f.rally", n) == "x"
    assert len(calls) == 1


# ------------------------------------------------------------------ editors' files as they are


def test_start_and_finish_laid_against_their_arch_import_the_printed_way(tmp_path):
    """Rally 1 SS1 exported, then its start and finish tiles turned 180 degrees as published layouts often show
    them: the import is the same text as the untouched file's, with one RC720 warning per turned tile."""
    exported = _run("export", str(EXAMPLES / "rally-1.rally"), "--to", "rekee", "--stage", "SS1")
    doc = json.loads(exported.stdout)
    plain = _import(tmp_path, doc, "plain.json")
    assert plain.exit_code == 0
    want = (tmp_path / "out.rally").read_text(encoding="utf-8")
    turned = 0
    for tile in doc["tiles"]:
        if tile["id"].lower()[:3] in ("202", "203"):
            tile["dir"] = (tile["dir"] + 3) % 6
            turned += 1
    result = _import(tmp_path, doc, "turned.json")
    assert result.exit_code == 0, result.output
    assert result.output.count("warning[RC720]") == turned == 2
    got = (tmp_path / "out.rally").read_text(encoding="utf-8")
    assert got == want and "reversed" not in got


def test_check_warns_on_a_hand_written_reversed_start(tmp_path):
    f = tmp_path / "s.rally"
    f.write_text("stage SS1 {\n  202a reversed\n  205a\n  206a\n  208a left\n  204a\n  203a\n}\n", encoding="utf-8")
    result = _run("check", str(f))
    assert "s.rally:2:3: warning[RC313]" in result.output
