"""The root of the program's own errors, so that a handler meaning "any of ours" names one class.

The rules engine and the game raise :class:`~scorekeeper.rules.FarkleError` (a move, a roll or a
game's file the rules refuse); the packages above them (export, the history, the phones'
scoreboard, the score race, the coach, the camera game) and the command line raise errors of their
own, each derived from :class:`ScorekeeperError`, not from the rules' base.
"""

from __future__ import annotations


class ScorekeeperError(ValueError):
    """Base class of the errors of the program's packages; the message quotes the bad input."""


class UsageError(ScorekeeperError):
    """A command given options or input it cannot use: the command line says why and exits 2."""
