"""A scoreboard server on a thread of its own, for a program whose own loop is busy (the window's)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from scorekeeper.serve.server import MAX_CLIENTS, ScoreServer, ServeError

START_SECONDS = 10.0
"""How long :meth:`BackgroundServer.start` waits for the server to listen."""


class BackgroundServer:
    """Runs a :class:`ScoreServer` in an asyncio loop on a daemon thread; start, follow and stop
    are called from any other thread.

    >>> import tempfile
    >>> from scorekeeper.game import Game, save_game
    >>> from scorekeeper.rules import load_rules
    >>> saved = Path(tempfile.mkdtemp()) / "game.json"
    >>> save_game(Game.new(load_rules("retail"), ["Ann"]), saved)
    >>> server = BackgroundServer(saved, "127.0.0.1")
    >>> server.start().startswith("http://127.0.0.1:")
    True
    >>> server.stop()
    """

    def __init__(self, game_file: Path, host: str, port: int = 0, max_clients: int = MAX_CLIENTS) -> None:
        self._settings = (game_file, host, port, max_clients)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: ScoreServer | None = None
        self._stop: asyncio.Event | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="scoreboard server", daemon=True)

    @property
    def url(self) -> str:
        """The page's address (once started)."""
        assert self._server is not None
        return self._server.url

    def start(self) -> str:
        """Start serving; returns the page's address, or raises :class:`ServeError` saying why not."""
        self._thread.start()
        if not self._ready.wait(START_SECONDS):
            raise ServeError(f"the scoreboard server did not start within {START_SECONDS:.0f} seconds")
        if self._error is not None:
            self._thread.join()
            raise self._error
        return self.url

    def follow(self, game_file: Path) -> None:
        """Show another game's file from now on."""
        if self._loop is not None and self._server is not None:
            self._loop.call_soon_threadsafe(self._server.follow, game_file)

    def stop(self) -> None:
        """Close every page's connection and stop the thread."""
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        if self._thread.is_alive():
            self._thread.join()

    def _run(self) -> None:
        asyncio.run(self._main())

    async def _main(self) -> None:
        game_file, host, port, max_clients = self._settings
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        server = ScoreServer(game_file, host, port, max_clients=max_clients)
        try:
            await server.start()
        except ServeError as exc:
            self._error = exc
            self._ready.set()
            return
        self._server = server
        self._ready.set()
        await self._stop.wait()
        await server.stop()
