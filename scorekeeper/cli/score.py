"""``scorekeeper score``: every keep of a roll and the best, or a whole batch of rolls as JSON lines."""

from __future__ import annotations

import argparse
import functools
import json
import sys
from typing import Any, TextIO

from scorekeeper.cli.options import add_rules_options, rules_from_args
from scorekeeper.errors import UsageError
from scorekeeper.rules import Dice, DieToken, FarkleError, IllegalRoll, KeepOption, RollScore, RuleSet, die_token, read_die, score_roll


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "score",
        help="score a roll: every legal keep and the best",
        description="Score a roll: every legal keep with its points, the best keep, or Farkle.",
    )
    add_rules_options(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--batch",
        action="store_true",
        help="read one roll a line on standard input (digits, spaces optional), write one JSON object for each line",
    )
    parser.add_argument(
        "dice", nargs="*", help="the dice rolled, e.g. 1 1 5 3 4 6 or 115346 (1w: the wild die showing 1, 5r: a red-pip 5)"
    )
    parser.set_defaults(run=run)


def _option(option: KeepOption | None) -> dict[str, Any] | None:
    return None if option is None else {"keep": option.keep.tokens(), "points": option.points}


def typed_tokens(text: str) -> list[DieToken]:
    """The dice of a typed roll in the order typed, as die tokens (a plain die an int, a marked one
    its face and letters: ``"1w"``); the text must read as dice (:meth:`Dice.from_str`).

    >>> typed_tokens("6 1w,5r 2")
    [6, '1w', '5r', 2]
    """
    typed: list[str] = []
    for char in text:
        if char in "123456":
            typed.append(char)
        elif char.lower() in ("w", "r") and typed:
            typed[-1] += char
    return [die_token(*read_die(token)) for token in typed]


def score_json(scored: RollScore, roll: list[DieToken]) -> dict[str, Any]:
    """The JSON object of the batch contract for one roll."""
    return {
        "roll": roll,
        "farkle": scored.farkle,
        "wins": scored.wins,
        "best": _option(scored.best),
        "options": [_option(option) for option in scored.options],
    }


def _batch(rules: RuleSet, lines: TextIO, out: TextIO) -> int:
    @functools.lru_cache(maxsize=None)
    def tail(dice: Dice) -> str:
        # Everything after "roll" depends only on the sorted dice: format it once.
        return json.dumps(score_json(score_roll(rules, dice), []))[len('{"roll": []') :]

    failed = 0
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        try:
            if not text:
                raise IllegalRoll("an empty line: type one roll a line, e.g. 115346")
            dice = Dice.from_str(text)
            out.write(f'{{"roll": {json.dumps(typed_tokens(text))}{tail(dice)}\n')
        except FarkleError as exc:
            failed += 1
            out.write(json.dumps({"line": number, "input": text, "error": str(exc)}) + "\n")
    return 1 if failed else 0


def _print(scored: RollScore, rules: RuleSet) -> None:
    print(f"Roll {scored.roll} under {rules.name}:")
    if scored.farkle:
        print("  Farkle: no die scores.")
        return
    if scored.wins:
        banked = "the turn is banked first" if rules.turn.instant_win_banks_turn else "the turn scores nothing"
        print(f"  Six of a kind: keeping all six wins the game on the spot ({banked}).")
    width = max(len(str(option.keep)) for option in scored.options)
    for option in scored.options:
        split = ", ".join(f"{c.kind.value} {c.dice}" + (f" ({'; '.join(c.notes)})" if c.notes else "") for c in option.split)
        mark = "wins" if option is scored.winning_keep else "best" if option is scored.best else ""
        print(f"  {mark:4}  {str(option.keep):{width}}  {option.points:>5}   {split}")


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    if args.batch:
        if args.dice:
            raise UsageError("score --batch reads rolls from standard input; give no dice on the command line")
        return _batch(rules, sys.stdin, sys.stdout)
    if not args.dice:
        raise UsageError("no dice given: type the roll, e.g. 'scorekeeper score --rules retail 1 1 5 3 4 6'")
    dice = Dice.from_str(" ".join(args.dice))
    scored = score_roll(rules, dice)
    if args.json:
        print(json.dumps(score_json(scored, dice.tokens())))
    else:
        _print(scored, rules)
    return 0
