"""The main window: live view on the left; scoreboard, turn and history on the right."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QRect, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QResizeEvent
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from scorekeeper.export import FORMATS, write_sheet
from scorekeeper.export.writers import SHEET_FILES, written_words
from scorekeeper.game.photos import delete_game
from scorekeeper.game.resume import unfinished_summaries
from scorekeeper.rules import FarkleError, GameKind, RuleSet
from scorekeeper.scoreboard.banner import BannerKind, banner_of
from scorekeeper.serve import BackgroundServer, NoNetwork, Reach, Sharing, network_address
from scorekeeper.settings import Settings, load_settings, save_settings
from scorekeeper.ui.controller import GameController
from scorekeeper.ui.flip_panel import FlipPanel
from scorekeeper.ui.history import HistoryPanel
from scorekeeper.ui.key_routing import TurnKeys
from scorekeeper.ui.new_game import NewGameDialog
from scorekeeper.ui.phone_dialog import PhoneDialog
from scorekeeper.ui.plain_labels import PlainTextLabels, make_plain
from scorekeeper.ui.resume_dialog import ResumeChoice, ResumeDialog
from scorekeeper.ui.rules_view import RulesDialog
from scorekeeper.ui.scoreboard import ScoreboardModel, ScoreboardView
from scorekeeper.ui.table_mode import TableModeView
from scorekeeper.ui.turn_panel import TurnPanel, big

if TYPE_CHECKING:
    from scorekeeper.ui.worker import ReaderFactory, SourceOpener

log = logging.getLogger(__name__)

@dataclass(frozen=True)
class WindowOptions:
    """What the command line asked of the window."""

    source: str | None = None
    """``webcam:N``, ``video:PATH``, ``images:DIR`` or ``demo``; None: the first webcam, else the demo table."""
    rules: RuleSet | None = None
    """Rules for a game started from the command line."""
    players: tuple[str, ...] = ()
    """Players of a game started from the command line."""
    target: int | None = None
    """Target of a game started from the command line."""
    resume: Path | None = None
    """A journal to go on with."""
    calibration: Path | None = None
    """A calibration profile to use instead of the last one saved."""
    keep_photos: bool = True
    """Whether rolls keep their pictures in this session (``--no-photos``: none; the saved
    setting can switch them off as well)."""


BANNER_STYLES = {
    BannerKind.WON: "background: #2e7d32; color: white; padding: 8px",
    BannerKind.LAST_LAP: "background: #f39c12; color: black; padding: 8px",
}
"""The banner's colours for each thing it announces."""

WINDOW_SHAPE = Qt.WindowState.WindowMaximized | Qt.WindowState.WindowFullScreen
"""The window states that set a window's size (not minimized or active)."""


@dataclass(frozen=True)
class TableModeReturn:
    """The window as it was before table mode, which leaving table mode gives back."""

    geometry: QRect
    """Where the window was and its size (without the frame the window manager draws)."""
    state: Qt.WindowState
    """Maximized, full screen, or neither (no flag: a window of that geometry)."""
    docks: QByteArray
    """The docks' places, sizes and visibility (``QMainWindow.saveState``)."""
    splitter: tuple[int, ...]
    """The widths of the camera view and of the scoreboard column."""


class MainWindow(QMainWindow):
    """Scoreboard, turn panel, history, and (dice edition) the live camera view."""

    def __init__(
        self,
        controller: GameController,
        options: WindowOptions = WindowOptions(),
        reader: ReaderFactory | None = None,
        opener: SourceOpener | None = None,
        network: Callable[[], str | None] = network_address,
    ) -> None:
        """``reader``, ``opener`` and ``network`` replace the ONNX reader, the frame sources and the
        finding of this machine's network address (tests)."""
        super().__init__()
        self.controller = controller
        self.settings, settings_problem = load_settings(controller.home)
        self.options = replace(options, keep_photos=options.keep_photos and self.settings.keep_photos)
        self._reader = reader
        self._opener = opener
        self.setWindowTitle("scorekeeper: Farkle")
        self.scoreboard_model = ScoreboardModel(controller)
        self.scoreboard = ScoreboardView(self.scoreboard_model)
        self.banner = big(QLabel(), 8)
        self.banner.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.banner.setWordWrap(True)
        self.banner.hide()
        self.turn_panel = TurnPanel(controller)
        self.flip_panel = FlipPanel(controller)
        self.turns = QStackedWidget()
        self.turns.addWidget(self.turn_panel)
        self.turns.addWidget(self.flip_panel)
        self.history = HistoryPanel(controller)
        self.camera = self._camera_pane()
        self.extras = self._extras()

        right = QWidget()
        column = QVBoxLayout(right)
        column.addWidget(self.banner)
        column.addWidget(self.scoreboard, 2)
        column.addWidget(self.turns, 3)
        for widget in self.extras:
            column.addWidget(widget)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.camera)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.table_view = TableModeView(controller, self._table_command)
        self.turn_panel.entry.textChanged.connect(self.table_view.show_typed)
        self.turn_panel.said.connect(self.table_view.message.setText)
        # Sized for the whole screen, table mode's type would otherwise set the least size of the usual
        # window too (a stack is as large as its largest page) and squash the history under it.
        self.table_view.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        self.pages = QStackedWidget()
        self.pages.addWidget(self.splitter)
        self.pages.addWidget(self.table_view)
        self.setCentralWidget(self.pages)
        self._before_table_mode: TableModeReturn | None = None
        self._layout_to_give_back: TableModeReturn | None = None
        dock = QDockWidget("History: every turn (double-click to correct one)", self)
        dock.setObjectName("history")
        dock.setWidget(self.history)
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
        self.history_dock = dock
        self.phones: BackgroundServer | None = None
        """The scoreboard server for the phones, while View > Scoreboard on phones has it running."""
        self.sharing: Sharing | None = None
        """Whom the phones' scoreboard reaches (this machine only, or the network): the last choice."""
        self._network = network
        self.source_label = QLabel()
        self.statusBar().addPermanentWidget(self.source_label)
        self._menus()
        controller.changed.connect(self.refresh)
        controller.notice.connect(lambda text: self.statusBar().showMessage(text, 8000))
        controller.done.connect(lambda text: self.statusBar().showMessage(text, 8000))
        self.resize(1400, 900)
        self.refresh()
        if settings_problem:
            self.statusBar().showMessage(settings_problem, 15000)
        make_plain(self)
        app = QApplication.instance()
        if app is not None:
            app.installEventFilter(PlainTextLabels(self))
            app.installEventFilter(TurnKeys(self, self.typing_target))

    def typing_target(self) -> QWidget:
        """Where typed dice, points and command keys go: the current turn panel's line."""
        return self.flip_panel.points if self.turns.currentWidget() is self.flip_panel else self.turn_panel.entry

    def _camera_pane(self) -> QWidget:
        try:
            from scorekeeper.ui.camera_pane import CameraPane
            from scorekeeper.ui.worker import default_opener, default_reader
        except ImportError as exc:
            log.warning("the camera pipeline is not available: %s", exc)
            missing = big(QLabel(f"Camera view unavailable in this build ({exc}).\nType the dice by hand."), 3)
            missing.setWordWrap(True)
            missing.setAlignment(Qt.AlignmentFlag.AlignCenter)
            return missing
        pane = CameraPane(
            self.controller, self.options, self, reader=self._reader or default_reader, opener=self._opener or default_opener
        )
        pane.source_changed.connect(lambda text: self.source_label.setText(text))
        return pane

    def _extras(self) -> list[QWidget]:
        """The coach's hint and the table statistics, where those parts are installed."""
        widgets: list[QWidget] = []
        try:
            from scorekeeper.ui.coach_hint import CoachHint
        except ImportError as exc:
            log.info("coach hint not available: %s", exc)
            widgets.append(QLabel("Coach: not available in this build."))
        else:
            self.coach_hint = CoachHint(self.controller)
            self.turn_panel.hint_slot.addWidget(self.coach_hint)
            # From the hint itself, so switching the coach off clears the highlight too.
            self.coach_hint.best_keep_changed.connect(self.turn_panel.highlight)
            self.turn_panel.highlight(self.coach_hint.best_keep())
        try:
            from scorekeeper.ui.stats_panel import StatsPanel
        except ImportError as exc:
            log.info("stats panel not available: %s", exc)
        else:
            self.stats_panel = StatsPanel(self.controller)
            dock = QDockWidget("Table statistics", self)
            dock.setObjectName("stats")
            dock.setWidget(self.stats_panel)
            self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
            dock.hide()
            self.stats_dock = dock
        return widgets

    def _menus(self) -> None:
        game = self.menuBar().addMenu("&Game")
        self._action(game, "&New game...", self.new_game, QKeySequence.StandardKey.New)
        self._action(game, "&Resume a game...", self.choose_resume, QKeySequence.StandardKey.Open)
        export = game.addMenu("&Export score sheet")
        for kind in FORMATS:
            self._action(export, f"as {kind.upper()}...", partial(self.choose_export, kind))
        self.keep_photos_action = self._action(game, "&Keep a picture of each roll", self.toggle_photos)
        self.keep_photos_action.setCheckable(True)
        self.keep_photos_action.setChecked(self.options.keep_photos)
        self.keep_photos_action.setEnabled(hasattr(self.camera, "session"))
        game.addSeparator()
        self._action(game, "&Quit", self.close, QKeySequence.StandardKey.Quit)
        view = self.menuBar().addMenu("&View")
        self.table_mode_action = self._action(view, "&Table mode (big scoreboard, full screen)", self.toggle_table_mode, "F11")
        self.table_mode_action.setCheckable(True)
        self.addAction(self.table_mode_action)
        self.leave_table_mode_action = QAction("Leave table mode", self)
        self.leave_table_mode_action.setShortcut(QKeySequence(Qt.Key.Key_Escape))
        self.leave_table_mode_action.setEnabled(False)
        self.leave_table_mode_action.triggered.connect(lambda _=False: self.set_table_mode(False))
        self.addAction(self.leave_table_mode_action)
        self._action(view, "&Rules in force", self.show_rules, "Ctrl+R")
        view.addAction(self.history_dock.toggleViewAction())
        if hasattr(self, "stats_dock"):
            view.addAction(self.stats_dock.toggleViewAction())
        view.addSeparator()
        self.phones_action = self._action(view, "Scoreboard on &phones...", self.share_with_phones)
        if hasattr(self.camera, "menu_actions"):
            camera = self.menuBar().addMenu("&Camera")
            for action in self.camera.menu_actions():
                camera.addAction(action)

    def _action(
        self, menu: QMenu, text: str, slot: Callable[[], object], shortcut: QKeySequence.StandardKey | str | None = None
    ) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(shortcut)
        action.triggered.connect(lambda _=False: slot())
        menu.addAction(action)
        return action

    def toggle_photos(self) -> None:
        """Game > Keep a picture of each roll: from the next roll on, and at every later start."""
        keep = self.keep_photos_action.isChecked()
        session = getattr(self.camera, "session", None)
        if session is not None:
            session.keep_photos = keep
        self.settings = Settings(keep_photos=keep)
        try:
            save_settings(self.controller.home, self.settings)
        except OSError as exc:
            self.statusBar().showMessage(f"The setting holds until the window closes; it could not be saved: {exc}", 8000)
            return
        self.statusBar().showMessage("Each roll taken keeps its picture." if keep else "Rolls keep no pictures from now on.", 8000)

    @property
    def table_mode(self) -> bool:
        """Whether table mode is on: the big scoreboard filling the screen."""
        return self.pages.currentWidget() is self.table_view

    def toggle_table_mode(self) -> None:
        """View > Table mode (F11): on, or back to the usual window."""
        self.set_table_mode(not self.table_mode)

    def set_table_mode(self, on: bool) -> None:
        """Table mode on: full screen, the docks and menus out of the way, the camera pane moved in
        small (taps on it still correct the dice); off: the window as it was."""
        self.table_mode_action.setChecked(on)
        self.leave_table_mode_action.setEnabled(on)
        if on == self.table_mode:
            return
        if on:
            self._layout_to_give_back = None
            shape = self.windowState() & WINDOW_SHAPE
            self._before_table_mode = TableModeReturn(self.normalGeometry(), shape, self.saveState(), tuple(self.splitter.sizes()))
            for dock in self.findChildren(QDockWidget):
                dock.hide()
            self.menuBar().hide()
            self.statusBar().hide()
            self.table_view.hold_camera(self.camera)
            self.pages.setCurrentWidget(self.table_view)
            self.setGeometry(self.screen().geometry())  # where no window manager makes it full screen
            self.showFullScreen()
            self.table_view.refresh()
            return
        self.table_view.release_camera()
        self.splitter.insertWidget(0, self.camera)
        self.pages.setCurrentWidget(self.splitter)
        self.menuBar().show()
        self.statusBar().show()
        back, self._before_table_mode = self._before_table_mode, None
        self.setWindowState(Qt.WindowState.WindowNoState)
        if back is not None:
            self.setGeometry(back.geometry)
            self.setWindowState(back.state)
            self._layout_to_give_back = back
            self._give_back_layout(back)
        self.refresh()

    def _give_back_layout(self, back: TableModeReturn) -> None:
        """The docks and splitter as they were before table mode; again once the window has its old
        state and size back, where a window manager takes a while to give them (laid out at another
        size, the splitter would share the difference by its stretch factors)."""
        self.restoreState(back.docks)
        self.splitter.setSizes(list(back.splitter))
        if self.windowState() & WINDOW_SHAPE == back.state and (back.state or self.size() == back.geometry.size()):
            self._layout_to_give_back = None

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self._layout_to_give_back is not None:
            self._give_back_layout(self._layout_to_give_back)

    def _table_command(self, step: str) -> None:
        """A button of table mode: leave it, or a step of the turn as its key would take it."""
        if step == "leave":
            self.set_table_mode(False)
        else:
            self.turn_panel.command(step)

    def refresh(self) -> None:
        """Follow the game: the phones' server on the game on screen, the dice or card edition's
        turn panel, and the banner."""
        if self.phones is not None and self.controller.journal is not None:
            self.phones.follow(self.controller.journal.path)
        state = self.controller.state
        cards = state is not None and state.rules.kind is GameKind.CARDS
        self.turns.setCurrentWidget(self.flip_panel if cards else self.turn_panel)
        self.camera.setVisible(not cards)
        banner = banner_of(state)
        if banner is None:
            self.banner.hide()
            return
        self.banner.setText(banner.text)
        self.banner.setStyleSheet(BANNER_STYLES[banner.kind])
        self.banner.show()

    def startup(self) -> None:
        """On start: offer the unfinished games, else ask for a new one."""
        found = unfinished_summaries(self.controller.home)
        if found:
            dialog = ResumeDialog(found, on_start=True, parent=self)
            dialog.exec()
            chosen = dialog.chosen()
            if dialog.choice is ResumeChoice.RESUME and chosen is not None:
                self.resume(chosen)
                return
            if dialog.choice is ResumeChoice.SET_ASIDE and chosen is not None:
                try:
                    self.controller.shelve(chosen)
                except FarkleError as exc:
                    QMessageBox.warning(self, "Cannot set the game aside", str(exc))
        self.new_game()

    def new_game(self) -> None:
        names = tuple(p.name for p in self.controller.state.players) if self.controller.state else ()
        dialog = NewGameDialog(names, parent=self)
        if dialog.exec() != NewGameDialog.DialogCode.Accepted:
            return
        setup = dialog.setup()
        if setup is not None:
            self.controller.start(setup.rules, setup.players, setup.target)

    def choose_resume(self) -> None:
        """Game > Resume a game: the unfinished games listed, or any journal picked by its file."""
        dialog = ResumeDialog(unfinished_summaries(self.controller.home), on_start=False, parent=self)
        dialog.exec()
        chosen = dialog.chosen()
        if dialog.choice is ResumeChoice.RESUME and chosen is not None:
            self.resume(chosen)
        elif dialog.choice is ResumeChoice.DELETE and chosen is not None:
            answer = QMessageBox.question(
                self, "Delete the game?", f"Delete the game in {chosen.name} with its roll pictures? This cannot be undone."
            )
            if answer == QMessageBox.StandardButton.Yes:
                self.delete_game(chosen)
        elif dialog.choice is ResumeChoice.OTHER_FILE:
            folder = self.controller.home / "games"
            name, _ = QFileDialog.getOpenFileName(self, "Resume a game", str(folder), "Game journals (*.jsonl)")
            if name:
                self.resume(Path(name))

    def delete_game(self, path: Path) -> bool:
        """Delete the game in ``path``, its journal and its roll pictures; never the game on screen."""
        journal = self.controller.journal
        if journal is not None and path.resolve() == journal.path.resolve():
            self.statusBar().showMessage("That is the game on the table: start or resume another one before deleting it.", 8000)
            return False
        try:
            delete_game(path)
        except FarkleError as exc:
            QMessageBox.warning(self, "Cannot delete the game", str(exc))
            return False
        except OSError as exc:
            QMessageBox.warning(self, "Cannot delete the game", f"{path}: {exc.strerror or exc}")
            return False
        self.statusBar().showMessage(f"Deleted the game in {path.name} and its roll pictures.", 8000)
        return True

    def resume(self, path: Path) -> None:
        try:
            damage = self.controller.resume(path)
        except FarkleError as exc:
            QMessageBox.warning(self, "Cannot resume", str(exc))
            return
        if damage is not None:
            QTimer.singleShot(0, lambda: QMessageBox.warning(self, "The journal was damaged", str(damage)))

    def show_rules(self) -> None:
        state = self.controller.state
        if state is None:
            QMessageBox.information(self, "Rules", "Start a game to see its rules (Game > New game).")
            return
        RulesDialog(state.rules, state.target, self).open()

    def choose_export(self, kind: str) -> None:
        if not self.controller.events:
            QMessageBox.information(self, "Export", "There is no game to export yet.")
            return
        words = SHEET_FILES[kind]
        name, _ = QFileDialog.getSaveFileName(
            self, f"Export the score sheet: {words}", f"farkle-score-sheet.{kind}", f"{words[0].upper()}{words[1:]} (*.{kind})"
        )
        if name:
            self.export_sheet(Path(name), kind)

    def export_sheet(self, path: Path, kind: str) -> bool:
        """Write the score sheet; says on screen where it went or why it could not."""
        journal = self.controller.journal
        try:
            write_sheet(self.controller.events, path, kind, journal.path if journal is not None else None)
        except (FarkleError, OSError) as exc:
            QMessageBox.warning(self, "Export failed", str(exc))
            return False
        self.statusBar().showMessage(written_words(path, kind), 8000)
        return True

    def share_with_phones(self) -> PhoneDialog | None:
        """View > Scoreboard on phones: start the server for the game on screen (it then follows
        whichever game the window shows), on the network where this machine has one (the dialog
        can make it this machine only), and show its address, whom it reaches and its QR code."""
        journal = self.controller.journal
        if journal is None:
            QMessageBox.information(self, "Scoreboard on phones", "Start or resume a game first (Game > New game).")
            return None
        if self.phones is None:
            network = self._network()
            sharing = Sharing.first(network) if self.sharing is None else self.sharing.again(network)
            if not self._share_on(sharing, journal.path):
                return None
        assert self.phones is not None and self.sharing is not None
        dialog = PhoneDialog(self.phones.url, self.sharing, self.choose_phone_reach, self.stop_sharing, self)
        dialog.open()
        return dialog

    def choose_phone_reach(self, reach: Reach) -> tuple[str, Sharing] | None:
        """The dialog's choice of whom the scoreboard reaches: the server moves to the address
        that reaches them (a new address, so a page open on the old one stops following); the
        page's address and the choice, or None where it could not (said in a message)."""
        journal = self.controller.journal
        if journal is None or self.sharing is None:
            return None
        try:
            sharing = self.sharing.choose(reach, self._network())
        except NoNetwork as exc:
            QMessageBox.warning(self, "Scoreboard on phones", f"The scoreboard cannot be shared with {exc}")
            return None
        if self.phones is None or sharing.host != self.sharing.host:
            old = self.phones
            if not self._share_on(sharing, journal.path):
                return None
            if old is not None:
                old.stop()
        self.sharing = sharing
        assert self.phones is not None
        return self.phones.url, sharing

    def _share_on(self, sharing: Sharing, game: Path) -> bool:
        """Start the phones' server where ``sharing`` says; says why not in a message box."""
        server = BackgroundServer(game, sharing.host)
        try:
            server.start()
        except FarkleError as exc:
            QMessageBox.warning(self, "Scoreboard on phones", f"The scoreboard cannot be shared: {exc}")
            return False
        self.phones, self.sharing = server, sharing
        self.statusBar().showMessage(f"Scoreboard at {server.url}: {sharing.said}", 8000)
        return True

    def stop_sharing(self) -> None:
        """Stop the phones' scoreboard: every open page loses its connection."""
        if self.phones is not None:
            self.phones.stop()
            self.phones = None
            self.statusBar().showMessage("The scoreboard is no longer shared with the phones.", 8000)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.stop_sharing()
        if hasattr(self.camera, "stop"):
            self.camera.stop()
        if hasattr(self.camera, "shutdown_learner"):
            self.camera.shutdown_learner()
        self.controller.close()
        super().closeEvent(event)
