"""The reader told how many dice are on the table (``read(frame, dice=N)``, ``read --dice N``)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from scorekeeper.cli import main
from scorekeeper.evaluation.dataset import load_dataset
from scorekeeper.evaluation.score import Score
from scorekeeper.vision.reader import OnnxDiceReader

SAMPLES = Path(__file__).resolve().parent.parent / "sample_images"


@pytest.fixture(scope="module")
def reader() -> OnnxDiceReader:
    return OnnxDiceReader()


def test_the_true_count_never_adds_dice_and_asks_no_less_than_reading_blind(reader: OnnxDiceReader) -> None:
    blind, counted = Score(), Score()
    for item in load_dataset(SAMPLES):
        frame = item.load()
        found = reader.read(frame, dice=len(item.labels))
        assert len(found) <= len(item.labels), item.path.name
        blind.add(item.labels, reader.read(frame), item.path.name)
        counted.add(item.labels, found, item.path.name)
    assert counted.right_unasked >= blind.right_unasked
    assert counted.unasked <= blind.unasked


def test_a_count_under_the_finds_keeps_the_likeliest_and_reports_the_rest_dropped(reader: OnnxDiceReader) -> None:
    item = next(item for item in load_dataset(SAMPLES) if len(item.labels) >= 4)
    frame = item.load()
    blind = reader.read(frame)
    two = reader.read(frame, dice=2)
    assert len(two) == 2 and len(blind.dropped) == 0
    assert len(two) + len(two.dropped) >= len(blind)
    kept = {tuple(np.round(box, 1)) for box in two.boxes}
    assert kept.isdisjoint({tuple(np.round(box, 1)) for box in two.dropped})
    with pytest.raises(ValueError, match="got -1"):
        reader.read(frame, dice=-1)


def test_read_dice_prints_the_dropped_finds(capsys: pytest.CaptureFixture[str]) -> None:
    image = sorted((SAMPLES / "images").iterdir())[0]
    assert main(["read", "--json", "--dice", "1", str(image)]) == 0
    record = json.loads(capsys.readouterr().out)
    assert len(record["dice"]) == 1 and len(record["roll"]) == 1
    assert record["dropped"] and all(len(box) == 4 for box in record["dropped"])
    assert main(["read", str(image)]) == 0
    assert "dropped" not in capsys.readouterr().out


@pytest.mark.parametrize("bad", ["-1", "x", "65"])
def test_read_dice_refuses_a_count_that_is_not_one(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    image = sorted((SAMPLES / "images").iterdir())[0]
    with pytest.raises(SystemExit) as exit_info:
        main(["read", "--dice", bad, str(image)])
    assert exit_info.value.code == 2
    assert "--dice takes the number of dice on the table (0-64)" in capsys.readouterr().err
