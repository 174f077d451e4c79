"""A scene, everything needed to draw one frame (the dice, the table, the light, the camera), and the
random scenes training, evaluation and tests draw: laid out afresh or settled."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from scorekeeper.synthetic.die import DiePose, random_look
from scorekeeper.synthetic.layout import lay_out
from scorekeeper.synthetic.light import LIGHTS
from scorekeeper.synthetic.table import TableLook, random_table


@dataclass(frozen=True)
class Scene:
    """Everything needed to draw one frame."""

    width: int
    """Image width, px."""
    height: int
    """Image height, px."""
    dice: tuple[DiePose, ...]
    """The dice (labels follow this order; the drawing order is the camera's, see ``render.drawing_order``);
    at most one of them is the wild die."""
    table: TableLook = field(default_factory=TableLook)
    """The table."""
    tilt: float = 0.0
    """Camera tilt from straight down, degrees (0-45): dice show side faces."""
    light: str = "daylight"
    """One of ``LIGHTS``: daylight, warm, dim, harsh (glare)."""
    exposure: float = 1.0
    """Gain: auto-exposure jumps are a change of this between frames."""
    shift: tuple[float, float] = (0.0, 0.0)
    """Whole-picture shift in px (hand-held / bumped camera)."""
    hand: tuple[float, float, float] | None = None
    """A hand in the frame: (x, y, radius) px, drawn over the table and dice."""
    seed: int = 0
    """Sensor noise, JPEG artefacts, glare."""
    blur: float = 0.0
    """Camera defocus, Gaussian sigma in px."""
    noise: float = 2.0
    """Sensor noise, sigma in 8-bit levels before the light's own share."""
    jpeg: int = 88
    """JPEG quality of the camera's compression, 0 for none."""


HUDDLED_SHARE = 0.3
"""Share of random scenes whose dice lie against each other: a finder that has only seen dice
apart boxes two touching dice as one, or half of each."""


def relaid(scene: Scene, huddled: bool, rng: np.random.Generator) -> Scene:
    """The same dice (looks, values, sizes) laid out afresh, apart or huddled; dice that find no
    room are left out."""
    spots = lay_out([d.size for d in scene.dice], scene.tilt, scene.width, scene.height, huddled, rng)
    return replace(scene, dice=tuple(replace(scene.dice[i], x=x, y=y, angle=angle) for i, x, y, angle in spots))


def random_scene(rng: np.random.Generator, width: int = 640, height: int = 480, dice: int | None = None) -> Scene:
    """A random frame: 1-12 dice (or ``dice``) of one size class, not overlapping, some cut by the
    frame edge, on a random table under a random light and tilt. In ``HUDDLED_SHARE`` of the
    frames the dice lie in touching groups, as thrown dice often come to rest."""
    n = int(rng.integers(1, 13)) if dice is None else int(dice)
    scale = min(width, height) / 480
    size = float(np.exp(rng.uniform(math.log(16), math.log(80)))) * max(scale, 0.5)
    size = float(np.clip(size, 15, 150))
    tilt = 0.0 if rng.random() < 0.4 else float(rng.uniform(0, 45))
    same_set = rng.random() < 0.4
    set_look = random_look(rng)
    huddled = rng.random() < HUDDLED_SHARE
    sizes = np.clip(size * rng.uniform(0.9, 1.1, n), 15, 150)
    poses: list[DiePose] = []
    for i, x, y, angle in lay_out([float(v) for v in sizes], tilt, width, height, huddled, rng):
        s = float(sizes[i])
        tumbling = rng.random() < 0.06
        motion = (float(rng.normal(0, s * 0.3)), float(rng.normal(0, s * 0.3))) if tumbling or rng.random() < 0.05 else (0.0, 0.0)
        poses.append(
            DiePose(
                x=x,
                y=y,
                size=s,
                angle=angle,
                value=int(rng.integers(1, 7)),
                look=set_look if same_set else random_look(rng),
                motion=motion,
                tumble=float(rng.uniform(0.3, 0.9)) if tumbling else 0.0,
            )
        )
    hand = None
    if rng.random() < 0.1:
        hand = (float(rng.uniform(0, width)), float(rng.uniform(0, height)), float(min(width, height) * rng.uniform(0.08, 0.15)))
    return Scene(
        width=width,
        height=height,
        dice=tuple(poses),
        table=random_table(rng),
        tilt=tilt,
        light=str(rng.choice(LIGHTS, p=[0.4, 0.25, 0.15, 0.2])),
        exposure=float(rng.uniform(0.8, 1.2)),
        shift=(0.0, 0.0),
        hand=hand,
        seed=int(rng.integers(0, 2**31)),
        blur=float(rng.uniform(0.5, 2.0)) if rng.random() < 0.25 else 0.0,
        noise=float(rng.uniform(0.5, 4.0)),
        jpeg=int(rng.integers(55, 96)) if rng.random() < 0.8 else 0,
    )


def at_rest(scene: Scene) -> Scene:
    """The same scene with every die resting flat and still (the settled roll)."""
    return replace(scene, dice=tuple(replace(d, motion=(0.0, 0.0), tumble=0.0) for d in scene.dice))
