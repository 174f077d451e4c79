"""The table session: settled dice become the game's rolls, and taps become its corrections.

A :class:`TableSession` sits between the camera pipeline and whatever shows the game (the
window, or ``scorekeeper watch --game``). It is fed the watch loop's steps and settle events
and told when the game changed; it decides when a roll is taken, what to ask the players, which
dice the view should draw (the roll taken, frozen, or the live finds), and how many dice the
game expects next (for the reader and the demo table). No Qt here: tests drive it directly.

A roll is taken when the dice in the rolling area have settled and none is unsure; unsure dice
are flagged and the roll waits until each is confirmed or corrected by a tap.

>>> from scorekeeper.rules import load_rules
>>> from scorekeeper.game import Game
>>> session = TableSession(GameController(Path("home"), Game.new(load_rules("retail"), ["Ann"])), Path("corrections"))
>>> session.expected
6
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from scorekeeper.game import Action, DiceRolled, DieCorrected, GameState, Phase
from scorekeeper.game.describe import tap_text
from scorekeeper.game.controller import GameController
from scorekeeper.camera.calibration import WHOLE_FRAME
from scorekeeper.camera.settling import EventKind, SettleEvent
from scorekeeper.rules import Dice, DieToken, GameKind, IllegalRoll, read_die, score_roll
from scorekeeper.table_session.tap_pictures import TapPictures
from scorekeeper.table_session.roll_pictures import draw_roll, encode_jpeg, write_photo
from scorekeeper.vision.corrections import Box
from scorekeeper.vision.detections import Detections

log = logging.getLogger(__name__)

IN_PLACE = 0.3
"""Share of a read die's box a find must cover for the die to lie where it was read."""

ASTRAY_FRAMES = 3
"""Frames in a row with a die of the roll taken not where it was read before the boxes drawn are
the live finds (a hand sweeping the dice away, a die picked up), not the roll."""

TAP_TO_CONFIRM = "Tap each flagged die (?) to confirm or correct it; the roll is taken then."


def scoring_mask(state: GameState | None, values: NDArray[np.int64]) -> NDArray[np.bool_]:
    """Which dice of a roll are part of its best keep (drawn in the scoring colour); none of a roll
    with fewer dice than are in play, which is not scored (:meth:`GameState.roll_score`)."""
    mask = np.zeros(len(values), bool)
    if state is None or state.turn is None or not len(values) or len(values) < state.turn.dice_left:
        return mask
    try:
        best = score_roll(state.rules, Dice(int(v) for v in values)).best
    except IllegalRoll:
        # more dice in view than a roll holds (a spare die, a die read twice while it tumbles):
        # the settled roll gets the game's message; the live picture just goes uncoloured
        return mask
    if best is None:
        return mask
    wanted = list(best.keep.values)
    for index, value in enumerate(values.tolist()):
        if value in wanted:
            wanted.remove(value)
            mask[index] = True
    return mask


def roll_corrections(actions: Sequence[Action]) -> list[DieCorrected]:
    """The corrections in force of the latest roll among ``actions`` (a game's steps in force), in order.

    >>> roll_corrections([DiceRolled(Dice.from_str("2 3")), DieCorrected(3, 5), DiceRolled(Dice.from_str("2 4")), DieCorrected(4, 6)])
    [DieCorrected(was=4, now=6, picture=None, photo=None)]
    """
    corrections: list[DieCorrected] = []
    for action in reversed(actions):
        if isinstance(action, DiceRolled):
            break
        if isinstance(action, DieCorrected):
            corrections.append(action)
    return corrections[::-1]


@dataclass(frozen=True)
class Tap:
    """A tap the game took as a correction of the roll taken."""

    box: Box
    """The tapped die's box, frame pixels."""
    step: DieCorrected
    """The correction step the tap became."""


@dataclass
class DiceOnTable:
    """Dice the session tracks between taps: a roll waiting for confirmations, or the roll taken."""

    frame: NDArray[np.uint8]
    """The picture the dice were settled in (for the correction crops)."""
    boxes: list[tuple[float, float, float, float]]
    """Each die's box, frame pixels."""
    values: list[int]
    """Each die's face as it stands now (taps included)."""
    unsure: list[bool]
    """Which dice still wait for a tap."""
    read: tuple[int, ...] = ()
    """The values as the camera read them (what the roll event records)."""
    read_boxes: tuple[tuple[float, float, float, float], ...] = ()
    """The boxes of the dice as the camera read them (not those tapped in)."""
    corrections: list[tuple[int | None, int | None, Box, Path | None]] = field(default_factory=list)
    """Corrections made before the roll was taken (was, now, the die's box, the picture kept for
    training); each becomes a game event with it."""
    taps: list[Tap] = field(default_factory=list)
    """The taps the game took as corrections of this roll, in the order taken; those undone since
    stay for a redo until a new tap replaces them."""
    drawn: int = 0
    """How many of ``taps`` (the first ones) :attr:`boxes` and :attr:`values` show."""

    @classmethod
    def from_detections(cls, dice: Detections, unsure: NDArray[np.bool_], frame: NDArray[np.uint8]) -> DiceOnTable:
        return cls(
            frame,
            [(float(x0), float(y0), float(x1), float(y1)) for x0, y0, x1, y1 in dice.boxes],
            [int(v) for v in dice.values],
            [bool(u) for u in unsure],
            tuple(int(v) for v in dice.values),
            tuple((float(x0), float(y0), float(x1), float(y1)) for x0, y0, x1, y1 in dice.boxes),
        )

    def in_place(self, live: Detections) -> bool:
        """Whether every die the camera read still lies where it was read (a find overlapping its box)."""
        if not self.read_boxes:
            return True
        if not len(live):
            return False
        read = np.array(self.read_boxes, np.float32)
        ix = np.clip(np.minimum(read[:, None, 2], live.boxes[None, :, 2]) - np.maximum(read[:, None, 0], live.boxes[None, :, 0]), 0, None)
        iy = np.clip(np.minimum(read[:, None, 3], live.boxes[None, :, 3]) - np.maximum(read[:, None, 1], live.boxes[None, :, 1]), 0, None)
        area = (read[:, 2] - read[:, 0]) * (read[:, 3] - read[:, 1])
        return bool(((ix * iy).max(axis=1) >= IN_PLACE * area).all())

    def detections(self) -> Detections:
        if not self.values:
            return Detections.empty()
        return Detections(np.array(self.boxes, np.float32), np.array(self.values), np.ones(len(self.values), np.float32))

    def after(self, box: Box, face: int | None) -> DiceOnTable:
        """A copy of these dice with the die at ``box`` showing ``face`` (see :meth:`set_die`)."""
        copy = replace(self, boxes=list(self.boxes), values=list(self.values), unsure=list(self.unsure), corrections=[], taps=[], drawn=0)
        copy.set_die(box, face)
        return copy

    def follow(self, corrections: Sequence[DieCorrected]) -> None:
        """Show the taps whose steps the roll's ``corrections`` in force begin with (see
        :func:`roll_corrections`): a tap undone in the game shows its die as before it again, and
        one done again shows the tapped face."""
        standing = 0
        while standing < min(len(self.taps), len(corrections)) and self.taps[standing].step == corrections[standing]:
            standing += 1
        while self.drawn > standing:
            self.drawn -= 1
            undone = self.taps[self.drawn]
            self.set_die(undone.box, _face(undone.step.was))
        while self.drawn < standing:
            redone = self.taps[self.drawn]
            self.set_die(redone.box, _face(redone.step.now))
            self.drawn += 1

    @property
    def tapped_away(self) -> list[Box]:
        """The boxes of finds read as dice that a tap said are no die."""
        return [box for box in self.read_boxes if box not in self.boxes]

    def set_die(self, box: Box, face: int | None) -> None:
        """Make the die at ``box`` show ``face``; None: no die there (not a die, or a missed die undone)."""
        if box in self.boxes:
            index = self.boxes.index(box)
            if face is None:
                del self.boxes[index], self.values[index], self.unsure[index]
            else:
                self.values[index] = face
        elif face is not None:
            self.boxes.append(box)
            self.values.append(face)
            self.unsure.append(False)


def _face(die: DieToken | None) -> int | None:
    """The face of a tapped die's token (the camera's dice carry no marks yet)."""
    return None if die is None else read_die(die)[0]


@dataclass(frozen=True, eq=False)
class Drawing:
    """What the live view draws over the picture, as the session sees the table."""

    dice: Detections
    """The dice drawn in the rolling area (taps name them by index)."""
    scoring: NDArray[np.bool_]
    """(n,) which of them score in the roll."""
    unsure: NDArray[np.bool_]
    """(n,) which of them need a tap to confirm."""
    aside: Detections
    """Dice seen outside the rolling area (set aside)."""
    frozen: bool = False
    """True: the boxes are the roll taken (or waiting for taps) as it was read, and taps correct
    it. False: the boxes are what the camera finds now, which nothing has taken."""
    caption: str = ""
    """One line saying which of the two the boxes are."""

    @classmethod
    def empty(cls) -> Drawing:
        """Nothing to draw."""
        return cls(Detections.empty(), np.zeros(0, bool), np.zeros(0, bool), Detections.empty())


class TableSession:
    """The rolling area, the dice set aside, taking a roll, what to ask, taps and corrections."""

    def __init__(
        self,
        play: GameController,
        corrections: Path,
        *,
        die_size: float = 0.0,
        on_change: Callable[[], None] | None = None,
        on_expect: Callable[[int | None], None] | None = None,
    ) -> None:
        """``play``: the game the session plays into; whoever drives the session calls
        :meth:`game_changed` when it changes. ``on_change`` is called whenever what is drawn or
        asked changed; ``on_expect`` with the number of dice the game expects thrown next (0: none
        now, None: no dice game on)."""
        self.play = play
        self.die_size = die_size
        """A die's edge in frame pixels, from calibration (0: not measured): a missed die tapped in gets a box this big."""
        self.pictures = TapPictures(corrections)
        self.keep_photos = True
        """Whether each roll taken (and each tap correcting it) keeps a picture beside the journal."""
        self.area: Sequence[tuple[float, float]] = WHOLE_FRAME
        """The rolling area's corners (fractions of the frame), from calibration: what a roll's picture shows."""
        self.on_change: Callable[[], None] = lambda: None
        self.on_expect: Callable[[int | None], None] = lambda count: None
        self.pending: DiceOnTable | None = None
        """A settled roll waiting for taps on its unsure dice."""
        self.taken: DiceOnTable | None = None
        """The roll the game has on the table, as the camera read it and taps corrected it."""
        self.on_table = False
        """Whether the dice of ``taken`` still lie as they were read: drawn frozen, tappable."""
        self._astray = 0
        self._moved = False
        self.prompt = ""
        """What to ask the players now ("" for nothing)."""
        self._prompt_at: tuple[object, ...] | None = None
        self._expect_key: tuple[object, ...] | None = None
        self.live = Detections.empty()
        """The dice the camera finds in the rolling area now."""
        self.aside = Detections.empty()
        """The dice the camera finds outside the rolling area now."""
        self.expected: int | None = None
        """Dice the game expects thrown next: 0 none now, None no dice game on."""
        self.on_confirmed: Callable[[DiceOnTable], None] = lambda dice: None
        """Called with each roll taken by the camera that the game moved on from without undoing
        it: the players confirmed its dice as they now stand (taps included); the table learns them."""
        self._taken_at: tuple[int, int, int] = (0, 0, 0)
        self.game_changed()
        self.on_change = on_change or self.on_change
        self.on_expect = on_expect or self.on_expect

    # what the game says

    @property
    def state(self) -> GameState | None:
        game = self.play.game
        return game.state if game is not None else None

    def _position(self) -> tuple[object, ...]:
        """Where the game stands, for telling when a question stopped applying."""
        state = self.state
        if state is None or state.turn is None:
            return (id(self.play.game), None)
        turn = state.turn
        return (id(self.play.game), len(state.history), state.phase, turn.player, turn.dice_left, len(turn.rolls), len(turn.keeps))

    def ask(self, text: str) -> None:
        """Say ``text`` to the players until the game or the table moves on."""
        self.prompt = text
        self._prompt_at = self._position()
        self.on_change()

    def game_changed(self) -> None:
        """The game moved on (a step, an undo, a new or resumed game): follow it."""
        state = self.state
        game = self.play.game
        self.pictures.follow(game, self.play.journal)
        if self.pending is not None and (state is None or state.phase is not Phase.TO_ROLL):
            self.pending = None
        if self.taken is not None and (state is None or state.phase is not Phase.TO_KEEP):
            if self._kept_on(state):
                self.on_confirmed(self.taken)
            self.taken = None
        turn = state.turn if state is not None else None
        if self.taken is not None and game is not None and turn is not None and turn.roll is not None:
            self.taken.follow(roll_corrections(game.actions))
            if sorted(self.taken.values) != list(turn.roll.values):
                self.taken = None
        if self.prompt and self._prompt_at != self._position() and self.pending is None:
            self.prompt = ""
        self._expect()
        self.on_change()

    def _kept_on(self, state: GameState | None) -> bool:
        """Whether the game moved on from the roll taken (a keep, a bank, a Farkle) rather than undoing it."""
        if state is None:
            return False
        history, rolls, game = self._taken_at
        if game != id(self.play.game):
            return False
        if len(state.history) != history:
            return len(state.history) > history
        return state.turn is not None and len(state.turn.rolls) >= rolls

    def _expect(self) -> None:
        state = self.state
        if state is None or state.rules.kind is not GameKind.DICE or state.turn is None:
            count: int | None = None
        else:
            count = state.turn.dice_left if state.can_roll() else 0
        key = (self._position(), count)
        if key != self._expect_key:
            self._expect_key = key
            self.expected = count
            self.on_expect(count)

    # what the camera says

    def saw(self, dice: Detections, aside: Detections) -> None:
        """The dice found in the rolling area and set aside in the latest frame read. The roll
        taken is drawn (frozen) while its dice lie where they were read; once they do not for a
        few frames (swept, picked up, covered by a hand) the live finds are, until they are back."""
        self.live, self.aside = dice, aside
        if self.taken is None:
            return
        if self.taken.in_place(dice):
            self._astray = 0
            if not self.on_table and not self._moved:
                self.on_table = True
                self.on_change()
        elif self.on_table:
            self._astray += 1
            if self._astray >= ASTRAY_FRAMES:
                self.on_table = False
                self.on_change()

    def table_event(self, event: SettleEvent, frame: NDArray[np.uint8]) -> None:
        """A settle event of the watch loop, and the picture it happened on."""
        if event.kind is EventKind.SETTLED:
            self._settled(event, frame)
            return
        self.on_table = False
        self._moved = True
        if self.pending is not None:
            self.pending = None
        if self.prompt:
            self.prompt = ""
        self.on_change()

    def _settled(self, event: SettleEvent, frame: NDArray[np.uint8]) -> None:
        state = self.state
        if state is None or state.rules.kind is not GameKind.DICE or state.over or state.turn is None:
            return
        if state.phase is not Phase.TO_ROLL or not state.can_roll():
            if state.phase is Phase.TO_KEEP and state.roll_score() is None:
                missing = state.missing_dice()
                self.ask(
                    f"The roll on the table waits for {missing} {'die' if missing == 1 else 'dice'} not read: "
                    "tap each in where it lies, or undo the roll with Z and throw again."
                )
            elif state.phase is Phase.TO_KEEP:
                self.ask("A roll is on the table: keep dice from it first (or undo it with Z).")
            return
        count, left = len(event.dice), state.turn.dice_left
        if not count:
            return
        if count > left:
            name = state.current.name if state.current else ""
            self.ask(
                f"{count} dice in the rolling area, but {name} has {left} to roll: move the kept dice out "
                "of the rolling area."
            )
            return
        dice = DiceOnTable.from_detections(event.dice, event.unsure, frame)
        if any(dice.unsure):
            self.pending = dice
            self.ask(TAP_TO_CONFIRM)
        else:
            self._take_roll(dice)
        self._check_aside()

    def _check_aside(self) -> None:
        """The dice set aside should be the ones kept this turn; if not, ask."""
        state = self.state
        if state is None or state.turn is None or not len(self.aside):
            return
        kept = list(state.turn.set_aside)
        aside = self.aside.roll()
        if aside != kept:
            self.ask(
                f"The dice set aside show {' '.join(map(str, aside)) or 'nothing'}, but the keeps were "
                f"{' '.join(map(str, kept)) or 'none'}: is the right die out of the rolling area?"
            )

    def photo(self, dice: DiceOnTable) -> str | None:
        """Keep the picture of ``dice`` as they stand beside the game's journal; its name (SHA-256),
        or None when no pictures are kept (switched off, no journal, or the disk refused: the roll
        goes on without one, and the log says why)."""
        journal = self.play.journal
        if not self.keep_photos or journal is None:
            return None
        try:
            image = draw_roll(dice.frame, dice.boxes, dice.values, dice.read_boxes, dice.read, self.area)
            return write_photo(journal.path, encode_jpeg(image))
        except OSError as exc:
            log.warning("the roll's picture was not kept: %s", exc)
            return None

    def _take_roll(self, dice: DiceOnTable) -> None:
        self.pending = None
        as_read = DiceOnTable(dice.frame, list(dice.read_boxes), list(dice.read), [False] * len(dice.read), dice.read, dice.read_boxes)
        if not self.play.take(DiceRolled(Dice(dice.read), "camera", self.photo(as_read))):
            return
        for number, (was, now, box, picture) in enumerate(dice.corrections):
            as_read = as_read.after(box, now)
            step = DieCorrected(was, now, picture.name if picture is not None else None, self.photo(as_read))
            if not self.play.take(step):
                for refused in dice.corrections[number:]:
                    self.pictures.refused(refused[3])
                break
            dice.taps.append(Tap(box, step))
            dice.drawn += 1
        dice.corrections.clear()
        dice.unsure = [False] * len(dice.values)
        state = self.state
        self._taken_at = (len(state.history) if state else 0, len(state.turn.rolls) if state and state.turn else 0, id(self.play.game))
        self.taken = dice
        self.on_table = True
        self._moved = False
        self._astray = 0
        self.prompt = ""
        self.game_changed()

    # what the view draws

    def drawing(self) -> Drawing:
        """The boxes to draw now: the roll waiting for taps, the roll taken while its dice lie as
        read, else the live finds."""
        state = self.state
        frozen = self.pending or (self.taken if self.on_table else None)
        if frozen is not None:
            dice = frozen.detections()
            unsure = np.array(frozen.unsure, bool)
            caption = "Flagged dice wait for a tap" if frozen is self.pending else f"Roll taken: {' '.join(map(str, sorted(frozen.values)))}"
            return Drawing(dice, scoring_mask(state, dice.values), unsure, self.aside, True, caption)
        caption = "Live view"
        if self.taken is not None:
            caption += f" (the roll taken, {' '.join(map(str, sorted(self.taken.values)))}, has been moved)"
        live = self.live
        return Drawing(live, scoring_mask(state, live.values), live.unsure, self.aside, False, caption)

    def tappable(self) -> DiceOnTable | None:
        """The dice taps correct now: those drawn frozen; None over the live view."""
        return self.pending or (self.taken if self.on_table else None)

    def tap_refused(self) -> None:
        """A die was tapped where nothing can be corrected: say how it is done."""
        if self.taken is not None:
            self.ask("The dice of the roll taken have moved: correct it by typing (c WAS NOW), or undo it with Z.")
        else:
            self.ask("Tap a die once its roll is taken (or while it is flagged ?).")

    # taps

    def correct(self, dice: DiceOnTable, index: int, face: int | None) -> None:
        """Die ``index`` of ``dice`` shows ``face`` (None: it is no die)."""
        was, box = dice.values[index], dice.boxes[index]
        if dice is self.pending:
            if face != was:
                dice.corrections.append((was, face, box, self.pictures.keep(dice.frame, box, was, face)))
            dice.unsure[index] = False
            dice.set_die(box, face)
        elif face == was:
            said = tap_text(was, face)
            self.ask(f"{said[0].upper()}{said[1:]}: nothing changed.")
            return
        elif not self._tap(dice, box, was, face):
            return
        self._after_tap(dice, tap_text(was, face))

    def add_missed(self, dice: DiceOnTable, x: float, y: float, face: int) -> None:
        """A die the camera missed, at (``x``, ``y``) frame pixels, shows ``face``."""
        sizes = [b[2] - b[0] for b in dice.boxes]
        half = (float(np.median(sizes)) if sizes else max(self.die_size, 40.0)) / 2
        box = (x - half, y - half, x + half, y + half)
        if dice is self.pending:
            dice.corrections.append((None, face, box, self.pictures.keep(dice.frame, box, None, face)))
            dice.set_die(box, face)
        elif not self._tap(dice, box, None, face):
            return
        self._after_tap(dice, tap_text(None, face))

    def _tap(self, dice: DiceOnTable, box: Box, was: int | None, face: int | None) -> bool:
        """Correct the roll taken: the tap replaces the taps undone since (they stay for a redo if
        the game refuses it), and the dice drawn follow once the game has the correction."""
        picture = self.pictures.keep(dice.frame, box, was, face)
        step = DieCorrected(was, face, picture.name if picture is not None else None, self.photo(dice.after(box, face)))
        undone = dice.taps[dice.drawn :]
        dice.taps[dice.drawn :] = [Tap(box, step)]
        if self.play.take(step):
            return True
        dice.taps[dice.drawn :] = undone
        self.pictures.refused(picture)
        return False

    def _after_tap(self, dice: DiceOnTable, done: str) -> None:
        """Follow a tap that did ``done`` (see :func:`tap_text`): a roll waiting for taps is taken
        once none is flagged, and until then says what the tap did and how many flags are left."""
        if dice is self.pending and not any(dice.unsure):
            self._take_roll(dice)
            return
        if dice is self.pending:
            left = sum(dice.unsure)
            self.ask(
                f"{done[0].upper()}{done[1:]}. {left} flagged {'die' if left == 1 else 'dice'} (?) left to tap; "
                "the roll is taken then."
            )
        self.game_changed()
