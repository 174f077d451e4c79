"""Telling the wild die and red pips from a die's colours, learned at the table from a few taps.

A wild-die game throws one die of a colour of its own; a spicy game's dice each have one face whose
pips are red. Neither is known before a table is seen (which colour the wild die is, which red its
pips are, under this light), so the players teach it: in the teaching step they tap which die is
the wild one and which faces show red pips, and :meth:`DieColours.learn` keeps the colours of
every die of that roll as examples. :meth:`DieColours.judge` then tells, for each die of a roll,
whether it is the wild die and whether its pips are red, and says when it is not sure, so the
table can ask rather than guess.

Two colours are measured on each die, in CIE Lab (lightness apart from colour, so a change of
exposure moves mostly one of the three numbers): the **body**, the typical colour of the top
face's pixels once the pips are left out, and the **pips**, the typical colour of the pixels that
stand out from the body. The light of every roll is first brought back to the light of the first
roll taught, by how the table under the dice looked then and looks now (:func:`light_gains`), and
chroma is taken relative to lightness (:func:`steady`): a lamp switched on or the camera's
exposure moving does not turn a white die into the wild one. A die is judged by which taught examples it lies nearer, wild or plain
dice, red or plain faces, in units of the colour spread the examples show (never less than a
camera's own noise between two rolls); a die about as near one as the other, or far from both
(a die or a light never taught), is unsure. Within a roll at most one die is the wild one
(:func:`decide_roll`). One taught roll is enough: one wild die among six, one red face.

Pure numpy and OpenCV; kept beside the table's calibration profile as one ``.npz`` file
(:func:`colours_file_for`), written whole.
"""

from __future__ import annotations

import io
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np
from numpy.typing import NDArray

from scorekeeper.safe_npz import read_npz
from scorekeeper.safe_output import write_atomically

FORMAT = 1
"""The die colours file format this code reads and writes."""
SUFFIX = ".colours.npz"
"""A die colours file's name: its calibration profile's name with this in place of the suffix."""
MAX_EXAMPLES = 300
"""Examples of each kind (wild dice, other dice, red faces, plain faces) kept at most; past it the
oldest of that kind are dropped, so a table's first taps are never crowded out by the other kind."""
INNER = 0.72
"""The share of a box's shorter side, centred, whose pixels are measured: inside the top face
however the die is turned, clear of the table and the side faces."""
PIP_CONTRAST = 14.0
"""Lab units a pixel must lie from the body colour to count as a pip."""
MIN_PIP_PIXELS = 4
"""Fewer pip pixels than this and the die's pips are not measured (unsure whether red)."""
BODY_FLOOR = np.array([10.0, 4.0, 4.0])
"""The least colour spread (L, a, b) a body's distance is measured in: what a camera's noise,
exposure and light across the table move one die's colours by between two rolls. Lightness counts
for less."""
PIP_FLOOR = np.array([25.0, 6.0, 6.0])
"""The least colour spread (L, a, b) a pip colour's distance is measured in: wider than a body's
(pips are small, their edges blur into the body), and lightness counts for little (black and white
pips are both plain; red is a colour)."""
MARGIN = 0.12
"""How far from even (0.5) a die's likelihood must lie to be sure: nearer one kind of example
than the other by a ratio of at least (0.5 + MARGIN) / (0.5 - MARGIN), about 1.6."""
LIGHT_CHANGE = (2.0, 1.5)
"""How far the light may have changed since the dice were taught and still be made good: its
brightness (times, either way) and its colour (times, per channel after brightness)."""
FAR = 4.0
"""A die farther than this from every taught example (in spreads) looks like none of them: unsure."""


@dataclass(frozen=True)
class DieColour:
    """What a die's colours say about it: whether it is the wild die, whether its pips are red,
    and whether each is sure."""

    wild: float
    """Likelihood 0-1 that the die is the wild one, from its body colour alone (0.5: no telling)."""
    red: float
    """Likelihood 0-1 that the face showing has red pips, from the pips' colour (0.5: no telling)."""
    is_wild: bool
    """Judged the wild die (within its roll at most one die is)."""
    is_red: bool
    """Judged to show red pips."""
    wild_sure: bool
    """Whether ``is_wild`` is sure: False where this die could be the wild one or not (ask)."""
    red_sure: bool
    """Whether ``is_red`` is sure: False where its pips could be red or not (ask)."""

    def __post_init__(self) -> None:
        for name in ("wild", "red"):
            value = getattr(self, name)
            if not (isinstance(value, float) and 0.0 <= value <= 1.0):
                raise ValueError(f"a die's {name} likelihood must be a number 0-1, got {value!r}")

    @property
    def mark(self) -> str:
        """The mark as the rules write it: "w", "r", "wr" or "" (plain)."""
        return ("w" if self.is_wild else "") + ("r" if self.is_red else "")

    @property
    def sure(self) -> bool:
        """Whether both judgements are sure."""
        return self.wild_sure and self.red_sure


class ColourJudge(Protocol):
    """Anything that judges the dice of a roll by their colours: :class:`DieColours`, or a fake in tests."""

    def judge(self, frame: NDArray[np.uint8], boxes: NDArray[np.float32], *, wild_in_roll: bool | None = None) -> tuple[DieColour, ...]:
        """One :class:`DieColour` per box of ``boxes`` (x0, y0, x1, y1 px, each framing a die's top
        face) in the BGR ``frame``. ``wild_in_roll``: True where the wild die is known to be among
        these dice, False where it is known not to be (set aside), None where not known."""
        ...


class DieColoursFileError(ValueError):
    """A die colours file that cannot be used: damaged, of another format, or not a die colours file."""


def colours_file_for(profile: Path) -> Path:
    """Where the die colours learned at ``profile``'s table are kept.

    >>> colours_file_for(Path("home/last-calibration.toml")).as_posix()
    'home/last-calibration.colours.npz'
    """
    return profile.with_name(profile.stem + SUFFIX)


def light_gains(taught: NDArray[np.float64], now: NDArray[np.float64]) -> NDArray[np.float64]:
    """Per BGR channel, what brings a table that looks ``now`` back to how it looked when taught
    (``taught``): a change of brightness up to ``LIGHT_CHANGE[0]`` times either way, and of the
    light's colour up to ``LIGHT_CHANGE[1]`` times per channel. A greater change is not the light
    (a table cloth changed, a hand over the camera): it is taken only that far.

    >>> light_gains(np.array([100.0, 100.0, 100.0]), np.array([72.0, 90.0, 112.0])).round(2).tolist()
    [1.39, 1.11, 0.89]
    >>> light_gains(np.array([100.0, 100.0, 100.0]), np.array([20.0, 100.0, 100.0])).round(2).tolist()
    [2.56, 1.14, 1.14]
    """
    ratio = np.asarray(taught, np.float64) / np.maximum(np.asarray(now, np.float64), 1.0)
    brightness = float(np.exp(np.log(ratio).mean()))
    colour = np.clip(ratio / brightness, 1 / LIGHT_CHANGE[1], LIGHT_CHANGE[1])
    gains: NDArray[np.float64] = colour * float(np.clip(brightness, 1 / LIGHT_CHANGE[0], LIGHT_CHANGE[0]))
    return gains


def table_colour(frame: NDArray[np.uint8]) -> NDArray[np.float64]:
    """The BGR colour most of ``frame`` shows: the table under the dice, in this light.

    >>> table_colour(np.full((40, 60, 3), (40, 90, 30), np.uint8)).tolist()
    [40.0, 90.0, 30.0]
    """
    sample = np.asarray(frame, np.uint8)[::4, ::4].reshape(-1, 3)
    colour: NDArray[np.float64] = np.median(sample, axis=0).astype(np.float64)
    return colour


def die_features(
    frame: NDArray[np.uint8], boxes: NDArray[np.float32], gains: NDArray[np.float64] | None = None
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The body colours (n, 3) and pip colours (n, 3), Lab with chroma made steady (``steady``),
    of the dice at ``boxes`` in the BGR ``frame``, each channel times ``gains`` where given (the
    light brought back to the one the dice were taught in). A die whose pips do not stand out (or whose box is too small or off the frame) has
    NaN pips; one with no pixel in the frame NaN body too."""
    frame = np.asarray(frame, np.uint8)
    boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
    bodies = np.full((len(boxes), 3), np.nan)
    pips = np.full((len(boxes), 3), np.nan)
    height, width = frame.shape[:2]
    for i, (x0, y0, x1, y1) in enumerate(boxes.astype(np.float64)):
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        radius = INNER * min(x1 - x0, y1 - y0) / 2
        left, top = max(0, int(math.floor(cx - radius))), max(0, int(math.floor(cy - radius)))
        right, bottom = min(width, int(math.ceil(cx + radius)) + 1), min(height, int(math.ceil(cy + radius)) + 1)
        if right - left < 2 or bottom - top < 2:
            continue
        patch = frame[top:bottom, left:right].astype(np.float32)
        if gains is not None:
            patch = np.minimum(patch * gains.astype(np.float32), 255.0)
        yy, xx = np.mgrid[top:bottom, left:right]
        inside = (xx + 0.5 - cx) ** 2 + (yy + 0.5 - cy) ** 2 <= radius**2
        if inside.sum() < 4:
            continue
        lab = cv2.cvtColor(patch / 255, cv2.COLOR_BGR2LAB)[inside].astype(np.float64)
        middle = np.median(lab, axis=0)
        spread = np.linalg.norm(lab - middle, axis=1)
        body = lab[spread <= np.percentile(spread, 60)].mean(axis=0)
        bodies[i] = steady(body)
        apart = np.linalg.norm(lab - body, axis=1)
        if (apart > PIP_CONTRAST).sum() >= MIN_PIP_PIXELS:
            # the pips' cores: their edges blur into the body
            pips[i] = steady(np.median(lab[apart >= max(PIP_CONTRAST, float(np.percentile(apart[apart > PIP_CONTRAST], 50)))], axis=0))
    return bodies, pips


def steady(lab: NDArray[np.float64]) -> NDArray[np.float64]:
    """A Lab colour with its chroma (a, b) taken relative to its lightness, as it would be at L 50:
    a brighter or darker exposure scales lightness and chroma together, and leaves this chroma be.
    Below L 25 (black dice) chroma is taken as it is, not blown up.

    >>> steady(np.array([80.0, 8.0, -40.0])).tolist(), steady(np.array([40.0, 4.0, -20.0])).tolist()
    ([80.0, 5.0, -25.0], [40.0, 5.0, -25.0])
    """
    lab = np.asarray(lab, np.float64)
    out = lab.copy()
    out[..., 1:] = lab[..., 1:] * (50.0 / np.maximum(lab[..., :1], 25.0))
    return out


def likelihoods(
    features: NDArray[np.float64], positive: NDArray[np.float64], negative: NDArray[np.float64], floor: NDArray[np.float64] = BODY_FLOOR
) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
    """For each row of ``features`` (n, 3), the likelihood 0-1 that it is of the ``positive``
    examples' kind rather than the ``negative`` ones' (from its nearest example of each, in the
    examples' spread, never below ``floor``), and whether that can be told at all (its colours
    measured, examples of both kinds, and a taught example within ``FAR`` spreads). Not told: 0.5.

    >>> plain, wild = np.array([[90.0, 0, 0]] * 5), np.array([[50.0, -10, -40]])
    >>> p, known = likelihoods(np.array([[88.0, 1, 2], [52.0, -12, -38], [20.0, 60, 60]]), wild, plain)
    >>> p.round(2).tolist(), known.tolist()
    ([0.05, 0.94, 0.5], [True, True, False])
    """
    features = np.asarray(features, np.float64).reshape(-1, 3)
    positive = _usable(positive)
    negative = _usable(negative)
    out = np.full(len(features), 0.5)
    known = np.zeros(len(features), bool)
    if not len(positive) or not len(negative):
        return out, known
    scale = _spread(positive, negative, floor)
    measured = np.isfinite(features).all(axis=1)
    if not measured.any():
        return out, known
    x = features[measured] / scale
    to_positive = np.linalg.norm(x[:, None, :] - (positive / scale)[None], axis=2).min(axis=1)
    to_negative = np.linalg.norm(x[:, None, :] - (negative / scale)[None], axis=2).min(axis=1)
    out[measured] = to_negative / np.maximum(to_positive + to_negative, 1e-9)
    known[measured] = np.minimum(to_positive, to_negative) <= FAR
    out[~known] = 0.5
    return out, known


def _usable(examples: NDArray[np.float64]) -> NDArray[np.float64]:
    examples = np.asarray(examples, np.float64).reshape(-1, 3)
    return examples[np.isfinite(examples).all(axis=1)]


def _spread(positive: NDArray[np.float64], negative: NDArray[np.float64], floor: NDArray[np.float64]) -> NDArray[np.float64]:
    """The colour spread (L, a, b) within each kind of example, pooled, never below ``floor``."""
    parts = [kind - kind.mean(axis=0) for kind in (positive, negative) if len(kind) > 1]
    pooled = np.sqrt((np.concatenate(parts) ** 2).mean(axis=0)) if parts else np.zeros(3)
    spread: NDArray[np.float64] = np.maximum(pooled, floor)
    return spread


def decide_roll(
    wild: NDArray[np.float64],
    wild_known: NDArray[np.bool_],
    red: NDArray[np.float64],
    red_known: NDArray[np.bool_],
    *,
    wild_in_roll: bool | None = None,
) -> tuple[DieColour, ...]:
    """Each die's judgement from its likelihoods of being wild and of red pips (and whether each
    could be told at all, ``likelihoods``), the roll taken whole for the wild die: at most one die
    of a roll is wild, and the roll is sure of it only when one die stands out and the rest are
    plainly not wild. ``wild_in_roll`` True: one die is the wild one (the likeliest); False: none
    is (all sure); None: not known (the likeliest, if it is likelier wild than not).

    >>> wild = np.array([0.9, 0.1, 0.85, 0.2])
    >>> known = np.ones(4, bool)
    >>> [(d.is_wild, d.wild_sure) for d in decide_roll(wild, known, wild, known)]
    [(True, False), (False, True), (False, False), (False, True)]
    >>> [d.mark for d in decide_roll(np.array([0.1, 0.95, 0.2]), np.ones(3, bool), np.array([0.9, 0.1, 0.1]), np.ones(3, bool))]
    ['r', 'w', '']
    """
    wild = np.asarray(wild, np.float64).reshape(-1)
    red = np.asarray(red, np.float64).reshape(-1)
    wild_known = np.asarray(wild_known, bool).reshape(-1)
    red_known = np.asarray(red_known, bool).reshape(-1)
    n = len(wild)
    if not len(red) == len(wild_known) == len(red_known) == n:
        raise ValueError(f"a roll needs one likelihood of each kind per die, got {n}, {len(wild_known)}, {len(red)} and {len(red_known)}")
    is_wild = np.zeros(n, bool)
    wild_sure = np.ones(n, bool)
    plainly_not = wild_known & (wild < 0.5 - MARGIN)
    if n and wild_in_roll is not False and not (wild_in_roll is None and plainly_not.all()):
        best = int(np.argmax(np.where(wild_known, wild, 0.5)))
        is_wild[best] = bool(wild_in_roll) or bool(wild_known[best] and wild[best] >= 0.5)
        stands_out = bool(wild_known[best]) and wild[best] >= (0.5 - MARGIN if wild_in_roll else 0.5 + MARGIN)
        if not (stands_out and np.delete(plainly_not, best).all()):
            wild_sure = plainly_not.copy()
            wild_sure[best] = False
    red_sure = red_known & (np.abs(red - 0.5) >= MARGIN)
    return tuple(
        DieColour(float(wild[i]), float(red[i]), bool(is_wild[i]), bool(red[i] >= 0.5 and red_known[i]), bool(wild_sure[i]), bool(red_sure[i]))
        for i in range(n)
    )


class DieColours:
    """A table's taught die colours, and the judge that tells the wild die and red pips by them.
    Not thread-safe: one owner (the table's learner)."""

    def __init__(self) -> None:
        self.bodies = np.zeros((0, 3))
        """(n, 3) Lab body colours of the dice taught, oldest first."""
        self.wild = np.zeros(0, np.int8)
        """(n,) 1: the wild die, 0: another die, -1: not told."""
        self.pips = np.zeros((0, 3))
        """(n, 3) Lab pip colours of the dice taught (NaN where their pips did not stand out)."""
        self.red = np.zeros(0, np.int8)
        """(n,) 1: red pips showing, 0: plain pips, -1: not told."""
        self.table = np.zeros(0)
        """The table's BGR colour in the light of the first roll taught (``table_colour``), empty
        before it: every later roll's light is brought back to it (the table is the reference
        white), so a change of light or exposure does not change the dice's colours."""

    def __len__(self) -> int:
        return len(self.wild)

    @property
    def knows_wild(self) -> bool:
        """Whether the wild die has been taught (a wild die and another die at least)."""
        return bool((self.wild == 1).any() and (self.wild == 0).any())

    @property
    def knows_red(self) -> bool:
        """Whether red pips have been taught (a red face and a plain face at least)."""
        measured = np.isfinite(self.pips).all(axis=1)
        return bool((measured & (self.red == 1)).any() and (measured & (self.red == 0)).any())

    def learn(self, frame: NDArray[np.uint8], boxes: NDArray[np.float32], wild: int | None, red: Sequence[int] | None) -> None:
        """A roll the players confirmed, every die at ``boxes`` in ``frame`` an example: die
        ``wild`` (an index into ``boxes``) is the wild one and the others are not, or None where the
        roll tells nothing of the wild die (not among them, or no wild die in this game); the dice
        at ``red`` show red pips and the others plain ones, or None where it tells nothing of red
        pips (no spicy dice in this game)."""
        boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
        n = len(boxes)
        if wild is not None and not 0 <= wild < n:
            raise ValueError(f"the wild die must be one of the {n} dice tapped, got index {wild}")
        red_set = set(red) if red is not None else set()
        if any(not 0 <= i < n for i in red_set):
            raise ValueError(f"red faces must be among the {n} dice tapped, got indices {sorted(red_set)}")
        if not len(self.table):
            self.table = table_colour(frame)
        bodies, pips = die_features(frame, boxes, self.gains(frame))
        wild_labels = np.full(n, -1, np.int8) if wild is None else (np.arange(n) == wild).astype(np.int8)
        red_labels = np.full(n, -1, np.int8) if red is None else np.array([i in red_set for i in range(n)], np.int8)
        self._keep(np.concatenate([self.bodies, bodies]), np.concatenate([self.wild, wild_labels]), np.concatenate([self.pips, pips]), np.concatenate([self.red, red_labels]))

    def _keep(self, bodies: NDArray[np.float64], wild: NDArray[np.int8], pips: NDArray[np.float64], red: NDArray[np.int8]) -> None:
        """Keep these examples, at most ``MAX_EXAMPLES`` of each kind (the newest)."""
        keep = np.ones(len(wild), bool)
        for labels in (wild, red):
            for kind in (0, 1):
                where = np.flatnonzero(labels == kind)
                keep[where[: max(0, len(where) - MAX_EXAMPLES)]] = False
        self.bodies, self.wild, self.pips, self.red = bodies[keep], wild[keep], pips[keep], red[keep]

    def judge(self, frame: NDArray[np.uint8], boxes: NDArray[np.float32], *, wild_in_roll: bool | None = None) -> tuple[DieColour, ...]:
        """One :class:`DieColour` per box (``ColourJudge.judge``); what was never taught is unsure."""
        bodies, pips = die_features(frame, boxes, self.gains(frame))
        wild, wild_known = likelihoods(bodies, self.bodies[self.wild == 1], self.bodies[self.wild == 0])
        red, red_known = likelihoods(pips, self.pips[self.red == 1], self.pips[self.red == 0], PIP_FLOOR)
        return decide_roll(wild, wild_known, red, red_known, wild_in_roll=wild_in_roll)

    def gains(self, frame: NDArray[np.uint8]) -> NDArray[np.float64] | None:
        """What each BGR channel of ``frame`` is multiplied by to bring its light back to the
        taught one (its table as the taught table looked), within ``LIGHT_CHANGE``; None before
        anything is taught."""
        if not len(self.table):
            return None
        return light_gains(self.table, table_colour(frame))

    def save(self, path: Path) -> None:
        """Write the die colours file whole."""
        buffer = io.BytesIO()
        np.savez_compressed(buffer, format=np.array(FORMAT), bodies=self.bodies, wild=self.wild, pips=self.pips, red=self.red, table=self.table)
        write_atomically(path, buffer.getvalue())

    @classmethod
    def load(cls, path: Path) -> DieColours:
        """The die colours kept at ``path``, or :class:`DieColoursFileError` saying what is wrong and what to do."""
        if not os.path.lexists(path):
            raise DieColoursFileError(f"die colours file {str(path)!r} does not exist; tap the wild die and a red face in the teaching step to learn them")
        afresh = "forget it and tap the wild die and a red face again in the teaching step"
        arrays = read_npz(path, "die colours file", DieColoursFileError, advice=afresh)
        missing = [name for name in ("format", "bodies", "wild", "pips", "red", "table") if name not in arrays]
        if missing:
            raise DieColoursFileError(f"die colours file {str(path)!r} lacks {', '.join(missing)}: it is not a die colours file of this scorekeeper; {afresh}")
        if arrays["format"].shape != () or arrays["format"].tolist() != FORMAT:
            raise DieColoursFileError(f"die colours file {str(path)!r} is of format {arrays['format'].tolist()!r}; this scorekeeper reads format {FORMAT}; {afresh}")
        bodies, wild, pips, red, table = arrays["bodies"], arrays["wild"], arrays["pips"], arrays["red"], arrays["table"]
        n = len(wild) if wild.ndim == 1 else -1
        if not (bodies.shape == pips.shape == (n, 3) and red.shape == (n,) and n <= 4 * MAX_EXAMPLES and table.shape in ((0,), (3,))):
            raise DieColoursFileError(
                f"die colours file {str(path)!r} holds arrays of shapes {bodies.shape}, {wild.shape}, {pips.shape}, {red.shape} and {table.shape}; "
                f"it should hold n body colours (n, 3), n wild labels (n,), n pip colours (n, 3), n red labels (n,) and a table colour (3,); {afresh}"
            )
        numbers = all(np.issubdtype(a.dtype, np.number) for a in (bodies, wild, pips, red, table))
        if not numbers or not (np.isfinite(bodies.astype(np.float64)).all() and np.isfinite(table.astype(np.float64)).all()):
            raise DieColoursFileError(f"die colours file {str(path)!r} holds colours that are not numbers; {afresh}")
        if not (np.isin(wild, (-1, 0, 1)).all() and np.isin(red, (-1, 0, 1)).all()):
            raise DieColoursFileError(f"die colours file {str(path)!r} holds labels other than -1, 0 and 1; {afresh}")
        colours = cls()
        colours.bodies, colours.wild = bodies.astype(np.float64), wild.astype(np.int8)
        colours.pips, colours.red = pips.astype(np.float64), red.astype(np.int8)
        colours.table = table.astype(np.float64)
        return colours
