"""Teaching the table its dice before a game: throws held, corrected by taps and taught, in the
Qt-free step and in the calibration dialog (the window on a rendered table, read by the real reader)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from conftest import shared_data_folder
from scorekeeper.evaluation.dataset import load_dataset, with_label_fixes
from scorekeeper.camera.settling import TableState
from scorekeeper.table_session.learner import LearnedSummary, TableLearner
from scorekeeper.table_session.teaching import TeachingError, TeachingStep
from scorekeeper.ui.calibration import CalibrationDialog
from scorekeeper.ui.controller import GameController
from scorekeeper.ui.main_window import MainWindow, WindowOptions
from scorekeeper.vision.reader import OnnxDiceReader
from tests.ui_fakes import ScriptedTable


def test_a_held_throw_is_corrected_by_taps_and_taught_as_they_left_it(tmp_path: Path) -> None:
    folder = shared_data_folder("byler_d6", "split.csv", "images", "labels")
    item = with_label_fixes(load_dataset(folder, split="test"), folder)[0][0]
    reader = OnnxDiceReader(threads=1)
    learner = TableLearner(reader, tmp_path / "t.table.npz")
    step = TeachingStep(learner)
    try:
        with pytest.raises(TeachingError, match="no throw is held"):
            step.teach()
        with pytest.raises(TeachingError, match="no dice seen"):
            step.hold(item.load(), reader.read(item.load())[:0])
        frame = item.load()
        read = reader.read(frame)
        with pytest.raises(TeachingError, match="the dice are still moving"):
            step.hold(frame, read, still=False)
        step.hold(frame, read)
        assert step.held is not None and sorted(step.held.values) == read.roll()
        first = step.held.values[0]
        step.correct(0, first % 6 + 1)
        step.correct(1, None)
        step.add_missed(5.0, 5.0, 6)
        with pytest.raises(TeachingError, match="there is no die 99"):
            step.correct(99, 3)
        taught = step.teach()
        assert taught == len(read)  # one tapped away, one added
        assert step.held is None and step.taught == 1
        learner.wait()
        summary = learner.summary()
        assert summary.rolls == 1 and summary.counts.get(0) == 1 and summary.dice == len(read) + 1
        assert summary.counts.get(6, 0) >= 1
    finally:
        learner.close()


def test_the_report_says_what_the_table_has_seen_and_how_it_reads() -> None:
    step = TeachingStep(None)
    with pytest.raises(TeachingError, match="the dice reader is not loaded"):
        step.hold(np.zeros((10, 10, 3), np.uint8), None)  # type: ignore[arg-type]
    ready = LearnedSummary(40, {1: 7, 2: 6, 3: 7, 4: 6, 5: 7, 6: 7}, 6, True, "on the last 6 rolls held out: 6 read right unasked with what it learned, 4 by the model alone")
    assert step.report(ready) == (
        "Seen so far: 1: 7, 2: 6, 3: 7, 4: 6, 5: 7, 6: 7, from 6 throws. The table reads with what it learned: "
        "on the last 6 rolls held out: 6 read right unasked with what it learned, 4 by the model alone."
    )


def test_the_calibration_dialog_teaches_a_throw_held_and_corrected_by_a_tap(qtbot: QtBot, tmp_path: Path) -> None:
    table = ScriptedTable(640, 480)
    table.roll([2, 3, 5, 6])
    window = MainWindow(
        GameController(tmp_path), WindowOptions(source="scripted"), reader=lambda: OnnxDiceReader(threads=1), opener=lambda spec, profile: table  # type: ignore[arg-type, return-value]
    )
    qtbot.addWidget(window)
    window.show()
    pane = window.camera
    qtbot.waitUntil(lambda: pane.learner is not None and pane.latest is not None and len(pane.latest.dice) == 4 and pane.latest.state is TableState.STILL, timeout=30000)
    pane.calibrate()
    dialog = pane.calibration_dialog
    assert isinstance(dialog, CalibrationDialog)
    qtbot.waitUntil(lambda: dialog.editor.image is not None, timeout=5000)
    assert "Seen so far: 1: 0, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0, from 0 throws" in dialog.teach_report.text()
    assert dialog.hold.isEnabled() and not dialog.teach.isEnabled()
    qtbot.mouseClick(dialog.hold, Qt.MouseButton.LeftButton)
    held = dialog.teaching.held
    assert held is not None and sorted(held.values) == [2, 3, 5, 6]
    # a tap on the 5 (it is a 5, but say the players call it a 4) opens the picker over the held throw
    index = held.values.index(5)
    x0, y0, x1, y1 = held.boxes[index]
    qtbot.mouseClick(dialog.editor, Qt.MouseButton.LeftButton, pos=dialog.editor.to_widget((x0 + x1) / 2, (y0 + y1) / 2).toPoint())
    assert dialog.picker is not None and dialog.picker.isVisible()
    dialog.picker.picked.emit(4)
    assert sorted(held.values) == [2, 3, 4, 6]
    qtbot.mouseClick(dialog.teach, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "from 1 throw." in dialog.teach_report.text(), timeout=20000)
    assert "Seen so far: 1: 0, 2: 1, 3: 1, 4: 1, 5: 0, 6: 1, from 1 throw. 4 more throws" in dialog.teach_report.text()
    dialog.reject()
