"""The one-game lock: a game has one writer, and everyone else can tell who it is.

:class:`GameLock` holds ``GAME.jsonl.lock`` (an ``flock`` on it, which the system lets go of when
the process ends, however it ends) for as long as a journal is open for writing; the file names
the process that holds it. :func:`game_holder` and :func:`check_not_open_elsewhere` ask, without
taking it, whether another process writes a game. Readers (the phones' scoreboard, the exports)
take no lock.
"""

from __future__ import annotations

import fcntl
import json
import os
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from scorekeeper.game.journal_error import JournalError

LOCK_SUFFIX = ".lock"
"""Ending added to a game file's name for its lock (``GAME.jsonl.lock``)."""


@dataclass(frozen=True)
class LockHolder:
    """The process that holds (or last held) a game's lock, as its lock file says."""

    pid: int
    """The process's id (0 when the lock file does not say)."""
    since: str
    """When it took the lock, ISO 8601 ("" when the file does not say)."""

    def __str__(self) -> str:
        if not self.pid:
            return "another process"
        try:
            when = f" since {datetime.fromisoformat(self.since):%H:%M}"
        except ValueError:
            when = ""
        return f"process {self.pid}{when}"


UNKNOWN_HOLDER = LockHolder(0, "")
"""A holder whose lock file does not say who it is (it is being written, or was spoiled)."""


class GameOpenElsewhere(JournalError):
    """The game is open for writing in another process (or another window of this one)."""


def lock_path(game: Path) -> Path:
    """The lock file of the game file ``game``."""
    return game.with_name(game.name + LOCK_SUFFIX)


def _holder_in(handle: int) -> LockHolder | None:
    """Who the open lock file says holds it; None for an empty or unreadable file."""
    try:
        record = json.loads(os.pread(handle, 4096, 0).decode("utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict):
        return None
    pid, since = record.get("pid"), record.get("since")
    if not isinstance(pid, int) or isinstance(pid, bool):
        return None
    return LockHolder(pid, since if isinstance(since, str) else "")


def _open_elsewhere(game: Path, holder: LockHolder) -> GameOpenElsewhere:
    return GameOpenElsewhere(
        f"{game} is already open (in {holder}): go on with it there, or close it there first; "
        f"'scorekeeper serve {game}' shows it read-only meanwhile"
    )


class GameLock:
    """The one writer's hold on a game file, taken with :meth:`take` and let go of with :meth:`release`."""

    def __init__(self, game: Path, handle: int, took_over: LockHolder | None) -> None:
        self.game = game
        """The game file held."""
        self.path = lock_path(game)
        """The lock file."""
        self.took_over = took_over
        """The writer whose lock this one took over: it died without letting go (None if there was none)."""
        self._handle: int | None = handle

    @classmethod
    def take(cls, game: str | Path) -> GameLock:
        """Hold ``game`` for writing; raises :class:`GameOpenElsewhere` naming the process that holds it."""
        game = Path(game)
        path = lock_path(game)
        while True:
            try:
                handle = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as exc:
                raise JournalError(f"{game}: cannot lock the game for writing: {exc.strerror or exc}") from None
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                holder = _holder_in(handle) or UNKNOWN_HOLDER
                os.close(handle)
                raise _open_elsewhere(game, holder) from None
            try:
                current = os.path.samestat(os.fstat(handle), os.stat(path))
            except OSError:
                current = False
            if current:
                break
            os.close(handle)  # a writer let go and removed the file between our open and our lock
        left = _holder_in(handle)
        mine = json.dumps({"pid": os.getpid(), "since": datetime.now().astimezone().isoformat(timespec="seconds")})
        try:
            os.ftruncate(handle, 0)
            os.pwrite(handle, mine.encode("utf-8"), 0)
        except OSError:
            pass  # the hold is the flock; without the record, another writer is told "in another process"
        return cls(game, handle, left)

    @property
    def told(self) -> str:
        """What to tell the players when the lock of a writer that died was taken over ("" if none)."""
        if self.took_over is None:
            return ""
        return f"the lock that {self.took_over} left on {self.game.name} was taken over (that process is no longer writing it)"

    def release(self) -> None:
        """Let go of the game: remove the lock file and close it."""
        if self._handle is not None:
            self.path.unlink(missing_ok=True)
            os.close(self._handle)
            self._handle = None


def game_holder(game: str | Path) -> LockHolder | None:
    """Who holds ``game`` for writing now, without taking it; None when nobody does."""
    path = lock_path(Path(game))
    try:
        # O_NONBLOCK: something other than a lock file at its name (a named pipe) must not make this wait
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return _holder_in(handle) or UNKNOWN_HOLDER
    finally:
        os.close(handle)
    return None


def check_not_open_elsewhere(game: str | Path) -> None:
    """Raise :class:`GameOpenElsewhere` when another process holds ``game`` for writing."""
    holder = game_holder(game)
    if holder is not None:
        raise _open_elsewhere(Path(game), holder)
