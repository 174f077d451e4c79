"""The empty table's own finds: what the reader sees as a die where no die is (a logo on the felt,
a knot in the wood, the hole of a dice tower), remembered by place and look and not offered as dice.

A find is remembered (by where it is, how it looks and the face read there) when the table is
known to hold no dice (the calibration's empty-table
view: :meth:`EmptyTable.learn`), or when it lies unchanged, same place and same look, in two
rolls one after the other: real dice are picked up and thrown between rolls, so a "die" that
stays put through a throw is part of the table. Everything is forgotten when the camera moves
(:meth:`EmptyTable.forget`): the table's finds are then elsewhere in the picture.

>>> import numpy as np
>>> table = np.full((120, 160, 3), 80, np.uint8); table[40:60, 40:60] = 200  # a bright logo
>>> logo = Detections(np.array([[40, 40, 60, 60]]), np.array([1]), np.array([0.7]))
>>> memory = EmptyTable()
>>> memory.learn(table, logo)
>>> len(memory), len(memory.dice(table, logo))
(1, 0)
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from scorekeeper.vision.detections import Detections
from scorekeeper.vision.processing import box_iou

SAME_PLACE = 0.5
"""IoU from which a find lies where a remembered one does."""

SAME_LOOK = 8.0
"""Largest mean difference of the two pictures (grey levels, brightness matched) for a find to
look like a remembered one: the same logo, knot or hole does; a die's face rarely does."""

PATCH = 16
"""Side of the grey picture a find's look is kept as, px."""


@dataclass(frozen=True, eq=False)
class Fixture:
    """One find of the empty table."""

    box: NDArray[np.float32]
    """(4,) where it is, frame pixels."""
    look: NDArray[np.float32]
    """(PATCH, PATCH) its picture, grey, less its mean (an exposure change does not change it)."""
    value: int
    """The face the reader reads there: a die landing on the spot must show the same to be taken for it."""


def _look(image: NDArray[np.uint8], box: NDArray[np.float32]) -> NDArray[np.float32]:
    height, width = image.shape[:2]
    x0, y0 = max(0, int(box[0])), max(0, int(box[1]))
    x1, y1 = min(width, max(x0 + 1, int(np.ceil(box[2])))), min(height, max(y0 + 1, int(np.ceil(box[3]))))
    crop = image[y0:y1, x0:x1]
    gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop
    patch = np.asarray(cv2.resize(gray, (PATCH, PATCH), interpolation=cv2.INTER_AREA), np.float32)
    return np.asarray(patch - patch.mean(), np.float32)


class EmptyTable:
    """The finds of the table itself, learned and forgotten as the table and the camera say."""

    def __init__(self) -> None:
        self.fixtures: list[Fixture] = []
        """The finds remembered as part of the table."""
        self._last_roll: list[Fixture] = []

    def __len__(self) -> int:
        return len(self.fixtures)

    def _matches(self, known: list[Fixture], item: Fixture) -> bool:
        return any(
            float(box_iou(item.box, other.box)[0, 0]) >= SAME_PLACE and item.value == other.value and float(np.abs(item.look - other.look).mean()) <= SAME_LOOK
            for other in known
        )

    def _finds(self, image: NDArray[np.uint8], found: Detections) -> list[Fixture]:
        return [Fixture(box.copy(), _look(image, box), int(value)) for box, value in zip(found.boxes, found.values)]

    def learn(self, image: NDArray[np.uint8], found: Detections) -> None:
        """The table holds no dice now: remember every find in ``image``."""
        for item in self._finds(image, found):
            if not self._matches(self.fixtures, item):
                self.fixtures.append(item)

    def settled(self, image: NDArray[np.uint8], roll: Detections) -> None:
        """A roll was taken: its finds that lay unchanged in the roll before are the table's, where
        the rest of that roll was thrown again (the same dice settling again prove nothing)."""
        this = self._finds(image, roll)
        stayed = [self._matches(self._last_roll, item) for item in this]
        if not all(stayed):
            for item, same in zip(this, stayed):
                if same and not self._matches(self.fixtures, item):
                    self.fixtures.append(item)
        self._last_roll = this

    def dice(self, image: NDArray[np.uint8], found: Detections) -> Detections:
        """The finds in ``image`` that are not the table's own."""
        if not self.fixtures or not len(found):
            return found
        keep = np.array([not self._matches(self.fixtures, item) for item in self._finds(image, found)], bool)
        return found if keep.all() else found[keep]

    def forget(self) -> None:
        """The camera moved: what was learned no longer lies there."""
        self.fixtures = []
        self._last_roll = []
