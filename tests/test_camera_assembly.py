"""The camera game is put together once (``table_session/assembly.py``): the window's camera pane
and ``scorekeeper watch --game`` drive the same assembly, which alone tells the watch loop and the
source the dice the game expects."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from scorekeeper.camera.calibration import CalibrationProfile
from scorekeeper.camera.sources import Frame
from scorekeeper.camera.watch import Watcher
from scorekeeper.cli import build_parser
from scorekeeper.cli.watch import run as watch
from scorekeeper.game import DiceRolled, Game, Kept
from scorekeeper.game.controller import GameController
from scorekeeper.rules import Dice, load_rules
from scorekeeper.table_session.assembly import CameraTable, ThrowsExpected
from scorekeeper.ui.controller import GameController as WindowController
from scorekeeper.ui.main_window import MainWindow, WindowOptions
from scorekeeper.vision.detections import Detections
from scorekeeper.testbed.films import FilmReader, write_video
from tests.test_table_camera_game import film_of
from tests.ui_fakes import LabelReader, ScriptedTable

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"


class WildThrower:
    """A source that throws dice, a wild die among them or not, as it is told."""

    name = "wild thrower"

    def __init__(self) -> None:
        self.told: list[tuple[str, int | bool | None]] = []

    def read(self) -> Frame | None:
        return None

    def close(self) -> None:
        pass

    def expect(self, count: int | None) -> None:
        self.told.append(("count", count))

    def expect_wild(self, in_throw: bool | None) -> None:
        self.told.append(("wild", in_throw))


class Blind:
    """Reads nothing."""

    def read(self, frame: object, dice: int | None = None) -> Detections:
        return Detections.empty()


def calls_in(module: Path) -> list[str]:
    """The names of what ``module`` calls, plain (``f(...)``) or as a method (``x.f(...)``), and
    ``.NAME=`` for each attribute it sets."""
    found: list[str] = []
    for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            found.append(node.func.id)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            found.append(node.func.attr)
        elif isinstance(node, ast.Assign):
            found += [f".{target.attr}=" for target in node.targets if isinstance(target, ast.Attribute)]
    return found


def modules_calling(name: str) -> set[str]:
    """The program's modules calling ``name`` (the tests' and benchmarks' tables in ``testbed/`` set up games of their own)."""
    return {
        str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py") if path.relative_to(PACKAGE).parts[0] != "testbed" and name in calls_in(path)
    }


def test_the_session_learner_colours_and_expectations_are_wired_in_the_assembly_alone() -> None:
    for made in ("TableSession", "TableLearner", "TableColours"):
        assert modules_calling(made) == {"table_session/assembly.py"}, made
    # the teaching throw of the demo table (table_colours.py) throws six dice with the wild die on purpose
    assert modules_calling("expect_wild") == {"table_session/assembly.py", "table_session/table_colours.py"}
    assert modules_calling(".thrown=") == {"table_session/assembly.py", "table_session/table_colours.py"}
    assert modules_calling("CameraTable") == {"ui/camera_pane.py", "table_session/camera_game.py"}, "the window and the camera game"
    assert modules_calling("CameraGame") == {"cli/watch.py"}


def test_what_the_game_expects_reaches_the_source_and_the_loop_reading_the_table(tmp_path: Path) -> None:
    game = Game.new(load_rules("retail", ["wild-die"]), ["Ann", "Bob"])
    table = CameraTable(GameController(tmp_path, game), CalibrationProfile(), None)
    table.play.on_changed.append(table.session.game_changed)
    source = WildThrower()
    watcher = Watcher(source, Blind())  # type: ignore[arg-type]
    table.read_by(watcher)
    assert source.told == [("wild", True), ("count", 6)] and watcher.thrown == 6, "six dice, the wild die among them"
    table.play.take(DiceRolled(Dice.from_str("1w 5 2 3 4 6")))
    assert source.told[-1] == ("count", 0) and watcher.thrown == 0, "a roll on the table: none until the keep"
    table.play.take(Kept(Dice.from_str("1w")))
    assert source.told[-2:] == [("wild", False), ("count", 5)] and watcher.thrown == 5, "five dice, the wild die kept out"


def test_a_new_connection_gets_a_teller_of_its_own_and_the_one_before_tells_its_source_nothing_more(tmp_path: Path) -> None:
    table = CameraTable(GameController(tmp_path, Game.new(load_rules("retail"), ["Ann", "Bob"])), CalibrationProfile(), None)
    before = table.reopened()
    old = WildThrower()
    before.reading(old)
    now = table.reopened()
    assert now is table.throws and now is not before and (now.count, now.wild) == (6, True)
    told = len(old.told)
    table.expect(4)
    assert len(old.told) == told, "a capture thread still ending is told nothing more"
    fresh = WildThrower()
    now.reading(fresh)
    assert fresh.told == [("wild", True), ("count", 4)]


def test_a_throws_teller_reading_nothing_tells_nothing() -> None:
    throws = ThrowsExpected()
    throws.expect(3, None)
    assert (throws.count, throws.wild) == (3, None)


def test_watch_game_and_the_window_both_drive_the_assembly(qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    told: list[tuple[str, int | None]] = []
    expect = ThrowsExpected.expect

    def noted(self: ThrowsExpected, count: int | None, wild: bool | None) -> None:
        told.append((driver, count))
        expect(self, count, wild)

    monkeypatch.setattr(ThrowsExpected, "expect", noted)
    monkeypatch.setenv("SCOREKEEPER_HOME", str(tmp_path / "home"))

    driver = "watch"
    scenes = film_of([[1, 5, 2, 3, 4, 6]], seed=6).drain()
    video = tmp_path / "roll.avi"
    labels = write_video(scenes, video)
    (tmp_path / "d.txt").write_text("k 1 5\nb\n")
    args = ["watch", f"video:{video}", "--game", "--players", "Ann,Bob", "--decisions", str(tmp_path / "d.txt")]
    assert watch(build_parser().parse_args(args), reader=FilmReader(scenes, labels, seed=2, miss=0.0).by_picture(video)) == 0
    assert ("watch", 6) in told and ("watch", 0) in told, "six dice expected, then none while the roll is kept"

    driver = "window"
    scripted = ScriptedTable(640, 480)
    window = MainWindow(
        WindowController(tmp_path / "window"), WindowOptions(source="scripted"), reader=lambda: LabelReader(scripted), opener=lambda spec, profile: scripted  # type: ignore[arg-type, return-value]
    )
    qtbot.addWidget(window)
    window.controller.start(load_rules("retail"), ["Ann", "Bob"])
    qtbot.waitUntil(lambda: window.camera.capture is not None and window.camera.capture.worker.watcher is not None, timeout=20000)
    assert window.camera.capture.worker.throws is window.camera.table.throws, "the worker reads for the pane's assembly"
    assert ("window", 6) in told
    assert window.camera.capture.worker.watcher.thrown == 6
    window.close()
