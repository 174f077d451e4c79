"""Settling under a phone held in the hand: the picture drifts on after the dice stop, shakes, turns
and zooms a little, and a hand passes. Each rest of half a second or more is taken once and read
right, no roll comes from dice moving (a bounce of 0.3 s, a hop, a throw), and the same table
filmed from a fixed camera gives the same rolls. Rendered tables and byler_d6's real photos
(those skip where ``../shared/data`` is absent) are played through the watch loop."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from conftest import shared_data_folder
from scorekeeper.camera.motion import CameraMotion
from scorekeeper.camera.settling import SettleParams, Settler
from scorekeeper.synthetic.render import render
from scorekeeper.synthetic.scene import Scene
from scorekeeper.synthetic.table import TableLook
from scorekeeper.testbed.handheld_clips import CAMERAS, SOURCES, HandPath, Score, filmed, play, score
from scorekeeper.vision.detections import Detections


@pytest.mark.slow
@pytest.mark.parametrize("camera", list(CAMERAS))
@pytest.mark.parametrize("source", list(SOURCES))
def test_every_rest_of_half_a_second_is_taken_and_read_right_and_none_while_dice_move(source: str, camera: str) -> None:
    if source != "rendered":
        shared_data_folder("byler_d6", "images", "labels")
    table, rests = SOURCES[source]()
    clip = filmed(table, rests, CAMERAS[camera], seed=1)
    assert clip.rests is not None and any(not rest.called for rest in clip.rests), "a bounce of 0.3 s is in the clip"
    called = sum(1 for rest in clip.rests if rest.called)
    assert score(clip, play(clip)) == Score(rests=called, taken=called, read_right=called, spurious=0)


def test_a_handheld_path_drifts_on_never_resting_and_turns() -> None:
    moves = HandPath(21).homographies(300, 640, 480)
    centres = np.array([move[:2, :2] @ (320, 240) + move[:2, 2] for move in moves])
    speeds = np.hypot(*np.diff(centres, axis=0).T)
    assert float(np.convolve(speeds, np.ones(15) / 15, "valid").min()) > 0.5, "no half second without drift"
    turns = np.degrees(np.arctan2([move[1, 0] for move in moves], [move[0, 0] for move in moves]))
    assert float(turns.max() - turns.min()) > 1.0


def test_the_camera_turn_is_measured_from_the_table_texture() -> None:
    image = render(Scene(width=640, height=480, dice=(), table=TableLook(kind="wood", seed=4), seed=1, jpeg=0))[0]
    motion = CameraMotion()
    nothing = Detections.empty()
    turn = np.radians(1.0)
    centre = np.array([320.0, 240.0])
    rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    move = np.hstack([rotation, (centre - rotation @ centre + (2.0, -1.0))[:, None]])
    turned = np.asarray(cv2.warpAffine(image, move, (640, 480), borderMode=cv2.BORDER_REFLECT), np.uint8)
    thumb = lambda picture: np.asarray(cv2.resize(cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY), (80, 60), interpolation=cv2.INTER_AREA), np.uint8)  # noqa: E731
    motion.block_change(image, thumb(image), None, nothing)
    motion.block_change(turned, thumb(turned), thumb(image), nothing)
    corners = np.array([[40.0, 40.0, 1.0], [600.0, 440.0, 1.0]])
    assert np.abs(corners @ motion.move.T - corners @ move.T).max() < 1.5


def test_a_lone_die_settles_when_the_camera_turns_about_it() -> None:
    settler = Settler(SettleParams(settle_frames=5))
    die = np.array([[580.0, 400.0, 620.0, 440.0]])
    turn = np.radians(0.4)
    centre = np.array([320.0, 240.0])
    rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    step = np.hstack([rotation, (centre - rotation @ centre)[:, None]])
    events = []
    for _ in range(12):  # the picture turns 0.4 degree a frame: the die, far from the middle, moves 2 px a frame
        middle = (die[:, :2] + die[:, 2:]) / 2
        moved = middle @ rotation.T + step[:, 2]
        die = die + np.tile(moved - middle, 2)
        events += settler.update(Detections(die.astype(np.float32), np.array([5]), np.array([0.9], np.float32)), camera=step)
    assert [event.kind.value for event in events] == ["moving", "settled"]
