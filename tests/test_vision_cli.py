"""``scorekeeper read``, ``evaluate`` and ``bench``: the command-line contract."""

from __future__ import annotations

import importlib.util

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from scorekeeper.cli import main
from scorekeeper.evaluation import dataset
from scorekeeper.evaluation.dataset import LabelledImage, load_dataset

REPO = Path(__file__).resolve().parent.parent
SAMPLES = REPO / "sample_images"


def lines(text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


EXACT = 3
"""The first three samples: the committed model reads each exactly as labelled (models/README.md:
30 of the 36 samples are read exactly), so their labels are what the command must print."""


def labelled(item: LabelledImage) -> list[int]:
    """The roll a sample's labels give, sorted: the expected read, from outside the reader."""
    return sorted(int(value) for value in item.labels.values)


def model_line() -> float:
    """The committed models' unsure line, read from the file training wrote."""
    return float(json.loads((REPO / "models" / "unsure_line.json").read_text(encoding="utf-8"))["line"])


def test_read_json_gives_one_line_per_image_with_the_contract_fields(capsys: pytest.CaptureFixture[str]) -> None:
    items = load_dataset(SAMPLES)[:EXACT]
    assert main(["read", "--json", *(str(i.path) for i in items)]) == 0
    records = lines(capsys.readouterr().out)
    assert [r["image"] for r in records] == [str(i.path) for i in items]
    for record, item in zip(records, items):
        assert set(record) == {"image", "width", "height", "dice", "roll"}
        assert record["roll"] == labelled(item)
        assert (record["width"], record["height"]) == (item.load().shape[1], item.load().shape[0])
        dice = record["dice"]
        assert isinstance(dice, list) and len(dice) == len(item.labels)
        assert all(set(die) == {"box", "value", "confidence", "unsure"} for die in dice)
        assert sorted(d["value"] for d in dice) == record["roll"]
        assert [d["unsure"] for d in dice] == [d["confidence"] < model_line() for d in dice]


def test_read_reports_bad_images_per_image_and_goes_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = load_dataset(SAMPLES)[0]
    (tmp_path / "empty.png").write_bytes(b"")
    (tmp_path / "text.jpg").write_text("hello")
    cv2.imwrite(str(tmp_path / "tiny.png"), np.zeros((4, 4, 3), np.uint8))
    paths = [tmp_path / "missing.png", tmp_path / "empty.png", tmp_path / "text.jpg", tmp_path / "tiny.png", good.path]
    assert main(["read", "--json", *map(str, paths)]) == 1
    records = lines(capsys.readouterr().out)
    assert [r["image"] for r in records] == [str(p) for p in paths]
    assert records[0]["error"] == "no such file" and records[1]["error"] == "empty file"
    assert "not an image" in str(records[2]["error"]) and "too small" in str(records[3]["error"])
    assert records[4]["roll"] == labelled(good)


def test_read_converts_grey_16_bit_and_alpha_images(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    item = load_dataset(SAMPLES)[0]
    frame = item.load()
    cv2.imwrite(str(tmp_path / "grey.png"), cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
    cv2.imwrite(str(tmp_path / "deep.png"), frame.astype(np.uint16) * 257)
    cv2.imwrite(str(tmp_path / "alpha.png"), cv2.cvtColor(frame, cv2.COLOR_BGR2BGRA))
    assert main(["read", "--json", str(tmp_path / "grey.png"), str(tmp_path / "deep.png"), str(tmp_path / "alpha.png")]) == 0
    records = lines(capsys.readouterr().out)
    assert all("error" not in r and (r["width"], r["height"]) == (frame.shape[1], frame.shape[0]) for r in records)
    assert [r["roll"] for r in records] == [labelled(item)] * 3, "grey, 16-bit and alpha all read as labelled"


@pytest.mark.slow
def test_read_handles_a_huge_photo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    frame = cv2.resize(load_dataset(SAMPLES)[0].load(), (8000, 6000), interpolation=cv2.INTER_NEAREST)
    cv2.imwrite(str(tmp_path / "huge.jpg"), frame, [cv2.IMWRITE_JPEG_QUALITY, 70])
    assert main(["read", "--json", str(tmp_path / "huge.jpg")]) == 0
    record = lines(capsys.readouterr().out)[0]
    assert record["width"] == 8000 and record["height"] == 6000 and isinstance(record["dice"], list)


def test_read_text_output_and_a_missing_model(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    item = load_dataset(SAMPLES)[0]
    assert main(["read", str(item.path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{item.path}: {' '.join(map(str, labelled(item)))}")
    assert main(["read", "--model", str(tmp_path), str(item.path)]) == 2
    err = capsys.readouterr().err
    assert f"no dice model at {tmp_path}" in err and "scorekeeper train" in err


def test_evaluate_prints_the_metrics_and_the_confusion(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["evaluate", str(SAMPLES)]) == 0
    out = capsys.readouterr().out
    for word in ("recall", "precision", "value accuracy", "roll exact", "confusion"):
        assert word in out
    assert main(["evaluate", "--json", str(SAMPLES)]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["images"] == len(load_dataset(SAMPLES)) and len(record["confusion"]) == 7


def test_evaluate_scores_reviewed_labels_and_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "photos"
    for part in ("images", "labels"):
        (folder / part).mkdir(parents=True)
    item = load_dataset(SAMPLES)[0]
    shutil.copy(item.path, folder / "images" / item.path.name)
    shutil.copy(SAMPLES / "labels" / f"{item.path.stem}.txt", folder / "labels" / f"{item.path.stem}.txt")
    box, value = item.labels.boxes[0], int(item.labels.values[0])
    wrong = value % 6 + 1
    monkeypatch.setattr(dataset, "LABEL_FIXES_DIR", tmp_path / "fixes")
    (tmp_path / "fixes").mkdir()
    # a "review" that says the first die shows another value than its label
    (tmp_path / "fixes" / "photos.csv").write_text(
        f"stem,box,labelled,seen,why\n{item.path.stem},{' '.join(f'{v:.1f}' for v in box)},{value},{wrong},test\n"
    )
    assert main(["evaluate", "--json", str(folder)]) == 0
    reviewed = json.loads(capsys.readouterr().out)
    assert main(["evaluate", "--json", "--as-labelled", str(folder)]) == 0
    as_given = json.loads(capsys.readouterr().out)
    assert reviewed["labels_fixed"] == 1 and reviewed["label_fixes"] == str(tmp_path / "fixes" / "photos.csv")
    assert "labels_fixed" not in as_given
    # confusion rows are labelled values: one die moved from the row of its label to the review's
    labelled = [sum(row) for row in as_given["confusion"]]
    labelled[value] -= 1
    labelled[wrong] += 1
    assert [sum(row) for row in reviewed["confusion"]] == labelled
    assert main(["evaluate", str(folder)]) == 0
    assert "1 value put right, 0 dice added" in capsys.readouterr().out


def test_evaluate_split_and_bad_folders(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    stems = sorted(p.stem for p in (SAMPLES / "images").iterdir())
    (tmp_path / "split.csv").write_text("stem,split\n" + "".join(f"{s},{'test' if i < 2 else 'train'}\n" for i, s in enumerate(stems)))
    assert main(["evaluate", "--json", str(SAMPLES), "--split", str(tmp_path / "split.csv"), "test"]) == 0
    assert json.loads(capsys.readouterr().out)["images"] == 2
    assert main(["evaluate", str(tmp_path)]) == 2
    assert "has no images/ folder" in capsys.readouterr().err


@pytest.mark.slow
def test_bench_shows_both_readers_side_by_side(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--runs", "3", "--scenes", "2", "--data", str(SAMPLES)]) == 0
    out = capsys.readouterr().out
    assert "onnx two-stage" in out and "classical OpenCV" in out
    assert "640x480" in out and "1280x720" in out and "sample_images" in out


def test_train_refuses_a_folder_that_is_neither_photos_nor_corrections(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["train", "--out", str(tmp_path / "models"), str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"{tmp_path} is neither a labelled photo folder (images/ and labels/ in it) nor a corrections folder (corrections.jsonl in it)" in err
    assert not (tmp_path / "models").exists()


@pytest.mark.parametrize("workers", ["0", "two", "-3"])
def test_train_refuses_a_number_of_workers_that_is_not_one_or_more(workers: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["train", "--out", str(tmp_path / "models"), "--workers", workers, str(SAMPLES)])
    assert stop.value.code == 2
    assert f"{workers!r} is not a whole number of processes (1 or more)" in capsys.readouterr().err
    assert not (tmp_path / "models").exists()


def test_train_on_cuda_where_it_cannot_says_why_and_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    photos = tmp_path / "photos"
    (photos / "images").mkdir(parents=True)
    assert main(["train", "--device", "cuda", "--out", str(tmp_path / "models"), str(photos)]) == 2
    err = capsys.readouterr().err
    if importlib.util.find_spec("torch") is None:
        assert "needs the train extra (torch is missing): pip install '.[train]'" in err
    else:
        import torch

        assert not torch.cuda.is_available(), "this test checks the refusal on a machine without CUDA"
        assert "--device cuda, but torch sees no CUDA device here: train with --device cpu (the default)" in err
    assert not (tmp_path / "models").exists()
