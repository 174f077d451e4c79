"""The scoreboard server's connections: how many it keeps open, how long it waits on each, and what
it says when it turns one away, so that connections which send or read nothing never lock a phone out.

* At most :attr:`ConnectionLimits.total` connections are open at once (fewer where the process may
  open few files), and :attr:`ConnectionLimits.per_address` from one address. A connection past
  either limit closes the longest-silent connection that is not being answered (of its address, or
  of all) to make room; only where every one is busy is the newcomer answered 503.
* A connection that sends no whole request within :attr:`ConnectionLimits.idle_seconds` of opening
  or of its last answer is closed.
* A reader that leaves an answer unread for :attr:`ConnectionLimits.write_seconds` (the send buffer
  full all that time) is cut off.
* A malformed request is answered 400 with the headers every answer carries, and logged as one
  line, at most one line every :data:`LOG_EVERY_SECONDS`.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from aiohttp.web_protocol import RequestHandler
from aiohttp.web_request import BaseRequest
from aiohttp.web_response import StreamResponse
from aiohttp.web_server import Server

from scorekeeper.errors import ScorekeeperError

SECURITY_HEADERS = {
    "Cache-Control": "no-store",
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Server": "scorekeeper",
}
"""Sent with every answer, the 404s, the 400s and the 503s included (the server named without a version)."""
BACKLOG = 64
"""Connections the system holds for the server before it takes them in."""
LOG_EVERY_SECONDS = 10.0
"""At most one line about malformed requests in this many seconds."""


class ConnectionLimitsError(ScorekeeperError):
    """A connection limit that no server can keep (no connection at all, or no time to send a request)."""


@dataclass(frozen=True)
class ConnectionLimits:
    """How many connections the scoreboard keeps open, and how long it waits on each."""

    total: int = 256
    """Connections open at once, from all addresses (fewer where the open-file limit is lower)."""
    per_address: int = 32
    """Connections open at once from one address (a phone's browser opens about six, and one more per page)."""
    idle_seconds: float = 10.0
    """How long a connection may stay silent, before its first request or after an answer, before it is closed."""
    write_seconds: float = 10.0
    """How long a reader may leave an answer unread (the send buffer full) before it is cut off."""

    def __post_init__(self) -> None:
        if self.total < 1 or self.per_address < 1:
            raise ConnectionLimitsError(f"connections {self.total} in all, {self.per_address} per address: at least 1 each")
        if self.idle_seconds <= 0 or self.write_seconds <= 0:
            raise ConnectionLimitsError(
                f"idle {self.idle_seconds} s, write {self.write_seconds} s: give each connection some time"
            )

    def within_open_files(self) -> ConnectionLimits:
        """These limits, with no more connections than half of the files this process may open
        (less the backlog): the other half is the rest of the program's."""
        if sys.platform == "win32":
            return self
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft == resource.RLIM_INFINITY:
            return self
        room = max(1, (soft - BACKLOG) // 2)
        return replace(self, total=min(self.total, room), per_address=min(self.per_address, room))


def busy_answer() -> bytes:
    """The raw answer to a connection turned away before its request: 503, try again in a few seconds."""
    body = b"Too many connections; try again in a few seconds.\n"
    headers = {
        **SECURITY_HEADERS,
        "Retry-After": "5",
        "Connection": "close",
        "Content-Type": "text/plain; charset=utf-8",
        "Content-Length": str(len(body)),
    }
    head = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
    return f"HTTP/1.1 503 Service Unavailable\r\n{head}\r\n".encode("ascii") + body


class OneLineEvery(logging.Filter):
    """Lets at most one record through every ``seconds``, as one line without its traceback (the
    exception's type and message on one line, shortened), saying how many it held back since the last."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.seconds = seconds
        """The shortest time between two lines."""
        self._clock = clock
        self._next = float("-inf")
        self._held = 0

    def filter(self, record: logging.LogRecord) -> bool:
        now = self._clock()
        if now < self._next:
            self._held += 1
            return False
        self._next = now + self.seconds
        line = f"scoreboard: {record.getMessage()}"
        exc = record.exc_info[1] if record.exc_info else None
        if exc is not None:
            reason = " ".join(str(exc).split())
            line += f": {type(exc).__name__}: {reason[:120]}{'...' if len(reason) > 120 else ''}"
        if self._held:
            line += f" ({self._held} more like it since the last line)"
        record.msg, record.args, record.exc_info, record.exc_text = line, None, None, None
        self._held = 0
        return True


REQUEST_LOG = logging.getLogger("scorekeeper.serve.requests")
"""Where the server says what went wrong with a request (one quiet line, see :class:`OneLineEvery`)."""
REQUEST_LOG.addFilter(OneLineEvery(LOG_EVERY_SECONDS))


class Connections:
    """The open connections of one server, and the limits they are held to."""

    def __init__(self, limits: ConnectionLimits) -> None:
        self.limits = limits.within_open_files()
        """The limits kept (those asked for, fitted to the open-file limit)."""
        self._open: dict[GuardedConnection, str] = {}

    def __len__(self) -> int:
        return len(self._open)

    def admit(self, connection: GuardedConnection, address: str) -> bool:
        """Count a new connection in, closing the longest-silent idle one of its address (or of
        all) where a limit is reached; False where every connection there is busy."""
        same = [other for other, at in self._open.items() if at == address]
        if len(same) >= self.limits.per_address and not self._close_quietest(same):
            return False
        if len(self._open) >= self.limits.total and not self._close_quietest(list(self._open)):
            return False
        self._open[connection] = address
        return True

    def forget(self, connection: GuardedConnection) -> None:
        """The connection closed."""
        self._open.pop(connection, None)

    def _close_quietest(self, among: list[GuardedConnection]) -> bool:
        idle = [connection for connection in among if connection.requests == 0]
        if not idle:
            return False
        quietest = min(idle, key=lambda connection: connection.quiet_since)
        self.forget(quietest)
        quietest.force_close()
        return True


class GuardedConnection(RequestHandler):
    """aiohttp's handler of one connection, held to the server's :class:`Connections`: turned away
    past its limits, closed when silent, cut off when it reads nothing; a malformed request's 400
    carries the security headers."""

    def __init__(self, manager: Server, connections: Connections) -> None:
        limits = connections.limits
        settings: dict[str, Any] = {"keepalive_timeout": limits.idle_seconds, "logger": REQUEST_LOG, "access_log": None}
        self._clock = asyncio.get_running_loop()
        super().__init__(manager, loop=self._clock, **settings)
        self.connections = connections
        """The server's connections, this one among them once admitted."""
        self.requests = 0
        """Requests of this connection being answered now (an open page's update stream is one)."""
        self.quiet_since = self._clock.time()
        """When the connection opened, or its last request was answered."""
        self._turned_away = False
        self._transport: asyncio.Transport | None = None
        self._silence: asyncio.TimerHandle | None = None
        self._stalled: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) else ""
        if not self.connections.admit(self, address):
            self._turned_away = True
            assert isinstance(transport, asyncio.WriteTransport)
            transport.write(busy_answer())
            transport.close()
            return
        super().connection_made(transport)
        assert isinstance(transport, asyncio.Transport)
        self._transport = transport
        self._silence = self._clock.call_at(self.quiet_since + self.connections.limits.idle_seconds, self._check_silence)

    def connection_lost(self, exc: BaseException | None) -> None:
        if self._turned_away:
            return
        self.connections.forget(self)
        for timer in (self._silence, self._stalled):
            if timer is not None:
                timer.cancel()
        super().connection_lost(exc)

    def begin(self) -> None:
        """A request of this connection is being answered."""
        self.requests += 1

    def end(self) -> None:
        """A request of this connection has been answered (its answer may still be on its way)."""
        self.requests -= 1
        self.quiet_since = self._clock.time()

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._stalled is None:
            self._stalled = self._clock.call_later(self.connections.limits.write_seconds, self._cut_off)

    def resume_writing(self) -> None:
        super().resume_writing()
        if self._stalled is not None:
            self._stalled.cancel()
            self._stalled = None

    def handle_error(
        self, request: BaseRequest, status: int = 500, exc: BaseException | None = None, message: str | None = None
    ) -> StreamResponse:
        response = super().handle_error(request, status, exc, message)
        response.headers.update(SECURITY_HEADERS)
        return response

    def _check_silence(self) -> None:
        idle_seconds = self.connections.limits.idle_seconds
        now = self._clock.time()
        if self.requests == 0 and now >= self.quiet_since + idle_seconds:
            self._silence = None
            self.force_close()
            return
        wake = self.quiet_since if self.requests == 0 else now
        self._silence = self._clock.call_at(wake + idle_seconds, self._check_silence)

    def _cut_off(self) -> None:
        self._stalled = None
        if self._transport is not None:
            self._transport.abort()
