"""The history dock at the table's sizes: every column seen without sideways scrolling once a
penalty Farkle is listed, its long outcome whole in the cell's tool tip, its points as a loss."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from scorekeeper.game.commands import take_step
from scorekeeper.rules import load_rules
from scorekeeper.ui.main_window import MainWindow
from tests.test_ui_keys_and_resume import open_window

PENALTY_OUTCOME = "Farkle, 100 penalty, all of the score (every Farkle costs 500)"


def penalty_night(qtbot: QtBot, home: Path, size: tuple[int, int]) -> MainWindow:
    """Ann, Bob and Cy under piggyback, the wild die, spicy and a 500 penalty: Ann banks 100, Bob and
    Cy Farkle, then Ann's Farkle costs her all of her 100."""
    window = open_window(qtbot, home)
    controller = window.controller
    controller.start(load_rules("retail", ["farkle-penalty-500", "piggyback", "wild-die", "spicy"]), ["Ann", "Bob", "Cy"])
    controller.act(lambda game: game.enter_points(100, "a small turn"))
    controller.act(lambda game: game.bank())
    for _ in range(3):
        controller.act(lambda game: game.roll("2 2 3 4 6 6"))
        controller.act(lambda game: take_step(game, "farkle"))
    window.resize(*size)
    qtbot.waitUntil(lambda: window.size().height() <= size[1], timeout=3000)
    qtbot.wait(50)
    return window


@pytest.mark.parametrize("size", [(1400, 900), (1280, 720)])
def test_every_history_column_is_seen_without_sideways_scrolling(qtbot: QtBot, tmp_path: Path, size: tuple[int, int]) -> None:
    window = penalty_night(qtbot, tmp_path, size)
    table = window.history.table
    model = table.model()
    last = model.rowCount() - 1
    outcome = model.index(last, model.HEADERS.index("Outcome"))
    assert model.data(outcome) == PENALTY_OUTCOME
    header = table.horizontalHeader()
    width = table.viewport().width()
    for column, name in enumerate(model.HEADERS):
        left = header.sectionViewportPosition(column)
        assert left >= 0 and left + header.sectionSize(column) <= width, f"{name} column runs past the dock ({width} px)"
        assert header.sectionSize(column) >= header.fontMetrics().horizontalAdvance(name), f"{name} header is cut"
    assert table.horizontalScrollBar().maximum() == 0 or not table.horizontalScrollBar().isVisible()
    assert model.data(outcome, Qt.ItemDataRole.ToolTipRole) == PENALTY_OUTCOME


def test_a_penalty_farkle_shows_its_loss_in_the_points_column(qtbot: QtBot, tmp_path: Path) -> None:
    window = penalty_night(qtbot, tmp_path, (1400, 900))
    model = window.history.model
    last = model.rowCount() - 1
    assert model.data(model.index(last, model.HEADERS.index("Points"))) == "-100"
    assert model.data(model.index(last, model.HEADERS.index("Score after"))) == "0"
