"""The dice reader is opened one way everywhere (``vision.reader.open_reader``: the watch loop on two
threads, the window on one, every command, training and the benchmarks), and the whole-picture
rolling area is defined once."""

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

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "scorekeeper"


class Opened:
    """Stands in for the ONNX reader: records how it was opened."""

    calls: list[tuple[Path | None, int]] = []

    def __init__(self, model_dir: Path | None = None, threads: int = 2, unsure_below: float | None = None) -> None:
        Opened.calls.append((model_dir, threads))


class NoModel:
    """Stands in for the ONNX reader of a folder without a model."""

    def __init__(self, model_dir: Path | None = None, threads: int = 2, unsure_below: float | None = None) -> None:
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


def reader_constructions(path: Path) -> int:
    """How many times ``path`` calls ``OnnxDiceReader(...)``, by its name or through a module."""
    return sum(
        1
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        and (
            (isinstance(node.func, ast.Name) and node.func.id == "OnnxDiceReader")
            or (isinstance(node.func, ast.Attribute) and node.func.attr == "OnnxDiceReader")
        )
    )


def test_the_program_and_the_benchmarks_build_the_reader_only_in_the_opener() -> None:
    building = sorted(
        str(path.relative_to(ROOT))
        for folder in ("scorekeeper", "benchmarks")
        for path in (ROOT / folder).rglob("*.py")
        if reader_constructions(path)
    )
    assert building == ["scorekeeper/vision/reader.py"]
    assert reader_constructions(PACKAGE / "vision" / "reader.py") == 1, "open_reader alone builds it"


def test_the_check_sees_the_reader_built_by_name_or_through_its_module(tmp_path: Path) -> None:
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text(
        "from scorekeeper.vision import reader\nfrom scorekeeper.vision.reader import OnnxDiceReader\n"
        "def f(x: OnnxDiceReader) -> None:\n    reader.OnnxDiceReader(threads=1)\n    OnnxDiceReader()\n"
    )
    assert reader_constructions(sneaky) == 2


def test_the_opener_passes_the_folder_threads_and_line_to_the_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[Path | None, int, float | None]] = []

    class Recorded:
        def __init__(self, model_dir: Path | None = None, threads: int = 2, unsure_below: float | None = None) -> None:
            seen.append((model_dir, threads, unsure_below))

    monkeypatch.setattr(reader_module, "OnnxDiceReader", Recorded)
    reader_module.open_reader()
    reader_module.open_reader(Path("models"), threads=1, unsure_below=0.9)
    assert seen == [(None, 2, None), (Path("models"), 1, 0.9)]
