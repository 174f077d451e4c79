"""Loading rule sets: the shipped presets, the named variants, user TOML files and their errors.

Every expected value below is read off the rule texts in ``shared/rules/``; the comment next
to each one quotes (or points at) the line it comes from:

* R = farkle-rules-and-scoring.txt (the retail chart, its "Common variants", Pocket Farkel)
* H = farkle-house-rules-2009.txt
* F = farkle-flip-card-game.txt
"""

from __future__ import annotations

import dataclasses
import itertools
from pathlib import Path

import pytest

from scorekeeper.rules import (
    FinalLap,
    GameKind,
    KindValue,
    RuleFileError,
    RuleSet,
    Ties,
    load_rules,
    preset_names,
    rules_to_toml,
    variant_names,
)

PRESETS = ["retail", "pocket", "house-2009", "flip"]
VARIANTS = ["straight-2500", "doubling", "entry-500", "three-farkle-penalty", "extend-final-lap"]
FACES = range(1, 7)


def _all_variant_sets() -> list[tuple[str, ...]]:
    return [combo for n in range(len(VARIANTS) + 1) for combo in itertools.combinations(VARIANTS, n)]


def write(tmp_path: Path, text: str, name: str = "ours.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# --------------------------------------------------------------------------- presets


def test_the_shipped_presets_and_variants_are_the_ones_the_texts_describe() -> None:
    assert preset_names() == ["flip", "house-2009", "pocket", "retail"]
    # the issue 54 house rules: a penalty for each Farkle, one that may go below zero, piggyback, the wild die, spicy
    assert sorted(variant_names()) == sorted([*VARIANTS, "farkle-penalty-N", "below-zero", "piggyback", "wild-die", "spicy"])
    assert all(description for description in variant_names().values())


@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_loads_under_its_own_name(name: str) -> None:
    rules = load_rules(name)
    assert isinstance(rules, RuleSet)
    assert rules.name == name
    assert rules.title


def test_retail_carries_the_printed_chart() -> None:
    rules = load_rules("retail")
    s, t, e = rules.scoring, rules.turn, rules.end
    assert rules.kind is GameKind.DICE
    assert s.one == 100  # R: "Each 1 100"
    assert s.five == 50  # R: "Each 5 50"
    assert s.three_ones == 1000  # R: "Three 1s ... 1,000"
    assert s.three_of_a_kind == 100  # R: "Three 2s = 200, three 3s = 300 ... face x 100"
    assert [s.triple(face) for face in FACES] == [1000, 200, 300, 400, 500, 600]
    # R: "Four of a kind 1,000 / Five of a kind 2,000 / Six of a kind 3,000", whatever the face.
    assert s.four_of_a_kind == KindValue(points=1000)
    assert s.five_of_a_kind == KindValue(points=2000)
    assert s.six_of_a_kind == KindValue(points=3000)
    for face in FACES:
        assert (s.of_a_kind(face, 4), s.of_a_kind(face, 5), s.of_a_kind(face, 6)) == (1000, 2000, 3000)
    assert s.straight == 1500  # R: "Straight 123456 1,500"
    assert s.three_pairs == 1500  # R: "Three pairs 22 44 66 1,500"
    assert s.four_of_a_kind_and_pair == 1500  # R: "Four of a kind + a pair 4444 66 1,500"
    assert s.two_triplets == 2500  # R: "Two triplets 111 333 2,500"
    assert t.hot_dice is True  # R: "Hot dice: score with all six dice and you can pick them all back up"
    assert t.entry_minimum == 0  # R: "Getting on the board" is only a common variant
    assert t.farkle_penalty == 0  # R: "Three Farkles in a row costs you 1,000" is only a variant
    assert t.six_of_a_kind_wins is False  # R: six of a kind scores 3,000, it does not win
    assert t.farkle_card_value == 0  # no cards in the dice game
    assert e.target == 10000  # R: "First past 10,000 doesn't end it"
    assert e.short_targets == ()
    assert e.final_lap is FinalLap.ONE_LAP  # R: "Everyone else gets one more turn to beat them"
    assert rules.allowed_targets(2) == rules.allowed_targets(8) == (10000,)


def test_pocket_is_retail_with_three_ones_worth_300() -> None:
    # R, Common variants: "Three 1s = 300 instead of 1,000 - the Pocket Farkel rule."
    pocket, retail = load_rules("pocket"), load_rules("retail")
    assert pocket.scoring.three_ones == 300
    assert pocket.scoring.triple(1) == 300
    assert pocket.scoring.triple(2) == 200
    # Everything else is the retail chart: the only differences are the name, the title and three 1s.
    expected = dataclasses.replace(
        retail,
        name="pocket",
        title=pocket.title,
        scoring=dataclasses.replace(retail.scoring, three_ones=300),
    )
    assert pocket == expected


def test_house_2009_carries_the_house_chart() -> None:
    rules = load_rules("house-2009")
    s, t, e = rules.scoring, rules.turn, rules.end
    assert rules.kind is GameKind.DICE
    assert (s.one, s.five, s.three_ones) == (100, 50, 1000)  # H: "One 100", "Five 50", "3 ones 1,000"
    assert s.straight == 1000  # H: "A straight (1 through 6) 1,000"
    assert s.three_pairs == 1000  # H: "3 pair 1,000"
    # H: "4 of any number equals that number times 200 (except ones they equal 2000)"
    assert [s.of_a_kind(face, 4) for face in FACES] == [2000, 400, 600, 800, 1000, 1200]
    # H: "5 of any number equals that number times 300 (except ones they equal 3000)"
    assert [s.of_a_kind(face, 5) for face in FACES] == [3000, 600, 900, 1200, 1500, 1800]
    assert t.six_of_a_kind_wins is True  # H: "6 of any number equals WINS the game"
    assert t.instant_win_banks_turn is False  # default reading: the win comes before any scoring
    # The house chart has neither "four of a kind + a pair" nor "two triplets".
    assert s.four_of_a_kind_and_pair == 0
    assert s.two_triplets == 0
    assert t.entry_minimum == 1000  # H: "Each player must score 1000 points in one turn to 'get on the board'"
    assert t.hot_dice is True  # H: "If at any time 'all' the dice produce points ... begin again with all six"
    assert e.target == 10000  # H: "Play to 10,000."
    assert e.final_lap is FinalLap.ONE_LAP  # H: "the remaining players have one last turn"


def test_house_2009_with_extend_final_lap_extends() -> None:
    # H: "let each player have one more turn, each time anyone beats the high scorer"
    rules = load_rules("house-2009", variants=["extend-final-lap"])
    assert rules.end.final_lap is FinalLap.EXTEND
    assert rules.name == "house-2009+extend-final-lap"
    assert rules.scoring == load_rules("house-2009").scoring


def test_flip_is_the_card_edition() -> None:
    rules = load_rules("flip")
    t, e = rules.turn, rules.end
    assert rules.kind is GameKind.CARDS
    # F: "if you have four twos ... and you also have three Farkle Cards ... you would add another 300"
    assert t.farkle_card_value == 100
    # F: "To initially get on the scoreboard, you must make a total of 1,000 points in one turn."
    assert t.entry_minimum == 1000
    assert t.farkle_cards_count_toward_entry is True  # the preset's stated default reading
    assert t.six_of_a_kind_wins is False
    assert e.target == 10000  # F: "Be the first person to score 10,000 points or more."
    # F: "If playing with six or more players, you may decide to play to only 5,000 or 7,500 points"
    assert set(e.short_targets) == {5000, 7500}
    assert e.short_targets_min_players == 6
    assert rules.allowed_targets(2) == (10000,)
    assert rules.allowed_targets(5) == (10000,)
    assert set(rules.allowed_targets(6)) == {10000, 5000, 7500}
    assert set(rules.allowed_targets(9)) == {10000, 5000, 7500}
    assert e.final_lap is FinalLap.ONE_LAP  # F: "the other players get one more turn"
    # F: its examples match the retail chart ("three fours ... 400", "four twos ... 1,000 points").
    assert rules.scoring.triple(4) == 400
    assert rules.scoring.of_a_kind(2, 4) == 1000


# --------------------------------------------------------------------------- variants


@pytest.mark.parametrize("preset", PRESETS)
def test_each_variant_changes_only_its_own_fields(preset: str) -> None:
    base = load_rules(preset)
    # R, Common variants: "Straight = 2,500 at some tables"
    straight = load_rules(preset, variants=["straight-2500"])
    assert straight.scoring == dataclasses.replace(base.scoring, straight=2500)
    assert (straight.turn, straight.end) == (base.turn, base.end)
    assert straight.name == f"{preset}+straight-2500"

    # R: "Four, five and six of a kind double up - each extra die doubles the three-of-a-kind value":
    # four = 2 x triple, five = 4 x triple, six = 8 x triple.
    doubling = load_rules(preset, variants=["doubling"])
    assert doubling.scoring == dataclasses.replace(
        base.scoring,
        four_of_a_kind=KindValue(triple_times=2),
        five_of_a_kind=KindValue(triple_times=4),
        six_of_a_kind=KindValue(triple_times=8),
    )
    triple_ones = base.scoring.three_ones
    assert doubling.scoring.of_a_kind(1, 4) == 2 * triple_ones
    assert doubling.scoring.of_a_kind(3, 5) == 4 * 300  # three 3s = 300, doubled twice
    assert doubling.scoring.of_a_kind(6, 6) == 8 * 600  # three 6s = 600, doubled three times
    assert (doubling.turn, doubling.end) == (base.turn, base.end)

    # R: "you must bank at least 500 in one turn before any of your points count"
    entry = load_rules(preset, variants=["entry-500"])
    assert entry.turn == dataclasses.replace(base.turn, entry_minimum=500)
    assert (entry.scoring, entry.end) == (base.scoring, base.end)

    # R: "Three Farkles in a row costs you 1,000 points."
    penalty = load_rules(preset, variants=["three-farkle-penalty"])
    assert penalty.turn == dataclasses.replace(base.turn, farkle_penalty=1000, farkle_penalty_streak=3)
    assert (penalty.scoring, penalty.end) == (base.scoring, base.end)

    extend = load_rules(preset, variants=["extend-final-lap"])
    assert extend.end == dataclasses.replace(base.end, final_lap=FinalLap.EXTEND)
    assert (extend.scoring, extend.turn) == (base.scoring, base.turn)


@pytest.mark.parametrize("preset", PRESETS)
def test_variants_combine(preset: str) -> None:
    base = load_rules(preset)
    rules = load_rules(preset, variants=["straight-2500", "doubling", "entry-500", "three-farkle-penalty"])
    assert rules.name == f"{preset}+straight-2500+doubling+entry-500+three-farkle-penalty"
    assert rules.scoring == dataclasses.replace(
        base.scoring,
        straight=2500,
        four_of_a_kind=KindValue(triple_times=2),
        five_of_a_kind=KindValue(triple_times=4),
        six_of_a_kind=KindValue(triple_times=8),
    )
    assert rules.turn == dataclasses.replace(
        base.turn, entry_minimum=500, farkle_penalty=1000, farkle_penalty_streak=3
    )
    assert rules.end == base.end
    assert rules.kind is base.kind


def test_a_rule_set_name_loads_the_same_rule_set() -> None:
    # A rule set is named "preset+variant+...", and that name loads it again.
    for preset in PRESETS:
        for combo in _all_variant_sets():
            rules = load_rules(preset, variants=combo)
            assert rules.name == "+".join((preset, *combo))
            assert load_rules(rules.name) == rules
    with pytest.raises(RuleFileError) as caught:
        load_rules("retail+tripling")
    assert "'tripling'" in str(caught.value)
    assert "doubling" in str(caught.value)


def test_variants_do_not_leak_into_later_loads() -> None:
    before = load_rules("retail")
    load_rules("retail", variants=VARIANTS)
    assert load_rules("retail") == before
    assert before.scoring.straight == 1500 and before.turn.entry_minimum == 0


def test_overrides_lay_over_preset_and_variants() -> None:
    rules = load_rules(
        "retail",
        variants=["straight-2500"],
        overrides={"scoring": {"three_pairs": 750}, "end": {"ties": "play-off"}},
    )
    assert rules.scoring.straight == 2500
    assert rules.scoring.three_pairs == 750
    assert rules.end.ties is Ties.PLAY_OFF
    # An override is checked like any file field.
    with pytest.raises(RuleFileError) as caught:
        load_rules("retail", overrides={"end": {"ties": "coin toss"}})
    message = str(caught.value)
    assert "ties" in message and "'coin toss'" in message
    assert "'shared'" in message and "'play-off'" in message


# --------------------------------------------------------------------------- user files


def test_user_file_with_base_and_overrides(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        'base = "house-2009"\n'
        'title = "Our kitchen table"\n'
        "[scoring]\n"
        "straight = 2500\n"
        'four_of_a_kind = "1000"\n'
        "[turn]\n"
        "entry_minimum = 500\n"
        "[end]\n"
        'final_lap = "extend"\n'
        'ties = "play-off"\n',
        "kitchen.toml",
    )
    house = load_rules("house-2009")
    rules = load_rules(path)
    assert rules.name == "kitchen"
    assert rules.title == "Our kitchen table"
    assert rules.scoring == dataclasses.replace(
        house.scoring, straight=2500, four_of_a_kind=KindValue(points=1000)
    )
    assert rules.turn == dataclasses.replace(house.turn, entry_minimum=500)
    assert rules.end == dataclasses.replace(house.end, final_lap=FinalLap.EXTEND, ties=Ties.PLAY_OFF)
    # The string form of the path loads the same file.
    assert load_rules(str(path)) == rules
    # Variants lay over a user file too.
    doubled = load_rules(path, variants=["doubling"])
    assert doubled.name == "kitchen+doubling"
    assert doubled.scoring.five_of_a_kind == KindValue(triple_times=4)
    assert doubled.scoring.straight == 2500


def test_user_file_without_base_starts_from_retail(tmp_path: Path) -> None:
    path = write(tmp_path, "[scoring]\nthree_ones = 300\n", "mine.toml")
    rules = load_rules(path)
    retail = load_rules("retail")
    assert rules.scoring == dataclasses.replace(retail.scoring, three_ones=300)
    assert (rules.turn, rules.end, rules.kind, rules.title) == (retail.turn, retail.end, retail.kind, retail.title)


# (file text, field named in the message, the bad value as quoted, words of the allowed values)
BAD_FIELDS = [
    pytest.param(
        "[scoring]\nstraights = 2500\n",
        "straights",
        None,
        ["allowed fields", "straight", "three_pairs"],
        id="unknown-field-in-section",
    ),
    pytest.param(
        "colour = 'red'\n",
        "colour",
        None,
        ["allowed", "base", "title", "kind"],
        id="unknown-field-at-top",
    ),
    pytest.param(
        '[scoring]\nstraight = "2500"\n',
        "straight",
        "'2500'",
        ["whole number", "multiple of 50"],
        id="string-for-a-number",
    ),
    pytest.param(
        "[scoring]\nstraight = 1234\n",
        "straight",
        "1234",
        ["whole number", "multiple of 50"],
        id="not-a-multiple-of-50",
    ),
    pytest.param(
        "[turn]\nentry_minimum = true\n",
        "entry_minimum",
        "True",
        ["whole number", "multiple of 50"],
        id="bool-for-int",
    ),
    pytest.param(
        # false would pass for 0 (a multiple of 50) if bools were taken as numbers
        "[scoring]\nfour_of_a_kind_and_pair = false\n",
        "four_of_a_kind_and_pair",
        "False",
        ["whole number", "multiple of 50"],
        id="false-for-int",
    ),
    pytest.param(
        "[turn]\nfarkle_penalty_streak = true\n",
        "farkle_penalty_streak",
        "True",
        ["whole number >= 1"],
        id="bool-for-count",
    ),
    pytest.param(
        "[scoring]\nstraight = 1500.0\n",
        "straight",
        "1500.0",
        ["whole number", "multiple of 50"],
        id="float-for-int",
    ),
    pytest.param(
        "[turn]\nhot_dice = 1\n",
        "hot_dice",
        "1",
        ["true or false"],
        id="number-for-bool",
    ),
    pytest.param(
        "[turn]\nfarkle_penalty_streak = 0\n",
        "farkle_penalty_streak",
        "0",
        ["whole number >= 1"],
        id="count-below-one",
    ),
    pytest.param(
        '[end]\nfinal_lap = "sometimes"\n',
        "final_lap",
        "'sometimes'",
        ["'none'", "'one-lap'", "'extend'"],
        id="bad-enum",
    ),
    pytest.param(
        'kind = "coins"\n',
        "kind",
        "'coins'",
        ["'dice'", "'cards'"],
        id="bad-game-kind",
    ),
    pytest.param(
        '[scoring]\nfour_of_a_kind = "triple y2"\n',
        "four_of_a_kind",
        "'triple y2'",
        ["triple xN", "none"],
        id="bad-kind-value",
    ),
    pytest.param(
        '[scoring]\nfive_of_a_kind = "triple x0"\n',
        "five_of_a_kind",
        "'triple x0'",
        ["triple xN", "none"],
        id="kind-value-times-zero",
    ),
    pytest.param(
        'base = "retial"\n',
        "base",
        "'retial'",
        ["flip", "house-2009", "pocket", "retail"],
        id="unknown-base",
    ),
    pytest.param(
        "[end]\nshort_targets = 5000\n",
        "short_targets",
        "5000",
        ["list"],
        id="number-for-a-list",
    ),
]


@pytest.mark.parametrize(("text", "field", "quoted", "allowed"), BAD_FIELDS)
def test_bad_rule_file_names_file_field_and_allowed_values(
    tmp_path: Path, text: str, field: str, quoted: str | None, allowed: list[str]
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(RuleFileError) as caught:
        load_rules(path)
    message = str(caught.value)
    assert str(path) in message
    assert field in message
    if quoted is not None:
        assert quoted in message
    for word in allowed:
        assert word in message, f"{word!r} not in {message!r}"
    # A RuleFileError is a ValueError, as every domain error is.
    assert isinstance(caught.value, ValueError)


def test_invalid_toml_syntax_names_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, "[scoring\nstraight = 2500\n")
    with pytest.raises(RuleFileError) as caught:
        load_rules(path)
    message = str(caught.value)
    assert str(path) in message
    assert "TOML" in message


def test_section_that_is_not_a_table(tmp_path: Path) -> None:
    path = write(tmp_path, "scoring = 5\n")
    with pytest.raises(RuleFileError) as caught:
        load_rules(path)
    assert str(path) in str(caught.value)
    assert "[scoring]" in str(caught.value)


def test_missing_rules_file(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.toml"
    with pytest.raises(RuleFileError) as caught:
        load_rules(path)
    assert str(path) in str(caught.value)
    assert "no such" in str(caught.value)


def test_cross_field_check_names_the_file(tmp_path: Path) -> None:
    # Six of a kind can only win a game of dice.
    path = write(tmp_path, 'kind = "cards"\n[turn]\nsix_of_a_kind_wins = true\n')
    with pytest.raises(RuleFileError) as caught:
        load_rules(path)
    assert str(path) in str(caught.value)
    assert "six_of_a_kind_wins" in str(caught.value)


def test_unknown_variant_lists_the_variants(tmp_path: Path) -> None:
    with pytest.raises(RuleFileError) as caught:
        load_rules("retail", variants=["straight-3000"])
    message = str(caught.value)
    assert "'straight-3000'" in message
    for name in VARIANTS:
        assert name in message
    # Also over a (good) user file.
    path = write(tmp_path, "[scoring]\nstraight = 2500\n")
    with pytest.raises(RuleFileError) as caught:
        load_rules(path, variants=["doubling", "tripling"])
    assert "'tripling'" in str(caught.value)


def test_unknown_preset_lists_the_presets() -> None:
    with pytest.raises(RuleFileError) as caught:
        load_rules("retial")
    message = str(caught.value)
    assert "'retial'" in message
    for name in PRESETS:
        assert name in message


def test_kind_value_points_must_be_a_multiple_of_50(tmp_path: Path) -> None:
    path = write(tmp_path, "[scoring]\nfour_of_a_kind = 1025\n")
    with pytest.raises(RuleFileError) as caught:
        load_rules(path)
    assert str(path) in str(caught.value)
    assert "four_of_a_kind" in str(caught.value)


# --------------------------------------------------------------------------- round trip


@pytest.mark.parametrize("preset", PRESETS)
def test_round_trip_through_toml_for_every_variant_combination(tmp_path: Path, preset: str) -> None:
    combos = _all_variant_sets()
    assert len(combos) == 2 ** len(VARIANTS)
    for number, combo in enumerate(combos):
        rules = load_rules(preset, variants=combo)
        path = write(tmp_path, rules_to_toml(rules), f"round-{number}.toml")
        again = load_rules(path)
        assert again.name == f"round-{number}"
        assert dataclasses.replace(again, name=rules.name) == rules, combo


def test_round_trip_keeps_a_title_with_a_line_break(tmp_path: Path) -> None:
    # A title with "\n" is valid in a user file (TOML escape), so the rule set must print back.
    source = write(tmp_path, 'title = "Our table\\nsince 2009"\n', "source.toml")
    rules = load_rules(source)
    assert rules.title == "Our table\nsince 2009"
    again = load_rules(write(tmp_path, rules_to_toml(rules), "again.toml"))
    assert dataclasses.replace(again, name=rules.name) == rules
