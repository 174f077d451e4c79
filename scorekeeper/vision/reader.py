"""The ONNX dice reader: finds every die in a frame, then reads each one's pips.

Two models from ``models/`` (see models/README.md): the finder, a tiny CenterNet-style network on
the frame scaled down (to the scale its manifest names), and the pip reader, a small classifier over a full-resolution crop of each
found die that also says "not a die". Sessions are created once; threads and providers are set
explicitly; the manifest's SHA-256 of each file is checked at load.
"""

from __future__ import annotations

import hashlib
import logging
import os
import sysconfig
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from scorekeeper.safe_input import check_folder, parse_json, read_file, read_text
from scorekeeper.vision.detections import Detections
from scorekeeper.vision.table_head import TableHead, read_with_head
from scorekeeper.vision.processing import (
    ALIGN,
    CROP,
    VIEWS,
    WEAK_FIND,
    Finds,
    crop_boxes,
    decode_finder,
    finder_input,
    finder_scale,
    dihedral_views,
    pips_input,
    read_finds,
    reader_input,
    softmax,
    suppress_overlaps,
)

log = logging.getLogger(__name__)

FINDER_FILE = "finder.onnx"
"""The dice finder's file name in a model folder."""
PIPS_FILE = "pips.onnx"
"""The pip reader's file name in a model folder."""
EMBEDDING_OUTPUT = "embedding"
"""The pip reader's second output: each crop's embedding, which a table's learned head reads."""
MANIFEST_FILE = "manifest.json"
"""The model folder's manifest: file names, SHA-256 and thresholds, written by ``scorekeeper train``."""
UNSURE_LINE_FILE = "unsure_line.json"
"""The model folder's unsure line, chosen on the exported models by training (``training/unsure_line.py``)."""
CHOOSE_LINE_HINT = "choose it with `scorekeeper train --choose-unsure-line --out FOLDER` or restore it with `git checkout -- models/`"
MAX_MANIFEST_BYTES = 1_000_000
"""The largest model manifest read (the committed one takes about 1 KB)."""
MAX_MODEL_BYTES = 100_000_000
"""The largest model file read: the committed ones take under 400 KB each."""
MAX_DICE = 64
"""At most this many dice are read in one frame (the best-scored ones)."""
FINDER_DIE = 32.0
"""A die's edge in the finder's input, px, where the table's die size is known (``die_size``)."""
RESTORE_HINT = "restore it with `git checkout -- models/` or retrain it with `scorekeeper train` (needs the train extra)"


class ModelError(ValueError):
    """A model folder or file that is missing, damaged or not a dice model."""


class ReaderError(RuntimeError):
    """The ONNX runtime failed while reading a frame."""


def sha256_of(path: Path) -> str:
    """Hex SHA-256 of a file."""
    digest = hashlib.sha256()
    with Path(path).open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def default_model_dir() -> Path:
    """Where the committed models are: ``models/`` of a source checkout (also an editable
    install), else the copy a wheel install puts in ``<prefix>/share/scorekeeper/models``."""
    candidates = [Path(__file__).resolve().parents[2] / "models"]
    for scheme in (None, f"{os.name}_user"):
        try:
            data = sysconfig.get_path("data") if scheme is None else sysconfig.get_path("data", scheme)
        except KeyError:
            continue
        candidates.append(Path(data) / "share" / "scorekeeper" / "models")
    for candidate in candidates:
        if (candidate / MANIFEST_FILE).is_file():
            return candidate
    return candidates[0]


@dataclass(frozen=True)
class ModelFiles:
    """A checked model folder: both ONNX files and the thresholds they were tuned with."""

    finder: Path
    """The dice finder."""
    pips: Path
    """The pip reader."""
    finder_threshold: float
    """Heatmap peaks at least this high are candidate dice."""
    unsure_below: float
    """Dice read with less confidence are reported unsure: the line chosen for these models
    (``unsure_line.json``), unless another was given at load."""
    finder_scale: float = 0.5
    """The finder looks at the frame resized by this factor at most, as in its training."""
    finder_max_side: int = 640
    """... and at most this long a side. The defaults are those of models whose manifest predates
    both entries."""
    pips_sha256: str = ""
    """The pip reader file's SHA-256, as checked at load: what a table learned is tied to it."""

    @classmethod
    def load(cls, folder: Path | None = None, unsure_below: float | None = None) -> ModelFiles:
        """Read the manifest, check both files' SHA-256 and read the line chosen for them (not read
        where ``unsure_below`` is given in its place: training chooses the line with such a reader)."""
        folder = default_model_dir() if folder is None else Path(folder)
        if folder.is_file() and folder.name == MANIFEST_FILE:
            folder = folder.parent
        if os.path.lexists(folder):
            check_folder(folder, "model folder", ModelError)
        manifest_path = folder / MANIFEST_FILE
        manifest = _json_record(
            manifest_path, f"no dice model at {folder}: {MANIFEST_FILE} is missing", "model manifest", "damaged model manifest", RESTORE_HINT
        )
        try:
            entries = {key: (folder / manifest[key]["file"], str(manifest[key]["sha256"])) for key in ("finder", "pips")}
            finder_threshold = float(manifest["finder_threshold"])
            scale = float(manifest.get("finder_scale", cls.finder_scale))
            max_side = int(manifest.get("finder_max_side", cls.finder_max_side))
        except (ValueError, KeyError, TypeError) as exc:
            raise ModelError(f"damaged model manifest {manifest_path} ({exc!r}); {RESTORE_HINT}") from None
        for path, expected in entries.values():
            if not os.path.lexists(path):
                raise ModelError(f"model file {path} is missing; {RESTORE_HINT}")
            actual = hashlib.sha256(read_file(path, "model file", ModelError, MAX_MODEL_BYTES)).hexdigest()
            if actual != expected:
                raise ModelError(f"model file {path} is damaged: SHA-256 {actual[:16]}... is not the expected {expected[:16]}...; {RESTORE_HINT}")
        if not (0 < scale <= 1 and max_side >= ALIGN):
            raise ModelError(f"damaged model manifest {manifest_path}: finder scale {scale} or side {max_side} is out of range; {RESTORE_HINT}")
        if unsure_below is None:
            unsure_below = unsure_line_record(folder)[0]
        return cls(entries["finder"][0], entries["pips"][0], finder_threshold, unsure_below, scale, max_side, entries["pips"][1])


def _json_record(path: Path, missing: str, what: str, damaged: str, hint: str) -> Any:
    """The JSON a model folder keeps at ``path`` (the manifest, the unsure line), read within bounds;
    a file that is missing (``missing``), unreadable or not JSON (``damaged``) is a :class:`ModelError`
    that ends with ``hint``, saying how to restore it."""
    if not os.path.lexists(path):
        raise ModelError(f"{missing}; {hint}")
    try:
        text = read_text(path, what, ModelError, limit=MAX_MANIFEST_BYTES)
    except ModelError as exc:
        raise ModelError(f"{exc}; {hint}") from None
    return parse_json(text, f"{damaged} {path}", ModelError)


def unsure_line_record(folder: Path) -> tuple[float, Any]:
    """The unsure line chosen for the models in ``folder`` and the whole record training wrote of it
    (``unsure_line.json``), checked as the manifest is: present, whole, within bounds, and its line a
    share from 0 to 1. The one place the file is read."""
    path = folder / UNSURE_LINE_FILE
    record = _json_record(
        path, f"the model folder {folder} has no unsure line: {UNSURE_LINE_FILE} is missing", "model's unsure line", "damaged unsure line", CHOOSE_LINE_HINT
    )
    try:
        line = float(record["line"])
    except (ValueError, KeyError, TypeError) as exc:
        raise ModelError(f"damaged unsure line {path} ({exc!r}); {CHOOSE_LINE_HINT}") from None
    if not 0 <= line <= 1:
        raise ModelError(f"damaged unsure line {path}: the line {line} is not a share from 0 to 1; {CHOOSE_LINE_HINT}")
    return line, record


def _session(path: Path, threads: int, input_name: str) -> Any:
    # onnxruntime otherwise keeps a device id and an event cache in ~/.cache/Microsoft on every read;
    # this switch, read once when it starts, turns that off (onnxruntime 1.20 and later).
    os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
    import onnxruntime as ort  # type: ignore[import-untyped]

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.log_severity_level = 3
    # The finder's and the pip reader's pools take turns; a pool spinning after its run starves the
    # other on a 2-core laptop (reads took 14 ms at 640x480 with spinning, 5 ms without).
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    available = ort.get_available_providers()
    providers = ["CPUExecutionProvider"] if "CPUExecutionProvider" in available else available[:1]
    if providers != ["CPUExecutionProvider"]:
        log.warning("CPUExecutionProvider is not available; falling back to %s", providers)
    try:
        session = ort.InferenceSession(str(path), sess_options=options, providers=providers)
    except Exception as exc:  # onnxruntime raises its own untyped errors
        raise ModelError(f"cannot load model {path}: {exc}; {RESTORE_HINT}") from None
    inputs = [node.name for node in session.get_inputs()]
    if inputs != [input_name]:
        raise ModelError(
            f"model {path} is not the kind expected there: it takes {', '.join(inputs) or 'no input'}, "
            f"where this one must take {input_name!r}; {RESTORE_HINT}"
        )
    return session


class OnnxDiceReader:
    """Reads the dice in BGR uint8 frames with the project's two ONNX models; opened by
    :func:`open_reader` alone.

    ``model_dir`` defaults to the committed models; ``threads`` is onnxruntime's intra-op thread
    count (2 suits a laptop that also runs the window); ``unsure_below`` is a line to hold the dice
    to in place of the one chosen for the models (their ``unsure_line.json`` is then not read).
    """

    def __init__(self, model_dir: Path | None = None, threads: int = 2, unsure_below: float | None = None) -> None:
        self.files = ModelFiles.load(model_dir, unsure_below)
        self._finder = _session(self.files.finder, threads, "frame")
        self._pips = _session(self.files.pips, threads, "crops")
        outputs = {node.name: node.shape for node in self._pips.get_outputs()}
        self._embeds = EMBEDDING_OUTPUT in outputs
        width = outputs.get(EMBEDDING_OUTPUT, [None, 0])[-1]
        self._width = width if isinstance(width, int) else int(self._pips.run(None, {"crops": np.zeros((1, 3, CROP, CROP), np.float32)})[1].shape[1])
        self.unsure_below = self.files.unsure_below
        """Dice read with less confidence are reported unsure."""
        self.die_size = 0.0
        """A die's edge in frame pixels at this table (0: not known): the finder then looks at
        the frame scaled so that a die is ``FINDER_DIE`` pixels across, or less where the model's
        own scale is smaller."""
        self.learned: TableHead | None = None
        """What the table taught: while set, its head's say is added to the pip reader's
        (``TableHead.adjust``). Set by the table's learner between reads."""

    @property
    def can_learn(self) -> bool:
        """Whether the pip reader gives its embedding (models exported since the table learns)."""
        return self._embeds

    def find(
        self, frame: NDArray[np.uint8], threshold: float | None = None, die_size: float | None = None
    ) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        """Stage 1 alone: the candidate dice's boxes in one BGR frame and the finder's scores, best
        first, before the pip reader has its say. Peaks at least ``threshold`` high (default: the
        finder's own, as the reader's int8 file was calibrated on); ``die_size`` in place of the
        table's (``die_size``)."""
        frame = np.asarray(frame)
        if frame.dtype != np.uint8 or frame.ndim != 3 or frame.shape[2] != 3:
            raise ValueError(f"the reader needs a BGR uint8 frame (height, width, 3), got {frame.dtype} {frame.shape}")
        height, width = frame.shape[:2]
        if height < 16 or width < 16:
            raise ValueError(f"frame of {width}x{height} px is too small to hold a die; need at least 16x16")
        scale = finder_scale(height, width, self.files.finder_scale, self.files.finder_max_side)
        size = self.die_size if die_size is None else die_size
        if size > 0:
            scale = min(scale, FINDER_DIE / size)
        tensor, scale = finder_input(frame, max(scale, ALIGN / max(height, width)))
        try:
            maps = self._finder.run(None, {"frame": tensor})[0]
        except Exception as exc:  # onnxruntime raises its own untyped errors
            raise ReaderError(f"dice finder failed on a {width}x{height} frame: {exc}") from exc
        boxes, scores = decode_finder(maps, scale, (height, width), self.files.finder_threshold if threshold is None else threshold)
        keep = suppress_overlaps(boxes, scores, 0.5)[:MAX_DICE]
        return boxes[keep], scores[keep]

    def finds(self, frame: NDArray[np.uint8], die_size: float | None = None) -> Finds:
        """Stages 1 and 2 before the decision: every candidate die, the pip reader's probabilities
        per view and, where the model gives them, the embeddings (``die_size`` as in ``find``)."""
        boxes, scores = self.find(frame, min(WEAK_FIND, self.files.finder_threshold), die_size)
        return self.finds_at(frame, boxes, scores)

    def finds_at(self, frame: NDArray[np.uint8], boxes: NDArray[np.float32], scores: NDArray[np.float32] | None = None) -> Finds:
        """The pip reader's say on given ``boxes`` of ``frame``, as ``finds`` gives it; without the
        finder's ``scores`` (a die the players added by a tap) each box's reads 1."""
        frame = np.asarray(frame, np.uint8)
        boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
        probs, embeddings = self._read_crops(pips_input(frame, boxes) if len(boxes) else None, len(boxes), frame.shape)
        return Finds(boxes, np.ones(len(boxes), np.float32) if scores is None else scores, probs, embeddings)

    def crops(self, frame: NDArray[np.uint8], boxes: NDArray[np.float32]) -> NDArray[np.uint8]:
        """The pip reader's (n, CROP, CROP, 3) crops of ``boxes`` in ``frame``: what a table keeps of a die."""
        return crop_boxes(np.asarray(frame, np.uint8), np.asarray(boxes, np.float32).reshape(-1, 4))

    def read_crops(self, crops: NDArray[np.uint8]) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        """The pip reader over (n, CROP, CROP, 3) BGR crops (``crops``): probabilities (n, views, 7)
        and embeddings (n, views, d), d 0 where the model gives none."""
        crops = np.asarray(crops, np.uint8).reshape(-1, CROP, CROP, 3)
        batch = dihedral_views(reader_input(crops), VIEWS) if len(crops) else None
        probs, embeddings = self._read_crops(batch, len(crops), None)
        return probs.transpose(1, 0, 2), embeddings.transpose(1, 0, 2)

    def _read_crops(self, batch: NDArray[np.float32] | None, n: int, shape: tuple[int, ...] | None) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        """The pip reader over a batch from ``dihedral_views``: probabilities (views, n, 7) and
        embeddings (views, n, d)."""
        if batch is None:
            return np.zeros((VIEWS, 0, 7), np.float32), np.zeros((VIEWS, 0, self._width), np.float32)
        try:
            out = self._pips.run(None, {"crops": batch})
        except Exception as exc:  # onnxruntime raises its own untyped errors
            where = f" of a {shape[1]}x{shape[0]} frame" if shape else ""
            raise ReaderError(f"pip reader failed on {n} dice{where}: {exc}") from exc
        probs = softmax(out[0]).reshape(VIEWS, n, -1)
        embeddings = np.asarray(out[1], np.float32).reshape(VIEWS, n, -1) if self._embeds else np.zeros((VIEWS, n, 0), np.float32)
        return probs, embeddings

    def decide(self, finds: Finds, dice: int | None = None) -> Detections:
        """The dice among ``finds``, with what the table learned (``learned``) where there is any."""
        head = self.learned
        if head is not None and finds.embeddings.shape[-1] == len(head.mean):
            probs = head.adjust(finds.probs, finds.embeddings)
            return read_with_head(finds, probs, self.files.finder_threshold, self.unsure_below, head.unsure_below, dice)
        return read_finds(finds.boxes, finds.scores, finds.mean_probs, self.files.finder_threshold, self.unsure_below, dice)

    def read(self, frame: NDArray[np.uint8], dice: int | None = None) -> Detections:
        """The dice in one BGR frame (height, width, 3) of uint8. Given ``dice``, the number of dice
        on the table, the ``dice`` finds likeliest to be dice are kept (``likeliest_dice``) and the
        other finds the blind reader would keep are reported as dropped."""
        return self.decide(self.finds(frame), dice)


def open_reader(model_dir: Path | None = None, threads: int = 2, unsure_below: float | None = None) -> OnnxDiceReader:
    """The project's ONNX dice reader, the one way every command, the window, training and the
    benchmarks open it: the models of ``model_dir`` (default: the committed ones) on ``threads``
    onnxruntime threads, holding the dice to ``unsure_below`` where given, else to the line chosen
    for the models. Raises :class:`ModelError` saying what is missing or damaged and how to restore it."""
    return OnnxDiceReader(model_dir, threads=threads, unsure_below=unsure_below)
