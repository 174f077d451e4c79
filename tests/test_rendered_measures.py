"""The measures on rendered scenes score a roll as the game asks about it: a die cut by the frame's
edge is asked about, not scored (``Score.add``'s ``size``), as on real photos."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.typing import NDArray

from scorekeeper.evaluation import assessment
from scorekeeper.evaluation.assessment import score_conditions
from scorekeeper.synthetic.scene import Scene
from scorekeeper.vision.detections import Detections


class CornerReader:
    """Reads every die right, sure of it, but boxes the first one in the frame's top-left corner,
    where the game asks about it (a die cut by two edges)."""

    def __init__(self) -> None:
        self.labels: Detections | None = None

    def read(self, frame: NDArray[np.uint8], dice: int | None = None) -> Detections:
        assert self.labels is not None
        boxes = self.labels.boxes.copy()
        boxes[0] = [0, 0, 20, 20]
        return Detections(boxes, self.labels.values, np.ones(len(boxes), np.float32))


def test_a_die_cut_by_the_frame_edge_in_a_rendered_scene_is_asked_about(monkeypatch: pytest.MonkeyPatch) -> None:
    reader = CornerReader()
    real_render = assessment.render  # type: ignore[attr-defined]

    def render(scene: Scene) -> tuple[NDArray[np.uint8], Detections]:
        image, labels = real_render(scene)
        reader.labels = labels
        return image, labels

    monkeypatch.setattr(assessment, "render", render)
    scores = score_conditions(reader, 1)
    assert len(scores) >= 10
    for score in scores.values():
        # the values are read right, but the cut die makes the game ask: none right unasked
        assert score.exact == score.images == 1
        assert score.right_unasked == 0 and score.asked == 1 and score.why["cut_by_edge"] == 1
