"""The window's typing line without Qt: what a letter key does there and what Enter takes.

Every line is read by the game's grammar (:func:`scorekeeper.game.commands.parse_line`), as ``play``
reads it, and taken whole or not at all: a line not read whole is refused through the controller,
saying what was read of it. The letters of :data:`~scorekeeper.game.commands.STEPS` take their step
at once, except where they spell a word the line is for (``fresh`` while a pot is offered, ``pig``
into ``piggyback``).

>>> from pathlib import Path
>>> from scorekeeper.game import Game
>>> from scorekeeper.rules import load_rules
>>> controller = GameController(Path("home"), Game.new(load_rules("retail"), ["Ann"]))
>>> line = TypingLine(controller)
>>> line.enter("1 1 5 2 3 4"), line.enter("o1"), controller.state.turn.total
(True, True, 250)
"""

from __future__ import annotations

from scorekeeper.game.commands import CHOICES, parse_line
from scorekeeper.game.controller import GameController


class TypingLine:
    """The typing line's rules: letters as keys or as typing, and the line taken on Enter."""

    def __init__(self, controller: GameController) -> None:
        self.controller = controller
        """The game the line's steps go to; it says why a line is refused."""

    def takes_key(self, text: str, letter: str) -> bool:
        """Whether the step letter ``letter`` pressed on a line holding ``text`` takes its step at
        once (else it is typed): it does unless the line with it begins a word of the piggyback
        choice, and on an empty line only while that choice is offered.

        >>> from pathlib import Path
        >>> from scorekeeper.game import Game
        >>> from scorekeeper.rules import load_rules
        >>> line = TypingLine(GameController(Path("home"), Game.new(load_rules("retail"), ["Ann"])))
        >>> line.takes_key("", "f"), line.takes_key("pigg", "y"), line.takes_key("115", "b")
        (True, False, True)
        """
        state = self.controller.state
        offered = state is not None and state.pot_offered() is not None
        typed = (text.lstrip() + letter).lower()
        if not text.strip() and not offered:
            return True
        return not any(word.startswith(typed) for word in CHOICES)

    def enter(self, text: str) -> bool:
        """Take the line whole; True when it was taken (the line is emptied), False when it was
        refused or empty (nothing taken; the controller told why)."""
        if not text.strip():
            return False
        return self.controller.act(lambda game: parse_line(text).take(game))
