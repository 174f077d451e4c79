"""The light over the table: the light conditions a scene may have, and what each does to the picture
(colour cast, gain, a gradient across the table, vignetting, glare in harsh light, its share of sensor noise)."""

from __future__ import annotations

import math

import cv2
import numpy as np
from numpy.typing import NDArray

from scorekeeper.synthetic.canvas import Float, f32

LIGHTS = ("daylight", "warm", "dim", "harsh")
"""The light conditions ``Scene.light`` accepts."""

_LIGHT_CAST = {"daylight": (1.0, 1.0, 1.0), "warm": (0.72, 0.9, 1.12), "dim": (0.95, 0.95, 1.0), "harsh": (1.02, 1.0, 0.98)}
_LIGHT_GAIN = {"daylight": 1.0, "warm": 0.95, "dim": 0.45, "harsh": 1.15}
_LIGHT_NOISE = {"daylight": 1.0, "warm": 1.2, "dim": 3.0, "harsh": 1.0}


def light_direction(rng: np.random.Generator) -> NDArray[np.float64]:
    """A random unit direction (x, y) the light comes from, across the picture."""
    light_angle = rng.uniform(0, 2 * math.pi)
    return np.array([math.cos(light_angle), math.sin(light_angle)])


def lit(img: Float, light: str, exposure: float, light_dir: NDArray[np.float64], rng: np.random.Generator) -> Float:
    """``img`` under ``light`` (one of ``LIGHTS``) from ``light_dir`` at gain ``exposure``: colour cast,
    overall gain, a gradient across the table, vignetting, and glare for harsh light."""
    h, w = img.shape[:2]
    harsh = light == "harsh"
    yy, xx = np.ogrid[0:h, 0:w]
    yy, xx = yy.astype(np.float32), xx.astype(np.float32)
    gradient = 1 + 0.25 * ((xx / w - 0.5) * light_dir[0] + (yy / h - 0.5) * light_dir[1])
    vignette = 1 - 0.25 * (((xx / w - 0.5) ** 2 + (yy / h - 0.5) ** 2) * 2)
    gain = gradient * vignette * _LIGHT_GAIN[light] * exposure
    img = img * gain[..., None] * np.array(_LIGHT_CAST[light], np.float32)
    if harsh:
        glare = np.zeros((h, w), np.float32)
        cv2.circle(glare, (int(rng.uniform(0, w)), int(rng.uniform(0, h))), int(min(h, w) * rng.uniform(0.05, 0.2)), 1.0, -1)
        glare = f32(cv2.GaussianBlur(glare, (0, 0), min(h, w) * 0.06))
        img = img + glare[..., None] * 0.35
    return img


def noise_sigma(light: str, noise: float) -> float:
    """The sensor noise's sigma on 0..1 levels under ``light``, for a sensor whose own is ``noise`` 8-bit levels."""
    return (noise * _LIGHT_NOISE[light]) / 255
