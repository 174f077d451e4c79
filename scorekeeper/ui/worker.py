"""Capture, dice reading and settling off the GUI thread: a worker in a QThread that talks by signals.

Opening a camera, loading the model and reading every frame all happen here, so the
window never freezes. The worker runs the pipeline's :class:`~scorekeeper.camera.watch.Watcher`.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from PySide6.QtCore import QObject, QThread, Signal, Slot

from scorekeeper.camera.calibration import CalibrationProfile
from scorekeeper.camera.empty_table import EmptyTable
from scorekeeper.camera.settling import TableState
from scorekeeper.camera.sources import CameraLost, FrameSource, ReconnectingSource, SourceError, open_source
from scorekeeper.camera.watch import ReaderUnavailable, WatchStep, Watcher
from scorekeeper.table_session.assembly import ThrowsExpected
from scorekeeper.vision.detections import DiceReader, Detections
from scorekeeper.vision.reader import open_reader

log = logging.getLogger(__name__)

DEMO = "demo"
YIELD_S = 0.001
"""Pause after each frame: a source that never waits (an unpaced file) must not starve the
window's thread of the interpreter lock; a camera's 33 ms per frame make it negligible."""
ReaderFactory = Callable[[], DiceReader]
SourceOpener = Callable[[str, CalibrationProfile], FrameSource]


READER_THREADS = 1
"""Threads of the window's dice reader: the window's own thread needs the rest of a laptop's cores."""


def default_reader() -> DiceReader:
    """The project's ONNX dice reader on :data:`READER_THREADS` threads (raises
    :class:`~scorekeeper.vision.reader.ModelError` if the model is missing or damaged)."""
    return open_reader(threads=READER_THREADS)


def default_opener(spec: str, profile: CalibrationProfile) -> FrameSource:
    """Open a source at the profile's resolution, paced to real time (a video plays at its speed)."""
    return open_source(spec, resolution=profile.resolution, realtime=True)


def marked_opener(marks: str) -> SourceOpener:
    """:func:`default_opener` whose demo table throws a set with the marks a game plays (``"w"``: a
    wild die, ``"r"``: red-pip faces)."""
    return lambda spec, profile: open_source(spec, resolution=profile.resolution, realtime=True, wild="w" in marks, spicy="r" in marks)


class CaptureWorker(QObject):
    """Runs in its own thread: opens the source, loads the reader, then steps the watch loop."""

    opened = Signal(str, str)
    """The source is open: its name (with the resolution it really gives) and a note ("" or why it is not the one asked for)."""
    stepped = Signal(object)
    """A :class:`WatchStep` for the live view (frames are dropped while the view is busy)."""
    table_event = Signal(object, object)
    """A settle event and the :class:`WatchStep` it happened on (never dropped)."""
    reader_missing = Signal(str)
    """The dice reader could not be loaded: why. Frames are still shown."""
    reader_ready = Signal(object)
    """The dice reader is loaded (the reader itself, for the table that learns)."""
    lost = Signal(str)
    """The camera stopped sending pictures: why, and what to do."""
    notice = Signal(str)
    """A stream dropped and is being opened again, or is back: what to tell the players."""
    failed = Signal(str)
    """The source could not be opened."""
    ended = Signal()
    """The loop is over (source ended, stopped, lost or failed)."""

    def __init__(
        self,
        spec: str | None,
        profile: CalibrationProfile,
        reader: ReaderFactory = default_reader,
        opener: SourceOpener = default_opener,
        empty_table: EmptyTable | None = None,
        throws: ThrowsExpected | None = None,
    ) -> None:
        """``throws``: what the game expects thrown, told to the source and the watch loop once
        they read (:meth:`~scorekeeper.table_session.assembly.CameraTable.reopened`)."""
        super().__init__()
        self.spec = spec
        self.empty_table = empty_table
        self.profile = profile
        self._reader_factory = reader
        self._opener = opener
        self._stop = threading.Event()
        self._view_free = threading.Event()
        self._view_free.set()
        self.watcher: Watcher | None = None
        self.throws = throws if throws is not None else ThrowsExpected()
        self._source: FrameSource | None = None

    def learn_empty_table(self) -> None:
        """The table holds no dice now: what the reader finds next is the table's (safe from any thread)."""
        if self.watcher is not None:
            self.watcher.learn_empty_table()

    def stop(self) -> None:
        """End the loop after the frame in hand (safe from any thread); a stream waiting for its
        picture to come back stops waiting."""
        self._stop.set()
        if self.watcher is not None:
            self.watcher.stop()
        source = self._source
        if isinstance(source, ReconnectingSource):
            source.close()

    def view_ready(self) -> None:
        """The view has drawn the last step; the next may be sent."""
        self._view_free.set()

    def _open(self) -> tuple[FrameSource, str] | None:
        if self.spec is not None:
            try:
                return self._opener(self.spec, self.profile), ""
            except (SourceError, OSError) as exc:
                self.failed.emit(str(exc))
                return None
        camera = self.profile.camera if self.profile.camera.startswith("webcam") else "webcam:0"
        try:
            return self._opener(camera, self.profile), ""
        except (SourceError, OSError) as exc:
            log.info("no webcam, starting the demo table: %s", exc)
        try:
            return self._opener(DEMO, self.profile), f"No webcam found ({camera}): showing the demo table."
        except (SourceError, OSError, ValueError) as exc:
            self.failed.emit(str(exc))
            return None

    @Slot()
    def run(self) -> None:
        try:
            self._run()
        except Exception as exc:  # a failing frame source or reader must not take the window down
            log.exception("capture worker failed")
            self.failed.emit(f"the camera loop failed: {exc}")
        finally:
            self.ended.emit()

    def _run(self) -> None:
        opened = self._open()
        if opened is None:
            return
        source, note = opened
        self._source = source
        if isinstance(source, ReconnectingSource):
            source.on_notice = self.notice.emit
        self.throws.reading(source)
        try:
            self.opened.emit(source.name, note)
            try:
                reader = self._reader_factory()
            except Exception as exc:  # a missing or damaged model, a failing stand-in...: say so, keep showing frames
                self.reader_missing.emit(exc.reason if isinstance(exc, ReaderUnavailable) else str(exc))
                self._frames_only(source)
                return
            self.reader_ready.emit(reader)
            self.watcher = Watcher(source, reader, self.profile, empty_table=self.empty_table)
            self.throws.watched_by(self.watcher)
            if self._stop.is_set():
                return
            for step in self.watcher:
                for event in step.events:
                    self.table_event.emit(event, step)
                if self._view_free.is_set():
                    self._view_free.clear()
                    self.stepped.emit(step)
                time.sleep(YIELD_S)
        except CameraLost as exc:
            self.lost.emit(str(exc))
        finally:
            source.close()

    def _frames_only(self, source: FrameSource) -> None:
        """No reader: the live view still shows the table, with no dice drawn."""
        while not self._stop.is_set():
            frame = source.read()
            if frame is None:
                return
            if self._view_free.is_set():
                self._view_free.clear()
                empty = Detections.empty()
                self.stepped.emit(WatchStep(frame, empty, empty, (), TableState.EMPTY, 0.0))
            time.sleep(YIELD_S)


_LINGERING: list[CaptureThread] = []
"""Capture threads asked to stop that have not ended yet."""


class CaptureThread:
    """A worker and the thread it lives in, started and stopped together."""

    def __init__(self, worker: CaptureWorker) -> None:
        self.worker = worker
        self.thread = QThread()
        self.thread.setObjectName("capture")
        worker.moveToThread(self.thread)
        self.thread.started.connect(worker.run)
        worker.ended.connect(self.thread.quit)

    def start(self) -> None:
        self.thread.start()

    def stop(self, wait_ms: int = 3000) -> None:
        """Ask the worker to end and wait a little; a worker stuck in a camera call is left to end
        on its own (kept referenced: Qt aborts the program if a running thread is destroyed)."""
        self.worker.stop()
        self.thread.quit()
        if not self.thread.wait(wait_ms):
            log.warning("the capture thread is still busy; it will end on its own")
            _LINGERING.append(self)
            self.thread.finished.connect(lambda: _LINGERING.remove(self) if self in _LINGERING else None)


def wait_for_lingering(wait_ms: int) -> bool:
    """Wait up to ``wait_ms`` in all for the capture threads asked to stop to end: Python must not
    tear down under a running Qt thread (it crashes there). False if one is still busy then."""
    deadline = time.monotonic() + wait_ms / 1000
    for capture in list(_LINGERING):
        if not capture.thread.wait(max(0, round((deadline - time.monotonic()) * 1000))):
            return False
        if capture in _LINGERING:
            _LINGERING.remove(capture)
    return True
