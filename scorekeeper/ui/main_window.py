"""The main window: lays out the live view on the left and the scoreboard, turn and history on the
right, keeps them in step with the game (the turn panel of its edition, the banner), and holds the
parts that do the menus' work (:mod:`~scorekeeper.ui.window_menus` wires each menu to its part)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QCloseEvent, QResizeEvent, QShowEvent
from PySide6.QtWidgets import QApplication, QDockWidget, QFrame, QLabel, QMainWindow, QScrollArea, QSizePolicy, QSplitter, QStackedWidget, QVBoxLayout, QWidget

from scorekeeper.rules import GameKind
from scorekeeper.scoreboard.banner import BannerKind, banner_of
from scorekeeper.serve import network_address
from scorekeeper.settings import load_settings
from scorekeeper.ui.controller import GameController
from scorekeeper.ui.flip_panel import FlipPanel
from scorekeeper.ui.game_files import GameFiles
from scorekeeper.ui.history import HistoryPanel
from scorekeeper.ui.key_routing import TurnKeys
from scorekeeper.ui.phone_sharing import PhoneSharing
from scorekeeper.ui.plain_labels import PlainTextLabels, make_plain
from scorekeeper.ui.race_view import RaceView
from scorekeeper.ui.scoreboard import ScoreboardModel, ScoreboardView
from scorekeeper.ui.table_mode import TableModeView
from scorekeeper.ui.table_mode_switch import TableModeSwitch, WindowPages
from scorekeeper.ui.turn_panel import TurnPanel, big
from scorekeeper.ui.window_camera import WindowCamera
from scorekeeper.ui.window_menus import build_menus
from scorekeeper.ui.window_options import WindowOptions

if TYPE_CHECKING:
    from scorekeeper.ui.worker import ReaderFactory, SourceOpener

log = logging.getLogger(__name__)

BOTTOM_DOCKS_SHARE = 0.25
"""The most of the window's height the history and score race docks keep as the window shrinks:
the scoreboard and the turn above them come first."""

BANNER_STYLES = {
    BannerKind.WON: "background: #2e7d32; color: white; padding: 4px",
    BannerKind.LAST_LAP: "background: #f39c12; color: black; padding: 4px",
}
"""The banner's colours for each thing it announces."""


class MainWindow(QMainWindow):
    """Scoreboard, turn panel, history, and (dice edition) the live camera view, laid out and kept
    in step with the game; the parts it holds do the menus' work."""

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
        settings, settings_problem = load_settings(controller.home)
        self.options = replace(options, keep_photos=options.keep_photos and settings.keep_photos)
        """What the command line asked, with the roll pictures the saved setting allows."""
        self.setWindowTitle("scorekeeper: Farkle")
        self.scoreboard_model = ScoreboardModel(controller)
        self.scoreboard = ScoreboardView(self.scoreboard_model)
        self.banner = big(QLabel(), 5)
        self.banner.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.banner.setWordWrap(True)
        self.banner.hide()
        self.turn_panel = TurnPanel(controller, typing_apart=True)
        self.flip_panel = FlipPanel(controller)
        self.turns = QStackedWidget()
        self.turns.addWidget(self.turn_panel)
        self.turns.addWidget(self.flip_panel)
        self.turn_scroll = QScrollArea()
        """The turn panel's place: it scrolls where the window is too short for it, so the scoreboard
        above it keeps every player's row whole."""
        self.turn_scroll.setWidget(self.turns)
        self.turn_scroll.setWidgetResizable(True)
        self.turn_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.turn_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.history = HistoryPanel(controller)
        self.source_label = QLabel()
        self.camera_part = WindowCamera(self, controller, self.options, reader, opener, self.source_label)
        """The camera pane (or the notice that this build has none) and the roll pictures' setting."""
        self.camera = self.camera_part.widget
        """The camera's place in the window: the pane, or the notice."""
        self.extras = self._extras()

        right = QWidget()
        column = QVBoxLayout(right)
        column.addWidget(self.banner)
        column.addWidget(self.scoreboard)
        column.addWidget(self.turn_scroll, 1)
        column.addWidget(self.turn_panel.typing_area)
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
        dock = QDockWidget("History: every turn (double-click to correct one)", self)
        dock.setObjectName("history")
        dock.setWidget(self.history)
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
        self.history_dock = dock
        self.race = RaceView(controller)
        race_dock = QDockWidget("Score race: every player's score after every turn", self)
        race_dock.setObjectName("race")
        race_dock.setWidget(self.race)
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, race_dock)
        self.splitDockWidget(dock, race_dock, Qt.Orientation.Horizontal)
        self.resizeDocks([dock, race_dock], [800, 600], Qt.Orientation.Horizontal)
        self.resizeDocks([race_dock], [260], Qt.Orientation.Vertical)
        self.race_dock = race_dock
        self.statusBar().addPermanentWidget(self.source_label)
        self.games = GameFiles(self, controller)
        """Game > New, Resume, Export: the games' files and their dialogs."""
        self.phone_sharing = PhoneSharing(self, controller, network)
        """View > Scoreboard on phones: the server the phones read."""
        self.table_mode_switch = TableModeSwitch(self, WindowPages(self.pages, self.splitter, self.table_view, self.camera), self.refresh)
        """View > Table mode: the big full-screen scoreboard, on and off."""
        docks = [dock for dock in (self.history_dock, self.race_dock, self.stats_dock) if dock is not None]
        self.menus = build_menus(
            self, controller, self.games, self.camera_part, self.table_mode_switch, self.phone_sharing, docks, self.options.keep_photos
        )
        """The menu actions that hold a state (roll pictures kept, the phones' scoreboard)."""
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

    def _extras(self) -> list[QWidget]:
        """The coach's hint and the table statistics, where those parts are installed."""
        widgets: list[QWidget] = []
        self.stats_dock: QDockWidget | None = None
        """The table statistics' dock, where that part is installed."""
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

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_docks()
        self.table_mode_switch.window_resized()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._fit_docks()

    def _fit_docks(self) -> None:
        """Hold the history and score race docks to their share of the window's height."""
        most = int(self.height() * BOTTOM_DOCKS_SHARE)
        bottom = [dock for dock in (self.history_dock, self.race_dock) if not dock.isHidden() and not dock.isFloating()]
        if bottom and max(dock.height() for dock in bottom) > most:
            self.resizeDocks(bottom[:1], [most], Qt.Orientation.Vertical)

    def _table_command(self, step: str) -> None:
        """A button of table mode: leave it, or a step of the turn as its key would take it."""
        if step == "leave":
            self.table_mode_switch.set(False)
        else:
            self.turn_panel.command(step)

    def refresh(self) -> None:
        """Follow the game: the phones' server on the game on screen, the dice or card edition's
        turn panel, and the banner."""
        self.phone_sharing.follow_game()
        state = self.controller.state
        cards = state is not None and state.rules.kind is GameKind.CARDS
        self.turns.setCurrentWidget(self.flip_panel if cards else self.turn_panel)
        self.turn_panel.typing_area.setVisible(not cards)
        self.camera.setVisible(not cards)
        banner = banner_of(state)
        if banner is None:
            self.banner.hide()
            return
        self.banner.setText(banner.text)
        self.banner.setStyleSheet(BANNER_STYLES[banner.kind])
        self.banner.show()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.phone_sharing.stop()
        self.camera_part.close()
        self.controller.close()
        super().closeEvent(event)
