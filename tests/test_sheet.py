"""The rally sheet (``rallyc sheet RECORD -o sheet.svg|pdf|html``) from the bundled records: the names, times and
positions the replay found, in the classification's order; the same bytes every run; nothing overlapping on the
page; a PDF that is one; bad input answered with a message and an exit code, never a traceback."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from itertools import combinations
from pathlib import Path

import pytest
from typer.testing import CliRunner

from helpers.paths import EXAMPLES
from rallyc.commands.cli import app
from rallyc.records import load_record, replay_record
from rallyc.records.replay import format_time
from rallyc.records.tour import load_tour, replay_tour
from rallyc.render.measure import measure
from rallyc.table.sheet_render import PAGE_MM

runner = CliRunner()
GAMES = EXAMPLES / "games"
RALLY = GAMES / "rally-4-full.json"
RACE = GAMES / "rx-2-full-contact.json"
TOUR = GAMES / "tours" / "auto-tour-1.json"
SVG = "{http://www.w3.org/2000/svg}"


def _sheet(tmp_path: Path, record: Path, name: str) -> Path:
    out = tmp_path / name
    res = runner.invoke(app, ["sheet", str(record), "-o", str(out)])
    assert res.exit_code == 0, res.output
    return out


def _rows(svg: str) -> list[tuple[str, list[str]]]:
    """(player, the texts of the row in document order) of each row of the sheet, top to bottom."""
    root = ET.fromstring(svg.encode("utf-8"))
    return [(g.get("data-player", ""), [t.text or "" for t in g.iter(f"{SVG}text")])
            for g in root.iter(f"{SVG}g") if g.get("class") == "sheet-row"]


def test_rally_sheet_has_every_stage_time_and_the_positions_after_each_stage(tmp_path: Path):
    report = replay_record(load_record(RALLY), RALLY.parent)
    svg = _sheet(tmp_path, RALLY, "rally.svg").read_text(encoding="utf-8")
    rows = _rows(svg)
    assert [name for name, _ in rows] == [row["name"] for row in report.classification]  # CORE-RALLY-15's order
    assert [texts[0] for _, texts in rows] == [str(i) for i in range(1, len(rows) + 1)]
    running = {name: 0 for name, _ in rows}
    for k, stage in enumerate(report.stages):
        for name, t in stage["times"].items():
            running[name] += t
        # the positions after the stage: the running totals in order (no tie in this game)
        after = sorted(running, key=running.get)  # type: ignore[arg-type]
        for name, texts in rows:
            joined = " | ".join(texts)
            assert f"{format_time(stage['times'][name])} (" in joined
            ordinal = {1: "1st", 2: "2nd", 3: "3rd"}[after.index(name) + 1]
            assert f"total {format_time(running[name])} ({ordinal})" in joined, (stage["stage"], name)
    for name, texts in rows:
        assert texts[-1] == format_time(running[name])  # the overall time, last on the row
    heads = [t.text for t in ET.fromstring(svg.encode()).iter(f"{SVG}text")
             if t.get("font-weight") == "bold" and t.text in {st["stage"] for st in report.stages}]
    assert heads == [st["stage"] for st in report.stages]


def test_sheet_texts_stay_on_the_page_and_never_overlap(tmp_path: Path):
    for record in (RALLY, RACE, TOUR):
        svg = _sheet(tmp_path, record, record.stem + ".svg").read_text(encoding="utf-8")
        boxes = measure(svg).texts
        assert len(boxes) > 10
        for b in boxes:
            assert 0 <= b.x0 and b.x1 <= PAGE_MM[0] and 0 <= b.y0 and b.y1 <= PAGE_MM[1], b
        clashes = [(a.text, b.text) for a, b in combinations(boxes, 2) if a.overlaps(b)]
        assert not clashes, (record.name, clashes[:3])


def test_same_record_same_bytes_in_every_format(tmp_path: Path):
    for suffix in ("svg", "html", "pdf"):
        a = _sheet(tmp_path, RALLY, f"a.{suffix}").read_bytes()
        b = _sheet(tmp_path, RALLY, f"b.{suffix}").read_bytes()
        assert a == b, suffix


def test_pdf_is_one_a4_landscape_page(tmp_path: Path):
    pdf = _sheet(tmp_path, TOUR, "tour.pdf").read_bytes()
    assert pdf.startswith(b"%PDF-") and pdf.rstrip().endswith(b"%%EOF")
    assert b"/Count 1" in pdf
    # 297 x 210 mm in points
    assert b"/MediaBox [ 0 0 841.889764 595.275591 ]" in pdf


def test_race_sheet_lists_the_finishing_order_then_the_disqualified_and_the_retired(tmp_path: Path):
    report = replay_record(load_record(RACE), RACE.parent)
    rows = _rows(_sheet(tmp_path, RACE, "race.svg").read_text(encoding="utf-8"))
    result = report.result
    assert [name for name, _ in rows] == result["order"] + result["disqualified"] + result["retired"]
    positions = [texts[0] for _, texts in rows]
    assert positions == [str(i) for i in range(1, len(result["order"]) + 1)] + ["DSQ"] * len(
        result["disqualified"]) + ["DNF"] * len(result["retired"])
    for name, texts in rows:
        assert f"{result['laps'][name]}/{report.laps}" in texts


class _Table(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self._in_body = False

    def handle_starttag(self, tag, attrs):
        if tag == "tbody":
            self._in_body = True
        elif tag == "tr" and self._in_body:
            self.rows.append([])

    def handle_endtag(self, tag):
        if tag == "tbody":
            self._in_body = False

    def handle_data(self, data):
        if self._in_body and self.rows and data.strip():
            self.rows[-1].append(data.strip())


def test_tour_sheet_as_html_has_the_standings_and_each_event(tmp_path: Path):
    report = replay_tour(load_tour(TOUR), TOUR.parent)
    page = _sheet(tmp_path, TOUR, "tour.html").read_text(encoding="utf-8")
    parser = _Table()
    parser.feed(page)
    assert [row[1] for row in parser.rows] == [s["name"] for s in report.standings]
    for row, standing in zip(parser.rows, report.standings):
        assert row[-1] == format_time(standing["total"])
        name = row[1]
        for ev in report.events:
            assert f"+{format_time(ev['seconds'][name])}" in row
    assert f"winner: {report.winner}" in page
    assert "<script" not in page and "http://" not in page


def test_names_from_the_record_are_escaped(tmp_path: Path):
    weird = "<b>Zoe</b> & \"co\""
    data = json.loads((GAMES / "rally-5-ss1-jump-water.json").read_text(encoding="utf-8"))
    old = data["players"][0]["name"]
    text = json.dumps(data).replace(json.dumps(old), json.dumps(weird))
    data = json.loads(text)
    data["track"] = str((GAMES / data["track"]).resolve())
    record = tmp_path / "weird.json"
    record.write_text(json.dumps(data), encoding="utf-8")
    svg = _sheet(tmp_path, record, "weird.svg").read_text(encoding="utf-8")
    assert weird in [name for name, _ in _rows(svg)]
    page = _sheet(tmp_path, record, "weird.html").read_text(encoding="utf-8")
    assert "<b>Zoe" not in page and "&lt;b&gt;Zoe&lt;/b&gt; &amp;" in page


def test_an_illegal_record_gives_the_sheet_up_to_the_error_and_exit_1(tmp_path: Path):
    data = json.loads(RALLY.read_text(encoding="utf-8"))
    data["track"] = str((GAMES / data["track"]).resolve())
    data["stages"][1]["times"] = {data["players"][0]["name"]: 1}  # a wrong claimed stage time on SS2
    record = tmp_path / "wrong.json"
    record.write_text(json.dumps(data, indent=1), encoding="utf-8")
    out = tmp_path / "wrong.svg"
    res = runner.invoke(app, ["sheet", str(record), "-o", str(out)])
    assert res.exit_code == 1
    assert "CORE-STAGEEND-08" in res.output and f"{record}:" in res.output and "Traceback" not in res.output
    svg = out.read_text(encoding="utf-8")
    assert "The replay stops at $.stages[1].times." in svg
    ET.fromstring(svg.encode("utf-8"))


@pytest.mark.parametrize("args, code, words", [
    (["no-such-game.json", "-o", "x.svg"], 2, "no such record"),
    ([str(RALLY), "-o", "sheet.txt"], 2, "--format svg|pdf|html"),
    ([str(RALLY), "-f", "svg", "-o", str(RALLY)], 2, "would overwrite the input"),
])
def test_bad_usage_says_why(tmp_path: Path, monkeypatch, args, code, words):
    monkeypatch.chdir(tmp_path)
    res = runner.invoke(app, ["sheet", *args])
    assert res.exit_code == code and words in res.output and "Traceback" not in res.output


def test_a_record_that_is_not_json_is_located(tmp_path: Path):
    record = tmp_path / "broken.json"
    record.write_text('{"format": "rallyc-game/1",\n  "players": [}\n', encoding="utf-8")
    res = runner.invoke(app, ["sheet", str(record), "-o", str(tmp_path / "x.svg")])
    assert res.exit_code == 1 and f"{record}:2:" in res.output and "Traceback" not in res.output
    assert not (tmp_path / "x.svg").exists()


def test_the_svg_goes_to_standard_output_without_o():
    res = runner.invoke(app, ["sheet", str(RACE)])
    assert res.exit_code == 0
    ET.fromstring(res.stdout.encode("utf-8"))


def test_the_sheet_of_a_journal_finished_or_under_way(tmp_path: Path):
    """A game at the table's journal (rallyc play, rallyc serve): its record replayed; cut in the middle, the sheet
    of the game so far, said under way, with no error under it."""
    from rallyc.table import journal
    from rallyc.table.setup import Seat, TableSetup

    setup = TableSetup(str(EXAMPLES / "rally-1.rally"), (Seat("Ann", "red", driver="random"),
                                                         Seat("Bob", "blue", driver="random")), stage="SS1", dice="auto")
    path = tmp_path / "game.jsonl"
    game = journal.start(path, setup, tmp_path)
    game.advance()
    assert game.is_over()
    game.journal.close()
    report = replay_record(game.record(), tmp_path)
    rows = _rows(_sheet(tmp_path, path, "done.svg").read_text(encoding="utf-8"))
    assert [name for name, _ in rows] == [row["name"] for row in report.classification]
    for name, texts in rows:
        assert texts[-1] == format_time(report.stages[0]["times"][name])

    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    half = tmp_path / "half.jsonl"
    half.write_text("".join(lines[:len(lines) // 2]), encoding="utf-8")
    svg = _sheet(tmp_path, half, "half.svg").read_text(encoding="utf-8")
    assert "Stage (under way) - rally sheet" in svg and "The replay stops" not in svg
    assert {name for name, _ in _rows(svg)} == {"Ann", "Bob"}
