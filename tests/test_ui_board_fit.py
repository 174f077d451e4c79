"""The window's board at the table's sizes: every player's row whole, above all the player to play,
with the LAST LAP banner and a roll of many keeps; the Farkle streak column narrow."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from pytestqt.qtbot import QtBot

from scorekeeper.rules import load_rules
from scorekeeper.ui.main_window import MainWindow
from tests.test_ui_keys_and_resume import open_window

NAMES = ["Annabelle", "Bob", "Cy", "Dora", "Eve", "Fred"]


def squeezed(qtbot: QtBot, home: Path, players: int, size: tuple[int, int]) -> MainWindow:
    """The window at ``size`` in the last lap, the player after the leader to play a roll of 9 keeps."""
    window = open_window(qtbot, home)
    controller = window.controller
    controller.start(load_rules("retail"), NAMES[:players])
    controller.act(lambda game: game.enter_points(10_000, "a big turn"))
    controller.act(lambda game: game.bank())
    controller.act(lambda game: game.roll("1 1 5 5 3 3"))
    window.resize(*size)
    state = controller.state
    assert state is not None and state.final_lap and window.banner.isVisible()
    score = state.roll_score()
    assert score is not None and len(window.turn_panel.keep_buttons) >= 7
    qtbot.waitUntil(lambda: window.size().height() <= size[1], timeout=3000)
    return window


@pytest.mark.parametrize("size", [(1400, 900), (1280, 720)])
@pytest.mark.parametrize("players", [3, 6])
def test_every_players_row_is_whole_on_the_board(qtbot: QtBot, tmp_path: Path, players: int, size: tuple[int, int]) -> None:
    window = squeezed(qtbot, tmp_path, players, size)
    board = window.scoreboard
    qtbot.wait(50)
    assert window.height() <= size[1], "the window keeps the size asked"
    assert board.verticalScrollBar().maximum() == 0, "the board needs no scrolling"
    seen = QRect(QPoint(0, 0), window.size())
    viewport = board.viewport()
    state = window.controller.state
    assert state is not None and state.turn is not None
    rows = [state.turn.player, *range(players)]
    for row in rows:
        rect = board.visualRect(board.model().index(row, 0)).united(board.visualRect(board.model().index(row, board.model().columnCount() - 1)))
        assert viewport.rect().contains(rect), f"row {row} is cut: {rect} in {viewport.rect()}"
        top_left = viewport.mapTo(window, rect.topLeft())
        assert seen.contains(QRect(top_left, rect.size())), f"row {row} is off the window"
    assert all(button.height() >= button.minimumSizeHint().height() for button in window.turn_panel.keep_buttons), "keep buttons are not squashed"
    camera, right = window.splitter.sizes()
    assert camera >= 0.4 * (camera + right), "the live view keeps its share of the width"


def test_the_farkle_streak_column_is_narrow_and_says_itself_in_a_tip(qtbot: QtBot, tmp_path: Path) -> None:
    window = squeezed(qtbot, tmp_path, 3, (1280, 720))
    board = window.scoreboard
    model = board.model()
    streak = model.columnCount() - 1
    assert model.headerData(streak, Qt.Orientation.Horizontal) == "F in a row"
    assert "Farkles in a row" in model.headerData(streak, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
    assert board.columnWidth(streak) * 5 <= board.viewport().width(), "the streak column takes at most a fifth of the board"
    assert board.columnWidth(0) >= max(board.columnWidth(c) for c in range(1, model.columnCount())), "the names get the room"
