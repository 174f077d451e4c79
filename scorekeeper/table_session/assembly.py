"""The camera game put together once, for both its drivers: the window's camera pane and
``scorekeeper watch --game``.

A :class:`CameraTable` holds what a table keeps between rolls: the table session playing into the
game, the roll pictures, the dice's colours and the reader's learning kept beside the calibration
profile, and the dice the game expects told to the loop reading the table
(:class:`ThrowsExpected`). No Qt: the window's capture thread and the command line's watch loop
only open the source, feed the steps to the session and show what it says.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from scorekeeper.camera.calibration import CalibrationProfile
from scorekeeper.camera.sources import DiceSource, FrameSource, MarkedDiceSource
from scorekeeper.camera.watch import Watcher
from scorekeeper.game.controller import GameController
from scorekeeper.table_session.learner import LearnedSummary, TableLearner
from scorekeeper.table_session.marks import wild_in_roll
from scorekeeper.table_session.session import TableSession
from scorekeeper.table_session.table_colours import TableColours
from scorekeeper.vision.die_colours import colours_file_for
from scorekeeper.vision.reader import OnnxDiceReader
from scorekeeper.vision.table_memory import table_file_for


class ThrowsExpected:
    """The dice the game expects thrown next, told to whatever reads the table: the watch loop
    reads for that many, a demo table throws them, with the wild die or without it. Safe from any
    thread: the window tells it from its own thread while the capture thread reads."""

    def __init__(self) -> None:
        self.count: int | None = None
        """Dice expected thrown next: 0 none now, None no dice game on."""
        self.wild: bool | None = None
        """Whether the wild die is among them, as the game knows it (None: not known)."""
        self._source: FrameSource | None = None
        self._watcher: Watcher | None = None

    def expect(self, count: int | None, wild: bool | None) -> None:
        """The game expects ``count`` dice thrown next, the wild die among them or not (``wild``):
        the watch loop and the source reading the table now are told."""
        self.count, self.wild = count, wild
        watcher = self._watcher
        if watcher is not None:
            watcher.thrown = count
        source = self._source
        if isinstance(source, MarkedDiceSource):
            source.expect_wild(wild)
        if isinstance(source, DiceSource):
            source.expect(count)

    def reading(self, source: FrameSource | None) -> None:
        """``source`` reads the table from now on (None: nothing does); it is told what is expected."""
        self._source, self._watcher = source, None
        self.expect(self.count, self.wild)

    def watched_by(self, watcher: Watcher) -> None:
        """``watcher`` reads the frames of the source reading the table: it reads for the dice expected."""
        self._watcher = watcher
        watcher.thrown = self.count


class CameraTable:
    """One table's camera game: the session playing into ``play``'s game, the table's dice colours
    and learning kept beside the calibration profile ``kept_beside`` (None: for this run only), and
    the dice the game expects told to the loop reading the table."""

    def __init__(
        self,
        play: GameController,
        profile: CalibrationProfile,
        kept_beside: Path | None,
        *,
        colours: bool = True,
        keep_photos: bool = True,
        on_change: Callable[[], None] | None = None,
        on_learned: Callable[[LearnedSummary], None] | None = None,
    ) -> None:
        """``colours``: whether the session tells the dice's marks by the colours the table learned
        (the window: any game it may play; ``watch --game``: a game that plays marks);
        ``keep_photos``: whether each roll taken keeps its picture beside the journal. ``on_change``
        is called whenever what the session draws or asks changed; ``on_learned`` after each refit
        of what the table learned (from the learner's thread)."""
        self.play = play
        self.profile = profile
        """The calibration profile the table is read with."""
        self.kept_beside = kept_beside
        self.colours = TableColours(colours_file_for(kept_beside) if colours and kept_beside is not None else None)
        """What this table learned of its dice's colours (the wild die, red pips), kept beside the
        profile where the session tells marks by them."""
        self.throws = ThrowsExpected()
        """The dice the game expects, told to the source and the watch loop reading the table."""
        self.on_expect: Callable[[int | None], None] = self.expect
        """Called when the game expects another throw; a driver that must first open the table
        again (a demo table with other marks) sets its own, which calls :meth:`expect`."""
        self.session = TableSession(
            play, play.home / "corrections", die_size=profile.die_size, on_change=on_change, on_expect=lambda count: self.on_expect(count)
        )
        self.session.area = profile.area
        self.session.keep_photos = keep_photos
        self.session.colours = self.colours if colours else None
        self.learner: TableLearner | None = None
        """The table that learns from the rolls confirmed, once a reader that can learn reads it."""
        self._on_learned = on_learned
        self.throws.expect(self.session.expected, self.wild_in_roll())

    def wild_in_roll(self) -> bool | None:
        """Whether the wild die is among the dice thrown next, as the game knows it (None: not known)."""
        state = self.session.state
        return wild_in_roll(state.turn) if state is not None and state.turn is not None else None

    def expect(self, count: int | None) -> None:
        """The game expects ``count`` dice thrown next: whatever reads the table is told, with
        whether the wild die is among them."""
        self.throws.expect(count, self.wild_in_roll())

    def reopened(self) -> ThrowsExpected:
        """A fresh teller for a new connection to the table, told what the game expects now; the
        one before is let go, so a capture thread still ending tells its own source nothing more."""
        self.throws = ThrowsExpected()
        self.expect(self.session.expected)
        return self.throws

    def read_by(self, watcher: Watcher) -> None:
        """``watcher`` reads the table from now on: it and its source are told what the game expects."""
        self.throws.count, self.throws.wild = self.session.expected, self.wild_in_roll()
        self.throws.reading(watcher.source)
        self.throws.watched_by(watcher)

    def learn_with(self, reader: object) -> TableLearner | None:
        """Let the table learn the rolls confirmed with ``reader`` (the first reader that can learn
        starts the table's learner, kept beside the profile; a later one, the same model opened
        again, goes on with it); the learner, or None where the reader cannot learn."""
        if not isinstance(reader, OnnxDiceReader) or not reader.can_learn:
            return None
        if self.learner is not None:
            self.learner.attach(reader)
            return self.learner
        learner = TableLearner(reader, table_file_for(self.kept_beside) if self.kept_beside is not None else None, self._on_learned)
        learner.calibrated(self.profile.die_size)
        self.session.on_confirmed = lambda dice: learner.confirm(dice.frame, dice.boxes, dice.values, dice.tapped_away)
        self.learner = learner
        return learner

    def stop_learning(self) -> TableLearner | None:
        """Let the learner finish what it is learning (it saves the table file), then stop it; the
        learner stopped, or None where none was learning."""
        learner, self.learner = self.learner, None
        if learner is not None:
            learner.close()
        return learner

    def use_profile(self, profile: CalibrationProfile, kept_beside: Path | None = None) -> None:
        """Read the table with ``profile`` from now on (a new calibration); saved at ``kept_beside``,
        what the table learned (its dice and their colours) is kept beside it from now on."""
        if kept_beside is not None and kept_beside != self.kept_beside:
            self.kept_beside = kept_beside
            if self.colours.path is not None:
                self.colours.keep_in(colours_file_for(kept_beside))
            if self.learner is not None:
                self.learner.keep_in(table_file_for(kept_beside))
        self.profile = profile
        self.session.die_size = profile.die_size
        self.session.area = profile.area
        if self.learner is not None:
            self.learner.calibrated(profile.die_size)
