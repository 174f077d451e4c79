"""Finished turns and each step of play in plain words, for the terminal game and the window alike."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from scorekeeper.game.events import (
    Action,
    Banked,
    DiceRolled,
    DieCorrected,
    Event,
    Farkled,
    FreshDice,
    Kept,
    Piggybacked,
    PlayerAdded,
    PointsEntered,
    Redone,
    Undone,
)
from scorekeeper.game.state import GameState, Outcome, TurnRecord
from scorekeeper.rules import DieToken, GameKind, TurnRules, read_die

A = TypeVar("A", bound=Action)


def describe_turn(record: TurnRecord, state: GameState) -> str:
    """One line saying how a turn ended.

    >>> from scorekeeper.game import Game
    >>> from scorekeeper.rules import load_rules
    >>> game = Game.new(load_rules("retail"), ["Ann", "Bob"])
    >>> game.roll("1 5 2 3 4 6"); game.keep("1 5"); game.bank()
    >>> describe_turn(game.state.history[-1], game.state)
    'Ann banks 150: now 150.'
    """
    name = state.players[record.player].name
    if record.outcome is Outcome.BANKED:
        bonus = f" (with {record.card_bonus:,} for Farkle cards)" if record.card_bonus else ""
        if record.pot:
            bonus = f" ({record.pot:,} of it piggybacked from {pot_banker(record, state)})"
        return f"{name} banks {record.points:,}{bonus}: now {record.score_after:,}."
    if record.outcome is Outcome.FARKLED:
        return _farkle_text(record, state, name)
    if record.outcome is Outcome.WON:
        return f"Six of a kind! {name} wins the game on the spot."
    return f"{name} scored every die without getting on the board: the turn ends with nothing."


def _farkle_text(record: TurnRecord, state: GameState, name: str) -> str:
    """How a Farkle ended a turn: the turn's points lost, and the score it leaves (a penalty included)."""
    lost = sum(option.points for option in record.keeps) + sum(record.entered) + record.pot
    if record.pot:
        ends = (
            f"FARKLE! {name}'s turn ends and the {lost:,} points of this turn "
            f"({record.pot:,} piggybacked from {pot_banker(record, state)}) are lost"
        )
    elif lost:
        ends = f"FARKLE! {name}'s turn ends and the {lost:,} points of this turn are lost"
    else:
        ends = f"FARKLE! {name}'s turn ends with no points scored this turn"
    rules = state.rules.turn
    streak_due = bool(rules.farkle_penalty) and record.farkles_in_a_row >= rules.farkle_penalty_streak
    parts = [
        (rules.each_farkle_penalty, "a Farkle"),
        (rules.farkle_penalty if streak_due else 0, f"{record.farkles_in_a_row} Farkles in a row"),
    ]
    owed = [(points, why) for points, why in parts if points]
    due = sum(points for points, _ in owed)
    if not due:
        return f"{ends}; {name}'s score stays {record.score_after:,}."
    if len(owed) == 2:
        penalty = f"the {due:,} penalty ({owed[0][0]:,} for {owed[0][1]}, {owed[1][0]:,} for {owed[1][1]})"
    else:
        penalty = f"the {due:,} penalty for {owed[0][1]}"
    if record.penalty == due:
        return f"{ends}; {penalty} takes {name}'s score to {record.score_after:,}."
    if record.penalty:
        return f"{ends}; {penalty} takes only the {record.penalty:,} {name} had: {name}'s score is now 0."
    again = ", and the count starts again" if streak_due else ""
    if streak_due and not rules.each_farkle_penalty:
        return (
            f"{ends}; {record.farkles_in_a_row} Farkles in a row, but with no points the {due:,} "
            f"penalty takes nothing{again}: {name}'s score stays {record.score_after:,}."
        )
    return f"{ends}; with no points {penalty} takes nothing{again}: {name}'s score stays {record.score_after:,}."


def pot_banker(record: TurnRecord, state: GameState) -> str:
    """Who banked the pot that the finished turn ``record`` (one of ``state``'s history) took over:
    the player of the turn before it, whose bank left the pot ("" when it took over none)."""
    history = state.history
    for place in range(len(history) - 1, 0, -1):
        if history[place] is record:
            return state.players[history[place - 1].player].name if record.pot else ""
    return ""


def took_over_text(record: TurnRecord, state: GameState) -> str:
    """The pot a finished turn took over, in words: ``"took over Ann's 2,500"`` ("" when none)."""
    return f"took over {pot_banker(record, state)}'s {record.pot:,}" if record.pot else ""


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
"""The ordinal words up to ten."""


def ordinal(number: int) -> str:
    """``number`` as an ordinal: a word up to ten, then digits.

    >>> ordinal(3), ordinal(11), ordinal(22), ordinal(103)
    ('third', '11th', '22nd', '103rd')
    """
    if 1 <= number <= len(_ORDINALS):
        return _ORDINALS[number - 1]
    suffix = "th" if number % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def penalty_due(rules: TurnRules, in_a_row: int) -> int:
    """The penalty a Farkle making ``in_a_row`` Farkles in a row carries under ``rules``, before any
    limit the player's score sets."""
    streak_due = rules.farkle_penalty and in_a_row >= rules.farkle_penalty_streak
    return rules.each_farkle_penalty + (rules.farkle_penalty if streak_due else 0)


def penalty_reason(rules: TurnRules, in_a_row: int) -> str:
    """Why a Farkle making ``in_a_row`` Farkles in a row costs what it does under ``rules``, in a
    few words ("" when it costs nothing).

    >>> from scorekeeper.rules import load_rules
    >>> penalty_reason(load_rules("retail+three-farkle-penalty").turn, 3)
    'third Farkle in a row'
    >>> penalty_reason(load_rules("retail+farkle-penalty-500+three-farkle-penalty").turn, 3)
    '500 for a Farkle, 1,000 for the third in a row'
    """
    each = rules.each_farkle_penalty
    streak_due = bool(rules.farkle_penalty) and in_a_row >= rules.farkle_penalty_streak
    if streak_due and rules.farkle_penalty_streak <= 1:
        each, streak_due = each + rules.farkle_penalty, False
    if each and streak_due:
        return f"{each:,} for a Farkle, {rules.farkle_penalty:,} for the {ordinal(in_a_row)} in a row"
    if streak_due:
        return f"{ordinal(in_a_row)} Farkle in a row"
    return f"every Farkle costs {each:,}" if each else ""


def penalty_text(name: str, cost: int, rules: TurnRules, in_a_row: int) -> str:
    """What a Farkle making ``in_a_row`` Farkles in a row takes off ``name``'s score (``cost``, the
    penalty as the score limits it), and why: ``"Bob loses 1,000 (third Farkle in a row)"``
    ("" when it takes nothing)."""
    if not cost:
        return ""
    due = penalty_due(rules, in_a_row)
    whole = f", all of the score ({due:,} due: " if cost < due else " ("
    return f"{name} loses {cost:,}{whole}{penalty_reason(rules, in_a_row)})"


def farkle_cost_text(state: GameState) -> str:
    """What a Farkle would cost the current player now, beyond the turn's points, said before it is
    declared: ``"Bob loses 500 (every Farkle costs 500)"`` ("" when it costs nothing).

    >>> from scorekeeper.game import Game
    >>> from scorekeeper.rules import load_rules
    >>> game = Game.new(load_rules("retail+farkle-penalty-500"), ["Ann", "Bob"])
    >>> game.roll("1 5 2 3 4 6"); game.keep("1 5"); game.bank(); game.roll("2 3 4 6 6 2")
    >>> farkle_cost_text(game.state)
    ''
    >>> game.farkle(); game.roll("2 3 4 6 6 2")
    >>> farkle_cost_text(game.state)
    'Ann loses 150, all of the score (500 due: every Farkle costs 500)'
    """
    player = state.current
    if player is None or state.over:
        return ""
    rules = state.rules.turn
    cost = rules.farkle_cost(player.score, player.farkle_streak)
    return penalty_text(player.name, cost, rules, player.farkle_streak + 1)


def die_text(token: DieToken) -> str:
    """One die in words, its marks said: ``"5"``, ``"wild 1"`` (the wild die), ``"red 5"`` (red pips).

    >>> die_text(5), die_text("1w"), die_text("5r"), die_text("1wr")
    ('5', 'wild 1', 'red 5', 'wild red 1')
    """
    face, mark = read_die(token)
    words = (["wild"] if "w" in mark else []) + (["red"] if "r" in mark else [])
    return " ".join([*words, str(face)])


def tap_text(was: DieToken | None, now: DieToken | None) -> str:
    """What a correction of one die does, in a few words: ``"the 2 is a 5"``, ``"added the missed 6"``,
    ``"the 1 is a wild 1"``."""
    if was is None:
        return f"added the missed {die_text(now)}" if now is not None else "added nothing"
    if now is None:
        return f"took out the {die_text(was)}: not a die"
    if was == now:
        return f"the {die_text(was)} stays a {die_text(was)}, as read"
    return f"the {die_text(was)} is a {die_text(now)}"


def correction_text(was: DieToken | None, now: DieToken | None, state: GameState) -> str:
    """What a correction did, for the table to check: ``"Corrected: the 2 is a 5. The roll is now 1 1 5."``."""
    what = tap_text(was, now)
    what = f"Corrected: {what}" if was is not None and now is not None else what[0].upper() + what[1:]
    roll = state.turn.roll if state.turn is not None else None
    return what + (f". The roll is now {roll}." if roll is not None else ".")


def _dice_count(count: int) -> str:
    return f"{count} {'die' if count == 1 else 'dice'}"


def _standing(state: GameState) -> str:
    """Where the game stands, after an undo or a redo, in a sentence."""
    turn, player = state.turn, state.current
    if state.over:
        return game_over(state)
    if turn is None or player is None:
        return "Now no turn is being played."
    if turn.roll is not None:
        return f"Now {player.name}'s roll {turn.roll} is on the table, {turn.total:,} this turn."
    if state.rules.kind is not GameKind.DICE:
        return f"Now {player.name}'s turn, {turn.total:,} this turn."
    to_roll = f"{_dice_count(turn.dice_left)} to roll" if turn.dice_left else "all dice scored"
    offer = f" {piggyback_offer_text(state)}" if turn.offer is not None else ""
    return f"Now {player.name}'s turn: {turn.total:,} this turn, {to_roll}.{offer}"


def piggyback_offer_text(state: GameState) -> str:
    """What the current player may choose after a bank that left dice (piggyback variant), in a
    sentence ("" when there is no such choice).

    >>> from scorekeeper.game import Game
    >>> from scorekeeper.rules import load_rules
    >>> game = Game.new(load_rules("retail+piggyback"), ["Ann", "Bob"])
    >>> game.roll("1 1 1 2 3 4"); game.keep("1 1 1"); game.bank()
    >>> piggyback_offer_text(game.state)
    "Bob may piggyback on Ann's 1,000 with the 3 dice left, or roll six fresh dice."
    """
    offer, player = state.pot_offered(), state.current
    if offer is None or player is None:
        return ""
    banker = state.players[offer.banker].name
    return (
        f"{player.name} may piggyback on {banker}'s {offer.points:,} with the {_dice_count(offer.dice)} left, "
        "or roll six fresh dice."
    )


def _rolled(action: DiceRolled, name: str, before: GameState, after: GameState) -> str:
    missing, turn = after.missing_dice(), after.turn
    if missing and turn is not None:
        return (
            f"{name} rolls {action.dice}: {len(action.dice)} of the {turn.dice_left} dice read, "
            f"the roll waits for the {_dice_count(missing)} missing."
        )
    return f"{name} rolls {action.dice}."


def _kept(action: Kept, name: str, before: GameState, after: GameState) -> str | None:
    turn = after.turn
    if turn is None or not turn.keeps:
        return None
    hot = before.turn is not None and turn.hot_dice > before.turn.hot_dice
    left = f"hot dice: all {turn.dice_left} dice to roll again" if hot else f"{_dice_count(turn.dice_left)} to roll"
    if not turn.dice_left:
        left = "all dice scored"
    return f"{name} keeps {action.dice} for {turn.keeps[-1].points:,}: {turn.total:,} this turn, {left}."


def _entered(action: PointsEntered, name: str, before: GameState, after: GameState) -> str | None:
    note = f" ({action.note})" if action.note else ""
    return f"{name} adds {action.points:,}{note}: {after.turn.total:,} this turn." if after.turn is not None else None


def _kept_name(action: Kept, name: str, state: GameState) -> str:
    turn = state.turn
    points = f" for {turn.keeps[-1].points:,}" if turn is not None and turn.keeps else ""  # none: it won
    return f"{name}'s keep of {action.dice}{points}"


def _bank_name(action: Banked, name: str, state: GameState) -> str:
    return f"{name}'s bank of {state.history[-1].points:,}" if state.history else f"{name}'s bank"


def _piggybacked(action: Piggybacked, name: str, before: GameState, after: GameState) -> str | None:
    turn = after.turn
    if turn is None:
        return None
    return f"{name} piggybacks: {turn.pot:,} this turn, {_dice_count(turn.dice_left)} to roll; a Farkle loses it all."


def _fresh(action: FreshDice, name: str, before: GameState, after: GameState) -> str | None:
    return f"{name} turns the pot down: six fresh dice to roll." if after.turn is not None else None


def _ended(action: Any, name: str, before: GameState, after: GameState) -> None:
    """A step told by the turn it ended."""


@dataclass(frozen=True)
class _Told(Generic[A]):
    """How a kind of step of play is told: named for an undo or a redo, and confirmed when taken."""

    ends_turn: bool
    """Whether the step always ends the turn (its name goes with the turn's player, not the next one)."""
    named: Callable[[A, str, GameState], str]
    """The step named (given the player's name and the game with it taken)."""
    done: Callable[[A, str, GameState, GameState], str | None]
    """The line confirming it (given the player's name and the game before and after); None: the
    turn it ended tells it."""


_TOLD: dict[type[Any], _Told[Any]] = {
    DiceRolled: _Told(False, lambda a, name, state: f"{name}'s roll {a.dice}", _rolled),
    DieCorrected: _Told(
        False,
        lambda a, name, state: f"the tap or correction ({tap_text(a.was, a.now)})",
        lambda a, name, before, after: correction_text(a.was, a.now, after),
    ),
    Kept: _Told(False, _kept_name, _kept),
    PointsEntered: _Told(False, lambda a, name, state: f"the {a.points:,} points entered", _entered),
    PlayerAdded: _Told(False, lambda a, name, state: f"{a.name} joining the game", lambda a, *_: f"{a.name} joins the game."),
    Piggybacked: _Told(False, lambda a, name, state: f"{name}'s piggyback", _piggybacked),
    FreshDice: _Told(False, lambda a, name, state: f"{name}'s choice of fresh dice", _fresh),
    Banked: _Told(True, _bank_name, _ended),
    Farkled: _Told(True, lambda a, name, state: f"{name}'s Farkle", _ended),
}
"""How each kind of step of play is told, by the step's type."""


def _step_name(action: Action, state: GameState) -> str:
    """The step ``action``, named for an undo or a redo (``state``: the game with it taken)."""
    told = _TOLD[type(action)]
    record = state.history[-1] if state.history else None
    if (state.turn is None or told.ends_turn) and record is not None:
        name = state.players[record.player].name  # the step ended the turn: whose it was
    else:
        name = state.current.name if state.current is not None else ""
    return told.named(action, name, state)


def describe_step(event: Event, action: Action, before: GameState, after: GameState) -> str:
    """One line confirming a step of play: ``event`` is what the log took (``action`` itself, or an
    undo or a redo of it), ``before`` and ``after`` the game around it.

    >>> from scorekeeper.game import Game
    >>> from scorekeeper.rules import Dice, load_rules
    >>> game = Game.new(load_rules("retail"), ["Ann", "Bob"])
    >>> game.roll("1 5 2 3 4 6"); before = game.state; game.keep("1 5")
    >>> describe_step(Kept(Dice.from_str("1 5")), Kept(Dice.from_str("1 5")), before, game.state)
    'Ann keeps 1 5 for 150: 150 this turn, 4 dice to roll.'
    """
    if isinstance(event, Undone):
        return f"Undone: {_step_name(action, before)}. {_standing(after)}"
    if isinstance(event, Redone):
        return f"Redone: {_step_name(action, after)}. {_standing(after)}"
    player = after.current or before.current
    done = _TOLD[type(action)].done(action, player.name if player is not None else "", before, after)
    if done is not None:
        return done
    if after.history and len(after.history) > len(before.history):
        return describe_turn(after.history[-1], after)
    return ""


def last_lap(state: GameState) -> str:
    """Who reached the target, and who leads the last lap now."""
    assert state.lap_mark is not None
    mark = state.players[state.lap_mark]
    leaders = state.leaders()
    text = f"Last lap: {mark.name} reached {state.target:,}"
    if leaders != (state.lap_mark,):
        names = " and ".join(state.players[seat].name for seat in leaders)
        text += f"; {names} now lead{'s' if len(leaders) == 1 else ''} with {state.players[leaders[0]].score:,}"
    return text + "."


def game_over(state: GameState) -> str:
    """The line that ends a game: who won.

    >>> from scorekeeper.game import Game
    >>> from scorekeeper.rules import load_rules
    >>> game = Game.new(load_rules("house-2009"), ["Ann", "Bob"])
    >>> game.roll("4 4 4 4 4 4"); game.keep("4 4 4 4 4 4")
    >>> game_over(game.state)
    'Game over: Ann wins!'
    """
    names = " and ".join(state.players[seat].name for seat in state.winners)
    return f"Game over: {names} win{'s' if len(state.winners) == 1 else ''}!"


@dataclass(frozen=True)
class PotChoice:
    """One way to answer the piggyback offer, for a button or a typed word."""

    label: str
    """What the button says."""
    action: Piggybacked | FreshDice
    """The step it takes."""


def pot_choices(state: GameState) -> tuple[PotChoice, ...]:
    """The piggyback variant's choice for the current player, right after a bank that left dice:
    the pot, or six fresh dice (empty when there is no such choice).

    >>> from scorekeeper.game import Game
    >>> from scorekeeper.rules import load_rules
    >>> game = Game.new(load_rules("retail+piggyback"), ["Ann", "Bob"])
    >>> game.roll("1 1 1 2 3 4"); game.keep("1 1 1"); game.bank()
    >>> [choice.label for choice in pot_choices(game.state)]
    ["Piggyback: 3 dice for Ann's 1,000", 'Six fresh dice']
    """
    offer = state.pot_offered()
    if offer is None:
        return ()
    banker = state.players[offer.banker].name
    return (
        PotChoice(f"Piggyback: {_dice_count(offer.dice)} for {banker}'s {offer.points:,}", Piggybacked()),
        PotChoice("Six fresh dice", FreshDice()),
    )
