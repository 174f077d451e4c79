"""The unsure line is combined once, where readings meet the table's profile; settling and all after
read ``Detections.unsure``. The settle frame count has one home."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np

from scorekeeper.camera.calibration import CalibrationProfile
from scorekeeper.camera.settling import SETTLE_FRAMES, EventKind, SettleParams
from scorekeeper.camera.sources import Frame
from scorekeeper.camera.watch import Watcher
from scorekeeper.vision.detections import Detections, below_line

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"
SPOTS = [(60.0, 60.0), (160.0, 120.0), (260.0, 80.0)]


class Still:
    """A still table of 40 frames."""

    name = "still"

    def __init__(self) -> None:
        self.index = 0

    def read(self) -> Frame | None:
        if self.index >= 40:
            return None
        self.index += 1
        return Frame(np.full((240, 320, 3), 90, np.uint8), self.index - 1, (self.index - 1) / 30)

    def close(self) -> None:
        pass


class Reader:
    """Three dice read at 0.8, 0.87 and 0.95 under the model's line of 0.85."""

    def read(self, frame: object, dice: int | None = None) -> Detections:
        boxes = np.array([[x - 15, y - 15, x + 15, y + 15] for x, y in SPOTS])
        return Detections(boxes, np.array([2, 3, 4]), np.array([0.8, 0.87, 0.95]), 0.85)


def test_a_tables_stricter_line_reaches_settling_on_the_readings_not_as_a_second_parameter() -> None:
    watcher = Watcher(Still(), Reader(), CalibrationProfile(confidence=0.9, settle_frames=6))
    assert watcher.settler.params.unsure_below == 0.0 and watcher.settler.params.settle_frames == 6
    steps = list(watcher)
    assert steps[-1].dice.unsure_below == 0.9 and steps[-1].dice.unsure.tolist() == [True, True, False]
    settled = [event for step in steps for event in step.events if event.kind is EventKind.SETTLED]
    assert len(settled) == 1 and settled[0].dice.unsure_below == 0.9
    assert sorted(zip(settled[0].dice.values.tolist(), settled[0].unsure.tolist())) == [(2, True), (3, True), (4, False)]


def test_a_line_is_only_ever_raised_and_below_it_is_unsure() -> None:
    found = Reader().read(None)
    assert found.held_to(0.5) is found
    assert found.held_to(0.9).unsure_below == 0.9 and found.held_to(0.9).roll() == [2, 3, 4]
    assert below_line(np.array([0.85, 0.8499], np.float32), 0.85).tolist() == [False, True]


def test_the_line_is_combined_in_one_place() -> None:
    # no max() over unsure lines, and no "confidences < line", outside detections.py
    combining = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.parts[-2] == "training" or path.name == "detections.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "max":
                text = ast.unparse(node)
                if "unsure_below" in text or "stricter_line" in text:
                    combining.append(f"{path.relative_to(PACKAGE)}: {text}")
            if isinstance(node, ast.Compare) and isinstance(node.ops[0], ast.Lt) and "unsure_below" in ast.unparse(node.comparators[0]):
                combining.append(f"{path.relative_to(PACKAGE)}: {ast.unparse(node)}")
    assert combining == []


def test_the_settle_frame_count_has_one_home() -> None:
    assert SettleParams().settle_frames == CalibrationProfile().settle_frames == SETTLE_FRAMES == 14
