"""The renderer's drawing basics, shared by every part it draws: the colour and float-picture types,
smooth noise, a colour's random spread and where a patch lands on the picture."""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

BGR = tuple[int, int, int]
Float = NDArray[np.float32]


def f32(array: object) -> Float:
    """``array`` as a float32 picture."""
    return np.asarray(array, np.float32)


def noise_field(rng: np.random.Generator, h: int, w: int, cells: int) -> Float:
    """Smooth noise in 0..1 of shape (h, w), about ``cells`` blobs across."""
    cells = max(2, cells)
    small = rng.random((max(2, cells * h // max(w, 1)), cells)).astype(np.float32)
    return np.asarray(cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC).clip(0, 1), np.float32)


def jitter(colour: BGR, rng: np.random.Generator, amount: float = 18) -> BGR:
    """``colour`` with normal noise of ``amount`` levels added to each channel, kept within 0-255."""
    c = np.clip(np.array(colour) + rng.normal(0, amount, 3), 0, 255).astype(int)
    return (int(c[0]), int(c[1]), int(c[2]))


def paste(dst: Float, src: Float, x0: int, y0: int) -> tuple[tuple[slice, slice], tuple[slice, slice]] | None:
    """Where a patch ``src`` whose top left corner lies at (x0, y0) lands on ``dst``: the slices of
    ``dst`` and of ``src`` that overlap; None where they do not."""
    h, w = dst.shape[:2]
    sh, sw = src.shape[:2]
    ax0, ay0 = max(0, x0), max(0, y0)
    ax1, ay1 = min(w, x0 + sw), min(h, y0 + sh)
    if ax1 <= ax0 or ay1 <= ay0:
        return None
    return (slice(ay0, ay1), slice(ax0, ax1)), (slice(ay0 - y0, ay1 - y0), slice(ax0 - x0, ax1 - x0))
