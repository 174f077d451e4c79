"""The window as a whole: the camera banner, falling back to the demo table, resume, the card edition."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QTimer
from PySide6.QtGui import QColor, QImage, QPixmap
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from scorekeeper.game import DiceRolled, Farkled, Game, Kept
from scorekeeper.game.games_folder import new_journal_path
from scorekeeper.game.journal import Journal, read_journal
from scorekeeper.camera.sources import SourceError
from scorekeeper.rules import Dice, load_rules
from scorekeeper.table_session import scoring_mask
from scorekeeper.ui.app import save_picture
from scorekeeper.ui.controller import GameController
from scorekeeper.ui.main_window import MainWindow, WindowOptions
from scorekeeper.ui.resume_dialog import ResumeDialog
from scorekeeper.vision.detections import DEFAULT_UNSURE_BELOW
from tests.pdf_pages import A4_POINTS, read_pdf
from tests.ui_fakes import LabelReader, Misread, ScriptedTable
from tests.unsure_reads import BETWEEN, MODEL_LINE

ROOT = Path(__file__).resolve().parent.parent


def window_on(
    qtbot: QtBot,
    home: Path,
    table: ScriptedTable | None,
    source: str | None = "scripted",
    misreads: Sequence[Misread] = (),
    unsure_below: float = DEFAULT_UNSURE_BELOW,
    keep_photos: bool = True,
) -> MainWindow:
    """The window on ``table``; its reader reads what the table shows, but for ``misreads``, against
    ``unsure_below``; ``keep_photos=False`` as ``--no-photos`` asks."""

    def opener(spec: str, profile: object) -> ScriptedTable:
        if table is None or (source is None and spec.startswith("webcam")):
            raise SourceError(f"no camera at {spec}")
        return table

    window = MainWindow(
        GameController(home), WindowOptions(source=source, keep_photos=keep_photos), reader=lambda: LabelReader(table, misreads, unsure_below), opener=opener  # type: ignore[arg-type]
    )
    qtbot.addWidget(window)
    window.show()
    return window


FLAGGED_3 = Misread(roll=(2, 3, 4), face=3, read_as=3, confidence=0.2)
"""The 3 of a roll of 2 3 4, read unsure: the roll waits for a tap."""


def tap_die(qtbot: QtBot, window: MainWindow, index: int, face: int) -> None:
    """Tap die ``index`` of the dice drawn and pick ``face`` for it."""
    from PySide6.QtCore import Qt

    qtbot.mouseClick(window.camera.view, Qt.MouseButton.LeftButton, pos=window.camera.view.die_centre(index))
    qtbot.mouseClick(window.camera.picker.buttons[face], Qt.MouseButton.LeftButton)


def learnt(folder: Path) -> list[tuple[int | None, int | None]]:
    """(was, value) of each correction training would take from ``folder``, which reads cleanly."""
    from scorekeeper.vision.corrections import load_corrections

    found = load_corrections(folder)
    assert found.problems == ()
    return [(c.was, c.value) for c in found.corrections]


def test_a_lost_camera_shows_a_banner_keeps_the_game_and_reconnects(qtbot: QtBot, tmp_path: Path) -> None:
    table = ScriptedTable(320, 240)
    window = window_on(qtbot, tmp_path, table)
    controller = window.controller
    controller.start(load_rules("retail"), ["Ann", "Bob"])
    table.roll([1, 5, 2, 3, 4, 6])
    qtbot.waitUntil(lambda: controller.state.turn.roll is not None, timeout=15000)
    table.lost = True
    qtbot.waitUntil(window.camera.banner.isVisible, timeout=5000)
    assert "Camera lost" in window.camera.banner_text.text() and "unplugged" in window.camera.banner_text.text()
    assert controller.state.turn.roll == Dice.from_str("1 5 2 3 4 6"), "the game is kept"
    window.turn_panel.submit("15")
    assert controller.state.turn.total == 150, "manual entry goes on"
    table.lost = False
    window.camera.reconnect()
    qtbot.waitUntil(lambda: not window.camera.banner.isVisible() and window.camera.latest is not None, timeout=5000)
    window.close()


def test_with_no_webcam_the_demo_table_starts_and_the_status_bar_says_so(qtbot: QtBot, tmp_path: Path) -> None:
    table = ScriptedTable(320, 240)
    window = window_on(qtbot, tmp_path, table, source=None)
    qtbot.waitUntil(lambda: "No webcam found" in window.source_label.text(), timeout=5000)
    assert "scripted table" in window.source_label.text()
    window.close()


def test_an_unopenable_source_says_why_and_leaves_manual_entry(qtbot: QtBot, tmp_path: Path) -> None:
    window = window_on(qtbot, tmp_path, None)
    qtbot.waitUntil(window.camera.banner.isVisible, timeout=5000)
    assert "No camera" in window.camera.banner_text.text()
    window.controller.start(load_rules("retail"), ["Ann"])
    window.turn_panel.submit("115234")
    assert window.controller.state.turn.roll is not None
    window.close()


def test_the_card_edition_puts_the_camera_aside(qtbot: QtBot, tmp_path: Path) -> None:
    window = window_on(qtbot, tmp_path, None)
    window.controller.start(load_rules("flip"), ["Ann", "Bob"])
    assert not window.camera.isVisible() and window.flip_panel.isVisible() and not window.turn_panel.isVisible()
    window.controller.start(load_rules("retail"), ["Ann", "Bob"])
    assert window.camera.isVisible() and window.turn_panel.isVisible()
    window.close()


def test_an_unfinished_game_is_offered_on_start_and_resumed(qtbot: QtBot, tmp_path: Path) -> None:
    journal = Journal.create(new_journal_path(tmp_path))
    game = Game.new(load_rules("retail"), ["Ann", "Bob"], sink=journal.write)
    game.roll("1 1 1 5 2 3"); game.keep("1 1 1 5"); game.bank(); game.roll("5 2 3")
    journal.close()
    window = window_on(qtbot, tmp_path, None)
    answers: list[str] = []

    def answer() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, ResumeDialog)
        answers.append(box.list.item(0).text())
        box.resume_button.click()

    QTimer.singleShot(50, answer)
    window.games.startup()
    assert "Ann 1,050" in answers[0]
    state = window.controller.state
    assert state is not None and state.players[0].score == 1050 and state.turn.roll == Dice.from_str("2 3 5")
    assert [window.scoreboard_model.text(r, 1) for r in range(2)] == ["1,050", "0"]
    window.turn_panel.submit("5")
    assert read_journal(journal.path).events == window.controller.game.events
    window.close()


def test_a_damaged_journal_is_reported_with_its_line(qtbot: QtBot, tmp_path: Path) -> None:
    path = new_journal_path(tmp_path)
    journal = Journal.create(path)
    game = Game.new(load_rules("retail"), ["Ann", "Bob"], sink=journal.write)
    game.roll("1 1 1 5 2 3"); game.keep("1 1 1 5"); game.bank()
    journal.close()
    with path.open("a") as stream:
        stream.write('{"type": "rolled", "dice": [9]}\n')
    window = window_on(qtbot, tmp_path, None)
    notices: list[str] = []
    window.controller.notice.connect(notices.append)
    QTimer.singleShot(200, lambda: QApplication.activeModalWidget() and QApplication.activeModalWidget().close())
    window.games.resume(path)
    assert window.controller.state.players[0].score == 1050
    assert any("line 8" in n and "damaged" in n for n in notices)
    kept = [p for p in path.parent.iterdir() if ".damaged-" in p.name]
    assert len(kept) == 1 and kept[0].read_text().endswith('{"type": "rolled", "dice": [9]}\n')
    window.close()


def test_the_score_sheet_exports_as_pdf_from_the_window(qtbot: QtBot, tmp_path: Path) -> None:
    window = window_on(qtbot, tmp_path, None)
    window.controller.start(load_rules("retail"), ["Ann", "Bob"])
    window.turn_panel.submit("115234")
    window.turn_panel.submit("115")
    window.turn_panel.command("bank")
    assert window.games.export_sheet(tmp_path / "sheet.pdf", "pdf")
    sizes, lines = read_pdf(tmp_path / "sheet.pdf")
    assert len(sizes) == 1 and sizes[0] == pytest.approx(A4_POINTS, abs=1.0)
    # Ann banked 1 1 5: 100 + 100 + 50 (no entry minimum in the retail chart); Bob has not played
    assert "Ann 250 0" in lines and "Bob 0 0" in lines
    assert any(line.startswith("Started ") and "; exported " in line for line in lines)
    window.close()


def test_a_screenshot_is_written_whole_or_not_at_all(qtbot: QtBot, tmp_path: Path) -> None:
    picture = QPixmap(40, 30)
    picture.fill(QColor("red"))
    shot = tmp_path / "shot.png"
    shot.write_bytes(b"an older screenshot")
    assert save_picture(picture, shot) is None
    image = QImage(str(shot))
    assert (image.width(), image.height()) == (40, 30) and image.pixelColor(5, 5) == QColor("red")
    said = save_picture(picture, tmp_path / "shot.notapicture")
    assert said is not None and "'.notapicture' names no picture format" in said
    assert save_picture(picture, tmp_path / "no folder" / "shot.png") is not None
    assert sorted(path.name for path in tmp_path.iterdir()) == ["shot.png"], "no half-written or temporary file"


@pytest.mark.slow
def test_the_screenshot_command_runs_the_demo_table_and_exits(tmp_path: Path) -> None:
    shot = tmp_path / "shot.png"
    env = {**os.environ, "SCOREKEEPER_HOME": str(tmp_path / "home"), "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run(
        [sys.executable, "-m", "scorekeeper", "--source", "demo", "--players", "Ann,Bob", "--screenshot", str(shot), "--after", "1.5"],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    image = QImage(str(shot))
    assert image.width() >= 800 and image.height() >= 600
    journals = list((tmp_path / "home" / "games").glob("*.jsonl"))
    assert len(journals) == 1 and read_journal(journals[0]).events


def test_the_window_command_refuses_bad_options_before_opening(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from scorekeeper.cli import main

    assert main(["--source", "camera"]) == 2
    assert "unknown source 'camera'" in capsys.readouterr().err
    assert main(["--calibration", str(tmp_path / "none.toml")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["--resume", str(tmp_path / "g.jsonl"), "--players", "Ann"]) == 2
    assert "--resume" in capsys.readouterr().err


def test_a_broken_last_profile_is_reported_and_the_default_used(qtbot: QtBot, tmp_path: Path) -> None:
    (tmp_path / "last-calibration.toml").write_text("format = 1\nsettle_frames = 1\n")
    window = window_on(qtbot, tmp_path, None)
    assert "settle_frames" in window.camera.prompt.text() and "not used" in window.camera.prompt.text()
    assert window.camera.profile_name == "default profile"
    window.close()


def test_a_die_the_model_doubts_holds_the_cameras_roll_until_it_is_tapped(qtbot: QtBot, tmp_path: Path) -> None:
    assert DEFAULT_UNSURE_BELOW < BETWEEN < MODEL_LINE
    table = ScriptedTable(320, 240)
    doubted_3 = Misread(roll=(2, 3, 4), face=3, read_as=3, confidence=BETWEEN)
    window = window_on(qtbot, tmp_path, table, misreads=[doubted_3], unsure_below=MODEL_LINE)
    controller, camera = window.controller, window.camera
    controller.start(load_rules("retail"), ["Ann", "Bob"])
    table.roll([2, 3, 4])
    qtbot.waitUntil(lambda: controller.state.turn.roll is not None or "tap" in camera.prompt.text().lower(), timeout=20000)
    assert controller.state.turn.roll is None, "a die read between 0.5 and the model's line must wait for a tap"
    flagged = np.flatnonzero(camera.view.overlay.unsure).tolist()
    assert len(flagged) == 1 and int(camera.view.overlay.dice.values[flagged[0]]) == 3
    tap_die(qtbot, window, flagged[0], 3)
    assert controller.state.turn.roll == Dice.from_str("2 3 4"), "confirmed as read, the roll is taken"
    window.close()


def test_a_correction_undone_in_the_game_is_withdrawn_from_training_and_a_redo_restores_it(qtbot: QtBot, tmp_path: Path) -> None:
    from PySide6.QtCore import Qt

    from scorekeeper.vision.corrections import load_corrections

    table = ScriptedTable(640, 480)
    window = window_on(qtbot, tmp_path, table, misreads=[FLAGGED_3])
    controller = window.controller
    camera, entry, folder = window.camera, window.turn_panel.entry, tmp_path / "corrections"
    controller.start(load_rules("retail"), ["Ann", "Bob"])

    # a flagged 3 is tapped as a 5 by mistake: the roll is taken with the correction
    table.roll([2, 3, 4])
    qtbot.waitUntil(lambda: camera.pending is not None, timeout=20000)
    tap_die(qtbot, window, camera.pending.unsure.index(True), 5)
    assert controller.state.turn.roll == Dice.from_str("2 4 5") and learnt(folder) == [(3, 5)]
    qtbot.keyClick(entry, Qt.Key.Key_Z)
    assert controller.state.turn.roll == Dice.from_str("2 3 4"), "undo takes the correction back"
    assert learnt(folder) == [] and load_corrections(folder).withdrawn == 1
    qtbot.keyClick(entry, Qt.Key.Key_Y)
    assert controller.state.turn.roll == Dice.from_str("2 4 5") and learnt(folder) == [(3, 5)]
    qtbot.keyClick(entry, Qt.Key.Key_Z)
    assert learnt(folder) == []
    taken = camera.taken
    assert taken is not None and sorted(taken.values) == [2, 3, 4], "the die drawn is back as read, to be tapped afresh"

    # tapped again, on the roll taken, as the 6 it really shows: that label stands; undone, it goes too
    tap_die(qtbot, window, taken.values.index(3), 6)
    assert controller.state.turn.roll == Dice.from_str("2 4 6") and learnt(folder) == [(3, 6)]
    qtbot.keyClick(entry, Qt.Key.Key_Z)
    assert controller.state.turn.roll == Dice.from_str("2 3 4") and learnt(folder) == []
    assert camera.taken is taken and sorted(taken.values) == [2, 3, 4]
    lines = (folder / "corrections.jsonl").read_text().splitlines()
    assert len(lines) == 6 and all(json.loads(line).keys() & {"file", "withdrawn", "restored"} for line in lines)
    window.close()


def test_a_correction_undone_after_a_resume_is_withdrawn_and_one_a_crash_left_half_undone_is_squared(qtbot: QtBot, tmp_path: Path) -> None:
    from PySide6.QtCore import Qt

    from scorekeeper.game.journal import open_journal

    table = ScriptedTable(640, 480)
    folder = tmp_path / "corrections"
    window = window_on(qtbot, tmp_path, table, misreads=[FLAGGED_3])
    controller = window.controller
    controller.start(load_rules("retail"), ["Ann", "Bob"])
    table.roll([2, 3, 4])
    qtbot.waitUntil(lambda: window.camera.pending is not None, timeout=20000)
    tap_die(qtbot, window, window.camera.pending.unsure.index(True), 5)
    assert controller.state.turn.roll == Dice.from_str("2 4 5") and learnt(folder) == [(3, 5)]
    journal = controller.journal.path
    window.close()

    # the program is started again and the game resumed: Z there takes the wrong tap out of training too
    window = window_on(qtbot, tmp_path, table, misreads=[FLAGGED_3])
    again = window.controller
    assert again.resume(journal) is None
    assert again.state.turn.roll == Dice.from_str("2 4 5") and learnt(folder) == [(3, 5)]
    qtbot.keyClick(window.turn_panel.entry, Qt.Key.Key_Z)
    assert again.state.turn.roll == Dice.from_str("2 3 4") and learnt(folder) == []
    qtbot.keyClick(window.turn_panel.entry, Qt.Key.Key_Y)
    assert again.state.turn.roll == Dice.from_str("2 4 5") and learnt(folder) == [(3, 5)]
    window.close()

    # a crash after the journal took an undo but before the corrections folder heard of it
    recovered = open_journal(journal)
    recovered.game.undo()
    recovered.journal.close()
    assert learnt(folder) == [(3, 5)]
    window = window_on(qtbot, tmp_path, table, misreads=[FLAGGED_3])
    last = window.controller
    last.resume(journal)
    assert last.state.turn.roll == Dice.from_str("2 3 4") and learnt(folder) == [], "squared as soon as the game is back"
    window.close()


def test_a_tap_correction_a_history_edit_deletes_is_withdrawn_from_training(qtbot: QtBot, tmp_path: Path) -> None:
    table = ScriptedTable(640, 480)
    window = window_on(qtbot, tmp_path, table, misreads=[Misread(roll=(2, 3, 4, 4, 6, 6), face=3, read_as=3, confidence=0.2)])
    controller = window.controller
    folder = tmp_path / "corrections"

    controller.start(load_rules("retail"), ["Ann", "Bob"])
    table.roll([2, 3, 4, 4, 6, 6])
    qtbot.waitUntil(lambda: window.camera.pending is not None, timeout=20000)
    tap_die(qtbot, window, window.camera.pending.unsure.index(True), 5)
    assert controller.take(Kept(Dice.from_str("5"))) and controller.take(DiceRolled(Dice.from_str("2 3 4 6 6"))) and controller.take(Farkled())
    assert learnt(folder) == [(3, 5)]

    # someone saw the die after all: it was the 3 the camera read, and the roll a farkle
    dialog = window.history.edit(0)
    assert dialog.steps.toPlainText().splitlines()[:2] == ["roll 2 3 4 4 6 6", "correct 3 5"]
    dialog.steps.setPlainText("roll 2 3 4 4 6 6\nfarkle")
    dialog.apply()
    assert not dialog.isVisible(), dialog.error.text()
    assert controller.state.history[0].points == 0
    assert learnt(folder) == [], "the tap the edit deleted no longer teaches the reader a 5"

    # a tap the edit leaves as it was stays in training: here, the 3 read again as a 5 and kept
    table.roll([2, 3, 4, 4, 6, 6])
    qtbot.waitUntil(lambda: window.camera.pending is not None, timeout=20000)
    tap_die(qtbot, window, window.camera.pending.unsure.index(True), 5)
    assert controller.take(Kept(Dice.from_str("5"))) and controller.take(DiceRolled(Dice.from_str("2 3 4 6 6"))) and controller.take(Farkled())
    dialog = window.history.edit(1)
    dialog.steps.setPlainText(dialog.steps.toPlainText().replace("roll 2 3 4 6 6", "roll 2 3 4 4 6"))
    dialog.apply()
    assert not dialog.isVisible(), dialog.error.text()
    assert learnt(folder) == [(3, 5)]
    window.close()


def test_a_tap_on_empty_table_adds_a_missed_die_and_not_a_die_removes_one(qtbot: QtBot, tmp_path: Path) -> None:
    import json

    from PySide6.QtCore import QPoint, Qt

    table = ScriptedTable(640, 480)
    window = window_on(qtbot, tmp_path, table)
    controller = window.controller
    controller.start(load_rules("retail"), ["Ann", "Bob"])
    table.roll([2, 3, 4])
    qtbot.waitUntil(lambda: controller.state.turn.roll == Dice.from_str("2 3 4"), timeout=20000)
    assert window.turn_panel.missing.isVisible()
    assert not window.turn_panel.farkle.isVisible(), "3 of the 6 dice read: no Farkle, the roll waits for the rest"
    view = window.camera.view
    boxes = window.camera.taken.boxes
    empty = next(
        QPoint(x, y)
        for x in range(20, view.width(), 25)
        for y in range(20, view.height(), 25)
        if (point := view.to_frame(QPoint(x, y).toPointF())) is not None
        and all(not (b[0] - 10 <= point[0] <= b[2] + 10 and b[1] - 10 <= point[1] <= b[3] + 10) for b in boxes)
    )
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=empty)
    picker = window.camera.picker
    assert picker is not None and None not in picker.buttons, "a missed die is a die"
    qtbot.mouseClick(picker.buttons[5], Qt.MouseButton.LeftButton)
    assert controller.state.turn.roll == Dice.from_str("2 3 4 5")
    confirmed = "Added the missed 5. The roll is now 2 3 4 5."
    assert window.turn_panel.message.text() == confirmed and window.statusBar().currentMessage() == confirmed, "the tap is confirmed"
    assert len(window.camera.taken.values) == 4
    index = window.camera.taken.values.index(3)
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=view.die_centre(index))
    qtbot.mouseClick(window.camera.picker.buttons[None], Qt.MouseButton.LeftButton)
    assert controller.state.turn.roll == Dice.from_str("2 4 5")
    kinds = [(type(e).__name__, getattr(e, "was", 0), getattr(e, "now", 0)) for e in controller.game.events[-2:]]
    assert kinds == [("DieCorrected", None, 5), ("DieCorrected", 3, None)]
    kept = [json.loads(line) for line in (tmp_path / "corrections" / "corrections.jsonl").read_text().splitlines()]
    assert [(k["was"], k["value"]) for k in kept] == [(None, 5), (3, None)]
    window.close()


@pytest.mark.slow
def test_only_dice_in_the_rolling_area_are_the_roll_and_the_set_aside_dice_are_checked(qtbot: QtBot, tmp_path: Path) -> None:
    from PySide6.QtCore import Qt

    from scorekeeper.camera.calibration import CalibrationProfile, save_profile

    save_profile(CalibrationProfile(area=((0.0, 0.0), (0.6, 0.0), (0.6, 1.0), (0.0, 1.0))), tmp_path / "last-calibration.toml")
    table = ScriptedTable(640, 480)
    window = window_on(qtbot, tmp_path, table)
    controller = window.controller
    controller.start(load_rules("retail"), ["Ann", "Bob"])
    inside = [(60.0 + 90 * (i % 3), 100.0 + 140 * (i // 3)) for i in range(6)]
    aside_x = 560.0

    def throw(values: str, expected: str) -> None:
        table.roll(Dice.from_str(values).values, spots=inside[: len(values.split())])
        qtbot.waitUntil(lambda: controller.state.turn.roll == Dice.from_str(expected), timeout=20000)

    def keep(dice: str) -> None:
        button = next(b for b in window.turn_panel.keep_buttons if b.property("keep") == dice)
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)

    throw("1 5 2 3 4 6", "1 2 3 4 5 6")
    keep("1 5")
    table.set_aside([1, 5], aside_x)
    throw("2 3 4 6", "2 3 4 6")
    assert window.camera.prompt.text() == "", "the dice set aside are the ones kept"
    qtbot.keyClick(window.turn_panel.entry, Qt.Key.Key_F)

    table.aside.clear()
    throw("1 1 2 3 4 6", "1 1 2 3 4 6")
    keep("1 1")
    table.set_aside([1, 2], aside_x)
    throw("3 4 6 5", "3 4 5 6")
    assert "set aside show 1 2" in window.camera.prompt.text() and "keeps were 1 1" in window.camera.prompt.text()
    window.close()


def test_with_no_screen_the_command_says_so(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from scorekeeper.cli import main

    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    assert main(["--source", "demo"]) == 2
    assert "no screen" in capsys.readouterr().err


def test_the_coach_highlight_follows_each_roll_and_goes_with_the_coach(qtbot: QtBot, tmp_path: Path) -> None:
    window = window_on(qtbot, tmp_path, None)
    window.controller.start(load_rules("retail"), ["Ann", "Bob"])

    def advised() -> list[str]:
        return [str(b.property("keep")) for b in window.turn_panel.keep_buttons if "1e8449" in b.styleSheet()]

    # Worked out by hand: a straight scores 1,500 with all six dice and rolls six again, far above
    # a 1 and a 5; of 1 1 5 a lone 1 is best, keeping five dice rolling (as tests/test_coach.py has it).
    for roll, best in [("1 2 3 4 5 6", "1 2 3 4 5 6"), ("1 1 5 2 3 4", "1"), ("1 1 5 2 3 4", "1")]:
        # the last roll twice: the buttons are rebuilt, the advice is unchanged
        window.controller.act(lambda game: game.roll(roll))
        assert advised() == [best], roll
        window.controller.act(lambda game: game.undo())
    window.controller.act(lambda game: game.roll("1 1 5 2 3 4"))
    assert advised() == ["1"]
    window.coach_hint.set_coaching(False)
    assert advised() == []
    window.close()


def test_the_live_picture_colours_the_best_keep_and_survives_more_dice_than_a_roll() -> None:
    state = Game.new(load_rules("retail"), ["Ann"]).state
    assert scoring_mask(state, np.array([1, 3, 5, 2, 2, 6])).tolist() == [True, False, True, False, False, False]
    # seven dice in view (a spare die, a tumbling die read twice): nothing to colour, no error
    assert scoring_mask(state, np.array([4, 2, 6, 4, 2, 1, 6])).tolist() == [False] * 7
