"""Issue 54, items 3 and 4: the wild die and spicy (red pips), as variants of the rules.

No rule text in ``/work/shared/rules/`` has either; the issue, from the farklescorekeeper app: "Wild
die: one die of a different colour counts as any face when it shows a 1 (the score is the best it
can make; a straight with it counts)" and "Spicy: each die has one face whose pips are red; a
scoring combination that includes a red face scores double". Every score below is worked out by hand
from the retail chart (R: each 1 100, each 5 50, three 1s 1,000, three of a kind face x 100, four of
a kind 1,000, six of a kind 3,000, straight 1,500, three pairs 1,500) or the house rules of 2009 (H:
four of a kind twice the three, six of a kind wins).
"""

from __future__ import annotations

import io
import itertools
import json
import sys
from pathlib import Path

import pytest

from scorekeeper.cli import main
from scorekeeper.game import Game, load_game
from scorekeeper.rules import (
    Dice,
    IllegalKeep,
    RuleFileError,
    describe_rules,
    load_rules,
    rules_from_table,
    rules_to_table,
    rules_to_toml,
    score_roll,
    variant_names,
)
from scorekeeper.scoreboard.table_mode import table_board
from scorekeeper.serve.board import board_of
from scorekeeper.serve.page import board_html

WILD = load_rules("retail+wild-die")
SPICY = load_rules("retail+spicy")
BOTH = load_rules("retail+wild-die+spicy")


def best(rules_name: str, roll: str) -> tuple[str, int]:
    scored = score_roll(load_rules(rules_name), Dice.from_str(roll))
    assert scored.best is not None, roll
    return str(scored.best.keep), scored.best.points


@pytest.mark.parametrize(
    "roll, keep, points",
    [
        # the wild 1 with a pair of 2s: three 2s (200) beat the wild as a 1 (100)
        ("1w 2 2 3 4 6", "1w 2 2", 200),
        # the wild 1 completes a straight as the 6 (1,500), rather than 1 1 5 (250)
        ("1w 1 2 3 4 5", "1 1w 2 3 4 5", 1500),
        # pairs of 4s and 6s and a 3: the wild 1 as a 3 makes three pairs (1,500), more than three 6s (600)
        ("1w 4 4 6 6 3", "1w 3 4 4 6 6", 1500),
        # five 3s and the wild 1: six of a kind (3,000), more than five 3s (2,000) + the 1 (100)
        ("1w 3 3 3 3 3", "1w 3 3 3 3 3", 3000),
        # the wild die showing 2-6 is that face: 2w 2 is a pair of 2s, and only the 1 and 5 score
        ("2w 2 1 5 3 4", "1 5", 150),
        # with nothing to join, the wild 1 is a 1 (100); as a 5 it would make no straight of five dice
        ("1w 2 3 4 6", "1w", 100),
    ],
)
def test_the_wild_1_counts_as_whatever_face_scores_best(roll: str, keep: str, points: int) -> None:
    assert best("retail+wild-die", roll) == (keep, points)


@pytest.mark.parametrize(
    "roll, keep, points",
    [
        # three 4s with a red 4: 400 doubled
        ("4r 4 4 2 3 6", "4 4 4r", 800),
        # four 1s, one red: the red goes in the three 1s (2,000) + a single 1 (100) = 2,100, more than
        # four of a kind doubled (2,000) or the red single doubled (1,000 + 200)
        ("1 1 1 1r 2 3", "1 1 1 1r", 2100),
        # a red 5 alone doubles to 100; the plain 1 100: 200
        ("1 5r 2 3 4 4", "1 5r", 200),
        # a straight holding a red face: 1,500 x 2
        ("1 5r 2 3 4 6", "1 2 3 4 5r 6", 3000),
        # two red faces in one combination double it once: three 5s 500 x 2
        ("5r 5r 5 2 3 4", "5 5r 5r", 1000),
        # three pairs with a red die: 1,500 x 2
        ("2r 2 3 3 4 4", "2 2r 3 3 4 4", 3000),
        # a red 2 that scores nothing is no help: 1 + 5 = 150
        ("2r 1 5 3 4 4", "1 5", 150),
    ],
)
def test_a_combination_holding_a_red_face_scores_double(roll: str, keep: str, points: int) -> None:
    assert best("retail+spicy", roll) == (keep, points)


def test_the_wild_die_with_red_pips_counts_as_any_face_and_doubles_its_combination() -> None:
    # wild red 1 as a 4 with five 4s: six of a kind 3,000, doubled
    assert best("retail+wild-die+spicy", "1wr 4 4 4 4 4") == ("1wr 4 4 4 4 4", 6000)
    # with a pair of 6s it is a third red 6: 600 doubled
    assert best("retail+wild-die+spicy", "1wr 2 3 4 6 6") == ("1wr 6 6", 1200)
    # with nothing to join it is a red 1: 200
    assert best("retail+wild-die+spicy", "1wr 2 3 4") == ("1wr", 200)


def test_each_option_says_how_it_scored() -> None:
    # 1w 4 4 4r 6 6: the wild 1 as a 6 makes two triplets, 2,500, doubled by the red 4: 5,000; as a 4,
    # four of a kind and a pair (1,500) doubled is only 3,000
    scored = score_roll(BOTH, Dice.from_str("1w 6 6 4r 4 4"))
    top = scored.options[0]
    assert str(top) == "1w 4 4 4r 6 6 for 5000"
    assert [str(part) for part in top.split] == ["two triplets 1w 4 4 4r 6 6 (5000; the wild 1 as a 6; doubled: red pips)"]
    # the 4s on their own: three 4s with the red one, 800
    assert scored.option_for(Dice.from_str("4 4 4r")).points == 800
    # the wild 1 with the 6s: three 6s, 600, "the wild 1 as a 6"
    [part] = scored.option_for(Dice.from_str("1w 6 6")).split
    assert str(part) == "three of a kind 1w 6 6 (600; the wild 1 as a 6)"


def test_a_plain_roll_scores_exactly_as_without_the_variants() -> None:
    for n in range(1, 7):
        for roll in itertools.combinations_with_replacement(range(1, 7), n):
            plain, marked = score_roll(load_rules("retail"), roll), score_roll(BOTH, roll)
            assert [(o.keep, o.points, o.split) for o in marked.options] == [(o.keep, o.points, o.split) for o in plain.options]


def test_six_of_a_kind_made_with_the_wild_die_wins_where_six_of_a_kind_wins() -> None:
    scored = score_roll(load_rules("house-2009+wild-die"), Dice.from_str("1w 4 4 4 4 4"))
    assert scored.wins and scored.best is not None and str(scored.best.keep) == "1w 4 4 4 4 4"
    game = Game.new(load_rules("house-2009+wild-die"), ["Ann", "Bob"])
    game.roll("4 4 1w 4 4 4")
    game.keep("1 4 4 4 4 4")
    assert game.state.winners == (0,)


@pytest.mark.parametrize(
    "roll, typed, kept",
    [
        ("1w 5 2 3 4 6", "1 5", "1w 5"),  # no plain 1: the wild one
        ("1w 1 5 2 3 4", "1 5", "1 5"),  # a plain 1 first
        ("1w 1 5 2 3 4", "1 1", "1 1w"),
        ("1r 1 5r 2 3 4", "5", "5r"),
        ("1w 5r 5 2 3 4", "1w 5r", "1w 5r"),  # named with their marks: those dice
    ],
)
def test_a_keep_typed_without_marks_takes_plain_dice_first(roll: str, typed: str, kept: str) -> None:
    game = Game.new(BOTH, ["Ann"])
    game.roll(roll)
    game.keep(typed)
    turn = game.state.turn
    assert turn is not None and str(turn.keeps[-1].keep) == kept
    assert str(game.events[-1].dice) == kept  # type: ignore[union-attr]


def test_a_keep_of_dice_the_roll_does_not_hold_is_refused_plainly() -> None:
    scored = score_roll(BOTH, Dice.from_str("1 5 2 3 4 6"))
    with pytest.raises(IllegalKeep) as refused:
        scored.option_for(Dice.from_str("1w"))
    assert str(refused.value) == "keep '1w' is not in the roll '1 2 3 4 5 6'"
    scored = score_roll(WILD, Dice.from_str("1w 2 3 4 6 6"))
    with pytest.raises(IllegalKeep) as refused:
        scored.option_for(Dice.from_str("2"))
    assert str(refused.value) == "keep '2' holds non-scoring die 2"


def test_the_variants_are_listed_described_and_set_their_fields() -> None:
    assert "wild-die" in variant_names() and "spicy" in variant_names()
    assert WILD.scoring.wild_die and not WILD.scoring.spicy
    assert SPICY.scoring.spicy and not SPICY.scoring.wild_die
    lines = describe_rules(BOTH)
    assert "Wild die: the die of another colour (typed 1w) counts as any face when it shows a 1, whichever scores best, a straight included; showing 2-6 it is that face." in lines
    assert "Spicy: each die has one face with red pips (typed 5r); a combination holding a red face scores double." in lines
    assert not any(line.startswith(("Wild die", "Spicy")) for line in describe_rules(load_rules("retail")))


def test_a_rules_file_sets_them_and_an_older_journal_reads_as_without_them(tmp_path: Path) -> None:
    path = tmp_path / "ours.toml"
    path.write_text("base = 'pocket'\n[scoring]\nwild_die = true\nspicy = true\n", encoding="utf-8")
    rules = load_rules(path)
    assert rules.scoring.wild_die and rules.scoring.spicy and rules.scoring.three_ones == 300
    assert "wild_die = true\nspicy = true\n" in rules_to_toml(rules)
    table = rules_to_table(load_rules("retail"))
    del table["scoring"]["wild_die"], table["scoring"]["spicy"]
    assert rules_from_table(table, "retail", "an older journal") == load_rules("retail")


@pytest.mark.parametrize("variant, message", [("wild-die", "wild_die needs kind = 'dice'"), ("spicy", "spicy needs kind = 'dice'")])
def test_the_card_edition_has_no_dice_to_mark(variant: str, message: str) -> None:
    with pytest.raises(RuleFileError) as caught:
        load_rules(f"flip+{variant}")
    assert message in str(caught.value)


def test_score_shows_marked_dice_and_what_the_variants_did(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--rules", "retail+wild-die+spicy", "1w", "2", "2", "4r", "4", "6"]) == 0
    lines = capsys.readouterr().out.splitlines()
    # the wild 1 as a 6 makes three pairs (2 2, 4 4r, 6 6), 1,500, doubled by the red 4: 3,000
    assert lines[1].split() == "best 1w 2 2 4 4r 6 3000 three pairs 1w 2 2 4 4r 6 (the wild 1 as a 6; doubled: red pips)".split()
    sys.stdin = io.StringIO("6 1w 5r\n")
    try:
        assert main(["score", "--rules", "retail+wild-die+spicy", "--batch"]) == 0
    finally:
        sys.stdin = sys.__stdin__
    answer = json.loads(capsys.readouterr().out)
    # typed order kept in "roll"; 1w (100) + 5r (50 doubled): 200
    assert answer["roll"] == [6, "1w", "5r"] and answer["best"] == {"keep": ["1w", "5r"], "points": 200}
    assert main(["score", "--rules", "retail", "1w", "5"]) == 2
    assert "'1w': this game plays without a wild die; add the variant wild-die" in capsys.readouterr().err


def test_the_phones_and_table_mode_show_the_marks() -> None:
    game = Game.new(BOTH, ["Ann", "Bob"])
    game.roll("1w 2 2 6 5r 3")
    board = board_of(game.events)
    assert board.last_roll is not None and board.last_roll.marks == ("w", "", "", "", "r", "")
    html = board_html(board)
    assert '<span class="die wild" title="wild 1">\u2680<span class="pips">1w</span></span>' in html
    assert '<span class="die red" title="red 5">\u2684<span class="pips">5r</span></span>' in html
    assert table_board(game.state).roll == "1w 2 2 3 5r 6"
    plain = Game.new(load_rules("retail"), ["Ann"])
    plain.roll("1 2 2 6 5 3")
    assert board_of(plain.events).last_roll.marks == ()  # type: ignore[union-attr]
    assert '<span class="die" title="1">\u2680<span class="pips">1</span></span>' in board_html(board_of(plain.events))


# --------------------------------------------------------------------------- whole typed games


def play(capsys: pytest.CaptureFixture[str], tmp_path: Path, turns: list[tuple[str, ...]], *options: str) -> tuple[Game, str]:
    saved = tmp_path / "game.json"
    sys.stdin = io.StringIO("\n".join(step for turn in turns for step in turn) + "\n")
    try:
        status = main(["play", *options, "--players", "Ann,Bob", "--save", str(saved)])
    finally:
        sys.stdin = sys.__stdin__
    assert status == 0
    return load_game(saved), capsys.readouterr().out


# retail + wild-die, to 3,000 (R: each 1 100, each 5 50, three 1s 1,000, three 2s 200, three 6s 600,
# six of a kind 3,000, five of a kind 2,000, straight 1,500; hot dice)
WILD_GAME = [
    # Ann: the wild 1 as the 6 makes 1 2 3 4 5 6, a straight: 1,500 (hot dice); then the wild 1 as a
    # 2 makes three 2s: 200 (more than 100 as a 1): 1,700, 3 dice left
    ("1w 1 2 3 4 5", "1 1 2 3 4 5", "2 2 1w 3 4 6", "1 2 2", "b"),
    # Bob: the wild 1 as a 6, three 6s: 600; then 5 5: 100: 700
    ("1w 6 6 3 4 2", "1w 6 6", "5 5 3", "5 5", "b"),
    # Ann: the wild die shows 2, so it is a 2: 2 2 3 3 4 6 scores nothing: Farkle, 1,700 stays
    ("2w 2 3 3 4 6", "f"),
    # Bob: the wild 1 as a 4 makes six 4s: 3,000 (as a 1 it would be 100 + five 4s 2,000 = 2,100);
    # hot dice, and he banks: 700 + 3,000 = 3,700, the last lap
    ("1w 4 4 4 4 4", "1 4 4 4 4 4", "b"),
    # Ann's last turn: 1 1 1w 5: three 1s (the wild one a 1) 1,000 + 50 = 1,050; 1 5: 150, hot dice;
    # the wild 1 as a 6 with 6 6: 600: 1,050 + 150 + 600 = 1,800: 1,700 + 1,800 = 3,500
    ("1w 1 1 5 2 3", "1 1 1 5", "5 1", "1 5", "1w 2 3 4 6 6", "1 6 6", "b"),
]


def test_a_whole_typed_game_with_the_wild_die_ends_with_the_totals_worked_out_by_hand(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game, out = play(capsys, tmp_path, WILD_GAME, "--variant", "wild-die", "--target", "3000")
    history = game.state.history
    assert [record.score_after for record in history] == [1700, 700, 1700, 3700, 3500]
    assert [record.points for record in history] == [1700, 700, 0, 3000, 1800]
    assert [str(keep.keep) for keep in history[0].keeps] == ["1 1w 2 3 4 5", "1w 2 2"]
    assert [[str(part) for part in keep.split] for keep in history[3].keeps] == [["six of a kind 1w 4 4 4 4 4 (3000; the wild 1 as a 4)"]]
    assert [player.score for player in game.state.players] == [3500, 3700] and game.state.winners == (1,)
    assert "1w 4 4 4 4 4: type the dice to keep, or  o1) 1w 4 4 4 4 4 for 3,000  " in out
    assert "1 1 1w 2 3 5: type the dice to keep" in out
    assert "Game over: Bob wins!" in out


# retail + spicy, to 3,000 (R as above; a combination holding a red face scores double)
SPICY_GAME = [
    # Ann: 1 4 4 4r: three 4s with the red one 400 x 2 = 800, + 100 = 900; then the red 5: 50 x 2 = 100:
    # 1,000, 1 die left
    ("4r 4 4 1 2 3", "1 4 4 4", "5r 2", "5", "b"),
    # Bob: the red 2 scores nothing: 2 2 3 4 6 6 is a Farkle
    ("2r 3 4 6 6 2", "f"),
    # Ann: 5 5r 5r: three 5s doubled once, 1,000, + 100 = 1,100: 2,100
    ("5r 5r 5 1 2 3", "5 5 5 1", "b"),
    # Bob: three pairs with a red 2: 1,500 x 2 = 3,000 (hot dice): 3,000, the last lap
    ("2r 2 3 3 6 6", "2 2 3 3 6 6", "b"),
    # Ann's last turn: 1 1 1 1r: three 1s with the red one 2,000 + 100 = 2,100 (four of a kind doubled
    # would be 2,000); 5 5r: 50 + 100 = 150, hot dice: 2,250: 2,100 + 2,250 = 4,350
    ("1r 1 1 1 2 3", "1 1 1 1", "5 5r", "5 5", "b"),
]


def test_a_whole_typed_game_with_red_pips_ends_with_the_totals_worked_out_by_hand(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game, out = play(capsys, tmp_path, SPICY_GAME, "--variant", "spicy", "--target", "3000")
    history = game.state.history
    assert [record.score_after for record in history] == [1000, 0, 2100, 3000, 4350]
    assert [[(str(keep.keep), keep.points) for keep in record.keeps] for record in history] == [
        [("1 4 4 4r", 900), ("5r", 100)],
        [],
        [("1 5 5r 5r", 1100)],
        [("2 2r 3 3 6 6", 3000)],
        [("1 1 1 1r", 2100), ("5 5r", 150)],
    ]
    assert [player.score for player in game.state.players] == [4350, 3000] and game.state.winners == (0,)
    assert "1 1 1 1r 2 3: type the dice to keep, or  o1) 1 1 1 1r for 2,100  " in out
    assert "Game over: Ann wins!" in out


# house-2009 + wild-die + piggyback + each Farkle 100, to 3,000 (H: 1,000 in one turn to get on the
# board; three 1s 1,000, three 5s 500, each 1 100, each 5 50, four of a kind twice the three; six of
# a kind wins on the spot)
HOUSE_GAME = [
    # Ann: three 1s with the wild one 1,000 (as a 1 it is the best: 1,000 against three 5s with 5 5, 500)
    # + 5 5 100 = 1,100: on the board, 1 die left
    ("1w 1 1 5 5 3", "1 1 1 5 5", "b"),
    # Bob piggybacks on Ann's 1,100 with her 1 die: a 3, Farkle: the pot lost; 100 off nothing: 0
    ("pig", "3", "f"),
    # Ann: the wild die shows 4 and is a 4: 4 4 4 4 is four of a kind, 800, + 1 = 900: 2,000, 1 die left
    ("4w 4 4 4 1 2", "1 4 4 4 4", "b"),
    # Bob turns the pot down for six fresh dice: the wild 1 with five 3s is six 3s: he wins on the spot
    ("fresh", "1w 3 3 3 3 3", "1 3 3 3 3 3"),
]


def test_a_whole_typed_game_with_the_wild_die_piggyback_and_a_penalty_ends_with_the_totals_worked_out_by_hand(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game, out = play(
        capsys, tmp_path, HOUSE_GAME, "--rules", "house-2009", "--variant", "wild-die", "--variant", "piggyback",
        "--farkle-penalty", "100", "--target", "3000",
    )
    history = game.state.history
    assert [record.score_after for record in history] == [1100, 0, 2000, 0]
    assert [record.pot for record in history] == [0, 1100, 0, 0]
    assert [str(keep.keep) for keep in history[2].keeps] == ["1 4 4 4 4w"]
    assert [player.score for player in game.state.players] == [2000, 0] and game.state.winners == (1,)
    assert "Game over: Bob wins!" in out
