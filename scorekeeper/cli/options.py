"""Options shared by several commands."""

from __future__ import annotations

import argparse

from scorekeeper.rules import RuleSet, load_rules


def add_rules_options(parser: argparse.ArgumentParser, default: str | None = "retail") -> None:
    """``--rules PRESET_OR_FILE`` and ``--variant NAME``."""
    parser.add_argument(
        "--rules",
        default=default,
        required=default is None,
        metavar="PRESET_OR_FILE",
        help="a preset (see 'scorekeeper rules list'), optionally with +variant, "
        "or the path of a .toml rules file" + (f" (default: {default})" if default else ""),
    )
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="NAME",
        help="lay a variant over the rules (repeatable; see 'scorekeeper rules list')",
    )


def rules_from_args(args: argparse.Namespace) -> RuleSet:
    """The rule set that ``--rules`` and ``--variant`` name."""
    return load_rules(args.rules, args.variant)
