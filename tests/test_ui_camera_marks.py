"""The window under the wild-die and spicy variants: the calibration's teaching step asks for the
wild die and a red face, teaches the table their colours (kept beside the profile), and the
camera then reads a roll's marks itself and draws them."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from scorekeeper.camera.demo_table import DEMO_LOOKS, DEMO_WILD_LOOKS
from scorekeeper.camera.settling import TableState
from scorekeeper.rules import Dice, load_rules
from scorekeeper.synthetic.die import DieLook
from scorekeeper.table_session.session import DiceOnTable
from scorekeeper.ui.calibration import CalibrationDialog
from scorekeeper.ui.controller import GameController
from scorekeeper.ui.main_window import MainWindow, WindowOptions
from tests.ui_fakes import LabelReader, ScriptedTable

PLAIN, WILD = DEMO_LOOKS[0], DEMO_WILD_LOOKS[0]


def looks(red_faces: list[int], wild: int) -> list[DieLook]:
    """The set's looks for a throw: die ``wild`` of the wild colour, each die's red face as given."""
    return [replace(WILD if index == wild else PLAIN, red_face=face) for index, face in enumerate(red_faces)]


def index_of(held: DiceOnTable, table: ScriptedTable, mark: str) -> int:
    """The held die the table's labels give ``mark`` (its box's centre inside the label's box)."""
    labels = table.labels
    for index, (x0, y0, x1, y1) in enumerate(held.boxes):
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        for box, label in zip(labels.boxes, labels.marks):
            if box[0] <= cx <= box[2] and box[1] <= cy <= box[3] and mark in label:
                return index
    raise AssertionError(f"no die marked {mark!r} among {labels.marks}")


def test_the_teaching_step_asks_for_the_wild_die_and_a_red_face_and_the_game_then_reads_them(qtbot: QtBot, tmp_path: Path) -> None:
    table = ScriptedTable(640, 480)
    window = MainWindow(
        GameController(tmp_path), WindowOptions(source="scripted"), reader=lambda: LabelReader(table), opener=lambda spec, profile: table  # type: ignore[arg-type, return-value]
    )
    qtbot.addWidget(window)
    window.show()
    pane = window.camera
    assert window.controller.start(load_rules("retail", ["wild-die", "spicy"]), ["Ann", "Bob"])
    table.roll([1, 5, 2, 3, 4, 6], looks=looks([3, 5, 6, 1, 1, 2], wild=2), wild=2)
    qtbot.waitUntil(lambda: pane.session.pending is not None, timeout=20000)
    assert window.controller.state.turn.roll is None, "the marks are not known: no roll is scored"
    assert pane.prompt.text() == "Wild and red dice are asked until the table is calibrated (Camera, Calibrate): tap each (?)."

    pane.calibrate()
    dialog = pane.calibration_dialog
    assert isinstance(dialog, CalibrationDialog) and dialog.teaching.offer == "wr"
    qtbot.waitUntil(lambda: dialog.latest is not None and dialog.latest.state is TableState.STILL and len(dialog.latest.dice) == 6, timeout=10000)
    assert "Tap the wild die (the die of the other colour), switch on 'the wild die' and tap its face." in dialog.teach_report.text()
    assert "Dice colours: nothing learned yet" in dialog.teach_report.text()
    qtbot.mouseClick(dialog.hold, Qt.MouseButton.LeftButton)
    held = dialog.teaching.held
    assert held is not None and held.marks == [""] * 6
    qtbot.mouseClick(dialog.teach, Qt.MouseButton.LeftButton)
    assert "Not taught: no die is marked as the wild one" in dialog.message.text()

    for mark, switch in (("w", "w"), ("r", "r")):
        index = index_of(held, table, mark)
        x0, y0, x1, y1 = held.boxes[index]
        qtbot.mouseClick(dialog.editor, Qt.MouseButton.LeftButton, pos=dialog.editor.to_widget((x0 + x1) / 2, (y0 + y1) / 2).toPoint())
        picker = dialog.picker
        assert picker is not None and set(picker.marks) == {"w", "r"}
        qtbot.mouseClick(picker.marks[switch], Qt.MouseButton.LeftButton)
        qtbot.mouseClick(picker.buttons[held.values[index]], Qt.MouseButton.LeftButton)
    assert sorted(held.marks) == ["", "", "", "", "r", "w"] and held.dice() == Dice.from_str("1 2w 3 4 5r 6")
    assert dialog.editor.overlay.marks == tuple(held.marks), "the held throw is drawn with its marks"
    qtbot.mouseClick(dialog.teach, Qt.MouseButton.LeftButton)
    assert pane.colours.learned() == "wr" and (tmp_path / "last-calibration.colours.npz").is_file()
    assert "Dice colours: the table tells the wild die's colour and red pips." in dialog.teach_report.text()
    dialog.reject()

    # the next throw: the wild die and a red face read by the camera, with nothing asked
    table.roll([5, 1, 3, 6, 2, 2], looks=looks([1, 2, 6, 6, 3, 4], wild=4), wild=4)
    qtbot.waitUntil(lambda: window.controller.state.turn.roll is not None, timeout=20000)
    assert window.controller.state.turn.roll == Dice.from_str("1 2 2w 3 5 6r")
    drawing = pane.overlay()
    assert sorted(drawing.marks) == ["", "", "", "", "r", "w"] and not any(drawing.doubt)

    # a tap on another die, its "the wild die" switch on: the wild mark moves to it
    taken = pane.session.taken
    assert taken is not None
    index = taken.values.index(3)
    qtbot.mouseClick(pane.view, Qt.MouseButton.LeftButton, pos=pane.view.die_centre(index))
    picker = pane.picker
    assert picker is not None and set(picker.marks) == {"w", "r"} and not picker.marks["w"].isChecked()
    qtbot.mouseClick(picker.marks["w"], Qt.MouseButton.LeftButton)
    qtbot.mouseClick(picker.buttons[3], Qt.MouseButton.LeftButton)
    assert window.controller.state.turn.roll == Dice.from_str("1 2 2 3w 5 6r")
    steps = window.controller.game.events[-2:]
    assert [(step.was, step.now) for step in steps] == [("2w", 2), (3, "3w")]  # type: ignore[union-attr]
