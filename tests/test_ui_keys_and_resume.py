"""Issue 43, what a first whole game through the window turned up: the keyboard does it all whatever
was clicked last, the card edition's keys and chart, correction feedback, the resume offer."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from scorekeeper.game import Game
from scorekeeper.game.games_folder import new_journal_path, unfinished_games
from scorekeeper.game.journal import Journal
from scorekeeper.rules import Dice, load_rules
from scorekeeper.ui.controller import GameController
from scorekeeper.ui.main_window import MainWindow, WindowOptions
from scorekeeper.ui.resume_dialog import ResumeDialog


def open_window(qtbot: QtBot, home: Path) -> MainWindow:
    """The window with no camera (manual entry), shown and active so that keys go where the focus is."""
    window = MainWindow(GameController(home), WindowOptions(source="none"), reader=lambda: None, opener=_no_camera)  # type: ignore[arg-type]
    qtbot.addWidget(window)
    window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=5000)
    return window


def _no_camera(spec: str, profile: object) -> object:
    from scorekeeper.camera.sources import SourceError

    raise SourceError(f"no camera at {spec}")


def focused(window: MainWindow) -> QWidget:
    """Where a key pressed now goes: the focus widget, or the window when nothing has the focus."""
    return QApplication.focusWidget() or window


def press(qtbot: QtBot, window: MainWindow, text: str, enter: bool = True) -> None:
    """Type ``text`` (and Enter) into whatever has the focus, as a player at the keyboard does."""
    for char in text:
        qtbot.keyClick(focused(window), char)
    if enter:
        qtbot.keyClick(focused(window), Qt.Key.Key_Return)


def test_typing_works_after_a_keep_button_is_clicked(qtbot: QtBot, tmp_path: Path) -> None:
    window = open_window(qtbot, tmp_path)
    assert window.controller.start(load_rules("retail"), ["Ann", "Bob"])
    game = window.controller.game
    window.turn_panel.entry.setFocus()
    press(qtbot, window, "115234")
    assert game.state.turn.roll == Dice.from_str("1 1 5 2 3 4")
    button = next(b for b in window.turn_panel.keep_buttons if b.property("keep") == "1 1")
    button.setFocus()  # what a mouse click does to the focus
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert game.state.turn.total == 200 and game.state.turn.dice_left == 4
    press(qtbot, window, "5234")  # all four dice left: a roll with dice missing would not be scored
    press(qtbot, window, "5")
    assert game.state.turn.total == 250 and game.state.turn.dice_left == 3
    # A click on the scoreboard, then a lowercase b: the turn is banked.
    window.scoreboard.setFocus()
    qtbot.mouseClick(window.scoreboard.viewport(), Qt.MouseButton.LeftButton)
    qtbot.keyClick(focused(window), Qt.Key.Key_B)
    assert game.state.players[0].score == 250 and game.state.current.name == "Bob"
    window.close()


def test_shift_b_banks_like_b(qtbot: QtBot, tmp_path: Path) -> None:
    window = open_window(qtbot, tmp_path)
    assert window.controller.start(load_rules("retail"), ["Ann", "Bob"])
    game = window.controller.game
    window.turn_panel.entry.setFocus()
    press(qtbot, window, "115234")
    press(qtbot, window, "115")
    assert window.turn_panel.bank_button.text() == "Bank 250 (B)"
    qtbot.keyClick(focused(window), Qt.Key.Key_B, Qt.KeyboardModifier.ShiftModifier)
    assert game.state.players[0].score == 250
    window.close()


def test_a_typed_correction_says_what_it_did(qtbot: QtBot, tmp_path: Path) -> None:
    window = open_window(qtbot, tmp_path)
    assert window.controller.start(load_rules("retail"), ["Ann", "Bob"])
    window.turn_panel.entry.setFocus()
    press(qtbot, window, "115234")
    press(qtbot, window, "c25")
    assert window.turn_panel.message.text() == "Corrected: the 2 is a 5. The roll is now 1 1 3 4 5 5."
    press(qtbot, window, "c-3")
    assert "Not allowed" in window.turn_panel.message.text()  # seven dice: refused, and said so
    assert window.turn_panel.entry.text() == "c-3"  # left in the line to put right
    window.turn_panel.entry.clear()
    press(qtbot, window, "c3-")
    assert window.turn_panel.message.text() == "Took out the 3: not a die. The roll is now 1 1 4 5 5."
    press(qtbot, window, "c-6")
    assert window.turn_panel.message.text() == "Added the missed 6. The roll is now 1 1 4 5 5 6."
    window.close()


def test_the_card_edition_keys_chart_and_history(qtbot: QtBot, tmp_path: Path) -> None:
    window = open_window(qtbot, tmp_path)
    assert window.controller.start(load_rules("flip"), ["Ann", "Bob"])
    game = window.controller.game
    panel = window.flip_panel
    names = [b.text() for b in panel.chart_buttons]
    for kind in ("four of a kind: 1,000", "five of a kind: 2,000", "six of a kind: 3,000"):
        assert kind in names  # rules show flip lists them
    three_ones = panel.chart_buttons[names.index("three 1s: 1,000")]
    qtbot.wait(100)  # the card panel has just replaced the dice panel: let it lay out
    three_ones.setFocus()
    qtbot.mouseClick(three_ones, Qt.MouseButton.LeftButton)
    assert game.state.turn.total == 1000
    # Points typed with Enter, wherever the focus was.
    press(qtbot, window, "400")
    assert game.state.turn.total == 1400
    qtbot.keyClick(focused(window), Qt.Key.Key_Z)
    assert game.state.turn.total == 1000
    qtbot.keyClick(focused(window), Qt.Key.Key_Y)
    qtbot.keyClick(focused(window), Qt.Key.Key_B)
    assert game.state.players[0].score == 1400
    history = window.history.model
    assert history.rowCount() == 1
    assert history.data(history.index(0, 3)) == "three 1s (1,000) / 400 entered"
    qtbot.keyClick(focused(window), Qt.Key.Key_F)  # Bob draws a Farkle card
    board = window.scoreboard_model
    assert board.columns() == ["Player", "Score", "On the board", "Farkle cards"]  # no Farkle streak in the card game
    assert board.text(1, 3) == "1" and game.state.players[1].farkle_cards == 1
    window.close()


def _unfinished(home: Path, names: list[str], rolls: str, started_at: str) -> Path:
    journal = Journal.create(new_journal_path(home))
    game = Game.new(load_rules("retail"), names, started_at=started_at, sink=journal.write)
    game.roll(rolls)
    game.keep("1")
    game.bank()
    journal.close()
    return journal.path


def test_the_resume_offer_lists_every_unfinished_game_newest_first(qtbot: QtBot, tmp_path: Path) -> None:
    old = _unfinished(tmp_path, ["Ann", "Bob"], "1 2 2 3 4 6", "2026-12-04T20:00:00+01:00")
    new = _unfinished(tmp_path, ["Dee", "Eve", "Fay"], "1 2 2 3 4 6", "2026-12-05T19:30:00+01:00")
    os.utime(old, (1_000_000, 1_000_000))
    window = open_window(qtbot, tmp_path)
    shown: list[list[str]] = []

    def answer() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, ResumeDialog)
        shown.append([dialog.list.item(row).text() for row in range(dialog.list.count())])
        dialog.list.setCurrentRow(1)
        dialog.buttons[next(c for c in dialog.buttons if c.value == "resume")].click()

    QTimer.singleShot(50, answer)
    window.games.startup()
    assert shown == [
        [
            "Sat 5 Dec 2026, 19:30 · Dee 100, Eve 0, Fay 0 · Eve to play · retail",
            "Fri 4 Dec 2026, 20:00 · Ann 100, Bob 0 · Bob to play · retail",
        ]
    ]
    state = window.controller.state
    assert [p.name for p in state.players] == ["Ann", "Bob"]
    assert window.controller.journal.path == old and new in unfinished_games(tmp_path)
    window.close()


@pytest.mark.slow
def test_a_screenshot_run_writes_no_game_unless_players_are_given(tmp_path: Path) -> None:

    env = {**os.environ, "SCOREKEEPER_HOME": str(tmp_path / "home"), "QT_QPA_PLATFORM": "offscreen"}
    shot = tmp_path / "shot.png"
    result = subprocess.run(
        [sys.executable, "-m", "scorekeeper", "--source", "demo", "--screenshot", str(shot), "--after", "0.5"],
        capture_output=True, text=True, env=env, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert shot.exists()
    assert not list((tmp_path / "home" / "games").glob("*.jsonl"))


def test_the_window_keeps_its_width_as_the_texts_grow(qtbot: QtBot, tmp_path: Path) -> None:
    window = open_window(qtbot, tmp_path)
    window.resize(1400, 900)
    qtbot.wait(50)
    widths = {window.width()}
    names = ["Annabelle-Marguerite", "Bartholomew-Maximilian", "Cy"]
    assert window.controller.start(load_rules("retail"), names)
    window.turn_panel.entry.setFocus()
    steps = ["111111", "111111"] * 4 + ["b", "camera", "c1-", "c-2", "2", "x"]
    for step in steps:
        if step == "b":
            qtbot.keyClick(focused(window), Qt.Key.Key_B)
        elif step == "camera":
            assert window.controller.act(lambda game: game.roll("1", source="camera"))  # five dice the camera missed
        elif step == "x":
            window.turn_panel.show_refusal("a very long refusal " * 12)
        else:
            press(qtbot, window, step)
        qtbot.wait(20)
        widths.add(window.width())
    assert "LAST LAP: Annabelle-Marguerite reached 10,000" in window.banner.text()
    assert window.turn_panel.missing.isVisible()
    assert widths == {1400}
    window.close()


def test_the_camera_pane_keeps_its_width_as_its_lines_grow(qtbot: QtBot, tmp_path: Path) -> None:
    window = open_window(qtbot, tmp_path)
    window.resize(1400, 900)
    qtbot.wait(50)
    pane = window.camera
    widths = {(window.width(), pane.width())}
    for words in (1, 8, 40):
        pane.status.setText("demo table: dice moving, 30 frames/s read " * words)
        pane.prompt.setText("3 dice in the rolling area, but Annabelle-Marguerite has 2 to roll " * words)
        qtbot.wait(30)
        widths.add((window.width(), pane.width()))
    assert len(widths) == 1, widths
    window.close()


def test_the_keep_that_wins_says_so(qtbot: QtBot, tmp_path: Path) -> None:
    window = open_window(qtbot, tmp_path)
    assert window.controller.start(load_rules("house-2009"), ["Ann", "Bob"])
    window.turn_panel.entry.setFocus()
    press(qtbot, window, "666666")
    texts = [button.text() for button in window.turn_panel.keep_buttons]
    assert texts[0] == "Keep 6 6 6 6 6: 1,800"  # most points first
    assert "Keep 6 6 6 6 6 6: WINS THE GAME" in texts
    window.close()
