"""An IP camera's stream read in Python, served from 127.0.0.1: the reading thread stops and is
waited for when the source closes; redirects are followed on the same camera only; a password is
never printed, whatever it holds; 401 and 403 are named; a picture over the bounds is refused
before it is read or decoded; a part that is no JPEG is skipped; an outage prints one line."""

from __future__ import annotations

import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from scorekeeper.camera.mjpeg import answer_challenge, jpeg_size
from scorekeeper.camera.sources import MAX_PICTURE_SIDE, CameraLost, SourceError, StreamSource, open_source, parse_stream, shown_address
from tests.fake_capture import FakeCapture
from scorekeeper.testbed.mjpeg_camera import as_streamed, jpegs, mjpeg_camera, silent_server
from tests.test_camera_stream import textured

ROOT = Path(__file__).resolve().parent.parent


def stream_threads() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name == "stream" and thread.is_alive()]


def test_closing_a_stream_stops_its_thread_and_waits_for_it() -> None:
    frames = jpegs(textured(20))
    with mjpeg_camera(frames, loop=True) as camera:
        source = open_source(camera.url)
        assert source.read() is not None and stream_threads()
        started = time.monotonic()
        source.close()
        assert not stream_threads(), "the thread is stopped before close() returns"
        assert time.monotonic() - started < 1.0
        source.close()  # twice is harmless


def test_closing_a_stream_while_it_is_away_stops_its_thread_at_once() -> None:
    frames = jpegs(textured(20))
    with mjpeg_camera(frames) as camera:
        camera.drop_at(5, down=60)
        notices: list[str] = []
        source = StreamSource(camera.url, retry=0.1, on_notice=notices.append)
        until = time.monotonic() + 10
        while not notices and time.monotonic() < until:
            time.sleep(0.05)
        time.sleep(0.3)  # reconnecting: tries answered 503
        assert notices and camera.requests[-1][0] == "/video" and len(camera.requests) > 1
        started = time.monotonic()
        source.close()
        assert not stream_threads() and time.monotonic() - started < 1.0


def test_a_stream_left_open_is_stopped_before_the_interpreter_ends() -> None:
    # no close(): the thread is stopped at exit, not killed inside a read (SIGABRT before)
    frames = jpegs(textured(20))
    script = "import sys; from scorekeeper.camera.sources import open_source; source = open_source(sys.argv[1]); source.read(); source.read()"
    with mjpeg_camera(frames, loop=True) as camera:
        for _ in range(3):
            done = subprocess.run([sys.executable, "-c", script, camera.url], cwd=ROOT, capture_output=True, text=True, timeout=60)
            assert (done.returncode, done.stderr) == (0, "")


def test_a_redirect_on_the_same_camera_is_followed() -> None:
    frames = jpegs(textured(20))
    with mjpeg_camera(frames, loop=True) as camera:
        camera.replies["/old"] = (302, {"Location": "/video"})
        with open_source(camera.url.replace("/video", "/old")) as source:
            assert source.read() is not None
        assert [path for path, _ in camera.requests] == ["/old", "/video"]


def test_a_redirect_to_another_computer_is_refused_saying_where_it_points() -> None:
    frames = jpegs(textured(20))
    with mjpeg_camera(frames, loop=True) as camera, mjpeg_camera(frames, loop=True) as elsewhere:
        away = f"http://me:Kp9Zx4@localhost:{elsewhere.port}/video"
        camera.replies["/video"] = (302, {"Location": away})
        with pytest.raises(SourceError) as failure:
            open_source(camera.url)
        said = str(failure.value)
        assert f"{camera.url}: the camera sends the stream on to another computer, http://me:***@localhost:{elsewhere.port}/video" in said
        assert "Kp9Zx4" not in said and elsewhere.requests == []


def test_a_redirect_to_another_computer_after_a_drop_loses_the_stream_saying_why() -> None:
    frames = jpegs(textured(20))
    with mjpeg_camera(frames) as camera:
        camera.drop_at(5, down=0)
        with StreamSource(camera.url, retry=0.1) as source:
            camera.replies["/video"] = (307, {"Location": "http://localhost:1/video"})
            with pytest.raises(CameraLost, match="sends the stream on to another computer, http://localhost:1/video"):
                while source.read() is not None:
                    pass


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("http://me:Sup3r@SecretPW@192.168.1.20:8080/video", "http://me:***@192.168.1.20:8080/video"),
        ("http://me:Kp9/Zx4@192.168.1.20:8080/video", "http://me:***@192.168.1.20:8080/video"),
        ("rtsp://me:a@b/c@d@cam.local/live", "rtsp://me:***@cam.local/live"),
        ("me:Sup3r@SecretPW@192.168.1.20:8080/video", "me:***@192.168.1.20:8080/video"),
        ("http://192.168.1.20:8080/video?user=me&pwd=Sup3r", "http://192.168.1.20:8080/video?user=me&pwd=***"),
        ("http://me@192.168.1.20:8080/video", "http://me@192.168.1.20:8080/video"),
    ],
)
def test_a_password_is_hidden_whatever_it_holds(typed: str, shown: str) -> None:
    assert shown_address(typed) == shown


@pytest.mark.parametrize("password", ["Sup3r@SecretPW", "Kp9/Zx4@Wm7q", "Kp9/Zx4"])
def test_no_message_prints_a_password_with_an_at_or_a_slash(password: str) -> None:
    pieces = [piece for piece in password.replace("/", "@").split("@") if piece]
    said = []
    for typed in (f"http://me:{password}@127.0.0.1:1/video", f"ftp://me:{password}@127.0.0.1/video", f"me:{password}@127.0.0.1/video"):
        for opener in (open_source,) if typed.startswith("http") else (open_source, parse_stream):
            with pytest.raises(SourceError) as failure:
                opener(typed)
            said.append(str(failure.value))
    assert not [(piece, text) for piece in pieces for text in said if piece in text]


def test_a_password_with_an_at_opens_the_stream_and_is_sent_but_never_shown() -> None:
    frames = jpegs(textured(20))
    with mjpeg_camera(frames, loop=True) as camera:
        camera.password = ("me", "Sup3r@SecretPW")
        with open_source(camera.url.replace("http://", "http://me:Sup3r@SecretPW@")) as source:
            assert source.read() is not None
            assert source.name == f"{camera.url.replace('http://', 'http://me:***@')} (160x120)"
        assert camera.connections == 1


def test_a_slash_in_a_password_is_told_how_to_write() -> None:
    with pytest.raises(SourceError, match=r"is not an address \(a / or @ in the user name or password is written %2F or %40\)"):
        open_source("http://me:Kp9/Zx4@127.0.0.1:8080/video")


@pytest.mark.parametrize(
    ("address", "status", "message"),
    [
        ("http://127.0.0.1:{port}/video", 401, "the camera asks for a user name and password (401): put them in the address"),
        ("http://me:wrong@127.0.0.1:{port}/video", 401, "the camera asks for a user name and password (401) and refused the ones in the address"),
        ("http://127.0.0.1:{port}/video", 403, "the camera refused the stream (403 Forbidden)"),
    ],
)
def test_401_and_403_are_named(address: str, status: int, message: str) -> None:
    frames = jpegs(textured(5))
    with mjpeg_camera(frames, loop=True) as camera:
        if status == 401:
            camera.password = ("me", "right")
        else:
            camera.replies["/video"] = (403, {})
        with pytest.raises(SourceError) as failure:
            open_source(address.format(port=camera.port))
        assert message in str(failure.value) and "path" not in str(failure.value) and "wrong" not in str(failure.value)


def test_digest_is_answered_as_the_rfc_does() -> None:
    # RFC 2617, 3.5
    challenge = 'Digest realm="testrealm@host.com", qop="auth,auth-int", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41"'
    header = answer_challenge(challenge, "Mufasa", "Circle Of Life", "GET", "/dir/index.html", cnonce="0a4f113b")
    assert header is not None and 'response="6629fae49393a05397450978507c4ef1"' in header and 'opaque="5ccc069c403ebaf9f0171e9517f40e41"' in header


def test_a_part_that_claims_too_many_bytes_is_refused_before_it_is_read() -> None:
    frames = jpegs(textured(10))
    with mjpeg_camera(frames, loop=True) as camera:
        camera.claimed[0] = 1_500_000_000
        started = time.monotonic()
        with pytest.raises(SourceError, match="a picture of 1431 MB came, more than the 32 MB a picture may take: set a smaller video resolution"):
            open_source(camera.url)
        assert time.monotonic() - started < 5
    with mjpeg_camera(frames) as camera:
        camera.claimed[6] = 1_500_000_000
        with StreamSource(camera.url) as source, pytest.raises(CameraLost, match="a picture of 1431 MB came"):
            while source.read() is not None:
                pass


def test_a_part_with_no_length_is_bounded_too() -> None:
    frames = jpegs(textured(10, (320, 240)))
    with mjpeg_camera(frames, loop=True) as camera:
        camera.lengths = False
        with pytest.raises(SourceError, match="a picture of .* came, more than the 0.0 MB"):
            StreamSource(camera.url, max_part_bytes=2000)


def test_a_picture_larger_than_the_bound_is_refused_from_its_header() -> None:
    wide = jpegs([np.full((64, MAX_PICTURE_SIDE + 4, 3), 90, np.uint8)])
    assert jpeg_size(wide[0]) == (MAX_PICTURE_SIDE + 4, 64)
    with mjpeg_camera(wide, loop=True) as camera:
        with pytest.raises(SourceError, match=f"its pictures are 4100x64 px, larger than the 4096x4096 px a picture may be"):
            open_source(camera.url)
    # 8000x8000 in its header, no picture after it: refused unread
    huge = bytes.fromhex("ffd8 ffc0 0011 08 1f40 1f40 03 011100 021101 031101") + b"\0" * 100
    with mjpeg_camera(jpegs(textured(8)) + [huge], loop=True) as camera:
        with StreamSource(camera.url) as source, pytest.raises(CameraLost, match="its pictures are 8000x8000 px"):
            while source.read() is not None:
                pass


def test_a_first_part_that_is_no_jpeg_is_skipped() -> None:
    frames = jpegs(textured(10))
    with mjpeg_camera([b"<html>camera starting</html>", b"\xff\xd8 cut short", *frames], loop=True) as camera:
        with open_source(camera.url) as source:
            frame = source.read()
            assert frame is not None and np.array_equal(frame.image, as_streamed(frames)[0])
    with mjpeg_camera([b"<html>no pictures here</html>"], loop=True) as camera:
        with pytest.raises(SourceError, match=r"answers but sends no video there \(31 parts in a row that are no JPEG picture\)"):
            open_source(camera.url)


def test_an_outage_prints_one_line_and_its_end_one(capfd: pytest.CaptureFixture[str]) -> None:
    frames = jpegs(textured(40))
    notices: list[str] = []
    with mjpeg_camera(frames) as camera:
        camera.drop_at(10, down=1.5)
        with StreamSource(camera.url, retry=0.1, on_notice=notices.append) as source:
            while (frame := source.read()) is not None and not frame.after_gap:
                pass
    assert len(notices) == 2 and "stopped" in notices[0] and "is back" in notices[1]
    assert len([path for path, _ in camera.requests]) > 5, "tried again and again"
    assert capfd.readouterr().err == "", "nothing else on the terminal"


def test_a_stream_in_chunks_parts_with_no_length_and_boundaries_written_with_dashes_give_the_same_pictures() -> None:
    frames = jpegs(textured(12))
    for chunked, lengths, declared in ((True, True, "frame"), (False, False, "frame"), (True, False, "--frame"), (False, False, '"--frame"')):
        with mjpeg_camera(frames) as camera:
            camera.chunked, camera.lengths, camera.declared = chunked, lengths, declared
            with open_source(camera.url) as source:
                seen = []
                while (frame := source.read()) is not None and len(seen) < 5:
                    seen.append(frame.image)
        whole = as_streamed(frames)
        assert len(seen) == 5 and all(any(np.array_equal(image, picture) for picture in whole) for image in seen), (chunked, lengths, declared)


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl makes the camera's certificate")
def test_an_https_camera_with_its_own_certificate_is_read(tmp_path: Path) -> None:
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    made = subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "1", "-subj", "/CN=127.0.0.1"],
        capture_output=True,
        timeout=60,
    )
    assert made.returncode == 0, made.stderr
    frames = jpegs(textured(10))
    with mjpeg_camera(frames, loop=True, tls=(cert, key)) as camera:
        assert camera.url.startswith("https://")
        with open_source(camera.url) as source:
            frame = source.read()
            assert frame is not None and frame.size == (160, 120)
        assert not stream_threads()


def test_the_jpeg_header_is_read_for_the_size_and_nothing_else_is_taken_for_one() -> None:
    ok, data = cv2.imencode(".jpg", np.zeros((30, 50, 3), np.uint8))
    assert ok and jpeg_size(data.tobytes()) == (50, 30)
    ok, data = cv2.imencode(".jpg", np.zeros((30, 50, 3), np.uint8), [cv2.IMWRITE_JPEG_PROGRESSIVE, 1])
    assert ok and jpeg_size(data.tobytes()) == (50, 30)
    for bad in (b"", b"\xff\xd8", b"\xff\xd8\xff\xd9", b"\xff\xd8\xff\xe0\x00", b"GIF89a", b"\xff\xd8\x00\x00\x00\x00"):
        assert jpeg_size(bad) is None


class SlowCapture(FakeCapture):
    """An rtsp camera through OpenCV: each read takes a while; released while a read is under way is a crash."""

    def __init__(self) -> None:
        super().__init__(frames=10_000)
        self.reading = False
        self.released_while_reading = False

    def read(self) -> tuple[bool, np.ndarray | None]:
        self.reading = True
        time.sleep(0.05)
        self.reading = False
        return super().read()

    def release(self) -> None:
        self.released_while_reading |= self.reading
        super().release()


def test_an_rtsp_streams_capture_is_let_go_only_after_its_read_and_before_close_returns() -> None:
    capture = SlowCapture()
    with silent_server() as port:
        source = StreamSource(f"rtsp://127.0.0.1:{port}/live", open_capture=lambda url, opening, reading: capture)
        assert source.read() is not None and source.read() is not None
        source.close()
        assert capture.released and not capture.released_while_reading and not stream_threads()
