"""The turn panel at the table's sizes with the LAST LAP banner over the board and a Farkle on the
table: nothing of the panel cut at 1400x900, and the typing line with its hint always whole."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRect
from pytestqt.qtbot import QtBot

from scorekeeper.rules import load_rules
from scorekeeper.ui.main_window import MainWindow
from tests.test_ui_keys_and_resume import open_window


def last_lap_farkle(qtbot: QtBot, home: Path, size: tuple[int, int]) -> MainWindow:
    """Ann, Bob and Cy under piggyback, the wild die, spicy and a 500 penalty: Ann banks 10,000 (the
    last lap), and Bob's roll on the table is a Farkle."""
    window = open_window(qtbot, home)
    controller = window.controller
    controller.start(load_rules("retail", ["farkle-penalty-500", "piggyback", "wild-die", "spicy"]), ["Ann", "Bob", "Cy"])
    controller.act(lambda game: game.enter_points(10_000, "a big turn"))
    controller.act(lambda game: game.bank())
    controller.act(lambda game: game.roll("2 2 3 4 6 6"))
    window.resize(*size)
    qtbot.waitUntil(lambda: window.size().height() <= size[1], timeout=3000)
    qtbot.wait(50)
    panel = window.turn_panel
    assert window.banner.isVisible() and "LAST LAP" in window.banner.text().upper()
    assert panel.farkle.isVisible() and panel.entry.isVisible()
    return window


@pytest.mark.parametrize("size", [(1400, 900), (1280, 720)])
def test_the_typing_line_and_its_hint_are_whole(qtbot: QtBot, tmp_path: Path, size: tuple[int, int]) -> None:
    window = last_lap_farkle(qtbot, tmp_path, size)
    panel = window.turn_panel
    seen = QRect(QPoint(0, 0), window.size())
    entry = QRect(panel.entry.mapTo(window, QPoint(0, 0)), panel.entry.size())
    assert panel.entry.isVisible() and seen.contains(entry), f"typing line at {entry} outside the window {seen}"
    hint = panel.entry_hint
    assert "w: the wild die, r: red pips" in hint.text() and hint.isVisible()
    shown = QRect(hint.mapTo(window, QPoint(0, 0)), hint.size())
    assert seen.contains(shown), f"the typing line's hint at {shown} outside the window {seen}"
    assert hint.height() >= hint.heightForWidth(hint.width()), "the hint is cut"
    prompt = panel.entry.placeholderText()
    assert panel.entry.fontMetrics().horizontalAdvance(prompt) <= panel.entry.contentsRect().width() - 8, prompt
    if size == (1400, 900):
        assert window.turn_scroll.verticalScrollBar().maximum() == 0, "the turn panel needs no scrolling at 1400x900"
