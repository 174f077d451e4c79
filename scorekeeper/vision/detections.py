"""What the dice reader finds in one frame, and the one-method protocol every reader follows."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from scorekeeper.rules import MARKS

DEFAULT_UNSURE_BELOW = 0.5
"""The unsure line of readings whose reader measured none (the classical baseline, tests' stand-ins):
dice read with less confidence are unsure and the window asks for a tap. The ONNX reader's readings
carry the line training chose for its models instead, kept beside them in ``unsure_line.json``;
a calibration profile never lowers a reading's line, only raises it (:meth:`Detections.held_to`)."""


def below_line(confidences: NDArray[np.float32], line: float) -> NDArray[np.bool_]:
    """Which of ``confidences`` fall below the unsure line ``line``: the dice to ask about (a die
    read exactly at the line is sure).

    >>> below_line(np.array([0.49, 0.5, 0.9], np.float32), 0.5).tolist()
    [True, False, False]
    """
    return np.asarray(confidences < line)


@dataclass(frozen=True, eq=False)
class Detections:
    """The dice found in one frame, as parallel arrays.

    >>> found = Detections(np.array([[10, 10, 40, 40]]), np.array([5]), np.array([0.97]))
    >>> len(found), found.roll(), Detections.empty().roll()
    (1, [5], [])
    """

    boxes: NDArray[np.float32]
    """(n, 4) boxes x0, y0, x1, y1 in pixels of the original frame, each framing a die's top face."""
    values: NDArray[np.int64]
    """(n,) pip values 1-6."""
    confidences: NDArray[np.float32]
    """(n,) confidence 0-1 that the die is a die and shows that value."""
    unsure_below: float = DEFAULT_UNSURE_BELOW
    """Dice with a lower confidence are reported as unsure."""
    dropped: NDArray[np.float32] = field(default_factory=lambda: np.zeros((0, 4), np.float32))
    """(m, 4) boxes of finds left out because the reader was told how many dice there are and
    these were the least likely to be dice; empty when it read blind."""
    marks: tuple[str, ...] = ()
    """(n,) each die's mark as the rules write it (one of ``MARKS``: "w" the wild die, "r" red
    pips showing, "wr" both, "" plain); empty given, all plain. At most one die is the wild one."""

    def __post_init__(self) -> None:
        boxes = np.asarray(self.boxes, dtype=np.float32).reshape(-1, 4)
        values = np.asarray(self.values, dtype=np.int64).reshape(-1)
        confidences = np.asarray(self.confidences, dtype=np.float32).reshape(-1)
        if not len(boxes) == len(values) == len(confidences):
            raise ValueError(
                f"detections need one box, value and confidence per die; got {len(boxes)} boxes, "
                f"{len(values)} values, {len(confidences)} confidences"
            )
        if len(values) and (values.min() < 1 or values.max() > 6):
            raise ValueError(f"pip values must be 1-6, got {values.tolist()}")
        if len(confidences) and (confidences.min() < 0 or confidences.max() > 1):
            raise ValueError(f"confidences must be 0-1, got {confidences.tolist()}")
        if len(boxes) and np.any(boxes[:, 2:] < boxes[:, :2]):
            raise ValueError(f"boxes must be x0, y0, x1, y1 with x1 >= x0 and y1 >= y0, got {boxes.tolist()}")
        dropped = np.asarray(self.dropped, dtype=np.float32).reshape(-1, 4)
        marks = tuple(self.marks) or ("",) * len(values)
        if len(marks) != len(values) or any(mark not in MARKS for mark in marks):
            raise ValueError(f"detections need one mark per die, each one of {', '.join(repr(m) for m in MARKS)}; got {list(marks)} for {len(values)} dice")
        if sum("w" in mark for mark in marks) > 1:
            raise ValueError(f"a roll holds at most one wild die, got marks {list(marks)}")
        object.__setattr__(self, "marks", marks)
        object.__setattr__(self, "boxes", boxes)
        object.__setattr__(self, "dropped", dropped)
        object.__setattr__(self, "values", values)
        object.__setattr__(self, "confidences", confidences)

    @classmethod
    def empty(cls) -> Detections:
        """No dice."""
        return cls(np.zeros((0, 4), np.float32), np.zeros(0, np.int64), np.zeros(0, np.float32))

    def __len__(self) -> int:
        return len(self.values)

    @property
    def unsure(self) -> NDArray[np.bool_]:
        """(n,) whether each die is below the confidence threshold."""
        return below_line(self.confidences, self.unsure_below)

    def held_to(self, line: float) -> Detections:
        """These dice held to ``line`` where it is stricter than their own unsure line (a table's
        profile asking for more caution); a line below their own changes nothing.

        >>> found = Detections(np.array([[0, 0, 9, 9]] * 2), np.array([2, 3]), np.array([0.8, 0.95]), 0.85)
        >>> found.held_to(0.9).unsure.tolist(), found.held_to(0.3).unsure_below
        ([True, False], 0.85)
        """
        if line <= self.unsure_below:
            return self
        return Detections(self.boxes, self.values, self.confidences, line, self.dropped, self.marks)

    def roll(self) -> list[int]:
        """The values, sorted: what the rules engine scores."""
        return sorted(int(value) for value in self.values)

    def __getitem__(self, index: Any) -> Detections:
        """The dice picked by a mask, slice or index array."""
        keep = np.arange(len(self))[index]
        marks = tuple(self.marks[i] for i in np.atleast_1d(keep))
        return Detections(self.boxes[keep], self.values[keep], self.confidences[keep], self.unsure_below, self.dropped, marks)

    def to_json(self) -> list[dict[str, Any]]:
        """One dict per die, as the command line prints them; a marked die adds its ``mark``."""
        return [
            {
                "box": [round(float(v), 1) for v in box],
                "value": int(value),
                "confidence": round(float(confidence), 4),
                "unsure": bool(unsure),
                **({"mark": mark} if mark else {}),
            }
            for box, value, confidence, unsure, mark in zip(self.boxes, self.values, self.confidences, self.unsure, self.marks)
        ]


class DiceReader(Protocol):
    """Anything that turns a frame into detections: the ONNX reader, or a fake in tests."""

    def read(self, frame: NDArray[np.uint8], dice: int | None = None) -> Detections:
        """Read one BGR frame (height, width, 3) of uint8. Given ``dice``, the number of dice on
        the table, keep at most that many finds, the likeliest dice, and report the rest as dropped."""
        ...
