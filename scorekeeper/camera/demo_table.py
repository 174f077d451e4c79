"""The built-in demo table, and the choreography that scripts dice on a table frame by frame.

:class:`Choreography` writes a short film of a table as a list of renderer scenes: dice thrown
in tumbling with motion blur, coming to rest, a die knocked or hopping, the camera bumped or
shaken, the exposure jumping, a hand sweeping the dice away. Tests script exact films with it;
:class:`DemoTable` improvises an endless, seeded one, so the program can be tried (and tested)
with no camera.

>>> film = Choreography(320, 240, seed=3)
>>> film.throw([1, 5, 5], frames=12)
>>> film.rest(10)
>>> film.sweep(frames=12)
>>> len(film.scenes), film.scenes[-1].dice
(34, ())
>>> image, labels = render_scene(film.scenes[21])
>>> labels.roll()
[1, 5, 5]
"""

from __future__ import annotations

import functools
import math
import threading
from collections import deque
from collections.abc import Sequence
from dataclasses import replace

import numpy as np
from numpy.typing import NDArray

from scorekeeper.camera.frames import BaseSource, Frame
from scorekeeper.vision.detections import Detections
from scorekeeper.synthetic.die import DieLook, DiePose
from scorekeeper.synthetic.layout import touching_spot
from scorekeeper.synthetic.render import render
from scorekeeper.synthetic.scene import Scene
from scorekeeper.synthetic.table import TableLook


DEMO_LOOKS = (
    DieLook(body=(238, 238, 236), pips=(25, 25, 25), corner=0.18),
    DieLook(body=(40, 40, 200), pips=(240, 240, 240), corner=0.12, gloss=0.6),
    DieLook(body=(200, 230, 240), pips=(30, 30, 160), corner=0.22),
    DieLook(body=(35, 35, 35), pips=(235, 235, 235), corner=0.15),
)
"""Dice that stand out on the demo's green felt."""

DEMO_WILD_LOOKS = (
    DieLook(body=(190, 90, 30), pips=(240, 240, 240), corner=0.18),
    DieLook(body=(40, 210, 240), pips=(25, 25, 25), corner=0.12, gloss=0.6),
    DieLook(body=(150, 40, 120), pips=(240, 240, 240), corner=0.22),
    DieLook(body=(30, 150, 235), pips=(25, 25, 25), corner=0.15),
)
"""The wild die thrown with each of ``DEMO_LOOKS``: a body colour of its own (blue among white
dice, yellow among red, purple among ivory, orange among black)."""

OPENING_FRAMES = 15
"""Frames of empty table before the demo's first throw (half a second)."""

THROW_PAUSE = 60
"""Frames (two seconds) the demo waits, dice lying, between the game asking for a throw and the
throw: the player's moment to bank or answer a piggyback offer instead, as at a real table."""

TOUCHING = 0.3
"""Chance that a thrown die comes to rest against one already lying there, as real dice often do."""


@functools.lru_cache(maxsize=4)
def render_scene(scene: Scene) -> tuple[NDArray[np.uint8], Detections]:
    """``render``, remembering the last few scenes: dice at rest are the same scene frame after frame."""
    image, labels = render(scene)
    image.setflags(write=False)
    return image, labels


def _ease_out(u: float) -> float:
    return 1.0 - float((1.0 - min(max(u, 0.0), 1.0)) ** 2.2)


class Choreography:
    """A table filmed from above: call the actions in order; :attr:`scenes` holds one scene per frame."""

    def __init__(
        self,
        width: int = 640,
        height: int = 480,
        *,
        seed: int = 0,
        table: TableLook | None = None,
        look: DieLook | None = None,
        die_size: float | None = None,
    ) -> None:
        self.width = width
        self.height = height
        self.rng = np.random.default_rng(seed)
        self.table = table or TableLook(kind="felt", color=(52, 105, 38), color2=(40, 80, 30), seed=seed)
        self.look = look or DEMO_LOOKS[int(self.rng.integers(len(DEMO_LOOKS)))]
        self.size = die_size or round(min(width, height) * 0.09, 1)
        self.dice: list[DiePose] = []
        """The dice lying on the table now."""
        self.scenes: list[Scene] = []
        """One scene per frame, in order."""
        self.exposure = 1.0
        self.shift = (0.0, 0.0)
        self.seed = seed

    def _add(self, dice: Sequence[DiePose], *, hand: tuple[float, float, float] | None = None, shift: tuple[float, float] | None = None) -> None:
        # One seed for the whole film: still frames are then one scene (rendered once), and the
        # hand keeps its look while it crosses the table.
        self.scenes.append(
            Scene(
                self.width,
                self.height,
                tuple(dice),
                self.table,
                exposure=self.exposure,
                shift=shift if shift is not None else self.shift,
                hand=hand,
                seed=self.seed,
                noise=1.5,
                jpeg=0,
            )
        )

    def _landing(self, taken: list[tuple[float, float, float, float]], margin: float) -> tuple[float, float, float]:
        """Where a thrown die comes to rest (x, y, angle): now and then against a die already
        there, else apart from them all."""
        s = self.size
        if taken and self.rng.random() < TOUCHING:
            spot = touching_spot(taken, s, 0.0, self.width, self.height, self.rng)
            if spot is not None:
                return spot
        for _ in range(200):
            x = float(self.rng.uniform(margin, self.width - margin))
            y = float(self.rng.uniform(margin, self.height - margin))
            if all(math.hypot(x - tx, y - ty) > 1.9 * s for tx, ty, _, _ in taken):
                return x, y, float(self.rng.uniform(0, 360))
        raise ValueError(f"no room for another die of {s:.0f} px on a {self.width}x{self.height} table")

    def throw(
        self,
        values: Sequence[int],
        frames: int = 24,
        spots: Sequence[tuple[float, float]] | None = None,
        *,
        looks: Sequence[DieLook] | None = None,
        wild: int | None = None,
    ) -> None:
        """Throw dice in from the bottom edge: they fly tumbling and blurred, slow down, and land
        (each at its own moment within ``frames``) showing ``values``, at ``spots`` or free places,
        some against a die already lying there. ``looks`` gives each die its own look (the film's
        set look otherwise); die ``wild`` of them is the wild die."""
        if looks is not None and len(looks) != len(values):
            raise ValueError(f"a throw needs one look per die, got {len(looks)} looks for {len(values)} dice")
        if wild is not None and not 0 <= wild < len(values):
            raise ValueError(f"the wild die must be one of the {len(values)} dice thrown, got index {wild}")
        if wild is not None and any(d.wild for d in self.dice):
            raise ValueError("the wild die already lies on the table; a throw cannot hold a second one")
        dice_looks = list(looks) if looks is not None else [self.look] * len(values)
        s = self.size
        taken = [(d.x, d.y, d.size, d.angle) for d in self.dice]
        targets: list[tuple[float, float, float]] = []
        for i in range(len(values)):
            spot = (*spots[i], float(self.rng.uniform(0, 360))) if spots is not None else self._landing(taken, 1.2 * s)
            targets.append(spot)
            taken.append((spot[0], spot[1], s, spot[2]))
        flights = []
        for (x, y, rest_angle), value in zip(targets, values):
            land = int(frames * self.rng.uniform(0.6, 1.0))
            start = (x + float(self.rng.uniform(-0.3, 0.3)) * self.width, self.height + s * float(self.rng.uniform(1, 3)))
            faces = [int(v) for v in self.rng.integers(1, 7, size=land // 3 + 1)]
            spin = float(self.rng.uniform(200, 700))
            flights.append((start, (x, y), land, faces, int(value), rest_angle - spin, spin))
        resting = list(self.dice)
        for f in range(frames):
            poses = list(resting)
            for k, (start, end, land, faces, value, angle, spin) in enumerate(flights):
                if f >= land:
                    poses.append(DiePose(end[0], end[1], s, angle + spin, value, dice_looks[k], wild=k == wild))
                    continue
                u, u_next = f / land, (f + 1) / land
                x = start[0] + (end[0] - start[0]) * _ease_out(u)
                y = start[1] + (end[1] - start[1]) * _ease_out(u)
                vx = (end[0] - start[0]) * (_ease_out(u_next) - _ease_out(u))
                vy = (end[1] - start[1]) * (_ease_out(u_next) - _ease_out(u))
                late = u > 0.8
                poses.append(
                    DiePose(
                        x,
                        y,
                        s,
                        angle + spin * _ease_out(u),
                        value if late else faces[f // 3],
                        dice_looks[k],
                        motion=(0.6 * vx, 0.6 * vy),
                        tumble=0.35 * (1 - u) / 0.2 if late else 0.9 - 0.4 * u,
                        wild=k == wild,
                    )
                )
            self._add(poses)
        self.dice = resting + [
            DiePose(end[0], end[1], s, angle + spin, value, dice_looks[k], wild=k == wild) for k, (_, end, _, _, value, angle, spin) in enumerate(flights)
        ]

    def rest(self, frames: int) -> None:
        """The dice lie still."""
        for _ in range(frames):
            self._add(self.dice)

    def knock(self, index: int, value: int, by: tuple[float, float], frames: int = 6) -> None:
        """Die ``index`` is knocked: it slides and tumbles ``by`` (dx, dy) px and lands showing ``value``."""
        die = self.dice[index]
        for f in range(frames):
            u = (f + 1) / frames
            step = (by[0] / frames, by[1] / frames)
            pose = replace(
                die,
                x=die.x + by[0] * u,
                y=die.y + by[1] * u,
                angle=die.angle + 90 * u,
                value=int(self.rng.integers(1, 7)) if u < 0.7 else value,
                motion=(0.6 * step[0], 0.6 * step[1]),
                tumble=0.8 * (1 - u) + 0.35,
            )
            self._add([*self.dice[:index], pose, *self.dice[index + 1 :]])
        self.dice[index] = replace(die, x=die.x + by[0], y=die.y + by[1], angle=die.angle + 90, value=value)

    def hop(self, values: Sequence[int], frames: int = 6) -> None:
        """Every die hops up and lands nearby showing ``values`` (a bounce off the box rim)."""
        starts = list(self.dice)
        moves = [(float(self.rng.uniform(-0.8, 0.8)) * self.size, float(self.rng.uniform(-0.8, 0.8)) * self.size) for _ in starts]
        for f in range(frames):
            u = (f + 1) / frames
            self._add(
                [
                    replace(
                        d,
                        x=d.x + dx * u,
                        y=d.y + dy * u,
                        angle=d.angle + 120 * u,
                        value=int(self.rng.integers(1, 7)),
                        motion=(0.6 * dx / frames, 0.6 * dy / frames),
                        tumble=0.9 - 0.3 * u,
                    )
                    for d, (dx, dy) in zip(starts, moves)
                ]
            )
        self.dice = [replace(d, x=d.x + dx, y=d.y + dy, angle=d.angle + 120, value=int(v)) for d, (dx, dy), v in zip(starts, moves, values)]

    def shake(self, frames: int, amplitude: float) -> None:
        """A hand-held or bumped camera: the whole picture jitters by up to ``amplitude`` px, dice still."""
        for _ in range(frames):
            jitter = (self.shift[0] + float(self.rng.uniform(-amplitude, amplitude)), self.shift[1] + float(self.rng.uniform(-amplitude, amplitude)))
            self._add(self.dice, shift=jitter)

    def bump(self, by: tuple[float, float], frames: int = 3) -> None:
        """The camera is knocked: the picture moves ``by`` px over ``frames`` and stays there."""
        start = self.shift
        for f in range(frames):
            u = (f + 1) / frames
            self._add(self.dice, shift=(start[0] + by[0] * u, start[1] + by[1] * u))
        self.shift = (start[0] + by[0], start[1] + by[1])

    def expose(self, gain: float) -> None:
        """Auto-exposure jumps: every frame from now on is ``gain`` times as bright."""
        self.exposure = gain

    def sweep(self, frames: int = 18) -> None:
        """A hand sweeps across from the right and pushes every die off the left edge."""
        s = self.size
        radius = 1.6 * s
        y = float(np.mean([d.y for d in self.dice])) if self.dice else self.height / 2
        start, end = self.width + radius, -3 * radius
        dice = list(self.dice)
        for f in range(frames):
            x = start + (end - start) * (f + 1) / frames
            step = (end - start) / frames
            pushed = []
            for d in dice:
                if x - radius < d.x + s / 2:
                    d = replace(d, x=x - radius - s * 0.6, motion=(0.6 * step, 0.0), tumble=0.5, angle=d.angle + 30)
                if d.x > -s:
                    pushed.append(d)
            dice = pushed
            self._add(dice, hand=(x, y, radius))
        self.dice = []

    def take(self, index: int) -> None:
        """Die ``index`` is picked up and leaves the table (set aside)."""
        del self.dice[index]

    def empty(self, frames: int) -> None:
        """An empty table."""
        self.dice = []
        for _ in range(frames):
            self._add([])

    def drain(self) -> list[Scene]:
        """The scenes written so far, handed over and forgotten (the demo's endless film)."""
        scenes, self.scenes = self.scenes, []
        return scenes


class DemoTable(BaseSource):
    """An endless, seeded film of Farkle rolls that waits for the players. Told what the game
    expects (:meth:`expect`), it throws only when the game asks for a roll, exactly the dice asked
    for, a moment after the asking (the player may bank or choose instead), sweeping the dice of the
    last throw away first; the dice then lie as they fell until the next roll is asked. Now and then
    a die is knocked as it lands, the camera is bumped or the exposure jumps, all before the dice
    come to rest. With no game (``expect(None)``, as it opens) it throws handfuls on its own, each
    swept away a few seconds later.

    With ``wild`` the set holds a wild die of a colour of its own (``DEMO_WILD_LOOKS``), thrown
    as :meth:`expect_wild` says; with ``spicy`` each die thrown has one face with red pips, drawn
    afresh for each die of each throw (a set with red bodies or red pips is swapped for white dice,
    on which red pips stand out). The frames' labels mark both."""

    live = True

    def __init__(
        self,
        width: int = 640,
        height: int = 480,
        *,
        seed: int = 0,
        realtime: bool = True,
        fps: float = 30.0,
        wild: bool = False,
        spicy: bool = False,
    ) -> None:
        super().__init__(realtime)
        if not (160 <= width <= 4096 and 120 <= height <= 4096):
            raise ValueError(f"the demo table renders 160x120 to 4096x4096 px, not {width}x{height}")
        self.seed = seed
        self.fps = fps
        self.size = (width, height)
        self.name = f"demo table (seed {seed}, {width}x{height})"
        self.rolls = 0
        self._asked: int | None = None
        self._pause = 0
        self._free = True
        self._lock = threading.Lock()
        self._film = Choreography(width, height, seed=seed)
        self.wild = wild
        """Whether the set holds a wild die."""
        self.spicy = spicy
        """Whether each die has a face with red pips."""
        self._wild_in_throw: bool | None = None
        if spicy and self._film.look in (DEMO_LOOKS[1], DEMO_LOOKS[2]):
            self._film.look = DEMO_LOOKS[0]
        self.wild_look = DEMO_WILD_LOOKS[DEMO_LOOKS.index(self._film.look)] if self._film.look in DEMO_LOOKS else DEMO_WILD_LOOKS[0]
        """The wild die's look: a body colour of its own beside the set's (``DEMO_WILD_LOOKS``)."""
        # The table opens empty for a moment: the window starts its game meanwhile, so even the
        # first throw holds the player's dice.
        self._film.empty(OPENING_FRAMES)
        self._queue: deque[Scene] = deque(self._film.drain())

    def expect(self, count: int | None) -> None:
        """The game asks for ``count`` dice thrown next: they are thrown once the film in hand is
        shown and a pause of ``THROW_PAUSE`` frames has passed while dice lie on the table (a
        request told again starts the pause again); 0: the game asks for no throw now, the dice lie
        as they are; None: no game, the demo throws handfuls on its own. Safe from any thread."""
        with self._lock:
            self._free = count is None
            self._asked = count if count else None
            self._pause = THROW_PAUSE

    def expect_wild(self, in_throw: bool | None) -> None:
        """Whether the wild die is among the next throws' dice, as the game knows it: False once
        the player has set it aside, True when it is rolled again; None lets the demo choose (always
        in a throw of six, else as often as a die picked at random would be). Safe from any thread."""
        with self._lock:
            self._wild_in_throw = in_throw

    def _marked(self, count: int) -> tuple[list[DieLook] | None, int | None]:
        """The looks of the next throw's ``count`` dice and which of them is the wild die, for a set
        with a wild die or red faces (None, None for a plain set)."""
        if not (self.wild or self.spicy):
            return None, None
        rng = np.random.default_rng([self.seed, self.rolls, 54])
        with self._lock:
            in_throw = self._wild_in_throw
        if in_throw is None:
            in_throw = count == 6 or rng.random() < count / 6
        wild = int(rng.integers(count)) if self.wild and in_throw else None
        looks = [self.wild_look if i == wild else self._film.look for i in range(count)]
        if self.spicy:
            looks = [replace(look, red_face=int(face)) for look, face in zip(looks, rng.integers(1, 7, size=count))]
        return looks, wild

    def _next_scenes(self) -> None:
        """The film goes on: the throw the game asks for once its pause is over (the dice lying
        swept away first), else the dice lie still a frame; with no game, a throw of its own."""
        with self._lock:
            count, free = self._asked, self._free
            due = count is not None and (self._pause <= 0 or not self._film.dice)
            if count is not None and not due:
                self._pause -= 1
            if due:
                self._asked = None
        film = self._film
        if not free and not due:
            film.rest(1)
            self._queue.extend(film.drain())
            return
        rng = np.random.default_rng([self.seed, self.rolls])
        drawn = int(rng.choice([6, 6, 6, 5, 4, 3, 2, 1]))
        if film.dice:
            film.sweep(int(rng.integers(14, 22)))
            film.empty(int(rng.integers(10, 20)))
        self._throw(count if count is not None and 1 <= count <= 6 else drawn, rng)
        if free:
            film.rest(int(rng.integers(35, 60)))
            film.sweep(int(rng.integers(14, 22)))
            film.empty(int(rng.integers(18, 30)))
        self._queue.extend(film.drain())

    def _throw(self, count: int, rng: np.random.Generator) -> None:
        """Throw ``count`` dice; now and then, before they come to rest, one is knocked as it
        lands, the camera is bumped or the exposure jumps."""
        film = self._film
        looks, wild = self._marked(count)
        film.throw([int(v) for v in rng.integers(1, 7, size=count)], frames=int(rng.integers(18, 30)), looks=looks, wild=wild)
        film.rest(int(rng.integers(1, 4)))
        twist = rng.random()
        if twist < 0.15 and film.dice:
            film.knock(int(rng.integers(len(film.dice))), int(rng.integers(1, 7)), (float(rng.uniform(-1.5, 1.5)) * film.size, float(rng.uniform(-1.5, 1.5)) * film.size))
        elif twist < 0.3:
            film.bump((float(rng.uniform(-15, 15)), float(rng.uniform(-15, 15))))
        elif twist < 0.4:
            film.expose(float(rng.uniform(0.75, 1.3)))
        film.rest(int(rng.integers(25, 45)))
        self.rolls += 1

    def read(self) -> Frame | None:
        if not self._queue:
            self._next_scenes()
        scene = self._queue.popleft()
        image, labels = render_scene(scene)
        self._pace()
        frame = Frame(image, self._index, self._index / self.fps, labels)
        self._index += 1
        return frame
