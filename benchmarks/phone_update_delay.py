"""How long the phone scoreboard takes to show a step after the journal has it on disk.

    python benchmarks/phone_update_delay.py [--steps 20] [--turns 0]

Serves a game's journal on 127.0.0.1 (the same server as ``scorekeeper serve``), opens the page in
headless chromium (Debian's chromium and chromium-driver) in a phone-sized viewport, then appends
one step at a time through the game's journal. Each delay runs from the moment the journal's
write (synced) returns to the moment the page's board is replaced, as a MutationObserver in the
page stamps it (the same machine's clock on both sides). ``--turns`` plays that many finished
turns first, for the delay in a long game (every change re-reads the whole journal). Prints each
delay and the median.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from selenium.webdriver import Chrome, ChromeOptions
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

from scorekeeper.game import Game
from scorekeeper.game.journal import Journal
from scorekeeper.rules import load_rules
from scorekeeper.serve import BackgroundServer

WATCH = """
window.stamps = [];
new MutationObserver(() => window.stamps.push(Date.now()))
  .observe(document.getElementById("board"), {childList: true});
"""
"""Stamps, in milliseconds since the epoch, every time the page puts a new board in place."""


def browser() -> Chrome:
    binary, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if binary is None or driver is None:
        sys.exit("needs Debian's chromium and chromium-driver: apt-get install chromium chromium-driver")
    options = ChromeOptions()
    options.binary_location = binary
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 2}})
    return Chrome(service=Service(executable_path=driver), options=options)


def step(game: Game) -> None:
    """One step of play, one journal line: a roll, a keep, or a bank once the turn holds 300."""
    turn = game.state.turn
    assert turn is not None
    if turn.roll is not None:
        game.keep("1")
    elif turn.total >= 300:
        game.bank()
    else:
        game.roll(" ".join("152346"[: turn.dice_left]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20, help="steps to time (default 20)")
    parser.add_argument("--turns", type=int, default=0, help="finished turns played before timing (default 0)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="phone-delay-"))
    journal = Journal.create(folder / "game.jsonl")
    game = Game.new(load_rules("retail"), ["Ann", "Bob", "Cleo", "Dan"], sink=journal.write)
    for _ in range(args.turns):
        game.roll("1 5 2 3 4 6")
        game.keep("1 5")
        game.bank()
    server = BackgroundServer(journal.path, "127.0.0.1")
    url = server.start()
    chrome = browser()
    delays: list[float] = []
    try:
        chrome.get(url)
        wait = WebDriverWait(chrome, 10, poll_frequency=0.01)
        wait.until(lambda page: "Live" in page.find_element("id", "live").text)
        chrome.execute_script(WATCH)
        for number in range(args.steps):
            seen = len(chrome.execute_script("return window.stamps"))
            step(game)
            written = time.time() * 1000
            wait.until(lambda page: len(page.execute_script("return window.stamps")) > seen)
            shown = chrome.execute_script("return window.stamps")[seen]
            delays.append(shown - written)
            print(f"step {number + 1:2}: {delays[-1]:6.1f} ms", flush=True)
            time.sleep(0.05)
    finally:
        chrome.quit()
        server.stop()
        journal.close()
        shutil.rmtree(folder, ignore_errors=True)
    print(f"journal of {len(game.events)} events; median of {len(delays)}: {statistics.median(delays):.1f} ms "
          f"(min {min(delays):.1f}, max {max(delays):.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
