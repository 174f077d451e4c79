"""Frame sources: parsing, webcam (opened and lost), video files, photo folders, the demo table."""

from __future__ import annotations

import logging
from pathlib import Path

import cv2
import numpy as np
import pytest

from fake_capture import FakeCapture
from scorekeeper.testbed.films import demo_labels
from scorekeeper.camera.demo_table import THROW_PAUSE, Choreography, DemoTable
from scorekeeper.camera.settling import SettleParams
from scorekeeper.camera.sources import (
    CameraLost,
    ImageFolderSource,
    SourceError,
    SourceKind,
    SourceSpec,
    VideoSource,
    WebcamSource,
    open_source,
)
from scorekeeper.camera.watch import Watcher
from scorekeeper.vision.detections import Detections
from scorekeeper.synthetic.layout import faces_overlap
from scorekeeper.synthetic.perspective import top_face


@pytest.mark.parametrize(
    ("text", "kind", "argument"),
    [("webcam:0", SourceKind.WEBCAM, "0"), ("video:/tmp/a b.mp4", SourceKind.VIDEO, "/tmp/a b.mp4"), ("images:C:/x", SourceKind.IMAGES, "C:/x"), ("demo", SourceKind.DEMO, ""), ("demo:7", SourceKind.DEMO, "7")],
)
def test_source_specs_parse_and_print_back(text: str, kind: SourceKind, argument: str) -> None:
    spec = SourceSpec.from_str(text)
    assert (spec.kind, spec.argument, str(spec)) == (kind, argument, text)


@pytest.mark.parametrize(
    ("text", "message"),
    [("webcam:front", "chosen by its number"), ("video:", "give the video file"), ("images:", "folder of photos"), ("demo:x", "optional seed"), ("rtsp://", "names no camera"), ("camera", "unknown source")],
)
def test_bad_source_specs_say_what_to_write(text: str, message: str) -> None:
    with pytest.raises(SourceError, match=message):
        SourceSpec.from_str(text)


def test_a_webcam_reports_the_resolution_it_actually_gave_and_a_lost_camera_is_an_error(caplog: pytest.LogCaptureFixture) -> None:
    capture = FakeCapture(frames=3)
    caplog.set_level(logging.INFO)
    with WebcamSource(2, (1280, 720), open_capture=lambda index: capture, patience=0.05) as camera:
        assert camera.size == (800, 600) and camera.name == "webcam:2 (800x600)" and camera.live
        assert capture.asked == {cv2.CAP_PROP_FRAME_WIDTH: 1280, cv2.CAP_PROP_FRAME_HEIGHT: 720, cv2.CAP_PROP_BUFFERSIZE: 1}
        assert "gave 800x600 instead of the 1280x720" in caplog.text
        assert [camera.read().index for _ in range(3)] == [0, 1, 2]  # type: ignore[union-attr]
        with pytest.raises(CameraLost, match="webcam:2 stopped sending pictures"):
            camera.read()
    assert capture.released


def test_a_missing_or_silent_webcam_is_a_clear_error() -> None:
    with pytest.raises(SourceError, match="no camera at webcam:4"):
        WebcamSource(4, open_capture=lambda index: FakeCapture(0, opened=False))
    with pytest.raises(SourceError, match="sends no picture"):
        WebcamSource(4, open_capture=lambda index: FakeCapture(0))
    with pytest.raises(SourceError, match="no camera at webcam:97"):
        open_source("webcam:97")  # the real OpenCV path: no such camera anywhere


def write_frames(path: Path, count: int, size: tuple[int, int] = (160, 120)) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 25.0, size)
    for i in range(count):
        writer.write(np.full((size[1], size[0], 3), i * 10, np.uint8))
    writer.release()


def test_a_video_file_gives_its_frames_on_its_own_timeline_then_ends(tmp_path: Path) -> None:
    write_frames(tmp_path / "clip.avi", 5)
    with open_source(f"video:{tmp_path / 'clip.avi'}") as video:
        frames = []
        while (frame := video.read()) is not None:
            frames.append(frame)
        assert video.read() is None
    assert [f.index for f in frames] == [0, 1, 2, 3, 4]
    assert [f.time for f in frames] == pytest.approx([0, 0.04, 0.08, 0.12, 0.16])
    assert frames[0].size == (160, 120) and not video.live and frames[0].truth is None


def test_a_missing_or_unreadable_video_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="does not exist"):
        VideoSource(tmp_path / "none.mp4")
    (tmp_path / "notes.mp4").write_text("not a video")
    with pytest.raises(SourceError, match="cannot be read as a video"):
        VideoSource(tmp_path / "notes.mp4")


def test_a_photo_folder_is_stepped_through_in_natural_order_each_held(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    for number in (10, 2, 1):
        cv2.imwrite(str(tmp_path / f"roll{number}.png"), np.full((30, 40, 3), number, np.uint8))
    (tmp_path / "roll5.jpg").write_bytes(b"broken")
    (tmp_path / "notes.txt").write_text("ignored")
    with ImageFolderSource(tmp_path, hold=2) as photos:
        shades = []
        while (frame := photos.read()) is not None:
            shades.append(int(frame.image[0, 0, 0]))
    assert shades == [1, 1, 2, 2, 10, 10]
    assert [p.name for p in photos.skipped] == ["roll5.jpg"] and "roll5.jpg" in caplog.text


def test_an_empty_or_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="no photos"):
        ImageFolderSource(tmp_path)
    with pytest.raises(SourceError, match="does not exist"):
        ImageFolderSource(tmp_path / "nope")


def test_the_demo_table_is_endless_seeded_and_knows_its_dice() -> None:
    def film(seed: int, frames: int) -> list[tuple[int, list[int]]]:
        with DemoTable(160, 120, seed=seed, realtime=False) as table:
            shot = [table.read() for _ in range(frames)]
        assert all(f is not None and f.truth is not None for f in shot)
        return [(int(f.image.sum()), f.truth.roll()) for f in shot]  # type: ignore[union-attr]

    first = film(5, 120)
    assert first == film(5, 120)
    assert first != film(6, 120)
    assert len({tuple(values) for _, values in first if values}) > 2  # tumbling, then at rest


def test_the_demo_table_throws_settles_clears_and_throws_again() -> None:
    class Truth:
        def read(self, image: np.ndarray, dice: int | None = None) -> Detections:
            assert watcher.latest_frame is not None and watcher.latest_frame.truth is not None
            return watcher.latest_frame.truth

    with DemoTable(160, 120, seed=5, realtime=False) as table:
        watcher = Watcher(table, Truth(), settle=SettleParams(settle_frames=8))
        events = list(watcher.events(max_frames=320))
    assert table.rolls == 3
    assert [event.kind.value for event in events] == ["moving", "settled", "moving", "cleared"] * 2 + ["moving"]
    assert [len(event.dice) for event in events if event.kind.value == "settled"] == [3, 6]


def test_the_demo_table_opens_empty_so_a_game_started_after_it_opens_gets_its_first_throw() -> None:
    with DemoTable(160, 120, seed=5, realtime=False) as table:
        first = table.read()
        assert first is not None and first.truth is not None and len(first.truth) == 0
        table.expect(6)  # the window starts its game once the camera is open
        counts = []
        for _ in range(60):
            frame = table.read()
            assert frame is not None and frame.truth is not None
            counts.append(len(frame.truth))
    assert max(counts) == 6


def test_thrown_dice_come_to_rest_apart_or_against_each_other_never_inside() -> None:
    touching = 0
    for seed in range(20):
        film = Choreography(640, 480, seed=seed)
        film.throw([1, 2, 3, 4, 5, 6], frames=12)
        faces = [top_face(d.x, d.y, d.size, d.angle, 0.0, 640, 480) for d in film.dice]
        assert not any(faces_overlap(faces[i], faces[j]) for i in range(6) for j in range(i))
        assert all(0 < d.x < 640 and 0 < d.y < 480 for d in film.dice)
        size = film.dice[0].size
        touching += sum(np.hypot(a.x - b.x, a.y - b.y) < 1.5 * size for i, a in enumerate(film.dice) for b in film.dice[:i])
    # real throws often end with dice against each other; the demo shows that too
    assert touching >= 10


class TruthReader:
    """Reads each frame as its labels say (the demo table's dice, read without fault)."""

    def __init__(self) -> None:
        self.watcher: Watcher | None = None

    def read(self, image: np.ndarray, dice: int | None = None) -> Detections:
        frame = self.watcher.latest_frame if self.watcher is not None else None
        assert frame is not None and frame.truth is not None
        return frame.truth


@pytest.mark.parametrize("count", [1, 3, 6])
def test_the_demo_table_throws_the_dice_the_game_asks_for_and_leaves_them_lying_until_it_asks_again(count: int) -> None:
    with DemoTable(160, 120, seed=5, realtime=False) as table:
        table.expect(count)
        reader = TruthReader()
        watcher = Watcher(table, reader, settle=SettleParams(settle_frames=8))
        reader.watcher = watcher
        settled = []
        for event in watcher.events(max_frames=120):
            if event.kind.value == "settled":
                settled.append(event)
                table.expect(0)  # the game took the roll: it asks for no throw until a keep
        assert table.rolls == 1 and len(settled) == 1 and len(settled[0].dice) == count
        # the players look, tap, keep: the dice lie as they fell, however long that takes
        lying = demo_labels(table, 600)
        assert table.rolls == 1 and all(found.roll() == settled[0].dice.roll() for found in lying)
        table.expect(2)  # the player kept dice and throws the two left: a moment later, the throw
        asked = demo_labels(table, 200)
    assert all(found.roll() == settled[0].dice.roll() for found in asked[: THROW_PAUSE - 1])
    assert table.rolls == 2 and {len(found) for found in asked[-20:]} == {2}
    assert max(len(found) for found in asked[THROW_PAUSE:]) <= max(count, 2), "the dice lying are swept, then two are thrown"


def test_the_demo_table_never_throws_again_while_the_game_waits_for_the_roll_it_threw() -> None:
    # a roll waiting for a tap on a flagged die, or a reader slow to settle: the dice lie still
    with DemoTable(160, 120, seed=5, realtime=False) as table:
        table.expect(4)
        counts = [len(found) for found in demo_labels(table, 900)]
    assert table.rolls == 1 and max(counts) == 4 and set(counts[-700:]) == {4}


def test_a_throw_asked_again_before_it_comes_waits_its_moment_again() -> None:
    # Ann keeps (the game asks for her 3 dice), then banks at once: Bob's six fresh dice are
    # thrown, never Ann's three
    with DemoTable(160, 120, seed=5, realtime=False) as table:
        table.expect(6)
        first = demo_labels(table, 120)
        assert table.rolls == 1 and len(first[-1]) == 6
        table.expect(0)
        table.expect(3)
        demo_labels(table, THROW_PAUSE // 2)
        table.expect(6)
        waited = demo_labels(table, THROW_PAUSE - 2)
        assert table.rolls == 1 and all(found.roll() == first[-1].roll() for found in waited)
        thrown = demo_labels(table, 150)
    assert table.rolls == 2 and len(thrown[-1]) == 6 and 3 not in {len(found) for found in thrown[-40:]}


def test_the_demo_table_opens_from_its_spec_and_paces_itself() -> None:
    with open_source("demo:3", resolution=(320, 240)) as table:
        assert isinstance(table, DemoTable) and table.realtime and table.live and table.size == (320, 240)
        assert table.read().truth is not None  # type: ignore[union-attr]
