"""Training data without torch: the "not a die" crops the pip reader learns to refuse, fresh crops of
real dice, and the dice players corrected."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from scorekeeper.training.data import (
    CORRECTION_CROPS,
    JITTER_SCALE,
    JITTER_SHIFT,
    corrected_die_samples,
    corrections_samples,
    fresh_photo_crops,
    jitter_boxes,
    moved_boxes,
    negative_boxes,
    off_every_face,
)
from scorekeeper.vision.corrections import save_correction, withdraw_correction
from scorekeeper.vision.detections import Detections
from scorekeeper.vision.processing import CROP, box_iou
from scorekeeper.synthetic.die import DieLook, DiePose
from scorekeeper.synthetic.render import render_with_visibility
from scorekeeper.synthetic.scene import Scene
from scorekeeper.synthetic.table import TableLook

WHITE = DieLook(body=(240, 240, 240), pips=(20, 20, 20), corner=0.15)


def test_a_box_is_off_the_faces_when_its_centre_is_outside_every_label() -> None:
    faces = np.array([[0, 0, 10, 10], [10, 0, 20, 10]], np.float32)
    boxes = np.array([[2, 2, 12, 12], [15, 2, 25, 12], [18, 8, 28, 18], [-8, 0, 2, 10]], np.float32)
    assert off_every_face(boxes, faces).tolist() == [False, False, True, True]
    assert off_every_face(boxes, np.zeros((0, 4), np.float32)).all()


def test_negatives_never_frame_a_die_and_include_its_side_faces() -> None:
    # a steeply tilted camera: every die shows a side face below its top face
    dice = tuple(DiePose(x=x, y=120, size=40, angle=10, value=5, look=WHITE) for x in (70, 160, 250))
    scene = Scene(width=320, height=240, dice=dice, table=TableLook(kind="felt", seed=3), seed=5, tilt=40.0)
    _, labels, _, _ = render_with_visibility(scene)
    rng = np.random.default_rng(0)
    boxes = np.concatenate([negative_boxes(labels.boxes, (240, 320), rng, 16) for _ in range(20)])
    overlap = box_iou(boxes, labels.boxes).max(1)
    assert len(boxes) >= 300
    assert (overlap < 0.5).all() and off_every_face(boxes, labels.boxes).all()
    # side faces and strips between dice overlap a die more than the old limit (IoU 0.15), yet are refused
    assert (overlap > 0.15).sum() >= 0.05 * len(boxes)


def test_negatives_on_an_empty_table_are_die_sized_boxes_inside_the_frame() -> None:
    boxes = negative_boxes(np.zeros((0, 4), np.float32), (480, 640), np.random.default_rng(1), 50)
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2
    assert len(boxes) == 50
    assert ((centres >= 0) & (centres <= [640, 480])).all()


def _photo(value: int, colour: tuple[int, int, int]) -> tuple[np.ndarray, Detections]:
    frame = np.full((200, 300, 3), 128, np.uint8)
    frame[80:120, 130:170] = colour
    frame[96:104, 146:154] = 0  # a pip in the middle
    return frame, Detections(np.array([[130, 80, 170, 120]], np.float32), np.array([value]), np.ones(1, np.float32))


def test_fresh_photo_crops_keep_each_die_its_value_and_vary_every_time() -> None:
    photos = [_photo(2, (0, 0, 255)), _photo(5, (0, 255, 0))]
    crops, values = fresh_photo_crops(photos, 200, np.random.default_rng(1), small_share=0.0)
    assert crops.shape == (200, CROP, CROP, 3) and sorted(set(values.tolist())) == [2, 5]
    # the die's own colour is in its crop, its value's photo and no other
    red = crops[:, :, :, 2].astype(int).max((1, 2)) > 200
    assert np.array_equal(red, values == 2)
    assert len({crop.tobytes() for crop in crops}) == 200
    # turned any way: the square die's corners land in different places
    corner = crops[:, 4:9, 4:9].mean((1, 2, 3))
    assert corner.std() > 10


def test_fresh_photo_crops_at_webcam_resolution_blur_the_pips() -> None:
    photos = [_photo(1, (255, 255, 255))]
    sharp, _ = fresh_photo_crops(photos, 60, np.random.default_rng(2), small_share=0.0)
    soft, _ = fresh_photo_crops(photos, 60, np.random.default_rng(2), small_share=1.0)
    contrast = lambda crops: np.abs(np.diff(crops.astype(int), axis=2)).max((1, 2, 3)).mean()  # noqa: E731
    assert contrast(soft) < 0.8 * contrast(sharp)
    assert fresh_photo_crops([], 5, np.random.default_rng(0))[0].shape == (0, CROP, CROP, 3)


def test_a_corrected_die_teaches_its_value_from_crops_centred_on_it() -> None:
    picture = np.full((60, 60, 3), 40, np.uint8)
    picture[10:50, 10:50] = (0, 0, 255)
    die = corrected_die_samples(picture, (10, 10, 50, 50), 4, seed=0)
    crops, classes = np.concatenate(die.crops), np.concatenate(die.classes)
    assert len(crops) == CORRECTION_CROPS and (classes == 4).all()
    assert (crops[:, CROP // 2, CROP // 2, 2] > 200).all(), "every crop is centred on the red die"
    assert len(die.photos) == 1 and die.photos[0][1].values.tolist() == [4]
    fresh, values = fresh_photo_crops(die.photos, 50, np.random.default_rng(1))
    assert (values == 4).all() and (fresh[:, CROP // 2, CROP // 2, 2] > 200).all()
    # the picture's margin is a quarter of the die: turned and widened crops reach past it, and
    # see the table repeated there, not black
    assert (fresh.max(3) > 0).all()

    refused = corrected_die_samples(picture, (10, 10, 50, 50), None, seed=0)
    assert not refused.photos
    assert np.concatenate(refused.classes).tolist() == [0] * (4 * CORRECTION_CROPS)


def test_a_corrections_folder_becomes_samples_and_its_bad_lines_are_reported(tmp_path: Path) -> None:
    frame = np.full((240, 320, 3), 90, np.uint8)
    frame[80:120, 100:140] = 250
    save_correction(tmp_path, frame, (100.0, 80.0, 140.0, 120.0), 3, 5)
    save_correction(tmp_path, frame, (200.0, 80.0, 240.0, 120.0), 2, None)
    undone = save_correction(tmp_path, frame, (100.0, 80.0, 140.0, 120.0), 3, 6)
    withdraw_correction(tmp_path, undone)
    with open(tmp_path / "corrections.jsonl", "a", encoding="utf-8") as stream:
        stream.write("not json\n")
    messages: list[str] = []
    samples = corrections_samples(tmp_path, 2026, messages.append)
    classes = np.concatenate(samples.classes)
    assert sorted(set(classes.tolist())) == [0, 5] and len(samples.photos) == 1, "the undone 6 is not learnt"
    assert not samples.images, "a correction keeps a die, not a frame for the finder"
    assert messages[0].startswith(f"{tmp_path / 'corrections.jsonl'}:5:")
    assert messages[-1] == f"{tmp_path}: 2 corrections used (1 dice, 1 not dice), 1 taken back in the game, 1 skipped"


def test_jitter_drawn_for_all_dice_at_once_moves_each_as_die_by_die() -> None:
    # fresh_photo_crops draws every die's jitter in one go; a given seed must still cut the crops
    # it cut one die at a time, or `scorekeeper train` stops reproducing the committed model
    boxes = np.array([[10, 20, 50, 60], [100, 40, 130, 80], [0, 0, 15, 12]], np.float32)
    rng = np.random.default_rng(4)
    die_by_die = np.concatenate([jitter_boxes(box, rng) for box in boxes])
    moves = np.random.default_rng(4).standard_normal((3, 3))
    at_once = moved_boxes(boxes, JITTER_SHIFT * moves[:, 0], JITTER_SHIFT * moves[:, 1], JITTER_SCALE * moves[:, 2])
    assert np.array_equal(at_once, die_by_die)
    assert not np.array_equal(at_once, boxes)
