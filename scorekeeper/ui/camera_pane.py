"""The camera side of the window: live view, taps, the camera banner, and turning settled dice into rolls.

A roll is taken when the dice in the rolling area have settled and none is unsure;
unsure dice are flagged and the roll waits until each is confirmed or corrected by
a tap. Every correction is a game event naming its crop, which is kept for training;
whenever the game takes that event back (undo, in this session or after a resume), the
crop is withdrawn from training too.
"""

from __future__ import annotations

import logging
import time
import weakref
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray
from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from scorekeeper.game import DiceRolled, DieCorrected, Game, GameState, Phase
from scorekeeper.pipeline.calibration import CalibrationError, CalibrationProfile, default_profile, load_profile
from scorekeeper.pipeline.settling import EventKind, SettleEvent
from scorekeeper.pipeline.sources import Frame
from scorekeeper.pipeline.watch import WatchStep
from scorekeeper.rules import Dice, GameKind, IllegalRoll, score_roll
from scorekeeper.ui.camera_view import CameraView, DiePicker, Overlay
from scorekeeper.ui.controller import GameController
from scorekeeper.ui.worker import CaptureThread, CaptureWorker, ReaderFactory, SourceOpener, default_opener, default_reader
from scorekeeper.vision.corrections import Box, CorrectionsError, save_correction, withdraw_correction, withdrawn_states
from scorekeeper.vision.detections import Detections

if TYPE_CHECKING:
    from scorekeeper.game.journal import Journal
    from scorekeeper.ui.main_window import WindowOptions

log = logging.getLogger(__name__)

LAST_PROFILE = "last-calibration.toml"
"""The calibration profile saved last, in the scorekeeper home folder; loaded on start."""


def scoring_mask(state: GameState | None, values: NDArray[np.int64]) -> NDArray[np.bool_]:
    """Which dice of a roll are part of its best keep (drawn in the scoring colour)."""
    mask = np.zeros(len(values), bool)
    if state is None or not len(values):
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


@dataclass
class DiceOnTable:
    """Dice the window tracks between taps: a roll waiting for confirmations, or the roll taken."""

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
    corrections: list[tuple[int | None, int | None, Box, Path | None]] = field(default_factory=list)
    """Corrections made before the roll was taken (was, now, the die's box, the picture kept for
    training); each becomes a game event with it."""

    @classmethod
    def from_detections(cls, dice: Detections, unsure: NDArray[np.bool_], frame: NDArray[np.uint8]) -> DiceOnTable:
        return cls(
            frame,
            [(float(x0), float(y0), float(x1), float(y1)) for x0, y0, x1, y1 in dice.boxes],
            [int(v) for v in dice.values],
            [bool(u) for u in unsure],
            tuple(int(v) for v in dice.values),
        )

    def detections(self) -> Detections:
        if not self.values:
            return Detections.empty()
        return Detections(np.array(self.boxes, np.float32), np.array(self.values), np.ones(len(self.values), np.float32))

    def remove(self, index: int) -> None:
        del self.boxes[index], self.values[index], self.unsure[index]

    def set_die(self, box: Box, face: int | None) -> None:
        """Make the die at ``box`` show ``face``; None: no die there (not a die, or a missed die undone)."""
        if box in self.boxes:
            index = self.boxes.index(box)
            if face is None:
                self.remove(index)
            else:
                self.values[index] = face
        elif face is not None:
            self.boxes.append(box)
            self.values.append(face)
            self.unsure.append(False)


def _pictures_in_force(game: Game) -> set[str]:
    """The training pictures that ``game``'s correction steps in force name."""
    return {a.picture for a in game.actions if isinstance(a, DieCorrected) and a.picture is not None}


@dataclass
class Tap:
    """A tap correction the game took as a step: undo and redo of that step change the die drawn."""

    game: Game
    """The game the step belongs to."""
    step: DieCorrected
    """The step itself: while the game holds it, the correction stands."""
    dice: weakref.ref[DiceOnTable]
    """The dice drawn when the tap was made; weak, so a game's taps do not keep every roll's frame."""
    box: Box
    """The tapped die's box."""
    undone: bool = False
    """Whether the game has taken the step back."""


def load_start_profile(home: Path, chosen: Path | None) -> tuple[CalibrationProfile, str, str]:
    """The profile to start with: the one asked for, else the last saved, else the shipped default;
    with its name, and what was wrong with any that could not be used."""
    problems: list[str] = []
    for path in (chosen, home / LAST_PROFILE):
        if path is not None and (path.is_file() or path == chosen):
            try:
                return load_profile(path), str(path), " ".join(problems)
            except CalibrationError as exc:
                problems.append(f"{exc}; it was not used.")
    return default_profile(), "default profile", " ".join(problems)


class CameraPane(QWidget):
    """Live view, camera banner and status; turns settled dice into the game's rolls."""

    source_changed = Signal(str)
    """What the status bar should say about the source."""
    step_shown = Signal(object)
    """Each :class:`WatchStep` drawn in the live view (the calibration dialog shows them too)."""

    def __init__(
        self,
        controller: GameController,
        options: WindowOptions,
        parent: QWidget | None = None,
        reader: ReaderFactory = default_reader,
        opener: SourceOpener = default_opener,
        autostart: bool = True,
    ) -> None:
        super().__init__(parent)
        self.controller = controller
        self.reader_factory = reader
        self.opener = opener
        self.spec = options.source
        self.profile, self.profile_name, problem = load_start_profile(controller.home, options.calibration)
        self.corrections_folder = controller.home / "corrections"
        self.view = CameraView()
        self.view.area = self.profile.area
        self.banner = QFrame()
        self.banner.setStyleSheet("background: #c0392b; color: white")
        self.banner_text = QLabel()
        self.banner_text.setWordWrap(True)
        reconnect = QPushButton("Reconnect")
        manual = QPushButton("Type the dice instead")
        row = QHBoxLayout(self.banner)
        row.addWidget(self.banner_text, 1)
        row.addWidget(reconnect)
        row.addWidget(manual)
        self.banner.hide()
        self.status = QLabel()
        self.prompt = QLabel()
        self.prompt.setWordWrap(True)
        font = self.prompt.font()
        font.setPointSize(max(font.pointSize(), 10) + 3)
        font.setBold(True)
        self.prompt.setFont(font)
        self.prompt.setStyleSheet("color: #b03a2e")
        self.prompt.setText(problem)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.banner)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.prompt)
        layout.addWidget(self.status)
        reconnect.clicked.connect(self.reconnect)
        manual.clicked.connect(self.manual_entry)
        self.view.die_tapped.connect(self.die_tapped)
        self.view.table_tapped.connect(self.table_tapped)
        controller.changed.connect(self.game_changed)
        self.capture: CaptureThread | None = None
        self.latest: WatchStep | None = None
        self.pending: DiceOnTable | None = None
        self.taken: DiceOnTable | None = None
        self.taps: list[Tap] = []
        """Tap corrections of this game on the dice drawn, followed through undo and redo."""
        self.pictures: dict[str, bool] = {}
        """The corrections folder's pictures, and whether each is withdrawn from training now."""
        self.pictures_game: Game | None = None
        """The game ``pictures`` was last squared with."""
        self.pictures_journal: Journal | None = None
        """That game's journal: a history edit rebuilds the game on the same journal."""
        self.picker: DiePicker | None = None
        self._tapping = False
        self.source_name = ""
        self.reader_note = ""
        self.shown_at: deque[float] = deque(maxlen=61)
        if autostart:
            self.start()

    def menu_actions(self) -> list[QAction]:
        """The Camera menu."""
        actions = []
        for text, slot in (
            ("&Reconnect the camera", self.reconnect),
            ("Use the &demo table", lambda: self.switch("demo")),
            ("Use a &webcam...", self.choose_webcam),
            ("Play a &video...", self.choose_video),
            ("Step through a folder of &photos...", self.choose_folder),
            ("&Manual entry (camera off)", self.manual_entry),
            ("&Calibrate...", self.calibrate),
        ):
            action = QAction(text, self)
            action.triggered.connect(lambda _=False, s=slot: s())
            actions.append(action)
        return actions

    def start(self) -> None:
        """Open the source in a worker thread (the window goes on while it opens)."""
        self.stop()
        self.banner.hide()
        self.view.show_message("Opening the camera...")
        worker = CaptureWorker(self.spec, self.profile, self.reader_factory, self.opener)
        turn = self.controller.state.turn if self.controller.state is not None else None
        worker.set_dice_count(turn.dice_left if turn is not None and turn.dice_left else None)
        worker.opened.connect(self.opened)
        worker.stepped.connect(self.stepped)
        worker.table_event.connect(self.table_event)
        worker.reader_missing.connect(self.reader_missing)
        worker.lost.connect(self.camera_lost)
        worker.failed.connect(self.camera_failed)
        self.capture = CaptureThread(worker)
        self.capture.start()

    def stop(self) -> None:
        if self.capture is not None:
            self.capture.stop()
            self.capture = None

    def switch(self, spec: str) -> None:
        self.spec = spec
        self.start()

    def reconnect(self) -> None:
        self.start()

    def choose_webcam(self) -> None:
        from PySide6.QtWidgets import QInputDialog

        number, ok = QInputDialog.getInt(self, "Webcam", "Camera number (0 is the first):", 0, 0, 99)
        if ok:
            self.switch(f"webcam:{number}")

    def choose_video(self) -> None:
        name, _ = QFileDialog.getOpenFileName(self, "Play a video", "", "Videos (*.mp4 *.avi *.mkv *.mov *.webm);;All files (*)")
        if name:
            self.switch(f"video:{name}")

    def choose_folder(self) -> None:
        name = QFileDialog.getExistingDirectory(self, "A folder of photos")
        if name:
            self.switch(f"images:{name}")

    def manual_entry(self) -> None:
        self.stop()
        self.banner.hide()
        self.view.show_message("Camera off: type the dice in the turn panel.")
        self.source_changed.emit("Camera off: manual entry")

    def calibrate(self) -> None:
        from scorekeeper.ui.calibration import CalibrationDialog

        dialog = CalibrationDialog(self.profile, self.controller.home / LAST_PROFILE, self)
        dialog.saved.connect(self.use_profile)
        self.step_shown.connect(dialog.show_step)
        dialog.finished.connect(lambda _: self.step_shown.disconnect(dialog.show_step))
        if self.latest is not None:
            dialog.show_step(self.latest)
        dialog.open()
        self.calibration_dialog = dialog

    def use_profile(self, profile: CalibrationProfile) -> None:
        self.profile = profile
        self.profile_name = str(self.controller.home / LAST_PROFILE)
        self.view.area = profile.area
        self.start()

    # worker signals

    def opened(self, name: str, note: str) -> None:
        self.source_name = name
        self.banner.hide()
        self.source_changed.emit(f"Source: {name}" + (f". {note}" if note else ""))

    def reader_missing(self, why: str) -> None:
        self.reader_note = f"Dice reader unavailable ({why}): the camera is shown, type the dice."
        self.prompt.setText(self.reader_note)

    def camera_lost(self, why: str) -> None:
        self.banner_text.setText(f"Camera lost: {why}. The game is kept.")
        self.banner.show()
        self.view.show_message("No picture. Reconnect, or type the dice by hand.")

    def camera_failed(self, why: str) -> None:
        self.banner_text.setText(f"No camera: {why}")
        self.banner.show()
        self.view.show_message("No picture. Reconnect, choose another source (Camera menu), or type the dice.")
        self.source_changed.emit("No camera: manual entry")

    def stepped(self, step: WatchStep) -> None:
        self.latest = step
        self.view.show_frame(step.frame.image, self.overlay(step))
        self.shown_at.append(time.perf_counter())
        self.step_shown.emit(step)
        reading = "camera only" if self.reader_note else f"dice {step.state}, {step.fps:.0f} frames/s read"
        self.status.setText(f"{self.source_name}: {reading}, {self.view_fps():.0f} frames/s shown. Calibration: {self.profile_name}")
        if self.capture is not None:
            self.capture.worker.view_ready()

    def view_fps(self) -> float:
        """Frames drawn per second over the last two seconds or so."""
        times = self.shown_at
        return (len(times) - 1) / (times[-1] - times[0]) if len(times) > 1 and times[-1] > times[0] else 0.0

    def overlay(self, step: WatchStep | None = None) -> Overlay:
        state = self.controller.state
        shown = self.pending or self.taken
        if shown is not None:
            dice = shown.detections()
            unsure = np.array(shown.unsure, bool)
        else:
            step = step or self.latest
            dice = step.dice if step is not None else Detections.empty()
            unsure = dice.unsure
        aside = step.aside if step is not None else Detections.empty()
        return Overlay(dice, scoring_mask(state, dice.values), unsure, aside)

    def table_event(self, event: SettleEvent, frame: Frame) -> None:
        if event.kind is EventKind.SETTLED:
            self.settled(event, frame)
        elif event.kind is EventKind.MOVING and self.pending is not None:
            self.pending = None
            self.prompt.setText("")

    def settled(self, event: SettleEvent, frame: Frame) -> None:
        state = self.controller.state
        if state is None or state.rules.kind is not GameKind.DICE or state.over or state.turn is None:
            return
        if state.phase is not Phase.TO_ROLL or not state.can_roll():
            if state.phase is Phase.TO_KEEP:
                self.prompt.setText("A roll is on the table: keep dice from it first (or undo it with Z).")
            return
        count, left = len(event.dice), state.turn.dice_left
        if not count:
            return
        if count > left:
            name = state.current.name if state.current else ""
            self.prompt.setText(
                f"{count} dice in the rolling area, but {name} has {left} to roll: move the kept dice out "
                "of the rolling area."
            )
            return
        dice = DiceOnTable.from_detections(event.dice, event.unsure, frame.image)
        if any(dice.unsure):
            self.pending = dice
            self.prompt.setText("Tap each flagged die (?) to confirm or correct it; the roll is taken then.")
            self.view.set_overlay(self.overlay())
        else:
            self.take_roll(dice)
        self.check_aside(state)

    def check_aside(self, state: GameState) -> None:
        """The dice set aside should be the ones kept this turn; if not, ask."""
        if self.latest is None or state.turn is None or not len(self.latest.aside):
            return
        kept: list[int] = []
        for option in state.turn.keeps:
            kept = [] if len(kept) + len(option.keep) == 6 else kept + list(option.keep.values)  # hot dice: all back in play
        kept.sort()
        aside = self.latest.aside.roll()
        if aside != kept:
            self.prompt.setText(
                f"The dice set aside show {' '.join(map(str, aside)) or 'nothing'}, but the keeps were "
                f"{' '.join(map(str, kept)) or 'none'}: is the right die out of the rolling area?"
            )

    def take_roll(self, dice: DiceOnTable) -> None:
        self.pending = None
        read = Dice(dice.read)
        if not self.controller.take(DiceRolled(read, "camera")):
            return
        for was, now, box, picture in dice.corrections:
            step = DieCorrected(was, now, picture.name if picture is not None else None)
            if not self.controller.take(step):
                break
            self.follow(step, dice, box)
        dice.corrections.clear()
        dice.unsure = [False] * len(dice.values)
        self.taken = dice
        self.prompt.setText("")
        self.view.set_overlay(self.overlay())

    def game_changed(self) -> None:
        state = self.controller.state
        self.follow_undo()
        if self.pending is not None and (state is None or state.phase is not Phase.TO_ROLL):
            self.pending = None
            self.prompt.setText("")
        if self.taken is not None and (state is None or state.phase is not Phase.TO_KEEP):
            self.taken = None
        turn = state.turn if state is not None else None
        if self.taken is not None and not self._tapping and turn is not None and turn.roll is not None:
            if sorted(self.taken.values) != list(turn.roll.values):
                self.taken = None
        if self.capture is not None:
            self.capture.worker.set_dice_count(turn.dice_left if turn is not None and turn.dice_left else None)
        self.view.set_overlay(self.overlay())

    # taps

    def _open_picker(self, at: QPoint, allow_none: bool, current: int | None) -> DiePicker:
        if self.picker is not None:
            self.picker.close()
        self.picker = DiePicker(self, allow_none, current)
        self.picker.move(at)
        self.picker.show()
        return self.picker

    def die_tapped(self, index: int, at: QPoint) -> None:
        shown = self.pending or self.taken
        if shown is None:
            self.prompt.setText("Tap a die once its roll is taken (or while it is flagged ?).")
            return
        picker = self._open_picker(at, True, shown.values[index])
        picker.picked.connect(lambda face, i=index, dice=shown: self.correct(dice, i, face))

    def table_tapped(self, x: float, y: float, at: QPoint) -> None:
        shown = self.pending or self.taken
        if shown is None:
            return
        picker = self._open_picker(at, False, None)
        picker.picked.connect(lambda face, dice=shown: self.add_missed(dice, x, y, face))

    def correct(self, dice: DiceOnTable, index: int, face: int | None) -> None:
        was = dice.values[index]
        box = dice.boxes[index]
        if dice is self.pending:
            if face != was:
                dice.corrections.append((was, face, box, self.keep_for_training(dice.frame, box, was, face)))
            dice.unsure[index] = False
        elif face == was:
            return
        else:
            picture = self.keep_for_training(dice.frame, box, was, face)
            step = DieCorrected(was, face, picture.name if picture is not None else None)
            if not self.take_tap(step):
                return
            self.follow(step, dice, box)
        dice.set_die(box, face)
        self.after_tap(dice)

    def add_missed(self, dice: DiceOnTable, x: float, y: float, face: int | None) -> None:
        if face is None:
            return
        sizes = [b[2] - b[0] for b in dice.boxes]
        half = (float(np.median(sizes)) if sizes else max(self.profile.die_size, 40.0)) / 2
        box = (x - half, y - half, x + half, y + half)
        if dice is self.pending:
            dice.corrections.append((None, face, box, self.keep_for_training(dice.frame, box, None, face)))
        else:
            picture = self.keep_for_training(dice.frame, box, None, face)
            step = DieCorrected(None, face, picture.name if picture is not None else None)
            if not self.take_tap(step):
                return
            self.follow(step, dice, box)
        dice.set_die(box, face)
        self.after_tap(dice)

    def take_tap(self, correction: DieCorrected) -> bool:
        """Correct the roll taken; the dice drawn follow once the game has the correction."""
        self._tapping = True
        try:
            return self.controller.take(correction)
        finally:
            self._tapping = False

    def after_tap(self, dice: DiceOnTable) -> None:
        if dice is self.pending and not any(dice.unsure):
            self.take_roll(dice)
        self.view.set_overlay(self.overlay())

    def keep_for_training(self, frame: NDArray[np.uint8], box: Box, was: int | None, now: int | None) -> Path | None:
        """Save the corrected die for training; its picture's path, or None if it could not be saved."""
        try:
            picture = save_correction(self.corrections_folder, frame, box, was, now)
        except OSError as exc:
            log.warning("correction not kept for training: %s", exc)
            return None
        self.pictures[picture.name] = False
        return picture

    def follow(self, step: DieCorrected, dice: DiceOnTable, box: Box) -> None:
        """Follow the game step a tap became through undo and redo."""
        if self.controller.game is not None:
            self.taps.append(Tap(self.controller.game, step, weakref.ref(dice), box))

    def follow_undo(self) -> None:
        """For each tap whose step the game took back, or did again: put the die drawn back as it was
        (or again as tapped), so the player can tap it afresh. Then square the training pictures with
        the game (``follow_pictures``). Taps of a game no longer on screen (another game, or one
        rebuilt by a history edit) are left as they are."""
        game = self.controller.game
        self.taps = [tap for tap in self.taps if tap.game is game]
        if game is None:
            return
        in_force = {id(step) for step in game.actions}
        for tap in self.taps:
            undone = id(tap.step) not in in_force
            if undone == tap.undone:
                continue
            tap.undone = undone
            dice = tap.dice()
            if dice is not None and dice is self.taken:
                dice.set_die(tap.box, tap.step.was if undone else tap.step.now)
        self.follow_pictures(game, in_force)

    def follow_pictures(self, game: Game, in_force: set[int]) -> None:
        """Mark each picture a correction step of ``game`` names withdrawn while the step is undone,
        and restored when it is done again: a wrong tap, undone, must not teach the reader the misread.
        The steps name their pictures in the game's journal, so this holds for a game resumed after a
        crash or a restart too, and squares up a withdrawal the crash cut off. A tap a history edit
        deleted, or changed to other faces, is withdrawn as well: the table no longer stands behind it."""
        if game is not self.pictures_game:
            before, journal = self.pictures_game, self.controller.journal
            dropped: set[str] = set()
            if before is not None and journal is not None and journal is self.pictures_journal:
                dropped = _pictures_in_force(before) - _pictures_in_force(game)
            self.pictures_game, self.pictures_journal = game, journal
            try:
                self.pictures = withdrawn_states(self.corrections_folder)
            except CorrectionsError as exc:
                log.warning("corrections not followed through undo: %s", exc)
                self.pictures = {}
            for name in sorted(dropped):
                self.mark_picture(name, True)
        for event in game.events:
            if isinstance(event, DieCorrected) and event.picture is not None:
                self.mark_picture(event.picture, id(event) not in in_force)

    def mark_picture(self, name: str, withdrawn: bool) -> None:
        """Mark the corrections folder's picture ``name`` withdrawn from training (or restored),
        where it is there and not so marked already."""
        if self.pictures.get(name, withdrawn) == withdrawn:
            return
        try:
            withdraw_correction(self.corrections_folder, self.corrections_folder / name, withdrawn)
        except OSError as exc:
            log.warning("could not mark the correction %s %s: %s", name, "withdrawn" if withdrawn else "restored", exc)
            return
        self.pictures[name] = withdrawn
