"""The ONNX dice reader with the committed models: rendered samples, the real byler photos, model checks."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from scorekeeper.vision import Detections
from scorekeeper.evaluation.assessment import score_dataset, score_resized
from scorekeeper.evaluation.dataset import LabelledImage, label_fixes_for, load_dataset, read_label_fixes, with_label_fixes
from scorekeeper.evaluation.score import Score
from scorekeeper.vision.processing import WEAK_FIND
from scorekeeper.vision.reader import FINDER_FILE, MANIFEST_FILE, PIPS_FILE, UNSURE_LINE_FILE, ModelError, ModelFiles, OnnxDiceReader, default_model_dir
from scorekeeper.synthetic.render import render
from scorekeeper.synthetic.scene import Scene
from scorekeeper.synthetic.table import TableLook

REPO = Path(__file__).resolve().parent.parent
SAMPLES = REPO / "sample_images"


@pytest.fixture(scope="module")
def reader() -> OnnxDiceReader:
    return OnnxDiceReader()


def test_the_committed_models_are_found_checked_and_small() -> None:
    files = ModelFiles.load()
    assert default_model_dir() == REPO / "models"
    assert files.finder.stat().st_size + files.pips.stat().st_size <= 10 * 1024 * 1024
    assert 0 < files.finder_threshold < 1 and 0.5 <= files.unsure_below < 1
    # Training ships the pip reader in int8 (scorekeeper.training.quantize), naming its fp32 origin.
    assert "int8_from_sha256" in json.loads((REPO / "models" / MANIFEST_FILE).read_text(encoding="utf-8"))["pips"]


@pytest.mark.xfail(strict=True, raises=AssertionError, reason="known gap, committed model (train 63 min): 30 of 36 rolls exact (83.3%), recall 96.0%, precision 97.1%, value accuracy 97.1%; dark dice in dim light, small dice, glare read as a pip, side faces at 25-45 degrees")
def test_every_rendered_sample_roll_is_exact(reader: OnnxDiceReader) -> None:
    items = load_dataset(SAMPLES)
    assert len(items) >= 30
    score = score_dataset(reader, items)
    assert score.failures == []
    assert score.recall == 1.0 and score.precision == 1.0


def test_no_rendered_sample_roll_is_misread_without_the_window_asking(reader: OnnxDiceReader) -> None:
    # What a player at the table cannot catch: as many dice as were thrown, all of them sure, and
    # still a wrong roll. A missed, extra or unsure die makes the window ask for a tap instead.
    score = score_dataset(reader, load_dataset(SAMPLES))
    assert score.unasked == 0, "\n".join(line for line in score.failures if line.endswith("(unasked)"))


def test_a_die_boxed_twice_across_its_side_face_is_read_once(reader: OnnxDiceReader) -> None:
    # Scene 01's 6 is found a second time, centred on its own box and read unsure.
    item = next(i for i in load_dataset(SAMPLES) if i.path.name == "scene_01_warm_tilt9_paper.jpg")
    found = reader.read(item.load())
    assert sorted(found.values.tolist()) == sorted(item.labels.values.tolist())


def test_an_empty_table_has_no_dice(reader: OnnxDiceReader) -> None:
    for kind in ("wood", "felt", "cloth", "paper", "tray"):
        image, _ = render(Scene(640, 480, (), TableLook(kind=kind, seed=8, clutter=2), light="harsh", seed=1))
        assert len(reader.read(image)) == 0, kind
    assert len(reader.read(np.zeros((480, 640, 3), np.uint8))) == 0


def test_detections_are_in_frame_pixels_with_confidences(reader: OnnxDiceReader) -> None:
    item = load_dataset(SAMPLES)[0]
    frame = item.load()
    found = reader.read(frame)
    assert isinstance(found, Detections) and len(found) == len(item.labels)
    assert np.all(found.boxes[:, :2] >= 0) and np.all(found.boxes[:, 2] <= frame.shape[1]) and np.all(found.boxes[:, 3] <= frame.shape[0])
    assert np.all((found.confidences > 0) & (found.confidences <= 1))
    # the line is the one training chose for the models, read here from the file itself, and it is what marks dice unsure
    line = json.loads((REPO / "models" / UNSURE_LINE_FILE).read_text(encoding="utf-8"))["line"]
    assert found.unsure_below == line
    assert found.unsure.tolist() == [confidence < line for confidence in found.confidences.tolist()]


def _among(boxes: np.ndarray, box: np.ndarray) -> bool:
    return bool(np.any(np.all(np.isclose(boxes, box), axis=1)))


def test_find_gives_the_candidates_that_read_then_reads(reader: OnnxDiceReader) -> None:
    # The int8 pip reader is calibrated on find's boxes: they must be the crops read actually cuts.
    item = load_dataset(SAMPLES)[0]
    frame = item.load()
    boxes, scores = reader.find(frame)
    assert np.all(np.diff(scores) <= 0) and np.all(scores >= reader.files.finder_threshold)
    weak_boxes, weak_scores = reader.find(frame, WEAK_FIND)
    assert np.all(weak_scores >= WEAK_FIND) and len(weak_boxes) >= len(boxes)
    found = reader.read(frame)
    assert len(weak_boxes) >= len(found) == len(item.labels)
    for box in found.boxes:
        assert _among(weak_boxes, box), box


def test_a_die_only_weakly_found_counts_when_the_pip_reader_is_sure_of_it(reader: OnnxDiceReader) -> None:
    # A die the finder peaks under its threshold for is scored only when it needs no tap: it must
    # never add a die the window asks about. Scene 02's black die with dim pips is one.
    weak_dice = []
    for item in load_dataset(SAMPLES):
        frame = item.load()
        strong, _ = reader.find(frame)
        found = reader.read(frame)
        for box, confidence in zip(found.boxes, found.confidences):
            if not _among(strong, box):
                weak_dice.append(item.path.name)
                assert confidence >= reader.unsure_below, (item.path.name, box, confidence)
    assert "scene_02_dim_tilt18_wood.jpg" in weak_dice


def test_a_quarter_turned_frame_reads_the_same_dice(reader: OnnxDiceReader) -> None:
    item = load_dataset(SAMPLES)[4]
    frame = item.load()
    found = reader.read(frame)
    turned = reader.read(np.ascontiguousarray(np.rot90(frame)))
    assert sorted(turned.values.tolist()) == sorted(found.values.tolist())
    assert len(found) == len(item.labels)


def test_frames_that_are_not_bgr8_are_refused_clearly(reader: OnnxDiceReader) -> None:
    with pytest.raises(ValueError, match="BGR uint8 frame"):
        reader.read(np.zeros((480, 640), np.uint8))
    with pytest.raises(ValueError, match="BGR uint8 frame"):
        reader.read(np.zeros((480, 640, 3), np.float32))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="too small"):
        reader.read(np.zeros((8, 8, 3), np.uint8))


@pytest.fixture
def model_copy(tmp_path: Path) -> Path:
    for name in (FINDER_FILE, PIPS_FILE, MANIFEST_FILE, UNSURE_LINE_FILE):
        shutil.copy(default_model_dir() / name, tmp_path / name)
    return tmp_path


def test_a_damaged_model_is_refused_with_the_path_and_how_to_restore_it(model_copy: Path) -> None:
    data = bytearray((model_copy / PIPS_FILE).read_bytes())
    data[len(data) // 2] ^= 0xFF
    (model_copy / PIPS_FILE).write_bytes(bytes(data))
    with pytest.raises(ModelError, match="damaged") as info:
        OnnxDiceReader(model_copy)
    message = str(info.value)
    assert str(model_copy / PIPS_FILE) in message and "scorekeeper train" in message and "git checkout" in message


def test_a_missing_model_is_refused_with_the_path(model_copy: Path) -> None:
    (model_copy / FINDER_FILE).unlink()
    with pytest.raises(ModelError, match=f"{FINDER_FILE} is missing"):
        OnnxDiceReader(model_copy)
    with pytest.raises(ModelError, match=f"{MANIFEST_FILE} is missing"):
        OnnxDiceReader(model_copy / "nowhere")
    (model_copy / MANIFEST_FILE).write_text("{not json")
    with pytest.raises(ModelError, match="damaged model manifest"):
        OnnxDiceReader(model_copy)


def test_the_finder_looks_at_the_scale_it_was_trained_at(model_copy: Path) -> None:
    manifest = json.loads((model_copy / MANIFEST_FILE).read_text())
    assert ModelFiles.load(model_copy).finder_scale == manifest["finder_scale"]
    for key in ("finder_scale", "finder_max_side"):
        del manifest[key]
    (model_copy / MANIFEST_FILE).write_text(json.dumps(manifest))
    older = ModelFiles.load(model_copy)  # trained before the manifest said: half size, 640 px at most
    assert (older.finder_scale, older.finder_max_side) == (0.5, 640)
    (model_copy / MANIFEST_FILE).write_text(json.dumps({**manifest, "finder_scale": 2.0}))
    with pytest.raises(ModelError, match="finder scale 2.0"):
        ModelFiles.load(model_copy)


@pytest.fixture(scope="module")
def byler(shared_data: Callable[..., Path]) -> Path:
    """The byler photos beside the checkout (owed in CI: see conftest.py)."""
    return shared_data("byler_d6", "split.csv", "images", "labels")


@pytest.fixture(scope="module")
def byler_test_items(byler: Path) -> list[LabelledImage]:
    # The reviewed labels: a green 3 labelled 2 and a smoky 3 left unlabelled would hold a reader
    # that reads every die right to 49 of 51 rolls, under the 97% target.
    items, fixes = with_label_fixes(load_dataset(byler, split="test"), byler)
    assert fixes
    return items


@pytest.fixture(scope="module")
def byler_test(reader: OnnxDiceReader, byler_test_items: list[LabelledImage]) -> Score:
    return score_dataset(reader, byler_test_items)


def test_every_byler_label_fix_names_a_photo_and_finds_its_die(byler: Path) -> None:
    path = label_fixes_for(byler)
    assert path is not None
    fixes = read_label_fixes(path)
    stems = {p.stem for p in (byler / "images").iterdir()}
    assert {fix.stem for fix in fixes} <= stems
    assert all(fix.why and fix.seen != fix.labelled for fix in fixes)
    applied = [with_label_fixes(load_dataset(byler, split=split), byler)[1] for split in ("train", "test")]
    assert sum(map(len, applied)) == len(fixes), "each fix applies to its split and finds what it fixes"


def test_byler_test_recall(byler_test: Score) -> None:
    assert byler_test.recall >= 0.995, byler_test.report()


def test_byler_test_precision(byler_test: Score) -> None:
    assert byler_test.precision >= 0.995, byler_test.report()


def test_byler_test_value_accuracy(byler_test: Score) -> None:
    assert byler_test.value_accuracy >= 0.995, byler_test.report()


def test_byler_test_roll_exact(byler_test: Score) -> None:
    assert byler_test.roll_exact >= 0.97, "\n".join(byler_test.failures)


def test_byler_test_sure_dice_are_right_and_few_are_unsure(byler_test: Score) -> None:
    assert byler_test.sure_accuracy >= 0.999, byler_test.report()
    assert byler_test.unsure_share <= 0.03, byler_test.report()


def test_no_byler_test_roll_is_misread_without_the_window_asking(byler_test: Score) -> None:
    assert byler_test.unasked == 0, "\n".join(byler_test.failures)


@pytest.mark.parametrize("factor", [0.5, 2.0])
def test_byler_test_photos_resized_are_read_at_other_dice_sizes(reader: OnnxDiceReader, byler_test_items: list[LabelledImage], factor: float) -> None:
    # The byler dice are 30-50 px; resized, 15-25 and 60-100 px, sizes other webcams and tables
    # give. A finder that learned the one size found half of these dice and boxed the big ones small.
    score = score_resized(reader, byler_test_items, factor)
    assert score.recall >= 0.9 and score.precision >= 0.9, score.report()
    assert score.roll_exact >= 0.75, "\n".join(score.failures)
