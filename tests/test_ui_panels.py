"""The window's parts one by one: keyboard path, keeps, scoreboard, history editing, dialogs, card edition."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from scorekeeper.game import DieCorrected, Game
from scorekeeper.game.commands import parse_steps, step_text
from scorekeeper.game.journal import read_journal
from scorekeeper.rules import Dice, describe_rules, load_rules
from scorekeeper.scoreboard.dice_pictures import PLAIN_BODY, RED_PIP, WILD_BODY
from scorekeeper.ui.controller import GameController
from scorekeeper.ui.flip_panel import FlipPanel
from scorekeeper.ui.history import HistoryPanel
from scorekeeper.ui.new_game import NewGameDialog
from scorekeeper.ui.rules_view import RulesDialog
from scorekeeper.ui.scoreboard import ScoreboardModel
from scorekeeper.ui.turn_panel import TurnPanel


@pytest.fixture
def controller(tmp_path: Path) -> GameController:
    controller = GameController(tmp_path / "home")
    assert controller.start(load_rules("retail", ["entry-500"]), ["Ann", "Bob"])
    return controller


def game_of(controller: GameController) -> Game:
    assert controller.game is not None
    return controller.game


def type_line(qtbot: QtBot, panel: TurnPanel, text: str) -> None:
    panel.entry.clear()
    qtbot.keyClicks(panel.entry, text)
    qtbot.keyClick(panel.entry, Qt.Key.Key_Return)


def test_the_keyboard_path_plays_a_turn(qtbot: QtBot, controller: GameController) -> None:
    panel = TurnPanel(controller)
    qtbot.addWidget(panel)
    game = game_of(controller)
    type_line(qtbot, panel, "115234")
    assert game.state.turn.roll == Dice.from_str("1 1 5 2 3 4") and panel.entry.text() == ""
    type_line(qtbot, panel, "c35")
    assert game.state.turn.roll == Dice.from_str("1 1 5 2 5 4")
    type_line(qtbot, panel, "1155")
    assert game.state.turn.total == 300 and game.state.turn.dice_left == 2
    type_line(qtbot, panel, "11")
    type_line(qtbot, panel, "11")
    assert game.state.turn.total == 500 and game.state.turn.dice_left == 6
    qtbot.keyClick(panel.entry, Qt.Key.Key_B)
    assert game.state.players[0].score == 500
    qtbot.keyClick(panel.entry, Qt.Key.Key_Z)
    assert game.state.players[0].score == 0 and game.state.turn.total == 500
    qtbot.keyClick(panel.entry, Qt.Key.Key_Y)
    assert game.state.players[0].score == 500 and game.state.current.name == "Bob"


def test_refusals_are_shown_and_change_nothing(qtbot: QtBot, controller: GameController) -> None:
    panel = TurnPanel(controller)
    qtbot.addWidget(panel)
    game = game_of(controller)
    before = game.events
    type_line(qtbot, panel, "7x9")
    assert panel.entry.text() == "7x9", "no letter is dropped: the line stays to be put right"
    assert panel.message.text().startswith("Not allowed: '7x9' is not understood") and game.events == before
    type_line(qtbot, panel, "1111111")
    assert "7 dice" in panel.message.text() and "Not allowed" in panel.message.text()
    before = game.events
    type_line(qtbot, panel, "115234")
    type_line(qtbot, panel, "1234")
    assert "keep" in panel.message.text() and game.state.turn.roll is not None
    assert len(game.events) == len(before) + 1
    qtbot.keyClick(panel.entry, Qt.Key.Key_F)
    assert "not a Farkle" in panel.message.text()


def test_a_step_is_on_disk_before_the_window_shows_it(qtbot: QtBot, controller: GameController, monkeypatch: pytest.MonkeyPatch) -> None:
    panel = TurnPanel(controller)
    qtbot.addWidget(panel)
    assert controller.journal is not None
    path = controller.journal.path
    shown: list[str] = []
    real_fsync = os.fsync

    def recording_fsync(fd: int) -> None:
        if os.fstat(fd).st_ino == path.stat().st_ino:
            shown.append(panel.roll.text())
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", recording_fsync)
    type_line(qtbot, panel, "115234")
    type_line(qtbot, panel, "115")
    assert shown == ["", "1 1 2 3 4 5"], "one sync per step, each before the window shows the step"
    assert panel.roll.text() == "" and "250 this turn" in panel.headline.text()


def test_a_step_the_disk_cannot_keep_is_refused_with_the_reason_and_not_shown(
    qtbot: QtBot, controller: GameController, monkeypatch: pytest.MonkeyPatch
) -> None:
    panel = TurnPanel(controller)
    qtbot.addWidget(panel)
    assert controller.journal is not None
    path = controller.journal.path
    on_disk, events, headline = path.read_bytes(), game_of(controller).events, panel.headline.text()
    real_fsync = os.fsync

    def failing_fsync(fd: int) -> None:
        if os.fstat(fd).st_ino == path.stat().st_ino:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", failing_fsync)
    changed: list[bool] = []
    controller.changed.connect(lambda: changed.append(True))
    type_line(qtbot, panel, "115234")
    assert "cannot write the journal (No space left on device); the last step was not taken" in panel.message.text()
    assert "make room on the disk" in panel.message.text()
    assert panel.roll.text() == "" and panel.headline.text() == headline and not changed
    assert panel.entry.text() == "115234", "the typed roll stays, to take again"
    assert game_of(controller).events == events and path.read_bytes() == on_disk
    monkeypatch.undo()
    qtbot.keyClick(panel.entry, Qt.Key.Key_Return)
    assert panel.roll.text() == "1 1 2 3 4 5" and len(read_journal(path).events) == len(events) + 1


def test_keeps_are_offered_best_first_and_illegal_steps_are_not(qtbot: QtBot, controller: GameController) -> None:
    panel = TurnPanel(controller)
    qtbot.addWidget(panel)
    panel.show()
    game = game_of(controller)
    game.roll("1 1 5 2 3 4")
    controller.changed.emit()
    texts = [b.text() for b in panel.keep_buttons]
    assert texts[0] == "Keep 1 1 5: 250" and len(texts) == 5
    assert not panel.bank_button.isVisible() and not panel.farkle_button.isVisible()
    qtbot.mouseClick(panel.keep_buttons[1], Qt.MouseButton.LeftButton)
    assert game.state.turn.total == 200 and not panel.bank_button.isVisible(), "below the entry minimum"
    assert "300 more" in panel.notes.text()
    game.roll("2 2 3 4")
    controller.changed.emit()
    assert panel.farkle.isVisible() and panel.farkle_button.isVisible() and not panel.keep_buttons
    qtbot.mouseClick(panel.farkle_button, Qt.MouseButton.LeftButton)
    assert game.state.current.name == "Bob" and game.state.players[0].farkle_streak == 1


def test_a_roll_with_dice_missing_cannot_be_called_a_farkle(qtbot: QtBot, controller: GameController) -> None:
    panel = TurnPanel(controller)
    qtbot.addWidget(panel)
    panel.show()
    assert controller.act(lambda game: game.roll("2 2 3 4", source="camera"))  # two dice the camera missed
    assert panel.missing.isVisible() and "2 of the 6" in panel.missing.text()
    assert not panel.farkle_button.isVisible()
    type_line(qtbot, panel, "c-6")
    type_line(qtbot, panel, "c-6")
    assert panel.farkle_button.isVisible() and not panel.missing.isVisible()


def test_a_roll_with_dice_missing_waits_for_them_unscored(qtbot: QtBot, controller: GameController) -> None:
    panel = TurnPanel(controller)
    qtbot.addWidget(panel)
    panel.show()
    assert controller.act(lambda game: game.roll("3", source="camera"))  # a late die taken as Ann's roll: 1 of her 6 dice
    assert panel.roll.text() == "3"
    assert not panel.farkle.isVisible(), "a roll with dice missing is no Farkle"
    assert panel.missing.isVisible()
    assert panel.missing.text().startswith("5 of the 6 dice not read: this roll is not scored until they are added.")
    assert "Tap where each missed die lies" in panel.missing.text() and "c - FACE" in panel.missing.text() and "Z" in panel.missing.text()
    type_line(qtbot, panel, "c-1")
    assert panel.roll.text() == "1 3" and not panel.keep_buttons and not panel.keeps.isVisible(), "nor is it kept from"
    type_line(qtbot, panel, "1")
    assert "Not allowed: keep 1: only 2 of the 6 dice thrown were read" in panel.message.text()
    for face in "2466":
        type_line(qtbot, panel, f"c-{face}")
    assert not panel.missing.isVisible() and panel.keep_buttons and not panel.farkle.isVisible()


def test_keeps_undo_and_redo_are_confirmed_under_the_turn(qtbot: QtBot, controller: GameController) -> None:
    panel = TurnPanel(controller)
    qtbot.addWidget(panel)
    panel.show()
    shown: list[str] = []
    panel.said.connect(shown.append)
    type_line(qtbot, panel, "115234")
    assert panel.message.text() == "Ann rolls 1 1 2 3 4 5."
    button = next(b for b in panel.keep_buttons if b.property("keep") == "1 1 5")
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert panel.message.text() == "Ann keeps 1 1 5 for 250: 250 this turn, 3 dice to roll."
    qtbot.mouseClick(panel.undo_button, Qt.MouseButton.LeftButton)
    assert panel.message.text() == "Undone: Ann's keep of 1 1 5 for 250. Now Ann's roll 1 1 2 3 4 5 is on the table, 0 this turn."
    qtbot.keyClick(panel.entry, Qt.Key.Key_Y)
    assert panel.message.text() == "Redone: Ann's keep of 1 1 5 for 250. Now Ann's turn: 250 this turn, 3 dice to roll."
    assert shown[-1] == panel.message.text(), "table mode shows the same line"


def test_the_scoreboard_shows_each_player(qtbot: QtBot, controller: GameController) -> None:
    model = ScoreboardModel(controller)
    game = game_of(controller)
    game.roll("1 1 1 5 2 3"); game.keep("1 1 1 5"); game.bank()
    game.roll("2 2 3 3 4 6"); game.farkle()
    controller.changed.emit()
    rows = [[model.text(r, c) for c in range(model.columnCount())] for r in range(model.rowCount())]
    assert model.columns() == ["Player", "Score", "On the board", "F in a row"]
    assert rows == [["Ann  (to play)", "1,050", "yes", ""], ["Bob", "0", "no: needs 500 in one turn", "1"]]
    assert model.data(model.index(0, 0), Qt.ItemDataRole.BackgroundRole) is not None
    assert model.data(model.index(1, 0), Qt.ItemDataRole.BackgroundRole) is None


def test_a_past_turn_corrected_works_out_every_total_again(qtbot: QtBot, controller: GameController) -> None:
    history = HistoryPanel(controller)
    qtbot.addWidget(history)
    game = game_of(controller)
    game.roll("1 1 1 5 2 3"); game.keep("1 1 1 5"); game.bank()
    game.roll("5 5 5 2 3 4"); game.keep("5 5 5"); game.bank()
    game.roll("1 5 2 3 4 6"); game.keep("1 5"); game.roll("2 3 4 6"); game.farkle()
    controller.changed.emit()
    assert history.model.rowCount() == 3
    dialog = history.edit(0)
    assert dialog.steps.toPlainText() == "roll 1 1 1 2 3 5\nkeep 1 1 1 5\nbank"
    dialog.steps.setPlainText("roll 1 1 1 2 3 5\ncorrect 2 1\nkeep 1 1 1 1 5\nbank")
    dialog.apply()
    assert not dialog.isVisible()
    game = game_of(controller)
    assert [p.score for p in game.state.players] == [1150, 500]
    assert history.model.turns[0].points == 1150 and history.model.turns[2].totals == (1150, 500)
    contents = read_journal(controller.journal.path)
    assert contents.damage is None and [p.score for p in contents.game().state.players] == [1150, 500]
    assert '"type":"rebuilt"' in controller.journal.path.read_text()
    game.roll("1 2 3 4 5 6")
    assert len(read_journal(controller.journal.path).events) == len(game.events)

    refused = history.edit(1)
    refused.steps.setPlainText("roll 5 5 5 2 3 4\nkeep 5 5 5")
    refused.apply()
    assert refused.isVisible() and "does not end" in refused.error.text()
    assert [p.score for p in game_of(controller).state.players] == [1150, 500]


def test_a_tap_correction_in_a_turn_corrected_afterwards_keeps_its_training_picture(qtbot: QtBot, controller: GameController) -> None:
    history = HistoryPanel(controller)
    qtbot.addWidget(history)
    game = game_of(controller)
    game.roll("1 1 1 3 4 6"); game.act(DieCorrected(3, 5, "tap.png")); game.act(DieCorrected(4, 1)); game.keep("1 1 1 1 5"); game.bank()
    controller.changed.emit()
    dialog = history.edit(0)
    assert dialog.steps.toPlainText() == "roll 1 1 1 3 4 6\ncorrect 3 5\ncorrect 4 1\nkeep 1 1 1 1 5\nbank"
    dialog.steps.setPlainText("roll 1 1 1 3 4 6\ncorrect 3 5\ncorrect 4 1\nkeep 1 1 1\nbank")
    dialog.apply()
    assert [p.score for p in game_of(controller).state.players] == [1000, 0]
    corrections = [e for e in read_journal(controller.journal.path).events if isinstance(e, DieCorrected)]
    assert corrections == [DieCorrected(3, 5, "tap.png"), DieCorrected(4, 1)], "the tap the edit left alone still names its picture"


def test_steps_read_and_print_alike() -> None:
    text = "roll 1 1 2 3 5 6\ncorrect - 4\ncorrect 6 -\nkeep 1 1 5\npoints 400 three 4s\nfarkle\nbank"
    assert "\n".join(step_text(s) for s in parse_steps(text)) == text


def test_the_new_game_dialog(qtbot: QtBot) -> None:
    dialog = NewGameDialog(("Ann",))
    qtbot.addWidget(dialog)
    for name in ("Bob", "Cy", "bob"):
        dialog.name.setText(name)
        dialog.add_player()
    assert dialog.names() == ("Ann", "Bob", "Cy") and "already" in dialog.error.text()
    dialog.players.setCurrentRow(2)
    dialog.move_player(-1)
    assert dialog.names() == ("Ann", "Cy", "Bob")
    dialog.preset.setCurrentText("flip")
    dialog.update_rules()
    assert [dialog.target.itemText(i) for i in range(dialog.target.count())] == ["10,000"]
    for name in ("Di", "Ed", "Flo"):
        dialog.name.setText(name)
        dialog.add_player()
    assert [dialog.target.itemText(i) for i in range(dialog.target.count())] == ["10,000", "5,000", "7,500"]
    dialog.target.setCurrentText("5,000")
    dialog.preset.setCurrentText("retail")
    dialog.variants["entry-500"].setChecked(True)
    setup = dialog.setup()
    assert setup is not None and setup.rules.turn.entry_minimum == 500 and setup.rules.name == "retail+entry-500"
    # issue 54: any target from 1,000 up, so the 5,000 chosen stays under retail
    assert setup.players == ("Ann", "Cy", "Bob", "Di", "Ed", "Flo") and setup.target == 5000
    assert "500 in one turn" in dialog.summary.text()
    assert not dialog.options["play_off"].isChecked()
    dialog.options["play_off"].setChecked(True)
    setup = dialog.setup()
    assert setup is not None and setup.rules.turn.entry_minimum == 500
    assert "played off" in dialog.summary.text() and setup.rules.end.ties.value == "play-off"


def test_the_new_game_dialog_takes_any_target_and_a_penalty_for_each_farkle(qtbot: QtBot, tmp_path: Path) -> None:
    # issue 54: "--target N takes any multiple of 50 from 1,000 up"; "a penalty for each Farkle
    # (0 by default, e.g. -100 or -500), and whether scores may go below zero"
    dialog = NewGameDialog(("Ann", "Bob"))
    qtbot.addWidget(dialog)
    assert dialog.penalty.value() == 0 and dialog.penalty.text() == "nothing (the score is safe)"
    assert "below-zero" not in dialog.variants and "farkle-penalty-N" not in dialog.variants
    dialog.target.setEditText("3,050")
    dialog.penalty.setValue(500)
    dialog.options["penalty_below_zero"].setChecked(True)
    setup = dialog.setup()
    assert setup is not None and setup.target == 3050 and setup.rules.name == "retail+farkle-penalty-500"
    assert setup.rules.turn.each_farkle_penalty == 500 and setup.rules.turn.penalty_below_zero
    assert dialog.penalty.text() == "500 points"
    assert "Each Farkle costs 500 off the score (it may take a score below zero)." in dialog.summary.text()
    assert "\n\nThis game is played to 3,050 (the rules' own target: 10,000).\n\n" in dialog.summary.text()
    assert "Play to 10,000" not in dialog.summary.text()
    for typed, why in [
        ("3,025", "target 3,025: not a multiple of 50; play to a multiple of 50 such as 3,000 or 3,050"),
        ("950", "target 950 is too low: play to a multiple of 50 from 1,000 to 1,000,000"),
        ("lots", "play to 'lots': type a number of points, such as 5,000"),
    ]:
        dialog.target.setEditText(typed)
        assert not dialog.start_button.isEnabled() and dialog.setup() is None
        assert dialog.target_note.text().startswith(why)
    dialog.target.setEditText("2000")
    assert dialog.start_button.isEnabled() and dialog.target_note.text() == ""
    # a rules file's own penalty and target are where the dialog starts from
    ours = tmp_path / "ours.toml"
    ours.write_text("[turn]\neach_farkle_penalty = 100\n[end]\ntarget = 4000\n", encoding="utf-8")
    dialog.rules_file = ours
    dialog.preset.blockSignals(True)
    dialog.preset.setCurrentText("rules file...")
    dialog.preset.blockSignals(False)
    dialog.update_rules(reset_options=True)
    assert dialog.penalty.value() == 100 and dialog.target.itemText(0) == "4,000"
    setup = dialog.setup()
    assert setup is not None and setup.rules.turn.each_farkle_penalty == 100 and setup.rules.name == "ours"


def test_the_rules_in_force_in_plain_words(qtbot: QtBot) -> None:
    rules = load_rules("house-2009")
    dialog = RulesDialog(rules, 10000)
    qtbot.addWidget(dialog)
    heading, *lines = describe_rules(rules)
    assert dialog.heading.text() == heading
    for line in lines:
        assert line in dialog.text.text()


def test_the_card_edition_takes_points_and_farkle_cards(qtbot: QtBot, tmp_path: Path) -> None:
    controller = GameController(tmp_path)
    assert controller.start(load_rules("flip"), ["Ann", "Bob"])
    panel = FlipPanel(controller)
    qtbot.addWidget(panel)
    panel.show()
    game = game_of(controller)
    names = [b.text() for b in panel.chart_buttons]
    assert "three 1s: 1,000" in names and "straight 1-6: 1,500" in names
    qtbot.mouseClick(panel.chart_buttons[names.index("three 1s: 1,000")], Qt.MouseButton.LeftButton)
    assert game.state.turn.total == 1000 and panel.bank_button.isVisible()
    qtbot.mouseClick(panel.card_button, Qt.MouseButton.LeftButton)
    assert game.state.players[0].farkle_cards == 1 and game.state.current.name == "Bob"
    panel.points.setValue(1200)
    qtbot.mouseClick(panel.add_points, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(panel.bank_button, Qt.MouseButton.LeftButton)
    assert game.state.players[1].score == 1200
    panel.points.setValue(30)
    qtbot.mouseClick(panel.add_points, Qt.MouseButton.LeftButton)
    assert "multiple of 50" in panel.message.text() and game.state.turn.total == 0


def test_frames_become_images_without_hurting_the_interpreter(qtbot: QtBot) -> None:
    import sys

    import numpy as np

    from scorekeeper.ui.camera_view import to_qimage

    frame = np.random.default_rng(1).integers(0, 256, (48, 64, 3), dtype=np.uint8)
    before = sys.getrefcount(None)
    images = [to_qimage(frame) for _ in range(200)]
    assert sys.getrefcount(None) >= before, "a reference to None was dropped (PySide6's buffer constructor does)"
    image = images[-1]
    assert (image.width(), image.height()) == (64, 48)
    b, g, r = frame[5, 7]
    assert image.pixelColor(7, 5).getRgb()[:3] == (r, g, b)


def test_qt_calls_keep_the_interpreter_whole(qtbot: QtBot) -> None:
    """PySide6 6.12.0 drops a reference to None on every call that returns nothing; on CPython 3.11
    the live view then aborts the program within seconds (pyproject.toml keeps PySide6 below 6.12)."""
    import sys

    from PySide6.QtWidgets import QLabel

    label = QLabel()
    qtbot.addWidget(label)
    before = sys.getrefcount(None)
    for _ in range(2000):
        label.setText("1 1 5")
        label.update()
    assert sys.getrefcount(None) > before - 100


def test_the_turn_panel_offers_the_piggyback_choice_as_buttons(qtbot: QtBot, tmp_path: Path) -> None:
    # issue 54: "The turn panel ... offer[s] the choice; undo and history edits work through it"
    controller = GameController(tmp_path / "home")
    assert controller.start(load_rules("retail", ["piggyback"]), ["Ann", "Bob"])
    panel = TurnPanel(controller)
    qtbot.addWidget(panel)
    game = game_of(controller)
    assert panel.pot_buttons == []
    for line in ("111234", "111"):
        type_line(qtbot, panel, line)
    qtbot.keyClick(panel.entry, Qt.Key.Key_B)  # Ann banks three 1s, 1,000, with 3 dice left
    assert [button.text() for button in panel.pot_buttons] == ["Piggyback: 3 dice for Ann's 1,000", "Six fresh dice"]
    assert panel.notes.text() == "Bob may piggyback on Ann's 1,000 with the 3 dice left, or roll six fresh dice"
    panel.pot_buttons[0].click()
    assert game.state.turn is not None and (game.state.turn.total, game.state.turn.dice_left) == (1000, 3)
    assert panel.pot_buttons == [] and panel.bank_button.isHidden()
    assert panel.headline.text() == "Bob's turn: 1,000 this turn (1,000 piggybacked), 3 dice to roll"
    qtbot.keyClick(panel.entry, Qt.Key.Key_B)
    assert "the 1,000 piggybacked is banked only once" in panel.message.text()
    qtbot.keyClick(panel.entry, Qt.Key.Key_Z)  # undo the choice: it is offered again
    assert [button.text() for button in panel.pot_buttons][1] == "Six fresh dice"
    panel.pot_buttons[1].click()
    assert game.state.turn is not None and (game.state.turn.total, game.state.turn.dice_left) == (0, 6)
    assert panel.pot_buttons == [] and "Bob turns the pot down: six fresh dice to roll." in panel.message.text()


def test_the_turn_editor_writes_and_reads_the_piggyback_choice(tmp_path: Path) -> None:
    # a finished turn that began with the choice can be put right in the history like any other
    controller = GameController(tmp_path / "home")
    assert controller.start(load_rules("retail", ["piggyback"]), ["Ann", "Bob"])
    game = game_of(controller)
    game.roll("1 1 1 2 3 4")
    game.keep("1 1 1")
    game.bank()
    game.piggyback()
    game.roll("5 2 3")
    game.keep("5")
    game.bank()
    bob = [step_text(action) for action in game.actions[-4:]]
    assert bob == ["piggyback", "roll 2 3 5", "keep 5", "bank"]
    # Bob really turned the pot down and banked a 1 of six fresh dice: 100, not 1,050
    assert controller.edit_turn(1, parse_steps("fresh\nroll 1 2 3 4 6 6\nkeep 1\nbank"))
    assert [player.score for player in game_of(controller).state.players] == [1000, 100]


def test_the_new_game_dialog_offers_piggyback(qtbot: QtBot) -> None:
    dialog = NewGameDialog(("Ann", "Bob"))
    qtbot.addWidget(dialog)
    box = dialog.variants["piggyback"]
    assert "after a bank with dice left, the next player may roll those dice" in box.text()
    box.setChecked(True)
    setup = dialog.setup()
    assert setup is not None and setup.rules.name == "retail+piggyback" and setup.rules.turn.piggyback
    assert "Piggyback: after a bank that left dice to roll, the next player may roll only those dice" in dialog.summary.text()
    dialog.preset.setCurrentText("flip")  # the cards leave no dice: said, and no game starts
    dialog.update_rules()
    assert dialog.setup() is None and "piggyback needs kind = 'dice'" in dialog.error.text()


def test_the_new_game_dialog_offers_the_wild_die_and_spicy(qtbot: QtBot) -> None:
    dialog = NewGameDialog(("Ann", "Bob"))
    qtbot.addWidget(dialog)
    assert "one die of another colour counts as any face when it shows a 1" in dialog.variants["wild-die"].text()
    assert "a combination holding a die that shows its red-pip face scores double" in dialog.variants["spicy"].text()
    dialog.variants["wild-die"].setChecked(True)
    dialog.variants["spicy"].setChecked(True)
    setup = dialog.setup()
    assert setup is not None and setup.rules.name == "retail+spicy+wild-die"
    assert setup.rules.scoring.wild_die and setup.rules.scoring.spicy
    assert "Wild die: the die of another colour (typed 1w)" in dialog.summary.text()
    assert "Spicy: each die has one face with red pips (typed 5r)" in dialog.summary.text()
    dialog.preset.setCurrentText("flip")  # the cards have no dice to mark: said, and no game starts
    dialog.update_rules()
    assert dialog.setup() is None and "needs kind = 'dice'" in dialog.error.text()


def test_the_turn_panel_takes_a_typed_wild_and_spicy_roll_and_draws_it(qtbot: QtBot, tmp_path: Path) -> None:
    controller = GameController(tmp_path / "home")
    assert controller.start(load_rules("retail+wild-die+spicy"), ["Ann", "Bob"])
    panel = TurnPanel(controller)
    qtbot.addWidget(panel)
    panel.show()
    assert "1w" in panel.entry_hint.text() and "w: the wild die, r: red pips" in panel.entry_hint.text()
    type_line(qtbot, panel, "1w 2 2 6 5r 3")
    assert panel.roll.text() == "1w 2 2 3 5r 6"
    assert panel.dice.isVisible()
    assert [(look.face, look.body, look.pip == RED_PIP) for look in panel.dice.looks] == [
        (1, WILD_BODY, False), (2, PLAIN_BODY, False), (2, PLAIN_BODY, False), (3, PLAIN_BODY, False), (5, PLAIN_BODY, True), (6, PLAIN_BODY, False),
    ]
    assert panel.dice.accessibleDescription() == "wild 1, 2, 2, 3, red 5, 6"
    # the wild 1 as a 2 with the pair of 2s: 200; the red 5 alone 100: 300 the best keep
    assert panel.keep_buttons[0].text() == "Keep 1w 2 2 5r: 300"
    type_line(qtbot, panel, "1 2 2 5")  # typed without marks: the wild 1 and the red 5 are the only 1 and 5
    turn = game_of(controller).state.turn
    assert turn is not None and turn.total == 300 and str(turn.keeps[-1].keep) == "1w 2 2 5r"


def test_the_turn_panel_draws_no_dice_where_no_die_is_marked(qtbot: QtBot, controller: GameController) -> None:
    panel = TurnPanel(controller)
    qtbot.addWidget(panel)
    panel.show()
    type_line(qtbot, panel, "115234")
    assert panel.roll.text() == "1 1 2 3 4 5" and not panel.dice.isVisible()
    assert panel.entry_hint.text() == "Type the dice, e.g. 115234, then Enter."


def test_the_rules_with_every_variant_ticked_are_shown_whole_scrolling_if_need_be(qtbot: QtBot) -> None:
    dialog = NewGameDialog(("Ann", "Bob"))
    qtbot.addWidget(dialog)
    dialog.show()
    for box in dialog.variants.values():
        box.setChecked(True)
    qtbot.wait(50)
    label = dialog.summary
    # the label is as tall as its text needs (in a scroll area where the dialog is shorter), so no line is cut
    assert label.height() >= label.heightForWidth(label.width())
