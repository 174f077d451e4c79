"""``scorekeeper watch SOURCE``: frames to rolls without a window, one event a line; with
``--game``, a whole game played from the camera or a recording (the window's table session)."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from scorekeeper.cli.options import add_penalty_option, add_rules_options, game_from_args
from scorekeeper.camera.calibration import CalibrationError, CalibrationProfile, default_profile, load_profile
from scorekeeper.camera.settling import SettleError, SettleParams
from scorekeeper.camera.sources import (
    CameraLost,
    ImageFolderSource,
    MarkedDiceSource,
    ReconnectingSource,
    SourceError,
    SourceKind,
    SourceSpec,
    open_source,
    shown_address,
)
from scorekeeper.camera.watch import ReaderUnavailable, Watcher, default_reader
from scorekeeper.errors import ScorekeeperError, UsageError
from scorekeeper.table_session.marks import MarksInPlay
from scorekeeper.table_session.table_colours import TableColours, teach_from_labels
from scorekeeper.cli.export import sheet_format
from scorekeeper.export import write_sheet
from scorekeeper.export.writers import check_sheet_target, written_words
from scorekeeper.cli.play import journal_for, kept_words, scoreboard
from scorekeeper.game import Game
from scorekeeper.game.games_folder import default_home
from scorekeeper.terminal import visible
from scorekeeper.rules import GameKind, game_headline
from scorekeeper.coach.policy import CoachError
from scorekeeper.stats.history import remember_game
from scorekeeper.table_session.camera_game import CameraGame, Chooser, CoachChooser, DecisionsError, FileChooser
from scorekeeper.vision.detections import DiceReader


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "watch",
        help="read rolls from a camera, a phone's stream, video, photos or the demo table, without a window",
        description=(
            "Run capture, dice reading and settling without a window and print each event as it happens: "
            "moving, settled (the roll), cleared. Ends at the end of a video or photo folder; "
            "Ctrl-C ends a camera, a stream or the demo table. A stream that drops is opened again by itself."
        ),
    )
    parser.add_argument(
        "source",
        metavar="SOURCE",
        help="webcam:N, video:PATH, images:DIR, demo (demo:SEED) or an IP camera's address "
        "(a phone's camera app: http://PHONE:8080/video, rtsp://...)",
    )
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
    game = parser.add_argument_group("a camera game (--game)")
    game.add_argument(
        "--game",
        action="store_true",
        help="play a whole game: each roll taken is scored, the scoreboard printed after each turn "
        "and the score sheet at the end",
    )
    add_rules_options(game)
    add_penalty_option(game)
    game.add_argument("--players", metavar="NAMES", help="comma-separated names in seat order, e.g. Ann,Bob")
    game.add_argument("--target", type=int, help="play to this score: any multiple of 50 from 1,000 up (default: the rules' own target)")
    game.add_argument(
        "--decisions",
        metavar="FILE",
        type=Path,
        help="the choices between rolls, one a line: the dice kept after each scoring roll ('1 5'), "
        "then 'b' (bank) or 'r' (roll on) where banking is allowed, and under piggyback 'p' (piggyback) or "
        "'fresh' (six fresh dice) where a turn is offered the last bank's pot (default: the coach's best play)",
    )
    game.add_argument("--sheet", metavar="FILE", type=Path, help="write the score sheet there (.csv, .html or .pdf)")
    parser.set_defaults(run=run)


def _fail(message: str) -> int:
    print(visible(f"scorekeeper watch: {message}"), file=sys.stderr)
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
    if not args.game and (args.players or args.decisions or args.sheet or args.target):
        return _fail("--players, --target, --decisions and --sheet belong to a camera game: add --game")
    if args.game:
        try:
            game, chooser = _game(args)
        except ScorekeeperError as exc:
            return _fail(str(exc))
    try:
        profile = _profile(args)
        spec = SourceSpec.from_str(args.source)
        params = SettleParams(settle_frames=profile.settle_frames)
        # Each photo is held long enough to settle once, so every photo gives its own roll.
        hold = params.settle_frames + params.move_frames + 2
        if spec.kind is SourceKind.STREAM:
            print(f"connecting to {shown_address(spec.argument)} (10 s at most)...", file=sys.stderr, flush=True)
        in_play = MarksInPlay.of(game.state.rules) if args.game else MarksInPlay(False, False)
        source = open_source(
            spec, resolution=profile.resolution, realtime=False if args.unpaced else None, hold=hold, wild=in_play.wild, spicy=in_play.red
        )
    except (CalibrationError, SettleError, SourceError) as exc:
        return _fail(str(exc))
    status = 0
    if isinstance(source, ReconnectingSource):
        source.on_notice = lambda text: print(visible(text), file=sys.stderr, flush=True)
    with source:
        try:
            watcher = Watcher(source, reader or default_reader(args.model), profile, params)
        except ReaderUnavailable as exc:
            return _fail(str(exc))
        if not args.json:
            ends = "Ctrl-C to stop" if source.live else "until the end"
            print(visible(f"watching {source.name}, {ends}"), file=sys.stderr)
        try:
            if args.game:
                return _play(game, chooser, watcher, args)
            for event in watcher.events(args.max_frames):
                print(json.dumps(event.to_json()) if args.json else str(event), flush=True)
            if isinstance(source, ImageFolderSource) and len(source.skipped) == len(source.files):
                shown = "; ".join(source.problems[:3]) + ("; ..." if len(source.problems) > 3 else "")
                status = _fail(f"none of the {len(source.files)} photos in {source.folder} could be read ({shown})")
        except KeyboardInterrupt:
            watcher.stop()
        except CameraLost as exc:
            status = _fail(str(exc))
    return status


def _game(args: argparse.Namespace) -> tuple[Game, Chooser]:
    """The game ``--game`` asks for, and who makes its choices."""
    if args.json:
        raise UsageError("--json prints settle events; a camera game prints the game (leave out --json)")
    game = game_from_args(args)
    rules = game.state.rules
    if rules.kind is not GameKind.DICE:
        raise UsageError(f"{rules.title} is played with cards: the camera reads dice")
    if args.sheet is not None:
        sheet_format(args.sheet, None)
        check_sheet_target(args.sheet)
    if args.decisions is not None:
        return game, FileChooser.read(args.decisions)
    try:
        return game, CoachChooser(game.state)
    except CoachError as exc:
        raise UsageError(f"{exc} Give the choices between rolls with --decisions FILE.") from None


def _colours(watcher: Watcher, colours: TableColours, in_play: MarksInPlay) -> None:
    """Say what the table knows of the dice's colours the game tells its marks by (learned at the
    table of ``--calibration``'s profile, kept beside it), or, on the demo table, teach them from a
    teaching throw whose labels say which die is the wild one and which faces show red pips;
    nothing where the rules play no marks. :class:`UsageError` where they are not learned and
    cannot be."""
    if not in_play.any:
        return
    if colours.note:
        print(colours.note, flush=True)
    missing = colours.missing(in_play.letters)
    if missing and isinstance(watcher.source, MarkedDiceSource):
        throws = teach_from_labels(watcher, colours, in_play.letters)
        print(f"Taught the table the dice's colours from {throws} teaching throw{'' if throws == 1 else 's'}: {colours.summary()}", flush=True)
    elif missing:
        raise UsageError(
            f"the table has not learned {colours.missing_words(missing)}, and with no one at the table to tap, no roll could be "
            "taken: teach it in the window (Camera, Calibrate: hold a throw, tap the marked dice, teach it) with this --calibration profile"
        )
    else:
        print(f"The table tells the dice's marks with what it learned: {colours.summary()}", flush=True)


def _play(game: Game, chooser: Chooser, watcher: Watcher, args: argparse.Namespace) -> int:
    """Play the game from the watch loop, kept in a journal in the scorekeeper home from its first
    step as ``play`` and the window keep theirs; a game won is kept in the history cache, one not
    over can be gone on with (``play --resume``, the window)."""
    home = default_home()
    game, journal = journal_for(game)
    try:
        status = _play_kept(game, chooser, watcher, args)
    except UsageError as exc:
        journal.close()
        journal.path.unlink(missing_ok=True)
        return _fail(str(exc))
    finally:
        journal.close()
    if game.state.over:
        remember_game(home, journal.path, game)
    else:
        print(visible(f"{kept_words(journal.path)}."))
    return status


def _play_kept(game: Game, chooser: Chooser, watcher: Watcher, args: argparse.Namespace) -> int:
    """Play the game from the watch loop; print it as it goes and the sheet at the end.
    :class:`UsageError` before the first roll where the table cannot tell the dice's marks."""
    state = game.state
    headline = game_headline(state.rules, state.target)
    print(visible(f"{headline}, from the camera: {', '.join(p.name for p in state.players)}."), flush=True)
    in_play = MarksInPlay.of(state.rules)
    camera = CameraGame(
        game, chooser, default_home() / "corrections", lambda text: print(visible(text), flush=True), watcher.profile, args.calibration, in_play.any
    )
    _colours(watcher, camera.table.colours, in_play)
    learner = camera.table.learn_with(watcher.reader)
    if learner is not None:
        print(learner.summary().line(), flush=True)
    status = 0
    try:
        camera.run(watcher, args.max_frames, lambda now: print(visible("\n".join(scoreboard(now))), flush=True))
    except DecisionsError as exc:
        status = _fail(str(exc))
    finally:
        stopped = camera.table.stop_learning()
        if stopped is not None:
            print(stopped.summary().line(), flush=True)
    state = game.state
    if not state.over:
        print("The recording ended before the game did.")
    print(visible("\n".join(scoreboard(state))))
    if args.sheet is not None:
        kind = sheet_format(args.sheet, None)
        write_sheet(game.events, args.sheet, kind, hold_interrupts=True)
        print(visible(written_words(args.sheet, kind)))
    return status
