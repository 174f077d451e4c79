"""Box overlaps worked out by hand, for the one overlap function (the reader's, which settling uses too). Tests only."""

from __future__ import annotations

import numpy as np

SQUARE = np.array([[0, 0, 10, 10]], np.float32)
"""A 10 x 10 box at the origin (area 100)."""
OTHERS = np.array(
    [
        [5, 0, 15, 10],  # half of it: 50 / (100 + 100 - 50)
        [0, 5, 10, 25],  # a tall box: 50 / (100 + 200 - 50)
        [20, 20, 30, 30],  # apart, off to the lower right
        [20, 0, 30, 10],  # apart, to the right only
        [0, 20, 10, 30],  # apart, below only
        [2, 3, 6, 10],  # inside it: 28 / 100
        [0, 0, 10, 10],  # the same box
    ],
    np.float32,
)
"""Boxes against :data:`SQUARE`."""
OVERLAPS = [1 / 3, 0.2, 0.0, 0.0, 0.0, 0.28, 1.0]
"""Intersection over union of :data:`SQUARE` with each of :data:`OTHERS`."""
