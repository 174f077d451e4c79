"""The table session: settled dice become the game's rolls, and taps become its corrections.

A :class:`TableSession` sits between the camera pipeline and whatever shows the game (the
window, or ``scorekeeper watch --game``). It is fed the watch loop's steps and settle events
and told when the game changed; it decides when a roll is taken, what to ask the players, which
dice the view should draw (the roll taken, frozen, or the live finds), and how many dice the
game expects next (for the reader and the demo table): none while a piggyback pot waits for the
player's choice, and a throw with dice missing never answers that choice. No Qt here: tests drive
it directly.

A roll is taken when the dice in the rolling area have settled and none is unsure; unsure dice
are flagged and the roll waits until each is confirmed or corrected by a tap. Under the wild-die
or spicy variant each die's mark is told by the table's colour judge (:mod:`.marks`), and a die
whose mark it cannot tell is flagged the same way.

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
from scorekeeper.rules import Dice, DieToken, GameKind, IllegalRoll, die_token, read_die, score_roll
from scorekeeper.table_session.marks import MarksInPlay, ask_marks, read_marks, wild_in_roll
from scorekeeper.table_session.table_colours import TableColours
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


def scoring_mask(state: GameState | None, values: NDArray[np.int64], marks: Sequence[str] | None = None) -> NDArray[np.bool_]:
    """Which dice of a roll are part of its best keep (drawn in the scoring colour), each die with its
    mark (``marks``, aligned with ``values``; None: plain dice); none of a roll with fewer dice than
    are in play, which is not scored (:meth:`GameState.roll_score`)."""
    mask = np.zeros(len(values), bool)
    if state is None or state.turn is None or not len(values) or len(values) < state.turn.dice_left:
        return mask
    dice = list(zip((int(v) for v in values), marks if marks is not None else [""] * len(values)))
    try:
        best = score_roll(state.rules, Dice((face for face, _ in dice), (mark for _, mark in dice))).best
    except IllegalRoll:
        # more dice in view than a roll holds (a spare die, a die read twice while it tumbles):
        # the settled roll gets the game's message; the live picture just goes uncoloured
        return mask
    if best is None:
        return mask
    wanted = list(best.keep.dice)
    for index, die in enumerate(dice):
        if die in wanted:
            wanted.remove(die)
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


class TableDiceError(ValueError):
    """Dice on the table whose faces, marks, flags and boxes do not go one to a die."""


@dataclass(frozen=True)
class DieOnTable:
    """One die on the table as it stands: where it lies, its face and mark, and what of it waits for a tap."""

    box: Box
    """The die's box, frame pixels."""
    value: int
    """Its face, taps included."""
    mark: str = ""
    """Its mark (``""`` plain, ``"w"`` the wild die, ``"r"`` red pips showing, ``"wr"`` both; see
    :class:`~scorekeeper.rules.Dice`)."""
    unsure: bool = False
    """Whether its face was read unsure and still waits for a tap."""
    doubt: str = ""
    """The marks the camera could not tell and a tap must (``"w"``: whether it is the wild die,
    ``"r"``: whether its pips are red)."""


@dataclass(frozen=True)
class TableDice:
    """Dice lying on the table, one :class:`DieOnTable` a die in the order the camera found them
    (dice tapped in after): the camera's :class:`~scorekeeper.vision.detections.Detections` with
    the marks told and what waits for a tap, as one value that a tap replaces."""

    dice: tuple[DieOnTable, ...] = ()
    """The dice."""

    @classmethod
    def from_detections(cls, found: Detections, unsure: Sequence[bool], marks: Sequence[str] = (), doubt: Sequence[str] = ()) -> TableDice:
        """The dice ``found``, each with whether its face is ``unsure``, its mark (``marks``) and
        the marks in doubt (``doubt``), all aligned with ``found`` (empty marks or doubt: none)."""
        count = len(found)
        marks, doubt = tuple(marks) or ("",) * count, tuple(doubt) or ("",) * count
        if not len(unsure) == len(marks) == len(doubt) == count:
            raise TableDiceError(
                f"dice on the table need one unsure flag, mark and doubt per die; got {list(unsure)}, {list(marks)} and {list(doubt)} for {count} dice"
            )
        boxes = [(float(x0), float(y0), float(x1), float(y1)) for x0, y0, x1, y1 in found.boxes]
        return cls(tuple(DieOnTable(box, int(v), m, bool(u), d) for box, v, m, u, d in zip(boxes, found.values, marks, unsure, doubt)))

    def index(self, box: Box) -> int | None:
        """The die lying at ``box`` (None: none)."""
        return next((i for i, die in enumerate(self.dice) if die.box == box), None)

    def showing(self, box: Box, face: DieToken | None) -> TableDice:
        """These dice with the die at ``box`` showing ``face`` (a die token: its face, with its mark
        if it has one; a die not there is added); None: no die there (not a die, or a missed die undone)."""
        index = self.index(box)
        if index is None:
            if face is None:
                return self
            value, mark = read_die(face)
            return TableDice((*self.dice, DieOnTable(box, value, mark)))
        if face is None:
            return TableDice(self.dice[:index] + self.dice[index + 1 :])
        value, mark = read_die(face)
        return TableDice(tuple(replace(die, value=value, mark=mark) if i == index else die for i, die in enumerate(self.dice)))

    def confirmed(self, box: Box) -> TableDice:
        """These dice with the die at ``box`` no longer waiting for a tap."""
        index = self.index(box)
        return TableDice(tuple(replace(die, unsure=False, doubt="") if i == index else die for i, die in enumerate(self.dice)))

    def told(self, letter: str) -> TableDice:
        """These dice with mark ``letter`` (``"w"``, ``"r"``) in doubt for none of them."""
        return TableDice(tuple(replace(die, doubt=die.doubt.replace(letter, "")) for die in self.dice))

    def settled(self) -> TableDice:
        """These dice with nothing waiting for a tap."""
        return TableDice(tuple(replace(die, unsure=False, doubt="") for die in self.dice))


@dataclass
class DiceOnTable:
    """Dice the session tracks between taps: a roll waiting for confirmations, or the roll taken;
    the dice themselves are frozen values (:class:`TableDice`), replaced as taps change them."""

    frame: NDArray[np.uint8]
    """The picture the dice were settled in (for the correction crops)."""
    now: TableDice
    """The dice as they stand now, taps included."""
    camera: TableDice
    """The dice as the camera read them (what the roll event records): no tap, nothing waiting."""
    corrections: list[tuple[DieToken | None, DieToken | None, Box, Path | None]] = field(default_factory=list)
    """Corrections made before the roll was taken (was, now, the die's box, the picture kept for
    training); each becomes a game event with it."""
    taps: list[Tap] = field(default_factory=list)
    """The taps the game took as corrections of this roll, in the order taken; those undone since
    stay for a redo until a new tap replaces them."""
    drawn: int = 0
    """How many of ``taps`` (the first ones) :attr:`now` shows."""

    @classmethod
    def from_detections(
        cls, dice: Detections, unsure: NDArray[np.bool_], frame: NDArray[np.uint8], marks: Sequence[str] = (), doubt: Sequence[str] = ()
    ) -> DiceOnTable:
        """The dice found, with the marks the camera told (``marks``) and those it could not
        (``doubt``), each aligned with ``dice`` (empty: plain dice, nothing in doubt); a die with a
        mark in doubt waits for a tap as an unsure one does (:meth:`waiting`)."""
        now = TableDice.from_detections(dice, [bool(u) for u in unsure], marks, doubt)
        return cls(frame, now, now.settled())

    @property
    def boxes(self) -> list[Box]:
        """Each die's box, frame pixels."""
        return [die.box for die in self.now.dice]

    @property
    def values(self) -> list[int]:
        """Each die's face as it stands now (taps included)."""
        return [die.value for die in self.now.dice]

    @property
    def marks(self) -> list[str]:
        """Each die's mark as it stands now, aligned with :attr:`values`."""
        return [die.mark for die in self.now.dice]

    @property
    def unsure(self) -> list[bool]:
        """Which dice's faces were read unsure and still wait for a tap."""
        return [die.unsure for die in self.now.dice]

    @property
    def doubt(self) -> list[str]:
        """Each die's marks the camera could not tell and a tap must, aligned with :attr:`values`."""
        return [die.doubt for die in self.now.dice]

    @property
    def read(self) -> tuple[int, ...]:
        """The values as the camera read them."""
        return tuple(die.value for die in self.camera.dice)

    @property
    def read_boxes(self) -> tuple[Box, ...]:
        """The boxes of the dice as the camera read them (not those tapped in)."""
        return tuple(die.box for die in self.camera.dice)

    @property
    def read_marks(self) -> tuple[str, ...]:
        """The marks as the camera told them, aligned with :attr:`read` (a mark it could not tell is
        not read: the tap that tells it is a correction)."""
        return tuple(die.mark for die in self.camera.dice)

    def waiting(self) -> list[bool]:
        """Which dice wait for a tap: a face read unsure, or a mark the camera could not tell."""
        return [die.unsure or bool(die.doubt) for die in self.now.dice]

    def token(self, index: int) -> DieToken:
        """Die ``index`` as it stands, its face and mark (see :func:`~scorekeeper.rules.die_token`)."""
        die = self.now.dice[index]
        return die_token(die.value, die.mark)

    def dice(self) -> Dice:
        """The dice as they stand now, marks and all."""
        return Dice(self.values, self.marks)

    def as_read(self) -> DiceOnTable:
        """These dice as the camera read them, before any tap."""
        return DiceOnTable(self.frame, self.camera, self.camera)

    def in_place(self, live: Detections) -> bool:
        """Whether every die the camera read still lies where it was read (a find overlapping its box)."""
        if not self.camera.dice:
            return True
        if not len(live):
            return False
        read = np.array(self.read_boxes, np.float32)
        ix = np.clip(np.minimum(read[:, None, 2], live.boxes[None, :, 2]) - np.maximum(read[:, None, 0], live.boxes[None, :, 0]), 0, None)
        iy = np.clip(np.minimum(read[:, None, 3], live.boxes[None, :, 3]) - np.maximum(read[:, None, 1], live.boxes[None, :, 1]), 0, None)
        area = (read[:, 2] - read[:, 0]) * (read[:, 3] - read[:, 1])
        return bool(((ix * iy).max(axis=1) >= IN_PLACE * area).all())

    def detections(self) -> Detections:
        if not self.now.dice:
            return Detections.empty()
        return Detections(np.array(self.boxes, np.float32), np.array(self.values), np.ones(len(self.now.dice), np.float32))

    def after(self, box: Box, face: DieToken | None) -> DiceOnTable:
        """These dice with the die at ``box`` showing ``face`` (see :meth:`TableDice.showing`), and no tap of their own."""
        return DiceOnTable(self.frame, self.now.showing(box, face), self.camera)

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
            self.set_die(undone.box, undone.step.was)
        while self.drawn < standing:
            redone = self.taps[self.drawn]
            self.set_die(redone.box, redone.step.now)
            self.drawn += 1

    @property
    def tapped_away(self) -> list[Box]:
        """The boxes of finds read as dice that a tap said are no die."""
        boxes = self.boxes
        return [box for box in self.read_boxes if box not in boxes]

    def set_die(self, box: Box, face: DieToken | None) -> None:
        """Make the die at ``box`` show ``face`` (a die token: its face, with its mark if it has
        one); None: no die there (not a die, or a missed die undone)."""
        self.now = self.now.showing(box, face)


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
    marks: tuple[str, ...] = ()
    """Each die's mark as it stands (``"w"`` the wild die, ``"r"`` red pips, ``"wr"`` both, ``""``
    plain), aligned with :attr:`dice`; empty where no marks are told (the live finds)."""
    doubt: tuple[str, ...] = ()
    """Each die's marks the camera could not tell (``"w"``, ``"r"``), aligned with :attr:`dice`; empty: none."""

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
        self.colours: TableColours | None = None
        """What this table learned of its dice's colours, which tells the wild die and red pips
        from a die's picture (None, or a mark not learned: a game with the wild die or spicy asks
        for each die's marks)."""
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
            return (self.play.game_number, None)
        turn = state.turn
        return (self.play.game_number, len(state.history), state.phase, turn.player, turn.dice_left, len(turn.rolls), len(turn.keeps))

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
            if self.taken.dice() != turn.roll:
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
        if game != self.play.game_number:
            return False
        if len(state.history) != history:
            return len(state.history) > history
        return state.turn is not None and len(state.turn.rolls) >= rolls

    def _expect(self) -> None:
        state = self.state
        if state is None or state.rules.kind is not GameKind.DICE or state.turn is None:
            count: int | None = None
        else:
            count = state.turn.dice_left if state.can_roll() and state.pot_offered() is None else 0
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
        offer = state.pot_offered()
        if offer is not None and count < left:
            name = state.current.name if state.current else ""
            self.ask(
                f"{count} of {left} dice read while {name} is offered the pot of {offer.points:,} with {offer.dice} "
                f"{'die' if offer.dice == 1 else 'dice'}: choose piggyback or fresh dice first, then throw."
            )
            return
        if count > left:
            name = state.current.name if state.current else ""
            self.ask(
                f"{count} dice in the rolling area, but {name} has {left} to roll: move the kept dice out "
                "of the rolling area."
            )
            return
        dice = self._with_marks(event.dice, event.unsure, frame)
        if any(dice.waiting()):
            self.pending = dice
            self.ask(self._tap_to_confirm(dice))
        else:
            self._take_roll(dice)
        self._check_aside()

    def _with_marks(self, found: Detections, unsure: NDArray[np.bool_], frame: NDArray[np.uint8]) -> DiceOnTable:
        """The dice settled, with the marks the rules play told by the table's colour judge, and
        those it cannot tell in doubt (all of them where it has not learned the dice's colours)."""
        state = self.state
        in_play = MarksInPlay.of(state.rules) if state is not None else MarksInPlay(False, False)
        if not in_play.any or not len(found):
            return DiceOnTable.from_detections(found, unsure, frame)
        wild = wild_in_roll(state.turn) if state is not None and state.turn is not None else None
        if wild and state is not None and state.turn is not None and len(found) < state.turn.dice_left:
            wild = None  # dice not read: the wild die may be among them
        colours = self.colours
        told = read_marks(colours.judge() if colours else None, colours.learned() if colours else "", frame, found.boxes, in_play, wild)
        return DiceOnTable.from_detections(found, unsure, frame, told.marks, told.doubt)

    def _tap_to_confirm(self, dice: DiceOnTable) -> str:
        """What to ask of a roll waiting for taps: its unsure faces and the marks in doubt (on a table
        that has not learned its dice's colours, one short line that covers both)."""
        learned = self._learned()
        marks = ask_marks(dice.values, dice.doubt, learned)
        if marks and not learned:
            return marks
        return f"{TAP_TO_CONFIRM} {marks}" if marks else TAP_TO_CONFIRM

    def _learned(self) -> bool:
        """Whether the table has learned every mark the game plays."""
        return self.colours is not None and not self.colours.missing(self.marks_offered())

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
            image = draw_roll(dice.frame, dice.boxes, dice.values, dice.read_boxes, dice.read, self.area, dice.marks, dice.read_marks)
            return write_photo(journal.path, encode_jpeg(image))
        except OSError as exc:
            log.warning("the roll's picture was not kept: %s", exc)
            return None

    def _take_roll(self, dice: DiceOnTable) -> None:
        self.pending = None
        as_read = dice.as_read()
        if not self.play.take(DiceRolled(as_read.dice(), "camera", self.photo(as_read))):
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
        dice.now = dice.now.settled()
        state = self.state
        self._taken_at = (len(state.history) if state else 0, len(state.turn.rolls) if state and state.turn else 0, self.play.game_number)
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
            unsure = np.array(frozen.waiting(), bool)
            caption = "Flagged dice wait for a tap" if frozen is self.pending else f"Roll taken: {frozen.dice()}"
            marks = tuple(frozen.marks)
            return Drawing(dice, scoring_mask(state, dice.values, marks), unsure, self.aside, True, caption, marks, tuple(frozen.doubt))
        caption = "Live view"
        if self.taken is not None:
            caption += f" (the roll taken, {self.taken.dice()}, has been moved)"
        live = self.live
        return Drawing(live, scoring_mask(state, live.values), live.unsure, self.aside, False, caption)

    def marks_offered(self) -> str:
        """The marks a tap may set under the game's rules: ``"w"`` the wild die, ``"r"`` red pips."""
        state = self.state
        return MarksInPlay.of(state.rules).letters if state is not None else ""

    def let_go(self) -> None:
        """The roll waiting for taps is not taken (no one is there to tap it): it and its question
        go, and the dice are asked for again (a demo table throws them again)."""
        self.pending = None
        self.prompt = ""
        self._expect_key = None
        self._expect()
        self.on_change()

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

    def correct(self, dice: DiceOnTable, index: int, face: DieToken | None) -> None:
        """Die ``index`` of ``dice`` is ``face``: a die token, its face with its marks (``"1w"``:
        it is the wild die, ``"5r"``: its pips are red); None: it is no die. Saying a die is the
        wild one says the die marked wild before is not (a correction of its own)."""
        was, box = dice.token(index), dice.boxes[index]
        if dice is self.pending:
            for other, (other_was, other_now) in self._unwild(dice, index, face):
                dice.corrections.append((other_was, other_now, other, None))
                dice.set_die(other, other_now)
            if face != was:
                dice.corrections.append((was, face, box, self._picture(dice, box, was, face)))
            dice.now = dice.now.confirmed(box)
            if face is not None and "w" in read_die(face)[1]:
                dice.now = dice.now.told("w")
            dice.set_die(box, face)
        elif face == was:
            said = tap_text(was, face)
            self.ask(f"{said[0].upper()}{said[1:]}: nothing changed.")
            return
        else:
            for other, (other_was, other_now) in self._unwild(dice, index, face):
                if not self._tap(dice, other, other_was, other_now):
                    return
            if not self._tap(dice, box, was, face):
                return
        self._after_tap(dice, tap_text(was, face))

    @staticmethod
    def _unwild(dice: DiceOnTable, index: int, face: DieToken | None) -> list[tuple[Box, tuple[DieToken, DieToken]]]:
        """The other dice of ``dice`` marked wild, each with its token as it stands and without the
        wild mark, where die ``index`` becomes ``face`` and ``face`` is the wild die (a roll holds one)."""
        if face is None or "w" not in read_die(face)[1]:
            return []
        return [
            (dice.boxes[other], (dice.token(other), die_token(dice.values[other], dice.marks[other].replace("w", ""))))
            for other in range(len(dice.values))
            if other != index and "w" in dice.marks[other]
        ]

    def _picture(self, dice: DiceOnTable, box: Box, was: DieToken | None, now: DieToken | None) -> Path | None:
        """The tapped die's picture kept for training the reader's faces; None where the tap
        changed only its marks (the face reader has nothing to learn from it)."""
        before = read_die(was)[0] if was is not None else None
        after = read_die(now)[0] if now is not None else None
        if before is not None and before == after:
            return None
        return self.pictures.keep(dice.frame, box, before, after)

    def add_missed(self, dice: DiceOnTable, x: float, y: float, face: DieToken) -> None:
        """A die the camera missed, at (``x``, ``y``) frame pixels, is ``face`` (a die token)."""
        sizes = [b[2] - b[0] for b in dice.boxes]
        half = (float(np.median(sizes)) if sizes else max(self.die_size, 40.0)) / 2
        box = (x - half, y - half, x + half, y + half)
        if dice is self.pending:
            for other, (other_was, other_now) in self._unwild(dice, -1, face):
                dice.corrections.append((other_was, other_now, other, None))
                dice.set_die(other, other_now)
            if "w" in read_die(face)[1]:
                dice.now = dice.now.told("w")
            dice.corrections.append((None, face, box, self._picture(dice, box, None, face)))
            dice.set_die(box, face)
        else:
            for other, (other_was, other_now) in self._unwild(dice, -1, face):
                if not self._tap(dice, other, other_was, other_now):
                    return
            if not self._tap(dice, box, None, face):
                return
        self._after_tap(dice, tap_text(None, face))

    def _tap(self, dice: DiceOnTable, box: Box, was: DieToken | None, face: DieToken | None) -> bool:
        """Correct the roll taken: the tap replaces the taps undone since (they stay for a redo if
        the game refuses it), and the dice drawn follow once the game has the correction."""
        picture = self._picture(dice, box, was, face)
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
        once none is flagged, and until then says what the tap did and what is left to tap."""
        if dice is self.pending and not any(dice.waiting()):
            self._take_roll(dice)
            return
        if dice is self.pending:
            left = sum(dice.waiting())
            marks = ask_marks(dice.values, dice.doubt, self._learned())
            self.ask(
                f"{done[0].upper()}{done[1:]}. {left} flagged {'die' if left == 1 else 'dice'} (?) left to tap; "
                "the roll is taken then." + (f" {marks}" if marks else "")
            )
        self.game_changed()
