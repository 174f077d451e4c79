"""The empty table's own finds: what the reader sees as a die where no die is (a logo on the felt,
a knot in the wood, the hole of a dice tower), remembered by place and look and not offered as dice.

A find is remembered (by where it is, how it looks and the face read there) when the table is
known to hold no dice (the calibration's empty-table view: :meth:`EmptyTable.learn`), or when it
lay still in the rolling area before a throw and lies unchanged, same place, look and face, when
the throw has settled (:meth:`EmptyTable.still`, then :meth:`EmptyTable.settled`): real dice are
picked up and thrown between rolls, so a "die" that stays put through a throw is part of the
table. That holds for the first throw too: what lies on the table before it (a knot the reader
takes for a die) is compared with the first roll. Everything is forgotten when the camera moves
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

PICKED_UP = 5
"""Quiet frames in a row with nothing where a die of the last roll lay before it counts as picked
up (a reader missing a die now and then does not pick it up)."""


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
        self._before: list[Fixture] = []
        self._last_roll: list[Fixture] = []
        self._gone = np.zeros(0, np.int64)
        self._picked_up = True

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

    def still(self, image: NDArray[np.uint8], area: Detections) -> None:
        """Nothing moves in the rolling area, which shows ``area``: the scene the next throw starts
        from. A die of the last roll with nothing where it lay for ``PICKED_UP`` such frames in a
        row was picked up: the next roll is a throw, not a die knocked or nudged."""
        self._before = self._finds(image, area)
        if self._last_roll and not self._picked_up:
            there = box_iou(np.array([item.box for item in self._last_roll], np.float32), area.boxes).max(axis=1, initial=0.0) >= SAME_PLACE
            self._gone = np.where(there, 0, self._gone + 1)
            self._picked_up = bool((self._gone >= PICKED_UP).any())

    def camera_moved(self, shift: tuple[float, float]) -> None:
        """The picture moved by ``shift`` (x, y px) since the last frame: the scenes kept move with it."""
        if shift == (0.0, 0.0):
            return
        offset = np.array([shift[0], shift[1], shift[0], shift[1]], np.float32)
        self._before = [Fixture(item.box + offset, item.look, item.value) for item in self._before]
        self._last_roll = [Fixture(item.box + offset, item.look, item.value) for item in self._last_roll]

    def settled(self, image: NDArray[np.uint8], roll: Detections) -> NDArray[np.bool_]:
        """Dice came to rest as ``roll``. Where they were thrown (the last roll's dice were picked
        up first, or new dice joined it), its finds that lay unchanged in the scene before the
        throw are the table's, unless nothing else changed (the same dice settling again prove
        nothing). Which of ``roll`` are dice, not the table."""
        this = self._finds(image, roll)
        stayed = [self._matches(self._before, item) for item in this]
        # thrown: the last roll was picked up, or it all lies where it was and new dice joined it
        # (a roll of the table's own finds alone); a die knocked or nudged is neither
        joined = all(self._matches(this, item) for item in self._last_roll) and len(this) > len(self._last_roll)
        if (self._picked_up or joined) and not all(stayed):
            for item, same in zip(this, stayed):
                if same and not self._matches(self.fixtures, item):
                    self.fixtures.append(item)
        dice = np.array([not self._matches(self.fixtures, item) for item in this], bool)
        self._before = self._last_roll = [item for item, die in zip(this, dice) if die]
        self._gone = np.zeros(len(self._last_roll), np.int64)
        self._picked_up = not self._last_roll
        return dice

    def dice(self, image: NDArray[np.uint8], found: Detections) -> Detections:
        """The finds in ``image`` that are not the table's own."""
        if not self.fixtures or not len(found):
            return found
        keep = np.array([not self._matches(self.fixtures, item) for item in self._finds(image, found)], bool)
        return found if keep.all() else found[keep]

    def forget(self) -> None:
        """The camera moved: what was learned no longer lies there."""
        self.fixtures = []
        self._before = []
        self._last_roll = []
        self._picked_up = False
