"""Synthetic camera frames of dice on a table, with exact labels.

Feeds the reader's training and tests, ``sample_images/`` and the window's demo table.
Pure numpy + OpenCV; deterministic for a given scene (all noise is seeded from ``Scene.seed``
and ``TableLook.seed``).

>>> rng = np.random.default_rng(1)
>>> scene = random_scene(rng, 320, 240, dice=3)
>>> image, labels = render(scene)
>>> image.shape, image.dtype, len(labels)
((240, 320, 3), dtype('uint8'), 3)
>>> bool(np.array_equal(image, render(scene)[0]))
True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import cv2
import numpy as np
from numpy.typing import NDArray

from scorekeeper.vision.detections import Detections

BGR = tuple[int, int, int]
Float = NDArray[np.float32]

PIP_LAYOUT: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
}
"""Pip positions on a face in units of the pip spacing, centre (0, 0)."""

LIGHTS = ("daylight", "warm", "dim", "harsh")
"""The light conditions ``Scene.light`` accepts."""

TABLE_KINDS = ("wood", "felt", "cloth", "paper", "tray")
"""The backgrounds ``TableLook.kind`` accepts."""

_LIGHT_CAST = {"daylight": (1.0, 1.0, 1.0), "warm": (0.72, 0.9, 1.12), "dim": (0.95, 0.95, 1.0), "harsh": (1.02, 1.0, 0.98)}
_LIGHT_GAIN = {"daylight": 1.0, "warm": 0.95, "dim": 0.45, "harsh": 1.15}
_LIGHT_NOISE = {"daylight": 1.0, "warm": 1.2, "dim": 3.0, "harsh": 1.0}


@dataclass(frozen=True)
class DieLook:
    """How one die looks."""

    body: BGR
    """BGR body colour."""
    pips: BGR
    """BGR pip colour."""
    corner: float = 0.15
    """Corner rounding, 0 (square) .. 0.5 (very round), fraction of the edge."""
    pip_size: float = 0.09
    """Pip radius as a fraction of the edge."""
    pip_spread: float = 0.27
    """Distance of the outer pips from the face centre, fraction of the edge."""
    translucent: float = 0.0
    """0 opaque .. 0.6 see-through body (the table shows through)."""
    marble: BGR | None = None
    """Second body colour swirled into the first (marbled dice), or None."""
    gloss: float = 0.3
    """0 matte .. 1 glossy: strength of highlights and glare."""
    recess: float = 0.0
    """0 flat printed pips .. 1 deep drilled pips, whose wall on the light's side is in shadow (with
    paint close to the body's colour, that shadow is most of what shows a pip)."""


@dataclass(frozen=True)
class DiePose:
    """One die in one frame."""

    x: float
    """Centre of the top face, pixels of the image."""
    y: float
    """Centre of the top face, pixels of the image."""
    size: float
    """Edge length seen from above, pixels (15-150)."""
    angle: float
    """Rotation about the vertical, degrees."""
    value: int
    """The top face, 1-6."""
    look: DieLook
    """How the die looks."""
    motion: tuple[float, float] = (0.0, 0.0)
    """Motion blur during the exposure, px (dx, dy): a tumbling die."""
    tumble: float = 0.0
    """0 = resting flat; 0..1 = tipped mid-roll (top face skewed, sides showing)."""

    @property
    def moving(self) -> bool:
        """Whether the die is mid-roll (its label is the value it will land on)."""
        return self.tumble > 0.3 or math.hypot(*self.motion) > 0.25 * self.size


@dataclass(frozen=True)
class TableLook:
    """The table under the dice."""

    kind: str = "felt"
    """One of ``TABLE_KINDS``: wood, felt, cloth, paper or tray."""
    color: BGR = (60, 110, 40)
    """Main BGR colour."""
    color2: BGR = (40, 80, 30)
    """Second BGR colour (grain, weave, tray rim)."""
    seed: int = 0
    """Texture and clutter layout."""
    clutter: int = 0
    """How many objects lie about: cups, cables, score pads, pens, coins."""


@dataclass(frozen=True)
class Scene:
    """Everything needed to draw one frame."""

    width: int
    """Image width, px."""
    height: int
    """Image height, px."""
    dice: tuple[DiePose, ...]
    """The dice (labels follow this order; the drawing order is the camera's, see ``_drawing_order``)."""
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


def _f32(array: object) -> Float:
    return np.asarray(array, np.float32)


def _rounded_square(corner: float, points_per_corner: int = 6) -> Float:
    """Outline of a unit square (-0.5..0.5) with rounded corners, counter-clockwise."""
    r = float(np.clip(corner, 0.0, 0.5))
    if r < 1e-3:
        return np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]], np.float32)
    pts = []
    for cx, cy, start in ((0.5 - r, -0.5 + r, -90), (0.5 - r, 0.5 - r, 0), (-0.5 + r, 0.5 - r, 90), (-0.5 + r, -0.5 + r, 180)):
        for t in np.linspace(start, start + 90, points_per_corner):
            pts.append((cx + r * math.cos(math.radians(t)), cy + r * math.sin(math.radians(t))))
    return np.array(pts, np.float32)


def _noise_field(rng: np.random.Generator, h: int, w: int, cells: int) -> Float:
    """Smooth noise in 0..1 of shape (h, w), about ``cells`` blobs across."""
    cells = max(2, cells)
    small = rng.random((max(2, cells * h // max(w, 1)), cells)).astype(np.float32)
    return np.asarray(cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC).clip(0, 1), np.float32)


def _table(look: TableLook, h: int, w: int) -> Float:
    rng = np.random.default_rng(look.seed)
    c1 = np.array(look.color, np.float32) / 255
    c2 = np.array(look.color2, np.float32) / 255
    yy, xx = (a.astype(np.float32) for a in np.ogrid[0:h, 0:w])
    if look.kind == "wood":
        theta = rng.uniform(0, math.pi)
        along = xx * math.cos(theta) + yy * math.sin(theta)
        warp = _noise_field(rng, h, w, 4) * rng.uniform(20, 80)
        freq = rng.uniform(0.05, 0.2)
        grain = 0.5 + 0.5 * np.sin((along + warp) * freq + _noise_field(rng, h, w, 30) * 3)
        t = (grain**3)[..., None]
        img = c1 * (1 - t) + c2 * t
        # planks
        plank = rng.uniform(60, 200)
        across = -xx * math.sin(theta) + yy * math.cos(theta)
        seam = (np.abs(((across / plank) % 1.0) - 0.5) > 0.495)[..., None]
        img = np.where(seam, img * 0.6, img)
    elif look.kind == "cloth":
        period = rng.uniform(3, 8)
        weave = 0.5 + 0.25 * (np.sin(xx * 2 * math.pi / period) + np.sin(yy * 2 * math.pi / period))
        img = c1 * (0.85 + 0.15 * weave[..., None])
        if rng.random() < 0.6:  # checked tablecloth
            check = rng.uniform(20, 80)
            mask = ((np.floor(xx / check) + np.floor(yy / check)) % 2 == 0)[..., None]
            img = np.where(mask, img, c2 * (0.85 + 0.15 * weave[..., None]))
    elif look.kind == "paper":
        img = c1 * (0.93 + 0.07 * _noise_field(rng, h, w, 3)[..., None])
        if rng.random() < 0.5:  # ruled lines
            gap = rng.uniform(15, 40)
            lines = (np.abs((yy % gap) - gap / 2) < 0.7)[..., None]
            img = np.where(lines, img * 0.8 + c2 * 0.2, img)
    elif look.kind == "tray":
        img = c1 * (0.9 + 0.1 * _noise_field(rng, h, w, 4)[..., None])
        rim = rng.uniform(0.02, 0.12)
        x0, y0 = rng.uniform(-0.1, rim) * w, rng.uniform(-0.1, rim) * h
        x1, y1 = w - rng.uniform(-0.1, rim) * w, h - rng.uniform(-0.1, rim) * h
        border = rng.uniform(4, 20)
        outside = (xx < x0) | (xx > x1) | (yy < y0) | (yy > y1)
        wall = ~outside & ((xx < x0 + border) | (xx > x1 - border) | (yy < y0 + border) | (yy > y1 - border))
        img = np.where(outside[..., None], c2, img)
        img = np.where(wall[..., None], img * 0.75, img)
    else:  # felt
        img = c1 * (0.85 + 0.15 * _noise_field(rng, h, w, 6)[..., None])
    img = img * (0.94 + 0.06 * rng.random((h, w, 1), dtype=np.float32))
    img = np.ascontiguousarray(img, dtype=np.float32)
    for _ in range(look.clutter):
        _clutter(img, rng)
    return img


def _clutter(img: Float, rng: np.random.Generator) -> None:
    h, w = img.shape[:2]
    kind = rng.choice(["cup", "cable", "pad", "pen", "coin"])
    cx, cy = float(rng.uniform(0, w)), float(rng.uniform(0, h))
    colour = tuple(float(v) for v in rng.uniform(0.05, 0.95, 3))
    if kind == "cup":
        r = int(rng.uniform(0.08, 0.2) * min(h, w))
        cv2.circle(img, (int(cx), int(cy)), r, colour, -1, cv2.LINE_AA)
        cv2.circle(img, (int(cx), int(cy)), int(r * 0.85), tuple(v * 0.35 for v in colour), -1, cv2.LINE_AA)
    elif kind == "cable":
        pts = [np.array([cx, cy])]
        heading = rng.uniform(0, 2 * math.pi)
        for _ in range(12):
            heading += rng.normal(0, 0.4)
            pts.append(pts[-1] + 30 * np.array([math.cos(heading), math.sin(heading)]))
        poly = np.array(pts, np.int32).reshape(-1, 1, 2)
        cv2.polylines(img, [poly], False, tuple(v * 0.3 for v in colour), int(rng.integers(3, 9)), cv2.LINE_AA)
    elif kind == "pad":
        pw, ph = rng.uniform(0.15, 0.35) * w, rng.uniform(0.15, 0.35) * h
        box = cv2.boxPoints(((cx, cy), (pw, ph), float(rng.uniform(-30, 30)))).astype(np.int32)
        cv2.fillPoly(img, [box], (0.92, 0.95, 0.97), cv2.LINE_AA)
        ink = (0.5, 0.2, 0.1) if rng.random() < 0.5 else (0.1, 0.1, 0.1)
        for row in range(int(ph // 14)):
            y = cy - ph / 2 + 10 + row * 14
            x = cx - pw / 2 + 8
            length = rng.uniform(0.2, 0.8) * pw
            cv2.line(img, (int(x), int(y)), (int(x + length), int(y + rng.normal(0, 2))), ink, 1, cv2.LINE_AA)
    elif kind == "pen":
        pen = np.asarray(cv2.boxPoints(((cx, cy), (rng.uniform(60, 140), rng.uniform(6, 12)), float(rng.uniform(0, 180)))))
        cv2.fillPoly(img, [pen.astype(np.int32)], colour, cv2.LINE_AA)
    else:
        r = int(rng.uniform(8, 18))
        metal = (0.45, 0.6, 0.7) if rng.random() < 0.5 else (0.7, 0.7, 0.72)
        cv2.circle(img, (int(cx), int(cy)), r, metal, -1, cv2.LINE_AA)
        cv2.circle(img, (int(cx), int(cy)), int(r * 0.8), tuple(v * 0.85 for v in metal), 1, cv2.LINE_AA)


@dataclass
class _Sprite:
    """One die drawn into its own patch: premultiplied colour, coverage, the top face's coverage
    and the patch's origin."""

    colour: Float
    alpha: Float
    x0: int
    y0: int
    shadow: Float
    face: Float


def _focal(width: int, height: int) -> float:
    """The camera's focal length, px: a webcam's field of view of about 60 degrees."""
    return 0.9 * max(width, height)


def _nadir(width: int, height: int, tilt: float) -> tuple[float, float]:
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
    to_nadir = np.array(_nadir(width, height, tilt)) - np.array([x, y])
    dist = float(np.hypot(*to_nadir))
    towards = to_nadir / dist if dist > 1e-6 else np.array([0.0, 1.0])
    return float(np.clip(cos, 0.05, 1.0)), towards


def _face_map(size: float, angle: float, axis: NDArray[np.float64], squash: float) -> NDArray[np.float64]:
    """The top face's linear map from unit face coords to image px: turned by ``angle`` degrees,
    then foreshortened by ``squash`` along ``axis``."""
    a = math.radians(angle)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    ax = axis.reshape(2, 1)
    compress = np.eye(2) - (1 - squash) * (ax @ ax.T)
    result: NDArray[np.float64] = compress @ rot * size
    return result


def _geometry(pose: DiePose, scene: Scene) -> tuple[Float, Float, NDArray[np.float64]]:
    """Top-face outline (image px), the top face's affine map from unit face coords, and the vector
    from the top face down to the base (side faces lie between them)."""
    size = float(pose.size)
    cos, towards = view_at(pose.x, pose.y, scene.width, scene.height, scene.tilt)
    drop = towards * size * min(0.95, math.sqrt(1 - cos * cos))
    squash_axis, squash = towards, cos
    if pose.tumble > 0:
        # A die mid-roll: tipped about one edge, one side face turned towards the camera.
        tip = math.radians(70 * float(np.clip(pose.tumble, 0, 1)))
        phi = math.radians(pose.angle * 1.7 + 37)
        tip_dir = np.array([math.cos(phi), math.sin(phi)])
        drop = drop * math.cos(tip) + tip_dir * size * math.sin(tip)
        squash_axis = tip_dir
        squash = squash * math.cos(tip)
    linear = _face_map(size, pose.angle, squash_axis, squash)
    outline = _rounded_square(pose.look.corner) @ linear.T.astype(np.float32) + np.array([pose.x, pose.y], np.float32)
    affine = np.hstack([linear, np.array([[pose.x], [pose.y]])])
    return outline.astype(np.float32), affine.astype(np.float32), drop


def _ellipse_poly(center: NDArray[np.floating], radius: float, affine2: NDArray[np.floating], n: int = 14) -> NDArray[np.float64]:
    """Outline (n, 2) of a circle of ``radius`` in face units, mapped by ``affine2`` to image px."""
    t = np.linspace(0, 2 * math.pi, n, endpoint=False)
    circle = np.stack([np.cos(t), np.sin(t)], 1) * radius
    pts: NDArray[np.float64] = (circle @ affine2.T) + center
    return pts


def _side_values(value: int) -> tuple[int, ...]:
    return tuple(v for v in (1, 2, 3, 4, 5, 6) if v not in (value, 7 - value))


def _ghost_pips(
    canvas: Float,
    face: Float,
    pose: DiePose,
    affine: Float,
    drop: NDArray[np.float64],
    to_patch: Callable[[NDArray[np.floating]], NDArray[np.int32]],
    ss: int,
    rng: np.random.Generator,
) -> Float:
    """The top face of a see-through die with the other faces' pips showing through it, blurred
    and tinted by the body: the bottom face's, mirrored and shifted towards the base, and the side
    faces' near the edges, flattened. On the byler photos, five of the eight dice misread were
    smoky dice whose top pips hide among such ghosts."""
    look = pose.look
    linear = affine[:, :2].astype(np.float64)
    centre = affine[:, 2].astype(np.float64)
    ghost = np.zeros(face.shape, np.float32)
    # The bottom face, seen from above through the body, is the mirror image of its face.
    mirrored = linear @ np.diag([-1.0, 1.0]) * 0.9
    for du, dv in PIP_LAYOUT[7 - pose.value]:
        c = mirrored @ np.array([du * look.pip_spread, dv * look.pip_spread]) + centre + drop
        cv2.fillPoly(ghost, [to_patch(_ellipse_poly(c, 1.0, mirrored * look.pip_size))], 1.0)
    for k, value in enumerate(_side_values(pose.value)):
        across = linear @ np.array([(1, 0), (0, 1), (-1, 0), (0, -1)][k], np.float64)  # edge midpoint - centre, doubled
        along = linear @ np.array([(0, 1), (-1, 0), (0, -1), (1, 0)][k], np.float64)
        for du, dw in PIP_LAYOUT[value]:
            depth = 0.5 + dw * look.pip_spread
            # refraction pulls the side's pips in from the edge, the deeper the further
            c = centre + across * (0.5 - 0.1 - 0.25 * depth) + along * du * look.pip_spread + drop * depth
            axes = np.stack([along, across * 0.4], 1) * look.pip_size
            cv2.fillPoly(ghost, [to_patch(_ellipse_poly(c, 1.0, axes))], 1.0)
    sigma = max(0.5, pose.size * ss * look.pip_size * float(rng.uniform(0.3, 0.8)))
    ghost = _f32(cv2.GaussianBlur(ghost, (0, 0), sigma)) * face * float(rng.uniform(0.3, 0.9))
    tint = (np.array(look.pips, np.float32) * 0.7 + np.array(look.body, np.float32) * 0.3) / 255
    return (canvas * (1 - ghost[..., None]) + tint * ghost[..., None]).astype(np.float32)


def _draw_die(pose: DiePose, scene: Scene, light_dir: NDArray[np.float64], harsh: bool, rng: np.random.Generator) -> _Sprite | None:
    outline, affine, drop = _geometry(pose, scene)
    look = pose.look
    base = outline + drop.astype(np.float32)
    pts = np.vstack([outline, base])
    margin = int(pose.size * 0.6 + abs(pose.motion[0]) + abs(pose.motion[1]) + 4)
    x0 = int(math.floor(pts[:, 0].min())) - margin
    y0 = int(math.floor(pts[:, 1].min())) - margin
    x1 = int(math.ceil(pts[:, 0].max())) + margin
    y1 = int(math.ceil(pts[:, 1].max())) + margin
    if x1 < 0 or y1 < 0 or x0 >= scene.width or y0 >= scene.height:
        return None
    ss = 4 if pose.size < 60 else 2  # supersampling for clean anti-aliased edges
    pw, ph = (x1 - x0) * ss, (y1 - y0) * ss
    origin = np.array([x0, y0], np.float32)

    def to_patch(p: NDArray[np.floating]) -> NDArray[np.int32]:
        return ((np.asarray(p, np.float32) - origin) * ss).round().astype(np.int32).reshape(-1, 1, 2)

    body = np.array(look.body, np.float32) / 255
    pip = np.array(look.pips, np.float32) / 255
    canvas = np.zeros((ph, pw, 3), np.float32)
    cover = np.zeros((ph, pw), np.float32)
    opaque = np.zeros((ph, pw), np.float32)  # pips stay solid on see-through dice

    # Side faces: the prism between the top outline and the base, back faces first.
    hull = cv2.convexHull(to_patch(pts))
    side_shade = 0.55 + 0.15 * float(np.dot(-drop / (np.linalg.norm(drop) + 1e-6), light_dir))
    cv2.fillPoly(canvas, [hull], tuple(float(v) for v in body * side_shade))
    cv2.fillPoly(cover, [hull], 1.0)
    corners = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]], np.float32)
    top_corners = corners @ affine[:, :2].T + affine[:, 2]
    centre = affine[:, 2]
    sides = []
    for i in range(4):
        p, q = top_corners[i], top_corners[(i + 1) % 4]
        mid = (p + q) / 2
        outward = mid - centre
        facing = float(np.dot(outward, drop)) / (np.linalg.norm(outward) * (np.linalg.norm(drop) + 1e-6))
        sides.append((facing, p, q))
    sides.sort(key=lambda s: s[0])
    side_vals = _side_values(pose.value)
    for k, (facing, p, q) in enumerate(sides):
        if facing <= 0.05 or np.linalg.norm(drop) < 0.12 * pose.size:
            continue
        quad = np.array([p, q, q + drop, p + drop], np.float32)
        shade = side_shade * (0.8 + 0.2 * facing)
        cv2.fillPoly(canvas, [to_patch(quad)], tuple(float(v) for v in body * shade))
        # pips on the side face, mapped bilinearly (u along the edge, w down the side)
        value = side_vals[k % 4]
        u_axis, w_axis = (q - p), drop
        for du, dw in PIP_LAYOUT[value]:
            u = 0.5 + du * look.pip_spread
            w = 0.5 + dw * look.pip_spread
            c = p + u_axis * u + w_axis * w
            a2 = np.stack([u_axis, w_axis], 1) * look.pip_size
            side_pip = to_patch(_ellipse_poly(c, 1.0, a2))
            cv2.fillPoly(canvas, [side_pip], tuple(float(v) for v in pip * shade))
            cv2.fillPoly(opaque, [side_pip], 1.0)

    # Top face.
    top_poly = to_patch(outline)
    if look.marble is not None:
        swirl = _noise_field(rng, ph, pw, 5)
        swirl = (0.5 + 0.5 * np.sin(swirl * 12))[..., None].astype(np.float32)
        m = np.array(look.marble, np.float32) / 255
        face_colour = body * (1 - swirl) + m * swirl
        mask = np.zeros((ph, pw), np.uint8)
        cv2.fillPoly(mask, [top_poly], 1)
        canvas = np.where(mask[..., None] > 0, face_colour, canvas).astype(np.float32)
        cv2.fillPoly(cover, [top_poly], 1.0)
    else:
        cv2.fillPoly(canvas, [top_poly], tuple(float(v) for v in body))
        cv2.fillPoly(cover, [top_poly], 1.0)
    face = np.zeros((ph, pw), np.float32)
    cv2.fillPoly(face, [top_poly], 1.0)
    # soft shading across the top face, brighter towards the light
    yy, xx = np.ogrid[0:ph, 0:pw]
    yy, xx = yy.astype(np.float32), xx.astype(np.float32)
    gx, gy = (xx / ss + x0 - pose.x) / pose.size, (yy / ss + y0 - pose.y) / pose.size
    grad = 1.0 + 0.12 * (gx * light_dir[0] + gy * light_dir[1])
    canvas *= grad[..., None]
    if look.translucent > 0:
        canvas = _ghost_pips(canvas, face, pose, affine, drop, to_patch, ss, rng)
    for du, dv in PIP_LAYOUT[pose.value]:
        c = affine[:, :2] @ np.array([du * look.pip_spread, dv * look.pip_spread]) + affine[:, 2]
        pip_axes = affine[:, :2] * np.float32(look.pip_size)
        poly = to_patch(_ellipse_poly(c, 1.0, pip_axes))
        if look.recess > 0:
            cv2.fillPoly(canvas, [poly], tuple(float(v) for v in body * (1 - 0.7 * look.recess)))
            lit = c - light_dir * (pose.size * look.pip_size * 0.35 * look.recess)
            cv2.fillPoly(canvas, [to_patch(_ellipse_poly(lit, 1.0 - 0.25 * look.recess, pip_axes))], tuple(float(v) for v in pip))
        else:
            cv2.fillPoly(canvas, [poly], tuple(float(v) for v in pip))
        cv2.fillPoly(opaque, [poly], 1.0)
        if look.gloss > 0.4 and harsh:
            glint = c + affine[:, :2] @ (-light_dir * look.pip_size * 0.4)
            cv2.fillPoly(canvas, [to_patch(_ellipse_poly(glint, look.pip_size * pose.size * 0.3, np.eye(2)))], (1.0, 1.0, 1.0))
    if look.gloss > 0 and (harsh or rng.random() < look.gloss * 0.5):
        # specular glare: a bright soft spot on the top face
        spot = np.zeros((ph, pw), np.float32)
        sc = affine[:, :2] @ rng.uniform(-0.3, 0.3, 2) + affine[:, 2]
        r = max(1, int(pose.size * ss * rng.uniform(0.06, 0.18)))
        cv2.circle(spot, tuple(int(v) for v in to_patch(sc).reshape(2)), r, 1.0, -1)
        spot = _f32(cv2.GaussianBlur(spot, (0, 0), r * 0.5))
        inside = np.zeros((ph, pw), np.float32)
        cv2.fillPoly(inside, [top_poly], 1.0)
        strength = look.gloss * (0.6 if harsh else 0.3)
        canvas += (spot * inside * strength)[..., None]
    canvas = np.clip(canvas, 0, 1.2)

    if ss > 1:
        canvas = _f32(cv2.resize(canvas * cover[..., None], (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA))
        cover = _f32(cv2.resize(cover, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA))
        face = _f32(cv2.resize(face, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA))
        opaque = _f32(cv2.resize(opaque, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA))
    else:
        canvas = canvas * cover[..., None]
    if look.translucent > 0:
        keep = 1 - float(np.clip(look.translucent, 0, 0.8))
        solid = keep + (1 - keep) * opaque
        canvas *= solid[..., None]
        cover = cover * solid
    dx, dy = pose.motion
    if abs(dx) + abs(dy) > 0.5:
        n = int(max(abs(dx), abs(dy))) * 2 + 1
        kernel = np.zeros((n, n), np.float32)
        cv2.line(kernel, (int(n // 2 - dx / 2), int(n // 2 - dy / 2)), (int(n // 2 + dx / 2), int(n // 2 + dy / 2)), 1.0, 1)
        kernel /= max(kernel.sum(), 1e-6)
        canvas = _f32(cv2.filter2D(canvas, -1, kernel))
        cover = _f32(cv2.filter2D(cover, -1, kernel))
        face = _f32(cv2.filter2D(face, -1, kernel))

    # Shadow: the base footprint, shifted away from the light and blurred.
    shadow = np.zeros((y1 - y0, x1 - x0), np.float32)
    offset = -light_dir * pose.size * (0.15 if harsh else 0.25)
    foot = cv2.convexHull(((pts + drop.astype(np.float32) * 0.3 + offset.astype(np.float32) - origin)).round().astype(np.int32).reshape(-1, 1, 2))
    cv2.fillPoly(shadow, [foot], 1.0)
    shadow = _f32(cv2.GaussianBlur(shadow, (0, 0), max(0.8, pose.size * (0.04 if harsh else 0.15))))
    shadow *= 0.6 if harsh else 0.4
    return _Sprite(canvas.astype(np.float32), cover.astype(np.float32), x0, y0, shadow, face.astype(np.float32))


def _paste(dst: Float, src: Float, x0: int, y0: int) -> tuple[tuple[slice, slice], tuple[slice, slice]] | None:
    h, w = dst.shape[:2]
    sh, sw = src.shape[:2]
    ax0, ay0 = max(0, x0), max(0, y0)
    ax1, ay1 = min(w, x0 + sw), min(h, y0 + sh)
    if ax1 <= ax0 or ay1 <= ay0:
        return None
    return (slice(ay0, ay1), slice(ax0, ax1)), (slice(ay0 - y0, ay1 - y0), slice(ax0 - x0, ax1 - x0))


def _hand(h: int, w: int, hand: tuple[float, float, float], rng: np.random.Generator) -> tuple[Float, Float]:
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
    shade = 0.85 + 0.15 * _noise_field(rng, h, w, 3)
    colour = skin * shade[..., None]
    return colour.astype(np.float32), mask


def render(scene: Scene) -> tuple[NDArray[np.uint8], Detections]:
    """BGR uint8 image (height, width, 3) and the exact labels: one box (x0, y0, x1, y1 in image
    pixels) and value per die whose top face is at least partly visible, confidence 1.0. The box
    frames the visible part of the top face, the face that is read: side faces of a tilted view lie
    outside it, as in hand-labelled photos, and the boxes of touching dice do not overlap. A
    tumbling die is still labelled, with the value it will land on."""
    image, labels, _, _ = render_with_visibility(scene)
    return image, labels


def _drawing_order(scene: Scene) -> list[int]:
    """Indices of ``scene.dice`` in the order they are drawn: resting dice farthest from the point
    under the camera first, because a die's side faces show on the side towards that point, where
    a touching neighbour hides them; dice in the air last."""
    nx, ny = _nadir(scene.width, scene.height, scene.tilt)
    return sorted(range(len(scene.dice)), key=lambda i: (scene.dice[i].tumble > 0, -math.hypot(scene.dice[i].x - nx, scene.dice[i].y - ny)))


def render_with_visibility(scene: Scene) -> tuple[NDArray[np.uint8], Detections, NDArray[np.float32], NDArray[np.int64]]:
    """Like ``render``, plus the visible share (0-1) of each labelled die's top face and the index
    of its pose in ``scene.dice``: training drops dice that are mostly hidden (frame edge, hand,
    another die) or moving."""
    if scene.width < 8 or scene.height < 8:
        raise ValueError(f"scene must be at least 8x8 px, got {scene.width}x{scene.height}")
    if scene.light not in LIGHTS:
        raise ValueError(f"unknown light {scene.light!r}; use one of {', '.join(LIGHTS)}")
    if scene.table.kind not in TABLE_KINDS:
        raise ValueError(f"unknown table kind {scene.table.kind!r}; use one of {', '.join(TABLE_KINDS)}")
    rng = np.random.default_rng(scene.seed)
    h, w = scene.height, scene.width
    harsh = scene.light == "harsh"
    light_angle = rng.uniform(0, 2 * math.pi)
    light_dir = np.array([math.cos(light_angle), math.sin(light_angle)])

    img = _table(scene.table, h, w)
    sprites = [_draw_die(pose, scene, light_dir, harsh, rng) for pose in scene.dice]
    order = _drawing_order(scene)
    for sprite in sprites:
        if sprite is None:
            continue
        where = _paste(img, sprite.shadow, sprite.x0, sprite.y0)
        if where:
            img[where[0]] *= (1 - sprite.shadow[where[1]])[..., None]
    for sprite in (sprites[i] for i in order):
        if sprite is None:
            continue
        where = _paste(img, sprite.alpha, sprite.x0, sprite.y0)
        if where:
            a = sprite.alpha[where[1]][..., None]
            img[where[0]] = img[where[0]] * (1 - a) + sprite.colour[where[1]]

    covered = np.zeros((h, w), np.float32)
    if scene.hand is not None:
        colour, mask = _hand(h, w, scene.hand, rng)
        img = img * (1 - mask[..., None]) + colour * mask[..., None]
        covered = mask.copy()

    # Light: colour cast, overall gain, a gradient across the table, glare for harsh light.
    yy, xx = np.ogrid[0:h, 0:w]
    yy, xx = yy.astype(np.float32), xx.astype(np.float32)
    gradient = 1 + 0.25 * ((xx / w - 0.5) * light_dir[0] + (yy / h - 0.5) * light_dir[1])
    vignette = 1 - 0.25 * (((xx / w - 0.5) ** 2 + (yy / h - 0.5) ** 2) * 2)
    gain = gradient * vignette * _LIGHT_GAIN[scene.light] * scene.exposure
    img = img * gain[..., None] * np.array(_LIGHT_CAST[scene.light], np.float32)
    if harsh:
        glare = np.zeros((h, w), np.float32)
        cv2.circle(glare, (int(rng.uniform(0, w)), int(rng.uniform(0, h))), int(min(h, w) * rng.uniform(0.05, 0.2)), 1.0, -1)
        glare = _f32(cv2.GaussianBlur(glare, (0, 0), min(h, w) * 0.06))
        img = img + glare[..., None] * 0.35

    # Labels: each die's visible coverage, topmost first (hand, then the dice last drawn).
    boxes: list[list[float]] = []
    values: list[int] = []
    visible: list[float] = []
    index: list[int] = []
    for number in reversed(order):
        pose, sprite = scene.dice[number], sprites[number]
        if sprite is None:
            continue
        where = _paste(covered, sprite.alpha, sprite.x0, sprite.y0)
        if where is None:
            continue
        own, face = sprite.alpha[where[1]], sprite.face[where[1]]
        seen = face * (1 - covered[where[0]])
        covered[where[0]] = np.maximum(covered[where[0]], own)
        ys, xs = np.nonzero(seen > 0.5)
        if len(xs) == 0:
            continue
        ox, oy = where[0][1].start, where[0][0].start
        boxes.append([float(xs.min() + ox + scene.shift[0]), float(ys.min() + oy + scene.shift[1]), float(xs.max() + ox + 1 + scene.shift[0]), float(ys.max() + oy + 1 + scene.shift[1])])
        values.append(pose.value)
        visible.append(float((seen > 0.5).sum()) / max(1.0, float((sprite.face > 0.5).sum())))
        index.append(number)
    by_pose = np.argsort(np.array(index, np.int64), kind="stable")
    boxes, values, visible, index = [boxes[i] for i in by_pose], [values[i] for i in by_pose], [visible[i] for i in by_pose], [index[i] for i in by_pose]

    if scene.shift != (0.0, 0.0):
        m = np.array([[1, 0, scene.shift[0]], [0, 1, scene.shift[1]]], np.float32)
        img = _f32(cv2.warpAffine(img, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT))
    if scene.blur > 0:
        img = _f32(cv2.GaussianBlur(img, (0, 0), scene.blur))
    sigma = (scene.noise * _LIGHT_NOISE[scene.light]) / 255
    if sigma > 0:
        img = img + rng.standard_normal(img.shape, dtype=np.float32) * np.float32(sigma)
    out = np.clip(img * 255 + 0.5, 0, 255).astype(np.uint8)
    if scene.jpeg > 0:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(scene.jpeg)])
        if ok:
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)

    arr = np.array(boxes, np.float32).reshape(-1, 4)
    arr[:, [0, 2]] = arr[:, [0, 2]].clip(0, w)
    arr[:, [1, 3]] = arr[:, [1, 3]].clip(0, h)
    keep = (arr[:, 2] > arr[:, 0]) & (arr[:, 3] > arr[:, 1])
    labels = Detections(arr[keep], np.array(values, np.int64)[keep], np.ones(int(keep.sum()), np.float32))
    return out, labels, np.array(visible, np.float32)[keep], np.array(index, np.int64)[keep]


_BODIES: dict[str, BGR] = {
    "white": (245, 245, 245),
    "ivory": (200, 230, 240),
    "black": (30, 30, 30),
    "red": (40, 40, 200),
    "green": (60, 160, 40),
    "blue": (190, 90, 30),
    "yellow": (40, 210, 240),
    "purple": (130, 40, 110),
    "orange": (30, 120, 240),
}
DIE_COLOURS = (*_BODIES, "translucent", "marbled")
"""The body colour families ``random_look`` draws from."""
_PIPS: dict[str, BGR] = {"black": (20, 20, 20), "white": (245, 245, 245), "red": (40, 30, 190), "gold": (40, 180, 220), "blue": (160, 60, 20)}


def _jitter(colour: BGR, rng: np.random.Generator, amount: float = 18) -> BGR:
    c = np.clip(np.array(colour) + rng.normal(0, amount, 3), 0, 255).astype(int)
    return (int(c[0]), int(c[1]), int(c[2]))


def _contrast(a: BGR, b: BGR) -> float:
    return float(abs(np.dot(np.array(a) - np.array(b), (0.11, 0.59, 0.3))))


def random_look(rng: np.random.Generator, colour: str | None = None) -> DieLook:
    """A die of any common colour and pip style: white, ivory, black, red, green, blue, yellow,
    purple, orange, translucent or marbled bodies with black, white, red, gold or blue pips.
    ``colour`` (one of ``DIE_COLOURS``) fixes the body's colour family."""
    if colour is not None and colour not in DIE_COLOURS:
        raise ValueError(f"unknown die colour {colour!r}; use one of {', '.join(DIE_COLOURS)}")
    name = str(rng.choice(list(_BODIES))) if colour in (None, "translucent", "marbled") else str(colour)
    marble = None
    if colour == "marbled" or (colour is None and rng.random() < 0.12):
        marble = _jitter(_BODIES[str(rng.choice(list(_BODIES)))], rng)
    translucent = 0.0
    if colour == "translucent" or (colour is None and rng.random() < 0.12):
        translucent = float(rng.uniform(0.2, 0.5))
        if rng.random() < 0.3:
            name = "black"  # smoke
    body = _jitter(_BODIES[name], rng)
    # Most dice have pips that stand out; some sets barely do, above all smoky and marbled ones
    # (red pips on smoke or on blue-black marble are most of the real photos' misreads).
    faint = rng.random() < (0.5 if marble is not None or translucent else 0.15)
    pip_names = [p for p in _PIPS if _contrast(_PIPS[p], body) > (15 if faint else 60)] or ["black", "white"]
    pips = _jitter(_PIPS[str(rng.choice(pip_names))], rng, 10)
    if _contrast(pips, body) < (10 if faint else 40):
        pips = (20, 20, 20) if np.mean(body) > 120 else (245, 245, 245)
    return DieLook(
        body=body,
        pips=pips,
        corner=float(rng.choice([rng.uniform(0.0, 0.08), rng.uniform(0.08, 0.25), rng.uniform(0.25, 0.45)])),
        pip_size=float(rng.uniform(0.07, 0.11)),
        pip_spread=float(rng.uniform(0.24, 0.3)),
        translucent=translucent,
        marble=marble,
        gloss=float(rng.uniform(0, 1)),
        recess=float(rng.uniform(0.3, 1.0)) if rng.random() < 0.6 else 0.0,
    )


_TABLES: dict[str, tuple[BGR, BGR]] = {
    "wood": ((60, 110, 160), (30, 60, 100)),
    "felt": ((50, 110, 30), (40, 80, 20)),
    "cloth": ((200, 200, 210), (40, 40, 160)),
    "paper": ((235, 240, 245), (160, 120, 90)),
    "tray": ((190, 195, 195), (70, 70, 80)),
}


def random_table(rng: np.random.Generator) -> TableLook:
    """A wood, felt, cloth, paper or tray table with random colours and sometimes clutter."""
    kind = str(rng.choice(TABLE_KINDS))
    c1, c2 = _TABLES[kind]
    c1, c2 = _jitter(c1, rng, 45), _jitter(c2, rng, 45)
    if kind in ("felt", "cloth") and rng.random() < 0.5:
        c1 = tuple(int(v) for v in rng.integers(20, 230, 3))  # type: ignore[assignment]
    clutter = int(rng.integers(1, 4)) if rng.random() < 0.35 else 0
    return TableLook(kind=kind, color=c1, color2=c2, seed=int(rng.integers(0, 2**31)), clutter=clutter)


HUDDLED_SHARE = 0.3
"""Share of random scenes whose dice lie against each other: a finder that has only seen dice
apart boxes two touching dice as one, or half of each."""


def top_face(x: float, y: float, size: float, angle: float, tilt: float, width: int, height: int) -> Float:
    """Corners (4, 2) of the top face of a die resting at (x, y) in a ``width`` x ``height``
    picture: a square turned by ``angle`` degrees, foreshortened as the camera's ``tilt`` shows it
    there (``view_at``)."""
    cos, towards = view_at(x, y, width, height, tilt)
    square = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])
    corners: Float = (square @ _face_map(size, angle, towards, cos).T + np.array([x, y])).astype(np.float32)
    return corners


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
        dx, dy = _face_map(1.0, 0.0, towards, cos) @ on_table
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
