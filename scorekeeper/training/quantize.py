"""The pip reader in int8: its ONNX file quantized after training, calibrated on the crops it is
really given (the finder's boxes on rendered scenes and real photos, in every quarter turn).

Why: on 2 cores of an AMD EPYC the fp32 reader took 4.9 ms of a 640x480 read of 6 dice (24 crops,
each die in 4 quarter turns), int8 2.0 ms, with the same reads on the byler test photos and the
sample scenes. The finder stays fp32: its 8-48 channel layers are too narrow for int8 to pay
(7.3 ms int8 against 6.9 ms fp32 on a 960x544 input).

Weights are per channel and 7-bit (``reduce_range``): CPUs without VNNI multiply uint8 by int8 in
pairs summed into 16 bits, which 8-bit weights can overflow (onnxruntime's quantization notes);
7 bits cannot, and cost nothing measurable here. Needs ``onnx`` (the train extra).
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from scorekeeper.safe_output import write_atomically
from scorekeeper.training.manifest import read_manifest, update_manifest
from scorekeeper.evaluation.dataset import LabelledImage
from scorekeeper.vision.processing import pips_input
from scorekeeper.vision.reader import open_reader, sha256_of
from scorekeeper.synthetic.render import render
from scorekeeper.synthetic.scene import random_scene

CALIBRATION_SCENES = 48
"""Rendered scenes whose found dice calibrate the int8 reader (seeded apart from training's)."""
CALIBRATION_PHOTO_EVERY = 8
"""... and every this many-th real training photo."""


def calibration_frames(seed: int, photos: Sequence[LabelledImage] = (), scenes: int = CALIBRATION_SCENES) -> Iterator[NDArray[np.uint8]]:
    """Rendered frames (seed ``[seed, 5, i]``, a stream training does not draw from), then every
    ``CALIBRATION_PHOTO_EVERY``-th of ``photos``."""
    for i in range(scenes):
        yield render(random_scene(np.random.default_rng([seed, 5, i])))[0]
    for photo in photos[::CALIBRATION_PHOTO_EVERY]:
        yield photo.load()


def calibration_batches(model_dir: Path, frames: Iterable[NDArray[np.uint8]]) -> list[NDArray[np.float32]]:
    """The pip reader's inputs for each frame: ``pips_input`` of the boxes ``OnnxDiceReader.find`` gives,
    as ``read`` builds them. Finding needs no unsure line: training chooses it after quantizing."""
    reader = open_reader(model_dir, unsure_below=1.0)
    batches = []
    for frame in frames:
        boxes, _scores = reader.find(frame)
        if len(boxes):
            batches.append(pips_input(frame, boxes))
    return batches


def quantize_reader(model_dir: Path, frames: Iterable[NDArray[np.uint8]]) -> int:
    """Replace the fp32 pip reader in ``model_dir`` by its int8 version and update the manifest
    (which keeps the fp32 file's SHA-256 it came from); returns how many crops calibrated it.
    A failure leaves the fp32 model in place."""
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quant_pre_process, quantize_static  # type: ignore[import-untyped]

    manifest = read_manifest(model_dir)
    if "int8_from_sha256" in manifest["pips"]:
        raise ValueError(f"the pip reader in {model_dir} is already int8 (from {manifest['pips']['int8_from_sha256'][:16]}...); quantize the fp32 file training exported")
    batches = calibration_batches(model_dir, frames)
    if not batches:
        raise ValueError("no dice found in the calibration frames: nothing to calibrate the int8 pip reader on")

    class Crops(CalibrationDataReader):  # type: ignore[misc]
        def __init__(self) -> None:
            self.rest = iter(batches)

        def get_next(self) -> dict[str, NDArray[np.float32]] | None:
            batch = next(self.rest, None)
            return None if batch is None else {"crops": batch}

    pips = model_dir / manifest["pips"]["file"]
    with tempfile.TemporaryDirectory() as scratch:
        prepared, quantized = Path(scratch) / "prepared.onnx", Path(scratch) / "int8.onnx"
        # onnx's own shape inference covers this fixed-size CNN; the symbolic one needs sympy
        # and, where it fails, leaves a temporary model in the working folder.
        quant_pre_process(str(pips), str(prepared), skip_symbolic_shape=True)
        quantize_static(
            str(prepared), str(quantized), Crops(), quant_format=QuantFormat.QDQ, per_channel=True, reduce_range=True,
            activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
        )
        write_atomically(pips, quantized.read_bytes())
    crops = sum(len(batch) for batch in batches)
    entry = {"file": pips.name, "sha256": sha256_of(pips), "int8_from_sha256": manifest["pips"]["sha256"], "calibration_crops": crops}
    update_manifest(model_dir, {"pips": entry})
    return crops

