"""The window's typing line without Qt: what a letter key does there and what Enter takes.

Every line is read by the game's grammar (:func:`scorekeeper.game.commands.parse_line`), as ``play``
reads it, and taken whole or not at all: a line not read whole is refused through the controller,
saying what was read of it. The letters of :data:`~scorekeeper.game.commands.STEPS` take their step
at once, except where they spell a word the line is for (``fresh`` while a pot is offered, ``pig``
into ``piggyback``). A whole roll typed while a camera roll with dice missing waits on the table
is the roll thrown: it replaces the camera's roll (its taps with it), and the table is told so;
fewer dice are read as a keep from the camera's roll, which waits for its dice.

>>> from pathlib import Path
>>> from scorekeeper.game import Game
>>> from scorekeeper.rules import load_rules
>>> controller = GameController(Path("home"), Game.new(load_rules("retail"), ["Ann"]))
>>> line = TypingLine(controller)
>>> line.enter("1 1 5 2 3 4"), line.enter("o1"), controller.state.turn.total
(True, True, 250)
"""

from __future__ import annotations

from scorekeeper.game import DiceRolled, Game
from scorekeeper.game.commands import CHOICES, DiceCommand, parse_line
from scorekeeper.game.controller import GameController
from scorekeeper.rules import FarkleError


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
        waiting = self._partial_camera_roll()
        if waiting is None:
            return self.controller.act(lambda game: parse_line(text).take(game))
        steps, read, wanted = waiting
        typed: list[DiceCommand] = []

        def replace_roll(game: Game) -> None:
            command = parse_line(text)
            if not isinstance(command, DiceCommand) or command.keep or len(command.dice) != wanted:
                command.take(game)
                return
            for _ in range(steps):
                game.undo()
            try:
                game.roll(command.dice)
            except FarkleError:
                for _ in range(steps):
                    game.redo()
                raise
            typed.append(command)

        if not self.controller.act(replace_roll):
            return False
        if typed:
            said = f"Typed roll {typed[0].dice} replaces the camera's roll ({read} of {wanted} dice read)."
            for listener in list(self.controller.on_notice):
                listener(said)
        return True

    def _partial_camera_roll(self) -> tuple[int, int, int] | None:
        """The camera's roll on the table while it waits for dice not read: the steps that took it
        (the roll and the taps since), the dice it shows and the dice thrown; None where no such
        roll waits."""
        game = self.controller.game
        state = self.controller.state
        if game is None or state is None or state.turn is None or state.turn.roll is None or not state.missing_dice():
            return None
        actions = game.actions
        rolled = next((i for i in range(len(actions) - 1, -1, -1) if isinstance(actions[i], DiceRolled)), None)
        if rolled is None:
            return None
        roll = actions[rolled]
        if not isinstance(roll, DiceRolled) or roll.source != "camera":
            return None
        return len(actions) - rolled, len(state.turn.roll), state.turn.dice_left
