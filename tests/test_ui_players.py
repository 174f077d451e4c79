"""Game > Players: the players' model over a home's games (tests/history_games.py), then the window:
head to head with the player chosen, the rules filter, a merge kept, and a record's score sheet."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtWidgets import QInputDialog, QMenu, QMessageBox
from pytestqt.qtbot import QtBot

from scorekeeper.stats.history import MERGES_FILE, history_of
from scorekeeper.ui.controller import GameController
from scorekeeper.ui.main_window import MainWindow, WindowOptions
from scorekeeper.ui.players_window import PlayersModel, PlayersWindow
from tests.history_games import journal_game, make_home, play_g5


@pytest.fixture
def home() -> Path:
    folder = Path(os.environ["SCOREKEEPER_HOME"])
    make_home(folder)
    return folder


def rows(model: PlayersModel, *titles: str) -> list[list[str]]:
    return [[model.data(model.index(row, model.column(title))) for title in titles] for row in range(model.rowCount())]


def test_the_players_model_has_a_named_column_for_each_number(qtbot: QtBot, home: Path) -> None:
    model = PlayersModel()
    model.set_players(history_of(home).players)
    titles = [model.headerData(column, Qt.Orientation.Horizontal) for column in range(model.columnCount())]
    assert titles == [
        "Player", "Games", "Wins", "Win share", "Points per turn", "Farkle share", "Hot dice", "Best turn", "Longest Farkle streak",
    ]
    assert rows(model, "Player", "Games", "Wins", "Win share", "Points per turn", "Farkle share", "Hot dice", "Best turn", "Longest Farkle streak") == [
        ["ann", "2", "1", "50%", "3,075", "25%", "4", "12,000", "1"],
        ["BOB", "2", "1", "50%", "0", "80%", "0", "0", "3"],
        ["Mary Lou", "1", "0", "0%", "1,000", "0%", "0", "1,000", "0"],
    ]


class Opened(list[QUrl]):
    """The addresses the window asked the desktop to open."""

    def __call__(self, url: QUrl) -> bool:
        self.append(url)
        return True


def window_on(qtbot: QtBot, home: Path) -> tuple[PlayersWindow, Opened]:
    opened = Opened()
    window = PlayersWindow(home, open_url=opened)
    qtbot.addWidget(window)
    window.show()
    return window, opened


def test_the_window_shows_the_players_head_to_head_and_the_damaged_journal(qtbot: QtBot, home: Path) -> None:
    window, _ = window_on(qtbot, home)
    assert window.counted.text().startswith("2 finished games (1 unfinished not counted) in ")
    assert window.notes.isVisible() and window.notes.text().startswith("g4.jsonl skipped: damaged at line ")
    assert window.model.rowCount() == 3
    assert window.selected_player() == "ann"
    assert [window.head_to_head.data(window.head_to_head.index(row, 0)) for row in range(window.head_to_head.rowCount())] == ["BOB", "Mary Lou"]
    window.select_player("Mary Lou")
    cells = [[window.head_to_head.data(window.head_to_head.index(row, column)) for column in range(4)] for row in range(2)]
    assert sorted(cells) == [["BOB", "1", "0", "1"], ["ann", "1", "1", "0"]]
    records = [[window.records.data(window.records.index(row, column)) for column in range(5)] for row in range(2)]
    assert records[1] == ["Fastest win", "2 turns", "BOB", "Mon 2 Nov 2026, 20:00", "g2.jsonl"]


def test_the_rules_filter_counts_only_the_games_under_those_rules(qtbot: QtBot, home: Path) -> None:
    window, _ = window_on(qtbot, home)
    assert [window.rules.itemText(i) for i in range(window.rules.count())] == ["All rules", "house-2009", "retail"]
    window.rules.setCurrentText("retail")
    assert window.counted.text().startswith("1 finished game (1 unfinished not counted)")
    assert rows(window.model, "Player", "Wins") == [["ann", "1"], ["BOB", "0"]]


def test_a_record_opens_its_games_score_sheet_in_the_browser(qtbot: QtBot, home: Path) -> None:
    window, opened = window_on(qtbot, home)
    window.records_table.selectRow(1)
    qtbot.mouseClick(window.open_button, Qt.MouseButton.LeftButton)
    assert len(opened) == 1
    sheet = Path(opened[0].toLocalFile())
    assert sheet.name == "g2.html" and not sheet.is_relative_to(home)
    text = sheet.read_text(encoding="utf-8")
    assert "Mary Lou" in text and "BOB" in text and "<html" in text.lower()


def test_a_name_is_merged_from_the_window_and_kept_for_the_next_time(qtbot: QtBot, home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    window, _ = window_on(qtbot, home)
    window.select_player("Mary Lou")
    monkeypatch.setattr(QInputDialog, "getItem", lambda *args: ("BOB", True))
    warnings: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text: warnings.append(text))
    qtbot.mouseClick(window.merge_button, Qt.MouseButton.LeftButton)
    assert len(warnings) == 1 and "both played in the game of Mon 2 Nov 2026" in warnings[0]
    assert not (home / MERGES_FILE).exists() and window.model.rowCount() == 3
    assert window.merge("ann", "BOB") is False
    # Robert never played with Bob: merged, he counts as Bob at once, and the merge is kept.
    journal_game(home, "g5", "house-2009", ["Robert", "Ann"], "2026-11-06T20:00:00+00:00", play_g5)
    window.reload()
    window.select_player("Robert")
    qtbot.mouseClick(window.merge_button, Qt.MouseButton.LeftButton)
    assert rows(window.model, "Player", "Games", "Wins") == [["BOB", "3", "2"], ["Ann", "3", "1"], ["Mary Lou", "1", "0"]]
    assert window.selected_player() == "BOB"
    assert json.loads((home / MERGES_FILE).read_text(encoding="utf-8"))["merged"] == {"robert": "BOB"}
    again, _ = window_on(qtbot, home)
    assert rows(again.model, "Player", "Wins")[0] == ["BOB", "2"]
    again.select_player("Mary Lou")
    assert not again.unmerge_button.isEnabled()
    again.select_player("BOB")
    assert again.unmerge_button.isEnabled()
    assert again.unmerge("BOB") is False and "'BOB' is not merged into another name" in warnings[-1]
    monkeypatch.setattr(QInputDialog, "getItem", lambda *args: ("Robert", True))
    qtbot.mouseClick(again.unmerge_button, Qt.MouseButton.LeftButton)
    assert ["Robert", "1"] in rows(again.model, "Player", "Wins") and ["BOB", "1"] in rows(again.model, "Player", "Wins")
    assert json.loads((home / MERGES_FILE).read_text(encoding="utf-8"))["merged"] == {}


def test_game_players_in_the_main_window_opens_the_players_of_its_home(qtbot: QtBot, home: Path) -> None:
    from scorekeeper.camera.sources import SourceError

    def no_camera(spec: str, profile: object) -> object:
        raise SourceError(f"no camera at {spec}")

    main = MainWindow(GameController(home), WindowOptions(source="none"), reader=lambda: None, opener=no_camera)  # type: ignore[arg-type, return-value]
    qtbot.addWidget(main)
    main.show()
    game = next(action.menu() for action in main.menuBar().actions() if action.text() == "&Game")
    assert isinstance(game, QMenu)
    entry = next(action for action in game.actions() if action.text() == "&Players...")
    entry.trigger()
    shown = main.findChild(PlayersWindow)
    assert isinstance(shown, PlayersWindow) and shown.isVisible()
    assert shown.model.rowCount() == 3 and shown.counted.text().startswith("2 finished games")
