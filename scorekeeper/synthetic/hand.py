"""A player's hand reaching into the frame: drawn over the table and dice, hiding what lies under it."""

from __future__ import annotations

import math

import cv2
import numpy as np

from scorekeeper.synthetic.canvas import Float, noise_field


def draw_hand(h: int, w: int, hand: tuple[float, float, float], rng: np.random.Generator) -> tuple[Float, Float]:
    """The hand at ``hand`` (x, y, radius px) with fingers towards the picture's centre and the arm
    towards its edge: its colour (h, w, 3) and coverage (h, w), both 0..1."""
    x, y, r = hand
    mask = np.zeros((h, w), np.float32)
    cv2.ellipse(mask, (int(x), int(y)), (int(r), int(r * 1.15)), 0, 0, 360, 1.0, -1, cv2.LINE_AA)
    towards = math.atan2(h / 2 - y, w / 2 - x)
    for k in range(5):
        a = towards + (k - 2) * 0.33 + rng.normal(0, 0.05)
        length = r * (1.4 if 0 < k < 4 else 1.0)
        start = (x + math.cos(a) * r * 0.6, y + math.sin(a) * r * 0.6)
        end = (x + math.cos(a) * (r * 0.6 + length), y + math.sin(a) * (r * 0.6 + length))
        cv2.line(mask, (int(start[0]), int(start[1])), (int(end[0]), int(end[1])), 1.0, max(2, int(r * 0.38)), cv2.LINE_AA)
    # the arm, towards the nearest image edge
    away = towards + math.pi
    cv2.line(mask, (int(x), int(y)), (int(x + math.cos(away) * 4 * r), int(y + math.sin(away) * 4 * r)), 1.0, int(r * 1.6), cv2.LINE_AA)
    skin = np.array([rng.uniform(0.35, 0.75), rng.uniform(0.45, 0.8), rng.uniform(0.6, 0.95)], np.float32)
    shade = 0.85 + 0.15 * noise_field(rng, h, w, 3)
    colour = skin * shade[..., None]
    return colour.astype(np.float32), mask
