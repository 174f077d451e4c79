"""Table mode in the window: View > Table mode (F11) fills the screen with the scoreboard, readable
from three metres; the keyboard and taps keep working; Esc gives the window back as it was."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from scorekeeper.rules import Dice, load_rules
from scorekeeper.ui.main_window import MainWindow
from tests.test_ui_keys_and_resume import focused, open_window, press
from tests.test_ui_window import tap_die, window_on
from tests.ui_fakes import ScriptedTable


def table_mode_on(qtbot: QtBot, window: MainWindow) -> None:
    qtbot.keyClick(focused(window), Qt.Key.Key_F11)
    screen = window.screen().geometry().size()
    qtbot.waitUntil(lambda: window.table_mode_switch.on and window.isFullScreen() and window.size() == screen, timeout=5000)


def test_table_mode_fills_the_screen_with_names_and_scores_a_twelfth_of_its_height(qtbot: QtBot, tmp_path: Path) -> None:
    window = open_window(qtbot, tmp_path)
    assert window.table_mode_switch.action.text().startswith("&Table mode") and window.table_mode_switch.action.shortcut().toString() == "F11"
    window.controller.start(load_rules("retail"), ["Ann", "Bob", "Cy"])
    press(qtbot, window, "115234")
    table_mode_on(qtbot, window)
    screen = window.screen().geometry()
    assert window.geometry().size() == screen.size()
    view = window.table_view
    assert not window.menuBar().isVisible() and not window.history_dock.isVisible()
    assert [label.text() for label in view.names] == ["\u25b6 Ann", "Bob", "Cy"]
    assert [label.text() for label in view.scores] == ["0", "0", "0"]
    for label in [*view.names, *view.scores]:
        assert label.isVisible() and label.font().pixelSize() >= screen.height() / 12
        assert QFontMetrics(label.font()).height() >= screen.height() / 12 and label.height() >= screen.height() / 12
    assert view.roll.text() == "1 1 2 3 4 5" and view.roll.font().pixelSize() >= screen.height() / 12
    assert view.total.text() == "0" and view.total.font().pixelSize() >= screen.height() / 12
    camera = window.camera
    assert camera.isVisible() and view.isAncestorOf(camera)
    assert camera.width() * 3 <= screen.width() and camera.height() * 3 <= screen.height(), "the camera view is small"
    window.close()


def test_the_keyboard_keeps_working_in_table_mode_and_esc_leaves_it(qtbot: QtBot, tmp_path: Path) -> None:
    window = open_window(qtbot, tmp_path)
    window.controller.start(load_rules("retail"), ["Ann", "Bob"])
    window.history_dock.show()
    table_mode_on(qtbot, window)
    game = window.controller.game
    press(qtbot, window, "115", enter=False)
    assert window.table_view.typed.text() == "typed: 115", "what is typed shows on the big board"
    press(qtbot, window, "234")
    assert game.state.turn.roll == Dice.from_str("1 1 5 2 3 4") and window.table_view.roll.text() == "1 1 2 3 4 5"
    press(qtbot, window, "115")
    assert window.table_view.total.text() == "250"
    qtbot.keyClick(focused(window), Qt.Key.Key_B)
    assert game.state.players[0].score == 250 and window.table_view.scores[0].text() == "250"
    assert window.table_view.headline.text() == "Bob's turn" and window.table_view.names[1].text() == "\u25b6 Bob"
    qtbot.keyClick(focused(window), Qt.Key.Key_Z)
    assert game.state.players[0].score == 0, "Z undoes in table mode too"
    qtbot.keyClick(focused(window), Qt.Key.Key_Escape)
    assert not window.table_mode_switch.on and not window.isFullScreen()
    assert window.menuBar().isVisible() and window.history_dock.isVisible()
    assert window.splitter.widget(0) is window.camera and window.camera.isVisible()
    assert window.pages.currentWidget() is window.splitter
    qtbot.keyClick(focused(window), Qt.Key.Key_F11)
    assert window.table_mode_switch.on
    window.table_view.buttons["leave"].click()
    assert not window.table_mode_switch.on
    window.close()


def test_the_buttons_of_table_mode_take_the_turns_steps(qtbot: QtBot, tmp_path: Path) -> None:
    window = open_window(qtbot, tmp_path)
    window.controller.start(load_rules("retail"), ["Ann", "Bob"])
    window.table_mode_switch.set(True)
    press(qtbot, window, "223346")
    window.table_view.buttons["farkle"].click()
    assert window.controller.state.current.name == "Bob"
    window.table_view.buttons["undo"].click()
    assert window.controller.state.current.name == "Ann"
    window.table_view.buttons["bank"].click()
    assert "Not allowed" in window.turn_panel.message.text() and "Not allowed" in window.table_view.message.text()
    window.close()


def test_a_tap_on_the_small_camera_view_still_corrects_a_die(qtbot: QtBot, tmp_path: Path) -> None:
    table = ScriptedTable(320, 240)
    window = window_on(qtbot, tmp_path, table)
    controller = window.controller
    controller.start(load_rules("retail"), ["Ann", "Bob"])
    window.table_mode_switch.set(True)
    QApplication.processEvents()
    table.roll([2, 3, 4])
    qtbot.waitUntil(lambda: controller.state.turn.roll == Dice.from_str("2 3 4"), timeout=20000)
    index = window.camera.taken.values.index(3)
    tap_die(qtbot, window, index, 5)
    assert controller.state.turn.roll == Dice.from_str("2 4 5")
    assert window.table_view.roll.text() == "2 4 5"
    window.close()


def layout_of(window: MainWindow) -> dict[str, object]:
    """Where the window is, its size, and the sizes of its parts: what leaving table mode gives back."""
    return {
        "geometry": window.geometry().getRect(),
        "splitter": window.splitter.sizes(),
        "history": window.history_dock.geometry().getRect(),
        "history shown": window.history_dock.isVisible(),
        "pages": window.pages.geometry().getRect(),
    }


def gave_back(window: MainWindow, before: dict[str, object], maximized: bool = False) -> None:
    """Passes once the window has left full screen, maximized or not as it was, with the layout it
    had before (waitUntil retries it until then)."""
    assert not window.isFullScreen() and window.isMaximized() == maximized
    assert layout_of(window) == before


def test_leaving_table_mode_gives_back_the_windows_place_size_splitter_and_history(qtbot: QtBot, tmp_path: Path) -> None:
    window = open_window(qtbot, tmp_path)
    window.controller.start(load_rules("retail"), ["Ann", "Bob", "Cy"])
    press(qtbot, window, "115234")
    window.history_dock.show()
    window.setGeometry(60, 80, 1100, 760)
    qtbot.waitUntil(lambda: window.geometry().getRect() == (60, 80, 1100, 760), timeout=5000)
    window.resizeDocks([window.history_dock], [260], Qt.Orientation.Vertical)
    window.splitter.setSizes([300, 800])
    QApplication.processEvents()
    before = layout_of(window)
    assert window.splitter.sizes()[0] < 400 and window.history_dock.height() >= 200, "not the window's first layout"
    for _ in range(2):
        table_mode_on(qtbot, window)
        qtbot.wait(100)  # as a player would: the screen has gone full (its platform says so after a while)
        qtbot.keyClick(focused(window), Qt.Key.Key_Escape)
        qtbot.waitUntil(lambda: gave_back(window, before), timeout=5000)
        qtbot.wait(200)
        assert layout_of(window) == before, "nothing moves once the window is back"
    assert window.minimumHeight() <= window.minimumSizeHint().height() <= 760, "table mode's big type sets no least size here"
    window.close()


def test_a_maximized_window_comes_back_maximized_with_its_splitter(qtbot: QtBot, tmp_path: Path) -> None:
    window = open_window(qtbot, tmp_path)
    window.controller.start(load_rules("retail"), ["Ann", "Bob"])
    window.history_dock.show()
    window.showMaximized()
    # maximized is said before the window has its maximized size: measure once it fits the screen
    qtbot.waitUntil(lambda: window.isMaximized() and window.screen().availableGeometry().contains(window.frameGeometry()), timeout=5000)
    window.splitter.setSizes([300, 500])
    QApplication.processEvents()
    before = layout_of(window)
    table_mode_on(qtbot, window)
    qtbot.wait(100)
    qtbot.keyClick(focused(window), Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: gave_back(window, before, maximized=True), timeout=5000)
    window.close()
