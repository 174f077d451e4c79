"""Every frame source has a name, read and close; a source that throws dice (the demo table) also
takes what the game expects. The window's worker and the camera game use them as such."""

from __future__ import annotations

import ast
from pathlib import Path

import cv2
import numpy as np
from pytestqt.qtbot import QtBot

from scorekeeper.camera.calibration import CalibrationProfile
from scorekeeper.camera.sources import DiceSource, Frame, FrameSource, open_source
from scorekeeper.ui.worker import CaptureWorker
from scorekeeper.vision.detections import Detections

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"


class Film:
    """A plain source of two frames that records being closed: no dice to throw."""

    name = "film (2 frames)"

    def __init__(self) -> None:
        self.frames = [Frame(np.zeros((48, 64, 3), np.uint8), i, i / 30) for i in range(2)]
        self.closed = False

    def read(self) -> Frame | None:
        return self.frames.pop(0) if self.frames else None

    def close(self) -> None:
        self.closed = True


class Thrower(Film):
    """A source that is told how many dice to throw."""

    def __init__(self) -> None:
        super().__init__()
        self.told: list[int | None] = []

    def expect(self, count: int | None) -> None:
        self.told.append(count)


class Blind:
    """Reads nothing."""

    def read(self, frame: object, dice: int | None = None) -> Detections:
        return Detections.empty()


def test_the_programs_sources_name_themselves_and_only_the_demo_table_throws_dice(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "1.png"), np.zeros((32, 32, 3), np.uint8))
    with open_source("demo:3", resolution=(320, 240)) as demo, open_source(f"images:{tmp_path}") as photos:
        assert demo.name == "demo table (seed 3, 320x240)" and photos.name == f"images:{tmp_path} (1 photos)"
        assert isinstance(demo, DiceSource) and not isinstance(photos, DiceSource)
    assert isinstance(Thrower(), DiceSource) and not isinstance(Film(), DiceSource)


def test_the_worker_names_closes_and_tells_a_dice_source_what_the_game_expects(qtbot: QtBot) -> None:
    sources: list[FrameSource] = [Film(), Thrower()]
    for source in sources:
        worker = CaptureWorker("film", CalibrationProfile(), reader=Blind, opener=lambda spec, profile: source)
        opened: list[str] = []
        worker.opened.connect(lambda name, note: opened.append(name))
        worker.throws.expect(3, None)
        worker.run()
        worker.throws.expect(0, None)
        assert opened == ["film (2 frames)"] and isinstance(source, Film) and source.closed
    assert isinstance(sources[1], Thrower) and sources[1].told == [3, 0]


def test_sources_are_reached_through_their_protocol_not_by_looking_for_attributes() -> None:
    for module in ("ui/worker.py", "table_session/camera_game.py", "table_session/assembly.py"):
        tree = ast.parse((PACKAGE / module).read_text(encoding="utf-8"))
        names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
        attributes = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
        assert "getattr" not in names and "Any" not in names and "Any" not in attributes, module
