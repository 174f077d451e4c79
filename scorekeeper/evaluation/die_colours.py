"""Measuring how well the die colours judge (``vision/die_colours.py``) tells the wild die and red
pips: on the demo table's throws with a wild die and spicy dice (its frames given as pictures and
labels, ``settled_rolls``), and on real photos where a wild die and red pips are made by
recolouring real dice.

A measure teaches the judge from one roll, as the teaching step does (a tap on the wild die, a
tap on each red face), and judges every other roll: the wild pick per roll and the red pips per
die, each right, wrong or unsure (asked).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from scorekeeper.evaluation.dataset import LabelledImage
from scorekeeper.vision.detections import Detections
from scorekeeper.vision.die_colours import DieColours

STILL_FRAMES = 8
"""Frames a demo roll lies still before it counts as settled (the boxes unchanged)."""
WILD_LAB = (62.0, 8.0, -48.0)
"""The wild die's body colour made on real photos, Lab: a mid blue."""
RED_LAB = (48.0, 62.0, 42.0)
"""The colour red pips are painted on real photos, Lab."""
WHITE_L = 90.0
"""The lightness of a white die's body in the light ``WILD_LAB`` and ``RED_LAB`` are given for."""


@dataclass(frozen=True)
class MarkedRoll:
    """A settled roll with the truth of its marks."""

    image: NDArray[np.uint8]
    """The BGR picture."""
    labels: Detections
    """The dice: boxes, values and the true marks."""
    name: str = ""
    """Where it comes from (a photo's name), to keep a teaching roll out of the rolls judged."""

    @property
    def wild(self) -> int | None:
        """The index of the wild die, or None."""
        found = [i for i, mark in enumerate(self.labels.marks) if "w" in mark]
        return found[0] if found else None

    @property
    def red(self) -> list[int]:
        """The indices of the dice showing red pips."""
        return [i for i, mark in enumerate(self.labels.marks) if "r" in mark]


@dataclass
class Tally:
    """Judgements counted: right and sure, wrong and sure, unsure (asked)."""

    right: int = 0
    """Right with nothing asked."""
    wrong: int = 0
    """Wrong with nothing asked."""
    asked: int = 0
    """Unsure: the players would be asked."""
    asked_right: int = 0
    """Of those asked, how many the judge's best guess had right."""

    def add(self, right: bool, sure: bool) -> None:
        """Count one judgement."""
        if sure:
            self.right += right
            self.wrong += not right
        else:
            self.asked += 1
            self.asked_right += right

    @property
    def total(self) -> int:
        """Judgements counted."""
        return self.right + self.wrong + self.asked

    def to_json(self) -> dict[str, Any]:
        """The counts and shares, as the benchmark writes them."""
        total = max(self.total, 1)
        return {
            "judged": self.total,
            "right_unasked": self.right,
            "wrong_unasked": self.wrong,
            "asked": self.asked,
            "right_unasked_share": round(self.right / total, 4),
            "wrong_unasked_share": round(self.wrong / total, 4),
            "asked_share": round(self.asked / total, 4),
            "best_guess_right_share": round((self.right + self.asked_right) / total, 4),
        }


@dataclass
class Measure:
    """A teaching roll's judge over the rolls judged: the wild pick per roll, red pips per die."""

    wild: Tally = field(default_factory=Tally)
    """Per roll holding the wild die: the wild die picked (the roll judged with the wild die known to be in it)."""
    wild_unknown: Tally = field(default_factory=Tally)
    """Per roll: the wild die picked, or none, not told whether it is among the dice."""
    red: Tally = field(default_factory=Tally)
    """Per die: red pips or not."""
    red_faces: Tally = field(default_factory=Tally)
    """Per die showing red pips: told red."""

    def to_json(self) -> dict[str, Any]:
        """The four tallies."""
        return {"wild": self.wild.to_json(), "wild_unknown": self.wild_unknown.to_json(), "red": self.red.to_json(), "red_faces": self.red_faces.to_json()}


def teach(roll: MarkedRoll) -> DieColours:
    """A judge taught from one roll: the wild die tapped, and each red face."""
    colours = DieColours()
    colours.learn(roll.image, roll.labels.boxes, roll.wild, roll.red)
    return colours


def measure(colours: DieColours, rolls: list[MarkedRoll], into: Measure | None = None) -> Measure:
    """Judge every roll of ``rolls`` and count the judgements (into ``into`` where given)."""
    out = into or Measure()
    for roll in rolls:
        truth = roll.wild
        unknown = colours.judge(roll.image, roll.labels.boxes)
        picked = [i for i, die in enumerate(unknown) if die.is_wild]
        out.wild_unknown.add(picked == ([truth] if truth is not None else []), all(die.wild_sure for die in unknown))
        if truth is not None:
            told = colours.judge(roll.image, roll.labels.boxes, wild_in_roll=True)
            out.wild.add(told[truth].is_wild, all(die.wild_sure for die in told))
        red = set(roll.red)
        for i, die in enumerate(unknown):
            out.red.add(die.is_red == (i in red), die.red_sure)
            if i in red:
                out.red_faces.add(die.is_red, die.red_sure)
    return out


def settled_rolls(frames: Iterable[tuple[NDArray[np.uint8], Detections]]) -> list[MarkedRoll]:
    """The settled rolls of a film given as pictures with their exact labels (the demo table's
    frames): each throw's first picture once its boxes have lain still ``STILL_FRAMES`` frames (a
    knock or a bump can settle a throw twice)."""
    out: list[MarkedRoll] = []
    still = 0
    last: NDArray[np.float32] | None = None
    for image, labels in frames:
        boxes = labels.boxes
        same = last is not None and boxes.shape == last.shape and len(boxes) > 0 and bool(np.array_equal(boxes, last))
        still = still + 1 if same else 0
        last = boxes
        if still == STILL_FRAMES:
            out.append(MarkedRoll(image, labels))
    return out


def body_and_pips(image: NDArray[np.uint8], box: NDArray[np.float32]) -> tuple[tuple[slice, slice], NDArray[np.bool_], NDArray[np.bool_]]:
    """Where a die of a real photo lies (the slices of ``image`` around ``box``) and, there, its
    body's pixels and its pips' pixels: the disc inside the box split by Otsu's threshold on
    lightness, the larger part the body."""
    x0, y0, x1, y1 = np.asarray(box, np.float64)
    height, width = image.shape[:2]
    cx, cy, radius = (x0 + x1) / 2, (y0 + y1) / 2, 0.46 * min(x1 - x0, y1 - y0)
    rows = slice(max(0, int(cy - radius)), min(height, int(cy + radius) + 2))
    cols = slice(max(0, int(cx - radius)), min(width, int(cx + radius) + 2))
    yy, xx = np.mgrid[rows, cols]
    disc = (xx + 0.5 - cx) ** 2 + (yy + 0.5 - cy) ** 2 <= radius**2
    lightness = cv2.cvtColor(np.ascontiguousarray(image[rows, cols]), cv2.COLOR_BGR2GRAY)
    threshold, _ = cv2.threshold(lightness[disc].reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    dark = disc & (lightness <= threshold)
    light = disc & ~dark
    return ((rows, cols), light, dark) if light.sum() >= dark.sum() else ((rows, cols), dark, light)


def recoloured(image: NDArray[np.uint8], box: NDArray[np.float32], *, body: tuple[float, float, float] | None = None, pips: tuple[float, float, float] | None = None) -> NDArray[np.uint8]:
    """``image`` with the white die at ``box`` painted: its body (Lab ``body``, each pixel's
    shading kept; the pixels as light as the body, not the table around it) and its pips (Lab
    ``pips``, flat paint; the dark pixels well inside the die, not its shadow), each the colour it
    would have in the light that shows the die's white body at ``WHITE_L``."""
    out = image.copy()
    where, body_mask, pip_mask = body_and_pips(image, box)
    lab = cv2.cvtColor(out[where].astype(np.float32) / 255, cv2.COLOR_BGR2LAB)
    if not body_mask.any():
        return out
    body_l = float(np.median(lab[body_mask][:, 0]))
    light = body_l / WHITE_L
    x0, y0, x1, y1 = np.asarray(box, np.float64)
    yy, xx = np.mgrid[where[0], where[1]]
    inner = (xx + 0.5 - (x0 + x1) / 2) ** 2 + (yy + 0.5 - (y0 + y1) / 2) ** 2 <= (0.42 * min(x1 - x0, y1 - y0)) ** 2
    if body is not None:
        mask = body_mask & (np.abs(lab[..., 0] - body_l) < 12)
        shading = lab[mask][:, 0] / body_l
        lab[mask] = np.array(body, np.float32) * np.float32(light) * shading[:, None].astype(np.float32)
    if pips is not None:
        lab[pip_mask & inner] = np.array(pips, np.float32) * np.float32(light)
    bgr = cv2.cvtColor(lab, cv2.COLOR_LAB2BGR)
    out[where] = np.clip(bgr * 255 + 0.5, 0, 255).astype(np.uint8)
    return out


def light_die_dark_pips(image: NDArray[np.uint8], box: NDArray[np.float32]) -> bool:
    """Whether the die at ``box`` is a white die with dark pips (a set that spicy dice come as):
    a light, grey body and pips much darker than it."""
    where, body_mask, pip_mask = body_and_pips(image, box)
    if body_mask.sum() < 20 or pip_mask.sum() < 4:
        return False
    lab = cv2.cvtColor(np.ascontiguousarray(image[where]).astype(np.float32) / 255, cv2.COLOR_BGR2LAB)
    body, pips = lab[body_mask].mean(axis=0), lab[pip_mask].mean(axis=0)
    return bool(body[0] > 70 and np.hypot(body[1], body[2]) < 12 and pips[0] < body[0] - 35 and body_mask.sum() >= 2 * pip_mask.sum())


def marked_photo(item: LabelledImage, rng: np.random.Generator, *, teaching: bool = False) -> MarkedRoll | None:
    """A marked roll made from a real photo, or None where it has fewer than two white dice with
    dark pips (``light_die_dark_pips``): those dice are the roll; one of them, picked at random,
    gets a blue body (``WILD_LAB``, the wild die), and each die's pips are painted red
    (``RED_LAB``) one time in six (the face showing is its red face). A ``teaching`` roll has at
    least one red face, as the teaching step asks the players to turn one up."""
    image = item.load()
    labels = item.labels
    white = [i for i in range(len(labels)) if light_die_dark_pips(image, labels.boxes[i])]
    if len(white) < 2:
        return None
    wild = int(rng.integers(len(white)))
    red = rng.random(len(white)) < 1 / 6
    if teaching and not red.any():
        red[(wild + 1 + int(rng.integers(len(white) - 1))) % len(white)] = True
    marks = []
    for k, i in enumerate(white):
        image = recoloured(image, labels.boxes[i], body=WILD_LAB if k == wild else None, pips=RED_LAB if red[k] else None)
        marks.append(("w" if k == wild else "") + ("r" if red[k] else ""))
    picked = labels[np.array(white)]
    return MarkedRoll(image, Detections(picked.boxes, picked.values, picked.confidences, marks=tuple(marks)), item.path.stem)


def photo_rolls(items: list[LabelledImage], seed: int) -> list[MarkedRoll]:
    """The marked rolls made from those of ``items`` that hold two white dice or more (``marked_photo``)."""
    rng = np.random.default_rng(seed)
    return [roll for roll in (marked_photo(item, rng) for item in items) if roll is not None]
