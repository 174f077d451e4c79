"""The model card, ``models/README.md``: what the models are, what they learned from and how well they
read, measured with the same reader the program uses. :func:`measure_card` measures what the card
reports (:class:`CardMeasures`), :func:`card_text` writes it as Markdown. No torch here."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from scorekeeper.safe_input import read_text
from scorekeeper.safe_output import write_atomically
from scorekeeper.training.manifest import read_manifest
from scorekeeper.training.unsure_line import UnsureLine, read_unsure_line
from scorekeeper.training.data import SMALL_SHARE, SMALL_SIDES, UPRIGHT_TILT
from scorekeeper.training.quantize import CALIBRATION_PHOTO_EVERY, CALIBRATION_SCENES
from scorekeeper.training.shapes import reader_layers, reader_multiply_adds
from scorekeeper.evaluation.assessment import (
    BUSY_MACHINE,
    PHOTO_SIZES,
    latency_frames,
    machine_name,
    measure_latency,
    score_conditions,
    score_dataset,
    score_resized,
    table_outcomes,
)
from scorekeeper.evaluation.dataset import LABEL_FIXES_DIR, LabelFix, describe_fixes, load_dataset, with_label_fixes
from scorekeeper.evaluation.score import Score
from scorekeeper.vision.processing import CROP, DOUBTED, SURE_FIND, VIEWS, WEAK_FIND, WEAK_NOT_A_DIE
from scorekeeper.vision.reader import FINDER_DIE, UNSURE_LINE_FILE, ModelFiles, open_reader
from scorekeeper.synthetic.render import render
from scorekeeper.synthetic.scene import random_scene

CONDITION_SCENES = 40
"""Rendered scenes per condition value in the card."""


def _row(name: str, score: Score) -> str:
    return (
        f"| {name} | {score.images} | {score.labelled} | {score.recall:.2%} | {score.precision:.2%} | "
        f"{score.value_accuracy:.2%} | {score.roll_exact:.2%} | {score.sure_accuracy:.2%} | {score.unsure_share:.2%} | {score.unasked} |"
    )


HEADER = (
    "| data | images | dice | recall | precision | value accuracy | roll exact | right when sure | unsure | wrong, unasked |\n"
    "|---|---|---|---|---|---|---|---|---|---|"
)


TABLE_HEADER = (
    "| data | photos | right, nothing asked | asked | wrong, nothing asked | wrong, no die unsure | told the count: right, nothing asked | asked | wrong, nothing asked |\n"
    "|---|---|---|---|---|---|---|---|---|"
)
FAILURE_EXAMPLES = 6
"""Photos not read exactly listed per held-out split in the card."""


def _table_row(name: str, blind: Score, counted: Score) -> str:
    return (
        f"| {name} | {blind.images} | {blind.right_unasked_share:.1%} | {blind.asked_share:.1%} | {blind.wrong_unasked_share:.1%} | {blind.wrong_none_unsure_share:.1%} | "
        f"{counted.right_unasked_share:.1%} | {counted.asked_share:.1%} | {counted.wrong_unasked_share:.1%} |"
    )


def licence_of(folder: Path) -> str:
    r"""The licence and attribution a photo folder's README gives: the section headed "Licen[cs]e",
    else its first line naming a licence; one line.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = (Path(d) / "README.md").write_text("# x\n\nabout\n\n## License and attribution\nCC BY 4.0. By A.\n\n## More\n")
    ...     licence_of(Path(d))
    'CC BY 4.0. By A.'
    """
    try:
        lines = read_text(folder / "README.md", "README", limit=1_000_000).splitlines()
    except ValueError:
        return "no README: licence unknown"
    for n, line in enumerate(lines):
        if line.startswith("#") and ("licen" in line.lower()):
            body = []
            for rest in lines[n + 1 :]:
                if rest.startswith("#"):
                    break
                body.append(rest.strip())
            return " ".join(part for part in body if part)
    return next((line.strip() for line in lines if "license" in line.lower() or "licence" in line.lower()), "the README names no licence")


def _unsure_source(chosen: UnsureLine) -> str:
    """Where the unsure line comes from, quoted from the record training wrote beside the models."""
    row = chosen.chosen_row
    how = (
        f"the lowest line at which {chosen.target:.1%} of sure dice are right" if chosen.met_target
        else f"the strictest line tried, as none had {chosen.target:.1%} of sure dice right"
    )
    return (
        f": {how} on {chosen.scenes:,} rendered rolls"
        f" (chosen by `scorekeeper train`, recorded in `{UNSURE_LINE_FILE}`: at {chosen.line}, {row.right_when_sure:.2%} of"
        f" {row.sure:,} sure dice right, {row.unsure:,} unsure)"
    )


@dataclass(frozen=True)
class PhotoSource:
    """One photo folder as the card lists it."""

    name: str
    """The folder's name."""
    photos: int
    """Labelled photos in it."""
    dice: int
    """Labelled dice in them."""
    use: str
    """What training used of it: "train split", "all" or "not trained on"."""
    licence: str
    """Its licence and attribution, one line (``licence_of``)."""


@dataclass(frozen=True)
class Measured:
    """One row of a metrics table: what was read, and how well."""

    name: str
    """What was read, as the row names it."""
    score: Score
    """How well."""


@dataclass(frozen=True)
class AtTheTable:
    """One photo folder (or one group of its photos) read as a game meets it."""

    name: str
    """The folder, group, split and how training used it, as the row names it."""
    blind: Score
    """Read without being told how many dice lie there."""
    counted: Score
    """Read told the count, as a game tells the reader."""


@dataclass(frozen=True)
class CardMeasures:
    """What the model card reports about the models in a folder, measured with the program's own reader."""

    manifest: Mapping[str, Any]
    """The models' manifest, as training wrote it."""
    model_bytes: Mapping[str, int]
    """Size of each model file (``finder``, ``pips``), bytes."""
    sources: tuple[PhotoSource, ...]
    """The photo folders, trained on or not."""
    at_the_table: tuple[AtTheTable, ...]
    """Each folder (and group) read as a game meets it."""
    failures: tuple[str, ...]
    """Photos not read exactly, the first ``FAILURE_EXAMPLES`` of each folder, one Markdown line each."""
    data: tuple[Measured, ...]
    """Each data set's score: the photo splits, the sample images, rendered mixed scenes."""
    resized: tuple[Measured, ...]
    """The held-out photos' scores resized by each of ``PHOTO_SIZES``."""
    conditions: tuple[Measured, ...]
    """The scores per renderer condition."""
    fixes: Mapping[str, Mapping[str, list[LabelFix]]]
    """The project's reviewed label fixes applied, per folder and split."""
    unsure_line: float
    """The models' unsure line, as training chose it (``models/unsure_line.json``)."""
    unsure_source: str
    """Where the unsure line comes from, as the card says it (``_unsure_source``)."""
    latency_ms: Mapping[str, float]
    """Median milliseconds of one read, per frame size ("640x480", "1280x720")."""
    busy_elsewhere: float | None
    """Share of the machine's CPUs other processes kept busy while latency was measured (None: not told)."""
    cpus: int | None
    """The machine's CPUs."""
    machine: str
    """The machine latency was measured on, in words."""
    metrics: Mapping[str, object]
    """Every number measured, by name: what ``metrics.json`` holds."""


def measure_card(
    model_dir: Path,
    photo_folders: Sequence[Path],
    samples_dir: Path | None,
    report: Callable[[str], None],
    unseen: Sequence[Path] = (),
) -> CardMeasures:
    """Measure what the card reports about the models in ``model_dir``. ``unseen`` photo folders were
    not trained on: they are measured as tables the reader never met."""
    manifest = read_manifest(model_dir)
    chosen = read_unsure_line(model_dir)
    reader = open_reader(model_dir, unsure_below=chosen.line)
    numbers: dict[str, object] = {}
    at_the_table: list[AtTheTable] = []
    failure_lines: list[str] = []
    sources: list[PhotoSource] = []
    for folder in [*photo_folders, *unseen]:
        trained = folder in photo_folders
        split = "test" if (folder / "split.csv").exists() else None
        items = load_dataset(folder)
        sources.append(
            PhotoSource(
                folder.name,
                len(items),
                sum(len(i.labels) for i in items),
                "train split" if trained and split else "all" if trained else "not trained on",
                licence_of(folder),
            )
        )
        blind, counted = table_outcomes(reader, folder, split)
        kind = "held-out split" if trained and split else "never seen in training" if not trained else "trained on"
        for group in sorted(blind) if len(blind) > 2 else [""]:
            name = f"{folder.name}{' ' + group if group else ''} ({(split or 'all') + ', ' if split else ''}{kind})"
            at_the_table.append(AtTheTable(name, blind[group], counted[group]))
            numbers[f"at the table: {name}"] = {"blind": blind[group].to_json(), "told the count": counted[group].to_json()}
        report(f"{folder.name} at the table: {blind[''].right_unasked_share:.1%} right with nothing asked, {counted[''].right_unasked_share:.1%} told the count")
        failure_lines += [f"- `{folder.name}` {line}" for line in blind[""].failures[:FAILURE_EXAMPLES]]
    data: list[Measured] = []
    resized_scores: list[Measured] = []
    all_fixes: dict[str, dict[str, list[LabelFix]]] = {}
    for folder in photo_folders:
        has_split = (folder / "split.csv").exists()
        for split in ("test", "train") if has_split else (None,):
            as_given = load_dataset(folder, split=split)
            items, fixes = with_label_fixes(as_given, folder)
            score = score_dataset(reader, items)
            name = f"{folder.name} {split or 'all'}" + (" (trained on)" if split == "train" else " (held out)" if split == "test" else "")
            data.append(Measured(name + (", reviewed labels" if fixes else ""), score))
            numbers[name] = score.to_json()
            report(f"{name}: {score.to_json()}")
            if split == "test":
                numbers[f"{name} failures"] = score.failures
                for factor in PHOTO_SIZES:
                    resized = score_resized(reader, items, factor)
                    resized_scores.append(Measured(f"{name} x{factor}", resized))
                    numbers[f"{name} x{factor}"] = resized.to_json()
            if fixes:
                all_fixes.setdefault(folder.name, {})[split or "all"] = fixes
            if fixes and split != "train":
                score = score_dataset(reader, as_given)
                data.append(Measured(f"{name}, labels as given", score))
                numbers[f"{name}, labels as given"] = score.to_json()
    if samples_dir is not None and (samples_dir / "images").is_dir():
        score = score_dataset(reader, load_dataset(samples_dir))
        data.append(Measured("sample_images (rendered)", score))
        numbers["sample_images"] = score.to_json()
    mixed = Score()
    rng = np.random.default_rng(99_001)
    for _ in range(150):
        image, labels = render(random_scene(rng))
        mixed.add(labels, reader.read(image), size=(image.shape[1], image.shape[0]))
    data.append(Measured("rendered mixed (hands, tumbling dice, clutter)", mixed))
    numbers["rendered mixed"] = mixed.to_json()
    report(f"rendered mixed: {mixed.to_json()}")

    conditions = []
    for (condition, value), score in score_conditions(reader, CONDITION_SCENES).items():
        conditions.append(Measured(f"{condition}: {value}", score))
        numbers[f"{condition}: {value}"] = score.to_json()
    report("conditions measured")

    latency, elsewhere = {}, []
    for width, height in ((640, 480), (1280, 720)):
        measured = measure_latency(reader.read, latency_frames(width, height), 200)
        latency[f"{width}x{height}"] = measured.median_s * 1000
        if measured.busy_elsewhere is not None:
            elsewhere.append(measured.busy_elsewhere)
    numbers["latency_ms"] = latency
    busy = max(elsewhere) if elsewhere else None
    numbers["latency_busy_elsewhere"] = busy
    if busy is not None and busy > BUSY_MACHINE:
        report(f"latency measured while other processes kept {busy:.0%} of the CPUs busy: the card's latency is too slow")
    return CardMeasures(
        manifest=manifest,
        model_bytes={key: os.path.getsize(model_dir / manifest[key]["file"]) for key in ("finder", "pips")},
        sources=tuple(sources),
        at_the_table=tuple(at_the_table),
        failures=tuple(failure_lines),
        data=tuple(data),
        resized=tuple(resized_scores),
        conditions=tuple(conditions),
        fixes=all_fixes,
        unsure_line=chosen.line,
        unsure_source=_unsure_source(chosen),
        latency_ms=latency,
        busy_elsewhere=busy,
        cpus=os.cpu_count(),
        machine=machine_name(),
        metrics=numbers,
    )


def card_text(measures: CardMeasures, command: str, photo_folders: Sequence[Path], corrections: Sequence[Path] = ()) -> str:
    """The card, Markdown: ``measures`` of the models trained by ``command`` on ``photo_folders`` and
    the players' ``corrections``."""
    manifest = measures.manifest
    all_fixes = measures.fixes
    busy = measures.busy_elsewhere
    latency = measures.latency_ms
    sizes = measures.model_bytes
    source_rows = [f"| `{s.name}` | {s.photos} | {s.dice:,} | {s.use} | {s.licence} |" for s in measures.sources]
    table_rows = [_table_row(row.name, row.blind, row.counted) for row in measures.at_the_table]
    failure_lines = measures.failures
    data_rows = [_row(row.name, row.score) for row in measures.data]
    size_rows = [_row(row.name, row.score) for row in measures.resized]
    condition_rows = [_row(row.name, row.score) for row in measures.conditions]
    load_line = ""
    if busy is not None:
        load_line = f"Other processes kept {busy:.0%} of the machine's {measures.cpus} CPUs busy meanwhile.\n"
        if busy > BUSY_MACHINE:
            load_line += "The machine was busy: these figures are slower than it reads when idle; write the card again with `--card-only` on an idle machine.\n"
    config = manifest["config"]
    minutes = manifest.get("train_seconds", 0) / 60
    share = float(config.get("reader_photo_share", 0))
    fresh = (
        f" {share:.0%} of each pip-reader batch is cut afresh from the real photos' dice: turned by any"
        f"\n  angle, and {SMALL_SHARE:.0%} of them brought down to the resolution of a {SMALL_SIDES[0]:.0f}-{SMALL_SIDES[1]:.0f} px die."
        if share and (photo_folders or corrections) else ""
    )
    lo, hi = config.get("photo_zoom", (1, 1))
    reader_width = int(config.get("reader_width", 16))  # manifests from before the field: 16 wide
    zoom = f" The finder sees each real photo zoomed by x{lo:g}-x{hi:g}, so its dice come in more sizes than one." if (lo, hi) != (1, 1) and photo_folders else ""
    mined_zoom = " (on the real photos also resized by such a factor)" if zoom else ""
    reviewed = "".join(
        f"\nReviewed labels: `{name}`'s own, with the project's fixes in `scorekeeper/evaluation/{LABEL_FIXES_DIR.name}/{name}.csv`"
        " (each checked on the photo): " + "; ".join(f"{split} split {describe_fixes(fixes)}" for split, fixes in splits.items())
        + ". The held-out split is also scored against the labels as given."
        for name, splits in all_fixes.items()
    )
    pips_entry = manifest["pips"]
    int8 = (
        "\n   Weights and activations in int8 (`scorekeeper.training.quantize`), quantized after training from the"
        f"\n   fp32 export (SHA-256 `{pips_entry['int8_from_sha256']}`), calibrated on the {pips_entry['calibration_crops']:,} crops"
        f"\n   and quarter turns the finder cut from {CALIBRATION_SCENES} rendered scenes and every {CALIBRATION_PHOTO_EVERY}th training photo."
        if "int8_from_sha256" in pips_entry else ""
    )
    return f"""# Dice reader models

Written by `scorekeeper train`; do not edit by hand. Reproduce with:

```
{command}
```

The seed fixes the data, the augmentation, the start and the batch order: on one machine the command
writes the same files byte for byte. Another CPU may round the convolutions differently; its files
then differ, and its numbers below may move by a roll or two.

## Architecture
Two stages, both trained from scratch (no pretrained weights), run with onnxruntime on the CPU:

1. **Finder** (`{manifest['finder']['file']}`): a tiny CenterNet-style network (about 170 M multiply-adds at
   480x360). Input: the BGR frame scaled by {manifest.get('finder_scale', ModelFiles.finder_scale)} (long side at most {manifest.get('finder_max_side', ModelFiles.finder_max_side)} px), 0-1, padded to
   multiples of 16, shape (1, 3, H, W). Output (1, 5, H/4, W/4): centre heatmap (sigmoid), log box
   width and height in cells, centre offset. Peaks >= {manifest['finder_threshold']} of their 3x3 neighbourhood are
   candidate dice, then non-maximum suppression at IoU 0.5.
2. **Pip reader** (`{manifest['pips']['file']}`): a 7-layer CNN ({reader_width} channels in its first layer, about {reader_multiply_adds(reader_width) / 1e6:.0f} M multiply-adds per die and view) on a {CROP}x{CROP}
   crop of each candidate cut from the full-resolution frame (1.25x the box's longer side).
   Output: 7 logits: not a die, 1, ..., 6 pips. Each crop is read in its {VIEWS} quarter turns
   and the softmax probabilities are averaged; a die's confidence is that mean probability of
   its value; candidates whose "not a die" probability is >= 0.5 are dropped, unless the finder
   is sure of them (peak >= {SURE_FIND}) and that probability is under {DOUBTED}: those stay, read at
   most 50% sure, so they are asked about. Weak finds (peaks from {WEAK_FIND} up to the threshold) are read
   too and kept only when the reader would score them without asking: "not a die" under
   {WEAK_NOT_A_DIE} and the value at least {measures.unsure_line} sure. Dice below {measures.unsure_line} are reported unsure{measures.unsure_source}.{int8}

Why two stages: the finder only has to say "a die is here" on a cheap scaled-down frame, while
the pips of a 15-30 px die are read at full resolution, where they are 2-4 px across; scaled down
they blur into the face. The crop classifier also gets the last word on false finds (its
"not a die" class).

The pip reader's second output, `embedding` (the {reader_layers(reader_width)[-1][1]} values its last layer scores, per crop and
view), is what a table learns from: each table fits a small head of its own on the dice the players
confirm there (`scorekeeper.vision.table_head`), and the finder looks at the frame scaled so a die is
{FINDER_DIE:.0f} px across where the table's die size is known.

| file | bytes | SHA-256 |
|---|---|---|
| {manifest['finder']['file']} | {sizes['finder']:,} | `{manifest['finder']['sha256']}` |
| {manifest['pips']['file']} | {sizes['pips']:,} | `{manifest['pips']['sha256']}` |

## Data used
- {config['synthetic']} scenes rendered by `scorekeeper.synthetic.render` (seed {config['seed']}): every die colour and pip
  style of the renderer (drilled pips, faint paint, smoky and marbled bodies), wood/felt/cloth/paper/tray tables, clutter, hands, tilt 0-45 degrees, four
  lights, blur, noise, JPEG; dice apart or touching in groups; 640x480, 800x600 and 1280x720 frames.
- Real photos (train split only{', with the reviewed label fixes' if any('train' in f or 'all' in f for f in all_fixes.values()) else ''}): {', '.join(f'`{p}`' for p in photo_folders) or 'none'}.
- Players' tap corrections (pip reader only): {', '.join(f'`{p}`' for p in corrections) or 'none'}.
- Augmentation: quarter turns (for the finder, not on rendered views tilted {UPRIGHT_TILT:.0f} degrees or more,
  whose side faces must stay below the top face), flips, colour channel shuffles, grey, inverted
  colours, gain, contrast, gamma, tint, noise, blur; crops jittered in place and size as the
  finder's boxes are.{zoom}{fresh}
- "Not a die" crops: table, clutter and hands, and crops centred off every top face (side faces,
  the strip between touching dice) however much they overlap a die; the finder's own false finds{mined_zoom}.
- Training: {config['finder_steps']} finder steps (batch {config['finder_batch']}, {config['finder_crop']} px crops), {config['reader_steps']} pip-reader steps
  (batch {config['reader_batch']}), AdamW with one-cycle learning rate, {config['threads']} threads,
  {'forward passes in bfloat16 (fp32 on a CPU without it natively)' if config.get('bfloat16') else 'fp32'}; {minutes:.1f} min on
  {manifest.get('train_machine', 'a machine the manifest does not name')}.

## Data per source
| source | photos | dice | used for training | licence and attribution |
|---|---|---|---|---|
{chr(10).join(source_rows) or '| (no photo folders given) | | | | |'}

## At the table: what the players are asked
Per photo, as a game meets it: read right with nothing asked (scored without a tap), asked (a die
unsure, or another number of dice found than lie there: the window asks for a tap), or read wrong
with nothing asked (a misread the game would score). Wrong, no die unsure: read wrong with every
die sure, however many were found, as a reader used without a game (nothing checks the count)
would score it. Read blind, and told how many dice the photo
holds, as a game tells the reader (six, then the dice left: `read --dice N`). A source never seen
in training is the closest the card can come to a table a player brings.

{TABLE_HEADER}
{chr(10).join(table_rows) or '| (no photo folders given) | | | | | | | | |'}

Photos not read exactly, the first {FAILURE_EXAMPLES} of each source (read blind):

{chr(10).join(failure_lines) or '- none'}

## Metrics per data set
A found die matches a labelled one at box IoU >= 0.5; boxes frame each die's top face (as the
byler labels do; the renderer's labels follow them). Roll exact: share of images whose sorted
values equal the labels'. Right when sure: value accuracy among matched dice not marked unsure. Wrong, unasked: rolls read wrong
with as many dice found as labelled and none unsure, the misreads a game would score without asking for a tap.{reviewed}

{HEADER}
{chr(10).join(data_rows)}

## Metrics on the held-out photos resized
The same photos and labels as above resized by each factor, to see real dice at other sizes than
the 30-50 px the byler photos hold: x0.5 makes them 15-25 px, x2 60-100 px. Measured by
`benchmarks/photo_sizes.py` too.

{HEADER}
{chr(10).join(size_rows) or '| (no held-out photos given) | | | | | | | | |'}

## Metrics per renderer condition
{CONDITION_SCENES} rendered 640x480-class scenes per row (dice at rest, no hands); each group changes one
condition of the same base scenes ("dice" lays the same dice out apart or touching in groups).

{HEADER}
{chr(10).join(condition_rows)}

## Latency
Median of 200 reads (finder + pip reader + pre/post-processing), 2 onnxruntime threads, on {measures.machine}:
640x480 {latency['640x480']:.1f} ms, 1280x720 {latency['1280x720']:.1f} ms.
{load_line}"""


def write_card(
    model_dir: Path,
    photo_folders: Sequence[Path],
    samples_dir: Path | None,
    command: str,
    report: Callable[[str], None],
    corrections: Sequence[Path] = (),
    unseen: Sequence[Path] = (),
) -> dict[str, object]:
    """Measure the models in ``model_dir`` and write its README.md and metrics.json; returns the numbers.
    ``unseen`` photo folders were not trained on: they are measured as tables the reader never met."""
    measures = measure_card(model_dir, photo_folders, samples_dir, report, unseen)
    numbers = dict(measures.metrics)
    write_atomically(model_dir / "README.md", card_text(measures, command, photo_folders, corrections))
    write_atomically(model_dir / "metrics.json", json.dumps(numbers, indent=1) + "\n")
    return numbers
