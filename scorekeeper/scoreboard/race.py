"""The score race: every player's banked score after every turn of a game, and how it is drawn (no Qt here).

:func:`score_race` takes a game's log and keeps its steps in force, so an undo or a corrected turn
gives a new race. :func:`race_drawing` lays the race out in a box of any size as plain shapes
(shaded bands, rules, one trace per player, crosses, labels); the window, table mode and the PDF
paint those shapes with Qt's painter (:mod:`scorekeeper.export.race_painter`), the phone page and the HTML
sheet write them as SVG (:mod:`scorekeeper.scoreboard.race_svg`), so all four show the same chart.

>>> from scorekeeper.game import Game
>>> from scorekeeper.rules import load_rules
>>> game = Game.new(load_rules("retail"), ["Ann", "Bob"])
>>> game.roll("1 1 5 2 3 4"); game.keep("1 1 5"); game.bank()
>>> game.roll("2 2 3 3 4 6"); game.farkle()
>>> race = score_race(game.events)
>>> [(line.name, line.scores, line.farkles) for line in race.lines]
[('Ann', (0, 250, 250), ()), ('Bob', (0, 0, 0), (2,))]
>>> race.turns, race.target, race.entry_minimum, race.lap_from
(2, 10000, 0, None)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from scorekeeper.errors import ScorekeeperError
from scorekeeper.game import Event, GameStarted, Outcome, StepsInForce, apply
from scorekeeper.game.state import start

SEAT_COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#8c564b", "#56b4e9", "#e69f00", "#7f7f7f")
"""Each seat's line colour, in seat order (again from the first after the eighth): told apart by
people with the common colour blindnesses."""
LAP_COLOUR = "#f39c12"
"""The final lap's shading, the colour of the window's last-lap banner."""
INK = "#222222"
"""Axes, the target and the labels."""
GRID = "#cccccc"
"""The score grid."""
MOST_SCORE_TICKS = 6
"""At most this many score labels up the side."""
MOST_TURN_TICKS = 10
"""At most this many turn labels along the bottom."""
CHARACTER = 0.6
"""A character's width over its type's size (a sans-serif face, about): for laying out labels."""


@dataclass(frozen=True)
class RaceLine:
    """One player's line."""

    name: str
    """The player's name."""
    colour: str
    """The line's colour, ``#rrggbb``."""
    scores: tuple[int, ...]
    """Banked score after each turn of the game, from 0 (before the first turn) to the last finished turn."""
    farkles: tuple[int, ...]
    """The turns (numbered from 1) this player ended with a Farkle."""
    winner: bool
    """Whether this player won the game."""


@dataclass(frozen=True)
class Race:
    """Everything the score race shows."""

    lines: tuple[RaceLine, ...]
    """One line per player, in seat order."""
    turns: int
    """Turns finished in the game."""
    target: int
    """The score the game is played to (marked across the chart)."""
    entry_minimum: int
    """Points needed in one turn to get on the board (marked; 0: none)."""
    lap_from: int | None
    """The turn after which the final lap began (None: no final lap yet)."""
    last_turn: int
    """The turn the chart runs to: the last finished, or while the final lap is played the one that ends it."""
    lowest: int
    """The bottom of the score axis (below 0 only where a penalty took a score below 0)."""
    highest: int
    """The top of the score axis (at least the target)."""
    score_ticks: tuple[int, ...]
    """Scores labelled up the side."""
    turn_ticks: tuple[int, ...]
    """Turns labelled along the bottom."""

    def place(self, turn: float, score: float) -> tuple[float, float]:
        """Where ``score`` after ``turn`` lies in the chart, as shares of its width from the left and
        of its height from the top."""
        across = turn / max(1, self.last_turn)
        down = (self.highest - score) / max(1, self.highest - self.lowest)
        return across, down


def nice_step(span: float, most: int, steps: Sequence[float] = (1, 2, 2.5, 5)) -> int:
    """The smallest round step (1, 2, 2.5 or 5 times a power of ten, whole) that covers ``span``
    in at most ``most`` steps.

    >>> nice_step(10000, 6), nice_step(12, 10), nice_step(3, 10), nice_step(0, 6)
    (2000, 2, 1, 1)
    """
    raw = max(span, 1) / most
    power = 10 ** math.floor(math.log10(raw))
    for multiple in (*steps, 10):
        step = multiple * power
        if step >= raw and step == int(step):
            return int(step)
    return int(10 * power)


class RaceError(ScorekeeperError):
    """A log the score race cannot be drawn from."""


def score_race(events: Sequence[Event]) -> Race:
    """The score race of the game ``events`` make (its log: undos, redos and corrected turns taken
    into account)."""
    if not events or not isinstance(events[0], GameStarted):
        raise RaceError("the score race needs a game's log, which begins with the start of the game")
    first = events[0]
    state = start(first)
    lap_from: int | None = None
    for action in StepsInForce.of(events).active:
        state = apply(state, action)
        if lap_from is None and state.lap_mark is not None:
            lap_from = len(state.history)
    seats = len(state.players)
    running = [0] * seats
    scores: list[list[int]] = [[0] for _ in range(seats)]
    farkles: list[list[int]] = [[] for _ in range(seats)]
    for number, record in enumerate(state.history, start=1):
        running[record.player] = record.score_after
        if record.outcome is Outcome.FARKLED:
            farkles[record.player].append(number)
        for seat in range(seats):
            scores[seat].append(running[seat])
    turns = len(state.history)
    last_turn = max(turns, 1)
    if lap_from is not None and not state.over:
        last_turn = max(last_turn, lap_from + seats - 1)
    every = [score for line in scores for score in line]
    step = nice_step(max([state.target, *every]) - min([0, *every]), MOST_SCORE_TICKS)
    lowest = math.floor(min([0, *every]) / step) * step
    highest = math.ceil(max([state.target, *every]) / step) * step
    turn_step = nice_step(last_turn, MOST_TURN_TICKS, (1, 2, 5))
    return Race(
        lines=tuple(
            RaceLine(player.name, SEAT_COLOURS[seat % len(SEAT_COLOURS)], tuple(scores[seat]), tuple(farkles[seat]), seat in state.winners)
            for seat, player in enumerate(state.players)
        ),
        turns=turns,
        target=state.target,
        entry_minimum=state.rules.turn.entry_minimum,
        lap_from=lap_from,
        last_turn=last_turn,
        lowest=lowest,
        highest=highest,
        score_ticks=tuple(range(lowest, highest + 1, step)),
        turn_ticks=tuple(range(0, last_turn + 1, turn_step)),
    )


@dataclass(frozen=True)
class Shade:
    """A filled rectangle."""

    x: float
    """Left edge."""
    y: float
    """Top edge."""
    width: float
    """Width."""
    height: float
    """Height."""
    colour: str
    """Fill colour, ``#rrggbb``."""
    opacity: float
    """Fill opacity, 0 to 1."""


@dataclass(frozen=True)
class Rule:
    """A straight line."""

    x1: float
    """Start, across."""
    y1: float
    """Start, down."""
    x2: float
    """End, across."""
    y2: float
    """End, down."""
    colour: str
    """Colour, ``#rrggbb``."""
    width: float
    """Stroke width."""
    dashed: bool = False
    """Drawn dashed (the entry minimum) rather than whole."""


@dataclass(frozen=True)
class Trace:
    """A player's line through their score after each turn."""

    name: str
    """Whose line it is."""
    points: tuple[tuple[float, float], ...]
    """The line's corners, one per turn from turn 0."""
    colour: str
    """Colour, ``#rrggbb``."""
    width: float
    """Stroke width."""


@dataclass(frozen=True)
class Cross:
    """A Farkle: an x on the player's line."""

    x: float
    """Centre, across."""
    y: float
    """Centre, down."""
    size: float
    """Half the cross's width."""
    colour: str
    """Colour, ``#rrggbb``."""
    width: float
    """Stroke width."""


@dataclass(frozen=True)
class Label:
    """A line of text."""

    x: float
    """Where the text is anchored, across."""
    y: float
    """Its baseline, down."""
    text: str
    """The text (plain; whoever draws it escapes it as its format needs)."""
    size: float
    """Type size."""
    colour: str
    """Colour, ``#rrggbb``."""
    anchor: str = "start"
    """Which point of the text ``x`` is: ``"start"``, ``"middle"`` or ``"end"``."""
    bold: bool = False
    """Drawn bold."""


Part = Shade | Rule | Trace | Cross | Label
"""A shape of the drawing."""


@dataclass(frozen=True)
class RaceDrawing:
    """The race laid out in a box, as shapes to draw in order (later ones over earlier)."""

    width: float
    """The box's width."""
    height: float
    """The box's height."""
    parts: tuple[Part, ...]
    """The shapes, back to front."""
    description: str
    """The chart in a sentence, for a screen reader or a title."""


def _legend(race: Race, width: float, size: float) -> tuple[list[Part], float]:
    """The players' names, each after a stroke of their colour, in rows across the top; and the rows' height."""
    parts: list[Part] = []
    x, row, line_height = 0.0, 0, size * 1.5
    for line in race.lines:
        text = line.name + (" (winner)" if line.winner else "")
        span = size * 1.6 + len(text) * size * CHARACTER + size
        if x > 0 and x + span > width:
            x, row = 0.0, row + 1
        y = row * line_height + size * 1.1
        parts.append(Rule(x, y - size * 0.35, x + size * 1.2, y - size * 0.35, line.colour, size / 5))
        parts.append(Label(x + size * 1.6, y, text, size, INK, bold=line.winner))
        x += span
    return parts, (row + 1) * line_height + size * 0.4


def describe_race(race: Race) -> str:
    """The race in a sentence: who stands where after how many turns.

    >>> from scorekeeper.game import Game
    >>> from scorekeeper.rules import load_rules
    >>> game = Game.new(load_rules("retail"), ["Ann", "Bob"])
    >>> game.roll("1 1 5 2 3 4"); game.keep("1 1 5"); game.bank()
    >>> describe_race(score_race(game.events))
    'Score race after 1 turn, to 10,000: Ann 250, Bob 0.'
    """
    standing = ", ".join(f"{line.name} {line.scores[-1]:,}" for line in race.lines)
    turns = f"{race.turns} turn{'' if race.turns == 1 else 's'}"
    return f"Score race after {turns}, to {race.target:,}: {standing or 'no players yet'}."


def race_drawing(race: Race, width: float, height: float, size: float) -> RaceDrawing:
    """The race laid out in a ``width`` x ``height`` box with type ``size`` high: the players' names
    across the top, scores up the left, turns along the bottom; the final lap shaded, the target and
    the entry minimum ruled across, one trace per player, each Farkle an x on its player's line (over
    the words on the chart: the players' lines are never hidden)."""
    parts, legend = _legend(race, width, size)
    longest = max(len(f"{tick:,}") for tick in race.score_ticks)
    left = longest * size * CHARACTER + size * 0.8
    top = legend + size * 0.6
    right = width - size * 1.2
    bottom = height - size * 2.6
    across, down = max(1.0, right - left), max(1.0, bottom - top)

    def at(turn: float, score: float) -> tuple[float, float]:
        share_x, share_y = race.place(turn, score)
        return left + share_x * across, top + share_y * down

    notes: list[Label] = []
    if race.lap_from is not None:
        start_x, _ = at(race.lap_from, 0)
        parts.append(Shade(start_x, top, right - start_x, down, LAP_COLOUR, 0.22))
        notes.append(Label(right - size * 0.3, top + size * 1.1, "final lap", size * 0.85, "#8a5a00", "end", bold=True))
    for tick in race.score_ticks:
        _, y = at(0, tick)
        parts.append(Rule(left, y, right, y, GRID, max(0.5, size / 16)))
        parts.append(Label(left - size * 0.4, y + size * 0.35, f"{tick:,}", size, INK, "end"))
    for tick in race.turn_ticks:
        x, _ = at(tick, race.lowest)
        parts.append(Rule(x, bottom, x, bottom + size * 0.3, INK, max(0.5, size / 12)))
        parts.append(Label(x, bottom + size * 1.35, str(tick), size, INK, "middle"))
    parts.append(Label((left + right) / 2, height - size * 0.2, "turns", size * 0.85, INK, "middle"))
    parts.append(Rule(left, top, left, bottom, INK, max(0.75, size / 12)))
    parts.append(Rule(left, bottom, right, bottom, INK, max(0.75, size / 12)))
    if race.entry_minimum:
        _, y = at(0, race.entry_minimum)
        parts.append(Rule(left, y, right, y, INK, max(0.75, size / 10), dashed=True))
        notes.append(Label(left + size * 0.3, y - size * 0.3, f"on the board: {race.entry_minimum:,}", size * 0.8, INK))
    _, y = at(0, race.target)
    parts.append(Rule(left, y, right, y, INK, max(1.0, size / 7)))
    notes.append(Label(left + size * 0.3, y - size * 0.3, f"target {race.target:,}", size * 0.8, INK, bold=True))
    parts.extend(notes)
    for line in race.lines:
        points = tuple(at(turn, score) for turn, score in enumerate(line.scores))
        parts.append(Trace(line.name, points, line.colour, max(1.0, size / 5)))
    for line in race.lines:
        for turn in line.farkles:
            x, y = at(turn, line.scores[turn])
            parts.append(Cross(x, y, size * 0.4, line.colour, max(1.0, size / 6)))
    if not race.turns:
        parts.append(Label((left + right) / 2, (top + bottom) / 2, "No turn finished yet", size, INK, "middle"))
    return RaceDrawing(width, height, tuple(parts), describe_race(race))
