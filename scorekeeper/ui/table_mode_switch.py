"""View > Table mode (F11, Escape to leave): switching the window between its usual layout and the
big full-screen scoreboard, and giving the usual layout back as it was."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QByteArray, QRect, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QMainWindow, QSplitter, QStackedWidget, QWidget

from scorekeeper.ui.table_mode import TableModeView

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


@dataclass(frozen=True)
class WindowPages:
    """The parts of the window that table mode swaps and moves."""

    pages: QStackedWidget
    """The window's central stack: the usual layout and table mode's view."""
    splitter: QSplitter
    """The usual layout: the camera view beside the scoreboard column."""
    table_view: TableModeView
    """Table mode's big scoreboard."""
    camera: QWidget
    """The camera pane, held small by table mode's view while it is on."""


class TableModeSwitch:
    """Turns table mode on and off for ``window``, with the View menu's checkable action and the
    Escape action that leaves it."""

    def __init__(self, window: QMainWindow, parts: WindowPages, refresh: Callable[[], None]) -> None:
        """``refresh`` redraws the usual layout from the game once it is back."""
        self._window = window
        self._parts = parts
        self._refresh = refresh
        self._before: TableModeReturn | None = None
        self._layout_to_give_back: TableModeReturn | None = None
        self.action = QAction("&Table mode (big scoreboard, full screen)", window)
        """View > Table mode (F11): checked while table mode is on."""
        self.action.setShortcut("F11")
        self.action.triggered.connect(lambda _=False: self.toggle())
        self.action.setCheckable(True)
        window.addAction(self.action)
        self.leave_action = QAction("Leave table mode", window)
        """Escape, enabled while table mode is on."""
        self.leave_action.setShortcut(QKeySequence(Qt.Key.Key_Escape))
        self.leave_action.setEnabled(False)
        self.leave_action.triggered.connect(lambda _=False: self.set(False))
        window.addAction(self.leave_action)

    @property
    def on(self) -> bool:
        """Whether table mode is on: the big scoreboard filling the screen."""
        return self._parts.pages.currentWidget() is self._parts.table_view

    def toggle(self) -> None:
        """View > Table mode (F11): on, or back to the usual window."""
        self.set(not self.on)

    def set(self, on: bool) -> None:
        """Table mode on: full screen, the docks and menus out of the way, the camera pane moved in
        small (taps on it still correct the dice); off: the window as it was."""
        window, parts = self._window, self._parts
        self.action.setChecked(on)
        self.leave_action.setEnabled(on)
        if on == self.on:
            return
        if on:
            self._layout_to_give_back = None
            shape = window.windowState() & WINDOW_SHAPE
            self._before = TableModeReturn(window.normalGeometry(), shape, window.saveState(), tuple(parts.splitter.sizes()))
            for dock in window.findChildren(QDockWidget):
                dock.hide()
            window.menuBar().hide()
            window.statusBar().hide()
            parts.table_view.hold_camera(parts.camera)
            parts.pages.setCurrentWidget(parts.table_view)
            window.setGeometry(window.screen().geometry())  # where no window manager makes it full screen
            window.showFullScreen()
            parts.table_view.refresh()
            return
        parts.table_view.release_camera()
        parts.splitter.insertWidget(0, parts.camera)
        parts.pages.setCurrentWidget(parts.splitter)
        window.menuBar().show()
        window.statusBar().show()
        back, self._before = self._before, None
        window.setWindowState(Qt.WindowState.WindowNoState)
        if back is not None:
            window.setGeometry(back.geometry)
            window.setWindowState(back.state)
            self._layout_to_give_back = back
            self._give_back_layout(back)
        self._refresh()

    def window_resized(self) -> None:
        """The window took a new size: the layout before table mode again, while it is still owed."""
        if self._layout_to_give_back is not None:
            self._give_back_layout(self._layout_to_give_back)

    def _give_back_layout(self, back: TableModeReturn) -> None:
        """The docks and splitter as they were before table mode; again once the window has its old
        state and size back, where a window manager takes a while to give them (laid out at another
        size, the splitter would share the difference by its stretch factors)."""
        self._window.restoreState(back.docks)
        self._parts.splitter.setSizes(list(back.splitter))
        if self._window.windowState() & WINDOW_SHAPE == back.state and (back.state or self._window.size() == back.geometry.size()):
            self._layout_to_give_back = None
