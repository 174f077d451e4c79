"""Image files to BGR uint8 frames: grayscale, 16-bit, float and alpha images are converted, the rest
refused with a message that says what was wrong."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import cv2
import numpy as np
from numpy.typing import NDArray

from scorekeeper.safe_input import read_file

MAX_PIXELS = 80_000_000
"""Images with more pixels than this are refused (an 8000x6000 photo has 48 M)."""
MAX_IMAGE_BYTES = 256_000_000
"""Image files larger than this are refused unread: a photo of :data:`MAX_PIXELS` kept uncompressed
(BMP, TIFF) takes 240 MB, a JPEG of it a tenth of that."""


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


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    at = 2
    while at + 9 < len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker == 0xFF:
            at += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            at += 2
            continue
        length = int.from_bytes(data[at + 2 : at + 4], "big")
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            return int.from_bytes(data[at + 7 : at + 9], "big"), int.from_bytes(data[at + 5 : at + 7], "big")
        at += 2 + length
    return None


def _tiff_size(data: bytes) -> tuple[int, int] | None:
    order: Literal["little", "big"] = "little" if data[:2] == b"II" else "big"
    offset = int.from_bytes(data[4:8], order)
    count = int.from_bytes(data[offset : offset + 2], order)
    found: dict[int, int] = {}
    for entry in range(count):
        at = offset + 2 + 12 * entry
        tag, kind = int.from_bytes(data[at : at + 2], order), int.from_bytes(data[at + 2 : at + 4], order)
        if tag in (256, 257):
            found[tag] = int.from_bytes(data[at + 8 : at + 10 if kind == 3 else at + 12], order)
    return (found[256], found[257]) if len(found) == 2 else None


def header_size(data: bytes) -> tuple[int, int] | None:
    """Width and height as an image file's header gives them (PNG, JPEG, BMP, GIF, WebP, TIFF),
    without decoding it; None where the header does not say.

    >>> header_size(cv2.imencode(".png", np.zeros((30, 40), np.uint8))[1].tobytes())
    (40, 30)
    >>> header_size(cv2.imencode(".jpg", np.zeros((30, 40, 3), np.uint8))[1].tobytes())
    (40, 30)
    """
    head = bytes(data[:32])
    if head.startswith(b"\x89PNG\r\n\x1a\n") and head[12:16] == b"IHDR":
        return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
    if head.startswith(b"BM") and len(head) >= 26:
        return abs(int.from_bytes(head[18:22], "little", signed=True)), abs(int.from_bytes(head[22:26], "little", signed=True))
    if head[:6] in (b"GIF87a", b"GIF89a"):
        return int.from_bytes(head[6:8], "little"), int.from_bytes(head[8:10], "little")
    if head.startswith(b"RIFF") and head[8:12] == b"WEBP":
        chunk = head[12:16]
        if chunk == b"VP8X":
            return 1 + int.from_bytes(head[24:27], "little"), 1 + int.from_bytes(head[27:30], "little")
        if chunk == b"VP8 ":
            return int.from_bytes(head[26:28], "little") & 0x3FFF, int.from_bytes(head[28:30], "little") & 0x3FFF
        if chunk == b"VP8L":
            bits = int.from_bytes(head[21:25], "little")
            return 1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF)
        return None
    if head.startswith(b"\xff\xd8"):
        return _jpeg_size(bytes(data[: 1 << 20]))
    if head[:4] in (b"II*\x00", b"MM\x00*"):
        return _tiff_size(bytes(data[: 1 << 20]))
    return None


def load_frame(path: Path) -> NDArray[np.uint8]:
    """Read an image file as a BGR uint8 frame, or raise ImageError saying why not."""
    path = Path(path)
    if not path.exists() and not path.is_symlink():
        raise ImageError("no such file")
    try:
        raw = read_file(path, "picture", ImageError, MAX_IMAGE_BYTES)
    except ImageError as exc:
        # the callers name the file: say only what is wrong with it
        raise ImageError(str(exc).removeprefix(f"{path}: ")) from None
    if not raw:
        raise ImageError("empty file")
    data = np.frombuffer(raw, np.uint8)
    size = len(raw)
    dimensions = header_size(data[: 1 << 20].tobytes())
    if dimensions is not None and dimensions[0] * dimensions[1] > MAX_PIXELS:
        raise ImageError(f"too big: {dimensions[0]}x{dimensions[1]} px; at most {MAX_PIXELS // 1_000_000} M pixels")
    try:
        # A header not read above: an eighth-size grey decode is cheap, so refuse giant images
        # before decoding them whole.
        header = cv2.imdecode(data, cv2.IMREAD_REDUCED_GRAYSCALE_8) if dimensions is None and size > 4_000_000 else None
        if header is not None and header.size * 64 > MAX_PIXELS:
            raise ImageError(f"too big: about {header.shape[1] * 8}x{header.shape[0] * 8} px; at most {MAX_PIXELS // 1_000_000} M pixels")
        image = cv2.imdecode(data, cv2.IMREAD_UNCHANGED)
    except cv2.error as exc:
        raise ImageError(f"cannot decode: {str(exc).strip().splitlines()[-1]}") from None
    if image is None:
        raise ImageError("not an image OpenCV can decode (PNG, JPEG, BMP, TIFF, WebP ...)")
    return to_bgr8(image)
