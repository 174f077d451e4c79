"""The calibration dialog: drag the rolling area, measure the dice, save; the next start loads it."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from scorekeeper.camera.calibration import load_profile
from scorekeeper.ui.calibration import CalibrationDialog
from scorekeeper.ui.camera_pane import LAST_PROFILE
from scorekeeper.ui.controller import GameController
from scorekeeper.ui.main_window import MainWindow, WindowOptions
from tests.ui_fakes import LabelReader, ScriptedTable


def test_calibrate_save_and_load_on_the_next_start(qtbot: QtBot, tmp_path: Path) -> None:
    table = ScriptedTable(640, 480)
    table.roll([1, 2, 3])

    def window() -> MainWindow:
        w = MainWindow(GameController(tmp_path), WindowOptions(source="scripted"), reader=lambda: LabelReader(table),
                       opener=lambda spec, profile: table)
        qtbot.addWidget(w)
        w.show()
        return w

    first = window()
    pane = first.camera
    qtbot.waitUntil(lambda: pane.latest is not None and len(pane.latest.dice) == 3, timeout=15000)
    pane.calibrate()
    dialog = pane.calibration_dialog
    assert isinstance(dialog, CalibrationDialog)
    qtbot.waitUntil(lambda: dialog.editor.image is not None, timeout=5000)
    editor = dialog.editor
    start = editor.corner_position(0).toPoint()
    target = editor.to_widget(0.25 * 640, 0.2 * 480).toPoint()
    qtbot.mousePress(editor, Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(editor, pos=target)
    qtbot.mouseRelease(editor, Qt.MouseButton.LeftButton, pos=target)
    u, v = editor.area[0]
    assert abs(u - 0.25) < 0.01 and abs(v - 0.2) < 0.01
    dialog.measure_die_size()
    truth = float((table.labels.boxes[:, 2:] - table.labels.boxes[:, :2]).max(1).mean())
    assert abs(dialog.die_size.value() - truth * 1280 / 640) < 0.2 * truth * 2
    dialog.settle.setValue(8)
    assert dialog.save(tmp_path / LAST_PROFILE)
    saved = load_profile(tmp_path / LAST_PROFILE)
    assert saved.settle_frames == 8 and saved.area[0] == editor.area[0] and saved.die_size > 0
    assert saved.confidence is None, "the unsure line left alone stays the model's own"
    assert dialog.confidence.text() == "the dice model's own"
    assert pane.profile == saved
    dialog.confidence.setValue(0.9)
    assert dialog.edited().confidence == 0.9, "a table asking for more caution"
    dialog.confidence.setValue(0.0)
    assert dialog.edited() == saved
    first.close()

    second = window()
    assert second.camera.profile == saved and str(tmp_path / LAST_PROFILE) in second.camera.profile_name
    second.close()


def test_a_twisted_rolling_area_is_refused_with_the_reason(qtbot: QtBot, tmp_path: Path) -> None:
    from scorekeeper.camera.calibration import CalibrationProfile

    dialog = CalibrationDialog(CalibrationProfile(), tmp_path / LAST_PROFILE)
    qtbot.addWidget(dialog)
    dialog.editor.area = ((0.0, 0.0), (1.0, 1.0), (1.0, 0.0), (0.0, 1.0))
    assert not dialog.save(tmp_path / LAST_PROFILE)
    assert "Not saved" in dialog.message.text() and "corners" in dialog.message.text() and not (tmp_path / LAST_PROFILE).exists()
    dialog.measure_die_size()
    assert "No dice seen" in dialog.message.text()


def test_a_profile_made_on_the_demo_table_says_so(qtbot: QtBot, tmp_path: Path) -> None:
    table = ScriptedTable(640, 480)
    table.name = "demo table (seed 5, 640x480)"  # what the demo table calls itself
    table.roll([1, 2, 3])
    window = MainWindow(GameController(tmp_path), WindowOptions(source="demo"), reader=lambda: LabelReader(table),
                        opener=lambda spec, profile: table)
    qtbot.addWidget(window)
    window.show()
    pane = window.camera
    qtbot.waitUntil(lambda: pane.latest is not None, timeout=15000)
    pane.calibrate()
    assert pane.calibration_dialog.save(tmp_path / LAST_PROFILE)
    assert load_profile(tmp_path / LAST_PROFILE).camera == "demo"
    window.close()
