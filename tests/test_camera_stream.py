"""The phone as the camera: an IP camera's MJPEG stream served from 127.0.0.1 read as a source,
dropped mid-picture and brought back; wrong addresses told in time; settling across a gap."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from scorekeeper.camera.settling import EventKind, SettleParams, Settler
from scorekeeper.camera.sources import CameraLost, Frame, ReconnectingSource, SourceError, SourceKind, SourceSpec, StreamSource, open_source, parse_stream
from scorekeeper.camera.watch import Watcher
from scorekeeper.vision.detections import Detections
from scorekeeper.testbed.mjpeg_camera import as_streamed, jpegs, mjpeg_camera, silent_server


def textured(count: int, size: tuple[int, int] = (160, 120)) -> list[NDArray[np.uint8]]:
    """``count`` pictures, each unlike the others (and like no half of another)."""
    rng = np.random.default_rng(0)
    return [np.asarray(cv2.GaussianBlur(rng.integers(0, 255, (size[1], size[0], 3), dtype=np.uint8), (9, 9), 3), np.uint8) for _ in range(count)]


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("http://192.168.1.20:8080/video", "http://192.168.1.20:8080/video"),
        ("  rtsp://cam.local/live  ", "rtsp://cam.local/live"),
        ("HTTPS://phone:8443/video", "HTTPS://phone:8443/video"),
    ],
)
def test_an_ip_cameras_address_is_a_source_and_prints_back_as_typed(text: str, shown: str) -> None:
    spec = SourceSpec.from_str(text)
    assert (spec.kind, spec.argument, str(spec)) == (SourceKind.STREAM, shown, shown)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("http://:8080/video", "names no camera"),
        ("http://phone:99999/video", "is not an address"),
        ("http://phone:8080/my video", "no spaces"),
        ("rtsp://phone:0/live", "port 0"),
        ("stream:http://phone", "unknown source"),
        ("ftp://phone/video", "unknown source"),
    ],
)
def test_a_bad_address_says_what_to_write(text: str, message: str) -> None:
    with pytest.raises(SourceError, match=message):
        SourceSpec.from_str(text)


def test_an_address_typed_in_the_window_is_understood_without_http_and_nothing_else_is_taken_for_one() -> None:
    assert str(parse_stream("192.168.1.20:8080/video")) == "http://192.168.1.20:8080/video"
    assert str(parse_stream("phone.local:8080")) == "http://phone.local:8080"
    for text, message in (("", "no address typed"), ("demo", "no IP camera's address"), ("webcam:0", "no IP camera's address"), ("video:game.mp4", "no IP camera's address")):
        with pytest.raises(SourceError, match=message):
            parse_stream(text)


def test_a_password_in_the_address_is_never_shown(tmp_path: Path) -> None:
    frames = jpegs(textured(20))
    with mjpeg_camera(frames, loop=True) as camera:
        url = camera.url.replace("http://", "http://ann:hunter2@")
        with open_source(url) as source:
            assert "hunter2" not in source.name and "ann:***@127.0.0.1" in source.name
    for bad in ("http://ann:hunter2@:8080/video", "http://ann:hunter2@127.0.0.1:1/video"):
        with pytest.raises(SourceError) as failure:
            open_source(bad)
        assert "hunter2" not in str(failure.value) and "ann:***@" in str(failure.value)


def test_a_phone_stream_gives_whole_pictures_in_order_and_comes_back_by_itself_after_a_drop(tmp_path: Path) -> None:
    frames = jpegs(textured(70))
    whole = as_streamed(frames)
    notices: list[str] = []
    with mjpeg_camera(frames) as camera:
        camera.drop_at(30, down=1.5)  # cut halfway through picture 30, then the app is away 1.5 s
        with open_source(camera.url) as source:
            assert isinstance(source, StreamSource) and isinstance(source, ReconnectingSource) and source.live
            assert source.size == (160, 120) and source.name == f"{camera.url} (160x120)"
            source.on_notice = notices.append
            seen: list[Frame] = []
            while (frame := source.read()) is not None and len(seen) < 60:
                seen.append(frame)
    assert camera.cut and camera.connections == 2
    pictures = []
    for frame in seen:
        same = [i for i, image in enumerate(whole) if np.array_equal(image, frame.image)]
        assert same, f"frame {frame.index} is no whole picture the camera sent (a picture cut short?)"
        pictures.append(same[0])
    assert pictures == sorted(set(pictures)), "each picture once, in order"
    assert 29 in pictures and 30 in pictures, "the picture cut short is sent again whole after the drop"
    assert [frame.index for frame in seen if frame.after_gap] == [pictures.index(30)], "the first frame after the drop says so"
    assert [frame.index for frame in seen] == list(range(len(seen)))
    assert source.reconnections == 1
    assert len(notices) == 2 and "stopped: reconnecting by itself" in notices[0] and "is back" in notices[1]


def test_a_stream_that_never_comes_back_ends_its_reads_when_closed_from_another_thread() -> None:
    frames = jpegs(textured(10))
    with mjpeg_camera(frames) as camera:
        camera.drop_at(5, down=60)
        source = open_source(camera.url)
        while (frame := source.read()) is not None and frame.index < 3:
            pass
        started = time.monotonic()
        threading.Timer(0.5, source.close).start()
        while source.read() is not None:
            pass
        assert time.monotonic() - started < 5, "a read waiting for the stream ends once the source is closed"


def timed_failure(address: str) -> tuple[float, str]:
    started = time.monotonic()
    with pytest.raises(SourceError) as failure:
        open_source(address)
    return time.monotonic() - started, str(failure.value)


def test_a_wrong_address_or_a_stream_that_is_no_video_is_told_plainly_within_10_s() -> None:
    frames = jpegs(textured(5))
    with mjpeg_camera(frames, loop=True) as camera, silent_server() as silent:
        closed_port = silent + 1 if silent < 65535 else silent - 1
        cases = [
            (f"http://127.0.0.1:{closed_port}/video", "nothing takes connections at 127.0.0.1"),
            ("http://no-such-phone.invalid:8080/video", "no computer or phone is known by the name"),
            (camera.url.replace("/video", "/"), "answers but sends no video there"),
            (f"http://127.0.0.1:{silent}/video", "answers but sends no video there"),
            (f"rtsp://127.0.0.1:{silent}/live", "answers but sends no video there"),
        ]
        for address, message in cases:
            took, said = timed_failure(address)
            assert message in said and address in said, said
            assert took < 10, f"{address}: told after {took:.1f} s"


class Still:
    """A film of one picture, with a gap before frame ``gap`` (a stream dropped and back)."""

    name = "still film"

    def __init__(self, frames: int, gap: int) -> None:
        self.frames, self.gap, self.index = frames, gap, 0
        self.image = np.full((240, 320, 3), 90, np.uint8)

    def read(self) -> Frame | None:
        if self.index >= self.frames:
            return None
        frame = Frame(self.image, self.index, self.index / 30, after_gap=self.index == self.gap)
        self.index += 1
        return frame

    def close(self) -> None:
        pass


class TwoDice:
    """Reads two dice lying still, whatever the picture."""

    def read(self, frame: NDArray[np.uint8], dice: int | None = None) -> Detections:
        return Detections(np.array([[40, 40, 70, 70], [150, 90, 180, 120]], np.float32), np.array([1, 5]), np.array([0.95, 0.95]))


def settled_frames(frames: int, gap: int) -> list[int]:
    watcher = Watcher(Still(frames, gap), TwoDice(), settle=SettleParams(settle_frames=14))
    return [event.frame for event in watcher.events() if event.kind is EventKind.SETTLED]


def test_a_roll_is_never_taken_from_frames_either_side_of_a_gap_as_if_still_between() -> None:
    # still for 10 frames, the stream drops, still again: 14 still frames are needed after the drop
    taken = settled_frames(frames=40, gap=10)
    assert len(taken) == 1 and taken[0] >= 10 + 14 - 1, taken
    unbroken = settled_frames(frames=40, gap=99)
    assert len(unbroken) == 1 and unbroken[0] < 10 + 14 - 1, "without the gap the same dice settle sooner"


def test_after_a_gap_the_roll_taken_before_it_is_not_taken_again() -> None:
    # the roll is taken, the stream drops, the same dice lie where they lay: no second roll
    assert len(settled_frames(frames=80, gap=40)) == 1
    settler = Settler(SettleParams(settle_frames=3))
    dice = TwoDice().read(np.zeros((1, 1, 3), np.uint8))
    events = [event.kind for _ in range(6) for event in settler.update(dice)]
    settler.gap()
    events += [event.kind for _ in range(10) for event in settler.update(dice)]
    assert events.count(EventKind.SETTLED) == 1


def test_a_stream_that_stays_away_is_called_lost_with_what_to_do() -> None:
    frames = jpegs(textured(10))
    with mjpeg_camera(frames) as camera:
        camera.drop_at(4, down=60)
        with StreamSource(camera.url, retry=0.2, give_up=1.0) as source:
            with pytest.raises(CameraLost, match="did not come back in 1 s: is the camera app still running"):
                while source.read() is not None:
                    pass
