"""The window on the demo table: it throws when the game asks for a roll, the dice the player has
to roll, and leaves them lying while the players look, tap and keep."""

from __future__ import annotations

from collections import deque
from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from pytestqt.qtbot import QtBot

from scorekeeper.camera.demo_table import DemoTable
from scorekeeper.camera.frames import Frame
from scorekeeper.game import Kept
from scorekeeper.rules import Dice, load_rules
from scorekeeper.ui.controller import GameController
from scorekeeper.ui.main_window import MainWindow, WindowOptions
from scorekeeper.vision.detections import Detections


class LabelledDemo(DemoTable):
    """The demo table, keeping the labels of the frames it gave last for :class:`DemoReader` (the
    window's capture may read a frame while the table has given the next)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.given: deque[tuple[NDArray[np.uint8], Detections]] = deque(maxlen=8)

    def read(self) -> Frame | None:
        frame = super().read()
        if frame is not None and frame.truth is not None:
            self.given.append((frame.image, frame.truth))
        return frame


class DemoReader:
    """Reads each frame of the demo table as it is labelled, every die sure."""

    def __init__(self, table: LabelledDemo) -> None:
        self.table = table

    def read(self, frame: NDArray[np.uint8], dice: int | None = None) -> Detections:
        labels = next(truth for image, truth in reversed(self.table.given) if image is frame or np.array_equal(image, frame))
        return Detections(labels.boxes, labels.values, np.full(len(labels), 0.97, np.float32))


def test_the_demo_table_throws_the_dice_asked_for_and_they_lie_while_the_players_look(qtbot: QtBot, tmp_path: Path) -> None:
    table = LabelledDemo(320, 240, seed=2)
    controller = GameController(tmp_path)
    assert controller.start(load_rules("retail"), ["Ann", "Bob"])  # the table opens on a game asking for six dice
    window = MainWindow(controller, WindowOptions(source="demo:2"), reader=lambda: DemoReader(table), opener=lambda spec, profile: table)  # type: ignore[arg-type, return-value]
    qtbot.addWidget(window)
    window.show()
    pane = window.camera
    qtbot.waitUntil(lambda: controller.state.turn.roll is not None, timeout=20000)
    assert controller.state.turn.roll == Dice.from_str("1 2 2 3 3 5") and table.rolls == 1

    qtbot.wait(2500)  # the players look at the roll taken: the dice lie as they fell, none thrown
    assert table.rolls == 1 and pane.overlay().frozen and pane.overlay().caption == "Roll taken: 1 2 2 3 3 5"
    assert not pane.session.prompt

    assert controller.take(Kept(Dice.from_str("1")))
    qtbot.waitUntil(lambda: controller.state.turn.roll is not None, timeout=20000)
    assert table.rolls == 2 and len(controller.state.turn.roll) == 5, "Ann rolls the five dice she has left"
    assert not pane.session.prompt
    window.close()
