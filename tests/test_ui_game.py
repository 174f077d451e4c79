"""A whole three-player game through the window, from rendered table frames to the exported sheet.

The frames come from the project's renderer (a scripted table); the dice reader is a stand-in
that returns the renderer's labels, with one confident misread (corrected by a tap) and one
unsure die (confirmed by a tap). Capture, settling and the worker thread are the real ones.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from scorekeeper.game import Game
from scorekeeper.rules import Dice, load_rules
from scorekeeper.ui.controller import GameController
from scorekeeper.ui.main_window import MainWindow, WindowOptions
from tests.ui_fakes import LabelReader, Misread, ScriptedTable

RULES = """
base = "retail"
title = "Short game with an entry minimum"
[turn]
entry_minimum = 500
[end]
target = 2000
"""


@pytest.fixture
def rules_file(tmp_path: Path) -> Path:
    path = tmp_path / "short.toml"
    path.write_text(RULES)
    return path


def click_keep(window: MainWindow, qtbot: QtBot, keep: str) -> None:
    buttons = [b for b in window.turn_panel.keep_buttons if b.property("keep") == keep]
    assert buttons, f"no keep button for {keep}: {[b.text() for b in window.turn_panel.keep_buttons]}"
    qtbot.mouseClick(buttons[0], Qt.MouseButton.LeftButton)


@pytest.mark.slow
def test_a_three_player_game_from_the_table_to_the_score_sheet(qtbot: QtBot, tmp_path: Path, rules_file: Path) -> None:
    table = ScriptedTable()
    reader = LabelReader(
        table,
        [
            Misread(roll=(1, 1, 1, 2, 3), face=2, read_as=4),  # confident and wrong: fixed by a tap
            Misread(roll=(2, 2, 3, 3, 4, 6), face=4, read_as=4, confidence=0.2),  # unsure: confirmed by a tap
        ],
    )
    controller = GameController(tmp_path / "home")
    window = MainWindow(controller, WindowOptions(source="scripted"), reader=lambda: reader, opener=lambda spec, profile: table)
    qtbot.addWidget(window)
    window.show()
    rules = load_rules(rules_file)
    assert controller.start(rules, ["Ann", "Bob", "Cy"], 2000)
    game = controller.game
    assert game is not None
    panel = window.turn_panel
    camera = window.camera

    def throw(values: str, read_as: str | None = None) -> None:
        table.roll(Dice.from_str(values).values)
        expected = Dice.from_str(read_as or values)
        qtbot.waitUntil(lambda: game.state.turn is not None and game.state.turn.roll == expected, timeout=20000)

    # Ann gets on the board: 1 1 1 5 is 1,050.
    throw("1 1 1 5 2 3")
    assert [e.source for e in game.events if hasattr(e, "source")] == ["camera"]
    click_keep(window, qtbot, "1 1 1 5")
    assert panel.bank_button.isVisible()
    qtbot.keyClick(panel.entry, Qt.Key.Key_B)
    assert game.state.players[0].score == 1050

    # Bob keeps a 5: below the entry minimum, so Bank is not offered and B is refused.
    throw("5 2 3 4 6 6")
    click_keep(window, qtbot, "5")
    assert not panel.bank_button.isVisible()
    before = len(game.events)
    qtbot.keyClick(panel.entry, Qt.Key.Key_B)
    assert len(game.events) == before and game.state.turn.total == 50
    assert "450 more" in panel.message.text()
    # He rolls the other five; the camera reads the 2 as a 4, and a tap puts it right.
    throw("1 1 1 2 3", read_as="1 1 1 4 3")
    taken = camera.taken
    assert taken is not None
    index = taken.values.index(4)
    qtbot.mouseClick(camera.view, Qt.MouseButton.LeftButton, pos=camera.view.die_centre(index))
    assert camera.picker is not None and camera.picker.isVisible()
    qtbot.mouseClick(camera.picker.buttons[2], Qt.MouseButton.LeftButton)
    assert game.state.turn.roll == Dice.from_str("1 1 1 2 3")
    assert camera.taken is taken and sorted(taken.values) == [1, 1, 1, 2, 3], "the view shows the corrected die"
    assert type(game.events[-1]).__name__ == "DieCorrected"
    kept = [json.loads(line) for line in (tmp_path / "home" / "corrections" / "corrections.jsonl").read_text().splitlines()]
    assert [(k["was"], k["value"]) for k in kept] == [(4, 2)]
    assert (tmp_path / "home" / "corrections" / kept[0]["file"]).is_file()
    click_keep(window, qtbot, "1 1 1")
    qtbot.mouseClick(panel.bank_button, Qt.MouseButton.LeftButton)
    assert game.state.players[1].score == 1050

    # Cy Farkles.
    throw("2 2 3 4 6 6")
    assert panel.farkle.isVisible() and not panel.keep_buttons
    qtbot.keyClick(panel.entry, Qt.Key.Key_F)
    assert game.state.players[2].farkle_streak == 1

    # Ann throws a straight, banks 1,500 and reaches the target: the last lap begins.
    throw("1 2 3 4 5 6")
    click_keep(window, qtbot, "1 2 3 4 5 6")
    qtbot.keyClick(panel.entry, Qt.Key.Key_B)
    assert game.state.final_lap and window.banner.isVisible() and "LAST LAP" in window.banner.text()

    # Bob's last turn: a 5 banked.
    throw("5 2 3 4 6 6")
    click_keep(window, qtbot, "5")
    qtbot.keyClick(panel.entry, Qt.Key.Key_B)

    # Cy's last turn: one die is unsure, so the roll waits for a tap, then it is a Farkle.
    table.roll(Dice.from_str("2 2 3 3 4 6").values)
    qtbot.waitUntil(lambda: camera.pending is not None, timeout=20000)
    assert game.state.turn.roll is None, "an unsure die holds the roll back"
    flagged = camera.pending.unsure.index(True)
    qtbot.mouseClick(camera.view, Qt.MouseButton.LeftButton, pos=camera.view.die_centre(flagged))
    qtbot.mouseClick(camera.picker.buttons[4], Qt.MouseButton.LeftButton)
    assert game.state.turn.roll == Dice.from_str("2 2 3 3 4 6")
    qtbot.keyClick(panel.entry, Qt.Key.Key_F)

    state = game.state
    assert state.over and [state.players[s].name for s in state.winners] == ["Ann"]
    assert "Ann wins" in window.banner.text()

    # The same game played straight into the engine gives the same totals.
    engine = Game.new(rules, ["Ann", "Bob", "Cy"], target=2000)
    for roll, keep in (("1 1 1 5 2 3", "1 1 1 5"), ("5 2 3 4 6 6", "5"), ("1 1 1 2 3", "1 1 1")):
        engine.roll(roll)
        engine.keep(keep)
        if keep != "5":
            engine.bank()
    engine.roll("2 2 3 4 6 6"); engine.farkle()
    engine.roll("1 2 3 4 5 6"); engine.keep("1 2 3 4 5 6"); engine.bank()
    engine.roll("5 2 3 4 6 6"); engine.keep("5"); engine.bank()
    engine.roll("2 2 3 3 4 6"); engine.farkle()
    assert engine.state.over
    expected = [p.score for p in engine.state.players]
    assert [p.score for p in state.players] == expected == [2550, 1100, 0]

    sheet = tmp_path / "sheet.csv"
    assert window.games.export_sheet(sheet, "csv")
    rows = list(csv.reader(sheet.open()))
    assert ["winner", "Ann"] in rows
    header = rows.index(["player", "score", "Farkles"])
    assert [(r[0], int(r[1]), int(r[2])) for r in rows[header + 1 : header + 4]] == [
        ("Ann", 2550, 0), ("Bob", 1100, 0), ("Cy", 0, 2)
    ]
    turns_at = next(i for i, r in enumerate(rows) if r and r[0] == "turn")
    turns = [r for r in rows[turns_at + 1 :] if r and r[0].isdigit()]
    assert len(turns) == len(engine.state.history) == 6
    assert [int(x) for x in turns[-1][-3:]] == expected
    assert turns[2][6] == "Farkle"
    html = tmp_path / "sheet.html"
    assert window.games.export_sheet(html, "html")
    assert "Winner: Ann" in html.read_text() and "2,550" in html.read_text()
    window.close()
