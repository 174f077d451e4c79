"""Issue 54, item 1: any target, and a penalty for each Farkle (with a score that may go below zero).

The rule texts in ``/work/shared/rules/`` have neither: they say the opposite of a penalty ("your
banked score is safe", R; "Once points are recorded they cannot be lost", H) and name only the
card edition's shorter games (F: "you may decide to play to only 5,000 or 7,500 points"). The
issue asks for both as house rules: "--target N takes any multiple of 50 from 1,000 up"; "a penalty
for each Farkle (0 by default, e.g. -100 or -500), and whether scores may go below zero". Every
score below is worked out by hand from those words (R = farkle-rules-and-scoring.txt).
"""

from __future__ import annotations

import csv
import dataclasses
import io
import sys
from pathlib import Path

import pytest

from scorekeeper.game import Game, describe_turn, load_game, save_game
from scorekeeper.game.events import Banked, DiceRolled, Farkled, Kept
from scorekeeper.game.history_edits import with_turn_replaced
from scorekeeper.rules import (
    Dice,
    RuleFileError,
    describe_rules,
    load_rules,
    rules_from_table,
    rules_to_table,
    rules_to_toml,
    variant_names,
)

STARTED_AT = "2026-01-01T20:00:00+00:00"
NOTHING = "2 2 3 3 4 6"
"""Six dice that score nothing under every preset (R: "2s, 3s, 4s and 6s are worth nothing")."""


def new_game(rules: str, players: tuple[str, ...] = ("Ann", "Bob"), target: int | None = None) -> Game:
    return Game.new(load_rules(rules), players, target=target, started_at=STARTED_AT)


def farkle(game: Game) -> None:
    game.roll(NOTHING)
    game.farkle()


def bank_1000(game: Game) -> None:
    game.roll("1 1 1 2 3 4")
    game.keep("1 1 1")  # R: "Three 1s ... 1,000"
    game.bank()


def scores(game: Game) -> list[int]:
    return [player.score for player in game.state.players]


def said(game: Game) -> str:
    return describe_turn(game.state.history[-1], game.state)


# --------------------------------------------------------------------------- the rules


def test_the_penalty_and_below_zero_are_variants_in_words() -> None:
    described = variant_names()
    assert described["farkle-penalty-N"] == "Each Farkle costs N points"
    assert described["below-zero"] == "A Farkle penalty may take a score below zero"
    rules = load_rules("retail+farkle-penalty-500+below-zero")
    assert rules.turn == dataclasses.replace(load_rules("retail").turn, each_farkle_penalty=500, penalty_below_zero=True)
    assert (rules.scoring, rules.end) == (load_rules("retail").scoring, load_rules("retail").end)
    assert load_rules(rules.name) == rules  # the name a game keeps loads the same rules again


def test_the_penalty_is_said_in_the_rules_in_plain_words() -> None:
    lines = describe_rules(load_rules("retail+farkle-penalty-100"))
    assert "Each Farkle costs 100 off the score (never below zero)." in lines
    both = describe_rules(load_rules("retail+farkle-penalty-500+three-farkle-penalty+below-zero"))
    assert "Each Farkle costs 500 off the score (it may take a score below zero)." in both
    assert "3 Farkles in a row cost 1,000 more." in both
    assert not [line for line in describe_rules(load_rules("retail")) if "Each Farkle" in line]


@pytest.mark.parametrize(
    ("variant", "words"),
    [
        ("farkle-penalty-525", "[turn] each_farkle_penalty = 525: expected a whole number of points >= 0, a multiple of 50"),
        ("farkle-penalty-100050", "[turn] each_farkle_penalty = 100050: expected a whole number of points >= 0"),
        ("farkle-penalty-x", "no variant named 'farkle-penalty-x'"),
        ("farkle-penalty-N", "no variant named 'farkle-penalty-N'"),
    ],
)
def test_a_penalty_that_is_not_a_number_of_points_is_refused_saying_what_is(variant: str, words: str) -> None:
    with pytest.raises(RuleFileError) as caught:
        load_rules("retail", [variant])
    assert words in str(caught.value)
    if "no variant" in words:
        assert "farkle-penalty-N (a number for N: farkle-penalty-500)" in str(caught.value)


def test_a_rules_file_sets_the_penalty_and_writes_it_back(tmp_path: Path) -> None:
    path = tmp_path / "ours.toml"
    path.write_text("[turn]\neach_farkle_penalty = 100\npenalty_below_zero = true\n[end]\ntarget = 3000\n", encoding="utf-8")
    rules = load_rules(path)
    assert (rules.turn.each_farkle_penalty, rules.turn.penalty_below_zero, rules.end.target) == (100, True, 3000)
    assert "each_farkle_penalty = 100\n" in rules_to_toml(rules)
    again = tmp_path / "again.toml"
    again.write_text(rules_to_toml(rules), encoding="utf-8")
    assert dataclasses.replace(load_rules(again), name=rules.name) == rules


def test_a_game_saved_before_the_penalty_existed_reads_as_without_one() -> None:
    # an older journal holds every field of its day, not each_farkle_penalty
    table = rules_to_table(load_rules("retail+three-farkle-penalty"))
    del table["turn"]["each_farkle_penalty"]
    rules = rules_from_table(table, "retail+three-farkle-penalty", "an older journal")
    assert rules == load_rules("retail+three-farkle-penalty")


# --------------------------------------------------------------------------- the game


def test_each_farkle_costs_the_penalty_but_never_below_zero() -> None:
    game = new_game("retail+farkle-penalty-500")
    bank_1000(game)  # Ann 1,000
    farkle(game)  # Bob has nothing: the penalty takes nothing
    assert scores(game) == [1000, 0]
    assert said(game) == (
        "FARKLE! Bob's turn ends with no points scored this turn; with no points the 500 penalty for a Farkle "
        "takes nothing: Bob's score stays 0."
    )
    farkle(game)  # Ann: 1,000 - 500
    assert scores(game) == [500, 0]
    assert said(game) == (
        "FARKLE! Ann's turn ends with no points scored this turn; the 500 penalty for a Farkle takes Ann's score to 500."
    )
    assert game.state.history[-1].penalty == 500
    farkle(game)  # Bob
    game.roll("1 5 2 3 4 6")
    game.keep("1")
    game.roll("2 2 3 3 4")
    game.farkle()  # Ann, with 100 this turn: lost, then 500 more
    assert scores(game) == [0, 0]
    assert said(game) == (
        "FARKLE! Ann's turn ends and the 100 points of this turn are lost; the 500 penalty for a Farkle "
        "takes Ann's score to 0."
    )


def test_below_zero_the_penalty_is_paid_in_full() -> None:
    game = new_game("retail+farkle-penalty-100+below-zero")
    farkle(game)  # Ann: 0 - 100
    farkle(game)  # Bob: 0 - 100
    farkle(game)  # Ann: -200
    assert scores(game) == [-200, -100]
    bank_1000(game)  # Bob: -100 + 1,000
    assert scores(game) == [-200, 900]
    assert [record.penalty for record in game.state.history] == [100, 100, 100, 0]


def test_a_penalty_larger_than_the_score_takes_only_what_there_is() -> None:
    game = new_game("retail+farkle-penalty-500")
    game.roll("1 5 2 3 4 6")
    game.keep("1 5")
    game.bank()  # Ann 150
    farkle(game)  # Bob
    farkle(game)  # Ann: 150 - 500 stops at 0
    assert scores(game) == [0, 0]
    assert game.state.history[-1].penalty == 150
    assert said(game).endswith("the 500 penalty for a Farkle takes only the 150 Ann had: Ann's score is now 0.")


def test_the_third_farkle_in_a_row_costs_both_penalties() -> None:
    # R: "Three Farkles in a row costs you 1,000 points", on top of the 500 each Farkle costs
    game = new_game("retail+farkle-penalty-500+three-farkle-penalty", ("Ann",))
    for _ in range(3):
        bank_1000(game)  # Ann 3,000
    farkle(game)
    farkle(game)  # 3,000 - 500 - 500
    assert scores(game) == [2000]
    farkle(game)  # the third in a row: 500 + 1,000
    assert scores(game) == [500]
    assert said(game).endswith(
        "the 1,500 penalty (500 for a Farkle, 1,000 for 3 Farkles in a row) takes Ann's score to 500."
    )
    farkle(game)  # the count starts again: 500 only, which is all there is
    assert scores(game) == [0]
    assert game.state.players[0].farkle_streak == 1


def test_undo_redo_history_edits_and_a_saved_game_carry_the_penalty(tmp_path: Path) -> None:
    game = new_game("retail+farkle-penalty-500")
    bank_1000(game)  # Ann 1,000
    bank_1000(game)  # Bob 1,000
    farkle(game)  # Ann 500
    assert scores(game) == [500, 1000]
    game.undo()  # the Farkle taken back: the roll is on the table again, the penalty gone
    assert scores(game) == [1000, 1000] and game.state.turn is not None and game.state.turn.roll == Dice.from_str(NOTHING)
    game.redo()
    assert scores(game) == [500, 1000]
    # Bob's turn, played again as a Farkle, costs him 500 and every total after follows
    edited = Game.from_events(
        with_turn_replaced(game.events, 1, [DiceRolled(Dice.from_str(NOTHING)), Farkled()])
    )
    assert [player.score for player in edited.state.players] == [500, 0]
    # and Ann's Farkle played again as a bank of 1,000 takes the penalty away
    banked = Game.from_events(
        with_turn_replaced(
            game.events, 2, [DiceRolled(Dice.from_str("1 1 1 2 3 4")), Kept(Dice.from_str("1 1 1")), Banked()]
        )
    )
    assert [player.score for player in banked.state.players] == [2000, 1000]
    path = tmp_path / "game.json"
    save_game(game, path)
    again = load_game(path)
    assert again.state == game.state and again.state.rules.turn.each_farkle_penalty == 500


# --------------------------------------------------------------------------- the target


@pytest.mark.parametrize("target", [1000, 3050, 10_000, 25_000, 1_000_000])
def test_any_multiple_of_50_from_1000_up_is_a_target(target: int) -> None:
    assert new_game("house-2009", target=target).state.target == target


def test_the_game_ends_at_its_own_target() -> None:
    game = new_game("retail", target=2000)
    bank_1000(game)  # Ann 1,000
    bank_1000(game)  # Bob 1,000
    bank_1000(game)  # Ann reaches 2,000: R "Everyone else gets one more turn"
    assert game.state.final_lap and not game.state.over
    bank_1000(game)  # Bob's last turn ties her at 2,000: the presets share a tie
    assert game.state.over and game.state.winners == (0, 1)


def test_without_a_target_the_presets_play_to_their_own() -> None:
    assert [new_game(name).state.target for name in ("retail", "pocket", "house-2009", "flip")] == [10_000] * 4


# --------------------------------------------------------------------------- a whole typed game

# retail + three-farkle-penalty + each Farkle 500, to 5,000 (R: three 1s 1,000, three 6s 600,
# three 5s 500, each 1 100, each 5 50, straight 1,500, two triplets 2,500; hot dice)
TYPED_GAME = [
    ("111234", "111", "111", "111", "111234", "111", "b"),  # Ann 1,000 + 1,000 (hot dice) + 1,000: 3,000
    ("666234", "666", "b"),  # Bob 600
    ("223346", "f"),  # Ann's 1st Farkle in a row: 3,000 - 500 = 2,500
    ("223346", "f"),  # Bob's 1st: 600 - 500 = 100
    ("115234", "115", "234", "f"),  # Ann's 2nd: her 250 this turn lost, 2,500 - 500 = 2,000
    ("223346", "f"),  # Bob's 2nd: 500 due, he has 100: 0
    ("223346", "f"),  # Ann's 3rd: 500 + 1,000 = 1,500 off 2,000: 500, and the count starts again
    ("223346", "f"),  # Bob's 3rd: 1,500 due, he has nothing: 0
    # Ann: straight 1,500 (hot) + 555 500 + 1 5 5 200 (hot) + 111 555 2,500 (hot) = 4,700: 5,200, the last lap
    ("123456", "123456", "555234", "555", "155", "155", "111555", "111555", "b"),
    ("666234", "666", "b"),  # Bob's last turn: 600
]


def test_a_whole_typed_game_with_a_penalty_for_each_farkle_ends_with_the_totals_worked_out_by_hand(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from scorekeeper.cli import main

    lines = "\n".join(step for turn in TYPED_GAME for step in turn) + "\n"
    saved = tmp_path / "game.json"
    sys.stdin = io.StringIO(lines)
    try:
        status = main(
            ["play", "--rules", "retail+three-farkle-penalty", "--farkle-penalty", "-500", "--target", "5000",
             "--players", "Ann,Bob", "--save", str(saved)]
        )
    finally:
        sys.stdin = sys.__stdin__
    out = capsys.readouterr().out
    assert status == 0
    assert out.startswith(
        "Farkle: the retail chart (retail+three-farkle-penalty+farkle-penalty-500), played to 5,000; "
        "each Farkle costs 500. Type 'help' for the commands."
    )
    game = load_game(saved)
    history = game.state.history
    assert [record.score_after for record in history] == [3000, 600, 2500, 100, 2000, 0, 500, 0, 5200, 600]
    assert [record.penalty for record in history] == [0, 0, 500, 500, 500, 100, 1500, 0, 0, 0]
    assert scores(game) == [5200, 600] and game.state.winners == (0,)
    assert "FARKLE! Bob's turn ends with no points scored this turn; the 500 penalty for a Farkle takes only the 100 Bob had" in out
    assert "the 1,500 penalty (500 for a Farkle, 1,000 for 3 Farkles in a row) takes Ann's score to 500." in out
    assert "   Ann            5,200  WINNER\n   Bob              600\nGame over: Ann wins!\n" in out


# --------------------------------------------------------------------------- what the sheets and phones show


def below_zero_game() -> Game:
    """Ann banks 1,000, Bob Farkles twice, Ann once: each Farkle costs 500 and may go below zero."""
    game = new_game("retail+farkle-penalty-500+below-zero", target=3000)
    bank_1000(game)  # Ann 1,000
    farkle(game)  # Bob -500
    farkle(game)  # Ann 500
    farkle(game)  # Bob -1,000
    return game


def test_the_score_sheets_show_each_penalty_and_a_score_below_zero(tmp_path: Path) -> None:
    from scorekeeper.export import export_csv, export_html, export_pdf
    from tests.pdf_pages import read_pdf

    game = below_zero_game()
    export_csv(game.events, tmp_path / "s.csv", "2026-01-01T22:00:00+00:00")
    rows = list(csv.reader((tmp_path / "s.csv").open(encoding="utf-8")))
    header = rows.index(["turn", "player", "player's turn", "rolls", "kept", "entered", "outcome", "points",
                         "penalty", "total Ann", "total Bob"])
    assert [(r[1], r[6], r[7], r[8], r[9], r[10]) for r in rows[header + 1 : header + 5]] == [
        ("Ann", "banked", "1000", "0", "1000", "0"),
        ("Bob", "Farkle, 500 penalty (every Farkle costs 500)", "0", "500", "1000", "-500"),  # numbers: no ' on -500
        ("Ann", "Farkle, 500 penalty (every Farkle costs 500)", "0", "500", "500", "-500"),
        ("Bob", "Farkle, 500 penalty (every Farkle costs 500)", "0", "500", "500", "-1000"),
    ]
    assert ["target", "3000"] in rows
    assert ["Each Farkle costs 500 off the score (it may take a score below zero)."] in rows
    assert ["This game is played to 3,000 (the rules' own target: 10,000)."] in rows
    export_html(game.events, tmp_path / "s.html", "2026-01-01T22:00:00+00:00")
    page = (tmp_path / "s.html").read_text(encoding="utf-8")
    assert "Penalty</th>" in page
    assert page.count(">500<") >= 3 and "-1,000" in page
    assert "Each Farkle costs 500 off the score (it may take a score below zero)." in page
    export_pdf(game.events, tmp_path / "s.pdf", "2026-01-01T22:00:00+00:00")
    _, texts = read_pdf(tmp_path / "s.pdf")
    text = " ".join(texts)
    assert "Penalty" in text and "-1,000" in text and "Each Farkle costs 500 off the score" in text


def test_the_phone_scoreboard_shows_the_penalty_and_a_score_below_zero() -> None:
    from scorekeeper.serve.board import board_of
    from scorekeeper.serve.page import board_html

    board = board_of(below_zero_game().events)
    assert [(seat.name, seat.score) for seat in board.seats] == [("Ann", 500), ("Bob", -1000)]
    assert board.last_turn == (
        "FARKLE! Bob's turn ends with no points scored this turn; the 500 penalty for a Farkle takes Bob's score to -1,000."
    )
    page = board_html(board)
    assert '<td class="score">-1,000</td>' in page and "Playing to 3,000" in page
    assert "the 500 penalty for a Farkle takes Bob&#x27;s score to -1,000." in page


def test_the_statistics_judge_a_bank_by_what_a_farkle_would_have_cost_that_player() -> None:
    from scorekeeper.coach import policy_for
    from scorekeeper.stats.players import player_stats

    game = new_game("retail+farkle-penalty-500")
    policy = policy_for(game.state.rules)
    # 250 with 3 dice: rolling pays when a Farkle costs 50 more, not when it costs 500
    assert policy.roll_value(250, 3, score=50) > 250 > policy.roll_value(250, 3, score=5000)
    game.enter_points(50, "a lone 5")
    game.bank()  # Ann 50 (points typed in: no dice for the coach to judge)
    game.enter_points(5000, "a big turn")
    game.bank()  # Bob 5,000
    game.roll("1 1 5 2 3 4")
    game.keep("1 1 5")
    game.bank()  # Ann, with only 50 a Farkle could take: banked against the coach's advice
    game.roll("1 1 5 2 3 4")
    game.keep("1 1 5")
    game.bank()  # Bob, with 500 to lose on a Farkle: banking is the coach's advice
    ann, bob = player_stats(game.events, policy)
    assert (ann.banks_against_advice, bob.banks_against_advice) == (1, 0)
    assert scores(game) == [300, 5250]
