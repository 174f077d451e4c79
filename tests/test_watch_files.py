"""``watch`` on files that are not what a camera gives (issue 51 item 8): a video whose name is not
UTF-8 (OpenCV crashed the process on it), photos named so, and pictures of one pixel."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from scorekeeper.cli import main

ROOT = Path(__file__).resolve().parent.parent
ONE_PIXEL_GIF = (
    b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00"
    b",\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"
)
LATIN_1 = b"caf\xe9"
"""A name in Latin-1, not UTF-8: Python carries it as a lone surrogate."""


def watch(*arguments: bytes) -> subprocess.CompletedProcess[str]:
    """``scorekeeper watch`` in a process of its own (a crash must not take the tests with it)."""
    return subprocess.run(
        [sys.executable.encode(), b"-m", b"scorekeeper", b"watch", *arguments],
        capture_output=True, text=True, errors="replace", timeout=120, cwd=ROOT,
        env={**os.environ, "SCOREKEEPER_HOME": os.fsdecode(b"/nonexistent-home")},
    )


def write_video(path: bytes, frames: int = 3) -> None:
    ascii_name = path.rsplit(b"/", 1)[0] + b"/plain.avi"
    writer = cv2.VideoWriter(os.fsdecode(ascii_name), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    for shade in range(frames):
        writer.write(np.full((48, 64, 3), 60 * shade, np.uint8))
    writer.release()
    os.rename(ascii_name, path)


@pytest.mark.slow
def test_a_video_whose_name_is_not_utf8_is_refused_with_a_message_instead_of_a_crash(tmp_path: Path) -> None:
    video = os.fsencode(tmp_path) + b"/" + LATIN_1 + b".avi"
    write_video(video)
    done = watch(b"video:" + video, b"--max-frames", b"2")
    assert done.returncode == 2, (done.returncode, done.stderr[-500:])
    assert "file name is not UTF-8" in done.stderr and "rename" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.slow
def test_photos_whose_names_are_not_utf8_are_read(tmp_path: Path) -> None:
    photos = tmp_path / "photos"
    photos.mkdir()
    ok, png = cv2.imencode(".png", np.full((48, 64, 3), 90, np.uint8))
    assert ok
    Path(os.fsdecode(os.fsencode(photos) + b"/" + LATIN_1 + b".png")).write_bytes(png.tobytes())
    done = watch(b"images:" + os.fsencode(photos), b"--max-frames", b"3", b"--json")
    assert done.returncode == 0, (done.returncode, done.stderr[-500:])
    assert "skipped" not in done.stderr and "Traceback" not in done.stderr


def test_a_one_pixel_video_is_refused_with_a_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gif = tmp_path / "one-pixel.gif"
    gif.write_bytes(ONE_PIXEL_GIF)
    assert main(["watch", f"video:{gif}"]) == 2
    err = capsys.readouterr().err
    assert f"{gif}" in err and "1x1 px: too small to hold a die (at least 16x16 px)" in err


def test_a_folder_of_one_pixel_photos_ends_with_a_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ok, png = cv2.imencode(".png", np.zeros((1, 1, 3), np.uint8))
    assert ok
    (tmp_path / "dot.png").write_bytes(png.tobytes())
    assert main(["watch", f"images:{tmp_path}"]) == 2
    err = capsys.readouterr().err
    assert "dot.png: 1x1 px: too small to hold a die (at least 16x16 px)" in err
    assert f"none of the 1 photos in {tmp_path} could be read" in err
