"""The watch loop: capture a frame, read the dice, keep those in the rolling area, settle.

:class:`Watcher` is the whole pipeline as a plain object. ``scorekeeper watch`` iterates it and
prints the events; the window's worker thread iterates it and emits signals. Either may call
:meth:`Watcher.stop` from another thread; the loop ends after the frame in hand.

>>> from scorekeeper.pipeline.demo import DemoTable
>>> from scorekeeper.pipeline.settling import EventKind
>>> class Truth:  # a reader that knows the answers (the demo table's labels)
...     def read(self, frame, dice=None): return watcher.latest_frame.truth
>>> with DemoTable(320, 240, seed=2, realtime=False) as table:
...     watcher = Watcher(table, Truth(), settle=SettleParams(settle_frames=6))
...     events = list(watcher.events(max_frames=85))
>>> [(str(event.kind), event.roll()) for event in events if event.kind is EventKind.SETTLED]
[('settled', [1, 2]), ('settled', [2, 3])]
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from scorekeeper.pipeline.calibration import CalibrationProfile, split_by_area
from scorekeeper.pipeline.settling import SettleEvent, SettleParams, Settler, TableState, one_box_per_die
from scorekeeper.pipeline.sources import Frame, FrameSource
from scorekeeper.vision.detections import Detections, DiceReader


REUSE_FRAMES = 15
"""Frames in a row that may reuse a reading of an unchanged picture: half a second at most."""

UNCHANGED = 10
"""Largest change, in grey levels, of any 8x8 block's mean for a picture to count as unchanged:
sensor noise and compression stay well below it, a die, a hand or a bumped camera far above."""


MOVED = 24
"""Change, in grey levels, of an 8x8 block's mean from one frame to the next that is motion there."""

LOCAL_SHARE = 0.25
"""Motion in less than this share of the rolling area is something moving in it (a die, a hand);
more is the whole picture changing (a bumped camera, an exposure jump), which is no die moving."""


class ReaderUnavailable(ValueError):
    """The dice reader's model is missing or damaged: nothing can be read."""


def default_reader(model_dir: Path | None = None, threads: int = 2) -> DiceReader:
    """The project's ONNX dice reader, loaded once (it checks its model files).

    Raises :class:`ReaderUnavailable` saying what is missing and how to get it back.
    """
    # Imported on demand: onnxruntime loads only when dice are to be read.
    try:
        from scorekeeper.vision.reader import OnnxDiceReader
    except ImportError as exc:
        raise ReaderUnavailable(f"the dice reader cannot be loaded ({exc}); reinstall scorekeeper") from None
    try:
        reader: DiceReader = OnnxDiceReader(model_dir, threads=threads)
    except ValueError as exc:
        raise ReaderUnavailable(f"the dice model is missing or damaged: {exc}") from None
    return reader


@dataclass(frozen=True, eq=False)
class WatchStep:
    """Everything one frame gave: what the live view draws, and the events it caused."""

    frame: Frame
    """The picture."""
    dice: Detections
    """The dice in the rolling area (what settling judged), with the profile's confidence threshold."""
    aside: Detections
    """Dice seen outside the rolling area: the ones set aside."""
    events: tuple[SettleEvent, ...]
    """Moving, settled, cleared: usually none."""
    state: TableState
    """Empty, moving or still, after this frame."""
    fps: float
    """Frames per second processed, over the last second or so."""


class Watcher:
    """Frames from ``source`` through ``reader`` and the rolling area into one :class:`Settler`."""

    def __init__(
        self,
        source: FrameSource,
        reader: DiceReader,
        profile: CalibrationProfile | None = None,
        settle: SettleParams | None = None,
        reuse: int = REUSE_FRAMES,
    ) -> None:
        self.source = source
        self.reader = reader
        self.reuse = reuse
        """While the settler is quiet (roll taken or table empty, nothing moved lately) and the
        picture has not changed, up to this many frames in a row reuse the last reading instead of
        running the reader again (0: read every frame)."""
        self.profile = profile or CalibrationProfile()
        base = settle or SettleParams()
        self.settler = Settler(
            replace(base, settle_frames=self.profile.settle_frames, unsure_below=self.profile.confidence)
            if settle is None
            else base
        )
        self.latest_frame: Frame | None = None
        """The frame being read right now (or last read)."""
        self.latest: WatchStep | None = None
        """The last whole step."""
        self._stop = threading.Event()
        self._times: deque[float] = deque(maxlen=31)
        self._read_thumb: NDArray[np.uint8] | None = None
        self._last_thumb: NDArray[np.uint8] | None = None
        self._mask: NDArray[np.bool_] = np.zeros((0, 0), bool)
        self._reused = 0
        self.frames_read = 0
        """How many frames the reader actually read."""
        self.thrown: int | None = None
        """Dice the game expects thrown into the rolling area (None or 0: not known); set from any
        thread. The reader is told these and the dice last seen set aside are on the table."""

    def _look(self, image: NDArray[np.uint8]) -> tuple[bool, bool]:
        """Whether the picture is (about) the one last read, and whether something moves in the
        rolling area from the last frame to this one, from an eighth-size grey thumbnail."""
        height, width = image.shape[:2]
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        thumb = np.asarray(cv2.resize(gray, (max(1, width // 8), max(1, height // 8)), interpolation=cv2.INTER_AREA), np.uint8)
        moving = False
        if self._last_thumb is not None and self._last_thumb.shape == thumb.shape:
            changed = (cv2.absdiff(thumb, self._last_thumb) > MOVED) & self._area_mask(thumb.shape)
            # A die or a hand changes a small part of the area; a bumped camera or an exposure jump changes all of it.
            moving = bool(changed.any()) and float(changed.mean()) < LOCAL_SHARE * float(self._mask.mean())
        self._last_thumb = thumb
        # Only while the settler is quiet: every frame of a rest being voted on, or of dice stirring, is read.
        if (
            self._reused < self.reuse
            and self.settler.quiet
            and self._read_thumb is not None
            and self._read_thumb.shape == thumb.shape
            and int(cv2.absdiff(thumb, self._read_thumb).max()) <= UNCHANGED
        ):
            self._reused += 1
            return True, moving
        self._read_thumb = thumb
        self._reused = 0
        return False, moving

    def _area_mask(self, shape: tuple[int, ...]) -> NDArray[np.bool_]:
        if self._mask.shape != shape[:2]:
            height, width = shape[:2]
            corners = np.array([[x * width, y * height] for x, y in self.profile.area], np.float32)
            mask = np.zeros((height, width), np.uint8)
            cv2.fillPoly(mask, [np.round(corners).astype(np.int32)], 1)
            self._mask = mask.astype(bool)
        return self._mask

    def dice_on_table(self) -> int | None:
        """How many dice the reader is told are in view: those expected thrown and those last seen
        set aside (kept dice may lie in view or not); None while nothing is expected."""
        thrown = self.thrown
        if not thrown:
            return None
        return thrown + (len(self.latest.aside) if self.latest is not None else 0)

    def stop(self) -> None:
        """Ask the loop to end after the frame in hand (safe from any thread)."""
        self._stop.set()

    @property
    def stopped(self) -> bool:
        """Whether :meth:`stop` was called."""
        return self._stop.is_set()

    def step(self) -> WatchStep | None:
        """Read, filter and settle one frame; None when the source has ended or the loop was stopped."""
        if self._stop.is_set():
            return None
        frame = self.source.read()
        if frame is None:
            return None
        self.latest_frame = frame
        width, height = frame.size
        events: list[SettleEvent] = []
        unchanged, moving = self._look(frame.image)
        if self.latest is not None and unchanged:
            # Nothing changed on a quiet table: the last reading stands and settling has nothing new.
            dice, aside = self.latest.dice, self.latest.aside
        else:
            self.frames_read += 1
            found = self.reader.read(frame.image, dice=self.dice_on_table())
            dice, aside = split_by_area(self.profile, one_box_per_die(found), width, height)
            events = self.settler.update(dice, frame=frame.index, time=frame.time, size=(width, height), picture_moving=moving)
        self._times.append(time.perf_counter())
        fps = (len(self._times) - 1) / (self._times[-1] - self._times[0]) if len(self._times) > 1 and self._times[-1] > self._times[0] else 0.0
        self.latest = WatchStep(frame, dice, aside, tuple(events), self.settler.state, fps)
        return self.latest

    def steps(self, max_frames: int | None = None) -> Iterator[WatchStep]:
        """Every step until the source ends, :meth:`stop` is called, or ``max_frames`` frames."""
        count = 0
        while max_frames is None or count < max_frames:
            step = self.step()
            if step is None:
                return
            count += 1
            yield step

    def __iter__(self) -> Iterator[WatchStep]:
        return self.steps()

    def events(self, max_frames: int | None = None) -> Iterator[SettleEvent]:
        """Only the events, as they happen."""
        for step in self.steps(max_frames):
            yield from step.events
