"""Pre- and post-processing around the ONNX models, the data set format, the metrics and image loading."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.vision import Detections
from scorekeeper.evaluation.dataset import (
    DatasetError,
    LabelFix,
    apply_label_fixes,
    format_yolo_labels,
    load_dataset,
    parse_yolo_labels,
    read_label_fixes,
)
from scorekeeper.evaluation.score import Score, match
from scorekeeper.vision.images import ImageError, load_frame, to_bgr8
from scorekeeper.vision.processing import (
    ALIGN,
    CROP,
    STRIDE,
    box_iou,
    crop_boxes,
    cut_by_edge,
    decode_finder,
    dihedral_views,
    finder_input,
    finder_scale,
    found_again,
    mean_over_views,
    read_finds,
    reader_input,
    softmax,
    suppress_overlaps,
)
from tests.box_cases import OTHERS, OVERLAPS, SQUARE


@pytest.mark.parametrize(
    ("height", "width", "scale", "shape"),
    [(480, 640, 0.75, (368, 480)), (720, 1280, 0.75, (544, 960)), (1080, 1920, 0.5, (544, 960)), (6000, 8000, 0.12, (720, 960)), (17, 23, 0.75, (16, 32))],
)
def test_finder_input_scales_down_and_pads_to_the_network_stride(height: int, width: int, scale: float, shape: tuple[int, int]) -> None:
    frame = np.full((height, width, 3), 255, np.uint8)
    tensor, used = finder_input(frame)
    assert used == pytest.approx(scale)
    assert tensor.shape == (1, 3, *shape) and tensor.dtype == np.float32
    assert tensor.shape[2] % ALIGN == 0 and tensor.shape[3] % ALIGN == 0
    assert tensor.max() == pytest.approx(1.0)
    padded = tensor.shape[2:] != (round(height * used), round(width * used))
    assert tensor.min() == (0.0 if padded else 1.0)  # the padding is zero
    assert finder_scale(height, width) == pytest.approx(scale)


@given(
    cx=st.floats(70, 250),
    cy=st.floats(70, 170),
    w=st.floats(16, 120),
    h=st.floats(16, 120),
)
@settings(max_examples=50, deadline=None)
def test_decoding_an_encoded_box_gives_it_back(cx: float, cy: float, w: float, h: float) -> None:
    scale = 0.5
    cells = np.zeros((1, 5, 240 // STRIDE * 2, 320 // STRIDE * 2), np.float32)
    gx, gy = cx * scale / STRIDE, cy * scale / STRIDE
    ix, iy = int(gx), int(gy)
    cells[0, 0, iy, ix] = 0.8
    cells[0, 1, iy, ix] = np.log(w * scale / STRIDE)
    cells[0, 2, iy, ix] = np.log(h * scale / STRIDE)
    cells[0, 3, iy, ix] = gx - ix - 0.5
    cells[0, 4, iy, ix] = gy - iy - 0.5
    boxes, scores = decode_finder(cells, scale, (10_000, 10_000), 0.5)
    assert scores.tolist() == [pytest.approx(0.8)]
    assert boxes[0] == pytest.approx([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], abs=1e-2)


def test_only_local_peaks_above_the_threshold_are_dice() -> None:
    cells = np.zeros((1, 5, 10, 10), np.float32)
    cells[0, 0, 2, 2], cells[0, 0, 2, 3] = 0.9, 0.7  # a peak and its shoulder
    cells[0, 0, 7, 7] = 0.4
    cells[0, 0, 5, 0] = 0.2  # below the threshold
    boxes, scores = decode_finder(cells, 1.0, (40, 40), 0.3)
    assert scores.astype(float).round(2).tolist() == [0.9, 0.4]
    assert len(boxes) == 2 and np.all(boxes >= 0) and np.all(boxes <= 40)


def test_a_peak_is_the_highest_of_its_eight_neighbours_even_at_the_edge_of_the_map() -> None:
    heat = np.zeros((10, 10), np.float32)
    heat[0, 0], heat[9, 9], heat[0, 5] = 0.8, 0.6, 0.55  # dice at the frame's corners and edge
    heat[5, 5], heat[6, 6] = 0.9, 0.85  # a peak, and its shoulder down and to the right
    heat[3, 8], heat[2, 7] = 0.95, 0.7  # a peak, and its shoulder up and to the left
    heat[3, 3], heat[3, 1] = 0.5, 0.45  # two cells apart: each its own peak
    heat[8, 2] = 0.3  # exactly at the threshold
    cells = np.zeros((1, 5, 10, 10), np.float32)
    cells[0, 0] = heat
    _, scores = decode_finder(cells, 1.0, (40, 40), 0.3)
    assert scores.astype(float).round(2).tolist() == [0.95, 0.9, 0.8, 0.6, 0.55, 0.5, 0.45, 0.3]


def test_non_maximum_suppression_keeps_the_best_of_overlapping_boxes() -> None:
    boxes = np.array([[0, 0, 10, 10], [20, 20, 30, 30], [1, 0, 11, 10], [21, 21, 30, 30]], np.float32)
    scores = np.array([0.5, 0.9, 0.8, 0.3], np.float32)
    assert suppress_overlaps(boxes, scores).tolist() == [1, 2]
    assert suppress_overlaps(np.zeros((0, 4), np.float32), np.zeros(0, np.float32)).tolist() == []
    assert box_iou(boxes[:1], boxes[:1]).tolist() == [[1.0]]


def test_a_find_centred_on_a_stronger_die_is_that_die_found_again_however_sure() -> None:
    die = [100, 100, 140, 140]
    boxes = np.array([die, [108, 104, 148, 144], [141, 100, 181, 140], [95, 118, 135, 157], [160, 160, 200, 200]], np.float32)
    scores = np.array([0.9, 0.5, 0.6, 0.4, 0.3], np.float32)
    kept = np.ones(5, bool)
    # 1 is centred on 0; 2 touches 0 from the side (its centre is off 0's box); 3's centre is in 0's
    # edge band only; 4 is centred on nothing
    assert found_again(boxes, scores, kept).tolist() == [False, True, False, False, False]
    # centred on a find that is not kept, it stays
    assert not found_again(boxes, scores, np.array([False, True, True, True, True]))[1]
    # a find found again does not make a weaker one found again in turn
    chain = np.array([die, [110, 110, 150, 150], [126, 126, 166, 166]], np.float32)
    assert found_again(chain, np.array([0.9, 0.5, 0.4], np.float32), np.ones(3, bool)).tolist() == [False, True, False]
    assert found_again(np.zeros((0, 4), np.float32), np.zeros(0, np.float32), np.zeros(0, bool)).tolist() == []


def test_a_sure_second_box_on_one_die_does_not_push_a_real_die_out_when_told_the_count() -> None:
    # a die boxed twice, its top face (0) and the whole die with its side faces (1), both read sure,
    # beside a second real die (2) the finder is less sure of: told two dice, the two dice are kept
    boxes = np.array([[100, 100, 140, 140], [96, 96, 150, 150], [200, 100, 240, 140]], np.float32)
    scores = np.array([0.9, 0.85, 0.5], np.float32)
    probs = np.array([[0.01, 0, 0, 0, 0, 0.99, 0], [0.01, 0, 0, 0, 0, 0.99, 0], [0.02, 0, 0.97, 0, 0, 0.01, 0]], np.float32)
    found = read_finds(boxes, scores, probs, 0.3, 0.85, dice=2)
    assert found.roll() == [2, 5] and not found.unsure.any()


def test_a_find_counts_as_found_again_by_its_centre_on_each_axis_up_to_the_margin() -> None:
    # a die at x 300-340, y 20-60 (a box off the diagonal, so x and y cannot stand in for each
    # other); its middle, 10% of the side in from each edge, is x 304-336, y 24-56
    die = [300, 20, 340, 60]
    finds = {
        (306, 28, 342, 64): True,  # centre (324, 46)
        (294, 30, 314, 50): True,  # centre x 304: on the left end of the middle
        (326, 30, 346, 50): True,  # centre x 336: the right end
        (310, 14, 330, 34): True,  # centre y 24: the top end
        (310, 40, 330, 72): True,  # centre y 56: the bottom end
        (293, 30, 313, 50): False,  # centre x 303: in the edge band
        (310, 41, 330, 75): False,  # centre y 58: in the edge band
    }
    for find, again in finds.items():
        boxes = np.array([die, find], np.float32)
        result = found_again(boxes, np.array([0.9, 0.5], np.float32), np.ones(2, bool))
        assert result.tolist() == [False, again], find


def test_box_overlap_worked_by_hand() -> None:
    assert box_iou(SQUARE, OTHERS) == pytest.approx(np.array([OVERLAPS]), abs=1e-6)


def test_crops_are_square_centred_and_cut_at_full_resolution() -> None:
    frame = np.zeros((400, 400, 3), np.uint8)
    frame[190:210, 190:210] = 255  # a 20 px white square
    crops = crop_boxes(frame, np.array([[190, 190, 210, 210], [0, 0, 8, 8], [300, 300, 400, 400]], np.float32))
    assert crops.shape == (3, CROP, CROP, 3)
    middle = crops[0, :, :, 0]
    assert middle[CROP // 2, CROP // 2] == 255 and middle[0, 0] == 0
    white = np.argwhere(middle > 127)
    assert abs(white.mean(0) - (CROP - 1) / 2).max() < 1.0  # centred
    assert (middle > 127).sum() == pytest.approx((CROP / 1.25) ** 2, rel=0.15)  # 1.25x context
    tensor = reader_input(crops)
    assert tensor.shape == (3, 3, CROP, CROP) and tensor.max() <= 1.0


def test_a_huge_box_is_area_averaged_not_aliased() -> None:
    frame = np.zeros((1000, 1000, 3), np.uint8)
    frame[::2] = 255  # fine stripes average to grey
    crop = crop_boxes(frame, np.array([[100, 100, 900, 900]], np.float32))[0]
    assert 90 < crop[8:24, 8:24].mean() < 165


@pytest.mark.parametrize("box", [[180, 180, 220, 220], [100, 100, 300, 300]], ids=["die-sized", "shrunk-first"])
def test_a_turned_crop_turns_about_the_boxs_centre(box: list[float]) -> None:
    frame = np.zeros((400, 400, 3), np.uint8)
    cx = cy = (box[0] + box[2]) / 2
    reach, r = (box[2] - box[0]) / 3, int((box[2] - box[0]) / 10)
    frame[int(cy) - r : int(cy) + r, int(cx + reach) - r : int(cx + reach) + r] = 255  # a spot right of the centre
    boxes = np.array([box], np.float32)
    straight, quarter, half = (crop_boxes(frame, boxes, angles=np.array([a]))[0, :, :, 0] for a in (0.0, 90.0, 180.0))
    where = {name: np.argwhere(crop > 127).mean(0) - CROP / 2 for name, crop in (("straight", straight), ("quarter", quarter), ("half", half))}
    # (row, column) offsets from the crop's centre: right, then up (a counter-clockwise quarter turn), then left
    assert where["straight"][1] > 4 and abs(where["straight"][0]) < 1.5
    assert where["quarter"][0] < -4 and abs(where["quarter"][1]) < 1.5
    assert where["half"][1] < -4 and abs(where["half"][0]) < 1.5
    assert np.array_equal(crop_boxes(frame, boxes, angles=np.zeros(1))[0], crop_boxes(frame, boxes)[0])


def test_dihedral_views_are_the_eight_distinct_symmetries_of_each_crop() -> None:
    batch = np.random.default_rng(3).random((2, 3, 5, 5)).astype(np.float32)
    views = dihedral_views(batch, 8)
    assert views.shape == (16, 3, 5, 5)
    seen = {views[v * 2].tobytes() for v in range(8)}
    assert len(seen) == 8  # no symmetry drawn twice
    assert np.array_equal(views[1], batch[1]) and np.array_equal(views[2], np.rot90(batch[0], 1, (1, 2)))
    # a crop turned a quarter gives the same set of views: a reading averaged over them cannot depend on it
    turned = dihedral_views(np.rot90(batch, 1, (2, 3)).copy(), 4)
    assert {turned[v * 2].tobytes() for v in range(4)} == {views[v * 2].tobytes() for v in range(4)}
    with pytest.raises(ValueError, match="views must be 1 to 8, got 9"):
        dihedral_views(batch, 9)


def test_mean_over_views_averages_each_crop_across_its_views() -> None:
    probs = np.array([[1, 0], [0.2, 0.8], [0, 1], [0.4, 0.6]], np.float32)  # view 0: crops a, b; view 1: a, b
    assert mean_over_views(probs, 2) == pytest.approx(np.array([[0.5, 0.5], [0.3, 0.7]]))


def test_softmax_rows_sum_to_one() -> None:
    probs = softmax(np.array([[1000.0, 0.0, -5.0], [1.0, 2.0, 3.0]], np.float32))
    assert probs.sum(1) == pytest.approx([1.0, 1.0]) and probs[0, 0] == pytest.approx(1.0)


def test_yolo_labels_round_trip_and_bad_lines_are_named() -> None:
    labels = Detections(np.array([[10, 20, 50, 60], [100, 0, 140, 30]]), np.array([6, 1]), np.ones(2))
    text = format_yolo_labels(labels, 200, 100)
    back = parse_yolo_labels(text, 200, 100)
    assert back.values.tolist() == [6, 1] and np.allclose(back.boxes, labels.boxes, atol=1e-3)
    with pytest.raises(DatasetError, match=r"x\.txt:2: expected 'class cx cy w h' with class 0-5"):
        parse_yolo_labels("0 0.5 0.5 0.1 0.1\n6 0.5 0.5 0.1 0.1\n", 10, 10, "x.txt")
    with pytest.raises(DatasetError, match="x.txt:1"):
        parse_yolo_labels("one two", 10, 10, "x.txt")


def test_load_dataset_reads_images_labels_and_splits(tmp_path: Path) -> None:
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    for stem in ("a", "b", "c"):
        cv2.imwrite(str(tmp_path / "images" / f"{stem}.png"), np.zeros((40, 80, 3), np.uint8))
    (tmp_path / "labels" / "a.txt").write_text("4 0.5 0.5 0.25 0.5\n")
    (tmp_path / "split.csv").write_text("stem,split\na,test\nb,train\nc,test\n")
    everything = load_dataset(tmp_path)
    assert [i.path.name for i in everything] == ["a.png", "b.png", "c.png"]
    assert everything[0].labels.roll() == [5] and everything[0].labels.boxes.tolist() == [[30.0, 10.0, 50.0, 30.0]]
    assert [i.path.stem for i in load_dataset(tmp_path, split="test")] == ["a", "c"]
    with pytest.raises(DatasetError, match="split 'val' not in"):
        load_dataset(tmp_path, split="val")
    with pytest.raises(DatasetError, match="has no images/ folder"):
        load_dataset(tmp_path / "labels")


def two_dice_folder(folder: Path) -> Path:
    """Image a (80x40) holds a die labelled 5 at 30,10-50,30 and an unlabelled one; b has none."""
    (folder / "images").mkdir(parents=True)
    (folder / "labels").mkdir()
    for stem in ("a", "b"):
        cv2.imwrite(str(folder / "images" / f"{stem}.png"), np.zeros((40, 80, 3), np.uint8))
    (folder / "labels" / "a.txt").write_text("4 0.5 0.5 0.25 0.5\n")
    return folder


def test_label_fixes_put_a_value_right_and_add_a_die_the_labels_left_out(tmp_path: Path) -> None:
    items = load_dataset(two_dice_folder(tmp_path / "photos"))
    fixes_csv = tmp_path / "fixes.csv"
    fixes_csv.write_text(
        "stem,box,labelled,seen,why\n"
        "a,31 10 50 29,5,6,two rows of three pips\n"
        "a,60 10 75 25,,2,a die with no label\n"
        "elsewhere,1 1 9 9,,1,an image not in this set\n"
    )
    fixes = read_label_fixes(fixes_csv)
    assert fixes[1] == LabelFix("a", (60.0, 10.0, 75.0, 25.0), None, 2, "a die with no label")
    assert str(fixes[0]) == "a die at 31 10 50 29 (labelled 5, shows 6)"
    fixed = apply_label_fixes(items, fixes)
    assert fixed[0].labels.values.tolist() == [6, 2]
    assert fixed[0].labels.boxes.tolist() == [[30.0, 10.0, 50.0, 30.0], [60.0, 10.0, 75.0, 25.0]]
    assert fixed[1] is items[1]
    assert items[0].labels.values.tolist() == [5], "the images as loaded are left as they were"


def test_a_label_fix_that_no_longer_finds_what_it_fixes_is_an_error(tmp_path: Path) -> None:
    items = load_dataset(two_dice_folder(tmp_path))
    with pytest.raises(DatasetError, match=r"label fix a die at 30 10 50 30 \(labelled 3, shows 2\): no die labelled 3 there any more"):
        apply_label_fixes(items, [LabelFix("a", (30, 10, 50, 30), 3, 2, "")])
    with pytest.raises(DatasetError, match="no die labelled 5 there any more"):
        apply_label_fixes(items, [LabelFix("a", (60, 10, 75, 25), 5, 2, "")])
    with pytest.raises(DatasetError, match=r"\(no label, shows 4\): the labels now have a die there"):
        apply_label_fixes(items, [LabelFix("a", (32, 12, 50, 30), None, 4, "")])


def test_label_fixes_remove_a_box_with_nothing_to_score_and_leave_a_photo_out(tmp_path: Path) -> None:
    items = load_dataset(two_dice_folder(tmp_path / "photos"))
    fixes_csv = tmp_path / "fixes.csv"
    fixes_csv.write_text(
        "stem,box,labelled,seen,why\n"
        "a,31 10 50 29,5,-,a symbol face and no pips\n"
        "a,60 10 75 25,,2,a die with no label\n"
        "b,,,-,a heap of dice with no labels\n"
    )
    fixes = read_label_fixes(fixes_csv)
    assert fixes[0] == LabelFix("a", (31.0, 10.0, 50.0, 29.0), 5, None, "a symbol face and no pips")
    assert fixes[2] == LabelFix("b", None, None, None, "a heap of dice with no labels")
    assert str(fixes[0]) == "a die at 31 10 50 29 (labelled 5, nothing to score)"
    assert str(fixes[2]) == "b (the whole photo, left out)"
    fixed = apply_label_fixes(items, fixes)
    assert [item.path.stem for item in fixed] == ["a"]
    assert fixed[0].labels.values.tolist() == [2] and fixed[0].labels.boxes.tolist() == [[60.0, 10.0, 75.0, 25.0]]
    assert items[0].labels.values.tolist() == [5], "the images as loaded are left as they were"
    with pytest.raises(DatasetError, match=r"\(labelled 3, nothing to score\): no die labelled 3 there any more"):
        apply_label_fixes(items, [LabelFix("a", (30, 10, 50, 30), 3, None, "")])


@pytest.mark.parametrize(
    ("row", "wrong"),
    [
        ("a,1 2 3,5,6,x", "box 'x0 y0 x1 y1'"),
        ("a,1 2 3 4,5,seven,x", "values 1-6"),
        ("a,1 2 3 4,5,7,x", "values must be 1-6"),
        ("a,5 2 3 4,5,6,x", "x0 < x1"),
        ("a,,5,-,x", "a row without a box leaves the whole photo out"),
        ("a,,,4,x", "a row without a box leaves the whole photo out"),
        ("a,1 2 3 4,,-,x", "seen '-' removes a labelled box"),
    ],
)
def test_a_bad_label_fixes_line_is_refused_with_its_line_number(tmp_path: Path, row: str, wrong: str) -> None:
    path = tmp_path / "fixes.csv"
    path.write_text(f"stem,box,labelled,seen,why\na,1 2 3 4,,6,fine\n{row}\n")
    with pytest.raises(DatasetError, match=rf"fixes.csv:3: .*{wrong}"):
        read_label_fixes(path)
    with pytest.raises(DatasetError, match="cannot read label fixes"):
        read_label_fixes(tmp_path / "missing.csv")


def test_score_counts_found_missed_extra_and_confused_dice() -> None:
    truth = Detections(np.array([[0, 0, 10, 10], [20, 0, 30, 10], [40, 0, 50, 10]]), np.array([1, 5, 6]), np.ones(3))
    found = Detections(
        np.array([[0, 0, 10, 10], [21, 0, 31, 10], [80, 80, 90, 90]]), np.array([1, 3, 2]), np.array([0.99, 0.4, 0.9])
    )
    assert match(truth, found) == [(0, 0), (1, 1)]
    score = Score()
    score.add(truth, found, "x.jpg")
    score.add(truth[:1], found[:1], "y.jpg")
    assert (score.labelled, score.found, score.matched, score.right) == (4, 4, 3, 2)
    assert score.recall == 0.75 and score.precision == 0.75 and score.value_accuracy == pytest.approx(2 / 3)
    assert score.roll_exact == 0.5 and score.failures == ["x.jpg: labelled [1, 5, 6], read [1, 2, 3] (the window asks: 1 unsure)"]
    assert score.sure == 2 and score.sure_accuracy == 1.0 and score.unsure_share == pytest.approx(1 / 3)
    assert score.confusion[5, 3] == 1 and score.confusion[6, 0] == 1 and score.confusion[0, 2] == 1
    assert "recall" in score.report() and score.to_json()["confusion"][1][1] == 2


def test_score_tells_misreads_the_window_would_ask_about_from_unasked_ones() -> None:
    truth = Detections(np.array([[0, 0, 10, 10], [20, 0, 30, 10]]), np.array([1, 5]), np.ones(2))
    sure_misread = Detections(truth.boxes, np.array([1, 3]), np.array([0.99, 0.95]))
    missed = Detections(truth.boxes[:1], np.array([1]), np.array([0.99]))
    extra = Detections(np.array([[0, 0, 10, 10], [20, 0, 30, 10], [60, 0, 70, 10]]), np.array([1, 5, 2]), np.full(3, 0.99))
    unsure_misread = Detections(truth.boxes, np.array([1, 3]), np.array([0.99, 0.3]))
    score = Score()
    for name, found in [("sure", sure_misread), ("missed", missed), ("extra", extra), ("unsure", unsure_misread), ("right", truth)]:
        score.add(truth, found, name)
    assert score.unasked == 1 and score.exact == 1 and score.to_json()["wrong_unasked"] == 1
    assert [line.split(" (")[1] for line in score.failures] == [
        "unasked)", "the window asks: 1 of 2 dice found)", "the window asks: 3 of 2 dice found)", "the window asks: 1 unsure)"
    ]
    assert "wrong, unasked  1 of 5 rolls" in score.report()


@pytest.mark.parametrize(
    ("image", "shape"),
    [
        (np.zeros((5, 6), np.uint8), (5, 6, 3)),
        (np.zeros((5, 6, 1), np.uint8), (5, 6, 3)),
        (np.zeros((5, 6, 4), np.uint8), (5, 6, 3)),
        (np.zeros((5, 6, 3), np.uint16), (5, 6, 3)),
        (np.zeros((5, 6, 3), np.float32), (5, 6, 3)),
    ],
)
def test_any_common_image_layout_becomes_a_bgr8_frame(image: np.ndarray, shape: tuple[int, ...]) -> None:
    frame = to_bgr8(image)
    assert frame.shape == shape and frame.dtype == np.uint8


def test_unusable_images_are_refused_with_the_reason(tmp_path: Path) -> None:
    with pytest.raises(ImageError, match="unsupported pixel type int64"):
        to_bgr8(np.zeros((4, 4, 3), np.int64))
    with pytest.raises(ImageError, match="no such file"):
        load_frame(tmp_path / "missing.png")
    (tmp_path / "empty.png").write_bytes(b"")
    with pytest.raises(ImageError, match="empty file"):
        load_frame(tmp_path / "empty.png")
    (tmp_path / "notes.jpg").write_text("not a picture")
    with pytest.raises(ImageError, match="not an image"):
        load_frame(tmp_path / "notes.jpg")
    with pytest.raises(ImageError, match="is a folder"):
        load_frame(tmp_path)


def test_a_box_is_cut_by_the_frame_edge_where_it_touches_a_corner_or_is_narrow_across_an_edge() -> None:
    boxes = np.array(
        [
            [2.0, 30, 12, 50],  # left edge, on the margin, half as wide as tall: cut
            [2.5, 30, 12, 50],  # half a pixel inside the margin: not touching
            [30, 2.0, 50, 12],  # top, half as tall as wide: cut
            [86, 30, 98.0, 50],  # right: 100 - 2, cut
            [30, 70, 50, 78.0],  # bottom: 80 - 2, cut
            [30, 30, 50, 50],  # well inside
            [2.0, 30, 20, 50],  # against the left edge, 18 x 20: a whole die
            [30, 60, 47, 78.0],  # against the bottom, 17 x 18: a whole die
            [0, 0, 20, 20],  # in a corner, square: cut on two sides alike
            [80, 60, 100, 80],  # the opposite corner
            [90, 30, 110, 50],  # reaching past the right edge
            [40, -5, 60, 15],  # and past the top
        ],
        np.float32,
    )
    assert cut_by_edge(boxes, 100, 80).tolist() == [True, False, True, True, True, False, False, False, True, True, True, True]
    none = cut_by_edge(np.zeros((0, 4), np.float32), 100, 80)
    assert none.shape == (0,) and none.dtype == bool
