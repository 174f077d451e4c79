"""``scorekeeper rules list`` and ``scorekeeper rules show NAME``."""

from __future__ import annotations

import argparse
from typing import Any

from scorekeeper.cli.options import rules_from_args
from scorekeeper.rules import (
    ANY_TARGET_FROM,
    MAX_TARGET,
    describe_rules,
    load_rules,
    numbered_variants,
    preset_names,
    rules_to_toml,
    variant_names,
)
from scorekeeper.terminal import visible


def add_parser(commands: Any) -> None:
    parser = commands.add_parser("rules", help="list the rule presets, or show one in plain words")
    actions = parser.add_subparsers(dest="rules_action", metavar="ACTION", required=True)
    actions.add_parser("list", help="the presets and variants shipped").set_defaults(run=run_list)
    show = actions.add_parser("show", help="a rule set in plain words (or as TOML)")
    show.add_argument("rules", metavar="PRESET_OR_FILE", help="a preset name (with +variant) or a .toml file")
    show.add_argument("--variant", action="append", default=[], metavar="NAME", help="lay a variant over it")
    show.add_argument("--toml", action="store_true", help="print the complete rules file instead")
    show.set_defaults(run=run_show)


def run_list(args: argparse.Namespace) -> int:
    print("Presets:")
    names = preset_names()
    width = max(len(name) for name in names)
    for name in names:
        print(visible(f"  {name:{width}}  {load_rules(name).title}"))
    print("Variants (add with --variant NAME, or as PRESET+NAME):")
    variants = variant_names()
    width = max(len(name) for name in variants)
    for name, description in sorted(variants.items()):
        print(visible(f"  {name:{width}}  {description}"))
    for name in numbered_variants():
        print(f"  ({name}: N a multiple of 50, e.g. {name[:-1]}500; or --{name[:-2]} N to play, the window, watch --game, coach)")
    print(
        f"Any target: --target N plays to any multiple of 50 from {ANY_TARGET_FROM:,} to {MAX_TARGET:,} "
        "(left out, the rules' own target)."
    )
    return 0


def run_show(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    if args.toml:
        print(rules_to_toml(rules), end="")
    else:
        print(visible("\n".join(describe_rules(rules))))
    return 0
