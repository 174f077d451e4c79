"""One die: its look (body, pips, corners, gloss, see-through and marbled bodies, a face with red
pips), its pose in a frame (the wild die among them), drawing it into a patch of its own with its
shadow, and a random look."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from scorekeeper.synthetic.canvas import BGR, Float, f32, jitter, noise_field
from scorekeeper.synthetic.perspective import face_map, view_at

PIP_LAYOUT: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
}
"""Pip positions on a face in units of the pip spacing, centre (0, 0)."""

RED_PIPS: BGR = (40, 30, 200)
"""The red of a spicy die's red face, BGR."""


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
    red_face: int | None = None
    """The face (1-6) whose pips are painted ``red_pips`` (a spicy game's die), or None."""
    red_pips: BGR = RED_PIPS
    """BGR colour of the red face's pips."""

    def __post_init__(self) -> None:
        if self.red_face is not None and self.red_face not in PIP_LAYOUT:
            raise ValueError(f"a die's red face must be 1-6, got {self.red_face!r}")

    def pips_on(self, value: int) -> BGR:
        """The colour of the pips on the face showing ``value``."""
        return self.red_pips if value == self.red_face else self.pips


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
    wild: bool = False
    """The wild die of a wild-die game (its look gives it a body colour of its own); labels mark it."""

    @property
    def mark(self) -> str:
        """The die's mark as the rules write it: "w" on the wild die, "r" where the top face's
        pips are red, "wr" both, "" neither."""
        return ("w" if self.wild else "") + ("r" if self.value == self.look.red_face else "")

    @property
    def moving(self) -> bool:
        """Whether the die is mid-roll (its label is the value it will land on)."""
        return self.tumble > 0.3 or math.hypot(*self.motion) > 0.25 * self.size


@dataclass(frozen=True)
class DieSprite:
    """One die drawn into its own patch of the picture."""

    colour: Float
    """Premultiplied BGR colour of the patch, 0..1."""
    alpha: Float
    """How much of each pixel the die covers, 0..1."""
    x0: int
    """Left edge of the patch in the picture, px."""
    y0: int
    """Top edge of the patch in the picture, px."""
    shadow: Float
    """How much of each pixel the die's shadow darkens, 0..1."""
    face: Float
    """How much of each pixel the top face covers, 0..1 (what the labels frame)."""


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


def _geometry(pose: DiePose, width: int, height: int, tilt: float) -> tuple[Float, Float, NDArray[np.float64]]:
    """Top-face outline (image px), the top face's affine map from unit face coords, and the vector
    from the top face down to the base (side faces lie between them)."""
    size = float(pose.size)
    cos, towards = view_at(pose.x, pose.y, width, height, tilt)
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
    linear = face_map(size, pose.angle, squash_axis, squash)
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
    """The four faces around the one on top showing ``value``."""
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
    ghost = f32(cv2.GaussianBlur(ghost, (0, 0), sigma)) * face * float(rng.uniform(0.3, 0.9))
    tint = (np.array(look.pips, np.float32) * 0.7 + np.array(look.body, np.float32) * 0.3) / 255
    return (canvas * (1 - ghost[..., None]) + tint * ghost[..., None]).astype(np.float32)


def draw_die(
    pose: DiePose, width: int, height: int, tilt: float, light_dir: NDArray[np.float64], harsh: bool, rng: np.random.Generator
) -> DieSprite | None:
    """The die drawn into its own patch as a camera tilted by ``tilt`` sees it in a ``width`` x ``height``
    picture, lit from ``light_dir``; None where the patch lies wholly outside the picture."""
    outline, affine, drop = _geometry(pose, width, height, tilt)
    look = pose.look
    base = outline + drop.astype(np.float32)
    pts = np.vstack([outline, base])
    margin = int(pose.size * 0.6 + abs(pose.motion[0]) + abs(pose.motion[1]) + 4)
    x0 = int(math.floor(pts[:, 0].min())) - margin
    y0 = int(math.floor(pts[:, 1].min())) - margin
    x1 = int(math.ceil(pts[:, 0].max())) + margin
    y1 = int(math.ceil(pts[:, 1].max())) + margin
    if x1 < 0 or y1 < 0 or x0 >= width or y0 >= height:
        return None
    ss = 4 if pose.size < 60 else 2  # supersampling for clean anti-aliased edges
    pw, ph = (x1 - x0) * ss, (y1 - y0) * ss
    origin = np.array([x0, y0], np.float32)

    def to_patch(p: NDArray[np.floating]) -> NDArray[np.int32]:
        return ((np.asarray(p, np.float32) - origin) * ss).round().astype(np.int32).reshape(-1, 1, 2)

    body = np.array(look.body, np.float32) / 255
    top_pip = np.array(look.pips_on(pose.value), np.float32) / 255
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
            side_pip_colour = np.array(look.pips_on(value), np.float32) / 255
            cv2.fillPoly(canvas, [side_pip], tuple(float(v) for v in side_pip_colour * shade))
            cv2.fillPoly(opaque, [side_pip], 1.0)

    # Top face.
    top_poly = to_patch(outline)
    if look.marble is not None:
        swirl = noise_field(rng, ph, pw, 5)
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
            cv2.fillPoly(canvas, [to_patch(_ellipse_poly(lit, 1.0 - 0.25 * look.recess, pip_axes))], tuple(float(v) for v in top_pip))
        else:
            cv2.fillPoly(canvas, [poly], tuple(float(v) for v in top_pip))
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
        spot = f32(cv2.GaussianBlur(spot, (0, 0), r * 0.5))
        inside = np.zeros((ph, pw), np.float32)
        cv2.fillPoly(inside, [top_poly], 1.0)
        strength = look.gloss * (0.6 if harsh else 0.3)
        canvas += (spot * inside * strength)[..., None]
    canvas = np.clip(canvas, 0, 1.2)

    if ss > 1:
        canvas = f32(cv2.resize(canvas * cover[..., None], (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA))
        cover = f32(cv2.resize(cover, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA))
        face = f32(cv2.resize(face, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA))
        opaque = f32(cv2.resize(opaque, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA))
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
        canvas = f32(cv2.filter2D(canvas, -1, kernel))
        cover = f32(cv2.filter2D(cover, -1, kernel))
        face = f32(cv2.filter2D(face, -1, kernel))

    # Shadow: the base footprint, shifted away from the light and blurred.
    shadow = np.zeros((y1 - y0, x1 - x0), np.float32)
    offset = -light_dir * pose.size * (0.15 if harsh else 0.25)
    foot = cv2.convexHull(((pts + drop.astype(np.float32) * 0.3 + offset.astype(np.float32) - origin)).round().astype(np.int32).reshape(-1, 1, 2))
    cv2.fillPoly(shadow, [foot], 1.0)
    shadow = f32(cv2.GaussianBlur(shadow, (0, 0), max(0.8, pose.size * (0.04 if harsh else 0.15))))
    shadow *= 0.6 if harsh else 0.4
    return DieSprite(canvas.astype(np.float32), cover.astype(np.float32), x0, y0, shadow, face.astype(np.float32))


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


def _contrast(a: BGR, b: BGR) -> float:
    """How far apart two colours' brightness lies, levels."""
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
        marble = jitter(_BODIES[str(rng.choice(list(_BODIES)))], rng)
    translucent = 0.0
    if colour == "translucent" or (colour is None and rng.random() < 0.12):
        translucent = float(rng.uniform(0.2, 0.5))
        if rng.random() < 0.3:
            name = "black"  # smoke
    body = jitter(_BODIES[name], rng)
    # Most dice have pips that stand out; some sets barely do, above all smoky and marbled ones
    # (red pips on smoke or on blue-black marble are most of the real photos' misreads).
    faint = rng.random() < (0.5 if marble is not None or translucent else 0.15)
    pip_names = [p for p in _PIPS if _contrast(_PIPS[p], body) > (15 if faint else 60)] or ["black", "white"]
    pips = jitter(_PIPS[str(rng.choice(pip_names))], rng, 10)
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
