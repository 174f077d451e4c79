"""Options shared by several commands."""

from __future__ import annotations

import argparse

from scorekeeper.game import Game
from scorekeeper.rules import FarkleError, RuleSet, load_rules

DEFAULT_RULES = "retail"
"""The rules every command plays by when ``--rules`` is not given."""


def add_rules_options(parser: argparse.ArgumentParser) -> None:
    """``--rules PRESET_OR_FILE`` and ``--variant NAME``; left out, ``--rules`` reads None (see :func:`rules_from_args`)."""
    parser.add_argument(
        "--rules",
        metavar="PRESET_OR_FILE",
        help="a preset (see 'scorekeeper rules list'), optionally with +variant, "
        f"or the path of a .toml rules file (default: {DEFAULT_RULES})",
    )
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="NAME",
        help="lay a variant over the rules (repeatable; see 'scorekeeper rules list')",
    )


def rules_from_args(args: argparse.Namespace) -> RuleSet:
    """The rule set that ``--rules`` and ``--variant`` name (``--rules`` defaults to retail)."""
    return load_rules(args.rules or DEFAULT_RULES, args.variant)


def game_from_args(args: argparse.Namespace) -> Game:
    """The game that ``--players``, ``--rules``, ``--variant`` and ``--target`` ask for, refused
    with the game's own error (a missing player, a target the rules do not offer) before anything starts."""
    names = [name.strip() for name in (args.players or "").split(",") if name.strip()]
    if not names:
        raise FarkleError("no players: give them in seat order, e.g. --players Ann,Bob")
    return Game.new(rules_from_args(args), names, target=args.target)


def game_options_given(args: argparse.Namespace) -> list[str]:
    """The options of a new game given on the command line, as typed (``--rules``, ``--variant``, ``--players``, ``--target``)."""
    return [f"--{name}" for name in ("rules", "variant", "players", "target") if getattr(args, name) not in (None, [])]
