"""The language server's answers on plain text (rallyc.lsp.analysis), without a client: quick cases."""

from __future__ import annotations

from pathlib import Path

from rallyc.lsp.analysis import Document, block_at, check_document, code_actions, completions, symbols


def _doc(text: str, tmp_path) -> Document:
    path = tmp_path / "t.rally"
    path.write_text(text, encoding="utf-8")
    return Document(text, path, str(path))


def _apply(text: str, edits) -> str:
    lines = text.split("\n")
    for l0, c0, l1, c1, new in sorted(edits, reverse=True):
        assert l0 == l1
        lines[l0] = lines[l0][:c0] + new + lines[l0][c1:]
    return "\n".join(lines)


def test_did_you_mean_replaces_only_the_word(tmp_path):
    text = 'use dirt-cor\nrally "R" {\n  stage SS1 {\n    202a\n    203a\n  }\n  options sisu per-lap\n}\n'
    doc = _doc(text, tmp_path)
    fixes = code_actions(doc, check_document(doc))
    fixed = {f.title: _apply(text, f.edits) for f in fixes}
    assert fixed["Replace with dirt-core"].startswith("use dirt-core\n")
    assert "  options sisu per-stage\n" in fixed["Replace with per-stage"]
    doc2 = _doc(fixed["Replace with per-stage"], tmp_path)
    assert "RC143" not in [d.code for d in check_document(doc2)]


def test_completion_reads_a_half_typed_stage(tmp_path):
    # the document does not parse (an unknown word two lines up, the block not closed)
    text = "stage SS1 {\n  202a\n  210b left\n  bogus words\n  205a\n  \n"
    doc = _doc(text, tmp_path)
    assert block_at(doc.lines, 5).kind == "stage"
    labels = [i.label for i in completions(doc, 5, 2)]
    assert "227a right" in labels and "scenery" in labels  # what can follow 205a, from suggest
    words = _doc("stage SS1 {\n  202a \n}\n", tmp_path)
    assert [i.label for i in completions(words, 1, 7)][:3] == ["left", "right", "straight"]
    assert completions(doc, 2, 0)[0].kind in ("tile", "keyword")
    assert completions(doc, 0, 0) and all(i.kind == "keyword" for i in completions(doc, 0, 0))


def test_no_completion_inside_a_comment(tmp_path):
    doc = _doc("stage SS1 {\n  202a  # a \n}\n", tmp_path)
    assert completions(doc, 1, 11) == []


def test_symbols_of_a_tileset_and_a_one_off_stage(tmp_path):
    text = ('tileset club "Club" {\n  tile 250a gravel danger low {\n    road D -> A { plain }\n  }\n}\n'
            "stage SS1 {\n  202a\n  203a\n}\n")
    (ts, st) = symbols(_doc(text, tmp_path))
    assert (ts.kind, ts.name, [c.name for c in ts.children]) == ("tileset", "club", ["250a"])
    assert (st.kind, st.name, st.detail) == ("stage", "SS1", "2 steps")


def test_tile_completion_takes_the_settings_boxes(tmp_path):
    (tmp_path / "rallyc.toml").write_text('boxes = ["dirt-core"]\n', encoding="utf-8")
    doc = _doc("stage SS1 {\n  202a\n  \n}\n", tmp_path)
    tiles = [i for i in completions(doc, 2, 2) if i.kind == "tile"]
    assert tiles and all("box dirt-core" in i.documentation for i in tiles)


def test_tile_completion_fits_the_scenery_below(tmp_path):
    # Rally 1's SS1 cut after its 6th step, the scenery lines still below the cursor: every tile proposed there,
    # once written, is laid without running into a scenery tile (RC207) or over another tile (RC206)
    lines = (Path(__file__).resolve().parent.parent / "examples" / "rally-1.rally").read_text().split("\n")
    first = lines.index("    216a right  # hairpin, limits 2/3")
    last = lines.index("    201a  # assistance: dead end after the finish")
    cut = lines[:first] + ["    "] + lines[last + 1:]
    doc = _doc("\n".join(cut), tmp_path)
    tiles = [i for i in completions(doc, first, 4) if i.kind == "tile"]
    assert tiles
    for item in tiles:
        text = "\n".join(cut[:first] + ["    " + item.label] + cut[first + 1:])
        codes = {d.code for d in check_document(_doc(text, tmp_path)) if d.span and d.span.line == first + 1}
        assert not codes & {"RC206", "RC207"}, (item.label, codes)
