"""The scoreboard server: one read-only page of a game for the players' phones, on aiohttp.

Everything lives under ``/TOKEN/``, where TOKEN is a random secret of at least 128 bits:

* ``/TOKEN/``: the page, with the board drawn in it (readable without JavaScript);
* ``/TOKEN/events``: the board again after every change, as server-sent events;
* ``/TOKEN/style.css``, ``/TOKEN/board.js``: the page's own files;
* ``/TOKEN/roll/NAME.jpg``: the picture of the last roll, the one file the journal names for it.

A damaged journal is shown up to the line where it breaks, the page saying so, and the terminal
is told once (see :meth:`ScoreServer._tell`).

Any other path, and any path with another token, answers a bare 404. Only GET (and HEAD) is taken:
nothing the page or anyone else sends can change the game. Every answer says ``no-store`` and
carries a content security policy that lets the page load nothing but its own files. Connections
are held to :class:`~scorekeeper.serve.connections.ConnectionLimits`, and at most ``max_clients``
pages follow the game at once; a page load is never turned away for them.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from pathlib import Path

from aiohttp import web

from scorekeeper.errors import ScorekeeperError
from scorekeeper.game.photos import read_photo, roll_photo
from scorekeeper.serve.board import Board
from scorekeeper.serve.connections import BACKLOG, SECURITY_HEADERS, ConnectionLimits, Connections, GuardedConnection
from scorekeeper.serve.follow import GameFollower
from scorekeeper.serve.page import assets, board_html, page_html

log = logging.getLogger(__name__)

TOKEN_BYTES = 24
"""Random bytes in the address's token: 192 bits, well over the 128 asked for."""
MAX_CLIENTS = 32
"""Pages following the game at once (each holds an update stream); one more gets the board without updates."""
FULL_RETRY_MILLISECONDS = 10_000
"""How long a page turned away from the updates waits before it asks again."""
POLL_SECONDS = 0.1
"""How often the game's file is checked for a change."""
KEEPALIVE_SECONDS = 15.0
"""How long an update stream stays quiet before a comment line checks the phone is still there."""


class ServeError(ScorekeeperError):
    """The scoreboard server cannot start (the address cannot be bound, say)."""


def sse_message(board: Board, number: int) -> bytes:
    """One server-sent event carrying the board's HTML (one ``data:`` line per line of it).

    >>> from scorekeeper.serve.board import Board
    >>> sse_message(Board((), None, 0, None, "", "", (), "", 10000, "retail", 0), 3).decode()[:29]
    'id: 3\\ndata: <p class="waiting'
    """
    lines = "".join(f"data: {line}\n" for line in board_html(board).split("\n"))
    return f"id: {number}\n{lines}\n".encode("utf-8")


def _not_found() -> web.Response:
    return web.Response(status=404, text="Not found")


class ScoreServer:
    """Serves one game's board on ``host:port`` until stopped; see the module's description."""

    def __init__(
        self,
        game_file: Path,
        host: str,
        port: int = 0,
        *,
        max_clients: int = MAX_CLIENTS,
        limits: ConnectionLimits = ConnectionLimits(),
    ) -> None:
        """``port`` 0 takes any free port; :attr:`url` says which once :meth:`start` has run."""
        self.host = host
        """The address listened on."""
        self.port = port
        """The port listened on (the one the system chose once started, when 0 was asked)."""
        self.token = secrets.token_urlsafe(TOKEN_BYTES)
        """The secret part of the address."""
        self.max_clients = max_clients
        """Pages following the game at once; one more is told to ask again later."""
        self.follower = GameFollower(game_file)
        """Reads the game's file as it changes."""
        self._assets = assets()
        self._number = 0
        self._changed = asyncio.Event()
        self._streams = 0
        self._connections = Connections(limits)
        self._listener: asyncio.Server | None = None
        self._runner: web.AppRunner | None = None
        self._watch: asyncio.Task[None] | None = None
        self._stopping = asyncio.Event()
        self._told = ""

    @property
    def url(self) -> str:
        """The page's address, token included."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/{self.token}/"

    @property
    def clients(self) -> int:
        """Pages following the game now (each by its update stream)."""
        return self._streams

    @property
    def connections(self) -> int:
        """Connections open now."""
        return len(self._connections)

    def follow(self, game_file: Path) -> None:
        """Show another game from now on (the window started or resumed one); call in the server's loop."""
        if game_file != self.follower.path:
            self.follower = GameFollower(game_file)
            self._refresh()

    def _refresh(self) -> None:
        if self.follower.check() is not None:
            self._number += 1
            changed, self._changed = self._changed, asyncio.Event()
            changed.set()
        self._tell()

    def _tell(self) -> None:
        """Say on the terminal, once each time it changes, what is wrong with the game's file: it
        cannot be read, or the journal is damaged (the page says so too), or it reads whole again."""
        follower = self.follower
        damage = follower.damage
        told = follower.problem
        if not told and follower.board is not None and follower.board.damaged_at and damage is not None:
            told = (
                f"{follower.path}: the journal is damaged at line {damage.line} ({damage.reason}); the phones show the "
                "scores up to there (going on with the game recovers every step that still follows the rules)"
            )
        if told != self._told:
            if told:
                log.warning("scoreboard: %s", told)
            else:
                log.warning("scoreboard: %s reads whole again; the phones show all of it", follower.path)
            self._told = told

    async def start(self) -> None:
        """Read the game, then listen; raises :class:`ServeError` when either cannot be done."""
        self._refresh()
        if self.follower.board is None:
            raise ServeError(self.follower.problem)
        app = web.Application(middlewares=[self._answering])
        app.on_response_prepare.append(self._headers)
        app.router.add_route("*", "/{token}", self._bare)
        app.router.add_route("*", "/{token}/", self._page)
        app.router.add_route("*", "/{token}/events", self._events)
        app.router.add_route("*", "/{token}/roll/{name}.jpg", self._picture)
        app.router.add_route("*", "/{token}/{asset}", self._asset)
        self._runner = web.AppRunner(app, handle_signals=False, handler_cancellation=True, shutdown_timeout=1.0)
        await self._runner.setup()
        manager = self._runner.server
        assert manager is not None
        try:
            self._listener = await asyncio.get_running_loop().create_server(
                lambda: GuardedConnection(manager, self._connections), self.host, self.port, backlog=BACKLOG
            )
        except OSError as exc:
            await self._runner.cleanup()
            self._runner = None
            raise ServeError(
                f"cannot listen on {self.host} port {self.port}: {exc.strerror or exc}; "
                "give another --port (or 0 for any free one), or an address of this machine with --host"
            ) from None
        self.port = int(self._listener.sockets[0].getsockname()[1])
        self._watch = asyncio.create_task(self._watch_file())

    async def stop(self) -> None:
        """Close every connection and stop listening."""
        self._stopping.set()
        self._changed.set()
        if self._watch is not None:
            self._watch.cancel()
            await asyncio.gather(self._watch, return_exceptions=True)
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _watch_file(self) -> None:
        while True:
            await asyncio.sleep(POLL_SECONDS)
            self._refresh()

    @web.middleware
    async def _answering(self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        """Mark the connection busy while its request is answered (so it is never closed as silent,
        nor to make room), and make any 404 the bare one."""
        connection = request.protocol
        assert isinstance(connection, GuardedConnection)
        connection.begin()
        try:
            return await handler(request)
        except web.HTTPException as exc:
            if exc.status == 404:
                return _not_found()
            raise
        finally:
            connection.end()

    async def _headers(self, request: web.Request, response: web.StreamResponse) -> None:
        response.headers.update(SECURITY_HEADERS)

    def _check(self, request: web.Request) -> web.Response | None:
        """The answer that turns the request away, or None when it may be served."""
        if not secrets.compare_digest(request.match_info["token"].encode(), self.token.encode()):
            return _not_found()
        if request.method not in ("GET", "HEAD"):
            return web.Response(status=405, text="The scoreboard is read only", headers={"Allow": "GET, HEAD"})
        return None

    async def _bare(self, request: web.Request) -> web.StreamResponse:
        refused = self._check(request)
        if refused is not None:
            return refused
        raise web.HTTPFound(f"/{self.token}/")

    async def _page(self, request: web.Request) -> web.StreamResponse:
        refused = self._check(request)
        if refused is not None:
            return refused
        board = self.follower.board
        assert board is not None
        return web.Response(text=page_html(board), content_type="text/html", charset="utf-8")

    async def _asset(self, request: web.Request) -> web.StreamResponse:
        refused = self._check(request)
        asset = self._assets.get(request.match_info["asset"])
        if refused is not None or asset is None:
            return refused or _not_found()
        return web.Response(body=asset.body, headers={"Content-Type": asset.content_type})

    async def _picture(self, request: web.Request) -> web.StreamResponse:
        refused = self._check(request)
        if refused is not None:
            return refused
        name = request.match_info["name"]
        board = self.follower.board
        roll = board.last_roll if board is not None else None
        if roll is None or roll.picture != name:
            return _not_found()
        photo = roll_photo(self.follower.path, name)
        body = read_photo(photo.path) if photo.shown else None
        if body is None:
            return _not_found()
        return web.Response(body=body, content_type="image/jpeg")

    async def _events(self, request: web.Request) -> web.StreamResponse:
        refused = self._check(request)
        if refused is not None:
            return refused
        if request.method == "HEAD":
            return web.Response(headers={"Content-Type": "text/event-stream"})
        if self._streams >= self.max_clients:
            return web.Response(
                text=f"retry: {FULL_RETRY_MILLISECONDS}\n\n: {self._streams} pages are following the game already\n\n",
                content_type="text/event-stream",
            )
        self._streams += 1
        try:
            return await self._stream(request)
        finally:
            self._streams -= 1

    async def _stream(self, request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "X-Accel-Buffering": "no"})
        await response.prepare(request)
        await response.write(b"retry: 1000\n\n")
        sent = -1
        while not self._stopping.is_set():
            board = self.follower.board
            if board is not None and sent != self._number:
                sent = self._number
                await response.write(sse_message(board, sent))
                continue
            changed = self._changed
            try:
                await asyncio.wait_for(changed.wait(), KEEPALIVE_SECONDS)
            except asyncio.TimeoutError:
                await response.write(b": still here\n\n")
        return response
