"""The rendered ``sample_images/`` the tests read: settled rolls in every condition of the renderer.

Regenerate with ``python -m scorekeeper.evaluation.samples sample_images`` (deterministic).
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from scorekeeper.evaluation.dataset import format_yolo_labels
from scorekeeper.safe_output import write_atomically
from scorekeeper.synthetic.light import LIGHTS
from scorekeeper.synthetic.render import render, render_with_visibility
from scorekeeper.synthetic.scene import Scene, random_scene

SAMPLES_SEED = 20_261_130
"""Seed of the sample scenes (never used for training data)."""


def _in_view(scene: Scene) -> bool:
    visible = render_with_visibility(scene)[2]
    return len(visible) == 1 and float(visible[0]) > 0.97


def sample_scenes(count: int = 36, seed: int = SAMPLES_SEED) -> list[Scene]:
    """Settled rolls: every die at rest, 18 px or bigger and cut by neither the frame edge nor a
    hand; lights, tilts and frame sizes taken in turn so each appears."""
    rng = np.random.default_rng(seed)
    scenes = []
    for i in range(count):
        width, height = ((640, 480), (640, 480), (1280, 720), (800, 600))[i % 4]
        scene = random_scene(rng, width, height, dice=int(rng.integers(1, 9)))
        dice = tuple(replace(d, motion=(0.0, 0.0), tumble=0.0, size=max(d.size, 18.0)) for d in scene.dice)
        scene = replace(scene, dice=dice, light=LIGHTS[i % len(LIGHTS)], tilt=float(i % 5) * 9.0)
        # a die counts as in view when neither the frame edge nor a hand cuts it; a touching
        # neighbour hiding its side face is part of a settled roll
        scene = replace(scene, dice=tuple(d for d in scene.dice if _in_view(replace(scene, dice=(d,)))))
        scenes.append(scene)
    return scenes


def write_samples(folder: Path, count: int = 36, seed: int = SAMPLES_SEED) -> int:
    """Render the sample scenes into ``folder/images`` (JPEG) and ``folder/labels`` (YOLO)."""
    (folder / "images").mkdir(parents=True, exist_ok=True)
    (folder / "labels").mkdir(parents=True, exist_ok=True)
    for i, scene in enumerate(sample_scenes(count, seed)):
        image, labels = render(scene)
        stem = f"scene_{i:02d}_{scene.light}_tilt{scene.tilt:.0f}_{scene.table.kind}"
        write_atomically(folder / "images" / f"{stem}.jpg", cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])[1].tobytes())
        write_atomically(folder / "labels" / f"{stem}.txt", format_yolo_labels(labels, scene.width, scene.height))
    return count


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "sample_images")
    print(f"wrote {write_samples(target)} scenes to {target}")
