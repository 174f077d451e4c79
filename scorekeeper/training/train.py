"""Train the dice finder and the pip reader from scratch, export both to ONNX (the pip reader then
quantized to int8) and choose their unsure line (``unsure_line``).

Imports torch: only ``scorekeeper train`` loads this module (install the ``train`` extra).
"""

from __future__ import annotations

import io
import logging
import math
import multiprocessing
import os
import random
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import torch
from numpy.typing import NDArray
from torch import nn

from scorekeeper.safe_input import read_file
from scorekeeper.safe_output import write_atomically
from scorekeeper.training.checkpoint import (
    CHECKPOINT_FILE, FORMAT, MAX_CHECKPOINT_BYTES, SAVE_EVERY, CheckpointError, Place, Sitting, check_resumable, data_fingerprint, recipe_of,
)
from scorekeeper.training.embedding import add_embedding_output
from scorekeeper.training.data import Samples, corrections_samples, fresh_photo_crops, off_every_face, photo_repeats, synthetic_samples
from scorekeeper.training.nets import Finder, PipReader
from scorekeeper.training.manifest import update_manifest, write_manifest
from scorekeeper.training.quantize import calibration_frames, quantize_reader
from scorekeeper.training.unsure_line import QUICK_SCENES, SCENES, choose_unsure_line
from scorekeeper.evaluation.assessment import machine_name, resized
from scorekeeper.evaluation.dataset import LabelledImage, load_dataset, with_label_fixes
from scorekeeper.vision.detections import Detections
from scorekeeper.vision.processing import ALIGN, CROP, FINDER_MAX_SIDE, FINDER_SCALE, STRIDE, box_iou, crop_boxes, decode_finder, finder_input, suppress_overlaps
from scorekeeper.synthetic.render import render_with_visibility
from scorekeeper.synthetic.scene import random_scene
from scorekeeper.vision.reader import FINDER_FILE, PIPS_FILE, sha256_of

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TrainConfig:
    """Everything that decides the trained models (with the data folders and the code)."""

    seed: int = 2026
    """Seeds data rendering, augmentation, initialisation and batch order."""
    synthetic: int = 3000
    """Rendered training scenes."""
    photo_repeat: int = 6
    """How many times each real photo is cut into crops (with fresh jitter each time)."""
    finder_steps: int = 35000
    """Finder optimiser steps."""
    finder_batch: int = 16
    """Finder crops per step."""
    finder_crop: int = 160
    """Side of the finder's training crops, px at the finder's scale."""
    photo_share: float = 0.3
    """Share of finder crops taken from real photos (when any are given)."""
    photo_zoom: tuple[float, float] = (0.5, 3.0)
    """Each real photo's finder crop is zoomed by a factor drawn log-uniformly in this range, and
    each photo is mined once more resized by such a factor, so the finder learns real dice at the
    sizes a webcam sees (x3 covers the 150 px dice of a 640x480 webcam close to the table)."""
    reader_steps: int = 44000
    """Pip-reader optimiser steps."""
    reader_batch: int = 128
    """Crops per pip-reader step."""
    reader_width: int = 24
    """Channels of the pip reader's first layer (the others are 2, 4 and 6 times it)."""
    reader_photo_share: float = 0.4
    """Share of each pip-reader batch cut afresh from the real photos' dice (turned, resized; see
    ``fresh_photo_crops``), on top of the crops cut once before training."""
    squash: float = 1.33
    """Half the finder's windows and pip-reader crops are squashed in one direction by up to this
    factor (log-uniformly, either way): photos stretched to a square by their export, as dice3's and
    rune55's are, and webcams whose pixels are not square."""
    threads: int = 2
    """Torch threads of the training process: the cores of an otherwise idle machine. Where other
    work shares them, 1: torch's threads wait on each other for every operation."""
    bfloat16: bool = True
    """Run the networks' forward passes in bfloat16 where the CPU computes it natively (AVX512-BF16
    or AMX; fp32 elsewhere, said in the log). Weights, losses and the exported ONNX files stay fp32
    (the pip reader's is then quantized to int8: ``quantize``)."""
    workers: int = 2
    """Rendering processes (the training scenes, then the scenes the trained finder is mined on)."""
    device: str = "cpu"
    """Where the networks train: ``cpu`` (the recipe), or ``cuda`` on a machine with an accelerator.
    Both draw the same batches; the arithmetic differs, so the models do too."""
    prep_workers: int = 0
    """Processes that make the training batches (0: made between steps by the training process).
    Each batch comes from its own random numbers, so the same batches are drawn however many make
    them (a worker's sums run on one thread and may round differently in the last bit)."""
    mined_scenes: int = 1000
    """Fresh rendered scenes the trained finder is run on: its own boxes become pip-reader crops."""
    mined_photo_weight: int = 4
    """How many times crops at the finder's boxes on real photos are repeated."""
    mined_side_weight: int = 3
    """How many times the finder's finds beside a die (gaps between touching dice, half a die) are
    repeated as "not a die": the reader must refuse them however much they look like a face."""
    finder_threshold: float = 0.3
    """Written to the manifest: heatmap peaks at least this high are candidate dice."""
    unsure_line_scenes: int = SCENES
    """Rendered rolls the exported models' unsure line is chosen on (``unsure_line``)."""


def quick(config: TrainConfig) -> TrainConfig:
    """``config`` cut down to a smoke run: minutes, not a model to use. The finder gets enough
    steps to find some dice, or the int8 pip reader has no crops to be calibrated on."""
    return replace(config, synthetic=60, photo_repeat=1, finder_steps=400, reader_steps=30, mined_scenes=20, unsure_line_scenes=QUICK_SCENES)


def training_photos(folder: Path) -> list[LabelledImage]:
    """A photo folder's train split (all of it without a ``split.csv``) with the project's reviewed
    label fixes (``evaluation/label_fixes``): a die labelled 2 that shows 3 teaches the reader to miscount."""
    items = load_dataset(folder, split="train") if (folder / "split.csv").exists() else load_dataset(folder)
    return with_label_fixes(items, folder)[0]


def use_bfloat16(config: TrainConfig) -> bool:
    """Whether the forward passes run in bfloat16: asked for, and native on the device that trains
    (emulated bfloat16 would be slower than fp32)."""
    if config.device == "cuda":
        return config.bfloat16 and torch.cuda.is_bf16_supported()
    return config.bfloat16 and bool(torch.ops.mkldnn._is_mkldnn_bf16_supported())


def can_train_on(device: str) -> bool:
    """Whether torch can train on ``device`` (``cpu``, or ``cuda`` where it sees a CUDA device)."""
    return device != "cuda" or torch.cuda.is_available()


def device_name(config: TrainConfig) -> str:
    """The device the networks train on, in words, for the log and the manifest."""
    if config.device == "cuda":
        return f"{torch.cuda.get_device_name()} (CUDA)"
    return f"{machine_name()}, {config.threads} threads used"


class _Batches(torch.utils.data.Dataset[tuple[torch.Tensor, ...]]):
    """A training stage's batches from step ``first`` on: the ``step``-th is made by ``make`` from
    random numbers of its own (seeded by the run's seed, the stage and the step), so worker
    processes, and a run gone on from a checkpoint, make the same ones."""

    def __init__(self, steps: int, seed: int, stage: int, make: Callable[[np.random.Generator], tuple[torch.Tensor, ...]], first: int = 0) -> None:
        self.steps, self.seed, self.stage, self.make, self.first = steps, seed, stage, make, first

    def __len__(self) -> int:
        return self.steps - self.first

    def __getitem__(self, index: int) -> tuple[torch.Tensor, ...]:
        return self.make(np.random.default_rng([self.seed, self.stage, self.first + index]))


def batches(
    config: TrainConfig, steps: int, stage: int, make: Callable[[np.random.Generator], tuple[torch.Tensor, ...]], first: int = 0
) -> Iterator[tuple[torch.Tensor, ...]]:
    """The batches of a training stage's steps ``first`` to ``steps`` in order, on the training
    device, made by ``config.prep_workers`` forked processes (which share the training data
    without copying it).

    >>> draw = lambda rng: (torch.from_numpy(rng.integers(100, size=4)),)
    >>> here = [b[0].tolist() for b in batches(TrainConfig(), 5, 0, draw)]
    >>> here == [b[0].tolist() for b in batches(TrainConfig(prep_workers=2), 5, 0, draw)], len(set(map(tuple, here)))
    (True, 5)
    >>> here[2:] == [b[0].tolist() for b in batches(TrainConfig(), 5, 0, draw, first=2)]
    True
    """
    workers = config.prep_workers
    loader = torch.utils.data.DataLoader(
        _Batches(steps, config.seed, stage, make, first), batch_size=None, shuffle=False, num_workers=workers,
        pin_memory=config.device == "cuda", prefetch_factor=4 if workers else None,
        multiprocessing_context="fork" if workers else None,
    )
    threads = cv2.getNumThreads()
    # OpenCV's thread pool does not survive a fork (a forked worker's first call into it hangs):
    # one thread, so no pool, until the workers are done
    cv2.setNumThreads(1 if workers else threads)
    try:
        for batch in loader:
            yield tuple(t.to(config.device, non_blocking=True) for t in batch)
    finally:
        cv2.setNumThreads(threads)


def _seed_all(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def gather(config: TrainConfig, photo_folders: Sequence[Path], report: Callable[[str], None], corrections: Sequence[Path] = ()) -> Samples:
    """Render the synthetic scenes, cut the real photos' train split into samples and add the dice
    players corrected (pip reader only: a correction keeps the die, not the whole frame)."""
    samples = Samples()
    seeds = [config.seed * 1_000_003 + i for i in range(config.synthetic)]
    start = time.monotonic()
    context = multiprocessing.get_context("spawn")
    with context.Pool(config.workers) as pool:
        for i, part in enumerate(pool.imap(synthetic_samples, seeds, chunksize=16)):
            samples.extend(part)
            if (i + 1) % 500 == 0:
                report(f"rendered {i + 1}/{config.synthetic} scenes ({time.monotonic() - start:.0f} s)")
        cut = partial(photo_repeats, seed=config.seed, repeat=config.photo_repeat)
        for folder in photo_folders:
            items = training_photos(folder)
            report(f"{folder}: {len(items)} training photos, {sum(len(i.labels) for i in items)} dice")
            for item, (frame, part) in zip(items, pool.imap(cut, [(item, n) for n, item in enumerate(items)], chunksize=4)):
                samples.photos.append((frame, item.labels))
                samples.extend(part)
    for folder in corrections:
        samples.extend(corrections_samples(folder, config.seed, report))
    return samples


def _window(
    image: NDArray[np.uint8],
    boxes: NDArray[np.float32],
    ignore: NDArray[np.float32],
    crop: int,
    zoom: float,
    rng: np.random.Generator,
    aspect: float = 1.0,
) -> tuple[NDArray[np.uint8], NDArray[np.float32], NDArray[np.float32]]:
    """A random ``crop`` x ``crop`` window of a finder image seen at ``zoom`` (its pixels come from a
    ``crop / zoom`` square of the image; outside the image is black), with the boxes moved and
    scaled to match. ``aspect`` above 1 widens what the window sees across and narrows it down
    (square root each way): the image comes out squashed across by ``aspect``.

    >>> image = np.full((100, 100, 3), 9, np.uint8)
    >>> window, boxes, _ = _window(image, np.array([[40, 40, 60, 60]], np.float32), np.zeros((0, 4), np.float32), 100, 2.0, np.random.default_rng(0))
    >>> window.shape, (boxes[0, 2] - boxes[0, 0]).item()
    ((100, 100, 3), 40.0)
    >>> window, boxes, _ = _window(image, np.array([[40, 40, 60, 60]], np.float32), np.zeros((0, 4), np.float32), 100, 1.0, np.random.default_rng(0), 1.21)
    >>> window.shape, round((boxes[0, 3] - boxes[0, 1]).item() / (boxes[0, 2] - boxes[0, 0]).item(), 2)
    ((100, 100, 3), 1.21)
    """
    h, w = image.shape[:2]
    stretch = math.sqrt(aspect)
    side_x = crop if zoom == 1 and aspect == 1 else max(1, round(crop * stretch / zoom))
    side_y = crop if zoom == 1 and aspect == 1 else max(1, round(crop / stretch / zoom))
    x0 = int(rng.integers(min(0, w - side_x), max(0, w - side_x) + 1))
    y0 = int(rng.integers(min(0, h - side_y), max(0, h - side_y) + 1))
    sx0, sy0, sx1, sy1 = max(0, x0), max(0, y0), min(w, x0 + side_x), min(h, y0 + side_y)
    window = np.zeros((side_y, side_x, 3), np.uint8)
    window[sy0 - y0 : sy1 - y0, sx0 - x0 : sx1 - x0] = image[sy0:sy1, sx0:sx1]
    if (side_x, side_y) != (crop, crop):
        shrink = side_x * side_y > crop * crop
        window = np.asarray(cv2.resize(window, (crop, crop), interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR), np.uint8)
    shift, f = np.array([x0, y0, x0, y0], np.float32), np.array([crop / side_x, crop / side_y] * 2, np.float32)
    return window, (boxes - shift) * f, (ignore - shift) * f


def _squash(rng: np.random.Generator, squash: float) -> float:
    """An aspect for half the draws: log-uniform within ``squash`` either way; 1 for the rest."""
    if squash <= 1 or rng.random() < 0.5:
        return 1.0
    return math.exp(rng.uniform(-math.log(squash), math.log(squash)))


def _finder_batch(
    samples: Samples,
    indices: NDArray[np.int64],
    crop: int,
    rng: np.random.Generator,
    zoom: tuple[float, float] = (1.0, 1.0),
    squash: float = 1.0,
) -> tuple[torch.Tensor, ...]:
    n = len(indices)
    cells = crop // STRIDE
    images = np.zeros((n, 3, crop, crop), np.float32)
    heat = np.zeros((n, cells, cells), np.float32)
    weight = np.ones((n, cells, cells), np.float32)
    size = np.zeros((n, 2, cells, cells), np.float32)
    offset = np.zeros((n, 2, cells, cells), np.float32)
    centre = np.zeros((n, cells, cells), np.float32)
    yy, xx = np.mgrid[0:cells, 0:cells].astype(np.float32) + 0.5
    for k, i in enumerate(indices):
        # real photos hold dice of one size: zoomed, they teach the finder every size a webcam sees
        z = math.exp(rng.uniform(math.log(zoom[0]), math.log(zoom[1]))) if samples.real[i] and zoom != (1.0, 1.0) else 1.0
        window, boxes, ignore = _window(samples.images[i], samples.boxes[i], samples.ignore[i], crop, z, rng, _squash(rng, squash))
        # flips and quarter turns: dice look the same every way up, except that a tilted camera
        # sees each die's side faces below its top face
        turn = 0 if samples.upright[i] else int(rng.integers(4))
        flip = bool(rng.integers(2))
        # turned while still bytes: a quarter of the memory to move
        np.divide(_orient(window, turn, flip).transpose(2, 0, 1), np.float32(255), out=images[k])
        boxes, ignore = _orient_boxes(boxes, crop, turn, flip), _orient_boxes(ignore, crop, turn, flip)
        for bx in ignore / STRIDE:
            weight[k, max(0, int(bx[1])) : max(0, int(math.ceil(bx[3]))), max(0, int(bx[0])) : max(0, int(math.ceil(bx[2])))] = 0
        for bx in boxes / STRIDE:
            cx, cy = (bx[0] + bx[2]) / 2, (bx[1] + bx[3]) / 2
            bw, bh = bx[2] - bx[0], bx[3] - bx[1]
            if not (0 <= cx < cells and 0 <= cy < cells) or bw <= 0 or bh <= 0:
                # a die whose centre is outside the crop: its cut edge is neither die nor not-die
                weight[k, max(0, int(bx[1])) : max(0, int(math.ceil(bx[3]))), max(0, int(bx[0])) : max(0, int(math.ceil(bx[2])))] = 0
                continue
            sigma = max(0.5, min(bw, bh) / 6)
            g = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * sigma**2))
            heat[k] = np.maximum(heat[k], g)
            ix, iy = int(cx), int(cy)
            heat[k, iy, ix] = 1.0
            centre[k, iy, ix] = 1.0
            size[k, :, iy, ix] = np.log([bw, bh])
            offset[k, :, iy, ix] = [cx - ix - 0.5, cy - iy - 0.5]
    x = _photometric(torch.from_numpy(images), rng)
    return x, torch.from_numpy(heat), torch.from_numpy(weight), torch.from_numpy(size), torch.from_numpy(offset), torch.from_numpy(centre)


_QUARTER_TURNS = (None, cv2.ROTATE_90_COUNTERCLOCKWISE, cv2.ROTATE_180, cv2.ROTATE_90_CLOCKWISE)
"""``cv2.rotate``'s codes for ``np.rot90``'s 0-3 counter-clockwise quarter turns: OpenCV turns a
160 px window a quarter turn in 16-20 us, numpy's copy of its 3-byte pixels takes 180-230."""


def _orient(image: NDArray[np.uint8], turn: int, flip: bool) -> NDArray[np.uint8]:
    """``image`` mirrored left to right if ``flip``, then turned ``turn`` quarter turns counter-clockwise.

    >>> image = np.arange(12, dtype=np.uint8).reshape(2, 2, 3)
    >>> all(np.array_equal(_orient(image, t, f), np.rot90(image[:, ::-1] if f else image, t)) for t in range(4) for f in (False, True))
    True
    """
    if flip:
        image = np.asarray(cv2.flip(image, 1), np.uint8)
    code = _QUARTER_TURNS[turn]
    return image if code is None else np.asarray(cv2.rotate(image, code), np.uint8)


def _orient_boxes(boxes: NDArray[np.float32], side: int, turn: int, flip: bool) -> NDArray[np.float32]:
    b = boxes.copy()
    if flip:
        b[:, [0, 2]] = side - boxes[:, [2, 0]]
    for _ in range(turn):
        # np.rot90 turns counter-clockwise: (x, y) -> (y, side - x)
        b = np.stack([b[:, 1], side - b[:, 2], b[:, 3], side - b[:, 0]], 1)
    return b.astype(np.float32)


def _photometric(x: torch.Tensor, rng: np.random.Generator) -> torch.Tensor:
    """Light, colour and sensor changes per image, on a (n, 3, h, w) batch in 0-1. The same numbers
    come out whatever the batch's memory order (a turned batch is a strided view):

    >>> batch = torch.rot90(torch.rand(4, 3, 16, 16, generator=torch.Generator().manual_seed(0)), 1, (2, 3))
    >>> torch.equal(_photometric(batch, np.random.default_rng(0)), _photometric(batch.contiguous(), np.random.default_rng(0)))
    True
    """
    n = x.shape[0]
    gen = torch.Generator().manual_seed(int(rng.integers(2**31)))
    perm = [list(rng.permutation(3)) if rng.random() < 0.5 else [0, 1, 2] for _ in range(n)]
    # contiguous whatever way up the batch was turned: the sums below (each image's mean) add in
    # memory order, and a given seed must keep training the same model
    x = x[torch.arange(n).view(n, 1), torch.tensor(perm)].contiguous()
    # Grey and inverted images are a tenth each: changed alone, not chosen by torch.where from two
    # whole changed batches (6 ms of the 27 a finder batch took to make).
    gray = torch.from_numpy(rng.random(n) < 0.1)
    if gray.any():
        x[gray] = x[gray].mean(1, keepdim=True).expand(-1, x.shape[1], -1, -1)
    invert = torch.from_numpy(rng.random(n) < 0.1)
    if invert.any():
        x[invert] = 1 - x[invert]
    gain = torch.from_numpy(rng.uniform(0.5, 1.5, (n, 1, 1, 1)).astype(np.float32))
    tint = torch.from_numpy(rng.uniform(0.85, 1.15, (n, 3, 1, 1)).astype(np.float32))
    mean = x.mean((1, 2, 3), keepdim=True)
    contrast = torch.from_numpy(rng.uniform(0.6, 1.4, (n, 1, 1, 1)).astype(np.float32))
    # In place from here: the same arithmetic in the same order as out-of-place, a third faster
    # (fresh tensors of a whole batch cost more than the sums), so a given seed trains the same model.
    x = x.sub_(mean).mul_(contrast).add_(mean).mul_(gain).mul_(tint)
    gamma = torch.from_numpy(rng.uniform(0.7, 1.4, (n, 1, 1, 1)).astype(np.float32))
    x = x.clamp_(1e-4, 1).pow_(gamma)
    noise = torch.from_numpy(rng.uniform(0, 0.04, (n, 1, 1, 1)).astype(np.float32))
    x = x.add_(torch.randn(x.shape, generator=gen).mul_(noise))
    return x.clamp_(0, 1)


def _focal(pred: torch.Tensor, target: torch.Tensor, weight: torch.Tensor, centre: torch.Tensor) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss on the heatmap."""
    p = pred.clamp(1e-4, 1 - 1e-4)
    pos = centre * torch.log(p) * (1 - p) ** 2
    neg = (1 - centre) * weight * (1 - target) ** 4 * torch.log(1 - p) * p**2
    return -(pos.sum() + neg.sum()) / centre.sum().clamp(min=1)


def stage_steps(config: TrainConfig) -> dict[str, int]:
    """Each trained stage's optimiser steps in ``config``, by the stage's name (``checkpoint.STAGES``)."""
    return {"finder": config.finder_steps, "reader": config.reader_steps}


class SittingOver(Exception):
    """A sitting's time is spent: the checkpoint holds the run up to ``place``."""

    def __init__(self, place: Place) -> None:
        super().__init__(place)
        self.place = place


class Checkpoints:
    """A run's checkpoint in ``folder``: where the run goes on from, written every ``SAVE_EVERY``
    steps, at the end of each stage and at the end of the sitting (then :class:`SittingOver`)."""

    def __init__(self, folder: Path, config: TrainConfig, data: str, sitting: Sitting, report: Callable[[str], None]) -> None:
        self.path = folder / CHECKPOINT_FILE
        self.recipe = recipe_of(asdict(config))
        self.steps = stage_steps(config)
        """Each stage's steps in the recipe."""
        self.data = data
        self.sitting = sitting
        self.report = report
        self.saved: dict[str, Any] = self._read() if self.path.exists() else {}
        self.place = check_resumable(self.path, self.saved, self.recipe, data) if self.saved else Place("finder", 0)
        self.finder: dict[str, torch.Tensor] | None = self.saved["finder"] if self.place.stage == "reader" else None
        self.seconds_before = float(self.saved.get("seconds", 0.0))
        self._start = time.monotonic()

    def _read(self) -> dict[str, Any]:
        data = read_file(self.path, "training checkpoint", CheckpointError, limit=MAX_CHECKPOINT_BYTES)
        try:
            saved = torch.load(io.BytesIO(data), map_location="cpu", weights_only=True)
        except Exception as exc:
            raise CheckpointError(f"{self.path} cannot be read as a training checkpoint ({exc}): start afresh with another --checkpoint folder") from exc
        if not isinstance(saved, dict):
            raise CheckpointError(f"{self.path} is not a training checkpoint: start afresh with another --checkpoint folder")
        return saved

    def restore(self, stage: str, model: nn.Module, opt: torch.optim.Optimizer, sched: torch.optim.lr_scheduler.LRScheduler) -> int:
        """Load ``stage``'s saved states where the checkpoint stands in that stage; the steps it has done."""
        if not self.saved or self.place.stage != stage:
            return 0
        try:
            model.load_state_dict(self.saved[stage])
            opt.load_state_dict(self.saved[f"{stage}_optimiser"])
            sched.load_state_dict(self.saved[f"{stage}_schedule"])
        except (KeyError, RuntimeError, ValueError) as exc:
            raise CheckpointError(f"{self.path} holds no usable {stage} ({exc}): it is damaged; start afresh with another --checkpoint folder") from exc
        self.report(f"going on from {self.path} at {self.place.in_words(self.steps)}")
        return self.place.step

    def saved_finder(self, device: str) -> Finder:
        """The finder the checkpoint holds, trained in an earlier sitting, on ``device``."""
        finder = Finder().to(device)
        try:
            finder.load_state_dict(self.finder or {})
        except RuntimeError as exc:
            raise CheckpointError(f"{self.path} holds no usable finder ({exc}): it is damaged; start afresh with another --checkpoint folder") from exc
        return finder.eval()

    def trained_finder(self, finder: Finder) -> None:
        """Keep the trained finder: every checkpoint of the pip reader's stage holds it."""
        self.finder = finder.state_dict()

    def after_step(self, stage: str, step: int, total: int, model: nn.Module, opt: torch.optim.Optimizer, sched: torch.optim.lr_scheduler.LRScheduler) -> None:
        """Write the checkpoint where it is due after ``step`` of ``stage``; raise :class:`SittingOver` when the sitting is."""
        over = self.sitting.over()
        if step % SAVE_EVERY == 0 or step == total or over:
            states: dict[str, Any] = {stage: model.state_dict(), f"{stage}_optimiser": opt.state_dict(), f"{stage}_schedule": sched.state_dict()}
            if stage == "reader":
                states["finder"] = self.finder
            self._write(Place(stage, step), states)
        if over and step < total:
            raise SittingOver(Place(stage, step))

    def _write(self, place: Place, states: dict[str, Any]) -> None:
        buffer = io.BytesIO()
        seconds = self.seconds_before + time.monotonic() - self._start
        torch.save({"format": FORMAT, "recipe": self.recipe, "data": self.data, "stage": place.stage, "step": place.step, "seconds": seconds, **states}, buffer)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(self.path, buffer.getvalue())
        self.place = place


def train_finder(samples: Samples, config: TrainConfig, report: Callable[[str], None], saves: Checkpoints | None = None) -> Finder:
    bfloat16 = use_bfloat16(config)
    model = Finder().to(config.device)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=config.finder_steps, pct_start=max(0.05, 3 / config.finder_steps))
    first = saves.restore("finder", model, opt, sched) if saves else 0
    real = np.array(samples.real, bool)
    synth = np.nonzero(~real)[0]
    photos = np.nonzero(real)[0]
    n_photo = int(round(config.finder_batch * config.photo_share)) if len(photos) else 0

    def draw(rng: np.random.Generator) -> tuple[torch.Tensor, ...]:
        idx = np.concatenate([rng.choice(synth, config.finder_batch - n_photo), rng.choice(photos, n_photo) if n_photo else np.zeros(0, np.int64)])
        return _finder_batch(samples, idx, config.finder_crop, rng, config.photo_zoom, config.squash)

    start = time.monotonic()
    model.train()
    for step, (x, heat, weight, size, offset, centre) in enumerate(batches(config, config.finder_steps, 1, draw, first), start=first):
        with torch.autocast(config.device, torch.bfloat16, enabled=bfloat16):
            out = model(x).float()
        loss_heat = _focal(out[:, 0], heat, weight, centre)
        m = centre.unsqueeze(1)
        denom = centre.sum().clamp(min=1)
        loss_size = (torch.abs(out[:, 1:3] - size) * m).sum() / denom
        loss_off = (torch.abs(out[:, 3:5] - offset) * m).sum() / denom
        loss = loss_heat + loss_size + loss_off
        opt.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]
        opt.step()
        sched.step()
        if (step + 1) % 250 == 0:
            report(f"finder step {step + 1}/{config.finder_steps}: heat {loss_heat.item():.3f} size {loss_size.item():.3f} offset {loss_off.item():.3f} ({time.monotonic() - start:.0f} s)")
        if saves:
            saves.after_step("finder", step + 1, config.finder_steps, model, opt, sched)
    return model.eval()


def mine(finder: Finder, config: TrainConfig, photo_folders: Sequence[Path], report: Callable[[str], None]) -> Samples:
    """Crops at the trained finder's own boxes (at a low threshold): its false finds become "not a
    die" (the tray's holes, clutter, and boxes centred off every labelled die), its hits
    keep their label. The pip reader then learns on the boxes it will really be given."""
    out = Samples()

    def harvest(frame: NDArray[np.uint8], labels: Detections, usable: NDArray[np.bool_], repeat: int) -> None:
        tensor, scale = finder_input(frame)
        with torch.no_grad():
            maps = finder(torch.from_numpy(tensor).to(config.device)).float().cpu().numpy()
        boxes, scores = decode_finder(maps, scale, (frame.shape[0], frame.shape[1]), 0.1)
        boxes = boxes[suppress_overlaps(boxes, scores, 0.5)]
        if not len(boxes):
            return
        if len(labels):
            overlap = box_iou(boxes, labels.boxes)
            best, which = overlap.max(1), overlap.argmax(1)
        else:
            best, which = np.zeros(len(boxes), np.float32), np.zeros(len(boxes), np.int64)
        hit = (best >= 0.5) & (usable[which] if len(labels) else False)
        # a box centred off every labelled die is a gap or half a die whatever it overlaps
        off_face = off_every_face(boxes, labels.boxes)
        miss = (best < 0.2) | ((best < 0.5) & off_face)
        keep = hit | miss
        if not keep.any():
            return
        classes = np.where(hit, labels.values[which] if len(labels) else 0, 0)[keep]
        crops = crop_boxes(frame, boxes[keep])
        for _ in range(repeat):
            out.crops.append(crops)
            out.classes.append(classes.astype(np.int64))
        # finds beside a die, between dice or on half of one: the costly false dice of crowded tables
        beside = (miss & (best > 0) & off_face)[keep]
        for _ in range(repeat * (config.mined_side_weight - 1) if beside.any() else 0):
            out.crops.append(crops[beside])
            out.classes.append(np.zeros(int(beside.sum()), np.int64))

    lo, hi = np.log(config.photo_zoom)
    for folder in photo_folders:
        for n, item in enumerate(training_photos(folder)):
            frame = item.load()
            harvest(frame, item.labels, np.ones(len(item.labels), bool), config.mined_photo_weight)
            # the finder's finds on the photo at another size: specks of the table blown up, dice boxed too small
            if config.photo_zoom != (1.0, 1.0):
                zoomed, labels = resized(frame, item.labels, float(np.exp(np.random.default_rng([config.seed, 4, n]).uniform(lo, hi))))
                harvest(zoomed, labels, np.ones(len(labels), bool), config.mined_photo_weight)
    seeds = [[config.seed, 3, i] for i in range(config.mined_scenes)]
    with multiprocessing.get_context("spawn").Pool(config.workers) as pool:
        for frame, labels, usable in pool.imap(mining_scene, seeds, chunksize=8):
            harvest(frame, labels, usable, 1)
    classes = np.concatenate(out.classes) if out.classes else np.zeros(0, np.int64)
    report(f"mined {len(classes)} crops at the finder's boxes, {int((classes == 0).sum())} of them not dice")
    return out


def mining_scene(seed: list[int]) -> tuple[NDArray[np.uint8], Detections, NDArray[np.bool_]]:
    """A fresh rendered scene to mine (a worker's unit of work): the frame, its labels, and which
    dice are seen clearly enough to demand a value for (well in view and at rest)."""
    scene = random_scene(np.random.default_rng(seed))
    frame, labels, visible, index = render_with_visibility(scene, whole_die=True)
    moving = np.array([scene.dice[j].moving for j in index], bool)
    return frame, labels, (visible > 0.6) & ~moving


def _reader_augment(crops: NDArray[np.uint8], rng: np.random.Generator, squash: float = 1.0) -> torch.Tensor:
    x = torch.from_numpy(crops).permute(0, 3, 1, 2).float() / 255
    turn = int(rng.integers(4))
    x = torch.rot90(x, turn, (2, 3))
    if rng.random() < 0.5:
        x = torch.flip(x, (3,))
    if squash > 1:
        x = _squashed(x, np.array([_squash(rng, squash) for _ in range(len(x))], np.float32))
    # small blur on some crops: out-of-focus webcams
    blur = torch.from_numpy(rng.random(len(x)) < 0.15)
    if blur.any():
        x[blur] = nn.functional.avg_pool2d(nn.functional.pad(x[blur], (1, 1, 1, 1), mode="replicate"), 3, 1)
    return _photometric(x, rng)


def _squashed(x: torch.Tensor, aspect: NDArray[np.float32]) -> torch.Tensor:
    """Each crop resampled about its centre squashed across by its ``aspect`` (square root each
    way, as ``_window`` does), the border repeated where it reaches past the crop.

    >>> x = torch.zeros(1, 1, 8, 8); x[..., 2:6, 2:6] = 1
    >>> die = _squashed(x, np.array([4.0], np.float32))[0, 0] > 0.5
    >>> die.sum(0).tolist(), die.sum(1).tolist()
    ([0, 0, 0, 8, 8, 0, 0, 0], [2, 2, 2, 2, 2, 2, 2, 2])
    """
    if np.all(aspect == 1):
        return x
    stretch = torch.from_numpy(np.sqrt(aspect)).float()
    theta = torch.zeros(len(x), 2, 3)
    theta[:, 0, 0] = stretch
    theta[:, 1, 1] = 1 / stretch
    grid = nn.functional.affine_grid(theta, list(x.shape), align_corners=False)
    return nn.functional.grid_sample(x, grid, mode="bilinear", padding_mode="border", align_corners=False)


def train_reader(samples: Samples, config: TrainConfig, report: Callable[[str], None], saves: Checkpoints | None = None) -> PipReader:
    bfloat16 = use_bfloat16(config)
    crops = np.concatenate(samples.crops)
    classes = np.concatenate(samples.classes)
    report(f"pip reader: {len(crops)} crops, per class {np.bincount(classes, minlength=7).tolist()}")
    # the reader's start must not hang on how many random numbers the finder's training drew
    torch.manual_seed(config.seed + 2)
    model = PipReader(config.reader_width).to(config.device)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=config.reader_steps, pct_start=max(0.05, 3 / config.reader_steps))
    first = saves.restore("reader", model, opt, sched) if saves else 0
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.02)
    start = time.monotonic()
    model.train()
    fresh = round(config.reader_batch * config.reader_photo_share) if samples.photos else 0

    def draw(rng: np.random.Generator) -> tuple[torch.Tensor, ...]:
        idx = rng.integers(0, len(crops), config.reader_batch - fresh)
        photo_crops, photo_classes = fresh_photo_crops(samples.photos, fresh, rng)
        x = _reader_augment(np.concatenate([crops[idx], photo_crops]), rng, config.squash)
        return x, torch.from_numpy(np.concatenate([classes[idx], photo_classes]))

    for step, (x, y) in enumerate(batches(config, config.reader_steps, 2, draw, first), start=first):
        with torch.autocast(config.device, torch.bfloat16, enabled=bfloat16):
            logits = model(x).float()
        loss = loss_fn(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if (step + 1) % 250 == 0:
            report(f"pip reader step {step + 1}/{config.reader_steps}: loss {loss.item():.4f} ({time.monotonic() - start:.0f} s)")
        if saves:
            saves.after_step("reader", step + 1, config.reader_steps, model, opt, sched)
    return model.eval()


def export(finder: Finder, reader: PipReader, out_dir: Path, config: TrainConfig, extra: dict[str, object]) -> None:
    """Write both ONNX files and the manifest (checksums, thresholds) the reader checks at load."""
    out_dir.mkdir(parents=True, exist_ok=True)
    finder, reader = finder.cpu(), reader.cpu()
    with tempfile.TemporaryDirectory() as scratch, torch.no_grad():
        exported_finder, exported_pips = Path(scratch) / FINDER_FILE, Path(scratch) / PIPS_FILE
        torch.onnx.export(
            finder, (torch.zeros(1, 3, 15 * ALIGN, 20 * ALIGN),), str(exported_finder),
            input_names=["frame"], output_names=["maps"], opset_version=17, dynamo=False,
            dynamic_axes={"frame": {2: "height", 3: "width"}, "maps": {2: "cells_y", 3: "cells_x"}},
        )
        torch.onnx.export(
            reader, (torch.zeros(4, 3, CROP, CROP),), str(exported_pips),
            input_names=["crops"], output_names=["logits"], opset_version=17, dynamo=False,
            dynamic_axes={"crops": {0: "dice"}, "logits": {0: "dice"}},
        )
        write_atomically(out_dir / FINDER_FILE, exported_finder.read_bytes())
        write_atomically(out_dir / PIPS_FILE, exported_pips.read_bytes())
    manifest = {
        "finder": {"file": FINDER_FILE, "sha256": sha256_of(out_dir / FINDER_FILE)},
        "pips": {"file": PIPS_FILE, "sha256": sha256_of(out_dir / PIPS_FILE)},
        "config": asdict(config),
        **extra,
    }
    write_manifest(out_dir, manifest)


@dataclass(frozen=True)
class Progress:
    """How a call of :func:`run_training` ended."""

    seconds: float
    """Seconds trained, over every sitting of the run where it went on from a checkpoint."""
    stopped_at: Place | None
    """Where the sitting stopped, the checkpoint holding the run there; None once the models are exported."""


def run_training(
    config: TrainConfig,
    photo_folders: Sequence[Path],
    out_dir: Path,
    report: Callable[[str], None],
    corrections: Sequence[Path] = (),
    checkpoint: Path | None = None,
    sitting_minutes: float | None = None,
) -> Progress:
    """Train both models, export them into ``out_dir`` and choose their unsure line there.

    With a ``checkpoint`` folder the run goes on from the checkpoint there (the same recipe and
    data, else :class:`CheckpointError`), writes it as it trains, and stops at the first checkpoint
    after ``sitting_minutes``, to go on in the next sitting.
    """
    start = time.monotonic()
    torch.set_num_threads(config.threads)
    _seed_all(config.seed)
    photos = [training_photos(folder) for folder in photo_folders]
    saves = Checkpoints(checkpoint, config, data_fingerprint(photos, corrections), Sitting(sitting_minutes), report) if checkpoint else None
    before = saves.seconds_before if saves else 0.0
    precision = "bfloat16" if use_bfloat16(config) else "fp32"
    report(f"training on {device_name(config)}, forward passes in {precision}" + (" (no native bfloat16 there)" if config.bfloat16 and precision == "fp32" else ""))
    samples = gather(config, photo_folders, report, corrections)
    report(f"data ready: {len(samples.images)} finder images, {sum(len(c) for c in samples.crops)} crops ({time.monotonic() - start:.0f} s)")
    try:
        finder = saves.saved_finder(config.device) if saves and saves.finder is not None else train_finder(samples, config, report, saves)
        if saves:
            saves.trained_finder(finder)
        samples.extend(mine(finder, config, photo_folders, report))
        reader = train_reader(samples, config, report, saves)
    except SittingOver as over:
        seconds = before + time.monotonic() - start
        report(f"sitting over at {over.place.in_words(stage_steps(config))} after {seconds / 60:.1f} min of training in all; the same command goes on from {checkpoint}")
        return Progress(seconds, over.place)
    export(finder, reader, out_dir, config, {
        "finder_threshold": config.finder_threshold,
        "finder_scale": FINDER_SCALE, "finder_max_side": FINDER_MAX_SIDE,
        "train_machine": f"{device_name(config)}, forward passes in {precision}",
    })
    crops = quantize_reader(out_dir, calibration_frames(config.seed, [item for items in photos for item in items]))
    add_embedding_output(out_dir)
    seconds = before + time.monotonic() - start
    update_manifest(out_dir, {"train_seconds": round(seconds)})
    report(f"pip reader quantized to int8 on {crops} calibration crops; exported to {out_dir} after {seconds / 60:.1f} min")
    choose_unsure_line(out_dir, config.unsure_line_scenes, config.threads, report)
    return Progress(seconds, None)
