"""Table mode's view: the scoreboard filling the screen, the roll and the turn total large, the camera small.

It draws what :func:`scorekeeper.scoreboard.table_mode.table_board` says at the sizes
:func:`~scorekeeper.scoreboard.table_mode.table_layout` gives for the screen; the window hands it the
camera pane while table mode is on, so taps on the dice keep working, and typed keys still reach
the turn's typing line (shown here as typed).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QFont, QResizeEvent
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from scorekeeper.scoreboard.table_mode import BOARD_WIDTH, TableBoard, TableLayout, table_board, table_layout
from scorekeeper.ui.camera_view import LEAST_SIZE
from scorekeeper.ui.controller import GameController
from scorekeeper.ui.race_view import RaceView

QWIDGETSIZE_MAX = 16777215
"""Qt's largest widget size: no limit."""
CURRENT = "background: #fff2b3; color: black"
WINNER = "background: #c8f0c0; color: black"
KEYS = "Type the dice and Enter · B bank · F Farkle · Z undo · Y redo · Esc or F11 leaves table mode"
"""The keys, said under the buttons."""


def _sized(label: QLabel, pixels: int, bold: bool = True) -> None:
    font = QFont(label.font())
    font.setPixelSize(max(1, pixels))
    font.setBold(bold)
    label.setFont(font)


class TableModeView(QWidget):
    """The big board: players' names and scores left (and under them, once the game is over, the score
    race), whose turn, the roll, the turn total and the camera right."""

    def __init__(self, controller: GameController, command: Callable[[str], None], parent: QWidget | None = None) -> None:
        """``command`` takes a step from a button here: ``"bank"``, ``"farkle"``, ``"undo"`` or ``"leave"``."""
        super().__init__(parent)
        self.controller = controller
        self.setAutoFillBackground(True)
        self.board = QWidget()
        self.rows = QGridLayout(self.board)
        self.rows.setHorizontalSpacing(24)
        self.rows.setVerticalSpacing(0)
        self.names: list[QLabel] = []
        self.scores: list[QLabel] = []
        self.headline = QLabel()
        self.roll = QLabel()
        self.note = QLabel()
        self.total = QLabel()
        self.total_caption = QLabel("this turn")
        self.banner = QLabel()
        self.typed = QLabel()
        self.message = QLabel()
        self.keys = QLabel(KEYS)
        labels = (self.headline, self.roll, self.note, self.total, self.total_caption, self.banner, self.typed, self.message, self.keys)
        for label in labels:
            label.setAlignment(Qt.AlignmentFlag.AlignCenter)
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        for label in (self.headline, self.banner, self.message, self.keys):
            label.setWordWrap(True)
        self.banner.setStyleSheet("background: #f39c12; color: black")
        self.note.setStyleSheet("color: #8a5a00")
        self.buttons: dict[str, QPushButton] = {}
        buttons = QHBoxLayout()
        for name, text in (("bank", "Bank (B)"), ("farkle", "Farkle (F)"), ("undo", "Undo (Z)"), ("leave", "Leave (Esc)")):
            button = QPushButton(text)
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.clicked.connect(lambda _=False, step=name: command(step))
            buttons.addWidget(button)
            self.buttons[name] = button
        self.camera_slot = QVBoxLayout()
        self.camera: QWidget | None = None
        """The window's camera pane while table mode is on."""
        side = QVBoxLayout()
        for widget in (self.headline, self.roll, self.note, self.total, self.total_caption, self.banner):
            side.addWidget(widget)
        side.addStretch(1)
        side.addWidget(self.typed)
        side.addWidget(self.message)
        side.addLayout(buttons)
        side.addWidget(self.keys)
        side.addLayout(self.camera_slot)
        self.side = QWidget()
        self.side.setLayout(side)
        self.race = RaceView(controller)
        """The score race, shown large under the scores once the game is over."""
        self.race.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        self.race.hide()
        left = QVBoxLayout()
        left.addWidget(self.board)
        left.addWidget(self.race, 4)
        left.addStretch(1)
        layout = QHBoxLayout(self)
        layout.addLayout(left, 1)
        layout.addWidget(self.side)
        self.sizes: TableLayout = table_layout(1280, 720, 0)
        """The sizes drawn at now."""
        self.shown: TableBoard = table_board(None)
        """What is drawn now."""
        controller.changed.connect(self.refresh)
        self.refresh()

    def screen_size(self) -> tuple[int, int]:
        """The size table mode is laid out for: the screen the window is on."""
        geometry = self.screen().geometry()
        return geometry.width(), geometry.height()

    def refresh(self) -> None:
        """Redraw from the game: every row, whose turn, the roll, the turn total."""
        board = table_board(self.controller.state)
        self.shown = board
        longest = max((len(line.name) + 4 + len(line.score) for line in board.lines), default=12)
        width, height = self.screen_size()
        self.sizes = table_layout(width, height, len(board.lines), longest, len(board.headline))
        while len(self.names) > len(board.lines):
            for label in (self.names.pop(), self.scores.pop()):
                label.deleteLater()
        while len(self.names) < len(board.lines):
            name, score = QLabel(), QLabel()
            score.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            name.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            self.names.append(name)
            self.scores.append(score)
        per_column = -(-len(board.lines) // self.sizes.columns) if board.lines else 1
        for seat, line in enumerate(board.lines):
            name, score = self.names[seat], self.scores[seat]
            self.rows.addWidget(name, seat % per_column, seat // per_column * 2)
            self.rows.addWidget(score, seat % per_column, seat // per_column * 2 + 1)
            name.setText(("\u25b6 " if line.current else "") + line.name)
            name.setToolTip(line.mark)
            score.setText(line.score)
            style = WINNER if line.winner else CURRENT if line.current else ""
            for label in (name, score):
                label.setStyleSheet(style)
                _sized(label, self.sizes.name_px, bold=line.current or line.winner)
        for column in range(self.sizes.columns):
            self.rows.setColumnStretch(column * 2, 1)
        self.headline.setText(board.headline)
        self.roll.setText(board.roll)
        self.roll.setVisible(bool(board.roll))
        self.note.setText(board.roll_note)
        self.total.setText(board.turn_total)
        self.total_caption.setVisible(bool(board.turn_total))
        self.banner.setText(board.banner)
        self.banner.setVisible(bool(board.banner))
        over = self.controller.state is not None and self.controller.state.over
        self.race.setVisible(over)
        self.race.type_px = max(14, self.sizes.note_px * 2 // 3)
        self.race.update()
        _sized(self.headline, self.sizes.headline_px)
        _sized(self.roll, self.sizes.roll_px)
        _sized(self.total, self.sizes.roll_px)
        for label in (self.note, self.total_caption, self.banner, self.typed):
            _sized(label, self.sizes.note_px)
        _sized(self.message, max(12, self.sizes.note_px * 2 // 3), bold=False)
        _sized(self.keys, max(12, self.sizes.note_px // 2), bold=False)
        self.side.setFixedWidth(round(width * (1 - BOARD_WIDTH)))
        if self.camera is not None:
            self._fit_camera(self.camera)

    def _fit_camera(self, camera: QWidget) -> None:
        """The camera pane as small as table mode has it: its width, and its height for the picture
        with what the lines under it need at that width added, up to a third of the screen; never
        less than the picture's least height and the lines, so they are never drawn over it."""
        width, height = self.sizes.camera
        camera.setFixedWidth(width)
        layout = camera.layout()
        need = layout.minimumHeightForWidth(width) if layout is not None and layout.hasHeightForWidth() else camera.minimumSizeHint().height()
        most = self.screen_size()[1] // 3
        camera.setFixedHeight(max(need, min(height + need - LEAST_SIZE[1], most)))

    def hold_camera(self, camera: QWidget) -> None:
        """Show the window's camera pane here, small (its taps keep working); it is fitted again
        whenever its lines change."""
        self.camera = camera
        self.camera_slot.addWidget(camera)
        camera.installEventFilter(self)
        self._fit_camera(camera)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.camera and event.type() == QEvent.Type.LayoutRequest:
            self._fit_camera(self.camera)
        return False

    def release_camera(self) -> QWidget | None:
        """Give the camera pane back, free to take any size again."""
        camera, self.camera = self.camera, None
        if camera is not None:
            camera.removeEventFilter(self)
            camera.setMinimumSize(0, 0)
            camera.setMaximumSize(QWIDGETSIZE_MAX, QWIDGETSIZE_MAX)
        return camera

    def show_typed(self, text: str) -> None:
        """The typing line's text, as it grows."""
        self.typed.setText(f"typed: {text}" if text else "")

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.refresh()
