"""``scorekeeper watch SOURCE``: frames to rolls without a window, one event a line."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from scorekeeper.pipeline.calibration import CalibrationError, CalibrationProfile, default_profile, load_profile
from scorekeeper.pipeline.settling import SettleError, SettleParams
from scorekeeper.pipeline.sources import CameraLost, SourceError, SourceSpec, open_source
from scorekeeper.pipeline.watch import ReaderUnavailable, Watcher, default_reader
from scorekeeper.vision.detections import DiceReader


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "watch",
        help="read rolls from a camera, video, photos or the demo table, without a window",
        description=(
            "Run capture, dice reading and settling without a window and print each event as it happens: "
            "moving, settled (the roll), cleared. Ends at the end of a video or photo folder; "
            "Ctrl-C ends a camera or the demo table."
        ),
    )
    parser.add_argument("source", metavar="SOURCE", help="webcam:N, video:PATH, images:DIR or demo (demo:SEED)")
    parser.add_argument("--json", action="store_true", help="one JSON object per event and line")
    parser.add_argument(
        "--calibration",
        metavar="PROFILE",
        type=Path,
        help="calibration profile (.toml or .json): rolling area, die size, settle frames, confidence "
        "(default: calibration/default.toml)",
    )
    parser.add_argument(
        "--settle-frames", type=int, metavar="N", help="still frames before a roll is taken (overrides the profile)"
    )
    parser.add_argument("--max-frames", type=int, metavar="N", help="stop after N frames")
    parser.add_argument("--model", type=Path, metavar="DIR", help="dice model folder (default: the shipped models/)")
    parser.add_argument(
        "--unpaced", action="store_true", help="make demo frames as fast as possible instead of at 30 per second"
    )
    parser.set_defaults(run=run)


def _fail(message: str) -> int:
    print(f"scorekeeper watch: {message}", file=sys.stderr)
    return 2


def _profile(args: argparse.Namespace) -> CalibrationProfile:
    profile = default_profile() if args.calibration is None else load_profile(args.calibration)
    if args.settle_frames is not None:
        try:
            profile = replace(profile, settle_frames=args.settle_frames)
        except CalibrationError as exc:
            raise CalibrationError(f"--settle-frames: {exc}") from None
    return profile


def run(args: argparse.Namespace, reader: DiceReader | None = None) -> int:
    """Watch until the source ends or Ctrl-C; ``reader`` replaces the ONNX reader (tests)."""
    if args.max_frames is not None and args.max_frames < 1:
        return _fail(f"--max-frames must be 1 or more, got {args.max_frames}")
    try:
        profile = _profile(args)
        spec = SourceSpec.from_str(args.source)
        params = SettleParams(settle_frames=profile.settle_frames, unsure_below=profile.confidence)
        # Each photo is held long enough to settle once, so every photo gives its own roll.
        hold = params.settle_frames + params.move_frames + 2
        source = open_source(spec, resolution=profile.resolution, realtime=False if args.unpaced else None, hold=hold)
    except (CalibrationError, SettleError, SourceError) as exc:
        return _fail(str(exc))
    status = 0
    with source:
        try:
            watcher = Watcher(source, reader or default_reader(args.model), profile, params)
        except ReaderUnavailable as exc:
            return _fail(str(exc))
        if not args.json:
            ends = "Ctrl-C to stop" if source.live else "until the end"
            print(f"watching {source.name}, {ends}", file=sys.stderr)
        try:
            for event in watcher.events(args.max_frames):
                print(json.dumps(event.to_json()) if args.json else str(event), flush=True)
        except KeyboardInterrupt:
            watcher.stop()
        except CameraLost as exc:
            status = _fail(str(exc))
    return status
