"""The camera's own motion between frames read: told by the table's texture, taken out of the picture's change."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from scorekeeper.camera.motion import CameraMotion
from scorekeeper.synthetic.render import render
from scorekeeper.synthetic.scene import Scene
from scorekeeper.synthetic.table import TableLook
from scorekeeper.vision.detections import Detections

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"
NOTHING = Detections(np.zeros((0, 4), np.float32), np.zeros(0, np.int64), np.zeros(0, np.float32))


def wood(shift: tuple[float, float], exposure: float = 1.0) -> NDArray[np.uint8]:
    scene = Scene(width=320, height=240, dice=(), table=TableLook(kind="wood", seed=4), shift=shift, exposure=exposure, seed=1, jpeg=0)
    return render(scene)[0]


def thumbnail(image: NDArray[np.uint8]) -> NDArray[np.uint8]:
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return np.asarray(cv2.resize(gray, (image.shape[1] // 8, image.shape[0] // 8), interpolation=cv2.INTER_AREA), np.uint8)


def test_a_camera_moved_across_a_textured_table_is_measured_and_taken_out_of_the_change() -> None:
    motion = CameraMotion()
    before, after = wood((0.0, 0.0)), wood((5.0, -3.0))
    assert motion.block_change(before, thumbnail(before), None, NOTHING) is None
    change = motion.block_change(after, thumbnail(after), thumbnail(before), NOTHING)
    assert change is not None
    assert motion.moved and motion.table_shifted
    assert np.allclose(motion.shift, (5.0, -3.0), atol=1.0)
    assert float(change.max()) < 24


def test_a_still_camera_and_an_exposure_jump_are_no_camera_motion() -> None:
    motion = CameraMotion()
    before, after = wood((0.0, 0.0)), wood((0.0, 0.0), exposure=1.3)
    motion.block_change(before, thumbnail(before), None, NOTHING)
    motion.block_change(after, thumbnail(after), thumbnail(before), NOTHING)
    assert not motion.moved and not motion.table_shifted
    assert motion.shift.tolist() == [0.0, 0.0]


def test_only_the_camera_motion_module_tells_how_far_the_picture_moved() -> None:
    users = sorted(path.relative_to(PACKAGE).as_posix() for path in PACKAGE.rglob("*.py") if "phaseCorrelate" in path.read_text(encoding="utf-8"))
    assert users == ["camera/motion.py"]
