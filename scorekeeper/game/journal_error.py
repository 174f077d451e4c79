"""The error of a game's journal and of the lock that keeps it to one writer.

It has a module of its own because both :mod:`~scorekeeper.game.journal` and
:mod:`~scorekeeper.game.lock` raise it, and the journal takes the lock.
"""

from __future__ import annotations

from scorekeeper.rules import FarkleError


class JournalError(FarkleError):
    """A journal that cannot be written or read; what is on disk is left as it was."""
