"""Teaching the table its dice before a game: the calibration dialog's teaching step, without Qt.

The players throw all their dice; :meth:`TeachingStep.hold` freezes the throw as read, taps correct
it (a die's value, "not a die", a die the camera missed) and :meth:`TeachingStep.teach` hands it to
the table's learner as a confirmed roll. What the table has seen and how well it reads come back
from the learner.

Under the wild-die or spicy variant the taps also say which die is the wild one and which faces
show red pips; teaching then teaches the table its dice's colours too (:class:`TableColours`), so
the camera tells the marks in a game.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from scorekeeper.rules import DieToken, die_token, read_die
from scorekeeper.table_session.learner import LearnedSummary, TableLearner
from scorekeeper.table_session.marks import MarksInPlay, read_marks
from scorekeeper.table_session.session import DiceOnTable
from scorekeeper.table_session.table_colours import TableColours
from scorekeeper.vision.detections import Detections
from scorekeeper.vision.table_head import MIN_JUDGED


class TeachingError(ValueError):
    """A teaching action that cannot be done now; the message says what to do instead."""


class TeachingStep:
    """One throw held at a time, corrected by taps, then taught to the table's learner."""

    def __init__(self, learner: TableLearner | None, colours: TableColours | None = None, offer: str = "") -> None:
        """``learner``: the table's face learner (None: no reader that learns); ``colours``: the
        table's die colours, taught where ``offer`` names marks (``"w"`` the wild die, ``"r"`` red pips)."""
        self.learner = learner
        self.colours = colours if offer else None
        """The die colours taught (None: the marks are not taught here)."""
        self.offer = offer if colours is not None else ""
        """The marks the taps say: ``"w"`` which die is the wild one, ``"r"`` which faces show red pips."""
        self.held: DiceOnTable | None = None
        """The throw frozen for the players to check (None: the live view)."""
        self.taught = 0
        """Throws taught in this dialog."""

    def hold(self, frame: NDArray[np.uint8], dice: Detections, still: bool = True) -> None:
        """Freeze the dice read in ``frame`` for checking; ``still``: whether they lie at rest."""
        if self.learner is None and self.colours is None:
            raise TeachingError("the dice reader is not loaded, so the table cannot learn: check the camera and the model")
        if not still:
            raise TeachingError("the dice are still moving: hold the throw once they lie still")
        if not len(dice):
            raise TeachingError("no dice seen: throw all your dice in the rolling area, then hold the throw")
        image = np.asarray(frame, np.uint8)
        marks: tuple[str, ...] = ()
        if self.colours is not None:
            # what the table tells already, for the players to check: all their dice are thrown, the wild die among them
            in_play = MarksInPlay("w" in self.offer, "r" in self.offer)
            marks = read_marks(self.colours.judge(), self.colours.learned(), image, dice.boxes, in_play, True).marks
        self.held = DiceOnTable.from_detections(dice, np.zeros(len(dice), bool), image, marks)

    def correct(self, index: int, face: DieToken | None) -> None:
        """Die ``index`` of the held throw is ``face``: its face, with its marks (``"1w"``: the wild
        die, ``"5r"``: red pips; see :func:`~scorekeeper.rules.die_token`); None: it is no die.
        Saying a die is the wild one says no other die is."""
        held = self._held()
        if not 0 <= index < len(held.boxes):
            raise TeachingError(f"there is no die {index} in the held throw of {len(held.boxes)} dice")
        self._only_wild(held, face)
        held.set_die(held.boxes[index], face)

    def add_missed(self, x: float, y: float, face: DieToken) -> None:
        """A die the camera missed lies at (``x``, ``y``) frame pixels and is ``face`` (a die token)."""
        held = self._held()
        sizes = [box[2] - box[0] for box in held.boxes] or [box[2] - box[0] for box in held.read_boxes]
        half = float(np.median(sizes)) / 2 if sizes else 20.0
        self._only_wild(held, face)
        held.set_die((x - half, y - half, x + half, y + half), face)

    @staticmethod
    def _only_wild(held: DiceOnTable, face: DieToken | None) -> None:
        """Where ``face`` is the wild die, no die held before is (a set has one)."""
        if face is not None and "w" in read_die(face)[1]:
            for box, value, mark in list(zip(held.boxes, held.values, held.marks)):
                if "w" in mark:
                    held.set_die(box, die_token(value, mark.replace("w", "")))

    def teach(self) -> int:
        """Teach the held throw as the taps left it; returns how many dice it taught."""
        held = self._held()
        if not held.values:
            raise TeachingError("the held throw has no dice left to teach: throw again and hold it")
        if "w" in self.offer and not any("w" in mark for mark in held.marks):
            raise TeachingError(
                "no die is marked as the wild one: tap the die of the other colour, switch on 'the wild die' and tap its face, "
                "then teach the throw"
            )
        if self.learner is not None:
            self.learner.confirm(held.frame, held.boxes, held.values, held.tapped_away)
        if self.colours is not None:
            self.colours.teach(held.frame, held.boxes, held.marks, self.offer)
        self.held = None
        self.taught += 1
        return len(held.values)

    def release(self) -> None:
        """Back to the live view without teaching the held throw."""
        self.held = None

    def report(self, summary: LearnedSummary) -> str:
        """What the table has seen of each value and how well it reads now, in words.

        >>> step = TeachingStep(None)
        >>> step.report(LearnedSummary(14, {0: 1, 1: 3, 5: 10}, 3, False, ""))
        'Seen so far: 1: 3, 2: 0, 3: 0, 4: 0, 5: 10, 6: 0 (and 1 find that is no die), from 3 throws. 2 more throws before the table reads with what it learned.'
        """
        counts = ", ".join(f"{value}: {summary.counts.get(value, 0)}" for value in range(1, 7))
        none = summary.counts.get(0, 0)
        extra = f" (and {none} find{'' if none == 1 else 's'} that {'is' if none == 1 else 'are'} no die)" if none else ""
        head = f"Seen so far: {counts}{extra}, from {summary.rolls} throw{'' if summary.rolls == 1 else 's'}."
        left = MIN_JUDGED - summary.rolls
        if left > 0:
            return f"{head} {left} more throw{'' if left == 1 else 's'} before the table reads with what it learned."
        how = "The table reads with what it learned" if summary.in_use else "The model reads alone for now (what the table learned does not read its throws better yet)"
        return f"{head} {how}: {summary.held_out}."

    def _held(self) -> DiceOnTable:
        if self.held is None:
            raise TeachingError("no throw is held: throw all your dice, then press Hold this throw")
        return self.held


def marks_words(offer: str) -> str:
    """What to tap in a held throw for the marks in ``offer`` (``"w"`` the wild die, ``"r"`` red pips), in plain words.

    >>> marks_words("w")
    "Tap the wild die (the die of the other colour), switch on 'the wild die' and tap its face."
    >>> marks_words("")
    ''
    """
    words = []
    if "w" in offer:
        words.append("Tap the wild die (the die of the other colour), switch on 'the wild die' and tap its face.")
    if "r" in offer:
        words.append("Tap each die whose pips are red, switch on 'red pips' and tap its face (throw again until a red face shows).")
    return " ".join(words)
