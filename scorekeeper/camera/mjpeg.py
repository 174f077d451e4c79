"""An IP camera's MJPEG stream read over HTTP in plain Python: a phone's camera app serves its
pictures as one endless ``multipart/x-mixed-replace`` answer, each part a JPEG.

Read here rather than through OpenCV's capture (FFMPEG), so that the reading stops when told to
(every wait on the network is cut in short slices that look at a stop flag), a part's size is
known before its bytes are read, a redirect is followed only on the same camera, a 401 or 403 is
told as what it is, and nothing is printed on the terminal. No numpy or OpenCV here: the parts
come out as bytes, and :func:`jpeg_size` reads a JPEG's size from its header without decoding it.

A :class:`MjpegStream` raises :class:`Stopped` once its stop flag is set; :class:`Refused`,
:class:`Redirected` and :class:`TooLarge` where the camera will not give a stream that waiting
mends; :class:`NoVideo` where the answer is no MJPEG stream (a web page, a 503 while the app
restarts); ``OSError`` (``TimeoutError``, ``ConnectionError``...) where the network fails. No
message here names the address: the caller says whose stream it is, with the password hidden.
"""

from __future__ import annotations

import base64
import errno
import hashlib
import os
import re
import select
import socket
import ssl
import threading
import time
from urllib.parse import SplitResult, unquote, urljoin, urlsplit

SLICE_S = 0.1
"""Longest single wait on the network, s, before the stop flag is looked at again."""

MAX_HEADER_BYTES = 64 * 1024
"""The most bytes an answer's headers, or a part's, may take."""

MAX_REDIRECTS = 3
"""Redirects followed, on the same camera, before the address is called a loop."""

REDIRECTS = (301, 302, 303, 307, 308)

Stop = threading.Event


class MjpegError(Exception):
    """The camera answers, but not with a stream that can be read; the message says what came (no address)."""


class NoVideo(MjpegError):
    """The answer is no MJPEG stream: a web page, an error status, parts that are no pictures."""


class Refused(MjpegError):
    """The camera refuses the stream: 401 (it asks for a user name and password) or 403."""

    def __init__(self, status: int, had_credentials: bool) -> None:
        super().__init__(f"{status} {'Unauthorized' if status == 401 else 'Forbidden'}")
        self.status = status
        """401 or 403."""
        self.had_credentials = had_credentials
        """Whether the address carried a user name and password (and they were sent)."""


class Redirected(MjpegError):
    """The camera sends the stream on to another computer: not followed."""

    def __init__(self, location: str) -> None:
        super().__init__("redirected to another computer")
        self.location = location
        """Where it points (it may hold a password: show it through the caller's hiding)."""


class TooLarge(MjpegError):
    """A part claims more bytes than a picture may take (read no further)."""

    def __init__(self, size: int, limit: int) -> None:
        super().__init__(f"a part of {size} bytes, more than {limit}")
        self.size = size
        self.limit = limit


class Stopped(Exception):
    """The stop flag was set: the reading was abandoned."""


def same_camera(first: SplitResult, then: SplitResult) -> bool:
    """Whether a redirect from ``first`` to ``then`` stays on the same computer (the host's name as
    written; the port and http/https may change).

    >>> same_camera(urlsplit("http://phone:8080/"), urlsplit("https://PHONE:8443/video"))
    True
    >>> same_camera(urlsplit("http://phone:8080/"), urlsplit("http://elsewhere:8080/video"))
    False
    """
    return (first.hostname or "").lower() == (then.hostname or "").lower() and then.scheme.lower() in ("http", "https")


def jpeg_size(data: bytes | bytearray | memoryview) -> tuple[int, int] | None:
    """Width and height written in a JPEG's frame header, None where ``data`` is no JPEG (or its
    header is cut short): read before decoding, so a huge picture is refused unread.

    >>> jpeg_size(bytes.fromhex("ffd8 ffc0 0011 08 01e0 0280 03"))
    (640, 480)
    >>> jpeg_size(b"<html>") is None
    True
    """
    view = memoryview(data)
    if len(view) < 4 or view[0] != 0xFF or view[1] != 0xD8:
        return None
    at = 2
    while at + 4 <= len(view):
        if view[at] != 0xFF:
            return None
        marker = view[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        if marker in (0x01, *range(0xD0, 0xD8)):  # markers without a length
            at += 2
            continue
        length = int.from_bytes(view[at + 2 : at + 4], "big")
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
            if at + 9 > len(view):
                return None
            height = int.from_bytes(view[at + 5 : at + 7], "big")
            width = int.from_bytes(view[at + 7 : at + 9], "big")
            return width, height
        if marker in (0xD9, 0xDA) or length < 2:  # the end, or the picture's data, with no frame header before it
            return None
        at += 2 + length
    return None


def _wait(sock: socket.socket, write: bool, until: float, stop: Stop) -> None:
    """Wait until ``sock`` can be read (written), in slices; :class:`Stopped` once ``stop`` is set,
    ``TimeoutError`` at ``until``."""
    while True:
        if stop.is_set():
            raise Stopped
        left = until - time.monotonic()
        if left <= 0:
            raise TimeoutError("the camera did not answer in time")
        ready = select.select([], [sock], [], min(left, SLICE_S)) if write else select.select([sock], [], [], min(left, SLICE_S))
        if any(ready):
            return


def _connect(parts: SplitResult, timeout: float, stop: Stop) -> socket.socket:
    """A connection to the address's host (TLS for https), within ``timeout`` s."""
    https = parts.scheme.lower() == "https"
    host, port = parts.hostname or "", parts.port or (443 if https else 80)
    until = time.monotonic() + timeout
    failure: OSError = ConnectionError(f"{host}:{port} cannot be reached")
    for family, kind, proto, _, address in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM):
        sock = socket.socket(family, kind, proto)
        try:
            sock.setblocking(False)
            code = sock.connect_ex(address)
            if code not in (0, errno.EINPROGRESS, errno.EWOULDBLOCK, errno.EAGAIN):
                raise OSError(code, os.strerror(code))
            _wait(sock, True, until, stop)
            code = sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
            if code:
                raise OSError(code, os.strerror(code))
            if https:
                sock = _handshake(sock, host, until, stop)
            return sock
        except OSError as exc:
            sock.close()
            failure = exc
        except BaseException:
            sock.close()
            raise
    raise failure


def _handshake(sock: socket.socket, host: str, until: float, stop: Stop) -> ssl.SSLSocket:
    # A phone's camera app serves https with a certificate it made itself, which no authority
    # vouches for: it is not checked, as FFMPEG (which read these streams before) did not either.
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    wrapped = context.wrap_socket(sock, server_hostname=host, do_handshake_on_connect=False)
    while True:
        try:
            wrapped.do_handshake()
            return wrapped
        except ssl.SSLWantReadError:
            _wait(wrapped, False, until, stop)
        except ssl.SSLWantWriteError:
            _wait(wrapped, True, until, stop)


class _Wire:
    """Bytes from a connection, buffered; each wait cut in slices that look at the stop flag."""

    def __init__(self, sock: socket.socket, stop: Stop) -> None:
        self.sock = sock
        self.stop = stop
        self.buffer = bytearray()
        """Bytes come and not taken yet (the body's, once :attr:`chunked` is decoded)."""
        self.chunked = False
        """Whether the body comes in chunks (``Transfer-Encoding: chunked``), decoded as it comes."""
        self._raw = bytearray()
        self._chunk_left = 0
        self._ended = False

    def send(self, data: bytes, until: float) -> None:
        view = memoryview(data)
        while view:
            try:
                sent = self.sock.send(view)
            except (BlockingIOError, ssl.SSLWantWriteError):
                _wait(self.sock, True, until, self.stop)
                continue
            except ssl.SSLWantReadError:
                _wait(self.sock, False, until, self.stop)
                continue
            view = view[sent:]

    def fill(self, until: float) -> None:
        """At least one more byte into :attr:`buffer`; ``ConnectionError`` where the camera closed
        the stream, ``TimeoutError`` at ``until``, :class:`Stopped` once the stop flag is set."""
        before = len(self.buffer)
        while len(self.buffer) == before:
            if self.stop.is_set():  # a camera that never pauses is left as promptly as a silent one
                raise Stopped
            if self._ended:
                raise ConnectionError("the camera ended the stream")
            try:
                data = self.sock.recv(256 * 1024)
            except (BlockingIOError, ssl.SSLWantReadError):
                _wait(self.sock, False, until, self.stop)
                continue
            except ssl.SSLWantWriteError:
                _wait(self.sock, True, until, self.stop)
                continue
            if not data:
                raise ConnectionError("the camera closed the stream")
            if self.chunked:
                self._raw += data
                self._dechunk()
            else:
                self.buffer += data

    def _dechunk(self) -> None:
        raw = self._raw
        while raw:
            if self._chunk_left:
                take = min(self._chunk_left, len(raw))
                self.buffer += raw[:take]
                del raw[:take]
                self._chunk_left -= take
                continue
            end = raw.find(b"\n")
            if end < 0:
                if len(raw) > MAX_HEADER_BYTES:
                    raise NoVideo("a chunk of the answer that is not one")
                return
            line = bytes(raw[:end]).strip().split(b";")[0]
            del raw[: end + 1]
            if not line:  # the CRLF after a chunk's data
                continue
            try:
                size = int(line, 16)
            except ValueError:
                raise NoVideo("a chunk of the answer that is not one") from None
            if size == 0:
                self._ended = True
                return
            self._chunk_left = size

    def line(self, until: float, limit: int = MAX_HEADER_BYTES) -> bytes:
        """The next line, without its end."""
        while (end := self.buffer.find(b"\n")) < 0:
            if len(self.buffer) > limit:
                raise NoVideo("a line longer than any header's")
            self.fill(until)
        line = bytes(self.buffer[:end]).rstrip(b"\r")
        del self.buffer[: end + 1]
        return line

    def exactly(self, size: int, idle: float) -> bytes:
        """The next ``size`` bytes; ``idle``: the longest wait, s, for any of them to come."""
        while len(self.buffer) < size:
            self.fill(time.monotonic() + idle)
        data = bytes(self.buffer[:size])
        del self.buffer[:size]
        return data

    def until(self, mark: bytes, idle: float, limit: int) -> bytes:
        """The bytes before the next ``mark`` (left in the buffer); :class:`TooLarge` past ``limit``."""
        start = 0
        while (at := self.buffer.find(mark, start)) < 0:
            if len(self.buffer) > limit:
                raise TooLarge(len(self.buffer), limit)
            start = max(0, len(self.buffer) - len(mark))
            self.fill(time.monotonic() + idle)
        if at > limit:
            raise TooLarge(at, limit)
        data = bytes(self.buffer[:at])
        del self.buffer[:at]
        return data

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass


def _headers(lines: list[bytes]) -> dict[str, str]:
    headers: dict[str, str] = {}
    for raw in lines:
        name, colon, value = raw.decode("latin-1").partition(":")
        if colon:
            headers[name.strip().lower()] = value.strip()
    return headers


def answer_challenge(challenge: str, user: str, password: str, method: str, path: str, cnonce: str = "") -> str | None:
    """The ``Authorization`` header that answers a 401's ``WWW-Authenticate`` challenge (Basic or
    Digest; ``cnonce``: Digest's own nonce, random where empty); None for a scheme not known here."""
    scheme, _, rest = challenge.strip().partition(" ")
    if scheme.lower() == "basic":
        return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode("ascii")
    if scheme.lower() != "digest":
        return None
    asked = {key.lower(): value.strip('"') for key, value in re.findall(r'(\w+)=("[^"]*"|[^,\s]+)', rest)}
    algorithm = asked.get("algorithm", "MD5")
    name = {"md5": "md5", "md5-sess": "md5", "sha-256": "sha256", "sha-256-sess": "sha256"}.get(algorithm.lower())
    if name is None or "nonce" not in asked:
        return None

    def digest(text: str) -> str:
        return hashlib.new(name, text.encode()).hexdigest()

    realm, nonce = asked.get("realm", ""), asked["nonce"]
    cnonce = cnonce or os.urandom(8).hex()
    first = digest(f"{user}:{realm}:{password}")
    if algorithm.lower().endswith("-sess"):
        first = digest(f"{first}:{nonce}:{cnonce}")
    second = digest(f"{method}:{path}")
    fields = {"username": user, "realm": realm, "nonce": nonce, "uri": path, "algorithm": algorithm}
    if "auth" in [q.strip() for q in asked.get("qop", "").split(",")]:
        fields |= {"qop": "auth", "nc": "00000001", "cnonce": cnonce}
        fields["response"] = digest(f"{first}:{nonce}:00000001:{cnonce}:auth:{second}")
    else:
        fields["response"] = digest(f"{first}:{nonce}:{second}")
    if "opaque" in asked:
        fields["opaque"] = asked["opaque"]
    bare = ("algorithm", "qop", "nc")
    return "Digest " + ", ".join(f"{key}={value}" if key in bare else f'{key}="{value}"' for key, value in fields.items())


class MjpegStream:
    """An open MJPEG stream: :meth:`part` gives each part's bytes in turn.

    ``open_timeout``: the longest wait, s, for the camera to take the connection and answer;
    ``read_timeout``: the longest the stream may stay silent; ``max_part_bytes``: the most bytes a
    part may take (one that claims more is refused before its bytes are read). A redirect is
    followed on the same computer only; a 401 is answered once with the user name and password in
    the address (Basic or Digest).
    """

    def __init__(self, url: str, stop: Stop, *, open_timeout: float, read_timeout: float, max_part_bytes: int) -> None:
        self.stop = stop
        self.read_timeout = read_timeout
        self.max_part_bytes = max_part_bytes
        typed = urlsplit(url)
        self.user = unquote(typed.username or "")
        self.password = unquote(typed.password or "")
        credentials = typed.username is not None
        address, authorization, hops = typed, None, 0
        while True:
            wire, status, headers = self._ask(address, authorization, open_timeout)
            if status == 200:
                break
            wire.close()
            if status in REDIRECTS and headers.get("location"):
                location = urljoin(address.geturl(), headers["location"])
                moved = urlsplit(location)
                if not same_camera(typed, moved):
                    raise Redirected(location)
                hops += 1
                if hops > MAX_REDIRECTS:
                    raise NoVideo(f"more than {MAX_REDIRECTS} redirects, from address to address")
                address = moved
                continue
            if status == 401 and credentials and authorization is None:
                authorization = answer_challenge(headers.get("www-authenticate", ""), self.user, self.password, "GET", _target(address))
                if authorization is not None:
                    continue
            if status in (401, 403):
                raise Refused(status, credentials)
            raise NoVideo(f"it answers {status}" + (f" {_REASONS[status]}" if status in _REASONS else ""))
        self._wire = wire
        kind = headers.get("content-type", "")
        if not kind.lower().startswith("multipart/"):
            wire.close()
            raise NoVideo(f"{kind.split(';')[0] or 'an answer of no type'}, not an MJPEG stream")
        found = re.search(r'(?i)boundary="?([^";]+)"?', kind)
        # some cameras write the boundary with the dashes of its lines ("--frame"): either is taken
        self._token = (found.group(1) if found else "").strip().lstrip("-").encode("latin-1")
        self.address = address
        """Where the stream comes from (after any redirect on the same camera)."""

    def _ask(self, address: SplitResult, authorization: str | None, timeout: float) -> tuple[_Wire, int, dict[str, str]]:
        """GET the address: the connection, the answer's status and headers."""
        until = time.monotonic() + timeout
        wire = _Wire(_connect(address, timeout, self.stop), self.stop)
        try:
            host = address.netloc.rpartition("@")[2]
            request = [f"GET {_target(address)} HTTP/1.1", f"Host: {host}", "User-Agent: scorekeeper", "Accept: */*", "Connection: close"]
            if authorization is not None:
                request.append(f"Authorization: {authorization}")
            wire.send(("\r\n".join(request) + "\r\n\r\n").encode("latin-1"), until)
            status_line = wire.line(until)
            found = re.match(rb"HTTP/\d(?:\.\d)?\s+(\d{3})", status_line)
            if found is None:
                raise NoVideo("an answer that is not HTTP")
            lines: list[bytes] = []
            size = 0
            while line := wire.line(until):
                size += len(line)
                if size > MAX_HEADER_BYTES:
                    raise NoVideo("headers longer than any camera's")
                lines.append(line)
            headers = _headers(lines)
            wire.chunked = "chunked" in headers.get("transfer-encoding", "").lower()
            if wire.chunked and wire.buffer:
                wire._raw, wire.buffer = wire.buffer, bytearray()
                wire._dechunk()
            return wire, int(found.group(1)), headers
        except BaseException:
            wire.close()
            raise

    def part(self) -> bytes:
        """The next part's bytes (a JPEG, where the camera sends what it should). ``OSError`` where
        the stream breaks or stays silent ``read_timeout`` s (a part cut short is never given),
        :class:`TooLarge` for a part over the bound, :class:`NoVideo` for bytes that are no parts."""
        wire, idle = self._wire, self.read_timeout
        skipped = 0
        while not self._delimits(line := wire.line(time.monotonic() + idle)):
            skipped += len(line)
            if skipped > MAX_HEADER_BYTES:
                raise NoVideo("bytes between the parts that belong to none")
        if line.rstrip().endswith(b"--"):
            raise ConnectionError("the camera ended the stream")
        lines = []
        size = 0
        while head := wire.line(time.monotonic() + idle):
            size += len(head)
            if size > MAX_HEADER_BYTES:
                raise NoVideo("a part's headers longer than any camera's")
            lines.append(head)
        length = _headers(lines).get("content-length", "")
        if length.isdigit():
            if int(length) > self.max_part_bytes:
                raise TooLarge(int(length), self.max_part_bytes)
            return wire.exactly(int(length), idle)
        # no length: the part is what comes before the next boundary's line (less the line's end and dashes)
        data = wire.until(b"--" + self._token if self._token else b"\r\n--", idle, self.max_part_bytes).rstrip(b"-")
        return data[:-2] if data.endswith(b"\r\n") else data

    def _delimits(self, line: bytes) -> bool:
        """Whether ``line`` is a boundary's (``--frame``, ``----frame``, ``--frame--`` at the end)."""
        return line.startswith(b"--") and line.lstrip(b"-").startswith(self._token)

    def close(self) -> None:
        self._wire.close()


def _target(address: SplitResult) -> str:
    return (address.path or "/") + (f"?{address.query}" if address.query else "")


_REASONS = {404: "Not Found", 500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable"}
