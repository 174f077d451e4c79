"""``scorekeeper coach``: when to bank, what a turn is worth, how often n dice Farkle."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from scorekeeper.cli.options import add_penalty_option, add_rules_options, rules_from_args
from scorekeeper.rules import RuleSet
from scorekeeper.terminal import visible

if TYPE_CHECKING:
    from scorekeeper.coach import Policy

DICE = range(1, 7)


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "coach",
        help="the best play under a rule set: bank thresholds, points per turn, Farkle odds",
        description="Solve the rules for the most points per turn and print when to bank with each number "
        "of dice left (for a player on the board with no Farkle streak), what a turn is worth with "
        "best play, and how often each number of dice Farkles.",
    )
    add_rules_options(parser)
    add_penalty_option(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def coach_json(rules: RuleSet, policy: Policy | None) -> dict[str, Any]:
    """The JSON object of ``scorekeeper coach --json``: the figures of the text output, each one
    that does not apply under ``rules`` (no entry minimum, no Farkle penalty) as null, what the
    advice leaves out under them (``not_counted``, a list of lines), and why there is no advice at
    all (``cannot_advise``: a line, where ``policy`` is None; every figure is then null)."""
    from scorekeeper.coach import cannot_advise, not_counted

    if policy is None:
        figures = (
            "expected_points_per_turn", "entry_minimum", "expected_points_per_turn_off_the_board", "farkle_penalty",
            "farkles_before_the_penalty", "expected_points_per_turn_before_the_penalty", "each_farkle_penalty",
            "bank_at", "farkle_chance",
        )
        return {"rules": rules.name, **dict.fromkeys(figures), "not_counted": [], "cannot_advise": cannot_advise(rules)}
    turn = rules.turn
    streak = turn.farkle_penalty_streak - 1
    wild_kept = (
        {
            "bank_at_with_the_wild_die_kept": {str(n): policy.bank_threshold(n, wild=False) for n in DICE[:-1]},
            "farkle_chance_with_the_wild_die_kept": {str(n): round(policy.farkle_chance(n, wild=False), 5) for n in DICE[:-1]},
        }
        if rules.scoring.wild_die
        else {}
    )
    return {
        "rules": rules.name,
        "expected_points_per_turn": round(policy.expected_points_per_turn(), 2),
        "entry_minimum": turn.entry_minimum,
        "expected_points_per_turn_off_the_board": (
            round(policy.expected_points_per_turn(on_board=False), 2) if turn.entry_minimum else None
        ),
        "farkle_penalty": turn.farkle_penalty,
        "farkles_before_the_penalty": streak if turn.farkle_penalty else None,
        "expected_points_per_turn_before_the_penalty": (
            round(policy.expected_points_per_turn(streak=streak), 2) if turn.farkle_penalty else None
        ),
        "each_farkle_penalty": turn.each_farkle_penalty,
        "bank_at": {str(n): policy.bank_threshold(n) for n in DICE},
        "farkle_chance": {str(n): round(policy.farkle_chance(n), 5) for n in DICE},
        **wild_kept,
        "not_counted": list(not_counted(rules)),
        "cannot_advise": None,
    }


def _print(rules: RuleSet, policy: Policy) -> None:
    from scorekeeper.coach import not_counted

    turn = rules.turn
    print(visible(f"Best play under {rules.name} ({rules.title}):"))
    cost = f", with {turn.each_farkle_penalty:,} off the score for each Farkle" if turn.each_farkle_penalty else ""
    print(f"  A turn is worth {policy.expected_points_per_turn():,.1f} points on average "
          f"(on the board, no Farkle streak{cost}).")
    if turn.entry_minimum:
        print(f"  Before getting on the board ({turn.entry_minimum:,} in one turn): "
              f"{policy.expected_points_per_turn(on_board=False):,.1f} a turn.")
    if turn.farkle_penalty:
        streak = turn.farkle_penalty_streak - 1
        print(f"  After {streak} Farkle{'s' if streak != 1 else ''} in a row (the next costs "
              f"{turn.farkle_penalty + turn.each_farkle_penalty:,}): {policy.expected_points_per_turn(streak=streak):,.1f} a turn.")
    print()
    if rules.scoring.wild_die:
        print("  With the wild die among the dice left (as the turn starts), and with it kept:")
        print("  Dice left   Bank at a turn total of   Chance the roll Farkles   Bank at, the wild die kept")
        for n in DICE:
            kept = f"{policy.bank_threshold(n, wild=False):>26,}" if n < len(DICE) else f"{'-':>26}"
            print(f"  {n:>9}   {policy.bank_threshold(n):>23,}   {100 * policy.farkle_chance(n):>22.2f}%   {kept}")
    else:
        print("  Dice left   Bank at a turn total of   Chance the roll Farkles")
        for n in DICE:
            print(f"  {n:>9}   {policy.bank_threshold(n):>23,}   {100 * policy.farkle_chance(n):>22.2f}%")
    for line in not_counted(rules):
        print(f"  Not counted: {line}")


def run(args: argparse.Namespace) -> int:
    # Imported here: the solver pulls in numpy, which every other command's start-up can skip.
    from scorekeeper.coach import cannot_advise, policy_for

    rules = rules_from_args(args)
    why = cannot_advise(rules)
    if why is not None:
        print(json.dumps(coach_json(rules, None)) if args.json else f"No advice under {rules.name}. {why}")
        return 0
    policy = policy_for(rules)
    if args.json:
        print(json.dumps(coach_json(rules, policy)))
    else:
        _print(rules, policy)
    return 0
