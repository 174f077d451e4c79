"""The window's menu bar: Game (new, resume, export, players, roll pictures, quit), View (table mode, the
rules in force, the docks, the phones' scoreboard) and Camera, each action wired to the part that does it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QMainWindow, QMenu, QMessageBox

from scorekeeper.export import FORMATS
from scorekeeper.ui.controller import GameController
from scorekeeper.ui.game_files import GameFiles
from scorekeeper.ui.phone_sharing import PhoneSharing
from scorekeeper.ui.players_window import PlayersWindow
from scorekeeper.ui.rules_view import RulesDialog
from scorekeeper.ui.table_mode_switch import TableModeSwitch
from scorekeeper.ui.window_camera import WindowCamera


@dataclass(frozen=True)
class WindowMenus:
    """The menu actions that hold a state of their own."""

    keep_photos: QAction
    """Game > Keep a picture of each roll: checked while rolls keep their pictures."""
    phones: QAction
    """View > Scoreboard on phones."""


def build_menus(
    window: QMainWindow,
    controller: GameController,
    games: GameFiles,
    camera: WindowCamera,
    table_mode: TableModeSwitch,
    phones: PhoneSharing,
    docks: Sequence[QDockWidget],
    keep_photos: bool,
) -> WindowMenus:
    """Fill ``window``'s menu bar; ``docks`` get a show/hide entry in the View menu, and the roll
    pictures' entry starts checked as ``keep_photos`` says."""
    game = window.menuBar().addMenu("&Game")
    add_action(window, game, "&New game...", games.new_game, QKeySequence.StandardKey.New)
    add_action(window, game, "&Resume a game...", games.choose_resume, QKeySequence.StandardKey.Open)
    export = game.addMenu("&Export score sheet")
    for kind in FORMATS:
        add_action(window, export, f"as {kind.upper()}...", partial(games.choose_export, kind))
    add_action(window, game, "&Players...", partial(show_players, window, controller))
    keep_photos_action = QAction("&Keep a picture of each roll", window)
    keep_photos_action.triggered.connect(lambda _=False: camera.keep_photos(keep_photos_action.isChecked()))
    game.addAction(keep_photos_action)
    keep_photos_action.setCheckable(True)
    keep_photos_action.setChecked(keep_photos)
    keep_photos_action.setEnabled(camera.pane is not None)
    game.addSeparator()
    add_action(window, game, "&Quit", window.close, QKeySequence.StandardKey.Quit)
    view = window.menuBar().addMenu("&View")
    view.addAction(table_mode.action)
    add_action(window, view, "&Rules in force", partial(show_rules, window, controller), "Ctrl+R")
    for dock in docks:
        view.addAction(dock.toggleViewAction())
    view.addSeparator()
    phones_action = add_action(window, view, "Scoreboard on &phones...", phones.share)
    actions = camera.menu_actions()
    if actions:
        camera_menu = window.menuBar().addMenu("&Camera")
        for action in actions:
            camera_menu.addAction(action)
    return WindowMenus(keep_photos_action, phones_action)


def add_action(
    window: QMainWindow, menu: QMenu, text: str, slot: Callable[[], object], shortcut: QKeySequence.StandardKey | str | None = None
) -> QAction:
    """A menu entry of ``window`` that calls ``slot``."""
    action = QAction(text, window)
    if shortcut is not None:
        action.setShortcut(shortcut)
    action.triggered.connect(lambda _=False: slot())
    menu.addAction(action)
    return action


def show_rules(window: QMainWindow, controller: GameController) -> None:
    """View > Rules in force: the rules and target of the game on screen."""
    state = controller.state
    if state is None:
        QMessageBox.information(window, "Rules", "Start a game to see its rules (Game > New game).")
        return
    RulesDialog(state.rules, state.target, window).open()


def show_players(window: QMainWindow, controller: GameController) -> PlayersWindow:
    """Game > Players: every finished game of the scorekeeper home added up, in a window of its own."""
    players = PlayersWindow(controller.home, window)
    players.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    players.show()
    return players
