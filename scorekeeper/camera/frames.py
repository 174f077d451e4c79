"""A frame and what every frame source shares, apart from the sources themselves so that the demo
table (:mod:`scorekeeper.camera.demo_table`) and the other sources (:mod:`scorekeeper.camera.sources`,
which opens the demo table) build on it without importing each other."""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from types import TracebackType
from typing import Self

import numpy as np
from numpy.typing import NDArray

from scorekeeper.vision.detections import Detections


@dataclass(frozen=True, eq=False)
class Frame:
    """One picture from a source."""

    image: NDArray[np.uint8]
    """BGR uint8 (height, width, 3)."""
    index: int
    """0, 1, 2... in the order the source gave them."""
    time: float
    """Seconds since the source started (a file's own timeline; a live camera's clock)."""
    truth: Detections | None = None
    """The exact dice, where the source knows them (the demo table); None for real cameras."""
    after_gap: bool = False
    """The source lost its picture before this frame and got it back (a stream reconnected): what
    lay still before the gap is not known to have lain still through it."""

    @property
    def size(self) -> tuple[int, int]:
        """Width and height, px."""
        return int(self.image.shape[1]), int(self.image.shape[0])


class BaseSource(ABC):
    """What every concrete source shares: a name, the frame size, pacing and closing."""

    name: str = ""
    """How the source is shown to the user, e.g. ``webcam:0 (1280x720)``."""
    live: bool = False
    """True for sources without an end (a camera, the demo table): stop them with Ctrl-C or a button."""
    fps: float = 30.0
    """Nominal frames per second."""
    size: tuple[int, int] = (0, 0)
    """Width and height of the frames, px."""

    def __init__(self, realtime: bool = False) -> None:
        self.realtime = realtime
        self._index = 0
        self._started = time.monotonic()

    def _pace(self) -> None:
        if self.realtime:
            due = self._started + self._index / self.fps
            delay = due - time.monotonic()
            if delay > 0:
                time.sleep(delay)

    @abstractmethod
    def read(self) -> Frame | None:
        """The next frame; None when the source has ended. Raises :class:`~scorekeeper.camera.sources.CameraLost` if a live one dies."""

    def close(self) -> None:
        """Release the camera or file."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()
