"""The ``scorekeeper`` command line: one module per command."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from scorekeeper import __version__
from scorekeeper.cli import window
from scorekeeper.errors import ScorekeeperError
from scorekeeper.terminal import visible

COMMANDS = {
    "score": "score",
    "rules": "rules_command",
    "play": "play",
    "coach": "coach",
    "export": "export",
    "history": "history",
    "serve": "serve",
    "window": "window",
    "train": "train",
    "watch": "watch",
    "read": "read",
    "evaluate": "evaluate",
    "table": "table",
    "bench": "bench",
}
"""Each sub-command by name (in the order the help lists them) and its module in this package,
which adds the sub-command with ``add_parser`` and runs it with ``run``."""


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line: every sub-command, or only the one named ``only`` (so that running one
    sub-command imports no other's module)."""
    parser = argparse.ArgumentParser(
        prog="scorekeeper",
        description="Keeps score in real games of Farkle.",
    )
    parser.add_argument("--version", action="version", version=f"scorekeeper {__version__}")
    window.add_options(parser)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command, module in COMMANDS.items():
        if only is None or command == only:
            importlib.import_module(f"scorekeeper.cli.{module}").add_parser(commands)
    parser.set_defaults(run=window.run, command="window")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    listed = sys.argv[1:] if argv is None else list(argv)
    # The bare command takes options only, so a first word that names a sub-command is that sub-command.
    parser = build_parser(listed[0] if listed and listed[0] in COMMANDS else None)
    args = parser.parse_args(listed)
    try:
        status: int = args.run(args)
    except ScorekeeperError as exc:
        print(visible(f"scorekeeper {args.command}: {exc}"), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader of our output went away (``| head``): stop quietly, and keep Python's own
        # flush at exit from failing on the closed pipe again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    return status
