"""Where frames come from: a webcam, an IP camera's stream (a phone), a video file, a folder of
photos, or the built-in demo table.

Every source is a :class:`FrameSource`: ``read()`` gives the next :class:`Frame` (``None`` when a
file source has no more), ``name`` says what it is, ``close()`` releases it. A source that throws
the dice the game asks for (the demo table) is also a :class:`DiceSource`; one that opens itself
again when its picture is lost (an IP camera's stream) is a :class:`ReconnectingSource`. Sources
are context managers; close what you open.

>>> SourceSpec.from_str("webcam:1"), str(SourceSpec.from_str("demo"))
(SourceSpec(kind=<SourceKind.WEBCAM: 'webcam'>, argument='1'), 'demo')
>>> SourceSpec.from_str("http://192.168.1.20:8080/video").kind
<SourceKind.STREAM: 'stream'>
>>> SourceSpec.from_str("camera")
Traceback (most recent call last):
...
scorekeeper.camera.sources.SourceError: unknown source 'camera': use webcam:N, video:PATH, images:DIR, demo or an IP camera's address (http://PHONE:8080/video, rtsp://...)
"""

from __future__ import annotations

import atexit
import enum
import logging
import os
import re
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable
from urllib.parse import SplitResult, urlsplit

import cv2
import numpy as np
from numpy.typing import NDArray

from scorekeeper.camera.frames import BaseSource, Frame
from scorekeeper.camera.mjpeg import MjpegError, MjpegStream, NoVideo, Redirected, Refused, Stopped, TooLarge, jpeg_size
from scorekeeper.safe_input import check_file, check_folder
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


@runtime_checkable
class MarkedDiceSource(DiceSource, Protocol):
    """A source that throws a set with a wild die or red-pip faces (the demo table under those
    variants), and labels its frames with them (:attr:`Frame.truth`)."""

    def expect_wild(self, in_throw: bool | None) -> None:
        """Whether the wild die is among the dice thrown next (None: the source chooses)."""
        ...


@runtime_checkable
class ReconnectingSource(FrameSource, Protocol):
    """A live source that opens itself again when its picture is lost (an IP camera's stream). Its
    ``close()`` is safe from any thread: a ``read()`` waiting for the picture then returns None."""

    on_notice: Callable[[str], None] | None
    """Told, from the source's own thread, when the picture is lost and when it is back."""


class SourceKind(enum.Enum):
    """The kinds of frame source."""

    WEBCAM = "webcam"
    """A camera, by index (0 is the first)."""
    STREAM = "stream"
    """An IP camera's stream by its address: ``http://...`` (MJPEG, as phone camera apps serve it) or ``rtsp://...``."""
    VIDEO = "video"
    """A video file."""
    IMAGES = "images"
    """A folder of photos, in name order."""
    DEMO = "demo"
    """The built-in demo table: rendered dice rolls, no camera needed."""


STREAM_SCHEMES = {"http": 80, "https": 443, "rtsp": 554}
"""The addresses an IP camera is read at, with each one's port where the address names none."""

EXAMPLE_ADDRESS = "http://PHONE:8080/video"
"""An IP camera's address as the common phone apps serve it (IP Webcam on Android), for messages."""


def stream_address(text: str) -> SplitResult:
    """``text`` as an IP camera's address (``http://``, ``https://`` or ``rtsp://``, a host, an
    optional port and path); a :class:`SourceError` saying what is wrong with it.

    >>> stream_address("http://192.168.1.20:8080/video").port
    8080
    >>> stream_address("http://:8080/video")
    Traceback (most recent call last):
    ...
    scorekeeper.camera.sources.SourceError: 'http://:8080/video': the address names no camera: write it as http://PHONE:8080/video, PHONE being the phone's address (192.168.1.20)
    """
    shown = shown_address(text)
    if re.search(r"[\x00-\x20\x7f]", text):
        raise SourceError(f"{shown!r}: an address holds no spaces or control characters; copy it again from the camera app")
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        # the parser's own words may echo a piece of a password cut at a "/": not shown
        why = "a / or @ in the user name or password is written %2F or %40" if "@" in text else "its host or port cannot be read"
        raise SourceError(f"{shown!r} is not an address ({why}): write it as {EXAMPLE_ADDRESS}") from None
    if parts.scheme.lower() not in STREAM_SCHEMES:
        raise SourceError(f"{shown!r}: an IP camera's address starts with http://, https:// or rtsp://")
    if not parts.hostname:
        raise SourceError(f"{shown!r}: the address names no camera: write it as {EXAMPLE_ADDRESS}, PHONE being the phone's address (192.168.1.20)")
    if port == 0:
        raise SourceError(f"{shown!r}: port 0 is no camera's; the camera app shows the port (IP Webcam: 8080)")
    return parts


def shown_address(text: str) -> str:
    """The address as shown and logged, in every message: a password in it is hidden, whatever it
    holds (an ``@`` or a ``/`` too: all up to the last ``@`` is taken for it), and so is one given
    as a field of the query (``?pwd=...``).

    >>> shown_address("rtsp://me:secret@192.168.1.20:554/live")
    'rtsp://me:***@192.168.1.20:554/live'
    >>> shown_address("http://me:Sup3r@SecretPW@192.168.1.20:8080/video")
    'http://me:***@192.168.1.20:8080/video'
    >>> shown_address("me:pass/word@192.168.1.20:8080/video?user=me&pwd=secret")
    'me:***@192.168.1.20:8080/video?user=me&pwd=***'
    """
    scheme, slashes, body = text.partition("://")
    if not slashes:
        scheme, body = "", text
    at = body.rfind("@")
    user, colon, _ = body[:at].partition(":")
    if at >= 0 and colon:
        body = f"{user}:***{body[at:]}"
    body = re.sub(r"(?i)([?&;](?:password|passwd|pass|pwd|pw|token|key|auth|secret)=)[^&;#]*", r"\1***", body)
    return scheme + slashes + body


def parse_stream(text: str) -> SourceSpec:
    """An IP camera's address as typed or pasted by a player: ``http://`` is understood where it
    is left out (``192.168.1.20:8080/video``); a :class:`SourceError` saying what to type where
    the text is no camera's address.

    >>> str(parse_stream(" 192.168.1.20:8080/video "))
    'http://192.168.1.20:8080/video'
    >>> parse_stream("webcam:0")
    Traceback (most recent call last):
    ...
    scorekeeper.camera.sources.SourceError: 'webcam:0' is no IP camera's address: type the one the camera app shows, e.g. http://PHONE:8080/video
    """
    address = text.strip()
    if not address:
        raise SourceError(f"no address typed: type the one the camera app shows, e.g. {EXAMPLE_ADDRESS}")
    own = address.partition(":")[0].lower() in {kind.value for kind in SourceKind}  # webcam:0 is no host and port
    if "://" not in address and not own and re.match(r"[\w.-]+:\d{1,5}(/|$)", address):
        address = "http://" + address
    if not re.match(r"(?i)(https?|rtsp)://", address):
        raise SourceError(f"{shown_address(text.strip())!r} is no IP camera's address: type the one the camera app shows, e.g. {EXAMPLE_ADDRESS}")
    return SourceSpec.from_str(address)


@dataclass(frozen=True)
class SourceSpec:
    """A source as written on the command line: ``webcam:0``, ``video:PATH``, ``images:DIR``,
    ``demo``, or an IP camera's address (``http://PHONE:8080/video``)."""

    kind: SourceKind
    """Which kind of source."""
    argument: str = ""
    """The camera index, address, file or folder; empty for the demo table."""

    @classmethod
    def from_str(cls, text: str) -> SourceSpec:
        """Parse ``webcam:N``, ``video:PATH``, ``images:DIR``, ``demo`` (``demo:SEED`` picks the
        dice) or an address ``http://...``, ``https://...``, ``rtsp://...``."""
        if re.match(r"(?i)(https?|rtsp)://", text.strip()):
            address = text.strip()
            stream_address(address)
            return cls(SourceKind.STREAM, address)
        kind_text, _, argument = text.strip().partition(":")
        kind = next((kind for kind in SourceKind if kind.value == kind_text.lower() and kind is not SourceKind.STREAM), None)
        if kind is None:
            raise SourceError(
                f"unknown source {shown_address(text)!r}: use webcam:N, video:PATH, images:DIR, demo or an IP camera's address "
                "(http://PHONE:8080/video, rtsp://...)"
            )
        if kind is SourceKind.WEBCAM and not re.fullmatch(r"\d{1,3}", argument):
            raise SourceError(f"{text!r}: a webcam is chosen by its number, e.g. webcam:0 for the first one")
        if kind in (SourceKind.VIDEO, SourceKind.IMAGES) and not argument:
            what = "video file" if kind is SourceKind.VIDEO else "folder of photos"
            raise SourceError(f"{text!r}: give the {what} after the colon, e.g. {kind.value}:{'game.mp4' if kind is SourceKind.VIDEO else 'photos/'}")
        if kind is SourceKind.DEMO and argument and not re.fullmatch(r"\d{1,9}", argument):
            raise SourceError(f"{text!r}: the demo table takes an optional seed number, e.g. demo:7")
        return cls(kind, argument)

    def __str__(self) -> str:
        if self.kind is SourceKind.STREAM:
            return self.argument
        return f"{self.kind.value}:{self.argument}" if self.argument else self.kind.value


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


OPEN_TIMEOUT_S = 4.0
"""Longest wait, s, for an IP camera to take the connection and answer (start its stream)."""

READ_TIMEOUT_S = 3.0
"""Longest a stream may stay silent, s, before it counts as dropped; with :data:`OPEN_TIMEOUT_S`
and the reachability check, a wrong address is told in under 10 s."""

REACH_TIMEOUT_S = 2.0
"""Longest wait, s, for the camera's host to take a connection before the address is called unreachable."""

RETRY_S = 1.0
"""Pause, s, between two tries to open a dropped stream again."""

GIVE_UP_S = 120.0
"""A dropped stream not back after this long, s, is lost (the camera app was closed for good):
time enough for a phone to rejoin the Wi-Fi or its app to be started again."""

MAX_PART_BYTES = 32 * 1024 * 1024
"""The most bytes one picture of a stream may take: a part that claims more is refused before any
of it is read (a 4096x4096 JPEG at the best quality takes some 10 MB)."""

MAX_PICTURE_SIDE = 4096
"""The widest and the tallest picture, px, a stream may send (a phone's 4K video, 3840x2160, fits):
a larger one is refused from its JPEG header, before it is decoded."""

MAX_SKIPPED_PARTS = 30
"""Parts in a row that are no picture (no JPEG, or one that does not decode) before a stream
counts as sending no video: a few are skipped, as some apps send a text part first."""

StreamOpener = Callable[[str, float, float], Any]


def _open_stream(url: str, open_timeout: float, read_timeout: float) -> Any:
    # An rtsp:// stream, through FFMPEG, which honours both timeouts (a silent server is given up on in time).
    level = cv2.utils.logging.getLogLevel()
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
    try:
        return cv2.VideoCapture(
            url,
            cv2.CAP_FFMPEG,
            [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, round(open_timeout * 1000), cv2.CAP_PROP_READ_TIMEOUT_MSEC, round(read_timeout * 1000)],
        )
    finally:
        cv2.utils.logging.setLogLevel(level)


def check_reachable(url: str, timeout: float = REACH_TIMEOUT_S) -> None:
    """Raise a :class:`SourceError` saying why, where nothing takes a connection at the address's
    host and port within ``timeout`` seconds (no such host, nothing listening, no answer)."""
    parts = stream_address(url)
    host = parts.hostname or ""
    port = parts.port or STREAM_SCHEMES[parts.scheme.lower()]
    shown = shown_address(url)
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return
    except socket.gaierror:
        raise SourceError(f"{shown}: no computer or phone is known by the name {host!r}; use the address the camera app shows (e.g. {EXAMPLE_ADDRESS})") from None
    except TimeoutError:
        raise SourceError(
            f"{shown}: {host}:{port} does not answer (waited {timeout:g} s): is the phone on the same Wi-Fi "
            "as this computer, and the address the one the camera app shows?"
        ) from None
    except ConnectionRefusedError:
        raise SourceError(f"{shown}: nothing takes connections at {host}:{port}: is the camera app started, and is the port the one it shows?") from None
    except OSError as exc:
        raise SourceError(f"{shown}: {host}:{port} cannot be reached ({exc.strerror or exc}): is this computer on the phone's network?") from None


class PictureTooLarge(MjpegError):
    """A stream's picture wider or taller than :data:`MAX_PICTURE_SIDE` (told from its header)."""

    def __init__(self, width: int, height: int) -> None:
        super().__init__(f"a picture of {width}x{height} px")
        self.width, self.height = width, height


FINAL = (Refused, Redirected, TooLarge, PictureTooLarge)
"""What a camera answers that waiting does not mend: the stream is refused (or lost) at once, saying why."""


def decode_picture(data: bytes) -> NDArray[np.uint8] | None:
    """A stream's part as a BGR picture; None where it is no JPEG or does not decode (a part that is
    skipped); :class:`PictureTooLarge` from its header, before decoding, where it is over
    :data:`MAX_PICTURE_SIDE` either way."""
    size = jpeg_size(data)
    if size is None:
        return None
    if max(size) > MAX_PICTURE_SIDE:
        raise PictureTooLarge(*size)
    # as the camera sent it: an EXIF orientation is not applied (FFMPEG, which read streams before, did not)
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION)
    if image is None or (image.shape[1], image.shape[0]) != size:
        return None
    return np.asarray(image, np.uint8)


class _MjpegFeed:
    """An http(s):// camera's pictures, read in Python (:mod:`scorekeeper.camera.mjpeg`)."""

    fps = 0.0

    def __init__(self, stream: MjpegStream) -> None:
        self.stream = stream
        self.skipped = 0
        """Parts skipped in all (no JPEG, or one that does not decode)."""

    def picture(self) -> NDArray[np.uint8]:
        """The next picture; parts that are none are skipped (up to :data:`MAX_SKIPPED_PARTS` in a row)."""
        for _ in range(MAX_SKIPPED_PARTS + 1):
            image = decode_picture(self.stream.part())
            if image is not None:
                return image
            if not self.skipped:
                log.info("a part of the stream is no JPEG picture: skipped (and any more)")
            self.skipped += 1
        raise NoVideo(f"{MAX_SKIPPED_PARTS + 1} parts in a row that are no JPEG picture")

    def close(self) -> None:
        self.stream.close()


class _CaptureFeed:
    """An rtsp:// camera's pictures, through OpenCV's capture (FFMPEG). A picture is given only once
    the next has come: FFMPEG gives what came of the last one before a break, cut short."""

    def __init__(self, capture: Any) -> None:
        if capture is None or not capture.isOpened():
            if capture is not None:
                capture.release()
            raise ConnectionError("the stream does not open")
        self.capture = capture
        self.fps = float(capture.get(cv2.CAP_PROP_FPS) or 0)
        self._held: NDArray[np.uint8] | None = None

    def picture(self) -> NDArray[np.uint8]:
        while True:
            ok, image = self.capture.read()
            if not ok or image is None:
                raise ConnectionError("no picture came")
            held, self._held = self._held, np.asarray(image, np.uint8)
            if held is not None:
                return held

    def close(self) -> None:
        self.capture.release()


_Feed = _MjpegFeed | _CaptureFeed

_OPEN_STREAMS: set[StreamSource] = set()
"""The streams whose thread may still run (each leaves once its thread has ended in close())."""


@atexit.register
def _stop_open_streams() -> None:
    # A stream's thread still inside OpenCV when the interpreter is torn down kills the process
    # ("FATAL: exception not rethrown", SIGABRT): one a caller did not close is stopped here, and
    # waited for, before that (atexit runs while such threads still run).
    for stream in list(_OPEN_STREAMS):
        stream.close()


def _megabytes(size: int) -> str:
    return f"{size / 2**20:.{1 if size < 10 * 2**20 else 0}f} MB"


class StreamSource(BaseSource):
    """An IP camera's stream by its address: a phone's camera app (``http://PHONE:8080/video``, an
    MJPEG stream read in Python, :mod:`scorekeeper.camera.mjpeg`), or ``rtsp://...`` read through
    OpenCV's FFMPEG backend.

    A thread of its own takes each picture as it comes and keeps only the newest, so the watch loop
    reads the table as it is now however slowly it reads. Only whole pictures are passed on: a part
    cut short by a drop is never given. A dropped stream is opened again by itself, every ``retry``
    seconds until it answers (or, after ``give_up`` seconds, :class:`CameraLost` is raised);
    ``on_notice`` is told once when it is lost and once when it is back, and the first frame after
    the gap says so (:attr:`Frame.after_gap`). A camera that refuses the stream (401, 403), sends it
    on to another computer or sends pictures over the bounds (:data:`MAX_PART_BYTES`,
    :data:`MAX_PICTURE_SIDE`) is refused at once, or lost at once if it does so later, saying why.
    :meth:`close` stops the thread and waits for it to end; a stream left open is closed at exit.
    """

    live = True

    def __init__(
        self,
        url: str,
        *,
        open_capture: StreamOpener = _open_stream,
        open_timeout: float = OPEN_TIMEOUT_S,
        read_timeout: float = READ_TIMEOUT_S,
        retry: float = RETRY_S,
        give_up: float = GIVE_UP_S,
        on_notice: Callable[[str], None] | None = None,
        max_part_bytes: int = MAX_PART_BYTES,
    ) -> None:
        super().__init__(realtime=False)
        self._mjpeg = stream_address(url).scheme.lower() in ("http", "https")
        self.url = url
        self.shown = shown_address(url)
        """The address as shown (a password in it hidden)."""
        self.on_notice = on_notice
        """Told, from the stream's thread, when the picture is lost and when it is back."""
        self.reconnections = 0
        """How many times the stream was opened again after a drop."""
        self._open_capture = open_capture
        self._timeouts = (open_timeout, read_timeout)
        self._max_part_bytes = max_part_bytes
        self._retry = retry
        self._give_up = give_up
        self._gone = ""
        self._closed = threading.Event()
        self._ready = threading.Condition()
        self._newest: tuple[NDArray[np.uint8], bool, float] | None = None
        self._thread: threading.Thread | None = None
        check_reachable(url)
        try:
            feed, first = self._connect()
        except FINAL as exc:
            raise SourceError(self._refusal(exc)) from None
        except (OSError, MjpegError, cv2.error) as exc:
            why = f" ({exc})" if isinstance(exc, NoVideo) else ""
            raise SourceError(
                f"{self.shown} answers but sends no video there{why}: check the address's path in the camera app "
                f"(IP Webcam's stream is {EXAMPLE_ADDRESS})"
            ) from None
        if min(first.shape[:2]) < SMALLEST_FRAME:
            feed.close()
            raise SourceError(f"{self.shown}: {too_small(first.shape[1], first.shape[0])}")
        self.size = (int(first.shape[1]), int(first.shape[0]))
        self.fps = feed.fps if 1 <= feed.fps <= 240 else 30.0
        self.name = f"{self.shown} ({self.size[0]}x{self.size[1]})"
        self._thread = threading.Thread(target=self._pump, args=(feed, first), name="stream", daemon=True)
        _OPEN_STREAMS.add(self)
        self._thread.start()

    def _connect(self) -> tuple[_Feed, NDArray[np.uint8]]:
        """The stream opened and its first picture; raises where either does not come."""
        open_timeout, read_timeout = self._timeouts
        feed: _Feed
        if self._mjpeg:
            stream = MjpegStream(self.url, self._closed, open_timeout=open_timeout, read_timeout=read_timeout, max_part_bytes=self._max_part_bytes)
            feed = _MjpegFeed(stream)
        else:
            feed = _CaptureFeed(self._open_capture(self.url, open_timeout, read_timeout))
        try:
            return feed, feed.picture()
        except BaseException:
            feed.close()
            raise

    def _refusal(self, exc: MjpegError) -> str:
        """Why the camera's answer is refused, and what to do (the address shown with its password hidden)."""
        if isinstance(exc, Refused) and exc.status == 403:
            return f"{self.shown}: the camera refused the stream (403 Forbidden): check the camera app lets other devices watch it"
        if isinstance(exc, Refused) and exc.had_credentials:
            return f"{self.shown}: the camera asks for a user name and password (401) and refused the ones in the address: check them in the camera app"
        if isinstance(exc, Refused):
            return (
                f"{self.shown}: the camera asks for a user name and password (401): put them in the address "
                "as the camera app sets them, http://USER:PASSWORD@PHONE:8080/video"
            )
        if isinstance(exc, Redirected):
            return (
                f"{self.shown}: the camera sends the stream on to another computer, {shown_address(exc.location)}, "
                "and it is not followed there: if that is your camera, use that address"
            )
        if isinstance(exc, TooLarge):
            return (
                f"{self.shown}: a picture of {_megabytes(exc.size)} came, more than the {_megabytes(exc.limit)} a picture may take: "
                "set a smaller video resolution in the camera app"
            )
        assert isinstance(exc, PictureTooLarge)
        return (
            f"{self.shown}: its pictures are {exc.width}x{exc.height} px, larger than the {MAX_PICTURE_SIDE}x{MAX_PICTURE_SIDE} px "
            "a picture may be: set a smaller video resolution in the camera app (1280x720 is plenty)"
        )

    def _pump(self, feed: _Feed | None, image: NDArray[np.uint8]) -> None:
        """Take every picture as it comes and pass it on; open the stream again where it drops."""
        gap = False
        try:
            while feed is not None and not self._closed.is_set():
                if min(image.shape[:2]) >= SMALLEST_FRAME:
                    self._publish(image, gap)
                    gap = False
                try:
                    image = feed.picture()
                    continue
                except Stopped:
                    return
                except FINAL as exc:
                    self._gone = self._refusal(exc)
                    return
                except (OSError, MjpegError, cv2.error) as exc:
                    log.debug("the stream from %s broke: %s", self.shown, exc)
                feed.close()
                feed = None
                again = self._reconnect()
                if again is not None:
                    feed, image = again
                    gap = True
        finally:
            if feed is not None:
                feed.close()
            with self._ready:
                self._ready.notify_all()

    def _publish(self, image: NDArray[np.uint8], gap: bool) -> None:
        with self._ready:
            # a frame after a gap not read yet keeps saying so when a newer one takes its place
            gap = gap or (self._newest is not None and self._newest[1])
            self._newest = (image, gap, time.monotonic() - self._started)
            self._ready.notify_all()

    def _reconnect(self) -> tuple[_Feed, NDArray[np.uint8]] | None:
        """Open the stream again until it answers (its feed and first picture); None where the
        source is closed, the camera refuses it, or it stays away ``give_up`` s (:attr:`_gone` says why)."""
        lost = time.monotonic()
        self._notice(f"The stream from {self.shown} stopped: reconnecting by itself; the game is kept and no roll is taken meanwhile")
        while not self._closed.wait(self._retry):
            try:
                again = self._connect()
            except Stopped:
                return None
            except FINAL as exc:
                self._gone = self._refusal(exc)
                return None
            except (OSError, MjpegError, cv2.error) as exc:
                log.debug("the stream from %s is still away: %s", self.shown, exc)
            else:
                self.reconnections += 1
                self._notice(f"The stream from {self.shown} is back (after {time.monotonic() - lost:.0f} s)")
                return again
            if time.monotonic() - lost >= self._give_up:
                self._gone = (
                    f"the stream from {self.shown} did not come back in {self._give_up:g} s: is the camera app still "
                    "running on the phone? Reconnect once it is, or type the dice by hand"
                )
                break
        return None

    def _notice(self, text: str) -> None:
        log.info("%s", text)
        if self.on_notice is not None:
            self.on_notice(text)

    def read(self) -> Frame | None:
        thread = self._thread
        with self._ready:
            while self._newest is None and not self._closed.is_set() and thread is not None and thread.is_alive():
                self._ready.wait(0.5)
            if self._newest is None:
                if self._gone and not self._closed.is_set():
                    raise CameraLost(self._gone)
                return None
            image, gap, at = self._newest
            self._newest = None
        frame = Frame(image, self._index, at, after_gap=gap)
        self._index += 1
        return frame

    def close(self) -> None:
        """Stop reading, and wait for the stream's thread to let the camera go (safe from any
        thread; a read() waiting for the picture returns None)."""
        self._closed.set()
        with self._ready:
            self._ready.notify_all()
        thread = self._thread
        if thread is None or thread is threading.current_thread():
            return
        # an http stream's thread looks at the flag every 0.1 s; FFMPEG's read or open ends within its timeout
        thread.join(sum(self._timeouts) + 1.0)
        if thread.is_alive():
            log.warning("the stream from %s has not stopped yet", self.shown)
        else:
            _OPEN_STREAMS.discard(self)


def too_small(width: int, height: int) -> str:
    """Why a picture of ``width`` x ``height`` pixels gives the dice reader nothing to read.

    >>> too_small(1, 1)
    '1x1 px: too small to hold a die (at least 16x16 px)'
    """
    return f"{width}x{height} px: too small to hold a die (at least {SMALLEST_FRAME}x{SMALLEST_FRAME} px)"


def parse_source(text: str) -> SourceSpec:
    """``webcam:N``, ``video:PATH``, ``images:DIR``, ``demo`` or an IP camera's address as a
    :class:`SourceSpec`; a :class:`SourceError` saying what to write instead.

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
    wild: bool = False,
    spicy: bool = False,
) -> BaseSource:
    """Open a source from its spec. ``resolution`` is asked of a webcam and used by the demo table;
    ``realtime`` paces file and demo sources to their frame rate (default: only the demo table);
    ``hold`` is how many frames each photo of an ``images:`` folder lasts; ``wild`` and ``spicy``:
    the demo table's set holds a wild die, and red-pip faces (for a game with those variants)."""
    if isinstance(spec, str):
        spec = parse_source(spec)
    if spec.kind is SourceKind.WEBCAM:
        return WebcamSource(int(spec.argument), resolution)
    if spec.kind is SourceKind.STREAM:
        return StreamSource(spec.argument)
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
        wild=wild,
        spicy=spicy,
    )
