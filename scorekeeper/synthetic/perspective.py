"""How the renderer's camera sees the table: its focal length, the point under it, how steeply it
sees a die at each place in the picture, and the outline of a die's top face there."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from scorekeeper.synthetic.canvas import Float


def _focal(width: int, height: int) -> float:
    """The camera's focal length, px: a webcam's field of view of about 60 degrees."""
    return 0.9 * max(width, height)


def nadir(width: int, height: int, tilt: float) -> tuple[float, float]:
    """Where the point of the table straight under the camera lies in the image (below the frame
    when the camera tilts)."""
    return width / 2, height / 2 + _focal(width, height) * math.tan(math.radians(float(np.clip(tilt, 0, 60))))


def view_at(x: float, y: float, width: int, height: int, tilt: float) -> tuple[float, NDArray[np.float64]]:
    """How the camera sees a die resting at image point (x, y): the cosine of the angle between its
    ray to the die and the vertical, and the unit image direction from the die towards the point
    under the camera. A die's side faces show on that side, as deep as the sine of that angle, and
    its top face is foreshortened along that direction by the cosine: a camera tilted forward sees
    dice at the top of its picture steeply from the side, dice at the bottom almost from above.

    >>> cos, towards = view_at(320, 240, 640, 480, 0.0)
    >>> round(cos, 3), towards.tolist()
    (1.0, [0.0, 1.0])
    >>> [round(view_at(320, y, 640, 480, 45.0)[0], 2) for y in (0, 240, 480)]
    [0.38, 0.71, 0.92]
    """
    t = math.radians(float(np.clip(tilt, 0, 60)))
    ray = np.array([x - width / 2, y - height / 2, _focal(width, height)])
    cos = float(np.dot(ray, [0.0, math.sin(t), math.cos(t)]) / np.linalg.norm(ray))
    to_nadir = np.array(nadir(width, height, tilt)) - np.array([x, y])
    dist = float(np.hypot(*to_nadir))
    towards = to_nadir / dist if dist > 1e-6 else np.array([0.0, 1.0])
    return float(np.clip(cos, 0.05, 1.0)), towards


def face_map(size: float, angle: float, axis: NDArray[np.float64], squash: float) -> NDArray[np.float64]:
    """The top face's linear map from unit face coords to image px: turned by ``angle`` degrees,
    then foreshortened by ``squash`` along ``axis``."""
    a = math.radians(angle)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    ax = axis.reshape(2, 1)
    compress = np.eye(2) - (1 - squash) * (ax @ ax.T)
    result: NDArray[np.float64] = compress @ rot * size
    return result


def top_face(x: float, y: float, size: float, angle: float, tilt: float, width: int, height: int) -> Float:
    """Corners (4, 2) of the top face of a die resting at (x, y) in a ``width`` x ``height``
    picture: a square turned by ``angle`` degrees, foreshortened as the camera's ``tilt`` shows it
    there (``view_at``)."""
    cos, towards = view_at(x, y, width, height, tilt)
    square = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])
    corners: Float = (square @ face_map(size, angle, towards, cos).T + np.array([x, y])).astype(np.float32)
    return corners
