"""The live view's dice tags: one short tag per die, none overlapping another, and a tap on a tag
is a tap on its die."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF
from pytestqt.qtbot import QtBot

from scorekeeper.table_session.session import Drawing
from scorekeeper.ui.camera_view import CameraView, place_tags
from scorekeeper.vision.detections import Detections


def clustered(view: CameraView, boxes: list[list[float]], values: list[int], marks: tuple[str, ...], doubt: tuple[str, ...]) -> None:
    """Show a frame with these dice drawn over it, every one waiting for a tap."""
    found = Detections(np.array(boxes, np.float32), np.array(values), np.full(len(values), 0.9, np.float32))
    count = len(values)
    view.show_frame(np.zeros((480, 640, 3), np.uint8), Drawing(found, np.zeros(count, bool), np.ones(count, bool), Detections.empty(), True, "", marks, doubt))


def disjoint(rects: list[QRectF]) -> bool:
    return not any(a.intersects(b) for number, a in enumerate(rects) for b in rects[number + 1 :])


def test_six_dice_side_by_side_on_a_table_not_calibrated_get_one_short_tag_each_that_never_overlap(qtbot: QtBot) -> None:
    view = CameraView()
    qtbot.addWidget(view)
    view.resize(640, 480)
    # six dice of a wild-die, spicy game in a tight row and a second row just below: all in doubt
    boxes = [[100 + 32 * i, 200, 128 + 32 * i, 228] for i in range(4)] + [[110, 232, 138, 260], [142, 232, 170, 260]]
    clustered(view, boxes, [4, 4, 2, 3, 5, 6], ("",) * 6, ("wr",) * 6)
    tags = view.die_tags()
    assert len(tags) == 6, "one tag per die"
    assert [text for _rect, text in tags] == ["4?", "4?", "2?", "3?", "5?", "6?"]
    rects = [rect for rect, _text in tags]
    assert disjoint(rects), [r.getRect() for r in rects]
    for number, rect in enumerate(rects):
        assert view.die_at(rect.center()) == number, "a tap on a die's tag is a tap on that die"


def test_a_tag_sits_above_its_die_where_there_is_room() -> None:
    assert place_tags([QRectF(0, 100, 30, 30)], [(40.0, 28.0)])[0].bottom() <= 100, "above its die where there is room"


def test_tags_never_overlap_however_the_dice_crowd(qtbot: QtBot) -> None:
    rng = np.random.default_rng(7)
    for _ in range(50):
        corners = rng.uniform(40, 200, size=(6, 2))
        boxes = [QRectF(x, y, 28, 28) for x, y in corners]
        sizes = [(float(rng.uniform(30, 60)), 28.0) for _ in boxes]
        placed = place_tags(boxes, sizes)
        assert disjoint(placed) and [(r.width(), r.height()) for r in placed] == sizes


def test_the_wild_and_red_marks_told_show_in_the_tag(qtbot: QtBot) -> None:
    view = CameraView()
    qtbot.addWidget(view)
    view.resize(640, 480)
    clustered(view, [[100, 200, 130, 230], [140, 200, 170, 230]], [2, 5], ("w", "r"), ("", ""))
    assert [text for _rect, text in view.die_tags()] == ["2W?", "5R?"]
    assert view.die_at(QPointF(115, 215)) == 0
