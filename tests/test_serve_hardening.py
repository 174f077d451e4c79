"""The phone scoreboard against careless and hostile clients (issue 51): connections that send or read
nothing, malformed requests, many pages following at once. Every server binds to 127.0.0.1, every
client connects only there, and every test stops its server and closes its sockets."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

import aiohttp
import pytest

from scorekeeper.game import Game, save_game
from scorekeeper.rules import load_rules
from scorekeeper.serve import ScoreServer
from scorekeeper.serve.connections import ConnectionLimits, OneLineEvery
from tests.test_serve import LOCAL, next_message, run

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    save_game(Game.new(load_rules("retail"), ["Ann", "Bob"]), path)
    return path


@asynccontextmanager
async def serving(game_file: Path, limits: ConnectionLimits, max_clients: int = 8) -> AsyncIterator[ScoreServer]:
    server = ScoreServer(game_file, LOCAL, 0, max_clients=max_clients, limits=limits)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


async def until(condition: object, seconds: float) -> bool:
    """Whether ``condition()`` turned true within ``seconds``."""
    assert callable(condition)
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while loop.time() < end:
        if condition():
            return True
        await asyncio.sleep(0.02)
    return bool(condition())


async def fetch(url: str, seconds: float = 2.0) -> tuple[int, str]:
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=seconds)) as session:
        async with session.get(url) as response:
            return response.status, await response.text()


def idle_sockets(port: int, count: int) -> list[socket.socket]:
    """``count`` connections to the port that send nothing, opened twenty at a time (as fast as a
    server that accepts them takes them in)."""
    sockets: list[socket.socket] = []
    for number in range(count):
        if number % 20 == 0:
            time.sleep(0.05)
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        sock.connect_ex((LOCAL, port))
        sockets.append(sock)
    return sockets


@contextmanager
def closing_all(sockets: list[socket.socket]) -> Iterator[None]:
    try:
        yield
    finally:
        for sock in sockets:
            sock.close()


def raw_exchange(port: int, request: bytes, seconds: float = 3.0) -> bytes:
    """What the server sends back to ``request`` until it closes the connection (or ``seconds`` pass)."""
    with socket.create_connection((LOCAL, port), timeout=seconds) as sock:
        sock.sendall(request)
        received = b""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                chunk = sock.recv(65536)
            except (TimeoutError, ConnectionResetError):
                break
            if not chunk:
                break
            received += chunk
        return received


def send_until_cut_off(sock: socket.socket, data: bytes) -> None:
    try:
        sock.sendall(data)
    except OSError:
        pass


def headers_of(answer: bytes) -> dict[str, str]:
    head = answer.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")[1:]
    return {name.lower(): value.strip() for name, value in (line.split(":", 1) for line in head)}


# --- connections that send nothing, or read nothing ---------------------------------------------


def test_a_connection_that_sends_nothing_or_half_a_request_is_closed_after_the_idle_time(saved: Path) -> None:
    async def test() -> None:
        async with serving(saved, ConnectionLimits(idle_seconds=0.3)) as server:
            for sent in (b"", b"GET /" + server.token.encode() + b"/ HTTP/1.1\r\nHost: x\r\n"):
                reader, writer = await asyncio.open_connection(LOCAL, server.port)
                writer.write(sent)
                started = asyncio.get_running_loop().time()
                assert await asyncio.wait_for(reader.read(), 3) == b""
                assert asyncio.get_running_loop().time() - started < 2
                writer.close()
            assert await until(lambda: server.connections == 0, 2)

    run(test)


def test_hundreds_of_idle_connections_from_one_address_leave_room_for_a_page_load(saved: Path) -> None:
    async def test() -> None:
        limits = ConnectionLimits(total=40, per_address=20, idle_seconds=30)
        async with serving(saved, limits) as server:
            with closing_all(await asyncio.to_thread(idle_sockets, server.port, 300)):
                assert await until(lambda: server.connections >= 20, 3)
                await asyncio.sleep(0.3)
                assert server.connections <= 20
                status, page = await fetch(server.url)
                assert status == 200 and "Ann to play" in page

    run(test)


def test_a_reader_that_reads_nothing_is_cut_off_and_others_are_still_served(saved: Path) -> None:
    async def test() -> None:
        async with serving(saved, ConnectionLimits(idle_seconds=30, write_seconds=0.3)) as server:
            path = server.url.split(str(server.port), 1)[1]
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.connect((LOCAL, server.port))
            try:
                # thousands of pipelined page loads: megabytes of answers, more than the system buffers
                sending = asyncio.create_task(asyncio.to_thread(send_until_cut_off, sock, f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode() * 6000))
                assert await until(lambda: server.connections == 1, 2)
                assert await until(lambda: server.connections == 0, 4), "a reader that never reads holds its connection"
                status, _ = await fetch(server.url)
                assert status == 200
                await sending
            finally:
                sock.close()

    run(test)


def test_where_every_connection_is_busy_a_newcomer_is_answered_503_with_the_headers(saved: Path) -> None:
    async def test() -> None:
        async with serving(saved, ConnectionLimits(per_address=2)) as server:
            async with aiohttp.ClientSession() as session:
                streams = [await session.get(server.url + "events") for _ in range(2)]
                for stream in streams:
                    await next_message(stream.content)
                answer = await asyncio.to_thread(raw_exchange, server.port, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", 2.0)
                assert answer.startswith(b"HTTP/1.1 503 ") and headers_of(answer)["retry-after"] == "5"
                assert headers_of(answer)["cache-control"] == "no-store" and headers_of(answer)["server"] == "scorekeeper"
                assert server.clients == 2, "the pages following the game were left alone"
                for stream in streams:
                    stream.close()

    run(test)


@pytest.mark.slow
def test_serve_under_a_low_open_file_limit_answers_a_phone_past_hundreds_of_idle_connections(saved: Path, tmp_path: Path) -> None:
    def start() -> None:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))

    env = {**os.environ, "SCOREKEEPER_HOME": str(tmp_path / "home")}
    command = [sys.executable, "-m", "scorekeeper", "serve", str(saved), "--host", LOCAL]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT, preexec_fn=start
    )
    try:
        assert process.stdout is not None
        found = re.search(r"at (http://127\.0\.0\.1:(\d+)/\S+/)$", process.stdout.readline().strip())
        assert found
        with closing_all(idle_sockets(int(found.group(2)), 300)):
            time.sleep(1)
            status, page = asyncio.run(fetch(found.group(1), 3))
            assert status == 200 and "Ann to play" in page
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=15)
        assert process.returncode == 0 and "Stopped." in out
        assert err == "", "stderr grows with idle connections"
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


# --- malformed requests ----------------------------------------------------------------------------


def test_malformed_requests_log_one_quiet_line_and_are_answered_with_the_security_headers(
    saved: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async def test() -> None:
        async with serving(saved, ConnectionLimits()) as server:
            for _ in range(40):
                answer = await asyncio.to_thread(
                    raw_exchange, server.port, f"GET /{server.token}/{'x' * 9000} HTTP/1.1\r\nHost: x\r\n\r\n".encode()
                )
                assert re.match(rb"HTTP/1\.[01] 400 ", answer), answer[:80]
                headers = headers_of(answer)
                assert headers["cache-control"] == "no-store"
                assert "default-src 'none'" in headers["content-security-policy"]
                assert headers["x-content-type-options"] == "nosniff"
                assert headers["server"] == "scorekeeper"

    with caplog.at_level(logging.DEBUG):
        run(test)
    shown = [record for record in caplog.records if record.levelno >= logging.WARNING]
    assert len(shown) <= 1, [record.getMessage()[:100] for record in shown]
    for record in shown:
        assert record.exc_info is None and "\n" not in record.getMessage() and len(record.getMessage()) < 300


def test_the_quiet_line_is_one_line_at_most_every_interval_and_counts_what_it_held_back() -> None:
    now = [100.0]
    quiet = OneLineEvery(10.0, clock=lambda: now[0])
    logger = logging.getLogger("tests.quiet")

    def record(text: str) -> logging.LogRecord:
        try:
            raise ValueError(text + "\n  and more")
        except ValueError:
            return logger.makeRecord("tests.quiet", logging.ERROR, __file__, 1, "Error handling request from %s", ("10.0.0.7",), sys.exc_info())

    first = record("bad request line")
    assert quiet.filter(first)
    assert first.getMessage() == "scoreboard: Error handling request from 10.0.0.7: ValueError: bad request line and more"
    assert first.exc_info is None and first.exc_text is None
    assert not any(quiet.filter(record("again")) for _ in range(99))
    now[0] += 10.0
    later = record("x" * 1000)
    assert quiet.filter(later)
    assert later.getMessage().endswith("(99 more like it since the last line)")
    assert len(later.getMessage()) < 250


def test_every_answer_names_the_server_without_a_version(saved: Path) -> None:
    async def test() -> None:
        async with serving(saved, ConnectionLimits()) as server:
            async with aiohttp.ClientSession() as session:
                for method, url in (("GET", server.url), ("GET", server.url + "nothing"), ("POST", server.url)):
                    async with session.request(method, url) as response:
                        assert response.headers["Server"] == "scorekeeper", (method, url, response.status)

    run(test)


# --- many pages following at once ------------------------------------------------------------------


def test_pages_following_the_game_never_turn_a_page_load_away(saved: Path) -> None:
    async def test() -> None:
        async with serving(saved, ConnectionLimits(), max_clients=2) as server:
            async with aiohttp.ClientSession() as session:
                first = await session.get(server.url + "events")
                second = await session.get(server.url + "events")
                await next_message(first.content)
                await next_message(second.content)
                assert server.clients == 2
                for _ in range(5):
                    async with session.get(server.url) as page:
                        assert page.status == 200 and "Ann to play" in await page.text()
                async with session.get(server.url + "events") as third:
                    assert third.status == 200 and third.content_type == "text/event-stream"
                    assert third.headers["Cache-Control"] == "no-store"
                    body = await asyncio.wait_for(third.text(), 2)
                    assert "data:" not in body and re.search(r"^retry: \d{4,}$", body, re.M), body
                first.close()
                assert await until(lambda: server.clients < 2, 2)
                async with session.get(server.url + "events") as again:
                    assert "Ann to play" in await asyncio.wait_for(next_message(again.content), 2)
                second.close()

    run(test)


def test_head_on_the_event_stream_has_no_body(saved: Path) -> None:
    async def test() -> None:
        async with serving(saved, ConnectionLimits()) as server:
            request = f"HEAD /{server.token}/events HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode()
            answer = await asyncio.to_thread(raw_exchange, server.port, request, 2.0)
            head, _, body = answer.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 200") and headers_of(answer)["content-type"].startswith("text/event-stream")
            assert body == b""

    run(test)
