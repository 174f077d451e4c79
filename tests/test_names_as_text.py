"""What players type is shown as typed (issue 51 item 11): no label, message or tool tip of the
window reads a name as HTML, and no cell of the CSV sheet is a formula a spreadsheet would run."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QTextDocument
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from scorekeeper.export import csv_text, score_sheet
from scorekeeper.game import Game
from scorekeeper.rules import load_rules
from tests.test_ui_keys_and_resume import focused, open_window, press
from tests.test_ui_table_mode import table_mode_on

NAMES = ["<h1>ANN</h1>", "<img src=x>Bo"]


def shown(text: str, plain: bool) -> str:
    """What a Qt widget shows of ``text``: as it is where it is plain text, else read as HTML where
    it looks like HTML (Qt's rule for labels, message boxes and tool tips)."""
    if plain or not GuiQt.mightBeRichText(text):
        return text
    document = QTextDocument()
    document.setHtml(text)
    return document.toPlainText()


def label_shows(label: QLabel) -> str:
    """What ``label`` shows once drawn (Qt polishes a widget before it first draws it)."""
    label.ensurePolished()
    return shown(label.text(), label.textFormat() == Qt.TextFormat.PlainText)


def test_player_names_are_plain_text_in_every_label_and_tool_tip_of_the_window(qtbot: QtBot, tmp_path: Path) -> None:
    window = open_window(qtbot, tmp_path)
    window.controller.start(load_rules("retail"), NAMES)
    press(qtbot, window, "115234")
    press(qtbot, window, "115")
    qtbot.keyClick(focused(window), Qt.Key.Key_B)
    press(qtbot, window, "223346")
    qtbot.keyClick(focused(window), Qt.Key.Key_F)
    table_mode_on(qtbot, window)
    qtbot.keyClick(focused(window), Qt.Key.Key_Escape)
    labels = [label for label in window.findChildren(QLabel) if any(name in label.text() for name in NAMES)]
    assert len(labels) >= 3, "the test needs labels that name the players"
    assert any(NAMES[1] in label.text() for label in window.table_view.names)
    for label in labels:
        for name in NAMES:
            if name in label.text():
                assert name in label_shows(label), f"{label.text()!r} is drawn as HTML"
    for widget in window.findChildren(QWidget):
        for name in NAMES:
            if name in widget.toolTip():
                assert name in shown(widget.toolTip(), plain=False), f"the tool tip {widget.toolTip()!r} is drawn as HTML"
    window.close()


def test_a_message_box_shows_a_name_or_a_file_as_typed(qtbot: QtBot, tmp_path: Path) -> None:
    window = open_window(qtbot, tmp_path)
    window.controller.start(load_rules("retail"), NAMES)
    seen: list[str] = []

    def read_the_box() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(50, read_the_box)
            return
        seen.extend(label_shows(label) for label in box.findChildren(QLabel))
        box.done(0)

    QTimer.singleShot(50, read_the_box)
    target = tmp_path / "<b>no such folder</b>" / "sheet.csv"
    assert not window.games.export_sheet(target, "csv")
    assert any(str(target) in text for text in seen), seen
    window.close()


def spreadsheet_cells(text: str) -> list[str]:
    return [cell for row in csv.reader(io.StringIO(text, newline="")) for cell in row]


@pytest.mark.parametrize("text", ['=HYPERLINK("http://x.invalid","Ann")', "+1+1", "-2+3", "@SUM(1+1)", "\t=1+1", "\r=1+1"])
def test_no_csv_cell_is_a_formula_a_spreadsheet_would_run(text: str, tmp_path: Path) -> None:
    rules = tmp_path / "ours.toml"
    rules.write_text(f'base = "retail"\ntitle = {json.dumps(text)}\n', encoding="utf-8")
    game = Game.new(load_rules(str(rules)), [text.strip(), "Bob"])
    game.roll("1 1 5 2 3 4")
    game.keep("1 1 5")
    game.bank()
    cells = spreadsheet_cells(csv_text(score_sheet(game.events, "2026-01-01T22:30:00+00:00")))
    assert "'" + text.strip() in cells, "the name is kept, behind a quote"
    assert any(cell.startswith("'" + text) for cell in cells), "the rules' title is kept, behind a quote"
    risky = [cell for cell in cells if cell[:1] in ("=", "+", "-", "@", "\t", "\r") and cell != "-"]
    assert risky == []
