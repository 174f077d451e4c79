"""The New-game dialog: Enter in the name field adds the name; only the button starts the game."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from scorekeeper.ui.new_game import NewGameDialog


def test_enter_in_the_name_field_adds_the_name_and_starts_nothing(qtbot: QtBot) -> None:
    dialog = NewGameDialog()
    qtbot.addWidget(dialog)
    dialog.open()
    qtbot.waitExposed(dialog)
    dialog.name.setFocus()
    for name in ("Ann", "Bob"):
        qtbot.keyClicks(dialog.name, name)
        qtbot.keyClick(dialog.name, Qt.Key.Key_Return)
        assert dialog.isVisible() and dialog.result() == 0
    qtbot.keyClick(dialog.name, Qt.Key.Key_Enter)  # Enter on an empty name field: still nothing starts
    assert dialog.isVisible() and dialog.names() == ("Ann", "Bob") and dialog.name.text() == ""
    start = dialog.start_button
    assert start.isEnabled()
    qtbot.mouseClick(start, Qt.MouseButton.LeftButton)
    assert dialog.result() == NewGameDialog.DialogCode.Accepted
    setup = dialog.setup()
    assert setup is not None and setup.players == ("Ann", "Bob")
