"""The synthetic scene renderer: deterministic pictures with exact labels."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from scorekeeper.vision import Detections
from scorekeeper.vision.render import (
    DIE_COLOURS,
    LIGHTS,
    DieLook,
    DiePose,
    Scene,
    TableLook,
    at_rest,
    random_look,
    random_scene,
    random_table,
    render,
    render_with_visibility,
)

WHITE = DieLook(body=(240, 240, 240), pips=(20, 20, 20), corner=0.15)


def scene_with(*dice: DiePose, **changes: object) -> Scene:
    base = Scene(width=320, height=240, dice=tuple(dice), table=TableLook(kind="felt", seed=3), seed=5)
    return replace(base, **changes)  # type: ignore[arg-type]


def die(x: float, y: float, value: int = 3, size: float = 40, **changes: object) -> DiePose:
    return replace(DiePose(x=x, y=y, size=size, angle=20, value=value, look=WHITE), **changes)  # type: ignore[arg-type]


def test_same_scene_same_picture_and_labels() -> None:
    scene = random_scene(np.random.default_rng(4))
    first, labels = render(scene)
    second, again = render(scene)
    assert np.array_equal(first, second)
    assert np.array_equal(labels.boxes, again.boxes) and labels.roll() == again.roll()


def test_labels_are_detections_with_one_box_per_die() -> None:
    image, labels = render(scene_with(die(80, 80, 1), die(200, 120, 6), die(260, 60, 4)))
    assert image.shape == (240, 320, 3) and image.dtype == np.uint8
    assert isinstance(labels, Detections)
    assert labels.values.tolist() == [1, 6, 4]
    assert labels.confidences.tolist() == [1.0, 1.0, 1.0]
    for (x0, y0, x1, y1), (cx, cy) in zip(labels.boxes, [(80, 80), (200, 120), (260, 60)]):
        assert x0 < cx < x1 and y0 < cy < y1
        assert 30 <= x1 - x0 <= 60 and 30 <= y1 - y0 <= 60  # a 40 px die turned by 20 degrees


def test_the_die_is_drawn_where_its_box_is() -> None:
    image, labels = render(scene_with(die(160, 120, 5, size=60)))
    x0, y0, x1, y1 = labels.boxes[0].astype(int)
    inside = image[y0:y1, x0:x1].mean()
    table = image[: y0 - 5].mean()
    assert inside > table + 40  # a white die on green felt


def test_a_die_cut_by_the_frame_edge_is_labelled_with_a_clipped_box() -> None:
    _, labels = render(scene_with(die(5, 120, 2)))
    assert labels.roll() == [2]
    x0, _, x1, _ = labels.boxes[0]
    assert x0 == 0 and 25 < x1 < 50  # half the die plus its side face towards the centre


def test_a_die_out_of_the_frame_or_under_a_hand_is_not_labelled() -> None:
    _, labels = render(scene_with(die(-100, 120, 2), die(200, 120, 4), hand=(200, 120, 60)))
    assert len(labels) == 0


def test_tilt_shows_side_faces_inside_the_box() -> None:
    flat = render(scene_with(die(160, 120, 3)))[1].boxes[0]
    tilted = render(scene_with(die(160, 120, 3), tilt=40))[1].boxes[0]
    assert (tilted[3] - tilted[1]) > (flat[3] - flat[1]) * 1.1


def test_a_tumbling_die_is_labelled_with_the_value_it_lands_on() -> None:
    scene = scene_with(die(160, 120, 6, tumble=0.7, motion=(12.0, 4.0)))
    assert scene.dice[0].moving and not at_rest(scene).dice[0].moving
    assert render(scene)[1].roll() == [6]


def test_shift_moves_the_picture_and_the_labels() -> None:
    still = render(scene_with(die(160, 120, 3)))[1].boxes[0]
    moved = render(scene_with(die(160, 120, 3), shift=(10.0, -6.0)))[1].boxes[0]
    assert np.allclose(moved - still, [10, -6, 10, -6], atol=1.0)


def test_visibility_and_pose_index_follow_the_labels() -> None:
    scene = scene_with(die(-100, 120, 2), die(100, 120, 4), die(316, 120, 5))
    _, labels, visible, index = render_with_visibility(scene)
    assert index.tolist() == [1, 2] and labels.values.tolist() == [4, 5]
    assert visible[0] > 0.99 and visible[1] < 0.8


@pytest.mark.parametrize("light", LIGHTS)
def test_every_light_renders(light: str) -> None:
    image, labels = render(scene_with(die(160, 120, 4), light=light))
    assert labels.roll() == [4] and 5 < image.mean() < 250


def test_dim_light_is_darker_than_daylight() -> None:
    day = render(scene_with(die(160, 120, 4)))[0].mean()
    dim = render(scene_with(die(160, 120, 4), light="dim"))[0].mean()
    assert dim < day * 0.7


def test_bad_scene_settings_are_refused_clearly() -> None:
    with pytest.raises(ValueError, match="unknown light 'disco'"):
        render(scene_with(light="disco"))
    with pytest.raises(ValueError, match="unknown table kind 'lava'"):
        render(scene_with(table=TableLook(kind="lava")))
    with pytest.raises(ValueError, match="unknown die colour 'plaid'"):
        random_look(np.random.default_rng(0), "plaid")


def test_random_scenes_cover_the_conditions() -> None:
    rng = np.random.default_rng(11)
    scenes = [random_scene(rng, 640, 480) for _ in range(200)]
    assert {s.light for s in scenes} == set(LIGHTS)
    assert {s.table.kind for s in scenes} == {"wood", "felt", "cloth", "paper", "tray"}
    assert max(s.tilt for s in scenes) > 35 and any(s.hand for s in scenes)
    sizes = [d.size for s in scenes for d in s.dice]
    assert min(sizes) >= 15 and max(sizes) <= 150
    assert random_scene(rng, 320, 200, dice=5).width == 320 and len(random_scene(rng, dice=3).dice) <= 3
    assert {random_table(rng).kind for _ in range(60)} == {"wood", "felt", "cloth", "paper", "tray"}
    looks = [random_look(rng, colour) for colour in DIE_COLOURS]
    assert looks[-2].translucent > 0 and looks[-1].marble is not None


def test_drilled_pips_show_a_shadow_even_when_painted_like_the_body() -> None:
    red = DieLook(body=(40, 30, 170), pips=(40, 30, 170), corner=0.15)
    flat = render(scene_with(die(160, 120, 6, size=80, look=red)))[0]
    drilled = render(scene_with(die(160, 120, 6, size=80, look=replace(red, recess=1.0))))[0]
    face = (slice(100, 141), slice(140, 181))  # the middle of the top face, where the six pips are
    flat_spread, drilled_spread = flat[face].std(axis=(0, 1)).max(), drilled[face].std(axis=(0, 1)).max()
    assert flat_spread < 6  # paint the colour of the body: no pips to see
    assert drilled_spread > 3 * flat_spread + 5  # the holes' walls show them


def test_some_random_dice_have_faint_or_drilled_pips() -> None:
    rng = np.random.default_rng(5)
    looks = [random_look(rng) for _ in range(300)]
    contrast = [abs(np.dot(np.subtract(k.pips, k.body), (0.11, 0.59, 0.3))) for k in looks]
    assert sum(c < 40 for c in contrast) >= 10 and sum(c >= 60 for c in contrast) >= 150
    assert 100 <= sum(k.recess > 0 for k in looks) <= 250
