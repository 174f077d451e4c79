"""The phone scoreboard without a browser: the board, the page, following the file, the server's
answers and refusals, the command. Every server binds to 127.0.0.1 and is stopped by its test."""

from __future__ import annotations

import asyncio
import hashlib
import os
import re
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path

import aiohttp
import pytest

from scorekeeper.cli import main
from scorekeeper.cli.serve import game_to_follow
from scorekeeper.game import Banked, DiceRolled, Game, Kept, save_game
from scorekeeper.game.games_folder import new_journal_path
from scorekeeper.game.history_edits import with_turn_replaced
from scorekeeper.game.journal import Journal
from scorekeeper.game.photos import photo_file, photos_folder
from scorekeeper.rules import Dice, load_rules
from scorekeeper.serve import BackgroundServer, GameFollower, ScoreServer, ServeError, board_of, page_html
from scorekeeper.serve.page import board_html

ROOT = Path(__file__).resolve().parent.parent
LOCAL = "127.0.0.1"


def journal_game(folder: Path, names: tuple[str, ...] = ("Ann", "Bob"), rules: str = "retail") -> tuple[Game, Journal]:
    journal = Journal.create(folder / "game.jsonl")
    return Game.new(load_rules(rules), list(names), sink=journal.write), journal


# --- the board ---------------------------------------------------------------------------------


def test_the_board_shows_scores_whose_turn_the_turn_total_and_the_last_roll() -> None:
    game = Game.new(load_rules("retail"), ["Ann", "Bob"])
    game.roll("1 1 5 2 3 4")
    game.keep("1 1 5")
    game.bank()
    game.roll("1 5 2 3 4 6")
    game.keep("1")
    board = board_of(game.events)
    assert [(s.name, s.score, s.to_play) for s in board.seats] == [("Ann", 250, False), ("Bob", 0, True)]
    assert board.to_play == "Bob"
    assert board.turn_total == 100
    assert board.last_roll is not None and board.last_roll.player == "Bob"
    assert board.last_roll.dice == (1, 2, 3, 4, 5, 6)
    assert board.last_turn == "Ann banks 250: now 250."
    assert board.final_lap == "" and board.winner == ""


def test_the_last_roll_is_the_one_a_tap_corrected() -> None:
    game = Game.new(load_rules("retail"), ["Ann"])
    game.roll("1 2 3 4 6 6")
    game.correct(6, 5)
    board = board_of(game.events)
    assert board.last_roll is not None and board.last_roll.dice == (1, 2, 3, 4, 5, 6)


def test_the_last_roll_of_a_finished_turn_stays_until_the_next_roll() -> None:
    game = Game.new(load_rules("retail"), ["Ann", "Bob"])
    game.roll("2 2 3 3 4 6")
    game.farkle()
    board = board_of(game.events)
    assert board.last_roll is not None and (board.last_roll.player, board.last_roll.dice) == ("Ann", (2, 2, 3, 3, 4, 6))
    assert board.to_play == "Bob" and board.last_turn.startswith("FARKLE! Ann")


def test_the_board_shows_the_final_lap_then_the_winner() -> None:
    game = Game.new(load_rules("retail"), ["Ann", "Bob"])
    for _ in range(10):
        game.enter_points(1000, "typed in for the test")
    game.bank()
    board = board_of(game.events)
    assert game.state.final_lap, "the test needs Ann past the target"
    assert board.final_lap.startswith("Last lap: Ann reached 10,000")
    game.roll("2 2 3 3 4 6")
    game.farkle()
    board = board_of(game.events)
    assert board.final_lap == "" and board.to_play is None
    assert board.winner == "Game over: Ann wins!"
    assert [seat.winner for seat in board.seats] == [True, False]


def test_players_not_yet_on_the_board_are_marked_where_the_rules_ask_for_an_entry_minimum() -> None:
    game = Game.new(load_rules("house-2009"), ["Ann", "Bob"])
    assert [seat.on_board for seat in board_of(game.events).seats] == [False, False]
    assert [seat.on_board for seat in board_of(Game.new(load_rules("retail"), ["Ann"]).events).seats] == [True]


def test_a_roll_that_names_its_picture_shows_it_and_a_typed_roll_shows_none() -> None:
    name = hashlib.sha256(b"a roll").hexdigest()
    game = Game.new(load_rules("retail"), ["Ann"])
    game.act(DiceRolled(Dice.from_str("1 2 3 4 6 6"), "camera", name))
    board = board_of(game.events)
    assert board.last_roll is not None and board.last_roll.picture == name
    assert f'<img class="roll-picture" src="roll/{name}.jpg"' in board_html(board)
    game.keep("1")
    game.roll("2 3 4 6 6")
    assert board_of(game.events).last_roll == replace(board.last_roll, dice=(2, 3, 4, 6, 6), picture=None)
    assert "<img" not in board_html(board_of(game.events))


def test_the_page_escapes_what_players_typed() -> None:
    game = Game.new(load_rules("retail"), ["<script>x</script>", "Bob & Co"])
    page = page_html(board_of(game.events))
    assert "<script>x" not in page and "&lt;script&gt;x&lt;/script&gt;" in page
    assert "Bob &amp; Co" in page


# --- following the file ------------------------------------------------------------------------


def test_the_follower_sees_a_journal_grow_and_a_line_cut_off_mid_write(tmp_path: Path) -> None:
    game, journal = journal_game(tmp_path)
    follower = GameFollower(journal.path)
    assert follower.check() is not None
    game.roll("1 5 2 3 4 6")
    game.keep("1 5")
    board = follower.check()
    assert board is not None and board.turn_total == 150
    with open(journal.path, "ab") as stream:
        stream.write(b'{"type":"banked","by":{"seat":0,"name":"Ann"}')
    assert follower.check() is None, "half a line changes nothing yet"
    assert follower.damage is not None
    with open(journal.path, "ab") as stream:
        stream.write(b"}\n")
    board = follower.check()
    assert board is not None and board.seats[0].score == 150 and follower.damage is None
    journal.close()


def test_the_follower_takes_a_turn_corrected_in_the_history(tmp_path: Path) -> None:
    game, journal = journal_game(tmp_path)
    game.roll("5 2 3 4 6 6")
    game.keep("5")
    game.bank()
    follower = GameFollower(journal.path)
    board = follower.check()
    assert board is not None and board.seats[0].score == 50
    fixed = with_turn_replaced(game.events, 0, [DiceRolled(Dice.from_str("1 5 2 3 4 6")), Kept(Dice.from_str("1 5")), Banked()])
    journal.rebuilt(fixed)
    board = follower.check()
    assert board is not None and board.seats[0].score == 150 and board.last_roll is not None
    journal.close()


def test_the_follower_sees_a_saved_game_replaced_and_keeps_the_board_when_the_file_goes(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    game = Game.new(load_rules("retail"), ["Ann", "Bob"])
    save_game(game, saved)
    follower = GameFollower(saved)
    assert follower.check() is not None
    game.roll("5 5 5 2 3 4")
    game.keep("5 5 5")
    game.bank()
    save_game(game, saved)
    board = follower.check()
    assert board is not None and board.seats[0].score == 500
    saved.unlink()
    assert follower.check() is None
    assert "not there" in follower.problem and follower.board == board


# --- the server ------------------------------------------------------------------------------------


@asynccontextmanager
async def serving(game_file: Path, max_clients: int = 8) -> AsyncIterator[tuple[ScoreServer, aiohttp.ClientSession]]:
    server = ScoreServer(game_file, LOCAL, 0, max_clients=max_clients)
    await server.start()
    try:
        async with aiohttp.ClientSession() as session:
            yield server, session
    finally:
        await server.stop()


def run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(test(), 30))


def test_the_page_carries_the_scoreboard_and_the_headers(tmp_path: Path) -> None:
    game, journal = journal_game(tmp_path)
    game.roll("1 1 5 2 3 4")
    game.keep("1 1 5")
    game.bank()

    async def test() -> None:
        async with serving(journal.path) as (server, session):
            assert server.url.startswith(f"http://{LOCAL}:{server.port}/")
            async with session.get(server.url) as response:
                assert response.status == 200
                assert response.headers["Cache-Control"] == "no-store"
                policy = response.headers["Content-Security-Policy"]
                assert "default-src 'none'" in policy and "script-src 'self'" in policy and "http" not in policy
                page = await response.text()
            main = re.search(r'<main id="board">(.*)</main>', page, re.S)
            assert main is not None
            assert re.search(r'<td class="name">Ann</td><td class="score">250</td>', main.group(1))
            assert "Bob to play" in main.group(1)
            for asset, kind in (("style.css", "text/css"), ("board.js", "text/javascript"), ("icon.svg", "image/svg+xml")):
                async with session.get(server.url + asset) as response:
                    assert response.status == 200 and response.content_type == kind
                    assert response.headers["Cache-Control"] == "no-store"

    run(test)
    journal.close()


def test_the_token_is_random_and_long(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    save_game(Game.new(load_rules("retail"), ["Ann"]), saved)
    tokens = {ScoreServer(saved, LOCAL).token for _ in range(3)}
    assert len(tokens) == 3
    assert all(len(token) * 6 >= 128 and re.fullmatch(r"[A-Za-z0-9_-]+", token) for token in tokens)


def test_other_paths_and_other_tokens_answer_a_bare_404(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    save_game(Game.new(load_rules("retail"), ["Ann"]), saved)
    (tmp_path / "secret.txt").write_text("not for phones")

    async def test() -> None:
        async with serving(saved) as (server, session):
            base = f"http://{LOCAL}:{server.port}"
            wrong = server.token[:-1] + ("A" if server.token[-1] != "A" else "B")
            paths = [
                "/",
                "/favicon.ico",
                f"/{wrong}/",
                f"/{wrong}/events",
                f"/{wrong}/style.css",
                f"/{server.token}/nothing-here",
                f"/{server.token}/assets/",
                f"/{server.token}/assets/page.html",
                f"/{server.token}/roll/",
                f"/{server.token}/roll/{'0' * 64}.jpg",
                f"/{server.token}/secret.txt",
                f"/{server.token}/game.json",
                f"/{server.token}/%2e%2e/secret.txt",
                f"/{server.token}/style.css/",
            ]
            answers = set()
            for path in paths:
                async with session.get(base + path, allow_redirects=False) as response:
                    answers.add((path, response.status))
                    assert response.status == 404, path
                    assert await response.text() == "Not found", path
                    assert response.headers["Cache-Control"] == "no-store"
            async with session.post(f"{base}/{wrong}/") as response:
                assert response.status == 404
            assert len(answers) == len(paths)

    run(test)


def test_the_page_changes_nothing_in_the_game(tmp_path: Path) -> None:
    game, journal = journal_game(tmp_path)
    before = journal.path.read_bytes()

    async def test() -> None:
        async with serving(journal.path) as (server, session):
            for method in ("POST", "PUT", "DELETE", "PATCH"):
                for suffix in ("", "events", "style.css"):
                    async with session.request(method, server.url + suffix, data=b'{"type":"banked"}') as response:
                        assert response.status == 405, (method, suffix)

    run(test)
    assert journal.path.read_bytes() == before
    journal.close()


async def next_message(stream: aiohttp.StreamReader) -> str:
    """The data of the next server-sent event."""
    data: list[str] = []
    while True:
        line = (await stream.readline()).decode("utf-8").rstrip("\n")
        if line.startswith("data: "):
            data.append(line.removeprefix("data: "))
        elif line == "" and data:
            return "\n".join(data)


def test_an_append_to_the_journal_reaches_the_stream_within_a_second(tmp_path: Path) -> None:
    game, journal = journal_game(tmp_path)

    async def test() -> None:
        async with serving(journal.path) as (server, session):
            async with session.get(server.url + "events") as response:
                assert response.content_type == "text/event-stream"
                assert response.headers["Cache-Control"] == "no-store"
                first = await next_message(response.content)
                assert '<td class="score">0</td>' in first and "Ann to play" in first
                loop = asyncio.get_running_loop()
                game.roll("5 5 5 2 3 4")
                game.keep("5 5 5")
                game.bank()
                written = loop.time()
                update = await asyncio.wait_for(next_message(response.content), 1.0)
                while "Bob to play" not in update:
                    update = await asyncio.wait_for(next_message(response.content), 1.0)
                assert loop.time() - written < 1.0
                assert '<td class="name">Ann</td><td class="score">500</td>' in update

    run(test)
    journal.close()


def test_stopping_ends_the_open_streams(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    save_game(Game.new(load_rules("retail"), ["Ann"]), saved)

    async def test() -> None:
        server = ScoreServer(saved, LOCAL)
        await server.start()
        async with aiohttp.ClientSession() as session:
            async with session.get(server.url + "events") as response:
                await next_message(response.content)
                await asyncio.wait_for(server.stop(), 5)
                with pytest.raises((aiohttp.ClientError, asyncio.IncompleteReadError)):
                    while True:
                        if not await asyncio.wait_for(response.content.readline(), 5):
                            raise asyncio.IncompleteReadError(b"", None)
            with pytest.raises(aiohttp.ClientConnectionError):
                await session.get(server.url)

    run(test)


def test_the_picture_the_last_roll_names_is_served_and_no_other_nor_a_damaged_one(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    game = Game.new(load_rules("retail"), ["Ann"])
    game.roll("1 2 3 4 6 6")
    save_game(game, saved)
    shown, other, damaged = b"\xff\xd8 the roll", b"\xff\xd8 another roll", b"\xff\xd8 kept"
    names = [hashlib.sha256(body).hexdigest() for body in (shown, other, damaged)]
    photos_folder(saved).mkdir()
    for name, body in zip(names, (shown, other, damaged[:-1])):
        photo_file(saved, name).write_bytes(body)

    async def test() -> None:
        async with serving(saved) as (server, session):
            board = server.follower.board
            assert board is not None and board.last_roll is not None
            server.follower.board = replace(board, last_roll=replace(board.last_roll, picture=names[0]))
            async with session.get(server.url + f"roll/{names[0]}.jpg") as response:
                assert response.status == 200 and response.content_type == "image/jpeg"
                assert await response.read() == shown
            async with session.get(server.url + f"roll/{names[1]}.jpg") as response:
                assert response.status == 404
            server.follower.board = replace(board, last_roll=replace(board.last_roll, picture=names[2]))
            async with session.get(server.url + f"roll/{names[2]}.jpg") as response:
                assert response.status == 404

    run(test)


def test_a_game_that_cannot_be_read_or_a_port_in_use_stops_the_start_with_the_reason(tmp_path: Path) -> None:
    (tmp_path / "broken.json").write_text("{not json")

    async def test() -> None:
        with pytest.raises(ServeError, match="broken.json"):
            await ScoreServer(tmp_path / "broken.json", LOCAL).start()
        saved = tmp_path / "game.json"
        save_game(Game.new(load_rules("retail"), ["Ann"]), saved)
        async with serving(saved) as (server, _):
            with pytest.raises(ServeError, match=f"cannot listen on {LOCAL} port {server.port}.*--port"):
                await ScoreServer(saved, LOCAL, server.port).start()

    run(test)


def test_the_background_server_follows_the_game_on_screen(tmp_path: Path) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    save_game(Game.new(load_rules("retail"), ["Ann"]), first)
    save_game(Game.new(load_rules("retail"), ["Zoe"]), second)
    server = BackgroundServer(first, LOCAL)
    url = server.start()

    async def fetch() -> str:
        async with aiohttp.ClientSession() as session, session.get(url) as response:
            return await response.text()

    try:
        assert "Ann to play" in asyncio.run(fetch())
        server.follow(second)
        for _ in range(50):
            if "Zoe to play" in asyncio.run(fetch()):
                break
        assert "Zoe to play" in asyncio.run(fetch())
    finally:
        server.stop()
    with pytest.raises(aiohttp.ClientConnectionError):
        asyncio.run(fetch())


# --- the command -----------------------------------------------------------------------------------


def test_serve_follows_the_newest_unfinished_game_and_tidies_nothing(tmp_path: Path) -> None:
    older = Journal.create(new_journal_path(tmp_path))
    Game.new(load_rules("retail"), ["Ann"], sink=older.write).roll("1 5 2 3 4 6")
    older.close()
    newer_path = older.path.with_name("2999-01-01_00-00-00.jsonl")
    newer = Journal.create(newer_path)
    Game.new(load_rules("retail"), ["Bob"], sink=newer.write).roll("1 5 2 3 4 6")
    newer.close()
    os.utime(older.path, (1, 1))
    leftover = older.path.with_name(f".{older.path.name}.recovering")
    leftover.write_text("a recovery in progress")
    assert game_to_follow(None, tmp_path) == newer_path
    assert leftover.exists(), "a window may be recovering that journal right now"
    assert game_to_follow(older.path, tmp_path) == older.path


def test_serve_says_what_is_wrong_with_the_game_it_was_given(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "notes.txt").write_text("hello")
    assert main(["serve", str(tmp_path / "missing.jsonl"), "--host", LOCAL]) == 2
    assert "missing.jsonl: no such file" in capsys.readouterr().err
    assert main(["serve", str(tmp_path / "notes.txt"), "--host", LOCAL]) == 2
    assert "not a scorekeeper journal or saved game" in capsys.readouterr().err
    assert main(["serve", str(tmp_path / "notes.txt"), "--port", "70000"]) == 2
    assert "--port 70000" in capsys.readouterr().err


def test_serve_with_no_game_and_none_unfinished_says_how_to_name_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREKEEPER_HOME", str(tmp_path))
    assert main(["serve", "--host", LOCAL]) == 2
    assert "no unfinished game" in capsys.readouterr().err


@pytest.mark.slow
def test_the_serve_command_prints_the_address_serves_it_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    game, journal = journal_game(tmp_path)
    journal.close()
    env = {**os.environ, "SCOREKEEPER_HOME": str(tmp_path / "home")}
    command = [sys.executable, "-m", "scorekeeper", "serve", str(journal.path), "--host", LOCAL]
    # Ctrl+C as at a terminal, even where the suite was started in the background (a shell then
    # starts it, and every child, with SIGINT ignored)
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        found = re.search(rf"at (http://{re.escape(LOCAL)}:\d+/[A-Za-z0-9_-]{{32}}/)$", line.strip())
        assert found, line

        async def fetch() -> str:
            async with aiohttp.ClientSession() as session, session.get(found.group(1)) as response:
                assert response.status == 200
                return await response.text()

        assert "Ann to play" in asyncio.run(fetch())
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=15)
        assert process.returncode == 0, err
        assert "Stopped." in out
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
