"""The ``scorekeeper`` command line: one module per command."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from scorekeeper import __version__
from scorekeeper.cli import bench, coach, evaluate, export, history, play, read, rules_command, score, serve, table, train, watch, window
from scorekeeper.rules import FarkleError

COMMANDS = (score, rules_command, play, coach, export, history, serve, window, train, watch, read, evaluate, table, bench)
"""Each module adds its sub-command with ``add_parser`` and runs it with ``run``."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scorekeeper",
        description="Keeps score in real games of Farkle.",
    )
    parser.add_argument("--version", action="version", version=f"scorekeeper {__version__}")
    window.add_options(parser)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMANDS:
        module.add_parser(commands)
    parser.set_defaults(run=window.run, command="window")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.run(args)
    except FarkleError as exc:
        print(f"scorekeeper {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader of our output went away (``| head``): stop quietly, and keep Python's own
        # flush at exit from failing on the closed pipe again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    return status
