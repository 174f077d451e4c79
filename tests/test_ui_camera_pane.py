"""The camera pane as a view of the table session: the calibration's empty-table view, frozen
and live boxes, and the dice the game expects reaching the reader."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from pytestqt.qtbot import QtBot

from scorekeeper.rules import Dice, load_rules
from scorekeeper.ui.controller import GameController
from scorekeeper.ui.main_window import MainWindow, WindowOptions
from scorekeeper.vision.detections import Detections
from tests.ui_fakes import LabelReader, ScriptedTable

KNOT = np.array([[560, 400, 600, 440]], np.float32)
"""A knot in the table the reader takes for a 3."""


class KnotReader(LabelReader):
    """Reads the table's labels, the knot as a die too, and notes the count of dice it is told."""

    told: list[int | None] = []

    def read(self, frame: NDArray[np.uint8], dice: int | None = None) -> Detections:
        KnotReader.told.append(dice)
        found = super().read(frame, dice)
        return Detections(np.concatenate([found.boxes, KNOT]), np.concatenate([found.values, [3]]), np.concatenate([found.confidences, [0.97]]))


def window_over(qtbot: QtBot, tmp_path: Path, table: ScriptedTable) -> MainWindow:
    """The window on ``table``, read by a reader that takes its knot for a die."""
    window = MainWindow(
        GameController(tmp_path), WindowOptions(source="scripted"), reader=lambda: KnotReader(table), opener=lambda spec, profile: table  # type: ignore[arg-type, return-value]
    )
    qtbot.addWidget(window)
    window.show()
    return window


def test_the_calibrations_empty_table_view_keeps_a_knot_out_of_the_rolls(qtbot: QtBot, tmp_path: Path) -> None:
    table = ScriptedTable(640, 480)
    window = window_over(qtbot, tmp_path, table)
    pane = window.camera
    qtbot.waitUntil(lambda: pane.latest is not None, timeout=10000)
    pane.calibrate()
    qtbot.waitUntil(lambda: pane.calibration_dialog.isVisible(), timeout=5000)
    pane.calibration_dialog.remember_empty_table()
    qtbot.waitUntil(lambda: len(pane.empty_table) == 1, timeout=5000)
    pane.calibration_dialog.reject()

    window.controller.start(load_rules("retail"), ["Ann", "Bob"])
    KnotReader.told.clear()
    table.roll([2, 3, 4])
    qtbot.waitUntil(lambda: window.controller.state.turn.roll is not None, timeout=20000)
    assert window.controller.state.turn.roll == Dice.from_str("2 3 4"), "the knot is the table's, not a die"
    assert 6 in KnotReader.told, "the reader is told the six dice the game expects thrown"
    drawing = pane.overlay()
    assert drawing.frozen and drawing.caption == "Roll taken: 2 3 4" and len(drawing.dice) == 3
    window.close()


def test_a_knot_that_lies_through_the_first_throw_is_no_die_of_it_without_a_calibration(qtbot: QtBot, tmp_path: Path) -> None:
    table = ScriptedTable(640, 480)
    window = window_over(qtbot, tmp_path, table)
    pane = window.camera
    window.controller.start(load_rules("retail"), ["Ann", "Bob"])
    qtbot.waitUntil(lambda: pane.capture is not None and pane.capture.worker.watcher is not None, timeout=10000)
    watcher = pane.capture.worker.watcher  # type: ignore[union-attr]
    assert watcher is not None
    # the empty table before the first throw: the knot lies still, and is no roll of one die
    qtbot.waitUntil(lambda: watcher.frames_read > 40 and watcher.settler.quiet, timeout=20000)
    assert window.controller.state.turn.roll is None and not pane.session.prompt
    table.roll([2, 3, 4])
    qtbot.waitUntil(lambda: window.controller.state.turn.roll is not None, timeout=20000)
    assert window.controller.state.turn.roll == Dice.from_str("2 3 4"), "the knot lay through the throw: the table's"
    assert len(pane.empty_table) == 1 and not pane.session.prompt
    window.close()


def test_the_window_learns_the_table_from_each_roll_the_game_moves_on_from(qtbot: QtBot, tmp_path: Path) -> None:
    from scorekeeper.game import Kept
    from scorekeeper.vision.reader import OnnxDiceReader

    table = ScriptedTable(640, 480)
    window = MainWindow(
        GameController(tmp_path), WindowOptions(source="scripted"), reader=lambda: OnnxDiceReader(threads=1), opener=lambda spec, profile: table  # type: ignore[arg-type, return-value]
    )
    qtbot.addWidget(window)
    window.show()
    pane = window.camera
    qtbot.waitUntil(lambda: pane.learner is not None, timeout=20000)
    assert pane.learned_label.text() == "Table learned: nothing yet (each roll you confirm teaches it)"
    window.controller.start(load_rules("retail"), ["Ann", "Bob"])
    table.roll([1, 5, 2, 2, 3, 4])
    qtbot.waitUntil(lambda: window.controller.state.turn.roll is not None, timeout=30000)
    assert window.controller.state.turn.roll == Dice.from_str("1 2 2 3 4 5")
    assert pane.learner is not None and pane.learner.summary().dice == 0, "a roll taken is not yet confirmed"
    assert window.controller.take(Kept(Dice.from_str("1 5")))
    qtbot.waitUntil(lambda: "from 1 roll " in pane.learned_label.text(), timeout=20000)
    assert pane.learned_label.text().startswith("Table learned: 6 dice from 1 roll (1: 1, 2: 2, 3: 1, 4: 1, 5: 1)")
    assert (tmp_path / "last-calibration.table.npz").is_file()
    pane.learner.forget()
    qtbot.waitUntil(lambda: "nothing yet" in pane.learned_label.text(), timeout=10000)
    assert not (tmp_path / "last-calibration.table.npz").exists()


def test_a_window_started_with_a_profile_learns_into_the_table_file_beside_it(qtbot: QtBot, tmp_path: Path) -> None:
    from scorekeeper.camera.calibration import default_profile, save_profile
    from scorekeeper.vision.reader import OnnxDiceReader

    profile = tmp_path / "kitchen.toml"
    save_profile(default_profile(), profile)
    window = MainWindow(
        GameController(tmp_path / "home"),
        WindowOptions(source="scripted", calibration=profile),
        reader=lambda: OnnxDiceReader(threads=1),
        opener=lambda spec, profile: ScriptedTable(640, 480),  # type: ignore[arg-type, return-value]
    )
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.camera.learner is not None, timeout=20000)
    assert window.camera.learner is not None and window.camera.learner.path == tmp_path / "kitchen.table.npz"
    window.close()


def test_the_value_tag_over_a_die_and_a_margin_around_it_are_the_die(qtbot: QtBot) -> None:
    from PySide6.QtCore import QPointF, Qt

    from scorekeeper.table_session.session import Drawing
    from scorekeeper.ui.camera_view import TAG_HEIGHT, TAP_MARGIN, CameraView

    view = CameraView()
    qtbot.addWidget(view)
    view.resize(640, 480)
    view.show()
    dice = Detections(np.array([[200, 200, 240, 240], [400, 300, 440, 340]], np.float32), np.array([5, 2]), np.ones(2, np.float32))
    view.show_frame(np.full((480, 640, 3), 60, np.uint8), Drawing(dice, np.ones(2, bool), np.zeros(2, bool), Detections.empty(), True))
    corner = view.to_widget(200, 200)
    on_tag = QPointF(corner.x() + 10, corner.y() - TAG_HEIGHT / 2)
    assert view.die_at(on_tag) == 0, "the value tag drawn over the die is the die"
    assert view.die_at(QPointF(corner.x() - TAP_MARGIN / 2, corner.y() + 5)) == 0, "so is a margin around it"
    assert view.die_at(QPointF(corner.x() - 3 * TAP_MARGIN, corner.y() - 3 * TAG_HEIGHT)) is None
    with qtbot.waitSignal(view.die_tapped, timeout=2000) as tapped:
        qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=on_tag.toPoint())
    assert tapped.args[0] == 0


def test_after_the_calibration_saves_a_new_profile_the_table_learns_beside_that_one(qtbot: QtBot, tmp_path: Path) -> None:
    from scorekeeper.camera.calibration import LAST_PROFILE, default_profile, save_profile
    from scorekeeper.game import Kept
    from scorekeeper.vision.reader import OnnxDiceReader

    profile, home = tmp_path / "kitchen.toml", tmp_path / "home"
    save_profile(default_profile(), profile)
    table = ScriptedTable(640, 480)
    window = MainWindow(
        GameController(home),
        WindowOptions(source="scripted", calibration=profile),
        reader=lambda: OnnxDiceReader(threads=1),
        opener=lambda spec, profile: table,  # type: ignore[arg-type, return-value]
    )
    qtbot.addWidget(window)
    window.show()
    pane = window.camera
    qtbot.waitUntil(lambda: pane.learner is not None, timeout=20000)
    pane.calibrate()
    dialog = pane.calibration_dialog
    assert dialog is not None and dialog.save(home / LAST_PROFILE), "the dialog's OK saves the new profile in the home"
    assert pane.profile_name == str(home / LAST_PROFILE)
    window.controller.start(load_rules("retail"), ["Ann", "Bob"])
    table.roll([1, 5, 2, 2, 3, 4])
    qtbot.waitUntil(lambda: window.controller.state.turn.roll is not None, timeout=30000)
    assert window.controller.take(Kept(Dice.from_str("1 5")))
    qtbot.waitUntil(lambda: "from 1 roll " in pane.learned_label.text(), timeout=20000)
    assert pane.learner is not None
    pane.learner.wait()
    assert pane.learner.path == home / "last-calibration.table.npz" and pane.learner.path.is_file()
    assert not (tmp_path / "kitchen.table.npz").exists(), "the profile the window started with learns nothing more"
    window.close()
