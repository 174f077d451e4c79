"""The pip reader's int8 quantization: calibrated on the crops the finder cuts, recorded in the
manifest with the fp32 file it came from, refused twice, and all-or-nothing on failure."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from scorekeeper.training.quantize import calibration_batches, calibration_frames, quantize_reader
from scorekeeper.vision.processing import CROP, VIEWS
from scorekeeper.vision.reader import FINDER_FILE, MANIFEST_FILE, PIPS_FILE, UNSURE_LINE_FILE, OnnxDiceReader, default_model_dir, sha256_of

CALIBRATION = 4
"""Rendered scenes to calibrate on: enough for a few dozen crops, quick on 2 cores."""


def small_fp32_reader(path: Path) -> None:
    """A pip reader with the real one's input and output (crops in, 7 logits out), random weights."""
    rng = np.random.default_rng(3)
    weights = {
        "w1": rng.normal(0, 0.3, (8, 3, 3, 3)), "b1": rng.normal(0, 0.1, 8),
        "w2": rng.normal(0, 0.3, (16, 8, 3, 3)), "b2": rng.normal(0, 0.1, 16),
        "w3": rng.normal(0, 0.5, (7, 16)), "b3": rng.normal(0, 0.1, 7),
    }
    graph = helper.make_graph(
        [
            helper.make_node("Conv", ["crops", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1], strides=[2, 2]),
            helper.make_node("Relu", ["c1"], ["r1"]),
            helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], pads=[1, 1, 1, 1], strides=[2, 2]),
            helper.make_node("Relu", ["c2"], ["r2"]),
            helper.make_node("GlobalAveragePool", ["r2"], ["pooled"]),
            helper.make_node("Flatten", ["pooled"], ["flat"]),
            helper.make_node("Gemm", ["flat", "w3", "b3"], ["logits"], transB=1),
        ],
        "pips",
        [helper.make_tensor_value_info("crops", TensorProto.FLOAT, ["dice", 3, CROP, CROP])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["dice", 7])],
        [numpy_helper.from_array(value.astype(np.float32), name) for name, value in weights.items()],
    )
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))


@pytest.fixture
def fp32_folder(tmp_path: Path) -> Path:
    """The committed finder beside a small fp32 pip reader, with a manifest naming both and, as
    training exports them, no unsure line yet (it is chosen on the int8 reader)."""
    folder = tmp_path / "models"
    folder.mkdir()
    shutil.copy(default_model_dir() / FINDER_FILE, folder / FINDER_FILE)
    small_fp32_reader(folder / PIPS_FILE)
    manifest = json.loads((default_model_dir() / MANIFEST_FILE).read_text(encoding="utf-8"))
    manifest["pips"] = {"file": PIPS_FILE, "sha256": sha256_of(folder / PIPS_FILE)}
    (folder / MANIFEST_FILE).write_text(json.dumps(manifest), encoding="utf-8")
    return folder


def probabilities(model: Path, crops: np.ndarray) -> np.ndarray:
    session = ort.InferenceSession(str(model), providers=["CPUExecutionProvider"])
    logits = session.run(None, {"crops": crops})[0]
    shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
    return shifted / shifted.sum(axis=1, keepdims=True)


def test_the_int8_reader_replaces_the_fp32_one_and_the_manifest_says_where_it_came_from(fp32_folder: Path) -> None:
    fp32 = fp32_folder.parent / "fp32.onnx"
    shutil.copy(fp32_folder / PIPS_FILE, fp32)
    before = json.loads((fp32_folder / MANIFEST_FILE).read_text(encoding="utf-8"))

    crops = quantize_reader(fp32_folder, calibration_frames(7, scenes=CALIBRATION))

    after = json.loads((fp32_folder / MANIFEST_FILE).read_text(encoding="utf-8"))
    assert after["pips"] == {
        "file": PIPS_FILE, "sha256": sha256_of(fp32_folder / PIPS_FILE),
        "int8_from_sha256": before["pips"]["sha256"], "calibration_crops": crops,
    }
    assert {key: value for key, value in after.items() if key != "pips"} == {key: value for key, value in before.items() if key != "pips"}
    assert crops >= 8 * VIEWS and crops % VIEWS == 0
    int8 = onnx.load(str(fp32_folder / PIPS_FILE))
    assert {"QuantizeLinear", "DequantizeLinear"} <= {node.op_type for node in int8.graph.node}
    assert {numpy_helper.to_array(t).dtype for t in int8.graph.initializer} >= {np.dtype(np.int8), np.dtype(np.uint8)}
    assert not list(fp32_folder.glob("*.tmp"))

    # The reader loads it (the manifest's SHA-256 holds) and it reads as the fp32 file did.
    OnnxDiceReader(fp32_folder, unsure_below=0.85)
    batch = np.concatenate(calibration_batches(fp32_folder, calibration_frames(8, scenes=2)))
    assert np.abs(probabilities(fp32_folder / PIPS_FILE, batch) - probabilities(fp32, batch)).max() < 0.03


def test_an_int8_reader_is_not_quantized_again(fp32_folder: Path) -> None:
    quantize_reader(fp32_folder, calibration_frames(7, scenes=CALIBRATION))
    files = {path.name: path.read_bytes() for path in fp32_folder.iterdir()}
    with pytest.raises(ValueError, match="already int8"):
        quantize_reader(fp32_folder, calibration_frames(7, scenes=CALIBRATION))
    assert {path.name: path.read_bytes() for path in fp32_folder.iterdir()} == files


def test_frames_without_dice_leave_the_fp32_reader_in_place(fp32_folder: Path) -> None:
    files = {path.name: path.read_bytes() for path in fp32_folder.iterdir()}
    with pytest.raises(ValueError, match="no dice found in the calibration frames"):
        quantize_reader(fp32_folder, [np.zeros((480, 640, 3), np.uint8)] * 3)
    assert {path.name: path.read_bytes() for path in fp32_folder.iterdir()} == files
