"""``rallyc serve``: a game at the table in headless Chromium (Debian's ``chromium`` and ``chromedriver``, as the
replay viewer's tests use them).

A two-player stage of Rally 1 with the dice typed from the table: turns played by clicking (the dice laid one by
one, roll, the faces entered), the car drawn where the referee says; a reload and a server started again on the
journal lose nothing; two pages show the same game; a step sent from a page that had not seen the latest step is
refused and applied to nothing; a wrong token sees nothing and changes nothing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from helpers.paths import EXAMPLES
from helpers.served import Served
from rallyc.table import journal
from rallyc.table.setup import Seat, TableSetup

WAIT = 20
SLOW = os.environ.get("RALLYC_SLOW") == "1"


def _start(tmp_path: Path, tires_chosen: bool = True) -> tuple[Served, Path]:
    """Ann and Bob on SS1 of Rally 1, served; the first stage's tires (MC-TIRE-03) kept by both unless
    ``tires_chosen`` is False (then the page asks them first)."""
    setup = TableSetup(str(EXAMPLES / "rally-1.rally"), (Seat("Ann", "red"), Seat("Bob", "blue")), stage="SS1")
    path = tmp_path / "game.jsonl"
    game = journal.start(path, setup, tmp_path)
    if tires_chosen:
        game.answer("k")
        game.answer("k")
    return Served(game), path


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
    before = _revision(d)
    _click(d, "#lay")
    WebDriverWait(d, WAIT).until(lambda d: _revision(d) != before)
    for _ in range(40):
        # the page shows the game's latest step before the next answer is chosen: the question answered is the one
        # on the screen (read from the server before the page had shown the last step's answer, it was once the
        # question before, whose button had gone: a 20 s wait for it)
        WebDriverWait(d, WAIT).until(lambda d: _revision(d) == served.table.revision)
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
    served, path = _start(tmp_path, tires_chosen=False)
    try:
        browser.get(served.url)
        # the first stage's tires, asked of each player before the first turn (MC-TIRE-03): Ann fits asphalt, Bob
        # keeps his gravel tires
        for who, key in (("Ann", "asphalt"), ("Bob", "k")):
            WebDriverWait(browser, WAIT).until(lambda d: f"{who}, your tires for SS1" in _words(d))
            assert "MC-TIRE-03" in _words(browser)
            _click(browser, f"#choices button[data-key='{key}']")
        WebDriverWait(browser, WAIT).until(lambda d: "Ann, lay your dice" in _words(d))
        assert "Stage SS1: Ann fits asphalt tires (MC-TIRE-03)." in browser.find_element(By.ID, "happened").text
        assert served.table.game.record()["stages"][0]["tires"] == {"Ann": "asphalt"}
        WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#map svg"))
        after_ann = _play_turn_by_clicking(browser, served)
        assert after_ann["happened"][-1]["player"] == "Ann"
        assert _words(browser) == after_ann["prompt"]["words"] and "lay your dice" in _words(browser)
        ann = next(c for c in after_ann["cars"] if c["name"] == "Ann")
        WebDriverWait(browser, WAIT).until(lambda d: _cars_on_map(d).get("Ann") == ann["space"])
        turn_text = browser.find_element(By.ID, "happened").text
        assert after_ann["happened"][-1]["text"] in turn_text
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
        for _ in range(10):
            if served.table.game.prompt().kind != "plan":  # a try before was overtaken by the page: back to the plan
                assert served.call("/undo", {"revision": served.table.revision})[0] == 200
            WebDriverWait(browser, WAIT).until(lambda d: _revision(d) == served.table.revision)
            seen, answer = _revision(browser), _first_die(served)
            box, send = browser.find_element(By.ID, "answer"), browser.find_element(By.ID, "send")
            box.clear()
            box.send_keys(answer)  # typed in the answer box, not sent yet
            status, _ = served.call("/step", {"revision": seen, "answer": answer})
            assert status == 200
            moved = served.table.game.version
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if _revision(browser) != seen:  # the page looked again in between (it asks once a second): once more
                continue
            send.click()
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
        assert path.read_text(encoding="utf-8") == before and served.table.game.version == 2  # the tires kept
    finally:
        served.stop()


def test_bad_answers_are_refused_with_the_rule_and_change_nothing(tmp_path: Path):
    served, path = _start(tmp_path, tires_chosen=False)
    try:
        rev = served.table.revision
        for answer in ("tank", "gear1@1.3.l", ""):  # the first stage's tires asked: no such tires, not a plan yet
            status, body = served.call("/step", {"revision": rev, "answer": answer})
            assert status == 422 and body["rule"] == "MC-TIRE-03" and "keep the gravel tires" in body["error"], body
        assert served.table.game.version == 0 and len(path.read_text(encoding="utf-8").splitlines()) == 1
        for _ in ("Ann", "Bob"):
            assert served.call("/step", {"revision": served.table.revision, "answer": "k"})[0] == 200
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
        assert served.table.game.version == 2 and served.table.revision == rev
        assert len(path.read_text(encoding="utf-8").splitlines()) == 3
    finally:
        served.stop()


def _type(d, answer: str) -> str:
    """Type ``answer`` in the page's answer box and send it, as a player does; the message the page then shows."""
    before = _revision(d)
    box = d.find_element(By.ID, "answer")
    box.clear()
    box.send_keys(answer)
    d.find_element(By.ID, "send").click()
    WebDriverWait(d, WAIT).until(lambda d: _revision(d) != before or "refused" in _message_class(d))
    return d.find_element(By.ID, "message").text


def test_a_failed_flat_out_re_laid_on_another_path_typed_in_the_page(browser, tmp_path: Path):
    """After a failed Flat Out (Ann's faces typed at the table: two Warnings at the end), the page offers the same
    path as a button; Ann types another re-laying the rules allow in the answer box (CORE-ROLL-13). A die that was
    not rolled is refused with its rule and changes nothing; the re-laying on the hairpin's inside is applied and the
    car drawn there."""
    setup = TableSetup(str(EXAMPLES / "rally-1.rally"), (Seat("Ann", "red"),), stage="SS1")
    path = tmp_path / "game.jsonl"
    game = journal.start(path, setup, tmp_path)
    for answer in ("k", "gear1@1.3.l gear2@2.1.out1 leader@2.1.out2 gear3@3.1.l gear4@3.2.l flat", *"wooww"):
        game.answer(answer)
    served = Served(game)
    try:
        browser.get(served.url)
        WebDriverWait(browser, WAIT).until(lambda d: "CORE-ROLL-13" in _words(d))
        same = browser.find_element(By.CSS_SELECTOR, "#choices button[data-key='1']").text
        assert "the rolled dice laid again on the same path: gear1@1.3.l w, gear2@2.1.out1 o" in same
        version, lines = game.version, path.read_text(encoding="utf-8")
        message = _type(browser, "gear1@1.3.l gear6@2.1.in1")
        assert message.startswith("Refused [CORE-ROLL-13]") and "no gear6 die was rolled" in message, message
        assert game.version == version and path.read_text(encoding="utf-8") == lines
        assert "CORE-ROLL-13" in _words(browser)  # still the re-laying asked
        _type(browser, "gear1@1.3.l gear2@2.1.in1")  # into the hairpin's inside (limit 1) with gear1's Warning
        WebDriverWait(browser, WAIT).until(lambda d: "0" in _words(d) and "CORE-LOC-05" in _words(d))
        _type(browser, "spinout")
        WebDriverWait(browser, WAIT).until(lambda d: "Loss of Control (Gear 2 over the limit 1) on 2.1.in1"
                                           in d.find_element(By.ID, "happened").text)
        WebDriverWait(browser, WAIT).until(lambda d: _cars_on_map(d).get("Ann") == "2.1.in1")
        relaid = game.record()["stages"][0]["turns"][0]["relaid"]
        assert [r["to"] for r in relaid] == ["1.3.l", "2.1.in1"]
        assert not _errors(browser)
    finally:
        served.stop()


# -- a whole game by clicking: Ann against rallyc's greedy driver on Rally 1's SS1 with the Checkpoints option,
# the dice rolled by rallyc; Ann lays her dice, rolls, answers what the rules ask and types her secret penalty on the
# page only, as a player does

def _wait(d, condition: Any) -> None:
    """Wait for ``condition`` on the page, looking every 50 ms (a game is a few hundred waits)."""
    WebDriverWait(d, WAIT, poll_frequency=0.05).until(condition)


def _changed(d, before: str) -> None:
    """Wait until the page shows a new revision of the game (a step it sent applied), or says it was refused."""
    _wait(d, lambda d: _revision(d) != before or "refused" in _message_class(d))
    assert _revision(d) != before, d.find_element(By.ID, "message").text


def _message_class(d) -> str:
    return d.find_element(By.ID, "message").get_attribute("class") or ""


def _offered(d, laid: list[str]) -> list[Any]:
    """The dice the page offers after ``laid`` (once its answer from the server is shown)."""
    _wait(d, lambda d: d.find_element(By.ID, "next").get_attribute("data-laid") == " ".join(laid))
    return d.find_elements(By.CSS_SELECTOR, "#next button.die")


def _lay_by_clicking(d) -> list[str]:
    """Lay the dice by clicking: each time the first die offered, as far as the road goes; if the last dice laid
    are not a whole plan, start again and lay up to the longest whole plan met on the way. The dice laid."""
    laid: list[str] = []
    whole: list[str] = []
    while True:
        offered = _offered(d, laid)
        if d.find_element(By.ID, "lay").is_enabled():
            whole = list(laid)
        if not offered:
            break
        laid.append(offered[0].get_attribute("data-die"))
        offered[0].click()
    if laid != whole:
        d.find_element(By.ID, "clear").click()
        for k, die in enumerate(whole):
            _offered(d, whole[:k])
            d.find_element(By.CSS_SELECTOR, f"#next button.die[data-die='{die}']").click()
        _offered(d, whole)
    d.find_element(By.ID, "lay").click()
    return whole


def _answer_by_clicking(d) -> None:
    """Answer the question the page shows as a player does: lay the dice, or click a choice (roll the next die, no
    tire change...), or type the secret penalty in its hidden field."""
    before = _revision(d)
    if d.find_element(By.ID, "plan").is_displayed():
        _lay_by_clicking(d)
    elif d.find_elements(By.CSS_SELECTOR, "#choices button"):
        keys = [b.get_attribute("data-key") for b in d.find_elements(By.CSS_SELECTOR, "#choices button")]
        key = next((k for k in ("r", "n") if k in keys), keys[0])
        d.find_element(By.CSS_SELECTOR, f"#choices button[data-key='{key}']").click()
    else:
        field = d.find_element(By.ID, "answer")
        assert "5-second penalty tokens" in _words(d) and field.get_attribute("type") == "password"
        field.send_keys("1")
        d.find_element(By.ID, "send").click()
    _changed(d, before)


def _setup() -> TableSetup:
    return TableSetup(str(EXAMPLES / "rally-1.rally"), (Seat("Bob", "blue", driver="greedy"), Seat("Ann", "red")),
                      stage="SS1", options={"checkpoints": True}, dice="auto", seed=1)


def _click_to_the_end(browser, served: Served) -> list[str]:
    """Ann plays by clicking from where the game is to its end, then the page's result; the classification."""
    browser.get(served.url)
    _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#map svg") and _words(d))
    secret_seen = False
    for _ in range(200):
        if _words(browser) == "The game is over.":
            break
        assert _words(browser).startswith("Ann")  # rallyc answered for Bob, and rolled the dice
        if "penalty tokens" in _words(browser):  # Bob has chosen, in secret: the page says so and no more
            standings = browser.find_element(By.ID, "standings").text
            assert "Checkpoints: Bob has chosen, Ann to choose" in standings
            assert "Checkpoint penalties" not in browser.find_element(By.ID, "happened").text
            secret_seen = True
        _answer_by_clicking(browser)
    assert _words(browser) == "The game is over." and secret_seen
    happened = browser.find_element(By.ID, "happened").text
    assert "Checkpoint penalties (CORE-ADV-10): Ann 5 s, Bob 0 s" in happened  # revealed together, at the end
    standings = browser.find_element(By.ID, "standings").text
    classification = next(line for line in standings.splitlines() if line.startswith("Rally classification: "))
    ranked = classification.split(": ", 1)[1].split(", ")  # "1. Bob 5:10", "2. Ann 6:00"
    order = [r.split()[1] for r in ranked]
    assert sorted(order) == ["Ann", "Bob"]
    _wait(browser,  # the rally sheet in the classification's order
          lambda d: [r.get_attribute("data-player") for r in d.find_elements(By.CSS_SELECTOR, "#sheet tbody tr")]
          == order)
    assert not _errors(browser)
    return ranked


def _replays(path: Path, ranked: list[str]) -> None:
    """``rallyc replay JOURNAL``: exit 0, the game finished, the classification the page showed."""
    res = subprocess.run([sys.executable, "-m", "rallyc", "replay", str(path)], capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "unfinished" not in res.stdout, res.stdout
    lines = res.stdout.splitlines()
    assert all("  " + line in lines for line in ranked), (ranked, res.stdout)  # "  1. Bob 5:10"


def test_the_last_turn_clicked_the_secret_penalty_typed_hidden_and_the_result(browser, tmp_path: Path):
    # the game played to its end through the session, then taken back to Ann's last plan (the journal records the
    # undos): the page continues it
    path = tmp_path / "game.jsonl"
    game = journal.start(path, _setup(), tmp_path)
    game.advance()
    while not game.is_over():
        p = game.prompt()
        if p.kind == "plan":
            laid: list[Any] = []
            while not game.plan_dice(laid)[1]:
                laid.append(game.plan_dice(laid)[0][0])
            game.answer(" ".join(str(d) for d in laid))
        else:
            keys = [c.key for c in p.choices]
            game.answer(next((k for k in ("r", "n") if k in keys), keys[0]) if keys else "1")
    while game.prompt() is None or game.prompt().kind != "plan":
        game.undo_to_person()
    game.journal.close()
    game, notes = journal.resume(path)
    served = Served(game)
    try:
        ranked = _click_to_the_end(browser, served)
    finally:
        served.stop()
    _replays(path, ranked)


if SLOW:  # the whole game by clicking: about 35 s on the 2-core machine under a load of 12
    def test_a_whole_game_played_by_clicking_then_replayed(browser, tmp_path: Path):
        path = tmp_path / "game.jsonl"
        served = Served(journal.start(path, _setup(), tmp_path))
        try:
            ranked = _click_to_the_end(browser, served)
            assert "Bob" in browser.find_element(By.ID, "happened").text  # Bob (rallyc) moved first
        finally:
            served.stop()
        _replays(path, ranked)


def test_a_bot_in_the_first_seat_moves_before_any_page_asks(tmp_path: Path):
    served = Served(journal.start(tmp_path / "game.jsonl", _setup(), tmp_path))
    try:
        state = served.call("/state")[1]  # rallyc kept Bob's tires (MC-TIRE-03); Ann's are asked
        assert state["prompt"]["who"] == "Ann" and state["prompt"]["kind"] == "tires" and not state["prompt"]["bot"]
        assert served.call("/step", {"revision": state["revision"], "answer": "k"})[0] == 200
        state = served.call("/state")[1]
        assert state["prompt"]["who"] == "Ann" and state["prompt"]["kind"] == "plan" and not state["prompt"]["bot"]
        assert state["happened"] and {h["player"] for h in state["happened"]} == {"Bob"}  # ahead, Bob moves on
    finally:
        served.stop()
