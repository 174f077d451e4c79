"""Options shared by several commands."""

from __future__ import annotations

import argparse

from scorekeeper.game import Game
from scorekeeper.errors import UsageError
from scorekeeper.rules import RuleSet, load_rules

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


def add_penalty_option(parser: argparse.ArgumentParser) -> None:
    """``--farkle-penalty N``: the variant ``farkle-penalty-N`` (see :func:`rules_from_args`), for
    the commands where what a Farkle costs matters (a game, the coach)."""
    parser.add_argument(
        "--farkle-penalty",
        type=int,
        metavar="N",
        help="each Farkle costs N points off the score (500 and -500 alike; a multiple of 50): "
        "the variant farkle-penalty-N",
    )


def rules_from_args(args: argparse.Namespace) -> RuleSet:
    """The rule set that ``--rules``, ``--variant`` and ``--farkle-penalty`` name (``--rules`` defaults to retail).

    A penalty is points lost, so ``--farkle-penalty -500`` is the variant ``farkle-penalty-500``.
    """
    penalty = getattr(args, "farkle_penalty", None)
    variants = [*args.variant, *([f"farkle-penalty-{abs(penalty)}"] if penalty else [])]
    return load_rules(args.rules or DEFAULT_RULES, variants)


def game_from_args(args: argparse.Namespace) -> Game:
    """The game that ``--players``, ``--rules``, ``--variant`` and ``--target`` ask for, refused
    with the game's own error (a missing player, a target the rules do not offer) before anything starts."""
    names = [name.strip() for name in (args.players or "").split(",") if name.strip()]
    if not names:
        raise UsageError("no players: give them in seat order, e.g. --players Ann,Bob")
    return Game.new(rules_from_args(args), names, target=args.target)


def game_options_given(args: argparse.Namespace) -> list[str]:
    """The options of a new game given on the command line, as typed (``--rules``, ``--variant``,
    ``--farkle-penalty``, ``--players``, ``--target``)."""
    names = ("rules", "variant", "farkle_penalty", "players", "target")
    return [f"--{name.replace('_', '-')}" for name in names if getattr(args, name, None) not in (None, [])]
