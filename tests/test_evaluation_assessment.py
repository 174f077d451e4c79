"""Measuring a reader on photos resized to other dice sizes."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from scorekeeper.vision import Detections
from scorekeeper.evaluation.assessment import resized, score_resized
from scorekeeper.evaluation.dataset import LabelledImage
from scorekeeper.synthetic.die import DieLook, DiePose
from scorekeeper.synthetic.render import render
from scorekeeper.synthetic.scene import Scene
from scorekeeper.synthetic.table import TableLook

WHITE_ON_FELT = Scene(
    width=333,
    height=251,
    dice=(DiePose(x=90, y=120, size=40, angle=15, value=5, look=DieLook(body=(240, 240, 240), pips=(20, 20, 20), corner=0.15)),),
    table=TableLook(kind="felt", seed=3),
    seed=5,
)


@pytest.mark.parametrize("factor", [0.5, 0.65, 1.5, 2.0])
def test_resized_labels_frame_the_same_die(factor: float) -> None:
    frame, labels = render(WHITE_ON_FELT)
    small, moved = resized(frame, labels, factor)
    assert small.shape[:2] == (round(251 * factor), round(333 * factor))
    assert moved.values.tolist() == labels.values.tolist()
    x0, y0, x1, y1 = moved.boxes[0].round().astype(int)
    inside = small[y0:y1, x0:x1].mean()
    ox0, oy0, ox1, oy1 = labels.boxes[0].round().astype(int)
    # the white die fills its box at every size; the dark felt around it would pull the mean down
    assert abs(inside - frame[oy0:oy1, ox0:ox1].mean()) < 12
    assert inside > small.mean() + 60


class BrightestBlob:
    """A reader that takes the frame's bright pixels for one die showing 5: the white die here."""

    def read(self, frame: NDArray[np.uint8]) -> Detections:
        ys, xs = np.nonzero(frame.mean(2) > 200)
        return Detections(np.array([[xs.min(), ys.min(), xs.max() + 1, ys.max() + 1]]), np.array([5]), np.ones(1, np.float32))


def test_score_resized_scores_the_reading_against_the_resized_labels(tmp_path: Path) -> None:
    frame, labels = render(WHITE_ON_FELT)
    cv2.imwrite(str(tmp_path / "white.png"), frame)
    item = LabelledImage(tmp_path / "white.png", labels)
    for factor in (0.5, 2.0):
        score = score_resized(BrightestBlob(), [item], factor)
        assert (score.images, score.labelled, score.matched, score.exact) == (1, 1, 1, 1)
    shifted = LabelledImage(tmp_path / "white.png", Detections(labels.boxes + 30, labels.values, labels.confidences))
    assert score_resized(BrightestBlob(), [shifted], 2.0).matched == 0


def test_a_die_cut_by_the_photos_edge_is_asked_about_at_the_table_as_the_game_asks() -> None:
    from scorekeeper.evaluation.score import Score

    truth = Detections(np.array([[0, 40, 12, 70], [50, 50, 80, 80]]), np.array([2, 5]), np.ones(2))
    sure = Detections(truth.boxes, truth.values, np.full(2, 0.99))
    photo, without_size = Score(), Score()
    photo.add(truth, sure, "cut.png", size=(160, 120))
    without_size.add(truth, sure, "cut.png")
    assert (photo.right_unasked, photo.asked) == (0, 1)
    assert (without_size.right_unasked, without_size.asked) == (1, 0)
    whole = Detections(np.array([[0, 40, 28, 70], [50, 50, 80, 80]]), np.array([2, 5]), np.full(2, 0.99))
    lying_against_the_edge = Score()
    lying_against_the_edge.add(whole, whole, "whole.png", size=(160, 120))
    assert (lying_against_the_edge.right_unasked, lying_against_the_edge.asked) == (1, 0)
