"""Calibration profiles: reading, writing, validation, the shipped default, and the rolling area."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from scorekeeper.camera.calibration import (
    DEFAULT_PROFILE_PATH,
    CalibrationError,
    CalibrationProfile,
    default_profile,
    load_profile,
    save_profile,
    split_by_area,
)
from scorekeeper.vision.detections import Detections

TRAPEZOID = ((0.2, 0.1), (0.8, 0.1), (0.95, 0.9), (0.05, 0.9))


def test_the_shipped_default_profile_is_the_built_in_default() -> None:
    assert DEFAULT_PROFILE_PATH.is_file()
    assert default_profile() == CalibrationProfile()


@pytest.mark.parametrize("suffix", [".toml", ".json"])
def test_a_profile_survives_saving_and_loading(tmp_path: Path, suffix: str) -> None:
    profile = CalibrationProfile(camera="webcam:1", resolution=(640, 480), area=TRAPEZOID, die_size=42.5, settle_frames=8, confidence=0.65)
    path = tmp_path / f"table{suffix}"
    save_profile(profile, path)
    assert load_profile(path) == profile
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary file left behind


def test_saving_over_a_profile_replaces_it_whole(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    save_profile(CalibrationProfile(die_size=30.0), path)
    save_profile(CalibrationProfile(die_size=31.0), path)
    assert load_profile(path).die_size == 31.0


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("resolution = [640]", "resolution must be [width, height]"),
        ("resolution = [10, 480]", "16-8192"),
        ("area = [[0, 0], [1, 0]]", "at least 3 corners"),
        ("area = [[0, 0], [1.5, 0], [1, 1]]", "fractions of the frame, 0-1"),
        ("area = [[0, 0], [1, 1], [1, 0], [0, 1]]", "edges cross"),
        ("area = [[0, 0], [0.05, 0], [0.05, 0.05]]", "less than 1%"),
        ("die_size = -3", "die_size"),
        ("settle_frames = 2.5", "settle_frames must be a whole number"),
        ("settle_frames = 1", "settle_frames must be a whole number 2-300"),
        ("confidence = 1.5", "confidence must be 0-1"),
        ("camera = 3", "camera must be a source"),
        ("colour = 'red'", "unknown key(s) colour"),
        ("format = 2", "format 2 is not supported"),
        ("area = [[0, 0], [1, 0], ", "not valid TOML"),
    ],
)
def test_bad_profiles_are_refused_with_the_field_named(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text + "\n", encoding="utf-8")
    with pytest.raises(CalibrationError) as caught:
        load_profile(path)
    assert message in str(caught.value) and "bad.toml" in str(caught.value)


def test_a_missing_or_broken_json_profile_says_so(tmp_path: Path) -> None:
    with pytest.raises(CalibrationError, match="does not exist"):
        load_profile(tmp_path / "nope.toml")
    path = tmp_path / "table.json"
    path.write_text(json.dumps([1, 2]), encoding="utf-8")
    with pytest.raises(CalibrationError, match="a profile is a table"):
        load_profile(path)


def box(cx: float, cy: float, size: float = 40.0) -> list[float]:
    return [cx - size / 2, cy - size / 2, cx + size / 2, cy + size / 2]


def test_dice_inside_the_area_are_the_roll_and_the_rest_are_set_aside() -> None:
    found = Detections(
        np.array([box(320, 240), box(20, 400), box(600, 60), box(560, 400)]), np.array([1, 2, 3, 4]), np.array([0.9, 0.9, 0.9, 0.4])
    )
    profile = CalibrationProfile(area=TRAPEZOID, confidence=0.5)
    inside, aside = split_by_area(profile, found, 640, 480)
    assert inside.roll() == [1, 4] and aside.roll() == [2, 3]
    assert inside.unsure.tolist() == [False, True]


def test_the_area_holds_whatever_resolution_the_camera_gives() -> None:
    found = Detections(np.array([box(640, 360), box(100, 700)]), np.array([5, 6]), np.array([0.9, 0.9]))
    inside, aside = split_by_area(CalibrationProfile(area=TRAPEZOID), found, 1280, 720)
    assert inside.roll() == [5] and aside.roll() == [6]


def test_boxes_far_from_the_measured_die_size_are_not_dice() -> None:
    profile = CalibrationProfile(resolution=(1280, 720), die_size=60.0)
    # at 640 px wide the die is 30 px: a 12 px speck and a 90 px cup are not dice
    found = Detections(np.array([box(100, 100, 30), box(200, 100, 12), box(300, 200, 90)]), np.array([1, 2, 3]), np.array([0.9] * 3))
    inside, aside = split_by_area(profile, found, 640, 360)
    assert inside.roll() == [1] and len(aside) == 0


def test_the_unsure_line_is_the_readers_and_a_profile_may_only_raise_it(tmp_path: Path) -> None:
    assert CalibrationProfile().confidence is None and default_profile().confidence is None, "the default profile holds no line of its own"
    assert "confidence" not in DEFAULT_PROFILE_PATH.read_text(encoding="utf-8").replace("# Set confidence", "")
    found = Detections(np.array([box(100, 100), box(200, 100), box(300, 100)]), np.array([1, 2, 3]), np.array([0.8, 0.87, 0.95]), 0.85)
    for profile, unsure in (
        (CalibrationProfile(), [True, False, False]),  # the reader's (the model's) line
        (CalibrationProfile(confidence=0.9), [True, True, False]),  # a table asking for more caution
        (CalibrationProfile(confidence=0.3), [True, False, False]),  # never less than the reader's
    ):
        inside, _ = split_by_area(profile, found, 640, 480)
        assert inside.unsure.tolist() == unsure, profile.confidence
    path = tmp_path / "table.toml"
    save_profile(CalibrationProfile(settle_frames=9), path)
    assert load_profile(path) == CalibrationProfile(settle_frames=9) and "\nconfidence" not in path.read_text(encoding="utf-8")
