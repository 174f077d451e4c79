"""The table under the dice: its look (wood, felt, cloth, paper or a tray, with clutter lying about),
drawing it, and drawing a random one."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from scorekeeper.synthetic.canvas import BGR, Float, jitter, noise_field

TABLE_KINDS = ("wood", "felt", "cloth", "paper", "tray")
"""The backgrounds ``TableLook.kind`` accepts."""


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


def draw_table(look: TableLook, h: int, w: int) -> Float:
    """The empty table, a float BGR picture (h, w, 3) in 0..1 with its clutter drawn on it."""
    rng = np.random.default_rng(look.seed)
    c1 = np.array(look.color, np.float32) / 255
    c2 = np.array(look.color2, np.float32) / 255
    yy, xx = (a.astype(np.float32) for a in np.ogrid[0:h, 0:w])
    if look.kind == "wood":
        theta = rng.uniform(0, math.pi)
        along = xx * math.cos(theta) + yy * math.sin(theta)
        warp = noise_field(rng, h, w, 4) * rng.uniform(20, 80)
        freq = rng.uniform(0.05, 0.2)
        grain = 0.5 + 0.5 * np.sin((along + warp) * freq + noise_field(rng, h, w, 30) * 3)
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
        img = c1 * (0.93 + 0.07 * noise_field(rng, h, w, 3)[..., None])
        if rng.random() < 0.5:  # ruled lines
            gap = rng.uniform(15, 40)
            lines = (np.abs((yy % gap) - gap / 2) < 0.7)[..., None]
            img = np.where(lines, img * 0.8 + c2 * 0.2, img)
    elif look.kind == "tray":
        img = c1 * (0.9 + 0.1 * noise_field(rng, h, w, 4)[..., None])
        rim = rng.uniform(0.02, 0.12)
        x0, y0 = rng.uniform(-0.1, rim) * w, rng.uniform(-0.1, rim) * h
        x1, y1 = w - rng.uniform(-0.1, rim) * w, h - rng.uniform(-0.1, rim) * h
        border = rng.uniform(4, 20)
        outside = (xx < x0) | (xx > x1) | (yy < y0) | (yy > y1)
        wall = ~outside & ((xx < x0 + border) | (xx > x1 - border) | (yy < y0 + border) | (yy > y1 - border))
        img = np.where(outside[..., None], c2, img)
        img = np.where(wall[..., None], img * 0.75, img)
    else:  # felt
        img = c1 * (0.85 + 0.15 * noise_field(rng, h, w, 6)[..., None])
    img = img * (0.94 + 0.06 * rng.random((h, w, 1), dtype=np.float32))
    img = np.ascontiguousarray(img, dtype=np.float32)
    for _ in range(look.clutter):
        _clutter(img, rng)
    return img


def _clutter(img: Float, rng: np.random.Generator) -> None:
    """Draw one random object lying on the table into ``img``: a cup, a cable, a score pad, a pen or a coin."""
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
    c1, c2 = jitter(c1, rng, 45), jitter(c2, rng, 45)
    if kind in ("felt", "cloth") and rng.random() < 0.5:
        c1 = tuple(int(v) for v in rng.integers(20, 230, 3))  # type: ignore[assignment]
    clutter = int(rng.integers(1, 4)) if rng.random() < 0.35 else 0
    return TableLook(kind=kind, color=c1, color2=c2, seed=int(rng.integers(0, 2**31)), clutter=clutter)
