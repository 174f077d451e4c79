"""Finished turns in plain words, for the terminal game and the window alike."""

from __future__ import annotations

from scorekeeper.game.state import GameState, Outcome, TurnRecord


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
        return f"{name} banks {record.points:,}{bonus}: now {record.score_after:,}."
    if record.outcome is Outcome.FARKLED:
        rules = state.rules.turn
        penalty = f" and pays the {record.penalty:,} penalty" if record.penalty else ""
        if rules.farkle_penalty and not record.penalty and record.farkles_in_a_row >= rules.farkle_penalty_streak:
            penalty = (
                f": {record.farkles_in_a_row} Farkles in a row, but with no points the "
                f"{rules.farkle_penalty:,} penalty takes nothing, and the count starts again"
            )
        return f"FARKLE! {name} loses the turn{penalty}: {record.score_after:,}."
    if record.outcome is Outcome.WON:
        return f"Six of a kind! {name} wins the game on the spot."
    return f"{name} scored every die without getting on the board: the turn ends with nothing."


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
