"""``rallyc serve``: a game at the table in headless Chromium (Debian's ``chromium`` and ``chromedriver``, as the
replay viewer's tests use them).

A two-player stage of Rally 1 with the dice typed from the table: turns played by clicking (the dice laid one by
one, roll, the faces entered), the car drawn where the referee says; a reload and a server started again on the
journal lose nothing; two pages show the same game; a step sent from a page that had not seen the latest step is
refused and applied to nothing; a wrong token sees nothing and changes nothing.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Iterator

import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from helpers.paths import EXAMPLES
from helpers.served import Served
from rallyc.table import journal
from rallyc.table.setup import Seat, TableSetup

WAIT = 20


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    assert chromium and driver, "the serve test needs Debian's chromium and chromium-driver (.ci/run installs them)"
    profile = tempfile.mkdtemp(prefix="rallyc-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--no-first-run", f"--user-data-dir={profile}", "--window-size=1400,1000"):
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    d = webdriver.Chrome(service=Service(driver), options=opts)
    try:
        yield d
    finally:
        d.quit()
        shutil.rmtree(profile, ignore_errors=True)


def _start(tmp_path: Path) -> tuple[Served, Path]:
    setup = TableSetup(str(EXAMPLES / "rally-1.rally"), (Seat("Ann", "red"), Seat("Bob", "blue")), stage="SS1")
    path = tmp_path / "game.jsonl"
    return Served(journal.start(path, setup, tmp_path)), path


def _words(d) -> str:
    return d.find_element(By.ID, "words").text


def _revision(d) -> str:
    return d.find_element(By.TAG_NAME, "body").get_attribute("data-revision") or ""


def _click(d, css: str) -> None:
    """Click the first element matching ``css`` once the page shows it (the page redraws as the game moves)."""
    def clicked(_):
        try:
            found = [e for e in d.find_elements(By.CSS_SELECTOR, css) if e.is_displayed() and e.is_enabled()]
            if not found:
                return False
            found[0].click()
            return True
        except StaleElementReferenceException:
            return False
    WebDriverWait(d, WAIT).until(clicked)


def _play_turn_by_clicking(d, served: Served) -> dict:
    """The player to move lays the first two dice offered (or one), rolls them one by one and enters the faces
    (no Warning), answering whatever else the rules ask with the first choice; the state after the turn."""
    turns = len(served.table.game.happened)
    WebDriverWait(d, WAIT).until(lambda d: "lay your dice" in _words(d) and _revision(d) == served.table.revision)
    _click(d, "#next button.die")
    WebDriverWait(d, WAIT).until(lambda d: d.find_element(By.ID, "laid").text != "none")
    _click(d, "#lay")
    for _ in range(40):
        if len(served.table.game.happened) > turns:
            break
        before = _revision(d)
        prompt = served.table.game.prompt()
        key = {"die": "r", "face": "o", "spare_tire": "n"}.get(prompt.kind)
        _click(d, f"#choices button[data-key='{key}']" if key else "#choices button")
        WebDriverWait(d, WAIT).until(lambda d: _revision(d) != before)
    assert len(served.table.game.happened) > turns, "the turn was not played"
    WebDriverWait(d, WAIT).until(lambda d: served.table.revision == _revision(d))
    return served.table.state()


def _cars_on_map(d) -> dict[str, str]:
    return {g.get_attribute("data-player"): g.get_attribute("data-space")
            for g in d.find_elements(By.CSS_SELECTOR, "#map g.car")}


def _errors(d) -> list[dict]:
    # a refused request is logged by Chromium as a failed resource load: that is the test's point, not an error
    return [e for e in d.get_log("browser") if e["level"] == "SEVERE" and "status of 4" not in e["message"]]


def test_turns_played_by_clicking_then_reload_and_restart_lose_nothing(browser, tmp_path: Path):
    served, path = _start(tmp_path)
    try:
        browser.get(served.url)
        WebDriverWait(browser, WAIT).until(lambda d: "Ann, lay your dice" in _words(d))
        WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#map svg"))
        after_ann = _play_turn_by_clicking(browser, served)
        assert after_ann["happened"][0]["player"] == "Ann"
        assert _words(browser) == after_ann["prompt"]["words"] and "lay your dice" in _words(browser)
        ann = next(c for c in after_ann["cars"] if c["name"] == "Ann")
        WebDriverWait(browser, WAIT).until(lambda d: _cars_on_map(d).get("Ann") == ann["space"])
        turn_text = browser.find_element(By.ID, "happened").text
        assert after_ann["happened"][0]["text"] in turn_text
        WebDriverWait(browser, WAIT).until(  # the rally sheet, the players in their seats' order until times come
            lambda d: [r.get_attribute("data-player") for r in d.find_elements(By.CSS_SELECTOR, "#sheet tbody tr")]
            == ["Ann", "Bob"])
        _play_turn_by_clicking(browser, served)
        version, words = served.table.game.version, _words(browser)
        lines = path.read_text(encoding="utf-8").splitlines()
        assert len(lines) == 1 + version  # the setup, then one line per step: each on disk before the page moved on

        browser.refresh()
        WebDriverWait(browser, WAIT).until(lambda d: _words(d) == words)
        assert browser.find_element(By.ID, "counter").text == f"step {version}"
        cars = _cars_on_map(browser)
        WebDriverWait(browser, WAIT).until(lambda d: _cars_on_map(d) and _cars_on_map(d) == cars)
    finally:
        served.stop()

    game, notes = journal.resume(path)
    again = Served(game)
    try:
        assert not notes and again.table.game.version == version
        browser.get(again.url)
        WebDriverWait(browser, WAIT).until(lambda d: _words(d) == words)
        WebDriverWait(browser, WAIT).until(lambda d: _cars_on_map(d) == cars)
        assert browser.find_element(By.ID, "counter").text == f"step {version}"
        assert not _errors(browser)
    finally:
        again.stop()


def test_two_pages_in_step_and_a_stale_step_is_refused(browser, tmp_path: Path):
    served, path = _start(tmp_path)
    try:
        browser.get(served.url)
        first = browser.current_window_handle
        browser.switch_to.new_window("tab")
        second = browser.current_window_handle
        browser.get(served.url)
        WebDriverWait(browser, WAIT).until(lambda d: "Ann, lay your dice" in _words(d))

        browser.switch_to.window(first)
        _play_turn_by_clicking(browser, served)  # played on the first page...
        revision, words = served.table.revision, _words(browser)
        browser.switch_to.window(second)  # ...the second shows it
        WebDriverWait(browser, WAIT).until(lambda d: _revision(d) == revision and _words(d) == words)

        # another page (a tablet) plays Bob's first die while this page still shows the question before it: the
        # step this page then sends is refused, and nothing is applied twice
        for _ in range(5):
            if served.table.game.prompt().kind != "plan":  # a try before was overtaken by the page: back to the plan
                assert served.call("/undo", {"revision": served.table.revision})[0] == 200
            WebDriverWait(browser, WAIT).until(lambda d: _revision(d) == served.table.revision)
            seen, answer = _revision(browser), _first_die(served)
            status, _ = served.call("/step", {"revision": seen, "answer": answer})
            assert status == 200
            moved = served.table.game.version
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if _revision(browser) != seen:  # the page looked again in between: try once more
                continue
            browser.find_element(By.ID, "answer").send_keys(answer)  # typed in the answer box
            browser.find_element(By.ID, "send").click()
            WebDriverWait(browser, WAIT).until(
                lambda d: d.find_element(By.ID, "message").text.startswith(("Not applied", "Refused")))
            message = browser.find_element(By.ID, "message").text
            if message.startswith("Not applied"):
                break
        assert message.startswith("Not applied") and "had not seen the latest step" in message
        assert served.table.game.version == moved
        assert len(path.read_text(encoding="utf-8").splitlines()) == lines
        WebDriverWait(browser, WAIT).until(lambda d: _revision(d) == served.table.revision)  # it looked again

        status, body = served.call("/step", {"revision": "old-1", "answer": "r"})
        assert status == 409 and body["stale"] and served.table.game.version == moved
        status, body = served.call("/undo", {"revision": "old-1"})
        assert status == 409 and served.table.game.version == moved
        browser.close()
        browser.switch_to.window(first)
    finally:
        served.stop()


def _first_die(served: Served) -> str:
    """The first die the player to move may lay, as typed (a plan of one die, or the start of a longer one)."""
    nxt, _ = served.table.game.plan_dice(())
    return str(nxt[0])


def test_a_wrong_token_sees_nothing_and_changes_nothing(browser, tmp_path: Path):
    served, path = _start(tmp_path)
    try:
        before = path.read_text(encoding="utf-8")
        browser.get(f"{served.base}/?token=not-the-token")
        assert "wrong or missing token" in browser.find_element(By.TAG_NAME, "body").text
        assert not browser.find_elements(By.ID, "map")
        for call in (("/state", None), ("/map", None), ("/record", None),
                     ("/step", {"revision": served.table.revision, "answer": _first_die(served)}),
                     ("/undo", {"revision": served.table.revision})):
            status, body = served.call(*call, token="wrong")
            assert status == 403 and "token" in body["error"] and "Ann" not in json.dumps(body)
        req = urllib.request.Request(f"{served.base}/state")  # no token at all
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(req, timeout=30)
        assert e.value.code == 403
        assert path.read_text(encoding="utf-8") == before and served.table.game.version == 0
    finally:
        served.stop()


def test_bad_answers_are_refused_with_the_rule_and_change_nothing(tmp_path: Path):
    served, path = _start(tmp_path)
    try:
        rev = served.table.revision
        for answer, rule in (("gear9@nowhere", "CORE-DICE-01"), ("text", "CORE-DICE-01"), ("", None)):
            status, body = served.call("/step", {"revision": rev, "answer": answer})
            assert status == 422 and body["ok"] is False and body["error"], (answer, body)
            if rule:
                assert body["rule"] == rule, body
        for bad in (b"not json", b'["a list"]', b'{"answer": "r"}'):
            req = urllib.request.Request(f"{served.base}/step?token={served.server.token}", data=bad)
            with pytest.raises(urllib.error.HTTPError) as e:
                urllib.request.urlopen(req, timeout=30)
            assert e.value.code == 400 and b"Traceback" not in e.value.read()
        status, body = served.call("/step", {"revision": rev, "answer": 3})
        assert status == 400
        status, body = served.call("/nowhere")
        assert status == 404
        assert served.table.game.version == 0 and served.table.revision == rev
        assert len(path.read_text(encoding="utf-8").splitlines()) == 1
    finally:
        served.stop()
