"""Start the window: the Qt application, the game (new, resumed or asked for), optional screenshot."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QBuffer, QIODevice, QTimer
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QApplication

from scorekeeper.game.games_folder import default_home
from scorekeeper.rules import FarkleError, load_rules
from scorekeeper.safe_input import quote
from scorekeeper.safe_output import write_atomically
from scorekeeper.ui.controller import GameController
from scorekeeper.ui.main_window import MainWindow
from scorekeeper.ui.window_options import WindowOptions
from scorekeeper.ui.worker import wait_for_lingering

EXIT_WAIT_MS = 10_000
"""How long the closed window waits for a capture thread still busy in a camera call."""

@dataclass(frozen=True)
class Screenshot:
    """Run the window this long, save a picture of it, then exit. Such a run starts a game (and
    writes its journal) only when ``--players`` asks for one, offers none for resume, and at the
    end sets the game it started aside and says where its journal is (see :func:`say_where_the_game_went`)."""

    path: Path
    """Where the PNG goes."""
    after: float
    """Seconds to run first."""


def say_where_the_game_went(controller: GameController, started: bool) -> None:
    """At the end of a screenshot run, print where the game's journal is; a game the run
    ``started`` is set aside first, so it is never offered for resume nor followed by ``serve``
    as the newest unfinished game."""
    journal = controller.journal
    if journal is None:
        return
    if not started:
        print(f"scorekeeper: the game's journal is {journal.path}", flush=True)
        return
    try:
        journal.shelve()
    except FarkleError as exc:
        print(f"scorekeeper: this run's game is in {journal.path}, and could not be set aside: {exc}", file=sys.stderr, flush=True)
        return
    print(f"scorekeeper: this run's game is in {journal.path}, set aside (not offered for resume)", flush=True)


def save_picture(picture: QPixmap, path: Path) -> str | None:
    """Write ``picture`` to ``path`` in the format its suffix names (a PNG for ``.png``), whole or not
    at all (:func:`~scorekeeper.safe_output.write_atomically`); None, else why it could not be."""
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not picture.save(buffer, path.suffix.removeprefix(".").upper() or None):
        return f"{quote(path.suffix) if path.suffix else 'a name without a suffix'} names no picture format; end the name in .png"
    try:
        write_atomically(path, bytes(buffer.data().data()))
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


def run_window(options: WindowOptions, screenshot: Screenshot | None = None, home: Path | None = None) -> int:
    """Open the window and run it until it is closed; returns the exit status."""
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("scorekeeper")
    controller = GameController(home or default_home())
    window = MainWindow(controller, options)
    window.show()
    if options.resume is not None:
        resume = options.resume
        QTimer.singleShot(0, lambda: window.games.resume(resume))
    elif options.players:
        controller.start(options.rules or load_rules("retail"), options.players, options.target)
    elif screenshot is None:
        QTimer.singleShot(0, window.games.startup)
    if screenshot is not None:

        def shoot() -> None:
            problem = save_picture(window.grab(), screenshot.path)
            saved = problem is None
            if problem is not None:
                print(f"scorekeeper: cannot save the screenshot to {screenshot.path}: {problem}", file=sys.stderr)
            say_where_the_game_went(controller, started=options.resume is None)
            window.close()
            app.exit(0 if saved else 2)

        QTimer.singleShot(int(screenshot.after * 1000), shoot)
    status = int(app.exec())
    if not wait_for_lingering(EXIT_WAIT_MS):
        # a camera call that never returns: leave without the interpreter's teardown, which
        # would crash under the running thread (the journal is already on disk, step by step)
        print("scorekeeper: the camera did not let go; closing without waiting for it", file=sys.stderr, flush=True)
        sys.stdout.flush()
        os._exit(status)
    return status
