"""From camera frames to rolls, without a window: frame sources, the rolling area, the camera's own
motion, settling, the watch loop.

No Qt here. ``scorekeeper watch`` and the window's capture thread both run a :class:`Watcher`::

    with open_source("webcam:0", resolution=profile.resolution) as source:
        watcher = Watcher(source, default_reader(), profile)
        for step in watcher:            # WatchStep: frame, dice, aside, events, state, fps
            for event in step.events:   # SettleEvent: moving / settled (the roll) / cleared
                ...

The demo table (``open_source("demo")``, :mod:`scorekeeper.camera.demo_table`) renders dice rolls
on the fly, so all of it runs with no camera.
"""

from scorekeeper.camera.calibration import (
    CalibrationError,
    CalibrationProfile,
    default_profile,
    load_profile,
    save_profile,
    split_by_area,
)
from scorekeeper.camera.frames import Frame
from scorekeeper.camera.settling import EventKind, SettleError, SettleEvent, SettleParams, Settler, TableState
from scorekeeper.camera.sources import (
    CameraLost,
    DiceSource,
    MarkedDiceSource,
    FrameSource,
    ImageFolderSource,
    ReconnectingSource,
    SourceError,
    SourceKind,
    SourceSpec,
    StreamSource,
    VideoSource,
    WebcamSource,
    open_source,
    parse_source,
)
from scorekeeper.camera.watch import ReaderUnavailable, Watcher, WatchStep, default_reader

__all__ = [
    "CalibrationError",
    "CalibrationProfile",
    "CameraLost",
    "DiceSource",
    "MarkedDiceSource",
    "EventKind",
    "Frame",
    "FrameSource",
    "ImageFolderSource",
    "ReaderUnavailable",
    "ReconnectingSource",
    "SettleError",
    "SettleEvent",
    "SettleParams",
    "Settler",
    "SourceError",
    "SourceKind",
    "SourceSpec",
    "StreamSource",
    "TableState",
    "VideoSource",
    "WatchStep",
    "Watcher",
    "WebcamSource",
    "default_profile",
    "default_reader",
    "load_profile",
    "open_source",
    "parse_source",
    "save_profile",
    "split_by_area",
]
