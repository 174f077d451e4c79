"""From detections frame by frame to rolls: when the dice have stopped, what they show.

One :class:`Settler` is fed the dice read in each frame and answers with events: the dice are
``moving``, the roll has ``settled`` (values voted over the still frames, unsure dice marked), or
the table was ``cleared``. The window and ``scorekeeper watch`` use the same one.

How it decides, and why:

* Each die seen is tracked where it lies **on the table**, not in the picture: the camera's
  move from frame to frame (a shift, or a phone's turn and zoom too, as the table's texture
  tells it: :class:`~scorekeeper.camera.motion.CameraMotion`) is taken out, then the common
  shift that puts the most dice back on their tracks (dice are judged against each other). A
  shift from the dice needs at least two agreeing on it; where the table cannot tell, one lone
  die cannot tell a moving camera from a moving die, and counts as moving.
* A box overlapping a tracked die's box is that die; it is still while its centre stays within
  ``drift`` of its size from where its rest began, and wanders less than that over the last
  ``settle_frames``. A tumbling die leaves its rest within a frame or two, so it never builds
  one up; a die creeping on never comes to rest.
* The roll is taken when, over the last ``settle_frames`` frames, no die appeared off its track
  (a couple of odd frames are forgiven, never the latest), each die of the roll was seen in
  most of those frames, and its reads agree on one value. A die whose reads waver between two
  values holds the roll back for a while, then is taken marked unsure; one whose reads are all
  over the place (spinning in place) never is. A die cut by the frame edge is marked unsure
  (``cut_by_edge``: a whole die lying against the edge is not).
* Each rest is taken once. After dice moved, a rest made of the same dice showing the same
  values where they lay (give or take a nudge) is the same roll, not a new one: a camera bump,
  a hand taking dice out of the area or a die nudged while picking its neighbour up never
  scores twice. Unsure dice do not make a roll new (a doubtful read comes and goes), nor does
  a new read of a die that never moved (a die does not turn over by itself).
* A reader may miss a blurred die in flight altogether; the watch loop also says when the
  picture itself changed somewhere in the rolling area, and no roll is taken while it does.
* Frames without dice (a hand over the table, a reader that misses a frame) are not motion; the
  table counts as cleared after ``clear_frames`` of them in a row.

>>> settler = Settler(SettleParams(settle_frames=3))
>>> still = Detections(np.array([[10, 10, 40, 40], [60, 10, 90, 40]]), np.array([1, 5]), np.array([0.9, 0.9]))
>>> [(str(e.kind), e.frame) for i in range(4) for e in settler.update(still)]
[('moving', 1), ('settled', 2)]
>>> [e.kind.value for i in range(20) for e in settler.update(Detections.empty())]
['cleared']
"""

from __future__ import annotations

import enum
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from scorekeeper.vision.detections import Detections
from scorekeeper.vision.processing import box_iou, cut_by_edge


SAME_DIE = 0.5
"""Share of the smaller of two boxes lying inside the other for both to be one die: touching
dice overlap far less, even seen at a slant."""

WAVERING = 0.8
"""Share of a die's reads its two most-read values must make up for it to be taken unsure after
waiting; a die read all over the place is still spinning."""


class SettleError(ValueError):
    """Settle parameters out of range."""


class EventKind(enum.Enum):
    """What happened on the table. Between two rolls there is at most one ``moving``."""

    MOVING = "moving"
    """Dice appeared, or the dice of the last roll started to move."""
    SETTLED = "settled"
    """The dice came to rest: a roll to score."""
    CLEARED = "cleared"
    """No dice left on the table (or in the rolling area)."""

    def __str__(self) -> str:
        return self.value


class TableState(enum.Enum):
    """What the table looks like now, for a status line."""

    EMPTY = "empty"
    """No dice seen for a while."""
    MOVING = "moving"
    """Dice on the table, not at rest (or not yet for long enough)."""
    STILL = "still"
    """The dice are at rest and their roll has been taken."""

    def __str__(self) -> str:
        return self.value


SETTLE_FRAMES = 14
"""Frames the dice must lie still before the roll is taken, unless a profile says otherwise: just
under half a second, longer than the pauses of a bounce (which must not be taken), short enough
that a rest of half a second is, and that the roll shows while the thrower still looks."""


@dataclass(frozen=True)
class SettleParams:
    """How still is still. Frame counts assume a camera of about 30 frames per second."""

    settle_frames: int = SETTLE_FRAMES
    """Frames the dice must lie still before the roll is taken (:data:`SETTLE_FRAMES`)."""
    iou: float = 0.3
    """A box overlapping a tracked die's box this much (camera shift taken out) is that die."""
    drift: float = 0.15
    """A die is still while its centre stays within this share of its size of where its rest
    began: a detector's jitter (a few per cent) passes, a die sliding on does not."""
    move_frames: int = 2
    """Frames in a row with a die off its track before resting dice count as moving again, and
    frames in a row with dice before an empty table counts as having dice (one odd frame is a
    detector glitch)."""
    glitches: int = 2
    """Frames of the still window that may hold a die off its track (a ghost detection, a jumpy
    box) without breaking the rest; the latest frame never may."""
    clear_frames: int = 15
    """Frames in a row without dice before the table counts as cleared (half a second: a hand
    passing over the dice does not clear them)."""
    seen_share: float = 0.5
    """Share of the still frames a die must be seen in to be part of the roll."""
    agreement: float = 0.6
    """Share of a die's reads that must agree on its value before the roll is taken."""
    patience: int = 3
    """After this many times ``settle_frames`` at rest, dice whose reads still disagree are taken
    anyway, marked unsure (the player confirms them with a tap)."""
    nudge: float = 0.75
    """A die within this many die sizes of where it lay in the last roll, showing the same
    value, is the same die of the same roll."""
    unsure_below: float = 0.0
    """A stricter unsure line than the detections' own, for a settler fed readings directly: they
    are held to it as they come in (:meth:`Detections.held_to`). 0: the detections' line alone,
    as in the watch loop, where the profile's line was applied before settling."""

    def __post_init__(self) -> None:
        if not (isinstance(self.settle_frames, int) and 2 <= self.settle_frames <= 300):
            raise SettleError(f"settle_frames must be a whole number 2-300, got {self.settle_frames!r}")
        if not 0.05 <= self.iou <= 0.95:
            raise SettleError(f"iou must be 0.05-0.95, got {self.iou}")
        if not 0 < self.drift <= 1:
            raise SettleError(f"drift must be more than 0 and at most 1 (a die's size), got {self.drift}")
        if not (isinstance(self.glitches, int) and 0 <= self.glitches < self.settle_frames):
            raise SettleError(f"glitches must be 0-{self.settle_frames - 1} (below settle_frames), got {self.glitches!r}")
        if not (isinstance(self.move_frames, int) and 1 <= self.move_frames <= self.settle_frames):
            raise SettleError(f"move_frames must be 1-settle_frames ({self.settle_frames}), got {self.move_frames!r}")
        if not (isinstance(self.clear_frames, int) and self.clear_frames >= 1):
            raise SettleError(f"clear_frames must be a whole number of at least 1, got {self.clear_frames!r}")
        for name in ("seen_share", "agreement", "unsure_below"):
            value = getattr(self, name)
            if not 0 <= value <= 1:
                raise SettleError(f"{name} must be 0-1, got {value}")
        if not (isinstance(self.patience, int) and self.patience >= 1):
            raise SettleError(f"patience must be a whole number of at least 1, got {self.patience!r}")
        if not self.nudge >= 0:
            raise SettleError(f"nudge must be 0 or more, got {self.nudge}")


@dataclass(frozen=True, eq=False)
class SettleEvent:
    """One event of the table, with the dice it concerns."""

    kind: EventKind
    """Moving, settled or cleared."""
    frame: int
    """Index of the frame that made it happen."""
    time: float
    """Seconds into the source at that frame."""
    dice: Detections
    """Settled: the roll, values and confidences voted over the still frames, boxes where the dice
    were last seen. Moving: the dice seen in that frame. Cleared: none."""
    unsure: NDArray[np.bool_]
    """(n,) which dice need a confirmation: read with low or disagreeing confidence, or cut by the
    frame edge."""

    def roll(self) -> list[int]:
        """The values, sorted."""
        return self.dice.roll()

    def to_json(self) -> dict[str, Any]:
        """The JSON object of ``scorekeeper watch --json``."""
        dice = self.dice.to_json()
        for die, unsure in zip(dice, self.unsure):
            die["unsure"] = bool(unsure)
        out: dict[str, Any] = {"event": self.kind.value, "frame": self.frame, "time": round(self.time, 3), "dice": dice}
        if self.kind is EventKind.SETTLED:
            out["roll"] = self.roll()
        return out

    def __str__(self) -> str:
        text = f"{self.time:8.2f}s  frame {self.frame:6d}  {self.kind.value}"
        if self.kind is EventKind.SETTLED:
            values = " ".join(f"{v}?" if u else str(v) for v, u in zip(self.dice.values.tolist(), self.unsure))
            text += f"  {values}"
        return text


@dataclass(eq=False)
class _Track:
    """One die and its current rest, in table coordinates (camera shift taken out)."""

    total: NDArray[np.float64]
    """Sum of the boxes seen since the rest began; their mean is where the die lies."""
    count: int
    since: int
    """The frame (tick) its current rest began."""
    seen: deque[int]
    reads: deque[tuple[int, int, float]]
    path: deque[tuple[float, float]]
    """Recent centres on the table, to catch a die creeping on within its tolerance."""
    last_box: NDArray[np.float64] = field(default_factory=lambda: np.zeros(4))
    last_tick: int = 0
    number: int = 0
    """Tells tracks apart for as long as the settler lives."""

    @property
    def box(self) -> NDArray[np.float64]:
        return self.total / self.count

    def restart(self, box: NDArray[np.float64], tick: int) -> None:
        """The die moved: its rest begins again here."""
        self.total, self.count, self.since = box.copy(), 1, tick
        self.seen.clear()
        self.reads.clear()
        self.path.clear()


@dataclass(frozen=True, eq=False)
class _Rest:
    centres: NDArray[np.float64]
    sizes: NDArray[np.float64]
    values: NDArray[np.int64]
    unsure: NDArray[np.bool_]
    rests: tuple[tuple[int, int], ...]
    """Each die's track and the frame its rest began: a die still on that rest has not moved."""


def _centres(boxes: NDArray[np.float64]) -> NDArray[np.float64]:
    return np.stack([(boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2], axis=1)


def _sizes(boxes: NDArray[np.float64]) -> NDArray[np.float64]:
    return np.asarray(np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]))


def _mapped(steady: NDArray[np.float64], boxes: NDArray[np.float64]) -> NDArray[np.float64]:
    """``boxes`` carried by the 3x3 affine map ``steady``: each centre mapped, each size scaled by its zoom."""
    centres = _centres(boxes) @ steady[:2, :2].T + steady[:2, 2]
    half = (boxes[:, 2:] - boxes[:, :2]) / 2 * np.sqrt(abs(np.linalg.det(steady[:2, :2])))
    return np.concatenate([centres - half, centres + half], axis=1)


def one_box_per_die(detections: Detections) -> Detections:
    """Drop boxes lying mostly inside a more confident box: a reader's second box on one die.

    Dice seen from above can touch but never lie on top of each other, so a box that has most of
    its area inside another is the same die (or part of it) read twice.

    >>> twice = Detections(np.array([[10, 10, 50, 50], [16, 14, 54, 52], [52, 10, 92, 50]]), np.array([2, 3, 5]), np.array([0.9, 0.6, 0.8]))
    >>> one_box_per_die(twice).values.tolist()
    [2, 5]
    """
    if len(detections) < 2:
        return detections
    boxes = detections.boxes.astype(np.float64)
    ix = np.clip(np.minimum(boxes[:, None, 2], boxes[None, :, 2]) - np.maximum(boxes[:, None, 0], boxes[None, :, 0]), 0, None)
    iy = np.clip(np.minimum(boxes[:, None, 3], boxes[None, :, 3]) - np.maximum(boxes[:, None, 1], boxes[None, :, 1]), 0, None)
    area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    covered = ix * iy / np.maximum(np.minimum(area[:, None], area[None, :]), 1e-9)
    keep = np.ones(len(detections), bool)
    for i in np.argsort(-detections.confidences, kind="stable"):
        if keep[i]:
            twin = covered[i] >= SAME_DIE
            twin[i] = False
            keep &= ~twin
    return detections[keep]


class Settler:
    """Feed it every frame's dice with :meth:`update`; it returns the events that frame caused."""

    def __init__(self, params: SettleParams | None = None) -> None:
        self.params = params or SettleParams()
        self.reset()

    def reset(self) -> None:
        """Forget everything seen (a new camera, a new game)."""
        self._tick = -1
        self._state = TableState.EMPTY
        self._tracks: list[_Track] = []
        self._tracks_made = 0
        self._offset = np.zeros(2)
        self._steady = np.eye(3)
        """Maps the picture onto the table as first seen: the camera's turn and zoom taken out
        (its shift too, where the camera's move came as a map; ``_offset`` holds what is left)."""
        self._motion: deque[bool] = deque(maxlen=self.params.settle_frames)
        self._motion_run = 0
        self._present_run = 0
        self._empty_run = 0
        self._quiet_run = 0
        self._last_rest: _Rest | None = None
        self._moving_told = False
        self._unsure_below = self.params.unsure_below
        """The unsure line of the latest readings: the settled dice voted from them take it."""

    @property
    def state(self) -> TableState:
        """Empty, moving, or still (roll taken)."""
        return self._state

    @property
    def quiet(self) -> bool:
        """No roll being voted on, no clearing being counted, nothing moved for ``settle_frames``:
        a frame like the last one can change nothing here."""
        if self._state is TableState.EMPTY:
            return not any(self._motion) and self._present_run == 0
        return self._state is TableState.STILL and not any(self._motion) and self._empty_run == 0

    def update(
        self,
        detections: Detections,
        *,
        frame: int | None = None,
        time: float = 0.0,
        size: tuple[int, int] | None = None,
        picture_moving: bool = False,
        camera: tuple[float, float] | NDArray[np.float64] = (0.0, 0.0),
    ) -> list[SettleEvent]:
        """Take one frame's dice (those in the rolling area); ``size`` (width, height) lets dice cut
        by the frame edge be marked unsure; ``picture_moving`` says something moved in the area
        that the reader may not have seen as a die (a blurred die in flight): no roll is taken
        then; ``camera`` is how far the camera moved the picture since the last frame (px, from the
        table's texture or the dice), or its move as a 2x3 affine map (a turn and zoom of a hand-held
        phone too, :attr:`CameraMotion.move`): the dice are judged on the table with it taken out, so a
        lone die too settles under a handheld camera. Returns the events, usually none."""
        self._tick += 1
        move = np.asarray(camera, np.float64)
        if move.shape == (2, 3):
            self._steady = self._steady @ np.linalg.inv(np.vstack([move, [0.0, 0.0, 1.0]]))
        else:
            self._offset = self._offset + move
        index = self._tick if frame is None else frame
        events: list[SettleEvent] = []
        p = self.params

        if len(detections) == 0:
            self._empty_run += 1
            self._present_run = 0
            self._motion_run = 0
            self._quiet_run = 0 if picture_moving else self._quiet_run + 1
            self._motion.append(picture_moving)
            if self._state is not TableState.EMPTY and self._empty_run >= p.clear_frames:
                events.append(SettleEvent(EventKind.CLEARED, index, time, Detections.empty(), np.zeros(0, bool)))
                self._forget()
            return events
        detections = detections.held_to(p.unsure_below)
        self._unsure_below = detections.unsure_below
        self._present_run += 1
        if self._present_run >= p.move_frames:
            self._empty_run = 0  # a ghost in a single frame does not undo an empty table

        moved = self._track(detections)
        self._motion.append(moved or picture_moving)
        self._motion_run = self._motion_run + 1 if moved else 0
        self._quiet_run = 0 if moved or picture_moving else self._quiet_run + 1
        if self._state is TableState.EMPTY:
            if self._present_run < p.move_frames:
                return events  # one frame of dice on an empty table may be a ghost
            self._state = TableState.MOVING
            events.append(self._moving(detections, index, time))
        elif self._state is TableState.STILL and self._motion_run >= p.move_frames:
            self._state = TableState.MOVING
            if not self._moving_told:  # told once between rolls, however often the dice stir
                events.append(self._moving(detections, index, time))

        rest = self._rest(size)
        if rest is not None:
            dice, unsure, record = rest
            if self._last_rest is not None and self._same_dice(record, self._last_rest):
                self._state = TableState.STILL
            else:
                if not self._moving_told:
                    events.append(self._moving(detections, index, time))
                events.append(SettleEvent(EventKind.SETTLED, index, time, dice, unsure))
                self._last_rest = record
                self._moving_told = False
                self._state = TableState.STILL
        return events

    def gap(self) -> None:
        """The picture stopped for a while and is back (a stream reconnected): what lay still before
        is not known to have lain still through the gap, so a roll needs ``settle_frames`` still
        frames after it. The last roll taken is kept: the same dice where they lay are not taken again."""
        self._tracks = []
        self._offset = np.zeros(2)
        self._steady = np.eye(3)
        self._motion.clear()
        self._motion_run = 0
        self._present_run = 0
        self._empty_run = 0
        self._quiet_run = 0

    def _moving(self, detections: Detections, index: int, time: float) -> SettleEvent:
        self._moving_told = True
        return SettleEvent(EventKind.MOVING, index, time, detections, detections.unsure)

    def _forget(self) -> None:
        self._state = TableState.EMPTY
        self._tracks = []
        self._offset = np.zeros(2)
        self._steady = np.eye(3)
        self._last_rest = None
        self._moving_told = False

    def _estimate_offset(self, centres: NDArray[np.float64]) -> NDArray[np.float64]:
        """The camera shift that puts the most resting dice back in place (two needed to move it)."""
        ref = [track for track in self._tracks if track.last_tick == self._tick - 1 and len(track.seen) >= 2]
        if not ref:
            return self._offset
        boxes = np.array([track.box for track in ref])
        placed = _centres(boxes) + self._offset
        tolerance = self.params.drift * _sizes(boxes)
        deltas = np.concatenate([np.zeros((1, 2)), (centres[None, :, :] - placed[:, None, :]).reshape(-1, 2)])
        # distance of every die found from every resting die, under every candidate shift
        gaps = np.linalg.norm(centres[None, None, :, :] - (placed[None, :, None, :] + deltas[:, None, None, :]), axis=3)
        support = (gaps <= tolerance[None, :, None]).any(axis=1).sum(axis=1)
        order = np.lexsort((np.hypot(deltas[:, 0], deltas[:, 1]), -support))
        best = int(order[0])
        if best != 0 and (support[best] < 2 or support[best] <= support[0]):
            best = 0
        if support[best] < 2:
            return self._offset
        # Refine to the median of what the agreeing dice say: the shift is then exact, not just within tolerance.
        nearest = gaps[best].argmin(axis=0)
        agree = gaps[best][nearest, np.arange(len(centres))] <= tolerance[nearest]
        residual = centres[agree] - placed[nearest[agree]] - deltas[best]
        return np.asarray(self._offset + deltas[best] + np.median(residual, axis=0))

    def _track(self, detections: Detections) -> bool:
        """Match the frame's dice to their tracks; returns whether any die was off its rest."""
        p = self.params
        found = _mapped(self._steady, detections.boxes.astype(np.float64))
        self._offset = self._estimate_offset(_centres(found))
        table = found - np.tile(self._offset, 2)
        unmatched = set(range(len(table)))
        moved = False
        if self._tracks:
            rests = np.array([track.box for track in self._tracks])
            overlap = box_iou(rests.astype(np.float32), table.astype(np.float32))
            drift = np.linalg.norm(_centres(rests)[:, None, :] - _centres(table)[None, :, :], axis=2)
            still = drift <= p.drift * _sizes(rests)[:, None]
            taken: set[int] = set()
            for flat in np.argsort(-(overlap + still), axis=None):
                t, d = divmod(int(flat), len(table))
                if overlap[t, d] < p.iou:
                    break
                if d not in unmatched or t in taken:
                    continue
                unmatched.discard(d)
                taken.add(t)
                track = self._tracks[t]
                if still[t, d]:
                    track.total += table[d]
                    track.count += 1
                else:
                    track.restart(table[d], self._tick)
                    moved = True
                self._see(track, detections, d, table[d])
        for d in sorted(unmatched):
            window = p.settle_frames
            self._tracks_made += 1
            track = _Track(table[d].copy(), 1, self._tick, deque(maxlen=window), deque(maxlen=p.patience * window), deque(maxlen=window))
            track.number = self._tracks_made
            self._see(track, detections, d, table[d])
            self._tracks.append(track)
        # A die unseen for a rest's length is gone; a die landing on its spot later is another die.
        self._tracks = [track for track in self._tracks if track.last_tick > self._tick - p.settle_frames]
        first = self._present_run == 1  # dice on an empty table are new, not moving
        return (moved or bool(unmatched)) and not first

    def _see(self, track: _Track, detections: Detections, d: int, table_box: NDArray[np.float64]) -> None:
        track.seen.append(self._tick)
        track.path.append(((table_box[0] + table_box[2]) / 2, (table_box[1] + table_box[3]) / 2))
        track.reads.append((self._tick, int(detections.values[d]), float(detections.confidences[d])))
        track.last_box = detections.boxes[d].astype(np.float64)
        track.last_tick = self._tick

    def _rest(self, size: tuple[int, int] | None) -> tuple[Detections, NDArray[np.bool_], _Rest] | None:
        """The roll, if the dice have lain still long enough; None while they have not."""
        p = self.params
        window = p.settle_frames
        if len(self._motion) < window or self._motion[-1] or sum(self._motion) > p.glitches:
            return None
        patient = self._quiet_run >= p.patience * window
        start = self._tick - window  # the still frames are those after ``start``
        roll: list[_Track] = []
        for track in self._tracks:
            sightings = sum(1 for tick in track.seen if tick > start)
            if sightings >= p.seen_share * window and track.since <= start + 1:
                # Creeping on, a little each frame: not at rest yet. Told by where the die lay early
                # in the window against late in it (means of a third each), which a reader's jitter
                # of a pixel or so on small dice does not move, unlike the path's whole span.
                path = np.array(track.path)
                third = max(1, len(path) // 3)
                creep = float(np.linalg.norm(path[-third:].mean(axis=0) - path[:third].mean(axis=0)))
                if creep > p.drift * _sizes(track.box[None, :])[0] / 2:
                    return None
                roll.append(track)
            elif sightings >= 2 and not patient:
                return None  # a die seen now and then, or only lately at rest: wait
        if not roll:
            return None
        values, confidences, agreeing = [], [], []
        for track in roll:
            reads = [(value, conf) for tick, value, conf in track.reads if tick > start]
            counts = np.bincount([value for value, _ in reads], minlength=7)
            winner = int(counts.argmax())
            share = counts[winner] / len(reads)
            if share < p.agreement:
                if not patient:
                    return None
                # Judged over the whole wait, not one window: chance does not make a spinning die look settled.
                reads = [(value, conf) for _, value, conf in track.reads]
                counts = np.bincount([value for value, _ in reads], minlength=7)
                winner = int(counts.argmax())
                share = counts[winner] / len(reads)
                if np.sort(counts)[-2:].sum() / len(reads) < WAVERING:
                    return None  # reads all over the place: a die still spinning, never a roll
            values.append(winner)
            confidences.append(sum(conf for value, conf in reads if value == winner) / len(reads))
            agreeing.append(share >= p.agreement)
        order = np.argsort([track.last_box[0] for track in roll], kind="stable")
        boxes = np.array([roll[i].last_box for i in order], np.float32)
        dice = Detections(boxes, np.array(values)[order], np.clip(np.array(confidences)[order], 0, 1), self._unsure_below)
        unsure = dice.unsure | ~np.array(agreeing, bool)[order]
        table = np.array([roll[i].box for i in order])
        if size is not None:
            # the mean box of the rest, back in the picture: one jittery frame does not decide
            unsure |= cut_by_edge(_mapped(np.asarray(np.linalg.inv(self._steady), np.float64), table + np.tile(self._offset, 2)).astype(np.float32), *size)
        rests = tuple((roll[i].number, roll[i].since) for i in order)
        return dice, unsure, _Rest(_centres(table), _sizes(table), dice.values, unsure, rests)

    def _same_dice(self, rest: _Rest, last: _Rest) -> bool:
        """Whether ``rest`` is the roll ``last`` still: each sure die lies (give or take a nudge)
        where a die of ``last`` lay, showing the same value unless either read was unsure, or has
        not moved since (a die does not turn over by itself: a new read is the reader's doubt).
        Unsure dice prove nothing: a reader's doubtful box comes and goes, its value flips."""
        used: set[int] = set()
        doubtful = 0
        for centre, die_size, value, unsure, still in zip(rest.centres, rest.sizes, rest.values, rest.unsure, rest.rests):
            if still in last.rests and last.rests.index(still) not in used:
                used.add(last.rests.index(still))  # never moved since: the same die, whatever is read now
                continue
            distance = np.hypot(*(last.centres - centre).T)
            near = [int(i) for i in np.argsort(distance) if int(i) not in used and distance[i] <= self.params.nudge * max(die_size, last.sizes[i])]
            same = [i for i in near if unsure or last.unsure[i] or last.values[i] == value]
            if same:
                used.add(same[0])
            elif not unsure:
                return False
            else:
                doubtful += 1
        # A doubtful box where no die lay is a reader's ghost, unless a die of the roll is gone
        # meanwhile: then it is that die, moved (knocked to the frame edge, half hidden).
        return not doubtful or len(used) == len(last.values)
