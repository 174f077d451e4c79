"""The table session: between the camera pipeline and the game's views, with no Qt.

:class:`~scorekeeper.table_session.session.TableSession` turns settled dice into the game's rolls and
taps into its corrections, says what to ask and what to draw, and how many dice the game
expects; :mod:`scorekeeper.table_session.tap_pictures` keeps the tapped dice's pictures for training in
step with undo; :mod:`scorekeeper.table_session.assembly` puts the camera game together once for
the window's camera pane and :mod:`scorekeeper.table_session.camera_game`, which plays a whole game
from a camera or a recording without a window (``scorekeeper watch --game``).
"""

from scorekeeper.table_session.session import DiceOnTable, Drawing, TableSession, scoring_mask

__all__ = ["DiceOnTable", "Drawing", "TableSession", "scoring_mask"]
