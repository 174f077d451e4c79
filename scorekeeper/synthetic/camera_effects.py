"""What the camera itself does to a picture of the table: a shift of the whole picture (a hand-held or
bumped camera), defocus, sensor noise and JPEG compression."""

from __future__ import annotations

from typing import cast

import cv2
import numpy as np
from numpy.typing import NDArray

from scorekeeper.synthetic.canvas import Float, f32


def shot(img: Float, shift: tuple[float, float], blur: float, sigma: float, jpeg: int, rng: np.random.Generator) -> NDArray[np.uint8]:
    """``img`` (float BGR, 0..1) as the camera delivers it in 8 bits: shifted by ``shift`` px,
    defocused by a Gaussian of ``blur`` px, with sensor noise of ``sigma`` and JPEG compression at
    quality ``jpeg`` (0: none)."""
    h, w = img.shape[:2]
    if shift != (0.0, 0.0):
        m = np.array([[1, 0, shift[0]], [0, 1, shift[1]]], np.float32)
        img = f32(cv2.warpAffine(img, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT))
    if blur > 0:
        img = f32(cv2.GaussianBlur(img, (0, 0), blur))
    if sigma > 0:
        img = img + rng.standard_normal(img.shape, dtype=np.float32) * np.float32(sigma)
    out: NDArray[np.uint8] = np.clip(img * 255 + 0.5, 0, 255).astype(np.uint8)
    if jpeg > 0:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg)])
        if ok:
            out = cast(NDArray[np.uint8], cv2.imdecode(buf, cv2.IMREAD_COLOR))
    return out
