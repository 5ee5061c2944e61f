"""The replay viewer (``rallyc replay GAME --html``) in a real headless browser.

Debian's ``chromium`` driven through its ``chromedriver`` with selenium (both installed by ``.ci/run``):
load the page from disk, step forward and back by turn and by round, check that a car is drawn on
the space the replay says and that the standings change with it, read the browser's console (no
errors), and look at a screenshot (not blank, cars in their colours).
"""

from __future__ import annotations

import io
import json
import time
from pathlib import Path

import pytest
from PIL import Image
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait
from typer.testing import CliRunner

from helpers.paths import EXAMPLES
from rallyc.commands.cli import app
from rallyc.records import load_record, replay_record
from rallyc.render.viewer import script_json

runner = CliRunner()
GAMES = EXAMPLES / "games"
RX_RACE = GAMES / "rx-1-race.json"
RALLY = GAMES / "rally-4-full.json"


def _page(tmp_path: Path, record: Path, name: str = "game.html") -> Path:
    out = tmp_path / name
    res = runner.invoke(app, ["replay", str(record), "--html", str(out)])
    assert res.exit_code == 0, res.output
    return out


def _cars(d) -> dict[str, tuple[str, float, float]]:
    out = {}
    for g in d.find_elements(By.CSS_SELECTOR, "#cars g.car"):
        rect = g.find_element(By.TAG_NAME, "rect")
        x = float(rect.get_attribute("x")) + float(rect.get_attribute("width")) / 2
        y = float(rect.get_attribute("y")) + float(rect.get_attribute("height")) / 2
        out[g.get_attribute("data-player")] = (g.get_attribute("data-space"), x, y)
    return out


def _points(d) -> dict[str, list[float]]:
    data = json.loads(d.find_element(By.ID, "replay-data").get_attribute("textContent"))
    return data["stages"][0]["points"]


def _errors(d) -> list[dict]:
    return [e for e in d.get_log("browser") if e["level"] == "SEVERE"]


def test_rx_race_steps_forward_and_back_as_the_replay_says(browser, tmp_path: Path):
    page = _page(tmp_path, RX_RACE)
    report = replay_record(load_record(RX_RACE), RX_RACE.parent)
    browser.get(page.as_uri())
    body = browser.find_element(By.TAG_NAME, "body")
    turns = [t for r in report.rounds for t in r["turns"]]
    assert browser.find_element(By.ID, "counter").text == f"turn 0 of {len(turns)}"
    points = _points(browser)
    grid = {g["player"]: g["space"] for g in report.grid}
    assert {n: c[0] for n, c in _cars(browser).items()} == grid  # cars on the grid before the first turn
    standings_before = browser.find_element(By.ID, "standings").text

    body.send_keys(Keys.ARROW_RIGHT)
    first = turns[0]
    cars = _cars(browser)
    space, x, y = cars[first["player"]]
    assert space == first["end"] and (x, y) == pytest.approx(tuple(points[first["end"]]), abs=0.05)
    assert browser.find_element(By.ID, "where").text.endswith(f"round 1 - {first['player']}")
    turn_text = browser.find_element(By.ID, "turn").text
    assert "dice:" in turn_text and f"{first['player']} drives" in turn_text and f"Gear {first['gear']}" in turn_text
    assert first["end"] not in turn_text  # no space ids in the panel's words: one click away, with the rules
    browser.find_element(By.CSS_SELECTOR, "#turn details.rules summary").click()
    assert "path: " + " > ".join([first["start"]] + first["path"]) in browser.find_element(By.ID, "turn").text
    standings_after = browser.find_element(By.ID, "standings").text
    assert standings_after != standings_before
    row = browser.find_element(By.CSS_SELECTOR, f"#standings tr[data-player='{first['player']}']").text
    end = report.rounds[0]["turns"][0]["end"]
    tile = browser.execute_script("return JSON.parse(document.getElementById('replay-data').textContent)"
                                  ".stages[0].steps[0].standings.find(c => c.name === arguments[0]).tile",
                                  first["player"])
    assert f" {first['gear']} " in f" {row} " and tile.startswith("tile #") and tile in row and end not in row

    body.send_keys(Keys.ARROW_LEFT)
    assert _cars(browser)[first["player"]][0] == grid[first["player"]]
    assert browser.find_element(By.ID, "standings").text == standings_before

    body.send_keys(Keys.ARROW_DOWN)  # to the end of round 1
    round1 = [t for t in turns if any(t is u for r in report.rounds if r["round"] == 1 for u in r["turns"])]
    assert browser.find_element(By.ID, "counter").text == f"turn {len(round1)} of {len(turns)}"
    for t in round1:
        assert _cars(browser)[t["player"]][0] == t["end"]
    body.send_keys(Keys.ARROW_DOWN)
    body.send_keys(Keys.ARROW_UP)
    assert browser.find_element(By.ID, "counter").text == f"turn {len(round1)} of {len(turns)}"
    browser.find_element(By.ID, "forward").click()
    assert browser.find_element(By.ID, "counter").text == f"turn {len(round1) + 1} of {len(turns)}"
    browser.execute_script("var s = document.getElementById('slider'); s.value = s.max;"
                           "s.dispatchEvent(new Event('input'));")
    assert browser.find_element(By.ID, "counter").text == f"turn {len(turns)} of {len(turns)}"
    assert not _errors(browser)


def test_screenshot_shows_the_map_and_the_cars_in_their_colours(browser, tmp_path: Path):
    page = _page(tmp_path, RX_RACE)
    browser.get(page.as_uri())
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_DOWN)
    shot = tmp_path / "viewer.png"
    assert browser.save_screenshot(str(shot))
    img = Image.open(io.BytesIO(shot.read_bytes())).convert("RGB")
    colours = img.getcolors(maxcolors=1 << 22)
    assert len(colours) > 50  # not blank: a map, a panel, a table
    counts = {c: n for n, c in colours}
    for name, rgb in (("red", (0xd4, 0x1e, 0x1e)), ("blue", (0x1f, 0x5f, 0xd0)), ("green", (0x1e, 0x9a, 0x3c)),
                      ("yellow", (0xf2, 0xc2, 0x00))):
        near = sum(n for c, n in counts.items() if max(abs(a - b) for a, b in zip(c, rgb)) <= 8)
        assert near > 100, name  # each car (and its swatch) drawn in its colour
    assert not _errors(browser)


def test_a_rally_has_one_map_per_stage_and_ends_where_the_replay_ends(browser, tmp_path: Path):
    page = _page(tmp_path, RALLY)
    report = replay_record(load_record(RALLY), RALLY.parent)
    browser.get(page.as_uri())
    buttons = browser.find_elements(By.CSS_SELECTOR, "#stages button")
    assert [b.text for b in buttons] == [st["stage"] for st in report.stages]
    buttons[1].click()
    stage = report.stages[1]
    turns = [t for r in stage["rounds"] for t in r["turns"]]
    browser.execute_script("var s = document.getElementById('slider'); s.value = s.max;"
                           "s.dispatchEvent(new Event('input'));")
    last = {t["player"]: t["end"] for t in turns}
    assert {n: c[0] for n, c in _cars(browser).items()} == last
    assert browser.find_element(By.ID, "where").text.startswith(f"Stage {stage['stage']} - round")
    assert not _errors(browser)


def test_record_text_cannot_break_out_of_the_page(browser, tmp_path: Path):
    """A player named with ``</script>``, markup and U+2028 shows as that text, and runs nothing."""
    weird = "</script><img src=x onerror=alert(1)>\u2028Zoe & co"
    text = (GAMES / "rally-5-ss1-jump-water.json").read_text(encoding="utf-8")
    data = json.loads(text)
    old = data["players"][0]["name"]
    data = json.loads(text.replace(json.dumps(old), json.dumps(weird)))
    data["track"] = str((GAMES / data["track"]).resolve())
    record = tmp_path / "weird.json"
    record.write_text(json.dumps(data), encoding="utf-8")
    page = _page(tmp_path, record)
    html = page.read_text(encoding="utf-8")
    assert html.count("</script>") == 2 and "<img src=x" not in html and "\u2028" not in html
    assert "http://" not in html.replace("http://www.w3.org/", "") and "https://" not in html  # nothing fetched
    browser.get(page.as_uri())
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_DOWN)
    names = [e.get_attribute("textContent") for e in browser.find_elements(By.CSS_SELECTOR, "#standings tbody td:nth-child(2)")]
    assert any(n.startswith("</script><img src=x onerror=alert(1)>") for n in names)
    assert not browser.find_elements(By.CSS_SELECTOR, "img")
    assert not _errors(browser)


def test_script_json_escapes_what_could_end_a_script():
    text = script_json({"name": "</script>\u2028\u2029&<!--"})
    assert "<" not in text and ">" not in text and "&" not in text
    assert "\u2028" not in text and "\u2029" not in text
    assert json.loads(text) == {"name": "</script>\u2028\u2029&<!--"}


def test_play_pause_speed_and_the_space_key(browser, tmp_path: Path):
    """Play runs the turns by itself at the speed chosen and stops at the last; pause (or Space) stops it; the
    side panel speaks the rulebook's words and groups the rule IDs by section, each with its statement one
    click away; the page asks nothing of the network."""
    page = _page(tmp_path, RALLY)
    report = replay_record(load_record(RALLY), RALLY.parent)
    browser.get(page.as_uri())
    counter = browser.find_element(By.ID, "counter")
    total = sum(len(r["turns"]) for r in report.stages[0]["rounds"])
    Select(browser.find_element(By.ID, "speed")).select_by_value("250")
    browser.find_element(By.ID, "play").click()
    assert browser.find_element(By.ID, "play").get_attribute("aria-pressed") == "true"
    WebDriverWait(browser, 10).until(lambda d: counter.text != f"turn 0 of {total}")
    browser.find_element(By.ID, "play").click()  # pause
    assert browser.find_element(By.ID, "play").get_attribute("aria-pressed") == "false"
    held = counter.text
    time.sleep(0.8)
    assert counter.text == held and held != f"turn 0 of {total}"
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.SPACE)  # play again from the keyboard
    WebDriverWait(browser, 20).until(lambda d: counter.text == f"turn {total} of {total}")
    WebDriverWait(browser, 5).until(lambda d: d.find_element(By.ID, "play").get_attribute("aria-pressed") == "false")
    body.send_keys(Keys.ARROW_LEFT)
    assert counter.text == f"turn {total - 1} of {total}"

    panel = browser.find_element(By.ID, "turn")
    words = panel.find_element(By.CSS_SELECTOR, ".words").text
    assert "Gear" in words and "drives" in words or "does not move" in words
    details = panel.find_element(By.CSS_SELECTOR, "details.rules")
    assert not details.get_attribute("open")
    details.find_element(By.TAG_NAME, "summary").click()
    groups = details.find_elements(By.CSS_SELECTOR, ".rule-group")
    assert groups and all(":" in g.text for g in groups)
    ids = details.find_elements(By.TAG_NAME, "abbr")
    assert ids and all(a.get_attribute("title") for a in ids)  # each rule's statement on the ID
    resources = browser.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name)")
    assert not [r for r in resources if r.startswith(("http:", "https:"))]
    assert not _errors(browser)
