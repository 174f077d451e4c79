"""Reads the dice model doubts though a reader on the generic 0.5 line would not: a confidence
between the shipped model's unsure line and 0.5. Tests only."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from scorekeeper.vision.detections import DEFAULT_UNSURE_BELOW, Detections, DiceReader
from scorekeeper.vision.reader import ModelFiles

MODEL_LINE = ModelFiles.load().unsure_below
"""The unsure line of the committed model, from its manifest, as the ONNX reader applies it."""
BETWEEN = (DEFAULT_UNSURE_BELOW + MODEL_LINE) / 2
"""Doubted by the model, sure by the generic line: a die read so must wait for a tap."""
SURE = 0.97
"""What the stand-in reads a die it has no doubt about with."""


def model_reads(found: Detections, doubted: NDArray[np.bool_]) -> Detections:
    """``found`` as the model would report it: ``doubted`` dice at :data:`BETWEEN`, the others
    sure, all against the model's line."""
    confidences = np.where(doubted, BETWEEN, SURE).astype(np.float32)
    return Detections(found.boxes, found.values, confidences, MODEL_LINE)


class DoubtingReader:
    """Wraps a test reader: what it reads sure (``sure_from`` and up) becomes the model's sure read,
    except dice showing ``face``, read at :data:`BETWEEN`; its doubtful reads stay as they are."""

    def __init__(self, reader: DiceReader, face: int, sure_from: float = 0.8) -> None:
        self.reader, self.face, self.sure_from = reader, face, sure_from

    def read(self, frame: NDArray[np.uint8], dice: int | None = None) -> Detections:
        found = self.reader.read(frame, dice=dice)
        sure = found.confidences >= self.sure_from
        confidences = np.where(sure, np.where(found.values == self.face, BETWEEN, SURE), found.confidences)
        return Detections(found.boxes, found.values, confidences.astype(np.float32), MODEL_LINE)
