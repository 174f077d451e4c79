"""Rendering a scene: the table, the dice drawn in the camera's order with their shadows, a hand, the
light and the camera's own marks, and the exact labels of the dice whose top faces show.

Feeds the reader's training and tests, ``sample_images/`` and the window's demo table.
Pure numpy + OpenCV; deterministic for a given scene (all noise is seeded from ``Scene.seed``
and ``TableLook.seed``).

>>> from scorekeeper.synthetic.scene import random_scene
>>> rng = np.random.default_rng(1)
>>> scene = random_scene(rng, 320, 240, dice=3)
>>> image, labels = render(scene)
>>> image.shape, image.dtype, len(labels)
((240, 320, 3), dtype('uint8'), 3)
>>> bool(np.array_equal(image, render(scene)[0]))
True
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from scorekeeper.synthetic.camera_effects import shot
from scorekeeper.synthetic.canvas import paste
from scorekeeper.synthetic.die import draw_die
from scorekeeper.synthetic.hand import draw_hand
from scorekeeper.synthetic.light import LIGHTS, light_direction, lit, noise_sigma
from scorekeeper.synthetic.perspective import nadir
from scorekeeper.synthetic.scene import Scene
from scorekeeper.synthetic.table import TABLE_KINDS, draw_table
from scorekeeper.vision.detections import Detections


def render(scene: Scene) -> tuple[NDArray[np.uint8], Detections]:
    """BGR uint8 image (height, width, 3) and the exact labels: one box (x0, y0, x1, y1 in image
    pixels), value and mark (the wild die, red pips on top: ``DiePose.mark``) per die whose top face
    is at least partly visible, confidence 1.0. The box
    frames the visible part of the top face, the face that is read: side faces of a tilted view lie
    outside it, as in hand-labelled photos, and the boxes of touching dice do not overlap. A
    tumbling die is still labelled, with the value it will land on."""
    image, labels, _, _ = render_with_visibility(scene)
    return image, labels


def drawing_order(scene: Scene) -> list[int]:
    """Indices of ``scene.dice`` in the order they are drawn: resting dice farthest from the point
    under the camera first, because a die's side faces show on the side towards that point, where
    a touching neighbour hides them; dice in the air last."""
    nx, ny = nadir(scene.width, scene.height, scene.tilt)
    return sorted(range(len(scene.dice)), key=lambda i: (scene.dice[i].tumble > 0, -math.hypot(scene.dice[i].x - nx, scene.dice[i].y - ny)))


def render_with_visibility(
    scene: Scene, whole_die: bool = False
) -> tuple[NDArray[np.uint8], Detections, NDArray[np.float32], NDArray[np.int64]]:
    """Like ``render``, plus the visible share (0-1) of each labelled die's top face and the index
    of its pose in ``scene.dice``: training drops dice that are mostly hidden (frame edge, hand,
    another die) or moving. With ``whole_die`` each box frames the visible part of the whole die,
    its side faces in view included, as the labelled photos frame their dice: the training recipe's
    one box convention."""
    if scene.width < 8 or scene.height < 8:
        raise ValueError(f"scene must be at least 8x8 px, got {scene.width}x{scene.height}")
    if scene.light not in LIGHTS:
        raise ValueError(f"unknown light {scene.light!r}; use one of {', '.join(LIGHTS)}")
    if scene.table.kind not in TABLE_KINDS:
        raise ValueError(f"unknown table kind {scene.table.kind!r}; use one of {', '.join(TABLE_KINDS)}")
    if sum(pose.wild for pose in scene.dice) > 1:
        raise ValueError(f"a scene holds at most one wild die, got {sum(pose.wild for pose in scene.dice)}")
    rng = np.random.default_rng(scene.seed)
    h, w = scene.height, scene.width
    harsh = scene.light == "harsh"
    light_dir = light_direction(rng)

    img = draw_table(scene.table, h, w)
    sprites = [draw_die(pose, scene.width, scene.height, scene.tilt, light_dir, harsh, rng) for pose in scene.dice]
    order = drawing_order(scene)
    for sprite in sprites:
        if sprite is None:
            continue
        where = paste(img, sprite.shadow, sprite.x0, sprite.y0)
        if where:
            img[where[0]] *= (1 - sprite.shadow[where[1]])[..., None]
    for sprite in (sprites[i] for i in order):
        if sprite is None:
            continue
        where = paste(img, sprite.alpha, sprite.x0, sprite.y0)
        if where:
            a = sprite.alpha[where[1]][..., None]
            img[where[0]] = img[where[0]] * (1 - a) + sprite.colour[where[1]]

    covered = np.zeros((h, w), np.float32)
    if scene.hand is not None:
        colour, mask = draw_hand(h, w, scene.hand, rng)
        img = img * (1 - mask[..., None]) + colour * mask[..., None]
        covered = mask.copy()

    img = lit(img, scene.light, scene.exposure, light_dir, rng)

    # Labels: each die's visible coverage, topmost first (hand, then the dice last drawn).
    boxes: list[list[float]] = []
    values: list[int] = []
    visible: list[float] = []
    index: list[int] = []
    for number in reversed(order):
        pose, sprite = scene.dice[number], sprites[number]
        if sprite is None:
            continue
        where = paste(covered, sprite.alpha, sprite.x0, sprite.y0)
        if where is None:
            continue
        own, face = sprite.alpha[where[1]], sprite.face[where[1]]
        seen = face * (1 - covered[where[0]])
        framed = own * (1 - covered[where[0]]) if whole_die else seen
        covered[where[0]] = np.maximum(covered[where[0]], own)
        if not (seen > 0.5).any():
            continue
        ys, xs = np.nonzero(framed > 0.5)
        ox, oy = where[0][1].start, where[0][0].start
        boxes.append([float(xs.min() + ox + scene.shift[0]), float(ys.min() + oy + scene.shift[1]), float(xs.max() + ox + 1 + scene.shift[0]), float(ys.max() + oy + 1 + scene.shift[1])])
        values.append(pose.value)
        visible.append(float((seen > 0.5).sum()) / max(1.0, float((sprite.face > 0.5).sum())))
        index.append(number)
    by_pose = np.argsort(np.array(index, np.int64), kind="stable")
    boxes, values, visible, index = [boxes[i] for i in by_pose], [values[i] for i in by_pose], [visible[i] for i in by_pose], [index[i] for i in by_pose]
    marks = [scene.dice[number].mark for number in index]

    out = shot(img, scene.shift, scene.blur, noise_sigma(scene.light, scene.noise), scene.jpeg, rng)

    arr = np.array(boxes, np.float32).reshape(-1, 4)
    arr[:, [0, 2]] = arr[:, [0, 2]].clip(0, w)
    arr[:, [1, 3]] = arr[:, [1, 3]].clip(0, h)
    keep = (arr[:, 2] > arr[:, 0]) & (arr[:, 3] > arr[:, 1])
    kept_marks = tuple(mark for mark, kept in zip(marks, keep) if kept)
    labels = Detections(arr[keep], np.array(values, np.int64)[keep], np.ones(int(keep.sum()), np.float32), marks=kept_marks)
    return out, labels, np.array(visible, np.float32)[keep], np.array(index, np.int64)[keep]
