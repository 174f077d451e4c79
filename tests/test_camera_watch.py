"""Rendered films of a table, written to video files and watched: the exact events and rolls.

Each film is scripted with the demo's choreography, rendered with the project's renderer,
written to an MJPG .avi and read back through ``video:PATH``; the reader is the test's stand-in
that returns the renderer's labels spoiled like a real reader's reads (``scorekeeper/testbed/films.py``).
"""

from __future__ import annotations

import argparse
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fake_capture import FakeCapture
from scorekeeper.testbed.films import FilmReader, write_video
from scorekeeper.cli import build_parser
from scorekeeper.cli import watch as watch_command
from scorekeeper.camera.calibration import CalibrationProfile, save_profile
from scorekeeper.camera.demo_table import Choreography, DemoTable
from scorekeeper.camera.settling import EventKind, SettleEvent, SettleParams
from scorekeeper.camera.sources import VideoSource, WebcamSource
from scorekeeper.camera.watch import Watcher
from scorekeeper.vision.detections import DEFAULT_UNSURE_BELOW, Detections
from tests.unsure_reads import BETWEEN, MODEL_LINE, DoubtingReader

SETTLE = 10


def watch_film(film: Choreography, tmp_path: Path, profile: CalibrationProfile | None = None, **spoil: float) -> list[SettleEvent]:
    path = tmp_path / "film.avi"
    labels = write_video(film.scenes, path)
    with VideoSource(path) as video:
        reader = FilmReader(film.scenes, labels, **spoil)
        watcher = Watcher(video, reader, profile, SettleParams(settle_frames=SETTLE))
        reader.follow(watcher)
        return list(watcher.events())


def summary(events: list[SettleEvent]) -> list[tuple[str, list[int]]]:
    return [(event.kind.value, event.roll() if event.kind is EventKind.SETTLED else []) for event in events]


def settled_frames(events: list[SettleEvent]) -> list[int]:
    return [event.frame for event in events if event.kind is EventKind.SETTLED]


def test_dice_thrown_in_settle_once_then_a_hand_clears_the_table(tmp_path: Path) -> None:
    film = Choreography(320, 240, seed=11)
    film.throw([1, 5, 5, 2, 3, 6], frames=20)
    tumbling = [i for i, scene in enumerate(film.scenes) if any(die.moving for die in scene.dice)]
    sliding = [i for i, scene in enumerate(film.scenes) if any(die.tumble or die.motion != (0, 0) for die in scene.dice)]
    film.rest(30)
    film.sweep(frames=14)
    film.empty(20)
    events = watch_film(film, tmp_path)
    assert summary(events) == [("moving", []), ("settled", [1, 2, 3, 5, 5, 6]), ("moving", []), ("cleared", [])]
    # The still frames voted over all come after the last tumbling frame; the roll follows the
    # last little slide within a third of a second.
    assert tumbling[-1] < settled_frames(events)[0] - SETTLE + 1
    assert settled_frames(events)[0] <= sliding[-1] + SETTLE + 3
    assert not events[1].unsure.any()


def test_a_knocked_die_and_a_hop_each_give_one_new_roll_but_a_brief_rest_gives_none(tmp_path: Path) -> None:
    film = Choreography(320, 240, seed=12)
    film.throw([2, 3, 4, 6], frames=18)
    film.rest(5)  # a pause of a sixth of a second: not a rest
    film.hop([2, 2, 4, 6])
    film.rest(25)
    film.knock(1, 1, by=(30.0, 12.0))
    film.rest(25)
    film.sweep(frames=14)
    film.empty(18)
    events = watch_film(film, tmp_path)
    assert summary(events) == [
        ("moving", []),
        ("settled", [2, 2, 4, 6]),
        ("moving", []),
        ("settled", [1, 2, 4, 6]),
        ("moving", []),
        ("cleared", []),
    ]


def test_camera_shake_a_bump_and_an_exposure_jump_take_nothing_twice(tmp_path: Path) -> None:
    film = Choreography(320, 240, seed=13)
    film.throw([1, 1, 4, 5, 6], frames=20)
    film.rest(20)
    film.shake(12, amplitude=5.0)
    film.bump((14.0, -9.0))
    film.rest(10)
    film.expose(1.45)
    film.rest(25)
    film.sweep(frames=14)
    film.empty(18)
    events = watch_film(film, tmp_path)
    assert summary(events) == [("moving", []), ("settled", [1, 1, 4, 5, 6]), ("moving", []), ("cleared", [])]


def test_a_die_cut_by_the_frame_edge_is_in_the_roll_marked_unsure(tmp_path: Path) -> None:
    film = Choreography(320, 240, seed=14)
    film.throw([3, 5, 1], frames=16, spots=[(4.0, 120.0), (150.0, 100.0), (230.0, 160.0)])
    film.rest(25)
    events = watch_film(film, tmp_path, miss=0.0)
    settled = [event for event in events if event.kind is EventKind.SETTLED]
    assert [event.roll() for event in settled] == [[1, 3, 5]]
    by_value = dict(zip(settled[0].dice.values.tolist(), settled[0].unsure.tolist()))
    assert by_value == {3: True, 5: False, 1: False}


def test_only_dice_in_the_rolling_area_are_the_roll_the_others_are_set_aside(tmp_path: Path) -> None:
    film = Choreography(320, 240, seed=15)
    film.throw([6, 6, 2, 1], frames=16, spots=[(60.0, 60.0), (120.0, 170.0), (250.0, 60.0), (280.0, 190.0)])
    film.rest(25)
    path = tmp_path / "film.avi"
    labels = write_video(film.scenes, path)
    left_half = CalibrationProfile(area=((0.0, 0.0), (0.6, 0.0), (0.6, 1.0), (0.0, 1.0)))
    with VideoSource(path) as video:
        reader = FilmReader(film.scenes, labels, miss=0.0, misread=0.0)
        watcher = Watcher(video, reader, left_half, SettleParams(settle_frames=SETTLE))
        reader.follow(watcher)
        steps = list(watcher)
    settled = [event for step in steps for event in step.events if event.kind is EventKind.SETTLED]
    assert [event.roll() for event in settled] == [[6, 6]]
    assert steps[-1].aside.roll() == [1, 2]


class Following(Watcher):
    """The command's watcher, telling the test's reader which frame it reads."""

    def __init__(self, source: VideoSource, reader: FilmReader, *args: object, **kwargs: object) -> None:
        super().__init__(source, reader, *args, **kwargs)  # type: ignore[arg-type]
        reader.follow(self)


def test_the_watch_command_prints_the_json_contract_for_a_video(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(watch_command, "Watcher", Following)
    film = Choreography(320, 240, seed=16)
    film.throw([4, 4, 4], frames=16)
    film.rest(20)
    film.sweep(frames=12)
    film.empty(12)
    labels = write_video(film.scenes, tmp_path / "film.avi")
    profile = tmp_path / "table.toml"
    save_profile(CalibrationProfile(settle_frames=15), profile)
    args = build_parser().parse_args(
        ["watch", f"video:{tmp_path / 'film.avi'}", "--json", "--calibration", str(profile), "--settle-frames", "8"]
    )
    assert watch_command.run(args, reader=FilmReader(film.scenes, labels, miss=0.0)) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["event"] for line in lines] == ["moving", "settled", "moving", "cleared"]
    settled = lines[1]
    assert settled["roll"] == [4, 4, 4] and isinstance(settled["frame"], int)
    assert settled["time"] == pytest.approx(settled["frame"] / 30, abs=0.002)
    assert all(set(die) == {"box", "value", "confidence", "unsure"} and len(die["box"]) == 4 for die in settled["dice"])
    assert "roll" not in lines[0] and lines[3]["dice"] == []


def test_the_watch_command_marks_a_die_the_model_doubts_unsure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert DEFAULT_UNSURE_BELOW < BETWEEN < MODEL_LINE
    film = Choreography(320, 240, seed=16)
    film.throw([4, 2, 6], frames=16)
    film.rest(20)
    labels = write_video(film.scenes, tmp_path / "film.avi")
    film_reader = FilmReader(film.scenes, labels, miss=0.0, misread=0.0)

    class FollowingFilm(Watcher):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]
            film_reader.follow(self)

    monkeypatch.setattr(watch_command, "Watcher", FollowingFilm)
    args = build_parser().parse_args(["watch", f"video:{tmp_path / 'film.avi'}", "--json"])  # the default profile: the reader's line alone
    assert watch_command.run(args, reader=DoubtingReader(film_reader, face=2)) == 0
    settled = [line for line in map(json.loads, capsys.readouterr().out.splitlines()) if line["event"] == "settled"]
    assert len(settled) == 1 and settled[0]["roll"] == [2, 4, 6]
    assert sorted((die["value"], die["unsure"]) for die in settled[0]["dice"]) == [(2, True), (4, False), (6, False)]


def test_the_watch_command_refuses_bad_input_with_a_clear_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def run(*argv: str) -> str:
        args: argparse.Namespace = build_parser().parse_args(["watch", *argv])
        assert watch_command.run(args, reader=FilmReader([], [])) == 2
        return capsys.readouterr().err

    assert "unknown source 'camera:0'" in run("camera:0")
    assert "does not exist" in run(f"video:{tmp_path / 'missing.avi'}")
    assert "settle_frames must be a whole number 2-300, got 0" in run("demo", "--settle-frames", "0")
    assert "calibration profile" in run("demo", "--calibration", str(tmp_path / "none.toml"))
    assert "--max-frames must be 1 or more" in run("demo", "--max-frames", "0")


def test_the_watch_command_says_so_when_the_dice_model_is_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = build_parser().parse_args(["watch", "demo", "--unpaced", "--model", str(tmp_path)])
    assert watch_command.run(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("scorekeeper watch: the dice model is missing or damaged: no dice model at") and "scorekeeper train" in err


class Interrupted:
    """A reader during whose work the user presses Ctrl-C, after some frames."""

    def __init__(self, frames: int) -> None:
        self.frames = frames

    def read(self, image: object, dice: int | None = None) -> Detections:
        self.frames -= 1
        if self.frames < 0:
            raise KeyboardInterrupt
        return Detections.empty()


def test_ctrl_c_ends_a_live_source_cleanly(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save_profile(CalibrationProfile(resolution=(320, 240)), tmp_path / "small.toml")
    args = build_parser().parse_args(["watch", "demo", "--unpaced", "--calibration", str(tmp_path / "small.toml")])
    assert watch_command.run(args, reader=Interrupted(frames=5)) == 0
    assert capsys.readouterr().err.splitlines() == ["watching demo table (seed 0, 320x240), Ctrl-C to stop"]


def test_stop_ends_the_loop_after_the_frame_in_hand() -> None:
    with DemoTable(160, 120, realtime=False) as table:
        watcher = Watcher(table, Interrupted(frames=100))
        indices = []
        for step in watcher:
            indices.append(step.frame.index)
            if len(indices) == 3:
                watcher.stop()
        assert indices == [0, 1, 2] and watcher.stopped and watcher.step() is None


def test_a_camera_lost_mid_stream_ends_with_a_clear_message(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    capture = FakeCapture(frames=4)
    monkeypatch.setattr(
        watch_command, "open_source", lambda *args, **kwargs: WebcamSource(0, open_capture=lambda index: capture, patience=0.02)
    )
    args = build_parser().parse_args(["watch", "webcam:0"])
    assert watch_command.run(args, reader=Interrupted(frames=100)) == 2
    assert "webcam:0 stopped sending pictures" in capsys.readouterr().err
    assert capture.released


@pytest.mark.slow
def test_ctrl_c_on_the_real_command_exits_cleanly(tmp_path: Path) -> None:
    save_profile(CalibrationProfile(resolution=(320, 240)), tmp_path / "small.toml")
    # -X faulthandler: should it ever hang after Ctrl-C, SIGABRT makes it print where every thread is
    command = [sys.executable, "-X", "faulthandler", "-m", "scorekeeper", "watch", "demo", "--calibration", str(tmp_path / "small.toml")]
    # Tests run as a shell's background job start with Ctrl-C ignored, and a child inherits that
    # (then Python installs no KeyboardInterrupt); a handled signal is reset at exec, so the command
    # gets Ctrl-C as in a terminal whatever ran the tests.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert process.stderr is not None
    banner = process.stderr.readline()  # printed once the camera (here the demo) and the model are ready
    assert "Ctrl-C to stop" in banner, banner + process.stderr.read()
    time.sleep(0.5)
    process.send_signal(signal.SIGINT)
    try:
        out, err = process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGABRT)
        out, err = process.communicate()
        pytest.fail(f"still running 20 s after Ctrl-C; where it was:\n{err}")
    assert process.returncode == 0, err
    assert "Traceback" not in err


def test_unchanged_frames_after_a_roll_skip_the_reader_and_change_no_event(tmp_path: Path) -> None:
    film = Choreography(320, 240, seed=17)
    film.throw([2, 5, 6], frames=16)
    film.rest(60)
    film.bump((10.0, 6.0))
    film.rest(30)
    film.sweep(frames=12)
    film.empty(40)
    path = tmp_path / "film.avi"
    labels = write_video(film.scenes, path)

    def watch(reuse: int) -> tuple[list[tuple[str, int, list[int]]], int]:
        with VideoSource(path) as video:
            reader = FilmReader(film.scenes, labels, seed=3)
            watcher = Watcher(video, reader, settle=SettleParams(settle_frames=SETTLE), reuse=reuse)
            reader.follow(watcher)
            events = [(event.kind.value, event.frame, event.roll() if event.kind is EventKind.SETTLED else []) for event in watcher.events()]
            return events, watcher.frames_read

    every, read_all = watch(reuse=0)
    skipping, read_some = watch(reuse=15)
    assert read_all == len(film.scenes) and read_some < 0.6 * read_all
    assert skipping == every
    # the bump moves every die alike: a camera shift, not a moving roll
    assert [kind for kind, _, _ in every] == ["moving", "settled", "cleared"]


def test_a_die_the_reader_cannot_see_in_flight_still_holds_the_roll_back(tmp_path: Path) -> None:
    film = Choreography(320, 240, seed=18)
    film.throw([5, 2], frames=10)
    film.throw([3], frames=30)  # the last die is still tumbling, a blur the reader misses, for 18+ frames
    film.rest(25)
    events = watch_film(film, tmp_path, blind=True, miss=0.0)
    assert summary(events) == [("moving", []), ("settled", [2, 3, 5])]


def test_a_die_thrown_after_the_roll_was_taken_makes_a_new_roll_though_still_frames_are_skipped(tmp_path: Path) -> None:
    film = Choreography(320, 240, seed=19)
    film.throw([5, 2], frames=10)
    film.rest(40)  # the roll is taken and the unchanged picture stops being read
    film.throw([3], frames=14)
    film.rest(25)
    events = watch_film(film, tmp_path)
    assert summary(events) == [("moving", []), ("settled", [2, 5]), ("moving", []), ("settled", [2, 3, 5])]


def test_dice_swept_away_unseen_still_clear_the_table_though_still_frames_are_skipped(tmp_path: Path) -> None:
    film = Choreography(320, 240, seed=20)
    film.throw([4, 4, 1], frames=12)
    film.rest(40)
    film.sweep(frames=12)  # a reader blind to moving dice sees them vanish, not move
    film.empty(40)
    events = watch_film(film, tmp_path, blind=True, miss=0.0)
    assert summary(events) == [("moving", []), ("settled", [1, 4, 4]), ("cleared", [])]
