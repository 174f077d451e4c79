"""Errors of the rules engine and the game.

Every error is a ``ValueError`` whose message quotes the bad input and says
what was wrong, so a user can fix it without reading the code.
"""

from __future__ import annotations

from scorekeeper.errors import ScorekeeperError


class FarkleError(ScorekeeperError):
    """Base class of every error the rules engine and the game raise (and of no other package's)."""


class RuleFileError(FarkleError):
    """A rules file or preset could not be loaded; nothing of it was used."""


class IllegalRoll(FarkleError):
    """A roll that cannot be: a die outside 1-6, too many or too few dice."""


class IllegalKeep(FarkleError):
    """A keep that is not in the roll or holds a die that does not score."""


class IllegalAction(FarkleError):
    """An action the game does not allow at this point of the turn."""


class IllegalBank(IllegalAction):
    """Banking now is against the rules (nothing to bank, below the entry minimum)."""


class GameOver(IllegalAction):
    """An action after the game has ended."""
