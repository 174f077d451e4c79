"""The rules in force: their heading at the top, the rules straight under it, however tall the window."""

from __future__ import annotations

import numpy as np
from pytestqt.qtbot import QtBot

from scorekeeper.rules import load_rules
from scorekeeper.ui.rules_view import RulesDialog


def inked_rows(dialog: RulesDialog) -> list[int]:
    """The rows of the dialog's picture that hold dark (text) pixels, top to bottom."""
    image = dialog.grab().toImage().convertToFormat(dialog.grab().toImage().Format.Format_Grayscale8)
    pixels = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine())[:, : image.width()]
    return [int(row) for row in np.nonzero((pixels < 90).any(axis=1))[0]]


def test_no_gap_under_the_heading_in_a_tall_rules_window(qtbot: QtBot) -> None:
    dialog = RulesDialog(load_rules("retail"), 10000)
    qtbot.addWidget(dialog)
    dialog.resize(560, 1000)
    dialog.show()
    qtbot.waitExposed(dialog)
    line = dialog.fontMetrics().height()
    rows = inked_rows(dialog)
    assert rows and rows[0] <= 3 * line, f"the heading is {rows[0]} pixels down, not at the top"
    gaps = [below - above for above, below in zip(rows, rows[1:])]
    assert max(gaps[:6]) <= 3 * line, f"a gap of {max(gaps[:6])} pixels under the heading"
