"""Films for the camera's roll-taking, as tests and benchmarks play them: films rendered to video files,
and a reader that knows the answers.

The reader plays a real one's part: it returns the renderer's exact labels for each frame,
spoiled the way a real reader spoils them (boxes jitter, dice missed now and then, a value
misread now and then, nonsense for dice that are tumbling, confusion after an exposure jump).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from scorekeeper.camera.demo_table import DemoTable, render_scene
from scorekeeper.camera.watch import Watcher
from scorekeeper.vision.detections import Detections
from scorekeeper.synthetic.scene import Scene


def write_video(scenes: list[Scene], path: Path, fps: float = 30.0) -> list[Detections]:
    """Render the film into an MJPG .avi; returns each frame's exact labels."""
    width, height = scenes[0].width, scenes[0].height
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), fps, (width, height))
    assert writer.isOpened(), "OpenCV cannot write MJPG video here"
    labels = []
    for scene in scenes:
        image, truth = render_scene(scene)
        writer.write(image)
        labels.append(truth)
    writer.release()
    return labels


def demo_labels(table: DemoTable, frames: int) -> list[Detections]:
    """The labels of the next ``frames`` frames the demo table films."""
    out = []
    for _ in range(frames):
        frame = table.read()
        assert frame is not None and frame.truth is not None
        out.append(frame.truth)
    return out


def _digest(image: NDArray[np.uint8]) -> bytes:
    """A short hash of a picture's pixels, which tells the frames of a film apart."""
    return hashlib.blake2b(np.ascontiguousarray(image).tobytes(), digest_size=16).digest()


def tumbling(scene: Scene, labels: Detections) -> NDArray[np.bool_]:
    """Which labelled dice are mid-roll: the pose nearest each label's box centre says."""
    out = np.zeros(len(labels), bool)
    for i, box in enumerate(labels.boxes):
        cx, cy = (box[0] + box[2]) / 2 - scene.shift[0], (box[1] + box[3]) / 2 - scene.shift[1]
        pose = min(scene.dice, key=lambda d: math.hypot(d.x - cx, d.y - cy))
        out[i] = pose.moving or pose.tumble > 0.2
    return out


class FilmReader:
    """Reads frame ``i`` of a film as its labels, spoiled: frames come in order, or say which
    frame they are with :meth:`follow`."""

    def __init__(
        self,
        scenes: list[Scene],
        labels: list[Detections],
        *,
        seed: int = 0,
        jitter: float = 0.8,
        miss: float = 0.04,
        misread: float = 0.04,
        ghost: float = 0.0,
        blind: bool = False,
    ) -> None:
        self.scenes, self.labels = scenes, labels
        self.rng = np.random.default_rng(seed)
        self.jitter, self.miss, self.misread, self.ghost = jitter, miss, misread, ghost
        self.blind = blind
        """Miss tumbling dice altogether (a reader that finds no die in a blur)."""
        self.index = 0
        self.clock: Callable[[], int] | None = None
        self.pictures: dict[bytes, int] = {}
        """Frame numbers by picture (:meth:`by_picture`)."""
        self._confused = 0

    def by_picture(self, video: Path) -> FilmReader:
        """Tell the frame from its picture (the frames of ``video`` as decoded): for a reader handed
        to code that makes its own watcher, such as the watch command. Identical frames are one scene."""
        capture = cv2.VideoCapture(str(video))
        images = []
        ok, image = capture.read()
        while ok:
            images.append(np.asarray(image, np.uint8))
            ok, image = capture.read()
        capture.release()
        return self.by_images(images)

    def by_images(self, images: list[NDArray[np.uint8]]) -> FilmReader:
        """Tell the frame from its picture, the film's pictures as they come (a stream's, decoded as
        the stream decodes them). Identical frames are one scene."""
        for number, image in enumerate(images):
            self.pictures.setdefault(_digest(image), number)
        return self

    def follow(self, watcher: Watcher) -> FilmReader:
        """Take the frame number from the watcher (which skips reading unchanged frames)."""
        self.clock = lambda: watcher.latest_frame.index if watcher.latest_frame is not None else 0
        return self

    def read(self, frame: NDArray[np.uint8], dice: int | None = None) -> Detections:
        """The frame's labels, spoiled as the settings say."""
        if self.clock is not None:
            self.index = self.clock()
        elif self.pictures:
            self.index = self.pictures[_digest(frame)]
        scene, labels = self.scenes[self.index], self.labels[self.index]
        if self.index and scene.exposure != self.scenes[self.index - 1].exposure:
            self._confused = 4  # a few frames of a washed-out or dark picture
        self.index += 1
        rng = self.rng
        n = len(labels)
        moving = tumbling(scene, labels) if n else np.zeros(0, bool)
        confused = self._confused > 0
        self._confused = max(0, self._confused - 1)
        values = labels.values.copy()
        confidences = rng.uniform(0.8, 0.99, n)
        misread = rng.random(n) < (0.3 if confused else self.misread)
        values[misread] = rng.integers(1, 7, int(misread.sum()))
        confidences[misread] = rng.uniform(0.3, 0.6, int(misread.sum()))
        values[moving] = rng.integers(1, 7, int(moving.sum()))
        confidences[moving] = rng.uniform(0.1, 0.5, int(moving.sum()))
        boxes = labels.boxes + rng.normal(0, self.jitter, (n, 4)).astype(np.float32)
        boxes[:, 2:] = np.maximum(boxes[:, 2:], boxes[:, :2] + 1)
        keep = rng.random(n) >= (0.4 if confused else self.miss)
        if self.blind:
            keep &= ~moving
        found = Detections(boxes[keep], values[keep], confidences[keep].astype(np.float32))
        if self.ghost and rng.random() < self.ghost:
            x, y = rng.uniform(0, frame.shape[1] - 20), rng.uniform(0, frame.shape[0] - 20)
            ghost = Detections(np.array([[x, y, x + 18, y + 18]]), np.array([int(rng.integers(1, 7))]), np.array([0.4], np.float32))
            found = Detections(
                np.concatenate([found.boxes, ghost.boxes]),
                np.concatenate([found.values, ghost.values]),
                np.concatenate([found.confidences, ghost.confidences]),
            )
        return found
