"""The rules in force in plain words (the rules window, the score sheet, ``rules show``): each line
worked out by hand from the rule texts in ``/work/shared/rules/`` (R = retail, H = house rules 2009,
F = the card edition) and the variants' own words."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.rules import describe_rules, load_rules

R_CHART = [
    "Each 1: 100. Each 5: 50.",  # R: "Each 1 100", "Each 5 50"
    "Three 1s: 1,000. Three of any other face: the face times 100.",  # R: "Three 2s = 200, ... face x 100"
    "Four of a kind: 1,000. Five of a kind: 2,000. Six of a kind: 3,000.",
    "Straight 1-6: 1,500. Three pairs: 1,500. Four of a kind and a pair: 1,500. Two triplets: 2,500.",
    "Four of a kind counts as two pairs toward three pairs.",
    "Combinations only count within one roll.",  # R: "Combinations only count when they come up in a single roll"
]
ONE_LAP = "Once someone reaches it, everyone else gets one last turn; the highest total wins."
SHARED = "A tie at the end is shared."


def test_the_retail_rules_line_by_line() -> None:
    assert describe_rules(load_rules("retail")) == [
        "Farkle: the retail chart (retail)",
        *R_CHART,
        "Hot dice: score with all six and roll all six again.",  # R: "Hot dice: score with all six dice ..."
        "No minimum to get on the board.",  # R's chart has none
        "Play to 10,000.",  # R: "First past 10,000"
        ONE_LAP,  # R: "Everyone else gets one more turn to beat them, and the highest total ... takes the game"
        SHARED,
    ]


def test_the_house_rules_line_by_line() -> None:
    assert describe_rules(load_rules("house-2009")) == [
        "House rules of 2009: 1,000 to get on the board, six of a kind wins (house-2009)",
        "Each 1: 100. Each 5: 50.",  # H: "One 100", "Five 50"
        "Three 1s: 1,000. Three of any other face: the face times 100.",  # H: "3 of any number equals that number times 100"
        # H: "4 of any number equals that number times 200", "5 ... times 300", "All six dice the same 1,000"
        "Four of a kind: 2 times the three of a kind. Five of a kind: 3 times the three of a kind. Six of a kind: 1,000.",
        "Straight 1-6: 1,000. Three pairs: 1,000.",  # H: "3 pair 1,000", "A straight (1 through 6) 1,000"
        "Not on this chart: four of a kind and a pair, two triplets; such dice score only as the smaller combinations they hold.",
        "Four of a kind counts as two pairs toward three pairs.",
        "Combinations only count within one roll.",
        "Hot dice: score with all six and roll all six again.",  # H: "the option to begin again with all six dice"
        "Bank at least 1,000 in one turn to get on the board.",  # H: "must score 1000 points in one turn"
        "Six of a kind wins the game on the spot, before it is scored.",  # H: "6 of any number equals WINS the game"
        "Play to 10,000.",  # H: "Play to 10,000."
        ONE_LAP,  # H: "the remaining players have one last turn"
        SHARED,
    ]


def test_the_card_edition_line_by_line() -> None:
    assert describe_rules(load_rules("flip")) == [
        "Farkle Flip: the card edition (flip)",
        "Played with the Farkle Flip cards: combinations are entered as points.",
        *R_CHART,  # F's examples match the retail chart
        "Bank at least 1,000 in one turn to get on the board.",
        "Farkle cards count toward getting on the board.",
        "Each Farkle card held adds 100 when its holder next banks; drawing one ends the turn.",
        "Play to 10,000 (5,000 or 7,500 with 6 or more players).",  # F: "six or more players ... 5,000 or 7,500"
        ONE_LAP,  # F: "the other players get one more turn to try to beat that player's score"
        SHARED,
    ]


def test_variants_and_a_play_off_line_by_line() -> None:
    rules = load_rules("retail", variants=["entry-500", "three-farkle-penalty"], overrides={"end": {"ties": "play-off", "final_lap": "none"}})
    assert describe_rules(rules) == [
        "Farkle: the retail chart (retail+entry-500+three-farkle-penalty)",
        *R_CHART,
        "Hot dice: score with all six and roll all six again.",
        "Bank at least 500 in one turn to get on the board.",
        "3 Farkles in a row cost 1,000 (never below zero).",  # the variant: "Three Farkles in a row costs you 1,000 points"
        "Play to 10,000.",
        "The first to reach the target wins at once.",
        "A tie at the end is played off: the tied players take one more turn each.",
    ]


@pytest.mark.parametrize(
    "preset, overrides, line",
    [
        ("retail", {"turn": {"hot_dice": False}}, "No hot dice: once all six score, the turn must be banked."),
        ("retail", {"turn": {"farkle_penalty": 500, "farkle_penalty_streak": 2, "penalty_below_zero": True}}, "2 Farkles in a row cost 500 (it may take a score below zero)."),
        ("house-2009", {"turn": {"instant_win_banks_turn": True}}, "Six of a kind wins the game on the spot, after the turn is banked."),
        ("flip", {"turn": {"farkle_cards_count_toward_entry": False}}, "Farkle cards do not count toward getting on the board."),
        ("retail", {"scoring": {"four_of_a_kind_as_two_pairs": False}}, "Four of a kind does not count as two pairs."),
        ("retail", {"end": {"final_lap": "extend"}}, "Once someone reaches it, everyone else gets one last turn, and again each time someone beats the leader; the highest total wins."),
        (
            "retail",
            {"scoring": {"five_of_a_kind": "none", "six_of_a_kind": "triple x4"}},
            "Four of a kind: 1,000. Five of a kind: no extra score. Six of a kind: 4 times the three of a kind.",
        ),
        (
            "retail",
            {"scoring": {"three_pairs": 0, "two_triplets": 0}},
            "Not on this chart: three pairs, two triplets; such dice score only as the smaller combinations they hold.",
        ),
    ],
)
def test_each_setting_in_its_own_words(preset: str, overrides: dict[str, Any], line: str) -> None:
    assert line in describe_rules(load_rules(preset, overrides=overrides))


def test_without_three_pairs_nothing_is_said_of_four_of_a_kind_as_two_pairs() -> None:
    lines = describe_rules(load_rules("retail", overrides={"scoring": {"three_pairs": 0}}))
    assert "Straight 1-6: 1,500. Four of a kind and a pair: 1,500. Two triplets: 2,500." in lines
    assert not [line for line in lines if "two pairs" in line]


def test_the_card_edition_says_nothing_of_hot_dice_and_no_entry_says_nothing_of_cards() -> None:
    flip = describe_rules(load_rules("flip"))
    assert not [line for line in flip if "hot dice" in line.lower()]
    no_entry = describe_rules(load_rules("flip", overrides={"turn": {"entry_minimum": 0}}))
    assert "No minimum to get on the board." in no_entry
    assert not [line for line in no_entry if "toward getting on the board" in line]
