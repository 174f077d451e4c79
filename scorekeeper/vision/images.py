"""Image files to BGR uint8 frames: grayscale, 16-bit, float and alpha images are converted, the rest
refused with a message that says what was wrong."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

MAX_PIXELS = 80_000_000
"""Images with more pixels than this are refused (an 8000x6000 photo has 48 M)."""


class ImageError(ValueError):
    """An image file that cannot be turned into a frame."""


def to_bgr8(image: NDArray[np.generic]) -> NDArray[np.uint8]:
    """A BGR uint8 (h, w, 3) frame from a decoded image of any common layout.

    >>> to_bgr8(np.full((2, 2), 65535, np.uint16))[0, 0].tolist()
    [255, 255, 255]
    >>> to_bgr8(np.zeros((2, 2, 4), np.uint8)).shape
    (2, 2, 3)
    """
    if image.ndim == 3 and image.shape[2] == 1:
        image = image[..., 0]
    if image.ndim not in (2, 3) or (image.ndim == 3 and image.shape[2] not in (3, 4)):
        raise ImageError(f"unsupported image layout {image.shape}: expected grey, BGR or BGRA")
    data: NDArray[np.uint8]
    if image.dtype == np.uint8:
        data = image.astype(np.uint8, copy=False)
    elif image.dtype == np.uint16:
        data = (image.astype(np.uint32) * 255 // 65535).astype(np.uint8)
    elif image.dtype in (np.float32, np.float64):
        data = (np.nan_to_num(image.astype(np.float32)).clip(0, 1) * 255 + 0.5).astype(np.uint8)
    else:
        raise ImageError(f"unsupported pixel type {image.dtype}: expected 8- or 16-bit or float")
    if data.ndim == 2:
        data = np.asarray(cv2.cvtColor(data, cv2.COLOR_GRAY2BGR), np.uint8)
    elif data.shape[2] == 4:
        data = np.asarray(cv2.cvtColor(data, cv2.COLOR_BGRA2BGR), np.uint8)
    return np.ascontiguousarray(data)


def load_frame(path: Path) -> NDArray[np.uint8]:
    """Read an image file as a BGR uint8 frame, or raise ImageError saying why not."""
    path = Path(path)
    if not path.exists():
        raise ImageError("no such file")
    if path.is_dir():
        raise ImageError("is a folder, not an image")
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise ImageError(f"cannot read: {exc.strerror}") from None
    if size == 0:
        raise ImageError("empty file")
    try:
        data = np.fromfile(str(path), np.uint8)
    except OSError as exc:
        raise ImageError(f"cannot read: {exc.strerror}") from None
    try:
        # An eighth-size grey decode is cheap: refuse giant images before decoding them whole.
        header = cv2.imdecode(data, cv2.IMREAD_REDUCED_GRAYSCALE_8) if size > 4_000_000 else None
        if header is not None and header.size * 64 > MAX_PIXELS:
            raise ImageError(f"too big: about {header.shape[1] * 8}x{header.shape[0] * 8} px; at most {MAX_PIXELS // 1_000_000} M pixels")
        image = cv2.imdecode(data, cv2.IMREAD_UNCHANGED)
    except cv2.error as exc:
        raise ImageError(f"cannot decode: {str(exc).strip().splitlines()[-1]}") from None
    if image is None:
        raise ImageError("not an image OpenCV can decode (PNG, JPEG, BMP, TIFF, WebP ...)")
    return to_bgr8(image)
