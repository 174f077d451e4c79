"""The watch loop: capture a frame, read the dice, keep those in the rolling area, settle.

:class:`Watcher` is the whole pipeline as a plain object. ``scorekeeper watch`` iterates it and
prints the events; the window's worker thread iterates it and emits signals. Either may call
:meth:`Watcher.stop` from another thread; the loop ends after the frame in hand.

>>> from scorekeeper.camera.demo_table import DemoTable
>>> from scorekeeper.camera.settling import EventKind
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

from scorekeeper.camera.calibration import CalibrationProfile, split_by_area
from scorekeeper.camera.empty_table import EmptyTable
from scorekeeper.camera.motion import CameraMotion
from scorekeeper.camera.settling import EventKind, SettleEvent, SettleParams, Settler, TableState, one_box_per_die
from scorekeeper.camera.frames import Frame
from scorekeeper.camera.sources import FrameSource
from scorekeeper.vision.reader import OnnxDiceReader, open_reader
from scorekeeper.vision.detections import Detections, DiceReader


REUSE_FRAMES = 15
"""Frames in a row that may reuse a reading of an unchanged picture: half a second at most."""

UNCHANGED = 10
"""Largest change, in grey levels, of any 8x8 block's mean for a picture to count as unchanged:
sensor noise and compression stay well below it, a die, a hand or a bumped camera far above."""


MOVED = 24
"""Change, in grey levels, of an 8x8 block's mean from one frame to the next that is motion there."""

FORGET_SHIFT = 4.0
"""The picture moved this far, px, from the one the empty table was learned in (its texture
says): the camera moved, and the empty table's finds are forgotten."""

FORGET_CHECK = 15
"""Frames read between two looks at whether the camera moved since the empty table was learned
(looked at at once when the table's texture says the picture moved)."""

LOCAL_SHARE = 0.25
"""Motion in less than this share of the rolling area is something moving in it (a die, a hand);
more is the whole picture changing (a bumped camera, an exposure jump), which is no die moving."""


class ReaderUnavailable(ValueError):
    """The dice reader's model is missing or damaged: nothing can be read."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason
        """What the reader itself said was wrong (the window shows it in its own words)."""


def default_reader(model_dir: Path | None = None, threads: int = 2) -> DiceReader:
    """The watch loop's dice reader: :func:`~scorekeeper.vision.reader.open_reader` on ``threads``
    threads, loaded once (it checks its model files).

    Raises :class:`ReaderUnavailable` saying what is missing and how to get it back.
    """
    try:
        return open_reader(model_dir, threads=threads)
    except ValueError as exc:
        raise ReaderUnavailable(f"the dice model is missing or damaged: {exc}", str(exc)) from None


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
        empty_table: EmptyTable | None = None,
    ) -> None:
        self.source = source
        self.reader = reader
        self.reuse = reuse
        """While the settler is quiet (roll taken or table empty, nothing moved lately) and the
        picture has not changed, up to this many frames in a row reuse the last reading instead of
        running the reader again (0: read every frame)."""
        self.profile = profile or CalibrationProfile()
        self.settler = Settler(SettleParams(settle_frames=self.profile.settle_frames) if settle is None else settle)
        self.latest_frame: Frame | None = None
        """The frame being read right now (or last read)."""
        self.latest: WatchStep | None = None
        """The last whole step."""
        self._stop = threading.Event()
        self._times: deque[float] = deque(maxlen=31)
        self._read_thumb: NDArray[np.uint8] | None = None
        self._last_thumb: NDArray[np.uint8] | None = None
        self._mask: NDArray[np.bool_] = np.zeros((0, 0), bool)
        self.motion = CameraMotion()
        """How far the camera moved the picture between the last two frames read."""
        self._reused = 0
        self.frames_read = 0
        """How many frames the reader actually read."""
        self.empty_table = empty_table if empty_table is not None else EmptyTable()
        """What the reader finds on the table itself, not offered as dice (the window keeps one
        across reconnections and calibrations)."""
        self._learn_empty = threading.Event()
        self._table_seen: NDArray[np.float32] | None = None
        self._reads_since_check = 0
        self._moved_yet = False
        self.thrown: int | None = None
        """Dice the game expects thrown into the rolling area (None or 0: not known); set from any
        thread. The reader is told these and the dice last seen set aside are on the table."""

    def _look(self, image: NDArray[np.uint8]) -> tuple[bool, NDArray[np.uint8], NDArray[np.uint8] | None]:
        """Whether the picture is (about) the one last read; this frame's eighth-size grey
        thumbnail, and the last frame's (None at the start or after a size change)."""
        height, width = image.shape[:2]
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        thumb = np.asarray(cv2.resize(gray, (max(1, width // 8), max(1, height // 8)), interpolation=cv2.INTER_AREA), np.uint8)
        last = self._last_thumb if self._last_thumb is not None and self._last_thumb.shape == thumb.shape else None
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
            return True, thumb, last
        self._read_thumb = thumb
        self._reused = 0
        return False, thumb, last

    def _moving(self, image: NDArray[np.uint8], thumb: NDArray[np.uint8], last: NDArray[np.uint8] | None, found: Detections) -> bool:
        """Whether something moves in the rolling area from the last frame to this one that the
        reader may not have found (a blurred die in flight), from the thumbnails' 8x8 blocks changed
        with the camera's own move taken out (:meth:`CameraMotion.block_change`).

        When the camera moved (a handheld or knocked camera), the dice found are left to the
        settler (their pips and edges flicker under a shift of a fraction of a block). Change over
        most of the area is the whole picture changing, which is no die moving."""
        off = self.motion.block_change(image, thumb, last, found)
        if off is None:
            return False
        changed = (off > MOVED) & self._area_mask(thumb.shape)
        if not changed.any() or float(changed.mean()) >= LOCAL_SHARE * float(self._mask.mean()):
            return False
        if self.motion.moved:
            rows, cols = changed.shape
            for x0, y0, x1, y1 in found.boxes:
                changed[max(0, int(y0 // 8) - 1) : min(rows, int(y1 // 8) + 2), max(0, int(x0 // 8) - 1) : min(cols, int(x1 // 8) + 2)] = False
        return bool(changed.any())

    def _without_the_table(self, image: NDArray[np.uint8], found: Detections) -> Detections:
        """``found`` less the empty table's own finds; the empty table is learned first where asked
        (``learn_empty_table``), and forgotten where the picture has moved since it was learned."""
        if self._learn_empty.is_set():
            self._learn_empty.clear()
            known = len(self.empty_table)
            self.empty_table.learn(image, found)
            self._table_learned(known)
        self._reads_since_check += 1
        due = self._reads_since_check >= FORGET_CHECK or self.motion.table_shifted
        if len(self.empty_table) and self._table_seen is not None and due:
            self._reads_since_check = 0
            shift = self.motion.shift_since(self._table_seen)
            if shift is not None and np.hypot(*shift) > FORGET_SHIFT:
                self.empty_table.forget()
                self._table_seen = None
        return self.empty_table.dice(image, found)

    def _table_learned(self, known: int) -> None:
        """The empty table was just learned, holding ``known`` finds before: keep the picture it
        was first learned in (to tell a moved camera by)."""
        if len(self.empty_table) > known and self._table_seen is None:
            self._table_seen = self.motion.last_gray

    def _taken(self, image: NDArray[np.uint8], event: SettleEvent) -> SettleEvent | None:
        """``event`` as passed on: a roll less the finds that lay unchanged through its throw (the
        table's, learned now); None for a rest seen from the first frame with nothing moved yet
        that holds fewer dice than the game expects thrown: what lies on the table before the
        first throw (a knot, a speck), compared with that throw when it settles."""
        if event.kind is not EventKind.SETTLED:
            return event
        if not self._moved_yet and self.thrown and len(event.dice) < self.thrown:
            self.empty_table.still(image, event.dice)
            return None
        known = len(self.empty_table)
        dice = self.empty_table.settled(image, event.dice)
        self._table_learned(known)
        return event if dice.all() else replace(event, dice=event.dice[dice], unsure=event.unsure[dice])

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
        set aside (kept dice may lie in view or not), while a throw is under way (dice moving or
        coming to rest); None while nothing is expected, and between throws, when the dice are
        in the hand: told six then, a reader keeps its six likeliest finds on an empty table and
        offers the table's own (a hole in a binder read as a 3 on byler_d6's board)."""
        thrown = self.thrown
        if not thrown or self.settler.state is not TableState.MOVING:
            return None
        return thrown + (len(self.latest.aside) if self.latest is not None else 0)

    def _gap(self) -> None:
        """The source lost its picture and got it back: no frame before the gap counts as the last
        one (for motion, or for reusing a reading), and settling starts its count again."""
        self.settler.gap()
        self._last_thumb = None
        self._read_thumb = None
        self._reused = 0

    def learn_empty_table(self) -> None:
        """The table holds no dice now: remember what the reader finds in the next frame read as
        part of the table (safe from any thread)."""
        self._learn_empty.set()

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
        if frame.after_gap:
            self._gap()
        width, height = frame.size
        events: list[SettleEvent] = []
        unchanged, thumb, last = self._look(frame.image)
        if self.latest is not None and unchanged:
            # Nothing changed on a quiet table: the last reading stands and settling has nothing new.
            dice, aside = self.latest.dice, self.latest.aside
            self.empty_table.still(frame.image, dice)
        else:
            self.frames_read += 1
            if isinstance(self.reader, OnnxDiceReader) and self.profile.die_size > 0:
                self.reader.die_size = self.profile.die_size_at(width)
            found = self.reader.read(frame.image, dice=self.dice_on_table())
            found = one_box_per_die(found)
            moving = self._moving(frame.image, thumb, last, found)
            found = self._without_the_table(frame.image, found)
            dice, aside = split_by_area(self.profile, found, width, height)
            camera = (float(self.motion.shift[0]), float(self.motion.shift[1]))
            self.empty_table.camera_moved(camera)
            self._moved_yet = self._moved_yet or moving
            settled = self.settler.update(dice, frame=frame.index, time=frame.time, size=(width, height), picture_moving=moving, camera=self.motion.move)
            events = [taken for event in settled if (taken := self._taken(frame.image, event)) is not None]
            if self.settler.quiet and not moving and not settled:
                self.empty_table.still(frame.image, dice)
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
