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
from scorekeeper.synthetic.render import DieLook, DiePose, Scene, TableLook, render

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
