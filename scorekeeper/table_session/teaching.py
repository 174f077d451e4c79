"""Teaching the table its dice before a game: the calibration dialog's teaching step, without Qt.

The players throw all their dice; :meth:`TeachingStep.hold` freezes the throw as read, taps correct
it (a die's value, "not a die", a die the camera missed) and :meth:`TeachingStep.teach` hands it to
the table's learner as a confirmed roll. What the table has seen and how well it reads come back
from the learner.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from scorekeeper.table_session.learner import LearnedSummary, TableLearner
from scorekeeper.table_session.session import DiceOnTable
from scorekeeper.vision.detections import Detections
from scorekeeper.vision.table_head import MIN_JUDGED


class TeachingError(ValueError):
    """A teaching action that cannot be done now; the message says what to do instead."""


class TeachingStep:
    """One throw held at a time, corrected by taps, then taught to the table's learner."""

    def __init__(self, learner: TableLearner | None) -> None:
        self.learner = learner
        self.held: DiceOnTable | None = None
        """The throw frozen for the players to check (None: the live view)."""
        self.taught = 0
        """Throws taught in this dialog."""

    def hold(self, frame: NDArray[np.uint8], dice: Detections, still: bool = True) -> None:
        """Freeze the dice read in ``frame`` for checking; ``still``: whether they lie at rest."""
        if self.learner is None:
            raise TeachingError("the dice reader is not loaded, so the table cannot learn: check the camera and the model")
        if not still:
            raise TeachingError("the dice are still moving: hold the throw once they lie still")
        if not len(dice):
            raise TeachingError("no dice seen: throw all your dice in the rolling area, then hold the throw")
        self.held = DiceOnTable.from_detections(dice, np.zeros(len(dice), bool), np.asarray(frame, np.uint8))

    def correct(self, index: int, face: int | None) -> None:
        """Die ``index`` of the held throw shows ``face`` (None: it is no die)."""
        held = self._held()
        if not 0 <= index < len(held.boxes):
            raise TeachingError(f"there is no die {index} in the held throw of {len(held.boxes)} dice")
        held.set_die(held.boxes[index], face)

    def add_missed(self, x: float, y: float, face: int) -> None:
        """A die the camera missed lies at (``x``, ``y``) frame pixels and shows ``face``."""
        held = self._held()
        sizes = [box[2] - box[0] for box in held.boxes] or [box[2] - box[0] for box in held.read_boxes]
        half = float(np.median(sizes)) / 2 if sizes else 20.0
        held.set_die((x - half, y - half, x + half, y + half), face)

    def teach(self) -> int:
        """Teach the held throw as the taps left it; returns how many dice it taught."""
        held = self._held()
        assert self.learner is not None
        if not held.values:
            raise TeachingError("the held throw has no dice left to teach: throw again and hold it")
        self.learner.confirm(held.frame, held.boxes, held.values, held.tapped_away)
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
        how = "The table reads with what it learned" if summary.in_use else "The model reads alone for now (what the table learned does not read its throws as well yet)"
        return f"{head} {how}: {summary.held_out}."

    def _held(self) -> DiceOnTable:
        if self.held is None:
            raise TeachingError("no throw is held: throw all your dice, then press Hold this throw")
        return self.held
