"""The table's dice colours: which die is the wild one and which faces show red pips, learned from
the teaching step's taps and kept beside the table's calibration profile.

:class:`TableColours` holds what the table learned (:mod:`scorekeeper.vision.die_colours` judges a
die's picture with it), teaches it each throw the players marked, and saves it whole after each
throw. :func:`teach_from_labels` teaches it on the demo table, whose frames say which die is which.
No Qt: the window and the camera game both use it.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from scorekeeper.camera.settling import EventKind
from scorekeeper.camera.sources import MarkedDiceSource
from scorekeeper.camera.watch import Watcher
from scorekeeper.vision.die_colours import ColourJudge, DieColours, DieColoursFileError

log = logging.getLogger(__name__)

TEACHING_THROWS = 8
"""Throws of the demo table :func:`teach_from_labels` watches at most (a red face shows in most)."""

TEACHING_FRAMES = 3000
"""Frames :func:`teach_from_labels` watches at most (about 100 seconds of the demo table)."""

WORDS = {"w": "the wild die's colour", "r": "what red pips look like"}
"""What each mark's letter asks the table to have learned, in words."""


class TableColours:
    """What one table learned of its dice's colours, saved beside its calibration profile."""

    def __init__(self, path: Path | None, learner: DieColours | None = None) -> None:
        """``path``: the colours file (None: learn for this run only); ``learner``: what was learned
        (None: read from ``path`` where it exists, else nothing yet)."""
        self.path = path
        self.note = ""
        """Anything the players should know (a colours file refused, not saved)."""
        self._saving = path is not None
        if learner is None and path is not None and path.exists():
            try:
                learner = DieColours.load(path)
            except DieColoursFileError as exc:
                self.note = f"{exc}; the table learns its dice's colours afresh and this run's are not saved"
                self._saving = False
                log.warning("%s", self.note)
        self.learner = learner if learner is not None else DieColours()

    def learned(self) -> str:
        """The marks the table can tell: ``"w"`` the wild die, ``"r"`` red pips."""
        return ("w" if self.learner.knows_wild else "") + ("r" if self.learner.knows_red else "")

    def missing(self, marks: str) -> str:
        """The marks of ``marks`` the table has not learned yet."""
        learned = self.learned()
        return "".join(letter for letter in marks if letter not in learned)

    @staticmethod
    def missing_words(letters: str) -> str:
        """What the marks ``letters`` need learned, in words.

        >>> TableColours.missing_words("wr")
        "the wild die's colour, nor what red pips look like"
        """
        return ", nor ".join(WORDS[letter] for letter in letters)

    def judge(self) -> ColourJudge | None:
        """What tells the marks from a die's picture; None while nothing is learned."""
        return self.learner if self.learned() else None

    def teach(self, frame: NDArray[np.uint8], boxes: Sequence[tuple[float, float, float, float]], marks: Sequence[str], offer: str) -> None:
        """The dice at ``boxes`` in ``frame`` carry ``marks`` (the players' taps), for the marks
        ``offer`` names: the table learns them and keeps them in its colours file."""
        found = np.array(boxes, np.float32).reshape(-1, 4)
        wild = next((index for index, mark in enumerate(marks) if "w" in mark), None) if "w" in offer else None
        red = [index for index, mark in enumerate(marks) if "r" in mark] if "r" in offer else None
        self.learner.learn(np.asarray(frame, np.uint8), found, wild, red)
        self._save()

    def keep_in(self, path: Path) -> None:
        """Keep the colours learned in the colours file ``path`` from now on (a new calibration
        profile's), saving there at once what was learned so far."""
        self.path, self._saving = path, True
        if self.learned():
            self._save()

    def _save(self) -> None:
        if self._saving and self.path is not None:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self.learner.save(self.path)
            except OSError as exc:
                self.note = f"the dice's colours learned are not saved ({exc})"
                log.warning("%s", self.note)

    def forget(self) -> None:
        """Drop what the table learned of its dice's colours, here and on disk."""
        self.learner = DieColours()
        self.note = ""
        if self.path is not None:
            self.path.unlink(missing_ok=True)
            self._saving = True

    def summary(self) -> str:
        """What the table has learned of its dice's colours, in a sentence.

        >>> TableColours(None).summary()
        "Dice colours: nothing learned yet (the wild die's colour, red pips: tap them in a held throw and teach it)."
        """
        told = [words for letter, words in (("w", "the wild die's colour"), ("r", "red pips")) if letter in self.learned()]
        untold = [words for letter, words in (("w", "the wild die's colour"), ("r", "red pips")) if letter not in self.learned()]
        if not told:
            return f"Dice colours: nothing learned yet ({', '.join(untold)}: tap them in a held throw and teach it)."
        said = f"Dice colours: the table tells {' and '.join(told)}"
        return said + (f"; not yet {' nor '.join(untold)}." if untold else ".") + (f" {self.note}." if self.note else "")


def teach_from_labels(watcher: Watcher, colours: TableColours, offer: str) -> int:
    """Teach ``colours`` the marks ``offer`` names from throws of all the dice on a source that
    labels its frames (the demo table: its labels play the players' taps), until it has learned
    them all; returns the throws taught. :class:`ValueError` where it could not within
    :data:`TEACHING_THROWS` throws. Each throw settled, taught or not, asks the source for the next."""
    source = watcher.source
    if isinstance(source, MarkedDiceSource):
        source.expect_wild(True)
        source.expect(6)
    watcher.thrown = 6
    throws = 0
    for step in watcher.steps(TEACHING_FRAMES):
        truth = step.frame.truth
        for event in step.events:
            if event.kind is EventKind.SETTLED and isinstance(source, MarkedDiceSource):
                source.expect(6)
            if event.kind is EventKind.SETTLED and truth is not None and len(event.dice) == len(truth) == 6:
                marks = [_label_mark(box, truth.boxes, truth.marks) for box in event.dice.boxes]
                colours.teach(step.frame.image, [(float(b[0]), float(b[1]), float(b[2]), float(b[3])) for b in event.dice.boxes], marks, offer)
                throws += 1
        if throws and not colours.missing(offer) or throws >= TEACHING_THROWS:
            break
    if colours.missing(offer):
        raise ValueError(f"the table did not learn {TableColours.missing_words(colours.missing(offer))} from {throws} teaching throws")
    return throws


def _label_mark(box: NDArray[np.float32], labels: NDArray[np.float32], marks: Sequence[str]) -> str:
    """The mark of the labelled die whose box overlaps ``box`` most."""
    ix = np.clip(np.minimum(box[2], labels[:, 2]) - np.maximum(box[0], labels[:, 0]), 0, None)
    iy = np.clip(np.minimum(box[3], labels[:, 3]) - np.maximum(box[1], labels[:, 1]), 0, None)
    return marks[int(np.argmax(ix * iy))]
