"""The marks of a settled roll: which die is the wild one and which faces show red pips, as the
table's colour judge tells them, and what it cannot tell (a tap must).

A game under the wild-die variant has one die of another colour; under spicy each die has one
face whose pips are red. The camera tells both from each die's picture with what the table
learned in the calibration's teaching step (:mod:`scorekeeper.vision.die_colours`); where it has
not learned them, or cannot tell, the die's mark is in doubt and the roll waits for a tap: no roll
is scored as if its marks were known when they are not. No Qt here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from scorekeeper.game.state import TurnState
from scorekeeper.rules import RuleSet
from scorekeeper.vision.die_colours import ColourJudge


@dataclass(frozen=True)
class MarksInPlay:
    """Which marks the rules of a game give meaning to."""

    wild: bool
    """The wild-die variant: one die of another colour counts as any face when it shows a 1."""
    red: bool
    """The spicy variant: a scoring combination holding a red-pip face scores double."""

    @classmethod
    def of(cls, rules: RuleSet) -> MarksInPlay:
        """The marks ``rules`` play."""
        return cls(rules.scoring.wild_die, rules.scoring.spicy)

    @property
    def any(self) -> bool:
        """Whether the camera must tell any mark."""
        return self.wild or self.red

    @property
    def letters(self) -> str:
        """The marks' letters: ``"w"`` the wild die, ``"r"`` red pips (``"wr"`` both, ``""`` none)."""
        return ("w" if self.wild else "") + ("r" if self.red else "")


@dataclass(frozen=True)
class MarksTold:
    """A roll's marks as the camera told them, and those it could not."""

    marks: tuple[str, ...]
    """Each die's mark as told (``"w"``, ``"r"``, ``"wr"``, ``""``); a mark in doubt is left out."""
    doubt: tuple[str, ...]
    """Each die's marks the camera could not tell (``"w"``: whether it is the wild die, ``"r"``:
    whether its pips are red; ``""``: none)."""


def wild_in_roll(turn: TurnState) -> bool:
    """Whether the wild die is among the dice ``turn`` rolls next: it is unless it lies set aside
    (kept this turn, or by the banker whose dice a piggyback took on).

    >>> wild_in_roll(TurnState(0)), wild_in_roll(TurnState(0, dice_left=4, wild_aside=True))
    (True, False)
    """
    return not turn.wild_aside


def read_marks(
    judge: ColourJudge | None, learned: str, frame: NDArray[np.uint8], boxes: NDArray[np.float32], in_play: MarksInPlay, wild: bool | None
) -> MarksTold:
    """The marks of the dice at ``boxes`` in ``frame`` that ``in_play`` asks for, told by ``judge``
    with what the table ``learned`` (``"w"``: the wild die's colour, ``"r"``: red pips); a mark
    it has not learned is in doubt for every die. ``wild``: whether the wild die is among these
    dice (see :func:`wild_in_roll`): False, none is; True, exactly one is (the judge picks it, or
    the dice it cannot tell between are in doubt; where it doubts one die alone and is sure every
    other is not the wild one, that die is); None, at most one is."""
    count = len(boxes)
    marks = [""] * count
    doubt = [""] * count
    wanted_wild = in_play.wild and wild is not False
    told = judge.judge(frame, boxes, wild_in_roll=wild) if judge is not None and learned else ()
    for index, die in enumerate(told):
        if wanted_wild and "w" in learned:
            doubt[index] += "" if die.wild_sure else "w"
            marks[index] += "w" if die.is_wild else ""
        if in_play.red and "r" in learned:
            doubt[index] += "" if die.red_sure else "r"
            marks[index] += "r" if die.is_red else ""
    unsure = [index for index, d in enumerate(doubt) if "w" in d]
    if wild and len(unsure) == 1 and count > 1:
        # one die of the roll is the wild one and every other die is surely not: it is that die,
        # however little it looks like the wild die taught (another pose, another light)
        doubt[unsure[0]] = doubt[unsure[0]].replace("w", "")
        marks = [mark.replace("w", "") for mark in marks]
        marks[unsure[0]] += "w"
    if wanted_wild and "w" not in learned:
        doubt = [d + "w" for d in doubt]
    if in_play.red and "r" not in learned:
        doubt = [d + "r" for d in doubt]
    return MarksTold(tuple(_mark(mark, doubt) for mark, doubt in zip(marks, doubt)), tuple(_mark(d, "") for d in doubt))


def _mark(mark: str, doubt: str) -> str:
    """A die's mark as told, less what is in doubt, in the rules' letter order (``"wr"``)."""
    return "".join(letter for letter in "wr" if letter in mark and letter not in doubt)


def ask_marks(values: Sequence[int], doubt: Sequence[str], learned: bool) -> str:
    """What to ask about the marks in doubt of dice showing ``values``, in a sentence ("" when none
    is); ``learned``: whether the table has learned its dice's colours (if not, every die is in
    doubt, and one short line says what is asked until it has).

    >>> ask_marks([3, 5, 2], ["w", "w", ""], True)
    'Which is the wild die, the 3 or the 5? Tap it and mark it wild.'
    >>> ask_marks([3, 5], ["wr", "wr"], False)
    'Wild and red dice are asked until the table is calibrated (Camera, Calibrate): tap each (?).'
    """
    wild, red = _in_doubt(values, doubt, "w"), _in_doubt(values, doubt, "r")
    if not learned and (wild or red):
        if not red:
            return "The wild die is asked until the table is calibrated (Camera, Calibrate): tap it, mark it wild."
        asked = "Wild and red dice" if wild else "Red dice"
        return f"{asked} are asked until the table is calibrated (Camera, Calibrate): tap each (?)."
    said: list[str] = []
    if len(wild) == 1:
        said.append(f"Is the {wild[0]} the wild die? Tap it and say.")
    elif wild:
        said.append(f"Which is the wild die, {_the(wild, 'or')}? Tap it and mark it wild.")
    if red:
        said.append(f"Are the pips of {_the(red)} red? Tap {'it' if len(red) == 1 else 'each'} and say.")
    return " ".join(said)


def _in_doubt(values: Sequence[int], doubt: Sequence[str], letter: str) -> list[int]:
    """The faces of the dice whose mark ``letter`` is in doubt."""
    return [value for value, marks in zip(values, doubt) if letter in marks]


def _the(values: Sequence[int], last: str = "and") -> str:
    """The faces named in a list: "the 3", "the 3 and the 5", "the 2, the 3 or the 5" (``last`` = "or")."""
    named = [f"the {value}" for value in values]
    return named[0] if len(named) == 1 else f"{', '.join(named[:-1])} {last} {named[-1]}"


def doubt_text(values: Sequence[int], doubt: Sequence[str]) -> str:
    """The marks in doubt of dice showing ``values``, in words, for a game with no one to ask.

    >>> doubt_text([3, 5, 2], ["w", "w", "r"])
    'which is the wild die, the 3 or the 5, nor whether the pips of the 2 are red'
    """
    wild, red = _in_doubt(values, doubt, "w"), _in_doubt(values, doubt, "r")
    said: list[str] = []
    if len(wild) == 1:
        said.append(f"whether the {wild[0]} is the wild die")
    elif wild:
        said.append(f"which is the wild die, {_the(wild, 'or')}")
    if red:
        said.append(f"whether the pips of {_the(red)} are red")
    return ", nor ".join(said)
