"""The game at its edges: limits met exactly, what each finished turn records for the score sheet, the
turn that can only end empty, the end of the game, and the words of each refusal.

Each expected value is worked out by hand from the rule texts in ``/work/shared/rules/`` (R = retail,
H = house rules 2009, F = the card edition) or from the limits the refusals themselves state.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.game import Game, Outcome, Phase, describe_turn
from scorekeeper.rules import GameOver, IllegalAction, IllegalBank, IllegalRoll, RuleSet, load_rules

STARTED_AT = "2026-01-01T20:00:00+00:00"
NAME_LIMIT = 40
"""The longest name or roll source, as the refusal says: "(at most 40)"."""
NOTE_LIMIT = 200
"""The longest note on entered points, as the refusal says: "(at most 200)"."""


def new_game(rules: RuleSet | str, players: tuple[str, ...] = ("Ann", "Bob"), **kwargs: Any) -> Game:
    if isinstance(rules, str):
        rules = load_rules(rules)
    return Game.new(rules, list(players), started_at=STARTED_AT, **kwargs)


def refused(action: Any, error: type[Exception]) -> str:
    """The message of ``action``'s refusal, which must be exactly ``error``."""
    with pytest.raises(error) as caught:
        action()
    assert type(caught.value) is error, f"{type(caught.value).__name__}: {caught.value}"
    return str(caught.value)


def house_straights(game: Game, times: int) -> None:
    """H: "A straight (1 through 6) 1,000", all six scored so hot dice: ``times`` x 1,000, then bank."""
    for _ in range(times):
        game.roll("1 2 3 4 5 6")
        game.keep("1 2 3 4 5 6")
    game.bank()


def stuck_rules() -> RuleSet:
    """R with the 500 entry variant and no hot dice: a turn can use up all six dice below the entry."""
    return load_rules("retail", variants=["entry-500"], overrides={"turn": {"hot_dice": False}})


def use_all_dice_below_the_entry(game: Game) -> None:
    game.roll("1 1 5 5 2 3")
    game.keep("1 1 5 5")  # R: each 1 100, each 5 50: 300, two dice left
    game.roll("5 5")
    game.keep("5 5")  # + 100: 400 with no dice left, 100 short of the 500 entry


# --------------------------------------------------------------------------- the start


@pytest.mark.parametrize("target", [0, -50])
def test_a_target_of_zero_or_less_is_refused(target: int) -> None:
    message = refused(lambda: new_game("retail", target=target), IllegalAction)
    assert message == f"target {target:,}: a game is played to more than 0 points; play to a multiple of 50 such as 10,000"


@pytest.mark.parametrize(("target", "near"), [(3_001, "3,000 or 3,050"), (25, "10,000")])
def test_a_target_off_the_50s_is_refused_saying_so_not_that_it_is_not_positive(target: int, near: str) -> None:
    # issue 61: "target 3,001: must be a positive number of points, a multiple of 50" (the number is positive)
    message = refused(lambda: new_game("retail", target=target), IllegalAction)
    assert message == f"target {target:,}: not a multiple of 50; play to a multiple of 50 such as {near}"
    assert "positive" not in message


@pytest.mark.parametrize(
    ("target", "words"), [(950, "too low"), (50, "too low"), (1_000_050, "too high")]
)
def test_a_target_outside_any_games_range_is_refused_saying_which_are_allowed(target: int, words: str) -> None:
    # issue 54: "--target N takes any multiple of 50 from 1,000 up"; rule values stop at 1,000,000
    message = refused(lambda: new_game("flip", target=target), IllegalAction)
    assert message == (
        f"target {target:,} is {words}: play to a multiple of 50 from 1,000 to 1,000,000, "
        "or leave it out for the rules' own 10,000"
    )


def test_a_short_target_under_1000_for_a_small_table_says_how_many_players_it_needs() -> None:
    # F: "If playing with six or more players, you may decide to play to only 5,000 or 7,500 points";
    # a rules file's short target below any game's 1,000 keeps that condition.
    rules = load_rules("flip", overrides={"end": {"short_targets": [500]}})
    message = refused(lambda: Game.new(rules, ["Ann", "Bob"], target=500, started_at=STARTED_AT), IllegalAction)
    assert message == "target 500 is offered only to tables of 6 or more players; this table has 2. Play to 10,000"
    six = Game.new(rules, ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"], target=500, started_at=STARTED_AT)
    assert six.state.target == 500


def test_the_game_keeps_when_it_started() -> None:
    assert new_game("retail").state.started_at == STARTED_AT


def test_a_step_before_anyone_sits_down_asks_for_a_player() -> None:
    game = new_game("retail", players=())
    assert refused(lambda: game.roll("1 2 3"), IllegalAction) == "roll 1 2 3: there are no players yet; add a player first"
    assert game.state.missing_dice() == 0
    assert game.state.bank_value() == (0, 0)


# --------------------------------------------------------------------------- names and sources at their limits


def test_a_name_of_the_longest_length_is_taken_and_one_more_letter_is_refused() -> None:
    game = new_game("retail", players=())
    game.add_player("A" * NAME_LIMIT)
    assert game.state.players[0].name == "A" * NAME_LIMIT
    message = refused(lambda: game.add_player("B" * (NAME_LIMIT + 1)), IllegalAction)
    assert message == f"add player '{'B' * 41}': a name of 41 characters is too long (at most 40)"
    assert refused(lambda: game.add_player("   "), IllegalAction) == "add player: the name is empty"
    assert [p.name for p in game.state.players] == ["A" * NAME_LIMIT]


def test_a_roll_source_of_the_longest_length_is_taken_and_one_more_letter_is_refused() -> None:
    game = new_game("retail")
    message = refused(lambda: game.roll("1 2 3", source="c" * (NAME_LIMIT + 1)), IllegalAction)
    assert message == f"roll 1 2 3: the source '{'c' * 41}' is longer than 40 characters"
    game.roll("1 2 3", source="c" * NAME_LIMIT)
    assert str(game.state.turn.roll) == "1 2 3"


def test_too_many_dice_names_the_player_and_the_dice_left() -> None:
    game = new_game("retail")
    game.roll("1 1 5 2 3 4")
    game.keep("1 1 5")
    message = refused(lambda: game.roll("1 2 3 4"), IllegalRoll)
    assert message == "roll 1 2 3 4: 4 dice, but Ann has only 3 to roll"


# --------------------------------------------------------------------------- dice the camera missed


def test_missing_dice_count_only_while_a_roll_is_on_the_table() -> None:
    game = new_game("retail")
    assert game.state.missing_dice() == 0  # nothing rolled yet
    game.roll("1 5 2 3")  # the camera saw 4 of the 6 dice
    assert game.state.missing_dice() == 2
    game.correct(None, 4)
    assert game.state.missing_dice() == 1
    game.correct(None, 6)
    game.keep("1 5")
    assert game.state.missing_dice() == 0  # the roll is taken: nothing is missing from a roll that is gone


def test_a_roll_with_dice_missing_is_not_scored_until_they_are_added() -> None:
    game = new_game("retail")
    game.roll("3")  # a late die, taken as Ann's roll: 1 of her 6 dice
    assert game.state.roll_score() is None and game.state.phase is Phase.TO_KEEP
    waiting = "only 1 of the 6 dice thrown were read, and a roll is scored only whole; add the missing dice first"
    assert refused(game.farkle, IllegalAction).startswith(f"Farkle: {waiting}")
    game.correct(None, 1)
    assert refused(lambda: game.keep("1"), IllegalAction).startswith("keep 1: only 2 of the 6 dice thrown were read")
    for face in (2, 4, 6, 6):
        game.correct(None, face)
    scored = game.state.roll_score()
    assert scored is not None and not scored.farkle and scored.best is not None and str(scored.best.keep) == "1"
    game.keep("1")
    assert (game.state.turn.total, game.state.turn.dice_left) == (100, 5)


def test_a_game_whose_log_kept_dice_from_a_roll_with_dice_missing_still_loads_in_full() -> None:
    # a log written before such keeps were refused: Ann kept the 1 of a roll with 2 of 6 dice read
    from scorekeeper.game import Banked, DiceRolled, Kept
    from scorekeeper.rules import Dice

    old = new_game("retail")
    events = [*old.events, DiceRolled(Dice.from_str("1 3")), Kept(Dice.from_str("1")), Banked(), DiceRolled(Dice.from_str("5 2 3 4 6 6"))]
    game = Game.from_events(events)
    assert [player.score for player in game.state.players] == [100, 0] and len(game.events) == len(events)
    game.undo()
    game.undo()
    assert game.state.turn is not None and game.state.turn.total == 100, "undo replays the old keep too"
    game.undo()
    assert refused(lambda: game.keep("1"), IllegalAction).startswith("keep 1: only 2 of the 6 dice thrown were read")


# --------------------------------------------------------------------------- corrections


def test_each_refused_correction_says_what_it_tried() -> None:
    game = new_game("retail")
    assert refused(lambda: game.correct(None, 4), IllegalAction) == "add a missed 4: there is no roll on the table to correct"
    game.roll("5")
    assert refused(lambda: game.correct(5, None), IllegalRoll) == "take out the 5 (not a die): that would leave no dice in the roll"
    assert refused(lambda: game.correct(2, 3), IllegalRoll) == "correct die 2 to 3: there is no 2 in the roll 5"
    game.undo()
    game.roll("1 1 5 2 3 4")
    game.keep("1 1 5")
    game.roll("2 3 4")
    assert refused(lambda: game.correct(None, 6), IllegalRoll) == "add a missed 6: 4 dice, but only 3 are in play"


def test_the_card_edition_refuses_a_correction_naming_it() -> None:
    message = refused(lambda: new_game("flip").correct(2, 3), IllegalAction)
    assert message == "correct die 2 to 3: the card edition has no dice; enter the combination's points"


def test_correcting_a_later_roll_keeps_the_earlier_rolls_of_the_turn() -> None:
    game = new_game("retail")
    game.roll("1 2 3 4 6 6")
    game.keep("1")
    game.roll("5 2 3 4 6")
    game.correct(2, 5)  # the second roll was 5 5 3 4 6
    game.keep("5 5")
    game.bank()  # R: 100 + 50 + 50 = 200
    record = game.state.history[-1]
    assert [str(roll) for roll in record.rolls] == ["1 2 3 4 6 6", "3 4 5 5 6"]
    assert record.points == 200


# --------------------------------------------------------------------------- what a finished turn records


def test_a_banked_turn_records_each_roll_and_keep_and_no_penalty() -> None:
    game = new_game("retail")
    game.roll("1 1 5 2 3 4")
    game.keep("1 1 5")  # R: 100 + 100 + 50 = 250
    game.roll("5 2 3")
    game.keep("5")  # + 50 = 300
    game.bank()
    record = game.state.history[-1]
    assert [str(roll) for roll in record.rolls] == ["1 1 2 3 4 5", "2 3 5"]
    assert [(str(keep.keep), keep.points) for keep in record.keeps] == [("1 1 5", 250), ("5", 50)]
    assert (record.outcome, record.points, record.card_bonus, record.penalty, record.score_after) == (Outcome.BANKED, 300, 0, 0, 300)
    assert record.farkles_in_a_row == 0
    assert (record.entered, record.entered_notes) == ((), ())


def test_farkles_in_a_row_are_counted_on_each_farkle_record() -> None:
    game = new_game("retail")
    for _ in range(2):
        game.roll("2 2 3 3 4 6")
        game.farkle()  # Ann
        game.roll("2 2 3 3 4 6")
        game.farkle()  # Bob
    anns = [record for record in game.state.history if record.player == 0]
    assert [record.farkles_in_a_row for record in anns] == [1, 2]
    assert [(record.outcome, record.points, record.card_bonus, record.penalty) for record in anns] == [(Outcome.FARKLED, 0, 0, 0)] * 2


def test_points_entered_by_hand_are_recorded_with_their_notes() -> None:
    game = new_game("flip")
    game.enter_points(400, "three 4s")  # F: "three fours ... 400"
    game.enter_points(1000)  # F: "four twos ... 1,000 points"
    assert game.state.turn.entered == (400, 1000)
    game.bank()
    record = game.state.history[-1]
    assert (record.entered, record.entered_notes) == ((400, 1000), ("three 4s", ""))
    assert (record.points, record.score_after) == (1400, 1400)


def test_points_and_notes_at_their_limits() -> None:
    flip = new_game("flip")
    flip.enter_points(3000)  # R: "Six of a kind 3,000", the most one combination is worth
    message = refused(lambda: flip.enter_points(3050), IllegalAction)
    assert message == "enter 3,050 points: no combination of the chart is worth more than 3,000; enter each combination on its own"
    flip.enter_points(50, "n" * NOTE_LIMIT)
    message = refused(lambda: flip.enter_points(50, "n" * (NOTE_LIMIT + 1)), IllegalAction)
    assert message == "enter 50 points: a note of 201 characters is too long (at most 200)"
    assert flip.state.turn.entered == (3000, 50)
    dice = new_game("retail")
    dice.enter_points(100_000)  # the largest entry the program takes at once
    message = refused(lambda: dice.enter_points(100_050), IllegalAction)
    assert message == "enter 100,050 points: at most 100,000 points can be entered at once"


# --------------------------------------------------------------------------- all dice used below the entry


def test_a_turn_that_used_all_dice_below_the_entry_ends_empty() -> None:
    game = new_game(stuck_rules())
    use_all_dice_below_the_entry(game)
    state = game.state
    assert (state.turn.total, state.turn.dice_left, state.entry_shortfall()) == (400, 0, 100)
    assert state.stuck() is True and state.can_bank() is True
    assert refused(lambda: game.roll("1"), IllegalAction) == "roll 1: no dice are left to roll; bank the turn"
    game.bank()
    state = game.state
    record = state.history[-1]
    assert (record.outcome, record.points, record.card_bonus, record.penalty, record.score_after) == (Outcome.STUCK, 0, 0, 0, 0)
    assert [str(roll) for roll in record.rolls] == ["1 1 2 3 5 5", "5 5"]
    assert (state.players[0].score, state.players[0].on_board) == (0, False)
    assert state.turn.player == 1


def test_a_player_on_the_board_who_used_all_dice_is_not_stuck() -> None:
    game = new_game(stuck_rules())
    game.roll("1 1 1 2 3 4")
    game.keep("1 1 1")  # R: three 1s 1,000: on the board once banked
    game.bank()
    game.roll("2 2 3 3 4 6")
    game.farkle()  # Bob
    use_all_dice_below_the_entry(game)
    assert game.state.stuck() is False
    game.bank()
    assert game.state.history[-1].outcome is Outcome.BANKED
    assert game.state.players[0].score == 1400


def test_below_the_entry_the_refusal_says_to_roll_with_dice_and_to_draw_with_cards() -> None:
    dice = new_game("house-2009")
    dice.roll("1 5 2 3 4 6")
    dice.keep("1 5")
    message = refused(dice.bank, IllegalBank)
    # H: "Each player must score 1000 points in one turn to 'get on the board'": 150 banked is 850 short.
    assert message == "bank 150: Ann needs 1,000 in one turn to get on the board, 850 more; roll again"
    cards = new_game("flip")
    cards.enter_points(400)
    message = refused(cards.bank, IllegalBank)
    assert message == "bank 400: Ann needs 1,000 in one turn to get on the board, 600 more; draw again"
    assert refused(new_game("retail").bank, IllegalBank) == "bank: nothing scored this turn yet"


def test_a_farkle_with_no_roll_says_so() -> None:
    assert refused(new_game("retail").farkle, IllegalAction) == "Farkle: there is no roll on the table"


# --------------------------------------------------------------------------- six of a kind


@pytest.mark.parametrize("banks_turn, score, on_board", [(False, 0, False), (True, 1000, True)])
def test_six_of_a_kind_ends_the_game_and_records_the_win(banks_turn: bool, score: int, on_board: bool) -> None:
    # H: "6 of any number equals WINS the game", here on Ann's first roll, before she is on the board.
    rules = load_rules("house-2009", overrides={"turn": {"instant_win_banks_turn": banks_turn}})
    game = new_game(rules)
    game.roll("4 4 4 4 4 4")
    game.keep("4 4 4 4 4 4")  # H: "All six dice the same 1,000"
    state = game.state
    assert (state.over, state.phase, state.turn, state.winners) == (True, Phase.OVER, None, (0,))
    assert (state.players[0].score, state.players[0].on_board) == (score, on_board)
    record = state.history[-1]
    assert (record.outcome, record.points, record.card_bonus, record.penalty, record.farkles_in_a_row) == (Outcome.WON, score, 0, 0, 0)
    assert [(str(keep.keep), keep.points) for keep in record.keeps] == [("4 4 4 4 4 4", 1000)]
    assert state.bank_value() == (0, 0)
    assert state.missing_dice() == 0
    assert refused(game.bank, GameOver) == "bank: the game is over (Ann won)"
    assert refused(game.farkle, GameOver) == "Farkle: the game is over (Ann won)"


# --------------------------------------------------------------------------- the end of the game


def test_scoring_exactly_the_target_starts_the_last_lap() -> None:
    # H: "Once someone scores 10,000 (or more) the remaining players have one last turn."
    game = new_game("house-2009")
    house_straights(game, 10)  # Ann: 10 x 1,000 = 10,000 exactly
    state = game.state
    assert state.players[0].score == 10_000
    assert (state.lap_mark, state.final_lap, state.over, state.turn.player) == (0, True, False, 1)


def test_without_a_last_lap_the_target_ends_the_game_at_once() -> None:
    game = new_game(load_rules("house-2009", overrides={"end": {"final_lap": "none"}}))
    house_straights(game, 10)
    state = game.state
    assert (state.over, state.turn, state.winners) == (True, None, (0,))


def test_one_player_alone_can_reach_the_target_with_the_last_lap_extended() -> None:
    game = new_game(load_rules("house-2009", variants=["extend-final-lap"]), players=("Ann",))
    house_straights(game, 10)
    state = game.state
    assert (state.over, state.winners, state.players[0].score) == (True, (0,), 10_000)


def test_a_shared_win_names_every_winner() -> None:
    game = new_game("house-2009")
    house_straights(game, 10)  # Ann 10,000
    house_straights(game, 10)  # Bob 10,000 in the last lap: H says nothing of ties, so they share it
    assert game.state.winners == (0, 1)
    assert refused(lambda: game.roll("1"), GameOver) == "roll 1: the game is over (Ann and Bob won)"


def test_a_three_way_play_off_goes_round_the_table_in_order_and_ends_cleared() -> None:
    rules = load_rules("house-2009", overrides={"end": {"ties": "play-off"}})
    game = new_game(rules, players=("Ann", "Bob", "Cy"))
    for _ in range(3):
        house_straights(game, 10)  # each 10,000
    assert (game.state.play_off, game.state.turn.player) == ((0, 1, 2), 0)
    game.roll("2 2 3 3 4 6")
    game.farkle()  # Ann
    assert game.state.turn.player == 1
    game.roll("2 2 3 3 4 6")
    game.farkle()  # Bob
    assert game.state.turn.player == 2
    game.roll("5 2 2 3 4 6")
    game.keep("5")
    game.bank()  # Cy: H "Five 50", on the board already: 10,050
    state = game.state
    assert (state.over, state.winners, state.play_off, state.turn) == (True, (2,), (), None)


# --------------------------------------------------------------------------- what the buttons and the headline ask


def test_bank_and_roll_are_offered_only_when_they_would_be_taken() -> None:
    game = new_game("retail")
    assert (game.state.can_bank(), game.state.can_roll()) == (False, True)  # nothing scored yet
    game.roll("1 1 5 2 3 4")
    assert (game.state.can_bank(), game.state.can_roll()) == (False, False)  # keep from the roll first
    game.keep("1 1 5")
    assert (game.state.can_bank(), game.state.can_roll()) == (True, True)  # 250, R has no entry minimum
    game.roll("1 5 2")
    game.keep("1 5")
    assert game.state.turn.dice_left == 1 and game.state.can_roll() is True  # the last die may be rolled
    house = new_game("house-2009")
    house.roll("1 5 2 3 4 6")
    house.keep("1 5")
    assert (house.state.can_bank(), house.state.can_roll()) == (False, True)  # H: 150 of the 1,000 needed
    stuck = new_game(stuck_rules())
    use_all_dice_below_the_entry(stuck)
    assert (stuck.state.can_bank(), stuck.state.can_roll()) == (True, False)  # only an empty bank is left
    flip = new_game("flip")
    flip.enter_points(1000)
    assert (flip.state.can_bank(), flip.state.can_roll()) == (True, False)  # cards: no dice to roll
    won = new_game("house-2009")
    won.roll("4 4 4 4 4 4")
    won.keep("4 4 4 4 4 4")
    assert (won.state.can_bank(), won.state.can_roll()) == (False, False)


def test_the_roll_on_the_table_is_scored_and_nothing_else_is() -> None:
    game = new_game("retail")
    assert game.state.roll_score() is None
    game.roll("1 1 5 2 3 4")
    scored = game.state.roll_score()
    assert scored is not None and str(scored.roll) == "1 1 2 3 4 5"
    assert (str(scored.best.keep), scored.best.points) == ("1 1 5", 250)  # R: 100 + 100 + 50
    game.keep("1 1 5")
    assert game.state.roll_score() is None
    assert new_game("retail", players=()).state.roll_score() is None


def test_the_leaders_are_every_seat_with_the_top_score() -> None:
    assert new_game("retail", players=()).state.leaders() == ()
    game = new_game("retail", players=("Ann", "Bob", "Cy"))
    assert game.state.leaders() == (0, 1, 2)  # all on 0
    game.roll("5 2 2 3 4 6")
    game.keep("5")
    game.bank()  # Ann 50
    assert game.state.leaders() == (0,)
    game.roll("5 2 2 3 4 6")
    game.keep("5")
    game.bank()  # Bob 50
    assert game.state.leaders() == (0, 1)


# --------------------------------------------------------------------------- each finished turn in words


def said(game: Game) -> str:
    return describe_turn(game.state.history[-1], game.state)


def test_each_way_a_turn_ends_is_told_in_words() -> None:
    game = new_game("retail")
    game.roll("1 5 2 3 4 6")
    game.keep("1 5")
    game.bank()
    assert said(game) == "Ann banks 150: now 150."  # R: 100 + 50
    game.roll("2 2 3 3 4 6")
    game.farkle()
    assert said(game) == "FARKLE! Bob's turn ends with no points scored this turn; Bob's score stays 0."
    stuck = new_game(stuck_rules())
    use_all_dice_below_the_entry(stuck)
    stuck.bank()
    assert said(stuck) == "Ann scored every die without getting on the board: the turn ends with nothing."
    won = new_game("house-2009")
    won.roll("4 4 4 4 4 4")
    won.keep("4 4 4 4 4 4")
    assert said(won) == "Six of a kind! Ann wins the game on the spot."


def test_the_farkle_penalty_in_words_paid_or_taking_nothing() -> None:
    # the variant: "Three Farkles in a row costs you 1,000 points", never below zero by default
    game = new_game(load_rules("retail", variants=["three-farkle-penalty"]))
    game.roll("1 1 1 5 2 3")
    game.keep("1 1 1 5")
    game.bank()  # Ann: R three 1s 1,000 + 50 = 1,050
    for turn in range(5):
        game.roll("2 2 3 3 4 6")
        game.farkle()  # Bob, Ann, Bob, Ann, Bob
        if turn == 4:
            assert said(game) == (
                "FARKLE! Bob's turn ends with no points scored this turn; 3 Farkles in a row, but with no points the "
                "1,000 penalty takes nothing, and the count starts again: Bob's score stays 0."
            )
    game.roll("1 2 2 3 4 6")
    game.keep("1")
    game.roll("2 2 3 3 4")
    game.farkle()  # Ann's third in a row, with 100 this turn
    assert said(game) == (
        "FARKLE! Ann's turn ends and the 100 points of this turn are lost; the 1,000 penalty for 3 Farkles in a row "
        "takes Ann's score to 50."
    )


def test_a_farkle_says_the_points_of_the_turn_are_lost_not_the_score() -> None:
    # the line "FARKLE! Ann loses the turn: 1,100." read as a loss of 1,100 points
    game = new_game("retail")
    game.roll("1 1 1 5 5 2")
    game.keep("1 1 1 5 5")  # R: three 1s 1,000 + 50 + 50
    game.roll("2")
    game.farkle()
    game.roll("2 2 3 3 4 6")
    game.farkle()  # Bob
    game.roll("1 1 1 2 3 4")
    game.keep("1 1 1")
    game.bank()  # Ann: 1,000
    game.roll("2 2 3 3 4 6")
    game.farkle()  # Bob
    game.roll("5 5 5 1 2 3")
    game.keep("5 5 5 1")  # R: three 5s 500 + 100 = 600
    game.roll("2 3")
    game.farkle()
    assert said(game) == "FARKLE! Ann's turn ends and the 600 points of this turn are lost; Ann's score stays 1,000."


def test_farkle_cards_banked_are_told_with_the_turn() -> None:
    game = new_game("flip")
    game.farkle()  # Ann draws a Farkle card
    game.farkle()  # Bob too
    game.enter_points(1000)
    game.bank()  # F: each Farkle card held adds 100 at the next bank
    assert said(game) == "Ann banks 1,100 (with 100 for Farkle cards): now 1,100."
