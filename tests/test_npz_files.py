"""Issue 62 (2, 3, 9): every numpy file the program reads (the table file, the die colours file, the
coach's cache) refuses a hostile one clearly, in the command, the game and the window alike, and
reads back what the program wrote, an empty table included."""

from __future__ import annotations

import io
import logging
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray
from pytestqt.qtbot import QtBot

from conftest import shared_data_folder
from scorekeeper.coach import cache as coach_cache
from scorekeeper.coach import CACHE_ENV, policy_for, rules_key
from scorekeeper.evaluation.dataset import LabelledImage, load_dataset, with_label_fixes
from scorekeeper.rules import load_rules
from scorekeeper.table_session.learner import TableLearner
from scorekeeper.table_session.table_colours import TableColours
from scorekeeper.vision.die_colours import DieColours, DieColoursFileError
from scorekeeper.vision.reader import OnnxDiceReader
from scorekeeper.vision.table_memory import TableFileError, TableMemory
from tests.hostile_npz import bomb, huge_shape, object_array

BOMB = 100_000_000
"""Bytes of zeros a zip bomb inflates to: more than any of the program's files may hold (64 MB)."""


@pytest.fixture(scope="module")
def reader() -> OnnxDiceReader:
    return OnnxDiceReader(threads=1)


@pytest.fixture(scope="module")
def table_arrays(reader: OnnxDiceReader, tmp_path_factory: pytest.TempPathFactory) -> dict[str, NDArray[np.generic]]:
    """The arrays of a table file as the program writes it (empty)."""
    path = tmp_path_factory.mktemp("table") / "empty.table.npz"
    TableMemory(reader).save(path)
    with np.load(path) as data:
        return {name: data[name] for name in data.files}


@pytest.fixture(scope="module")
def hostile_tables(table_arrays: dict[str, NDArray[np.generic]]) -> dict[str, tuple[bytes, str]]:
    """Each hostile table file, with the words that refuse it."""
    return {
        "huge shape": (huge_shape(table_arrays, "crops"), "'crops.npy' claims the shape (1000000000000,) of uint8"),
        "zip bomb": (bomb(table_arrays, "crops", BOMB), "its arrays would take 100,00"),
        "object dtype": (object_array(table_arrays, "crops"), "'crops.npy' holds an array of object"),
    }


def scorekeeper(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "scorekeeper", *args], capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("kind", ["huge shape", "zip bomb", "object dtype"])
def test_the_table_command_refuses_a_hostile_table_file_in_a_sentence(tmp_path: Path, hostile_tables: dict[str, tuple[bytes, str]], kind: str) -> None:
    content, words = hostile_tables[kind]
    path = tmp_path / "kitchen.table.npz"
    path.write_bytes(content)
    result = scorekeeper("table", str(path))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"scorekeeper table: table file {str(path)!r} is damaged or not a table file: ")
    assert words in result.stderr and result.stderr.rstrip().endswith("forget it to start the table afresh")
    assert path.read_bytes() == content, "the refused file is kept as it was"


def test_a_hostile_table_file_leaves_the_learner_reading_cold_saying_why(reader: OnnxDiceReader, tmp_path: Path, hostile_tables: dict[str, tuple[bytes, str]]) -> None:
    content, words = hostile_tables["huge shape"]
    path = tmp_path / "kitchen.table.npz"
    path.write_bytes(content)
    learner = TableLearner(reader, path)
    try:
        line = learner.summary().line()
    finally:
        learner.close()
    assert words in line and "the reader reads cold and this run's rolls are not saved" in line
    assert path.read_bytes() == content


def test_the_window_says_table_learning_is_off_and_why(qtbot: QtBot, tmp_path: Path, hostile_tables: dict[str, tuple[bytes, str]]) -> None:
    from scorekeeper.ui.controller import GameController
    from scorekeeper.ui.main_window import MainWindow, WindowOptions
    from tests.ui_fakes import ScriptedTable

    content, words = hostile_tables["huge shape"]
    (tmp_path / "last-calibration.table.npz").write_bytes(content)
    table = ScriptedTable(640, 480)
    window = MainWindow(
        GameController(tmp_path), WindowOptions(source="scripted"), reader=lambda: OnnxDiceReader(threads=1), opener=lambda spec, profile: table  # type: ignore[arg-type, return-value]
    )
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.camera.learner is not None, timeout=20000)
    text = window.camera.learned_label.text()
    assert words in text and "the reader reads cold and this run's rolls are not saved" in text
    window.close()


def test_an_empty_table_file_the_program_wrote_is_read_back(reader: OnnxDiceReader, tmp_path: Path) -> None:
    path = tmp_path / "kitchen.table.npz"
    TableMemory(reader).save(path)
    again = TableMemory.load(path, reader)
    assert len(again) == 0 and again.confirmed == 0 and again.rolls == [] and again.crops.shape == (0, 32, 32, 3)
    result = scorekeeper("table", str(path), "--json")
    assert result.returncode == 0, result.stderr
    assert '"dice": 0, "rolls": 0' in result.stdout


@pytest.fixture(scope="module")
def byler_test() -> list[LabelledImage]:
    folder = shared_data_folder("byler_d6", "split.csv", "images", "labels")
    return with_label_fixes(load_dataset(folder, split="test"), folder)[0]


def test_a_table_with_crops_but_no_rolls_judged_under_this_model_is_read_back(reader: OnnxDiceReader, byler_test: list[LabelledImage], tmp_path: Path) -> None:
    memory = TableMemory(reader)
    for item in byler_test[:2]:
        memory.learn(item.load(), item.labels.boxes, item.labels.values.tolist(), item.labels.boxes[:0])
    memory.rolls = []  # as a table learned under another model is kept: its crops, none of its rolls
    path = tmp_path / "kitchen.table.npz"
    memory.save(path)
    again = TableMemory.load(path, reader)
    assert again.counts() == memory.counts() and again.rolls == [] and again.confirmed == 2
    np.testing.assert_array_equal(again.crops, memory.crops)


COLOURS = {"format": np.array(1), "bodies": np.zeros((2, 3)), "wild": np.array([1, 0], np.int8), "pips": np.zeros((2, 3)), "red": np.array([0, -1], np.int8), "table": np.ones(3)}


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (huge_shape(COLOURS, "bodies"), "'bodies.npy' claims the shape (1000000000000,) of uint8"),
        (bomb(COLOURS, "bodies", BOMB), "its arrays would take 100,00"),
    ],
    ids=["huge shape", "zip bomb"],
)
def test_a_hostile_die_colours_file_is_refused_and_the_game_learns_afresh(tmp_path: Path, content: bytes, words: str) -> None:
    path = tmp_path / "kitchen.colours.npz"
    path.write_bytes(content)
    with pytest.raises(DieColoursFileError) as caught:
        DieColours.load(path)
    assert words in str(caught.value) and str(caught.value).endswith("tap the wild die and a red face again in the teaching step")
    colours = TableColours(path)
    assert words in colours.note and colours.note.endswith("the table learns its dice's colours afresh and this run's are not saved")
    assert colours.learned() == "" and path.read_bytes() == content


@pytest.mark.parametrize("kind", ["huge shape", "zip bomb"])
def test_a_hostile_coach_cache_file_is_solved_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, kind: str) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    rules = load_rules("retail")
    arrays = {"key": np.array(rules_key(rules)), "farkle": np.zeros(7), "win": np.zeros((400, 8)), "rolls0": np.zeros((800, 7))}
    path = tmp_path / f"policy-{rules_key(rules)}.npz"
    path.write_bytes(huge_shape(arrays, "win") if kind == "huge shape" else bomb(arrays, "win", BOMB))
    coach_cache.forget_solved()
    try:
        with caplog.at_level(logging.WARNING):
            policy = policy_for(rules)
    finally:
        coach_cache.forget_solved()
    assert policy.expected_points_per_turn() > 500
    assert f"coach cache file {str(path)!r} is damaged or not a coach cache file" in caplog.text and "solving again" in caplog.text
    with np.load(io.BytesIO(path.read_bytes())) as data:
        assert data["win"].ndim == 2, "the cache is written again, whole"
