"""Test helper: a stand-in for OpenCV's camera capture."""

from __future__ import annotations

import cv2
import numpy as np


class FakeCapture:
    """Stands in for cv2.VideoCapture: a camera that gives 800x600 whatever is asked, then dies."""

    def __init__(self, frames: int, opened: bool = True) -> None:
        self.frames, self.opened, self.released, self.asked = frames, opened, False, {}

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return self.opened

    def set(self, prop: int, value: float) -> bool:
        self.asked[prop] = value
        return True

    def get(self, prop: int) -> float:
        return 30.0 if prop == cv2.CAP_PROP_FPS else 0.0

    def read(self) -> tuple[bool, np.ndarray | None]:
        if self.frames <= 0:
            return False, None
        self.frames -= 1
        return True, np.zeros((600, 800, 3), np.uint8)

    def release(self) -> None:
        self.released = True
