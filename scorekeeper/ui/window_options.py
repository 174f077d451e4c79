"""What the command line asks of the window, apart from the window so that its parts (the camera
pane) read it without importing the window that holds them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from scorekeeper.rules import RuleSet


@dataclass(frozen=True)
class WindowOptions:
    """What the command line asked of the window."""

    source: str | None = None
    """``webcam:N``, ``video:PATH``, ``images:DIR``, ``demo`` or an IP camera's address; None: the first
    webcam, else the demo table."""
    rules: RuleSet | None = None
    """Rules for a game started from the command line."""
    players: tuple[str, ...] = ()
    """Players of a game started from the command line."""
    target: int | None = None
    """Target of a game started from the command line."""
    resume: Path | None = None
    """A journal to go on with."""
    calibration: Path | None = None
    """A calibration profile to use instead of the last one saved."""
    keep_photos: bool = True
    """Whether rolls keep their pictures in this session (``--no-photos``: none; the saved
    setting can switch them off as well)."""
