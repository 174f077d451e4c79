"""Where dice come to rest on the table: spots for dice apart or huddled against each other, their top
faces never overlapping."""

from __future__ import annotations

import math

import numpy as np

from scorekeeper.synthetic.canvas import Float
from scorekeeper.synthetic.perspective import face_map, top_face, view_at


def faces_overlap(a: Float, b: Float) -> bool:
    """Whether two convex outlines overlap (separating axis test; touching edges do not count).

    >>> square = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    >>> faces_overlap(square, square + 0.5), faces_overlap(square, square + [1.0, 0.0])
    (True, False)
    """
    for poly in (a, b):
        edges = np.roll(poly, -1, axis=0) - poly
        for normal in np.stack([-edges[:, 1], edges[:, 0]], 1):
            pa, pb = a @ normal, b @ normal
            if pa.max() <= pb.min() + 1e-6 or pb.max() <= pa.min() + 1e-6:
                return False
    return True


def touching_spot(
    placed: list[tuple[float, float, float, float]], size: float, tilt: float, width: int, height: int, rng: np.random.Generator
) -> tuple[float, float, float] | None:
    """Centre and angle for a die resting against one already placed (face to face, slightly
    offset, often turned alike), overlapping none; None when no such spot is found."""
    faces = [top_face(px, py, ps, pa, tilt, width, height) for px, py, ps, pa in placed]
    for _attempt in range(30):
        ax, ay, asize, aangle = placed[int(rng.integers(len(placed)))]
        angle = aangle + float(rng.normal(0, 8)) if rng.random() < 0.6 else float(rng.uniform(0, 360))
        side = math.radians(aangle + 90 * int(rng.integers(4)))
        along = (asize + size) / 2 * (1 + float(rng.uniform(0.0, 0.08)))
        slide = float(rng.uniform(-0.45, 0.45)) * size
        on_table = np.array([math.cos(side) * along - math.sin(side) * slide, math.sin(side) * along + math.cos(side) * slide])
        cos, towards = view_at(ax, ay, width, height, tilt)
        dx, dy = face_map(1.0, 0.0, towards, cos) @ on_table
        x, y = ax + float(dx), ay + float(dy)
        if not (size * 0.5 <= x <= width - size * 0.5 and size * 0.5 <= y <= height - size * 0.5):
            continue
        face = top_face(x, y, size, angle, tilt, width, height)
        if not any(faces_overlap(face, other) for other in faces):
            return x, y, angle
    return None


def lay_out(
    sizes: list[float], tilt: float, width: int, height: int, huddled: bool, rng: np.random.Generator
) -> list[tuple[int, float, float, float]]:
    """Resting spots for dice of these sizes: (index, x, y, angle) for each die that found room.

    Apart: centres at least 1.5 sides from each other, a few cut by the frame edge. Huddled: each
    die after the first lies against one already placed where it can.
    """
    placed: list[tuple[float, float, float, float]] = []
    spots: list[tuple[int, float, float, float]] = []
    for i, s in enumerate(sizes):
        spot = touching_spot(placed, s, tilt, width, height, rng) if huddled and placed else None
        for _attempt in range(0 if spot else 60):
            edge = rng.random() < 0.08
            lo = -0.3 * s if edge else s
            x = float(rng.uniform(lo, width - lo))
            y = float(rng.uniform(lo, height - lo))
            if all(math.hypot(x - px, y - py) > 0.75 * (s + ps) for px, py, ps, _ in placed):
                spot = (x, y, float(rng.uniform(0, 360)))
                break
        if spot is None:
            continue
        placed.append((spot[0], spot[1], s, spot[2]))
        spots.append((i, *spot))
    return spots
