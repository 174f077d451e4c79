"""``scorekeeper`` (or ``scorekeeper window``): the window, on a webcam or the demo table."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from scorekeeper.cli.options import add_penalty_option
from scorekeeper.errors import UsageError


def add_options(parser: argparse.ArgumentParser) -> None:
    """The window's options, on the bare ``scorekeeper`` command as on ``scorekeeper window``."""
    parser.add_argument(
        "--source",
        metavar="SOURCE",
        help="webcam:N, video:PATH, images:DIR, demo or an IP camera's address (a phone: http://PHONE:8080/video, "
        "rtsp://...) (default: the first webcam, else the demo table)",
    )
    parser.add_argument(
        "--rules", metavar="PRESET_OR_FILE", help="rules of a game started right away (a preset, +variants, or a .toml file)"
    )
    parser.add_argument(
        "--variant", action="append", default=[], metavar="NAME", help="lay a variant over the rules of a game started right away"
    )
    add_penalty_option(parser)
    parser.add_argument("--players", metavar="NAMES", help="start a game right away: comma-separated names in seat order")
    parser.add_argument("--target", type=int, help="play to this score: any multiple of 50 from 1,000 up (default: the rules' own target)")
    parser.add_argument("--resume", metavar="JOURNAL", type=Path, help="go on with the game in this journal")
    parser.add_argument("--calibration", metavar="PROFILE", type=Path, help="a calibration profile (default: the last saved)")
    parser.add_argument(
        "--no-photos", action="store_true", help="keep no picture of the rolls (the setting Game > Keep roll pictures stays as it is)"
    )
    parser.add_argument("--screenshot", metavar="FILE", type=Path, help="save a picture of the window after --after seconds, then exit")
    parser.add_argument("--after", metavar="SECONDS", type=float, default=5.0, help="how long to run before --screenshot (default 5)")


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "window",
        help="open the window (what 'scorekeeper' alone does)",
        description="Open the scorekeeper window on a webcam, a video, a folder of photos or the demo table.",
    )
    add_options(parser)
    parser.set_defaults(run=run)


def check_display() -> None:
    """On Linux, say plainly when there is no screen to open the window on (Qt would abort)."""
    if not sys.platform.startswith("linux") or os.environ.get("QT_QPA_PLATFORM"):
        return
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        raise UsageError(
            "no screen to open the window on (neither DISPLAY nor WAYLAND_DISPLAY is set): run it from a "
            "desktop session, or under xvfb-run for screenshots; 'scorekeeper play' keeps score in the terminal"
        )


def check_resumable(path: Path) -> None:
    """Say before the window opens when ``path`` holds no game to go on with (a damaged end is
    fine: the window recovers the game before it), or when the game is open in another process."""
    from scorekeeper.game.journal import no_game_error, read_journal
    from scorekeeper.game.lock import check_not_open_elsewhere

    contents = read_journal(path)
    if not contents.events:
        raise no_game_error(path, contents.damage)
    check_not_open_elsewhere(path)


def check_qt_platform() -> None:
    """Say which Debian packages to install when Qt's X11 plugin cannot load here (Qt would abort with a core dump)."""
    from scorekeeper.cli.qt_platform import run_ldd, xcb_plugin, xcb_problem

    problem = xcb_problem(os.environ, sys.platform, xcb_plugin(), run_ldd)
    if problem is not None:
        raise UsageError(problem)


def run(args: argparse.Namespace) -> int:
    from scorekeeper.cli.options import game_from_args, game_options_given

    from scorekeeper.camera.calibration import CalibrationError, load_profile
    from scorekeeper.camera.sources import SourceError, SourceSpec

    try:
        if args.source is not None:
            SourceSpec.from_str(args.source)
        if args.calibration is not None:
            load_profile(args.calibration)
    except (SourceError, CalibrationError) as exc:
        raise UsageError(str(exc)) from None
    given = game_options_given(args)
    if args.resume is not None and given:
        raise UsageError(f"--resume goes on with the saved game's own rules and players; leave out {', '.join(given)}")
    if args.players is None and given:
        raise UsageError(f"{', '.join(given)} set up a game started right away: give its players too, e.g. --players Ann,Bob")
    game = game_from_args(args) if args.players is not None else None
    if args.screenshot is not None and args.after <= 0:
        raise UsageError(f"--after {args.after}: give the seconds to run before the screenshot, e.g. --after 5")
    if args.resume is not None:
        check_resumable(args.resume)
    check_display()
    # before Qt is imported: PySide6's own libraries need some of what the plugin needs
    check_qt_platform()
    from scorekeeper.ui.app import Screenshot, run_window
    from scorekeeper.ui.window_options import WindowOptions

    options = WindowOptions(
        source=args.source,
        rules=game.state.rules if game is not None else None,
        players=tuple(player.name for player in game.state.players) if game is not None else (),
        target=game.state.target if game is not None else None,
        resume=args.resume,
        calibration=args.calibration,
        keep_photos=not args.no_photos,
    )
    screenshot = Screenshot(args.screenshot, args.after) if args.screenshot is not None else None
    return run_window(options, screenshot)
