"""The synthetic scene renderer: deterministic pictures with exact labels."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from scorekeeper.vision import Detections
from scorekeeper.synthetic.die import DIE_COLOURS, DieLook, DiePose, random_look
from scorekeeper.synthetic.layout import faces_overlap
from scorekeeper.synthetic.light import LIGHTS
from scorekeeper.synthetic.perspective import top_face, view_at
from scorekeeper.synthetic.render import render, render_with_visibility
from scorekeeper.synthetic.scene import Scene, at_rest, random_scene, relaid
from scorekeeper.synthetic.table import TableLook, random_table

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
    assert x0 == 0 and 20 < x1 < 35  # the half of the top face inside the frame


def test_a_die_out_of_the_frame_or_under_a_hand_is_not_labelled() -> None:
    _, labels = render(scene_with(die(-100, 120, 2), die(200, 120, 4), hand=(200, 120, 60)))
    assert len(labels) == 0


def test_the_box_frames_the_top_face_and_leaves_a_tilted_views_side_faces_out() -> None:
    flat = render(scene_with(die(160, 120, 3, angle=0)))[1]
    tilted_image, tilted = render(scene_with(die(160, 120, 3, angle=0), tilt=40, noise=0.0, jpeg=0))
    x0, y0, x1, y1 = tilted.boxes[0]
    assert abs((x1 - x0) - 40) < 3 and abs((y1 - y0) - 40 * np.cos(np.radians(40))) < 3
    assert (flat.boxes[0][3] - flat.boxes[0][1]) > (y1 - y0) * 1.2
    # the shaded side face shows below the top face (towards the point under the camera), outside the box
    below = tilted_image[int(y1) + 2 : int(y1) + 12, int(x0) + 5 : int(x1) - 5].mean()
    assert tilted_image[:20].mean() + 40 < below < tilted_image[int(y0) + 3 : int(y1) - 3, int(x0) + 3 : int(x1) - 3].mean() - 20


def test_for_training_the_box_frames_the_whole_die_as_the_labelled_photos_do() -> None:
    # the labelled photos (byler_d6, dice3, rune55) frame the whole die as seen, side faces included
    tilted = scene_with(die(160, 120, 3, angle=0), tilt=40, noise=0.0, jpeg=0)
    face = render_with_visibility(tilted)[1].boxes[0]
    whole = render_with_visibility(tilted, whole_die=True)[1].boxes[0]
    assert whole[3] - whole[1] > (face[3] - face[1]) + 8  # the side face below the top face
    assert whole[0] <= face[0] and whole[1] <= face[1] and whole[2] >= face[2] and whole[3] >= face[3]
    # straight down, a die under the camera shows no side: the two boxes are one
    flat = scene_with(die(160, 120, 3, angle=0), noise=0.0, jpeg=0)
    assert np.abs(render_with_visibility(flat)[1].boxes - render_with_visibility(flat, whole_die=True)[1].boxes).max() <= 1
    # a die whose top face is hidden is still not labelled, however much of its side shows
    assert render_with_visibility(scene_with(die(-100, 120, 2)), whole_die=True)[1].roll() == []


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


def test_a_see_through_die_shows_its_bottom_faces_pips_through_its_top_face() -> None:
    smoke = DieLook(body=(45, 40, 50), pips=(40, 30, 190), corner=0.15)
    table = TableLook(kind="paper", color=(200, 200, 200), color2=(190, 190, 190), seed=3)

    def redness_at_centre(look: DieLook) -> float:
        # a 6 on top: no top pip at the centre, where the bottom face's single pip lies
        picture = render(scene_with(die(160, 120, 6, size=80, angle=0, look=look), table=table, noise=0.0, jpeg=0))[0]
        centre = picture[116:125, 156:165].astype(float)
        return float((centre[..., 2] - centre[..., :2].mean(-1)).mean())

    opaque, smoky = redness_at_centre(smoke), redness_at_centre(replace(smoke, translucent=0.4))
    assert opaque < 10  # the body is a little purple
    assert smoky > opaque + 10
    assert smoky < 190 - 40 - 20  # a ghost, fainter than a red pip on top


def test_some_random_dice_have_faint_or_drilled_pips() -> None:
    rng = np.random.default_rng(5)
    looks = [random_look(rng) for _ in range(300)]
    contrast = [abs(np.dot(np.subtract(k.pips, k.body), (0.11, 0.59, 0.3))) for k in looks]
    assert sum(c < 40 for c in contrast) >= 10 and sum(c >= 60 for c in contrast) >= 150
    assert 100 <= sum(k.recess > 0 for k in looks) <= 250


def _nearest_gap(scene: Scene) -> list[float]:
    """Per die: centre distance to its nearest neighbour, in its own sides."""
    return [min((float(np.hypot(d.x - o.x, d.y - o.y)) / d.size for o in scene.dice if o is not d), default=np.inf) for d in scene.dice]


def test_some_random_scenes_have_touching_dice_and_no_scene_has_overlapping_ones() -> None:
    rng = np.random.default_rng(12)
    scenes = [random_scene(rng, 640, 480) for _ in range(120)]
    touching = [s for s in scenes if len(s.dice) > 1 and min(_nearest_gap(s)) < 1.2]
    assert 0.15 * len(scenes) < len(touching) < 0.5 * len(scenes)
    for scene in scenes:
        faces = [top_face(d.x, d.y, d.size, d.angle, scene.tilt, scene.width, scene.height) for d in scene.dice]
        assert not any(faces_overlap(a, b) for i, a in enumerate(faces) for b in faces[i + 1 :])


def test_relaid_keeps_the_dice_and_moves_them_together_or_apart() -> None:
    scene = random_scene(np.random.default_rng(3), dice=8)
    huddled = relaid(scene, True, np.random.default_rng(1))
    apart = relaid(scene, False, np.random.default_rng(1))
    assert [(d.value, d.look, d.size) for d in huddled.dice] == [(d.value, d.look, d.size) for d in scene.dice]
    assert np.median(_nearest_gap(huddled)) < 1.2 < min(_nearest_gap(apart))


def test_a_die_nearer_the_point_under_the_camera_hides_its_neighbours_side_face() -> None:
    red = DieLook(body=(40, 40, 200), pips=(240, 240, 240), corner=0.1)
    tilt = 40.0
    near = die(160, 150, 5, size=50, angle=0)
    # the faces are foreshortened by the view's cosine halfway between the two centres
    far = die(160, 150 - 50 * view_at(160, 130, 320, 240, tilt)[0] * 1.02, 2, size=50, angle=0, look=red)
    # listed last, the far red die would once have been painted over the white one
    image, labels = render(scene_with(near, far, tilt=tilt, light="daylight", noise=0.0, jpeg=0))
    top_edge = image[130:136, 145:175].reshape(-1, 3).mean(0)
    assert top_edge.min() > 150  # white top face, not the red side face
    assert labels.values.tolist() == [5, 2]
    assert labels.boxes[1, 3] < labels.boxes[0, 1] + 1  # the top faces' boxes do not overlap


def _side_depth_and_face_height(y: float, tilt: float) -> tuple[int, float]:
    """Rows of a lone white die's picture below its top face's box, and that box's height."""
    scene = scene_with(die(160, y, 5, size=40, angle=0), tilt=tilt, light="daylight", noise=0.0, jpeg=0, table=TableLook(kind="felt", color=(40, 60, 30), seed=3))
    image, labels = render(scene)
    rows = np.nonzero((image[:, 130:190].min(axis=2) > 90).any(axis=1))[0]
    box = labels.boxes[0]
    return int(rows.max() + 1 - box[3]), float(box[3] - box[1])


def test_a_tilted_camera_sees_dice_at_the_top_of_its_picture_from_the_side_and_at_the_bottom_from_above() -> None:
    far_side, far_face = _side_depth_and_face_height(45, 40.0)
    near_side, near_face = _side_depth_and_face_height(200, 40.0)
    assert far_side > 1.8 * near_side > 0
    assert far_face < 0.85 * near_face
    # looking straight down, a die under the camera shows no side at all
    assert _side_depth_and_face_height(120, 0.0)[0] <= 1
