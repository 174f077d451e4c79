"""A training run kept in a checkpoint: it goes on, in a later sitting, exactly where it stopped, and
a checkpoint of another recipe, other data or a newer format is refused, saying which.

The checks on the checkpoint's fields need no torch; the tests that train (tiny runs of seconds)
need the ``train`` extra and are skipped without it.
"""

from __future__ import annotations

from dataclasses import asdict, replace
from pathlib import Path

import numpy as np
import pytest

from scorekeeper.evaluation.dataset import LabelledImage
from scorekeeper.training.checkpoint import FORMAT, CheckpointError, Place, Sitting, check_resumable, data_fingerprint, recipe_of
from scorekeeper.vision.detections import Detections

RECIPE = {"seed": 2026, "finder_steps": 35000, "reader_steps": 44000, "photo_zoom": [0.5, 3.0]}


def _saved(**changes: object) -> dict[str, object]:
    return {"format": FORMAT, "recipe": dict(RECIPE), "data": "abc", "stage": "finder", "step": 1500, **changes}


def test_a_checkpoint_of_the_same_recipe_and_data_goes_on_where_it_stood() -> None:
    assert check_resumable(Path("c.pt"), _saved(), RECIPE, "abc") == Place("finder", 1500)
    assert check_resumable(Path("c.pt"), _saved(stage="reader", step=44000), RECIPE, "abc") == Place("reader", 44000)


def test_a_checkpoint_of_another_recipe_is_refused_naming_each_setting_that_differs() -> None:
    asked = {**RECIPE, "finder_steps": 400, "reader_steps": 30}
    with pytest.raises(CheckpointError) as refused:
        check_resumable(Path("run/checkpoint.pt"), _saved(), asked, "abc")
    message = str(refused.value)
    assert "run/checkpoint.pt" in message
    assert "finder_steps 35000 in the checkpoint, 400 asked" in message
    assert "reader_steps 44000 in the checkpoint, 30 asked" in message
    assert "another --checkpoint folder" in message


def test_how_fast_a_sitting_runs_is_not_part_of_the_recipe() -> None:
    config = {**RECIPE, "threads": 2, "workers": 2, "prep_workers": 0}
    other = {**config, "threads": 1, "workers": 15, "prep_workers": 15}
    assert recipe_of(config) == recipe_of(other) == RECIPE


def test_a_checkpoint_of_other_data_or_a_newer_format_or_a_place_the_recipe_has_not_is_refused() -> None:
    with pytest.raises(CheckpointError, match="other photos, labels or corrections"):
        check_resumable(Path("c.pt"), _saved(), RECIPE, "xyz")
    with pytest.raises(CheckpointError, match=f"format {FORMAT + 1}.*reads format {FORMAT}: update scorekeeper"):
        check_resumable(Path("c.pt"), _saved(format=FORMAT + 1), RECIPE, "abc")
    with pytest.raises(CheckpointError, match="'finder' step 36000, which this recipe has not"):
        check_resumable(Path("c.pt"), _saved(step=36000), RECIPE, "abc")
    with pytest.raises(CheckpointError, match="holds no recipe"):
        check_resumable(Path("c.pt"), _saved(recipe="x"), RECIPE, "abc")


def test_the_data_fingerprint_changes_with_a_label_and_with_a_photo(tmp_path: Path) -> None:
    photo = tmp_path / "a.jpg"
    photo.write_bytes(b"x" * 10)
    boxes = np.array([[1, 2, 3, 4]], np.float32)
    one = LabelledImage(photo, Detections(boxes, np.array([3]), np.ones(1, np.float32)))
    other_value = LabelledImage(photo, Detections(boxes, np.array([4]), np.ones(1, np.float32)))
    assert data_fingerprint([[one]], []) == data_fingerprint([[one]], [])
    assert data_fingerprint([[one]], []) != data_fingerprint([[other_value]], [])
    before = data_fingerprint([[one]], [])
    photo.write_bytes(b"x" * 11)
    assert data_fingerprint([[one]], []) != before


def test_a_sitting_is_over_once_its_minutes_are_spent() -> None:
    sitting = Sitting(1.0)
    assert not sitting.over()
    assert sitting.over(now=sitting._start + 60.0)
    assert not Sitting(None).over(now=1e12)


class _StopAfter(Sitting):
    """A sitting whose time is spent after ``steps`` steps."""

    def __init__(self, steps: int) -> None:
        super().__init__(None)
        self.left = steps

    def over(self, now: float | None = None) -> bool:
        self.left -= 1
        return self.left <= 0


def _tiny() -> object:
    from scorekeeper.training.train import TrainConfig, quick

    return replace(quick(TrainConfig(threads=1, workers=1)), synthetic=6, finder_steps=7, finder_batch=4, reader_steps=5, reader_batch=16, bfloat16=False)


def test_a_run_stopped_by_its_sitting_goes_on_to_the_same_models_as_one_never_stopped(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    from scorekeeper.training.train import Checkpoints, SittingOver, gather, train_finder, train_reader

    config = _tiny()
    said: list[str] = []
    samples = gather(config, [], said.append)
    torch.manual_seed(config.seed)
    finder = train_finder(samples, config, said.append)
    reader = train_reader(samples, config, said.append)

    torch.manual_seed(config.seed)
    with pytest.raises(SittingOver) as stopped:
        train_finder(samples, config, said.append, Checkpoints(tmp_path, config, "data", _StopAfter(3), said.append))
    assert stopped.value.place == Place("finder", 3)
    torch.manual_seed(config.seed + 99)
    saves = Checkpoints(tmp_path, config, "data", _StopAfter(7), said.append)
    assert saves.place == Place("finder", 3)
    finder_again = train_finder(samples, config, said.append, saves)
    assert saves.place == Place("finder", 7)
    saves.trained_finder(finder_again)
    with pytest.raises(SittingOver) as stopped:
        train_reader(samples, config, said.append, saves)
    assert stopped.value.place == Place("reader", 3)

    saves = Checkpoints(tmp_path, config, "data", Sitting(None), said.append)
    assert saves.place == Place("reader", 3)
    finder_read = saves.saved_finder("cpu")
    reader_again = train_reader(samples, config, said.append, saves)
    assert "going on from" in " ".join(said)
    for whole, resumed in ((finder, finder_again), (finder, finder_read), (reader, reader_again)):
        a, b = whole.state_dict(), resumed.state_dict()
        assert a.keys() == b.keys()
        assert all(torch.equal(a[k], b[k]) for k in a), "the run that went on trained another model than the one never stopped"


def test_a_checkpoint_is_small_enough_to_commit_and_refused_for_another_recipe(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from scorekeeper.training.checkpoint import CHECKPOINT_FILE
    from scorekeeper.training.train import Checkpoints, SittingOver, TrainConfig, gather, train_finder

    config = _tiny()
    samples = gather(config, [], lambda _: None)
    with pytest.raises(SittingOver):
        train_finder(samples, config, lambda _: None, Checkpoints(tmp_path, config, "data", _StopAfter(2), lambda _: None))
    # the recipe's full finder, weights and optimiser state
    assert (tmp_path / CHECKPOINT_FILE).stat().st_size < 2_000_000
    assert recipe_of(asdict(TrainConfig())) != recipe_of(asdict(config))
    with pytest.raises(CheckpointError, match="finder_steps 7 in the checkpoint, 35000 asked"):
        Checkpoints(tmp_path, TrainConfig(), "data", Sitting(None), lambda _: None)
