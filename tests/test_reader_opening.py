"""The dice reader is opened one way everywhere (the watch loop on two threads, the window on one),
and the whole-picture rolling area is defined once."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

import scorekeeper.vision.reader as reader_module
from scorekeeper.camera import calibration, watch
from scorekeeper.camera.calibration import CalibrationProfile
from scorekeeper.camera.sources import Frame
from scorekeeper.table_session import roll_pictures, session
from scorekeeper.ui import worker
from scorekeeper.ui.worker import CaptureWorker
from scorekeeper.vision.reader import ModelError

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"


class Opened:
    """Stands in for the ONNX reader: records how it was opened."""

    calls: list[tuple[Path | None, int]] = []

    def __init__(self, model_dir: Path | None = None, threads: int = 2) -> None:
        Opened.calls.append((model_dir, threads))


class NoModel:
    """Stands in for the ONNX reader of a folder without a model."""

    def __init__(self, model_dir: Path | None = None, threads: int = 2) -> None:
        raise ModelError("no dice model at /nowhere: manifest.json is missing; restore it")


class Ended:
    """A source with no frames."""

    name = "ended"

    def read(self) -> Frame | None:
        return None

    def close(self) -> None:
        pass


def test_the_window_and_the_watch_loop_open_the_reader_the_same_way_on_their_own_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reader_module, "OnnxDiceReader", Opened)
    Opened.calls = []
    worker.default_reader()
    watch.default_reader()
    watch.default_reader(Path("models"), threads=3)
    assert Opened.calls == [(None, 1), (None, 2), (Path("models"), 3)]


def test_a_missing_model_is_told_by_the_watch_loop_with_what_to_do_and_by_the_window_in_the_readers_words(
    monkeypatch: pytest.MonkeyPatch, qtbot: QtBot
) -> None:
    monkeypatch.setattr(reader_module, "OnnxDiceReader", NoModel)
    with pytest.raises(watch.ReaderUnavailable) as refused:
        watch.default_reader()
    assert str(refused.value) == "the dice model is missing or damaged: no dice model at /nowhere: manifest.json is missing; restore it"
    capture = CaptureWorker("demo", CalibrationProfile(), opener=lambda spec, profile: Ended())
    said: list[str] = []
    capture.reader_missing.connect(said.append)
    capture.run()
    assert said == ["no dice model at /nowhere: manifest.json is missing; restore it"]


def test_the_whole_picture_is_one_rolling_area_defined_once() -> None:
    defined = [
        str(path.relative_to(PACKAGE))
        for path in sorted(PACKAGE.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, (ast.Assign, ast.AnnAssign))
        and any(isinstance(target, ast.Name) and target.id == "WHOLE_FRAME" for target in (node.targets if isinstance(node, ast.Assign) else [node.target]))
    ]
    assert defined == ["camera/calibration.py"]
    assert roll_pictures.WHOLE_FRAME is session.WHOLE_FRAME is calibration.WHOLE_FRAME


def test_the_window_and_the_watch_loop_build_the_reader_in_one_place() -> None:
    opening = sorted(
        str(path.relative_to(PACKAGE))
        for package in ("camera", "ui", "table_session")
        for path in (PACKAGE / package).rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "OnnxDiceReader"
    )
    assert opening == ["camera/watch.py"]
