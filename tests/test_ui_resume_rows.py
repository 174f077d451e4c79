"""The resume offer's list: each game's row whole, however many players and however long its rules' name."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRect, Qt
from pytestqt.qtbot import QtBot

from scorekeeper.game.resume import UnfinishedGame
from scorekeeper.ui.resume_dialog import ResumeDialog


def test_a_long_row_wraps_inside_the_list_rather_than_being_cut(qtbot: QtBot, tmp_path: Path) -> None:
    names = ["Annabelle", "Bartholomew", "Cyrille", "Dorothea", "Evangeline", "Frederick"]
    games = [
        UnfinishedGame(tmp_path / "a.jsonl", "2026-12-05T20:15:00", tuple((name, 10_000 - 50 * n) for n, name in enumerate(names)),
                       "Bartholomew", "the retail chart (retail+wild-die+spicy+three-farkle-penalty)", open_in="process 4242 since 20:15"),
        UnfinishedGame(tmp_path / "b.jsonl", "2026-12-04T19:00:00", (("Ann", 300), ("Bob", 0)), "Ann", "retail"),
    ]
    dialog = ResumeDialog(games, on_start=True)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    listing = dialog.list
    viewport = listing.viewport().rect()
    assert listing.horizontalScrollBar().maximum() == 0, "nothing to scroll sideways to"
    for row, game in enumerate(games):
        item = listing.item(row)
        rect = listing.visualItemRect(item)
        assert viewport.left() <= rect.left() and rect.right() <= viewport.right(), f"row {row} runs past the list: {rect} in {viewport}"
        needed = listing.fontMetrics().boundingRect(QRect(0, 0, rect.width() - 8, 10_000), int(Qt.TextFlag.TextWordWrap), str(game))
        assert needed.height() <= rect.height(), f"row {row} shows {rect.height()} of the {needed.height()} pixels its words need"
