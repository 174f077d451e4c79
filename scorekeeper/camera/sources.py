"""Where frames come from: a webcam, a video file, a folder of photos, or the built-in demo table.

Every source is a :class:`FrameSource`: ``read()`` gives the next :class:`Frame` (``None`` when a
file source has no more), ``name`` says what it is, ``close()`` releases it. A source that throws
the dice the game asks for (the demo table) is also a :class:`DiceSource`. Sources are context
managers; close what you open.

>>> SourceSpec.from_str("webcam:1"), str(SourceSpec.from_str("demo"))
(SourceSpec(kind=<SourceKind.WEBCAM: 'webcam'>, argument='1'), 'demo')
>>> SourceSpec.from_str("camera")
Traceback (most recent call last):
...
scorekeeper.camera.sources.SourceError: unknown source 'camera': use webcam:N, video:PATH, images:DIR or demo
"""

from __future__ import annotations

import enum
import logging
import os
import re
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol, Self, runtime_checkable

import cv2
import numpy as np
from numpy.typing import NDArray

from scorekeeper.safe_input import check_file, check_folder
from scorekeeper.vision.detections import Detections
from scorekeeper.vision.images import ImageError, load_frame

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
"""The photo files an ``images:DIR`` source steps through."""

SMALLEST_FRAME = 16
"""The least width and height, pixels, of a frame the dice reader takes (a die needs that much)."""

HOLD_FRAMES = 15
"""Frames each photo of an ``images:DIR`` source lasts unless the opener asks for more
(``scorekeeper watch`` asks for the profile's settle frames and a few more, so every photo gives
its own roll)."""


class SourceError(ValueError):
    """A frame source that cannot be opened or read; the message says which and what to do."""


class CameraLost(SourceError):
    """A camera that was open stopped sending frames (unplugged, or taken by another program)."""


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

    @property
    def size(self) -> tuple[int, int]:
        """Width and height, px."""
        return int(self.image.shape[1]), int(self.image.shape[0])


class FrameSource(Protocol):
    """Anything that gives frames one at a time: a camera, a file, the demo table, a test's film."""

    @property
    def name(self) -> str:
        """How the source is shown to the user, e.g. ``webcam:0 (1280x720)``."""
        ...

    def read(self) -> Frame | None:
        """The next frame; None when the source has ended. Raises :class:`CameraLost` if a live one dies."""
        ...

    def close(self) -> None:
        """Release the camera or file."""
        ...


@runtime_checkable
class DiceSource(FrameSource, Protocol):
    """A source that throws the dice it is told to (the demo table), where a camera only watches."""

    def expect(self, count: int | None) -> None:
        """The game expects ``count`` dice thrown next (0: none now, None: no dice game)."""
        ...


class SourceKind(enum.Enum):
    """The kinds of frame source."""

    WEBCAM = "webcam"
    """A camera, by index (0 is the first)."""
    VIDEO = "video"
    """A video file."""
    IMAGES = "images"
    """A folder of photos, in name order."""
    DEMO = "demo"
    """The built-in demo table: rendered dice rolls, no camera needed."""


@dataclass(frozen=True)
class SourceSpec:
    """A source as written on the command line: ``webcam:0``, ``video:PATH``, ``images:DIR``, ``demo``."""

    kind: SourceKind
    """Which kind of source."""
    argument: str = ""
    """The camera index, file or folder; empty for the demo table."""

    @classmethod
    def from_str(cls, text: str) -> SourceSpec:
        """Parse ``webcam:N``, ``video:PATH``, ``images:DIR`` or ``demo`` (``demo:SEED`` picks the dice)."""
        kind_text, _, argument = text.strip().partition(":")
        try:
            kind = SourceKind(kind_text.lower())
        except ValueError:
            raise SourceError(f"unknown source {text!r}: use webcam:N, video:PATH, images:DIR or demo") from None
        if kind is SourceKind.WEBCAM and not re.fullmatch(r"\d{1,3}", argument):
            raise SourceError(f"{text!r}: a webcam is chosen by its number, e.g. webcam:0 for the first one")
        if kind in (SourceKind.VIDEO, SourceKind.IMAGES) and not argument:
            what = "video file" if kind is SourceKind.VIDEO else "folder of photos"
            raise SourceError(f"{text!r}: give the {what} after the colon, e.g. {kind.value}:{'game.mp4' if kind is SourceKind.VIDEO else 'photos/'}")
        if kind is SourceKind.DEMO and argument and not re.fullmatch(r"\d{1,9}", argument):
            raise SourceError(f"{text!r}: the demo table takes an optional seed number, e.g. demo:7")
        return cls(kind, argument)

    def __str__(self) -> str:
        return f"{self.kind.value}:{self.argument}" if self.argument else self.kind.value


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
        """The next frame; None when the source has ended. Raises :class:`CameraLost` if a live one dies."""

    def close(self) -> None:
        """Release the camera or file."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()


CaptureOpener = Callable[[int], Any]


def _open_camera(index: int) -> Any:
    # OpenCV logs every backend it tries for a missing camera; the SourceError says it plainly.
    level = cv2.utils.logging.getLogLevel()
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
    try:
        return cv2.VideoCapture(index)
    finally:
        cv2.utils.logging.setLogLevel(level)


class WebcamSource(BaseSource):
    """A camera by index, at the resolution asked for if it can; :attr:`size` is what it actually gives."""

    live = True

    def __init__(
        self,
        index: int = 0,
        resolution: tuple[int, int] = (1280, 720),
        *,
        open_capture: CaptureOpener = _open_camera,
        patience: float = 1.0,
    ) -> None:
        super().__init__(realtime=False)
        self.index = index
        self.requested = resolution
        self.patience = patience
        self._capture = open_capture(index)
        if self._capture is None or not self._capture.isOpened():
            raise SourceError(
                f"no camera at webcam:{index}: check it is plugged in and not used by another program, "
                "try another number, or use the demo table (demo)"
            )
        self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, resolution[0])
        self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, resolution[1])
        # The newest picture, not a queue of old ones, when reading is slower than the camera.
        self._capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        ok, image = self._capture.read()
        if not ok or image is None:
            self._capture.release()
            raise SourceError(f"webcam:{index} opened but sends no picture: is it in use by another program?")
        self._first: NDArray[np.uint8] | None = image
        self.size = (int(image.shape[1]), int(image.shape[0]))
        fps = float(self._capture.get(cv2.CAP_PROP_FPS) or 0)
        self.fps = fps if 1 <= fps <= 240 else 30.0
        self.name = f"webcam:{index} ({self.size[0]}x{self.size[1]})"
        if self.size != tuple(resolution):
            log.info("webcam:%d gave %dx%d instead of the %dx%d asked for", index, *self.size, *resolution)

    def read(self) -> Frame | None:
        if self._first is not None:
            image, self._first = self._first, None
        else:
            image = self._grab()
        frame = Frame(image, self._index, time.monotonic() - self._started)
        self._index += 1
        return frame

    def _grab(self) -> NDArray[np.uint8]:
        # A camera can miss a frame now and then; one that stays silent for ``patience`` seconds is gone.
        give_up = time.monotonic() + self.patience
        while True:
            ok, image = self._capture.read()
            if ok and image is not None:
                return np.asarray(image, np.uint8)
            if time.monotonic() >= give_up:
                raise CameraLost(f"webcam:{self.index} stopped sending pictures: was it unplugged? Reconnect it, or type the dice by hand")
            time.sleep(0.02)

    def close(self) -> None:
        self._capture.release()


class VideoSource(BaseSource):
    """A video file, frame by frame, on its own timeline."""

    def __init__(self, path: str | Path, *, realtime: bool = False) -> None:
        super().__init__(realtime)
        self.path = Path(path)
        if self.path.is_dir():
            raise SourceError(f"{str(self.path)!r} is a folder, not a video file (for a folder of photos use images:{self.path})")
        if not os.path.lexists(self.path):
            raise SourceError(f"video file {str(self.path)!r} does not exist")
        # a named pipe or device would make OpenCV wait or read forever; say why a file cannot be read
        check_file(self.path, "video file", SourceError, None)
        try:
            # OpenCV takes a file name as UTF-8 and crashes the process on one that is not
            str(self.path).encode("utf-8")
        except UnicodeEncodeError:
            raise SourceError(
                f"{str(self.path)!r}: the file name is not UTF-8 (written in another character set), and OpenCV "
                "cannot open a video by such a name; rename the file (or copy it) to a name in UTF-8"
            ) from None
        self._capture = cv2.VideoCapture(str(self.path))
        if not self._capture.isOpened():
            raise SourceError(f"{str(self.path)!r} cannot be read as a video (is it a video file OpenCV can decode?)")
        fps = float(self._capture.get(cv2.CAP_PROP_FPS) or 0)
        self.fps = fps if 1 <= fps <= 1000 else 30.0
        self.size = (int(self._capture.get(cv2.CAP_PROP_FRAME_WIDTH)), int(self._capture.get(cv2.CAP_PROP_FRAME_HEIGHT)))
        if 0 < min(self.size) < SMALLEST_FRAME:
            self._capture.release()
            raise SourceError(f"{str(self.path)!r}: {too_small(*self.size)}")
        self.name = f"video:{self.path} ({self.size[0]}x{self.size[1]}, {self.fps:g} fps)"

    def read(self) -> Frame | None:
        ok, image = self._capture.read()
        if not ok or image is None:
            return None
        self._pace()
        frame = Frame(np.asarray(image, np.uint8), self._index, self._index / self.fps)
        self._index += 1
        return frame

    def close(self) -> None:
        self._capture.release()


def _natural_key(path: Path) -> list[Any]:
    # a run of digits sorts by its value, compared as (length, digits) so that no name is too long for int()
    return [(len(part.lstrip("0")), part.lstrip("0")) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", path.name)]


class ImageFolderSource(BaseSource):
    """The photos of a folder in name order (``2.png`` before ``10.png``), each held for ``hold`` frames.

    A photo is a still table, so holding it for a few more frames than it takes to settle gives
    each photo its own roll. Files that cannot be read, or are too small to hold a die, are skipped
    with a warning saying why.
    """

    def __init__(self, folder: str | Path, *, hold: int = HOLD_FRAMES, fps: float = 30.0, realtime: bool = False) -> None:
        super().__init__(realtime)
        self.folder = Path(folder)
        if self.folder.is_file():
            raise SourceError(f"{str(self.folder)!r} is a file, not a folder of photos (for a video file use video:{self.folder})")
        if not os.path.lexists(self.folder):
            raise SourceError(f"folder {str(self.folder)!r} does not exist")
        check_folder(self.folder, "folder of photos", SourceError)
        if hold < 1:
            raise SourceError(f"each photo must be held for at least 1 frame, got {hold}")
        self.files = sorted(
            (p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file()), key=_natural_key
        )
        if not self.files:
            raise SourceError(f"no photos in {str(self.folder)!r} (looked for {', '.join(IMAGE_SUFFIXES)})")
        self.hold = hold
        self.fps = fps
        self.skipped: list[Path] = []
        """The photos that could not be read (or were too small), in order."""
        self.problems: list[str] = []
        """Why each of :attr:`skipped` was skipped: its name, a colon and the reason."""
        self._file = -1
        self._image: NDArray[np.uint8] | None = None
        self._held = 0
        self.name = f"images:{self.folder} ({len(self.files)} photos)"

    def read(self) -> Frame | None:
        while self._image is None or self._held >= self.hold:
            self._file += 1
            if self._file >= len(self.files):
                return None
            try:
                image = load_frame(self.files[self._file])
            except ImageError as exc:
                self._skip(str(exc))
                continue
            if min(image.shape[:2]) < SMALLEST_FRAME:
                self._skip(too_small(image.shape[1], image.shape[0]))
                continue
            self._image, self._held = np.asarray(image, np.uint8), 0
            self.size = (int(image.shape[1]), int(image.shape[0]))
        self._pace()
        frame = Frame(self._image, self._index, self._index / self.fps)
        self._index += 1
        self._held += 1
        return frame


    def _skip(self, why: str) -> None:
        photo = self.files[self._file]
        log.warning("skipped %s: %s", photo, why)
        self.skipped.append(photo)
        self.problems.append(f"{photo.name}: {why}")


def too_small(width: int, height: int) -> str:
    """Why a picture of ``width`` x ``height`` pixels gives the dice reader nothing to read.

    >>> too_small(1, 1)
    '1x1 px: too small to hold a die (at least 16x16 px)'
    """
    return f"{width}x{height} px: too small to hold a die (at least {SMALLEST_FRAME}x{SMALLEST_FRAME} px)"


def parse_source(text: str) -> SourceSpec:
    """``webcam:N``, ``video:PATH``, ``images:DIR`` or ``demo`` as a :class:`SourceSpec`; a
    :class:`SourceError` saying what to write instead.

    >>> parse_source("video:game.mp4").kind
    <SourceKind.VIDEO: 'video'>
    """
    return SourceSpec.from_str(text)


def open_source(
    spec: str | SourceSpec,
    *,
    resolution: tuple[int, int] = (1280, 720),
    realtime: bool | None = None,
    hold: int = HOLD_FRAMES,
    seed: int = 0,
) -> BaseSource:
    """Open a source from its spec. ``resolution`` is asked of a webcam and used by the demo table;
    ``realtime`` paces file and demo sources to their frame rate (default: only the demo table);
    ``hold`` is how many frames each photo of an ``images:`` folder lasts."""
    if isinstance(spec, str):
        spec = parse_source(spec)
    if spec.kind is SourceKind.WEBCAM:
        return WebcamSource(int(spec.argument), resolution)
    if spec.kind is SourceKind.VIDEO:
        return VideoSource(spec.argument, realtime=bool(realtime))
    if spec.kind is SourceKind.IMAGES:
        return ImageFolderSource(spec.argument, hold=hold, realtime=bool(realtime))
    # Imported on demand: the renderer is only needed for the demo table.
    from scorekeeper.camera.demo_table import DemoTable

    return DemoTable(
        width=resolution[0],
        height=resolution[1],
        seed=int(spec.argument) if spec.argument else seed,
        realtime=True if realtime is None else realtime,
    )
