"""A damaged journal on the phones and the terminal: the page says where the journal breaks and that
the scores shown are up to there, the update stream carries it, the terminal is told once, and a
last line still being written is not called damage."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
import pytest

import scorekeeper.serve.follow as follow_module
from scorekeeper.game import Game
from scorekeeper.game.journal import Journal, open_journal
from scorekeeper.rules import load_rules
from scorekeeper.serve import GameFollower, ScoreServer
from tests.test_serve import next_message

ROOT = Path(__file__).resolve().parent.parent
LOCAL = "127.0.0.1"
BAD_LINE = '{"type":"kept","dice":"../../etc/passwd"}\n'
NOTICE = re.compile(r'<p class="banner damaged" id="damaged" role="alert">This game\'s journal is damaged at line (\d+); '
                    r"the scores shown are up to there\.</p>")


def ann_banked(folder: Path) -> tuple[Game, Journal]:
    """A journal whose line 7 is Ann banking 250 (then it is Bob's turn)."""
    journal = Journal.create(folder / "game.jsonl")
    game = Game.new(load_rules("retail"), ["Ann", "Bob"], sink=journal.write)
    game.roll("1 1 5 2 3 4")
    game.keep("1 1 5")
    game.bank()
    return game, journal


def test_a_bad_line_is_said_on_the_page_in_the_stream_and_once_on_the_terminal(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    game, journal = ann_banked(tmp_path)
    caplog.set_level(logging.WARNING, logger="scorekeeper.serve.server")

    async def test() -> None:
        server = ScoreServer(journal.path, LOCAL, 0)
        await server.start()
        try:
            async with aiohttp.ClientSession() as session:
                async with session.get(server.url) as response:
                    assert NOTICE.search(await response.text()) is None
                async with session.get(server.url + "events") as stream:
                    assert NOTICE.search(await next_message(stream.content)) is None
                    with open(journal.path, "a", encoding="utf-8") as tamper:
                        tamper.write(BAD_LINE)
                    game.roll("5 5 5 2 3 4")  # the writer goes on after the bad line
                    game.keep("5 5 5")
                    game.bank()
                    update = await asyncio.wait_for(next_message(stream.content), 2.0)
                    found = NOTICE.search(update)
                    assert found is not None and found.group(1) == "8", update
                    assert '<td class="name">Ann</td><td class="score">250</td>' in update and "Bob to play" in update, "up to line 8"
                    await asyncio.sleep(0.5)  # several more looks at the file
                    async with session.get(server.url) as response:
                        page = await response.text()
                    assert NOTICE.search(page) is not None and "Bob to play" in page
                    told = [record.getMessage() for record in caplog.records]
                    assert told == [
                        f"scoreboard: {journal.path}: the journal is damaged at line 8 (event {{'type': 'kept', "
                        "'dice': '../../etc/passwd'}: field 'dice' is missing or of the wrong type); the phones show the "
                        "scores up to there (going on with the game recovers every step that still follows the rules)"
                    ]
                    journal.close()
                    open_journal(journal.path).journal.close()  # resumed and recovered
                    update = await asyncio.wait_for(next_message(stream.content), 2.0)
                    assert NOTICE.search(update) is None and '<td class="name">Bob</td><td class="score">500</td>' in update
                    assert caplog.records[-1].getMessage() == f"scoreboard: {journal.path} reads whole again; the phones show all of it"
        finally:
            await server.stop()

    asyncio.run(asyncio.wait_for(test(), 30))


def test_a_last_line_being_written_is_damage_only_once_it_stays_cut_off(tmp_path: Path) -> None:
    _, journal = ann_banked(tmp_path)
    journal.close()
    now = [100.0]
    follower = GameFollower(journal.path, clock=lambda: now[0])
    assert follower.check() is not None
    with open(journal.path, "ab") as stream:
        stream.write(b'{"type":"rolled","dice":[1,')
    assert follower.check() is None and follower.damage is not None
    now[0] += follow_module.CUT_OFF_SECONDS / 2
    assert follower.check() is None, "a writer may be writing the line now"
    now[0] += follow_module.CUT_OFF_SECONDS
    board = follower.check()
    assert board is not None and board.damaged_at == 8 and board.seats[0].score == 250
    with open(journal.path, "ab") as stream:
        stream.write(b'2,3,4,5,6],"by":{"seat":1,"name":"Bob"}}\n')
    board = follower.check()
    assert board is not None and board.damaged_at == 0 and board.last_roll is not None


@pytest.mark.slow
def test_the_serve_command_says_on_the_terminal_once_that_the_journal_is_damaged(tmp_path: Path) -> None:
    _, journal = ann_banked(tmp_path)
    journal.close()
    with open(journal.path, "a", encoding="utf-8") as tamper:
        tamper.write("not json\n")
    env = {**os.environ, "SCOREKEEPER_HOME": str(tmp_path / "home")}
    process = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper", "serve", str(journal.path), "--host", LOCAL],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert process.stdout is not None
        process.stdout.readline()
        time.sleep(1.0)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=15)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert err.splitlines() == [
        f"scoreboard: {journal.path}: the journal is damaged at line 8 (not a JSON line: not valid JSON at column 1 "
        "(Expecting value)); the phones show the scores up to there "
        "(going on with the game recovers every step that still follows the rules)"
    ], err
