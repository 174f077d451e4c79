"""Following a game's file as it grows: a journal the window or the camera appends to, or a game
``play --save`` replaces after every step. Read only: nothing is ever written, recovered or tidied.
A journal that breaks is shown up to the line where it breaks, and the board says that line
(:attr:`Board.damaged_at`); a last line cut off is only said to be damage once it has stayed so for
:data:`CUT_OFF_SECONDS` (its writer may be writing it now).

>>> import tempfile
>>> from scorekeeper.game import Game
>>> from scorekeeper.game.journal import Journal
>>> from scorekeeper.rules import load_rules
>>> journal = Journal.create(Path(tempfile.mkdtemp()) / "game.jsonl")
>>> game = Game.new(load_rules("retail"), ["Ann", "Bob"], sink=journal.write)
>>> follower = GameFollower(journal.path)
>>> follower.check().to_play
'Ann'
>>> follower.check() is None
True
>>> game.roll("1 5 2 3 4 6"); game.keep("1 5"); game.bank()
>>> follower.check().seats[0].score
150
>>> journal.close()
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from scorekeeper.game.save import load_events
from scorekeeper.game.journal import CUT_OFF, JournalDamage
from scorekeeper.rules import FarkleError
from scorekeeper.serve.board import Board, board_of

CUT_OFF_SECONDS = 0.5
"""How long a journal's last line may stay cut off before it is said to be damage: a writer
writes a line in one go, so one still cut off after this was left by a writer that died."""


@dataclass(frozen=True)
class FileMark:
    """What tells that a file changed without reading it."""

    inode: int
    """The file's inode: a save replaced by rename gets a new one."""
    size: int
    """Its length in bytes: a journal grows with every step."""
    modified_ns: int
    """When it was last written."""


def file_mark(path: Path) -> FileMark | None:
    """The file's mark, or None when it cannot be seen (gone, or no permission)."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    return FileMark(status.st_ino, status.st_size, status.st_mtime_ns)


class GameFollower:
    """Reads a game's file again whenever it changes and says when the board changed."""

    def __init__(self, path: Path, clock: Callable[[], float] = time.monotonic) -> None:
        self.path = path
        """The journal or saved game followed."""
        self.board: Board | None = None
        """The board as last read; None until the file has been read once."""
        self.problem = ""
        """Why the file could not be read the last time it was tried ("" when it was read)."""
        self.damage: JournalDamage | None = None
        """Where the journal broke the last time it was read (a line still being written, say)."""
        self._clock = clock
        self._mark: FileMark | None = None
        self._read: Board | None = None
        self._read_at = 0.0

    def check(self) -> Board | None:
        """The new board if the file changed and so did the board (the damage it shows included);
        None otherwise. A file that cannot be read leaves the last board as it was, with the
        reason in :attr:`problem`."""
        mark = file_mark(self.path)
        if mark is None:
            self.problem = f"{self.path}: the game file is not there (moved or deleted?)"
            return None
        if mark != self._mark:
            self._mark = mark
            self._read_at = self._clock()
            try:
                events, self.damage = load_events(self.path)
                self._read = board_of(events)
            except FarkleError as exc:
                self.problem = str(exc)
                return None
            self.problem = ""
        if self._read is None:
            return None
        board = replace(self._read, damaged_at=self._damaged_at())
        if board == self.board:
            return None
        self.board = board
        return board

    def _damaged_at(self) -> int:
        """The line the board says the journal breaks at (0: none, or a last line that may still be being written)."""
        damage = self.damage
        if damage is None:
            return 0
        if damage.reason == CUT_OFF and self._clock() - self._read_at < CUT_OFF_SECONDS:
            return 0
        return damage.line
