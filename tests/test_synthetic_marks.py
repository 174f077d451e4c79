"""Issue 54's marked dice on the renderer and the demo table: a wild die with a body colour of its
own, red pips on one face of each die, and labels that say which is which; plain scenes unchanged."""

from __future__ import annotations

import hashlib
from dataclasses import replace

import cv2
import numpy as np
import pytest

from scorekeeper.testbed.films import demo_labels
from scorekeeper.camera.demo_table import DEMO_LOOKS, DEMO_WILD_LOOKS, Choreography, DemoTable
from scorekeeper.synthetic.die import DieLook, DiePose
from scorekeeper.synthetic.render import render
from scorekeeper.synthetic.scene import Scene, random_scene
from scorekeeper.synthetic.table import TableLook
from scorekeeper.vision.detections import Detections

WHITE = DieLook(body=(240, 240, 240), pips=(20, 20, 20), corner=0.15)
BLUE = DieLook(body=(190, 90, 30), pips=(240, 240, 240), corner=0.15)


def scene_with(*dice: DiePose) -> Scene:
    return Scene(width=320, height=240, dice=dice, table=TableLook(kind="felt", seed=3), seed=5, noise=0.0, jpeg=0)


def die(x: float, y: float, value: int, look: DieLook = WHITE, wild: bool = False) -> DiePose:
    return DiePose(x=x, y=y, size=50, angle=15, value=value, look=look, wild=wild)


def red_pixels(image: np.ndarray, box: np.ndarray) -> int:
    """Pixels in the middle of ``box`` (the top face of a 50 px die, not the side faces beside it)
    whose hue is red and saturated: the red pips."""
    cx, cy = int((box[0] + box[2]) / 2), int((box[1] + box[3]) / 2)
    x0, y0, x1, y1 = cx - 17, cy - 17, cx + 17, cy + 17
    hsv = cv2.cvtColor(np.ascontiguousarray(image[y0:y1, x0:x1]), cv2.COLOR_BGR2HSV)
    hue, sat, val = hsv[..., 0].astype(int), hsv[..., 1].astype(int), hsv[..., 2].astype(int)
    return int((((hue < 8) | (hue > 170)) & (sat > 120) & (val > 80)).sum())


def test_plain_scenes_and_the_plain_demo_table_render_as_before() -> None:
    # Digests of the pictures and labels the renderer drew before dice could be marked.
    digest = hashlib.blake2b(digest_size=16)
    for seed in range(6):
        image, labels = render(random_scene(np.random.default_rng(seed), 320, 240))
        digest.update(image.tobytes())
        digest.update(labels.boxes.tobytes())
        digest.update(labels.values.tobytes())
        assert set(labels.marks) <= {""}
    assert digest.hexdigest() == "85b84522a5011c619bc037497f13b8fd"
    digest = hashlib.blake2b(digest_size=16)
    table = DemoTable(320, 240, seed=7, realtime=False)
    table.expect(6)
    for i in range(70):
        frame = table.read()
        assert frame is not None and frame.truth is not None
        if i % 7 == 0:
            digest.update(frame.image.tobytes())
            digest.update(frame.truth.values.tobytes())
    assert digest.hexdigest() == "df01b986e96c3be53d19febf8e3207aa"


def test_the_red_face_shows_red_pips_and_the_other_faces_do_not() -> None:
    spicy = replace(WHITE, red_face=5)
    image, labels = render(scene_with(die(80, 120, 5, spicy), die(220, 120, 4, spicy)))
    assert labels.marks == ("r", "")
    assert red_pixels(image, labels.boxes[0]) > 60
    assert red_pixels(image, labels.boxes[1]) == 0
    assert labels.values.tolist() == [5, 4]


def test_the_wild_die_has_its_own_body_colour_and_is_labelled() -> None:
    wild = replace(BLUE, red_face=1)
    image, labels = render(scene_with(die(70, 70, 3), die(170, 150, 1, wild, wild=True), die(260, 70, 1)))
    assert labels.marks == ("", "wr", "")
    means = [image[int(y0) + 8 : int(y1) - 8, int(x0) + 8 : int(x1) - 8].reshape(-1, 3).mean(0) for x0, y0, x1, y1 in labels.boxes]
    assert means[1][0] > means[1][2] + 60  # blue body
    assert abs(means[0][0] - means[0][2]) < 20 and abs(means[2][0] - means[2][2]) < 20  # white bodies
    assert red_pixels(image, labels.boxes[1]) > 20


def test_marked_dice_are_refused_where_they_cannot_be() -> None:
    with pytest.raises(ValueError, match="red face must be 1-6, got 7"):
        DieLook(body=(1, 2, 3), pips=(4, 5, 6), red_face=7)
    with pytest.raises(ValueError, match="at most one wild die, got 2"):
        render(scene_with(die(80, 120, 1, wild=True), die(220, 120, 2, BLUE, wild=True)))
    with pytest.raises(ValueError, match="one mark per die.*got \\['x'\\]"):
        Detections(np.array([[0, 0, 9, 9]]), np.array([1]), np.array([1.0]), marks=("x",))
    with pytest.raises(ValueError, match="at most one wild die, got marks \\['w', 'wr'\\]"):
        Detections(np.array([[0, 0, 9, 9]] * 2), np.array([1, 2]), np.array([1.0, 1.0]), marks=("w", "wr"))


def test_detections_carry_their_marks_through_picks_and_json() -> None:
    found = Detections(np.array([[0, 0, 9, 9]] * 3), np.array([1, 5, 2]), np.array([0.9, 0.3, 0.8]), marks=("w", "r", ""))
    assert found[np.array([False, True, True])].marks == ("r", "")
    assert found.held_to(0.95).marks == ("w", "r", "")
    assert [die.get("mark") for die in found.to_json()] == ["w", "r", None]
    assert Detections(np.array([[0, 0, 9, 9]]), np.array([4]), np.array([1.0])).marks == ("",)


def test_a_choreography_throws_the_looks_and_the_wild_die_it_is_given() -> None:
    film = Choreography(320, 240, seed=2, look=WHITE)
    film.throw([1, 5, 3], frames=10, looks=[WHITE, replace(WHITE, red_face=5), BLUE], wild=2)
    film.rest(2)
    labels = render(film.scenes[-1])[1]
    assert sorted(zip(labels.values.tolist(), labels.marks)) == [(1, ""), (3, "w"), (5, "r")]
    with pytest.raises(ValueError, match="a second one"):
        film.throw([2], frames=4, looks=[BLUE], wild=0)
    with pytest.raises(ValueError, match="one look per die, got 1 looks for 2 dice"):
        film.throw([2, 3], frames=4, looks=[BLUE])


def test_the_demo_table_throws_a_wild_die_and_red_faces_when_asked() -> None:
    table = DemoTable(320, 240, seed=4, realtime=False, wild=True, spicy=True)
    table.expect(6)
    labels = demo_labels(table, 400)
    full = [found for found in labels if len(found) == 6]
    assert full and all(sum("w" in mark for mark in found.marks) == 1 for found in full)
    assert any("r" in mark for found in labels for mark in found.marks)
    table.expect_wild(False)
    table.expect(6)  # the game asks for the next throw, the wild die not among its dice
    later = demo_labels(table, 400)
    assert not any("w" in mark for found in later[200:] for mark in found.marks)
    assert any(len(found) == 6 for found in later[200:])


def test_the_wild_die_looks_other_than_its_set_and_spicy_sets_are_not_red() -> None:
    assert len(DEMO_WILD_LOOKS) == len(DEMO_LOOKS)
    for look, wild in zip(DEMO_LOOKS, DEMO_WILD_LOOKS):
        assert np.abs(np.array(look.body) - np.array(wild.body)).max() > 100
    for seed in range(12):
        table = DemoTable(320, 240, seed=seed, realtime=False, spicy=True)
        assert table._film.look not in (DEMO_LOOKS[1], DEMO_LOOKS[2])  # red bodies, red pips
        assert table.wild_look == DEMO_WILD_LOOKS[DEMO_LOOKS.index(table._film.look)]  # blue among white dice
