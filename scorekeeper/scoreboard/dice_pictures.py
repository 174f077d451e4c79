"""How a roll is drawn as dice (no Qt here): each die's body, its pips and where they lie, and what it
says to a screen reader. The wild die (the wild-die variant) is drawn in its own colour and the pips
of a red face (spicy) in red; the window's turn panel paints these looks (:mod:`scorekeeper.ui.dice_row`).

>>> from scorekeeper.rules import Dice
>>> [(look.body, look.pip, len(look.pips), look.words) for look in die_looks(Dice.from_str("1w 5r 3"))]
[('#85c1e9', '#1b1b1b', 1, 'wild 1'), ('#fdfefe', '#1b1b1b', 3, '3'), ('#fdfefe', '#c0392b', 5, 'red 5')]
"""

from __future__ import annotations

from dataclasses import dataclass

from scorekeeper.game.describe import die_text
from scorekeeper.rules import Dice, die_token

PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.25, 0.25), (0.75, 0.75)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.5), (0.75, 0.5), (0.25, 0.75), (0.75, 0.75)),
}
"""Where each face's pips lie on the die, as fractions of its side from the top left corner."""
PLAIN_BODY = "#fdfefe"
"""A plain die: white."""
WILD_BODY = "#85c1e9"
"""The wild die: a light blue, its "different colour" (red pips and black pips both read on it)."""
PIP = "#1b1b1b"
"""Black pips."""
RED_PIP = "#c0392b"
"""A red face's pips."""
EDGE = "#444444"
"""The outline of every die."""
PIP_SIZE = 0.18
"""A pip's diameter as a fraction of the die's side."""


@dataclass(frozen=True)
class DieLook:
    """One die as it is drawn."""

    face: int
    """The face it shows, 1-6."""
    mark: str
    """Its mark: "" plain, "w" the wild die, "r" red pips, "wr" both."""
    body: str
    """The colour of the die, "#rrggbb"."""
    pip: str
    """The colour of its pips, "#rrggbb"."""
    pips: tuple[tuple[float, float], ...]
    """The centre of each pip, as fractions of the die's side from its top left corner."""
    words: str
    """The die said in words, for a screen reader: "5", "wild 1", "red 5"."""


def die_looks(dice: Dice) -> tuple[DieLook, ...]:
    """Each die of ``dice`` as it is drawn, in order."""
    return tuple(
        DieLook(
            face,
            mark,
            WILD_BODY if "w" in mark else PLAIN_BODY,
            RED_PIP if "r" in mark else PIP,
            PIPS[face],
            die_text(die_token(face, mark)),
        )
        for face, mark in dice.dice
    )
