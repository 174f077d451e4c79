"""The phone scoreboard in a real browser: Debian's chromium, headless, in a phone-sized viewport,
driven through chromedriver. It loads the page, the game's journal grows, the page follows.

.ci/run installs chromium and chromium-driver where they are missing, so in CI (``CI`` set) their
absence fails the test; elsewhere it skips and says what to install. Set SCOREKEEPER_SCREENSHOTS to
a folder to keep the phone screenshot the test takes.
"""

from __future__ import annotations

import os
import shutil
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.game import Game
from scorekeeper.game.journal import Journal
from scorekeeper.rules import load_rules
from scorekeeper.serve import BackgroundServer

pytest.importorskip("selenium.webdriver")
from selenium.webdriver import Chrome, ChromeOptions  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

PHONE = {"width": 390, "height": 844, "pixelRatio": 2}
"""A phone held in portrait (CSS pixels), as chromium's device emulation takes it."""
LOCAL = "127.0.0.1"

pytestmark = pytest.mark.slow


@pytest.fixture
def phone() -> Iterator[Chrome]:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if browser is None or driver is None:
        missing = "chromium and chromium-driver (Debian packages) are not installed"
        if os.environ.get("CI"):
            pytest.fail(f"{missing}, but .ci/run installs them")
        pytest.skip(f"{missing}: apt-get install chromium chromium-driver, as .ci/run does")
    options = ChromeOptions()
    options.binary_location = browser
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"):
        options.add_argument(argument)
    options.add_experimental_option("mobileEmulation", {"deviceMetrics": PHONE})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    chrome = Chrome(service=Service(executable_path=driver), options=options)
    chrome.set_page_load_timeout(30)
    try:
        yield chrome
    finally:
        chrome.quit()


READ_BOARD = """
const text = (selector) => { const found = document.querySelector(selector); return found ? found.textContent : null; };
return {
  scores: Array.from(document.querySelectorAll("#scores tbody tr")).map(
    (row) => [row.querySelector("td.name").firstChild.textContent, row.querySelector("td.score").textContent]),
  turn: text("#turn h2"),
  total: text("#turn-total"),
  dice: Array.from(document.querySelectorAll("#last-roll .die")).map((die) => die.title),
  lastTurn: text("#last-turn"),
  live: text("#live"),
};
"""
"""What the page shows, read in one go (the board is replaced whole at each update)."""


def board(chrome: Chrome) -> dict[str, Any]:
    shown: dict[str, Any] = chrome.execute_script(READ_BOARD)
    shown["scores"] = {name: score for name, score in shown["scores"]}
    return shown


def png_size(path: Path) -> tuple[int, int]:
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    width, height = struct.unpack(">II", header[16:24])
    return width, height


def test_the_page_follows_the_journal_in_a_phone_browser(phone: Chrome, tmp_path: Path) -> None:
    journal = Journal.create(tmp_path / "game.jsonl")
    game = Game.new(load_rules("house-2009"), ["Ann", "Bob", "Cleo"], sink=journal.write)
    server = BackgroundServer(journal.path, LOCAL)
    url = server.start()
    try:
        phone.get(url)
        wait = WebDriverWait(phone, 10, poll_frequency=0.05)
        assert board(phone)["scores"] == {"Ann": "0", "Bob": "0", "Cleo": "0"}
        wait.until(lambda chrome: "Live" in board(chrome)["live"])

        game.roll("1 1 1 5 5 2")
        game.keep("1 1 1 5 5")
        wait.until(lambda chrome: board(chrome)["total"] == "1,100")
        assert board(phone)["dice"] == ["1", "1", "1", "2", "5", "5"]
        game.bank()
        wait.until(lambda chrome: board(chrome)["scores"]["Ann"] == "1,100")
        shown = board(phone)
        assert shown["turn"] == "Bob to play"
        assert shown["lastTurn"] == "Ann banks 1,100: now 1,100."

        game.roll("2 2 3 3 4 6")
        game.farkle()
        game.roll("5 5 5 1 2 3")
        game.keep("5 5 5 1")
        game.roll("1 1")
        game.keep("1 1")
        wait.until(lambda chrome: board(chrome)["total"] == "800")
        shown = board(phone)
        assert shown["turn"] == "Cleo to play" and shown["dice"] == ["1", "1"]
        assert shown["lastTurn"].startswith("FARKLE! Bob")
        assert phone.current_url == url, "the page never reloaded"
        problems = [entry for entry in phone.get_log("browser") if entry["level"] == "SEVERE"]
        assert not problems, problems

        folder = Path(os.environ.get("SCOREKEEPER_SCREENSHOTS") or tmp_path)
        folder.mkdir(parents=True, exist_ok=True)
        shot = folder / "44-phone.png"
        assert phone.save_screenshot(str(shot))
        assert png_size(shot) == (PHONE["width"] * PHONE["pixelRatio"], PHONE["height"] * PHONE["pixelRatio"])
    finally:
        server.stop()
        journal.close()


def test_a_damaged_journal_is_said_on_the_phone_above_the_scores(phone: Chrome, tmp_path: Path) -> None:
    journal = Journal.create(tmp_path / "game.jsonl")
    game = Game.new(load_rules("retail"), ["Ann", "Bob"], sink=journal.write)
    game.roll("1 1 5 2 3 4")
    game.keep("1 1 5")
    game.bank()
    server = BackgroundServer(journal.path, LOCAL)
    url = server.start()
    try:
        phone.get(url)
        wait = WebDriverWait(phone, 10, poll_frequency=0.05)
        wait.until(lambda chrome: "Live" in board(chrome)["live"])
        with open(journal.path, "a", encoding="utf-8") as tamper:
            tamper.write('{"type":"rolled","dice":"../../etc/passwd"}\n')
        game.roll("5 5 5 2 3 4")
        notice = wait.until(lambda chrome: chrome.execute_script(
            "const found = document.getElementById('damaged');"
            "if (!found) { return null; } const box = found.getBoundingClientRect();"
            "return {text: found.textContent, top: box.top, height: box.height, role: found.getAttribute('role'),"
            " scores: document.getElementById('scores').getBoundingClientRect().top,"
            " background: getComputedStyle(found).backgroundColor};"
        ))
        assert notice["text"] == "This game's journal is damaged at line 8; the scores shown are up to there."
        assert notice["role"] == "alert" and notice["height"] > 0 and notice["top"] < notice["scores"] < PHONE["height"]
        assert notice["background"] == "rgb(198, 40, 40)", "the style sheet (no inline style under the page's policy) colours it"
        shown = board(phone)
        assert shown["scores"] == {"Ann": "250", "Bob": "0"} and shown["turn"] == "Bob to play" and shown["total"] == "0"
        problems = [entry for entry in phone.get_log("browser") if entry["level"] == "SEVERE"]
        assert not problems, problems
        folder = Path(os.environ.get("SCOREKEEPER_SCREENSHOTS") or tmp_path)
        folder.mkdir(parents=True, exist_ok=True)
        assert phone.save_screenshot(str(folder / "51-phone-journal-damaged.png"))
    finally:
        server.stop()
        journal.close()


READ_RACE = """
const svg = document.querySelector("#race svg");
if (!svg) { return null; }
const box = svg.getBoundingClientRect();
const lines = Array.from(svg.querySelectorAll("polyline"));
return {
  width: box.width, height: box.height,
  players: lines.map((line) => line.getAttribute("data-player")),
  points: lines.map((line) => line.points.numberOfItems),
  stroked: lines.map((line) => getComputedStyle(line).stroke),
  drawn: lines.map((line) => line.getBBox().width),
};
"""
"""The score race as the browser draws it (None while the page has none)."""


def test_the_score_race_is_drawn_on_the_phone_within_the_pages_policy(phone: Chrome, tmp_path: Path) -> None:
    journal = Journal.create(tmp_path / "game.jsonl")
    game = Game.new(load_rules("house-2009"), ["Ann", "Bob", "Cleo"], sink=journal.write)
    for points in (1500, 1000, 2000, 3500, 0, 1200):
        if points:
            game.enter_points(points)
            game.bank()
        else:
            game.roll("2 2 3 3 4 6")
            game.farkle()
    server = BackgroundServer(journal.path, LOCAL)
    url = server.start()
    try:
        phone.get(url)
        wait = WebDriverWait(phone, 10, poll_frequency=0.05)
        wait.until(lambda chrome: "Live" in board(chrome)["live"])
        race = phone.execute_script(READ_RACE)
        assert race is not None and race["players"] == ["Ann", "Bob", "Cleo"]
        assert race["points"] == [7, 7, 7], "each player's score after each of 6 turns, from 0"
        assert race["stroked"] == ["rgb(0, 114, 178)", "rgb(213, 94, 0)", "rgb(0, 158, 115)"], "presentation attributes style it"
        assert all(width > 100 for width in race["drawn"])
        assert PHONE["width"] * 0.8 < race["width"] <= PHONE["width"] and race["height"] > 200
        game.enter_points(800)
        game.roll("2 2 3 3 4 6")
        game.farkle()
        wait.until(lambda chrome: (chrome.execute_script(READ_RACE) or {}).get("points") == [8, 8, 8])
        problems = [entry for entry in phone.get_log("browser") if entry["level"] == "SEVERE"]
        assert not problems, f"the page's policy refused something: {problems}"
        phone.execute_script("document.getElementById('race').scrollIntoView()")
        folder = Path(os.environ.get("SCOREKEEPER_SCREENSHOTS") or tmp_path)
        folder.mkdir(parents=True, exist_ok=True)
        assert phone.save_screenshot(str(folder / "53-phone-race.png"))
    finally:
        server.stop()
        journal.close()
