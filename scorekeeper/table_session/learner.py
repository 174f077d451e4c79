"""The table that learns: each roll the players confirm teaches the reader this table's dice, off
the frame loop.

A :class:`TableLearner` takes confirmed rolls from the table session, keeps them in the table's
memory (``scorekeeper.vision.table_memory``), refits the table's head in a worker thread and hands
it to the reader while the safety rule allows, and keeps the table file beside the calibration
profile. No Qt: the window and the camera game both use it.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from scorekeeper.vision.reader import OnnxDiceReader
from scorekeeper.vision.table_head import MIN_JUDGED
from scorekeeper.vision.table_memory import Learned, TableFileError, TableMemory, counts_in_words

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class LearnedSummary:
    """What the table has learned so far, for the status bar and the teaching step."""

    dice: int
    """Crops kept (dice and finds tapped away)."""
    counts: dict[int, int]
    """Crops per class: 0 not a die, 1-6 pips."""
    rolls: int
    """Rolls confirmed at this table."""
    in_use: bool
    """Whether the reader reads with the table's head now (the safety rule allows it)."""
    held_out: str
    """The safety rule's last verdict in words ("" before it judged one)."""
    note: str = ""
    """Anything the players should know (a table file refused, not saved)."""

    def line(self) -> str:
        """One line for the status bar.

        >>> LearnedSummary(12, {1: 3, 5: 9}, 2, False, "").line()
        'Table learned: 12 dice from 2 rolls (1: 3, 5: 9); the model reads alone until 5 rolls are confirmed'
        >>> LearnedSummary(6, {1: 1, 5: 5}, 1, False, "").line().split(";")[0]
        'Table learned: 6 dice from 1 roll (1: 1, 5: 5)'
        """
        if not self.dice:
            return "Table learned: nothing yet (each roll you confirm teaches it)" + (f"; {self.note}" if self.note else "")
        counts = counts_in_words(self.counts)
        if self.in_use:
            how = "reading with what it learned"
        elif self.held_out:
            how = "the model reads alone until what it learned reads better"
        else:
            how = f"the model reads alone until {MIN_JUDGED} rolls are confirmed"
        rolls = f"{self.rolls} roll{'' if self.rolls == 1 else 's'}"
        return f"Table learned: {self.dice} dice from {rolls} ({counts}); {how}" + (f"; {self.note}" if self.note else "")


class TableLearner:
    """Keeps a table's memory and refits in a worker thread; ``reader.learned`` follows."""

    def __init__(self, reader: OnnxDiceReader, path: Path | None, on_learned: Callable[[LearnedSummary], None] | None = None) -> None:
        """``path``: the table file (None: learn for this run only). ``on_learned`` is called from
        the worker thread after each refit."""
        self.reader = reader
        self.path = path
        self.on_learned = on_learned or (lambda summary: None)
        self.note = ""
        self.measures_die_size = True
        """Whether the reader is told the die size the confirmed rolls read best at; False where
        the calibration measured it (the watch loop then tells the reader the calibrated size)."""
        self.memory = TableMemory(reader)
        self._saving = path is not None
        if path is not None and path.exists():
            try:
                self.memory = TableMemory.load(path, reader)
            except TableFileError as exc:
                self.note = f"{exc}; the reader reads cold and this run's rolls are not saved"
                self._saving = False
                log.warning("%s", self.note)
        self._learned = Learned(None, None)
        self._jobs: queue.Queue[Callable[[], None] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._work, name="table-learner", daemon=True)
        self._thread.start()
        if len(self.memory):
            self._jobs.put(self._refit)

    def calibrated(self, die_size: float) -> None:
        """The calibration profile in use measured the die size (``die_size`` > 0: the watch loop
        tells the reader) or did not (0: the reader is told the size the confirmed rolls read best at)."""
        self.measures_die_size = die_size <= 0
        self._jobs.put(self._refit)

    def attach(self, reader: OnnxDiceReader) -> None:
        """Read with ``reader`` from now on (a reconnection loaded the model again): it gets what
        the table learned (a refit queued after what is already queued)."""
        self._jobs.put(lambda: self._attach(reader))

    def _attach(self, reader: OnnxDiceReader) -> None:
        self.reader.learned = None
        self.reader = reader
        self.memory.reader = reader
        self._refit()

    def confirm(self, frame: NDArray[np.uint8], boxes: list[tuple[float, float, float, float]], values: list[int], not_dice: list[tuple[float, float, float, float]]) -> None:
        """A roll the players confirmed (see ``TableMemory.learn``); learned in the worker."""
        frame = np.array(frame, np.uint8, copy=True)
        self._jobs.put(lambda: self._learn(frame, np.array(boxes, np.float32).reshape(-1, 4), list(values), np.array(not_dice, np.float32).reshape(-1, 4)))

    def keep_in(self, path: Path) -> None:
        """Keep what the table learned in the table file ``path`` from now on (a new calibration
        profile's), saving there at once what was learned so far."""
        self._jobs.put(lambda: self._keep_in(path))

    def _keep_in(self, path: Path) -> None:
        self.path, self._saving = path, True
        if len(self.memory):
            self._save()

    def forget(self) -> None:
        """Drop what the table learned, here and on disk."""
        self._jobs.put(self._forget)

    def wait(self) -> None:
        """Return once every job so far is done."""
        self._jobs.join()

    def close(self) -> None:
        """Finish the jobs queued and stop the worker."""
        self._jobs.put(None)
        self._thread.join()

    def summary(self) -> LearnedSummary:
        """What the table has learned now."""
        verdict = self._learned.verdict
        held_out = verdict.in_words() if verdict is not None and verdict.rolls else ""
        return LearnedSummary(len(self.memory), self.memory.counts(), self.memory.confirmed, self._learned.in_use is not None, held_out, self.note)

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            try:
                if job is None:
                    return
                job()
            except Exception:  # a failed refit must not stop the game: the reader reads as it did
                log.exception("the table could not learn from a roll")
            finally:
                self._jobs.task_done()

    def _learn(self, frame: NDArray[np.uint8], boxes: NDArray[np.float32], values: list[int], not_dice: NDArray[np.float32]) -> None:
        self.memory.learn(frame, boxes, values, not_dice)
        self._save()
        self._refit()

    def _save(self) -> None:
        if self._saving and self.path is not None:
            try:
                self.memory.save(self.path)
            except OSError as exc:
                self.note = f"what the table learned is not saved ({exc})"
                log.warning("%s", self.note)

    def _refit(self) -> None:
        self._learned = self.memory.head()
        self.reader.learned = self._learned.in_use
        if self.measures_die_size:
            self.reader.die_size = self.memory.die_size()
        self.on_learned(self.summary())

    def _forget(self) -> None:
        self.memory = TableMemory(self.reader)
        self._learned = Learned(None, None)
        self.reader.learned = None
        self.note = ""
        if self.path is not None:
            self.path.unlink(missing_ok=True)
            self._saving = True
        self.on_learned(self.summary())
