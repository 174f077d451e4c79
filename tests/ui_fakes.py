"""Test stand-ins for the camera side: a scripted table rendered by the project's renderer, and a
reader that returns the renderer's labels (with chosen misreads). Tests only."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from scorekeeper.camera.demo_table import Choreography, render_scene
from scorekeeper.camera.sources import CameraLost, Frame
from scorekeeper.vision.detections import DEFAULT_UNSURE_BELOW, Detections
from scorekeeper.synthetic.die import DieLook, DiePose
from scorekeeper.synthetic.scene import Scene


class ScriptedTable:
    """A live frame source whose dice the test throws: between throws the dice lie still."""

    live = True

    def __init__(self, width: int = 640, height: int = 480, seed: int = 5, pause: float = 0.01) -> None:
        self.film = Choreography(width, height, seed=seed)
        self.name = f"scripted table ({width}x{height})"
        self.size = (width, height)
        self.pause = pause
        self.labels: Detections = Detections.empty()
        self.lost = False
        self.aside: list[DiePose] = []
        self._queue: deque[Scene] = deque()
        self._lock = threading.Lock()
        self._index = 0

    def roll(
        self, values: Sequence[int], spots: Sequence[tuple[float, float]] | None = None, *, looks: Sequence[DieLook] | None = None, wild: int | None = None
    ) -> None:
        """Pick up the dice on the table (not those set aside) and throw these, at ``spots`` if given,
        each with its look of ``looks`` if given, die ``wild`` the wild die."""
        with self._lock:
            self.film.dice = list(self.aside)
            self.film.rest(3)
            self.film.throw(list(values), frames=12, spots=spots, looks=looks, wild=wild)
            self._queue.extend(self.film.drain())

    def set_aside(self, faces: Sequence[int], x: float) -> None:
        """Move dice showing ``faces`` from the roll to a column at ``x`` px (out of the rolling area)."""
        with self._lock:
            for face in faces:
                die = next(d for d in self.film.dice if d.value == face and d not in self.aside)
                moved = replace(die, x=x, y=40 + 1.5 * self.film.size * len(self.aside))
                self.film.dice[self.film.dice.index(die)] = moved
                self.aside.append(moved)
            self.film.rest(2)
            self._queue.extend(self.film.drain())

    def read(self) -> Frame | None:
        time.sleep(self.pause)
        with self._lock:
            if self.lost:
                raise CameraLost("scripted camera unplugged")
            if not self._queue:
                self.film.rest(1)
                self._queue.extend(self.film.drain())
            scene = self._queue.popleft()
        image, labels = render_scene(scene)
        self.labels = labels
        frame = Frame(image, self._index, self._index / 30, labels)
        self._index += 1
        return frame

    def close(self) -> None:
        pass


@dataclass
class Misread:
    """On the roll ``roll`` (sorted faces), read the first die showing ``face`` as ``read_as`` with ``confidence``."""

    roll: tuple[int, ...]
    face: int
    read_as: int
    confidence: float = 0.95


class LabelReader:
    """Reads a frame as the renderer labelled it, except for the misreads asked for."""

    def __init__(self, table: ScriptedTable, misreads: Sequence[Misread] = (), unsure_below: float = DEFAULT_UNSURE_BELOW) -> None:
        self.table = table
        self.misreads = list(misreads)
        self.unsure_below = unsure_below
        """The unsure line the detections carry, as a model's manifest sets it."""

    def read(self, frame: NDArray[np.uint8], dice: int | None = None) -> Detections:
        labels = self.table.labels
        values = labels.values.copy()
        confidences = np.full(len(values), 0.97, np.float32)
        for misread in self.misreads:
            if tuple(sorted(values.tolist())) == misread.roll:
                index = int(np.flatnonzero(values == misread.face)[0])
                values[index] = misread.read_as
                confidences[index] = misread.confidence
        return Detections(labels.boxes, values, confidences, self.unsure_below)
