"""An IP camera for tests and benchmarks: one on 127.0.0.1 serving a film as an MJPEG stream (multipart/x-mixed-replace),
as the phone camera apps serve one, that can be dropped mid-picture and brought back.

The film plays on one timeline shared by every connection: a client that connects again after a
drop goes on from the picture the stream broke in, as a table left alone while the phone's stream
was down still shows what it showed.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from scorekeeper.safe_output import write_atomically

BOUNDARY = b"frame"
"""The marker between the stream's pictures."""


def jpegs(images: list[NDArray[np.uint8]], quality: int = 92) -> list[bytes]:
    """Each picture as a JPEG file's bytes."""
    out = []
    for image in images:
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        assert ok
        out.append(data.tobytes())
    return out


def write_mjpeg(frames: list[bytes], path: Path) -> Path:
    """The JPEGs one after the other: a raw MJPEG file that FFMPEG decodes exactly as it decodes the stream."""
    write_atomically(path, b"".join(frames))
    return path


class MjpegCamera:
    """Serves ``frames`` (JPEG bytes) at ``fps`` on ``/video``; ``/`` is a web page (no video).

    :meth:`drop_at` cuts the stream in the middle of a picture once the film reaches it, and the
    camera then answers 503 for ``down`` seconds before it streams again."""

    def __init__(self, frames: list[bytes], fps: float = 30.0, *, loop: bool = False) -> None:
        self.frames = frames
        self.fps = fps
        self.loop = loop
        self.position = 0
        """The next picture of the film to send."""
        self.sent: list[tuple[int, float]] = []
        """(picture, time.monotonic()) of each picture sent whole."""
        self.connections = 0
        self.cut = False
        """Whether the stream was cut mid-picture."""
        self._drops: list[tuple[int, float]] = []
        self._down_until = 0.0
        self._lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.port = int(self.server.server_address[1])
        self.url = f"http://127.0.0.1:{self.port}/video"
        self._thread = threading.Thread(target=self.server.serve_forever, name="mjpeg-camera", daemon=True)

    def drop_at(self, picture: int, down: float) -> None:
        """Cut the stream halfway through sending ``picture``, then refuse to stream for ``down`` s."""
        self._drops.append((picture, down))

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        camera = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802 - the http.server name
                if self.path != "/video":
                    page = b"<html><body>IP camera: the stream is at /video</body></html>"
                    self.send_response(200)
                    self.send_header("Content-Type", "text/html")
                    self.send_header("Content-Length", str(len(page)))
                    self.end_headers()
                    self.wfile.write(page)
                    return
                if time.monotonic() < camera._down_until:
                    self.send_error(503, "camera restarting")
                    return
                camera.connections += 1
                self.send_response(200)
                self.send_header("Content-Type", f"multipart/x-mixed-replace; boundary={BOUNDARY.decode()}")
                self.end_headers()
                camera._stream(self.wfile)

        return Handler

    def _stream(self, out: object) -> None:
        """Send the film to one client, paced to ``fps``, until it ends, drops or the client leaves."""
        write = out.write  # type: ignore[attr-defined]
        due = time.monotonic()
        try:
            while True:
                with self._lock:
                    if self.position >= len(self.frames):
                        if not self.loop:
                            return
                        self.position = 0
                    picture = self.position
                    data = self.frames[picture]
                    drop = next((d for d in self._drops if d[0] == picture), None)
                    if drop is not None:
                        self._drops.remove(drop)
                        self.cut = True
                        self._down_until = time.monotonic() + drop[1]
                    else:
                        self.position += 1
                head = b"--" + BOUNDARY + b"\r\nContent-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n" % len(data)
                if drop is not None:
                    write(head + data[: len(data) // 2])
                    out.flush()  # type: ignore[attr-defined]
                    return
                write(head + data + b"\r\n")
                self.sent.append((picture, time.monotonic()))
                due += 1 / self.fps
                time.sleep(max(0.0, due - time.monotonic()))
        except (BrokenPipeError, ConnectionResetError):
            return

    def start(self) -> MjpegCamera:
        """Start serving; the camera itself."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the port."""
        self.server.shutdown()
        self.server.server_close()


@contextmanager
def mjpeg_camera(frames: list[bytes], fps: float = 30.0, *, loop: bool = False) -> Iterator[MjpegCamera]:
    """An :class:`MjpegCamera` started for the ``with`` block."""
    camera = MjpegCamera(frames, fps, loop=loop).start()
    try:
        yield camera
    finally:
        camera.stop()


@contextmanager
def silent_server() -> Iterator[int]:
    """A port on 127.0.0.1 that takes connections and never answers (a camera app hung): its number."""
    import socket

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    taken: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                taken.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield int(listener.getsockname()[1])
    finally:
        stop.set()
        thread.join()
        for conn in taken:
            conn.close()
        listener.close()
