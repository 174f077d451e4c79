"""The window keeps each roll's picture (or none, by setting or ``--no-photos``), prints them on the
sheet it exports, and deletes a game with its pictures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from scorekeeper.game import DiceRolled, Game
from scorekeeper.game.games_folder import new_journal_path
from scorekeeper.game.journal import Journal, read_journal
from scorekeeper.game.photos import last_roll_photo, photos_folder
from scorekeeper.rules import Dice, load_rules
from scorekeeper.settings import FILE as SETTINGS_FILE
from scorekeeper.table_session.roll_pictures import write_photo
from scorekeeper.ui.resume_dialog import ResumeChoice, ResumeDialog
from tests.pdf_pages import read_pdf
from tests.test_ui_window import window_on
from tests.ui_fakes import ScriptedTable


def roll_taken(qtbot: QtBot, window: object, table: ScriptedTable, values: list[int]) -> None:
    controller = window.controller  # type: ignore[attr-defined]
    table.roll(values)
    qtbot.waitUntil(lambda: controller.state.turn.roll is not None, timeout=20000)


def test_a_roll_the_camera_takes_keeps_its_picture_and_the_pdf_prints_it(qtbot: QtBot, tmp_path: Path) -> None:
    table = ScriptedTable(320, 240)
    window = window_on(qtbot, tmp_path, table)
    controller = window.controller
    controller.start(load_rules("retail"), ["Ann", "Bob"])
    roll_taken(qtbot, window, table, [1, 5, 2, 3, 4, 6])
    journal = controller.journal.path
    found = last_roll_photo(journal, read_journal(journal).events)
    assert found is not None and found.shown, "the journal on disk names the roll's picture, and it is there"
    window.turn_panel.submit("123456")
    window.turn_panel.command("bank")
    assert window.games.export_sheet(tmp_path / "sheet.pdf", "pdf")
    assert (tmp_path / "sheet.pdf").read_bytes().count(b"/Subtype /Image") == 1
    assert any("Pictures" in line for line in read_pdf(tmp_path / "sheet.pdf")[1])
    window.close()


def test_no_photos_keeps_no_pictures(qtbot: QtBot, tmp_path: Path) -> None:
    table = ScriptedTable(320, 240)
    window = window_on(qtbot, tmp_path, table, keep_photos=False)
    assert not window.menus.keep_photos.isChecked()
    window.controller.start(load_rules("retail"), ["Ann", "Bob"])
    roll_taken(qtbot, window, table, [1, 5, 2, 3, 4, 6])
    journal = window.controller.journal.path
    assert not photos_folder(journal).exists()
    assert all(getattr(event, "photo", None) is None for event in read_journal(journal).events)
    window.close()


def test_the_setting_switches_pictures_off_now_and_at_every_later_start(qtbot: QtBot, tmp_path: Path) -> None:
    table = ScriptedTable(320, 240)
    window = window_on(qtbot, tmp_path, table)
    assert window.menus.keep_photos.isChecked() and window.camera.session.keep_photos
    window.menus.keep_photos.trigger()
    assert not window.camera.session.keep_photos
    assert json.loads((tmp_path / SETTINGS_FILE).read_text()) == {"keep_photos": False, "stream_address": "", "phone_reach": ""}
    window.controller.start(load_rules("retail"), ["Ann", "Bob"])
    roll_taken(qtbot, window, table, [1, 5, 2, 3, 4, 6])
    assert not photos_folder(window.controller.journal.path).exists()
    window.close()
    later = window_on(qtbot, tmp_path, ScriptedTable(320, 240))
    assert not later.menus.keep_photos.isChecked() and not later.camera.session.keep_photos
    later.close()


def test_a_settings_file_that_cannot_be_read_is_said_and_the_defaults_used(qtbot: QtBot, tmp_path: Path) -> None:
    (tmp_path / SETTINGS_FILE).write_text('{"keep_photos": "sometimes"}')
    window = window_on(qtbot, tmp_path, None)
    assert window.menus.keep_photos.isChecked()
    assert "'keep_photos' must be true or false" in window.statusBar().currentMessage()
    window.close()


def test_deleting_a_game_deletes_its_pictures_but_never_the_game_on_screen(qtbot: QtBot, tmp_path: Path) -> None:
    journal = Journal.create(new_journal_path(tmp_path))
    game = Game.new(load_rules("retail"), ["Ann", "Bob"], sink=journal.write)
    game.act(DiceRolled(Dice.from_str("1 2 3 4 6 6"), "camera", write_photo(journal.path, b"a picture")))
    journal.close()
    window = window_on(qtbot, tmp_path, None)
    dialog = ResumeDialog([], on_start=False)
    qtbot.addWidget(dialog)
    assert ResumeChoice.DELETE in dialog.buttons and not dialog.buttons[ResumeChoice.DELETE].isEnabled()
    window.controller.start(load_rules("retail"), ["Cy"])
    assert not window.games.delete_game(window.controller.journal.path)
    assert window.controller.journal.path.exists() and "game on the table" in window.statusBar().currentMessage()
    assert window.games.delete_game(journal.path)
    assert not journal.path.exists() and not photos_folder(journal.path).exists()
    window.close()


def test_the_export_dialog_says_the_html_is_one_file_with_the_pictures_inside(qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtWidgets import QFileDialog

    table = ScriptedTable(320, 240)
    window = window_on(qtbot, tmp_path, table)
    window.controller.start(load_rules("retail"), ["Ann", "Bob"])
    roll_taken(qtbot, window, table, [1, 5, 2, 3, 4, 6])
    window.turn_panel.submit("1")
    window.turn_panel.command("bank")
    asked: list[str] = []

    def save_as(parent: object, caption: str, name: str, filters: str) -> tuple[str, str]:
        asked.extend((caption, filters))
        return str(tmp_path / "sheet.html"), filters

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_as)
    window.games.choose_export("html")
    assert "self-contained" in asked[0] and "pictures inside" in asked[0], asked
    assert "self-contained" in asked[1] and asked[1].endswith("(*.html)"), "the file type the dialog shows says it too"
    page = (tmp_path / "sheet.html").read_text()
    assert page.count("data:image/jpeg;base64,") == 1 and "file:" not in page
    said = window.statusBar().currentMessage()
    assert "sheet.html" in said and "self-contained" in said and " KB" in said, said
    window.close()
