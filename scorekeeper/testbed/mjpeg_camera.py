"""An IP camera for tests and benchmarks: one on 127.0.0.1 serving a film as an MJPEG stream (multipart/x-mixed-replace),
as the phone camera apps serve one, that can be dropped mid-picture and brought back.

The film plays on one timeline shared by every connection: a client that connects again after a
drop goes on from the picture the stream broke in, as a table left alone while the phone's stream
was down still shows what it showed.
"""

from __future__ import annotations

import base64
import ssl
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


def as_streamed(frames: list[bytes]) -> list[NDArray[np.uint8]]:
    """Each JPEG as a stream source decodes it, picture for picture."""
    from scorekeeper.camera.sources import decode_picture

    pictures = [decode_picture(frame) for frame in frames]
    assert all(picture is not None for picture in pictures)
    return pictures  # type: ignore[return-value]


def write_mjpeg(frames: list[bytes], path: Path) -> Path:
    """The JPEGs one after the other: a raw MJPEG file that FFMPEG decodes exactly as it decodes the stream."""
    write_atomically(path, b"".join(frames))
    return path


class MjpegCamera:
    """Serves ``frames`` (JPEG bytes, or any bytes for a part that is no JPEG) at ``fps`` on
    ``/video``; ``/`` is a web page (no video).

    :meth:`drop_at` cuts the stream in the middle of a picture once the film reaches it, and the
    camera then answers 503 for ``down`` seconds before it streams again. :attr:`replies` answers a
    path with a status and headers in place of the stream or the page (a redirect, a refusal),
    :attr:`password` asks for a user name and password (Basic), and :attr:`claimed` makes a
    picture's part claim another length than it has; :attr:`lengths` False sends the parts with no
    length, :attr:`chunked` True sends the stream in chunks; ``tls`` (a certificate and its key,
    files) serves it over https."""

    def __init__(self, frames: list[bytes], fps: float = 30.0, *, loop: bool = False, tls: tuple[Path, Path] | None = None) -> None:
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
        self.replies: dict[str, tuple[int, dict[str, str]]] = {}
        """Path -> (status, headers) answered in place of the stream or the page."""
        self.password: tuple[str, str] | None = None
        """The user name and password the stream asks for (Basic), None for none."""
        self.claimed: dict[int, int] = {}
        """Picture -> the Content-Length its part claims (its bytes are sent as they are)."""
        self.lengths = True
        """Whether each part says its length (Content-Length)."""
        self.chunked = False
        """Whether the stream is sent in chunks (Transfer-Encoding: chunked)."""
        self.declared = BOUNDARY.decode()
        """The boundary the answer's Content-Type names (some cameras write it with its lines' dashes)."""
        self.requests: list[tuple[str, str]] = []
        """(path, Authorization header) of every request, in order."""
        self._drops: list[tuple[int, float]] = []
        self._down_until = 0.0
        self._lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        if tls is not None:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(*tls)
            self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.port = int(self.server.server_address[1])
        self.url = f"{'https' if tls else 'http'}://127.0.0.1:{self.port}/video"
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
                camera.requests.append((self.path, self.headers.get("Authorization", "")))
                if self.path in camera.replies:
                    status, headers = camera.replies[self.path]
                    self.send_response(status)
                    for key, value in {"Content-Length": "0", **headers}.items():
                        self.send_header(key, value)
                    self.end_headers()
                    return
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
                if camera.password is not None:
                    expected = "Basic " + base64.b64encode(":".join(camera.password).encode()).decode()
                    if self.headers.get("Authorization") != expected:
                        self.send_response(401)
                        self.send_header("WWW-Authenticate", 'Basic realm="IP Webcam"')
                        self.send_header("Content-Length", "0")
                        self.end_headers()
                        return
                camera.connections += 1
                self.send_response(200)
                self.send_header("Content-Type", f"multipart/x-mixed-replace; boundary={camera.declared}")
                if camera.chunked:
                    self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                camera._stream(self.wfile)

        return Handler

    def _stream(self, out: object) -> None:
        """Send the film to one client, paced to ``fps``, until it ends, drops or the client leaves."""

        def write(data: bytes) -> None:
            if self.chunked:
                # each write in two chunks, so that chunks and parts do not line up
                half = len(data) // 2
                data = b"".join(b"%x\r\n%s\r\n" % (len(piece), piece) for piece in (data[:half], data[half:]) if piece)
            out.write(data)  # type: ignore[attr-defined]

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
                length = self.claimed.get(picture, len(data))
                head = b"--" + BOUNDARY + b"\r\nContent-Type: image/jpeg\r\n" + (b"Content-Length: %d\r\n" % length if self.lengths else b"") + b"\r\n"
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
def mjpeg_camera(frames: list[bytes], fps: float = 30.0, *, loop: bool = False, tls: tuple[Path, Path] | None = None) -> Iterator[MjpegCamera]:
    """An :class:`MjpegCamera` started for the ``with`` block."""
    camera = MjpegCamera(frames, fps, loop=loop, tls=tls).start()
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
