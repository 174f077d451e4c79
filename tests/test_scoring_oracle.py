"""Exhaustive comparison of ``scorekeeper.rules.score_roll`` with an independent brute-force oracle.

Every ordered roll of 1..6 dice (55,986 rolls) is scored by the engine under each rule set and
compared with ``tests/farkle_oracle.py``: the set of legal keeps and their points, the order of
the options, the best keep, ``farkle`` and ``wins``.  The oracle works per sorted multiset; the
engine is called on every ordering, so it must not depend on the order of the dice.

The spot tests at the bottom are worked out by hand from the scoring charts in
``shared/rules/`` and check the oracle as much as the engine.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import Any

import pytest

from farkle_oracle import marked_rolls, oracle_score, oracle_score_marked
from scorekeeper.rules import Dice, IllegalRoll, load_rules

RULE_SETS = [
    pytest.param("retail", (), id="retail"),
    pytest.param("pocket", (), id="pocket"),
    pytest.param("house-2009", (), id="house-2009"),
    pytest.param("flip", (), id="flip"),
    pytest.param("retail", ("doubling",), id="retail+doubling"),
    pytest.param("house-2009", ("farkle-penalty-500", "below-zero"), id="house-2009+farkle-penalty-500+below-zero"),
    pytest.param("pocket", ("piggyback",), id="pocket+piggyback"),
]

MARKED_RULE_SETS = [
    pytest.param("retail", ("wild-die",), id="retail+wild-die"),
    pytest.param("house-2009", ("wild-die",), id="house-2009+wild-die"),
    pytest.param("retail", ("spicy",), id="retail+spicy"),
    pytest.param("pocket", ("wild-die", "spicy"), id="pocket+wild-die+spicy"),
]
"""Issue 54's wild die and spicy, alone, together, and under a chart whose six of a kind wins. Alone,
every roll the variant allows; together, every roll where the wild die shows a 1 among plain and
red dice, where the two meet (the wild die showing 2-6 is that face, a red one too: spicy alone
covers those rolls' scores; and the rolls with no wild die are spicy's own)."""

ALL_ROLLS = [roll for n in range(1, 7) for roll in itertools.product(range(1, 7), repeat=n)]
MAX_REPORTED = 25


def _load(rule_set: str, variants: tuple[str, ...]) -> Any:
    if variants:
        return load_rules(rule_set, variants=list(variants))
    return load_rules(rule_set)


def _score(rules: Any, roll: tuple[int, ...]) -> Any:
    from scorekeeper.rules import score_roll

    return score_roll(rules, roll)


def _keep(option: Any) -> tuple[int, ...]:
    """An engine keep as a plain tuple (the engine may wrap it, e.g. in an object with ``.values``)."""
    keep = option.keep
    return tuple(keep.values if hasattr(keep, "values") else keep)


def _name(rule_set: str, variants: tuple[str, ...]) -> str:
    return rule_set + "".join(f"+{v}" for v in variants)


def test_roll_count() -> None:
    assert len(ALL_ROLLS) == 6 + 36 + 216 + 1296 + 7776 + 46656 == 55_986
    assert len(set(ALL_ROLLS)) == 55_986


def _compare(name: str, roll: tuple[int, ...], got: Any, want: Any) -> list[str]:
    """Differences between engine result ``got`` and oracle result ``want`` for ``roll``."""
    problems: list[str] = []
    got_list = [(_keep(o), o.points) for o in got.options]
    got_set = set(got_list)
    want_set = set(want.options)
    if len(got_set) != len(got_list):
        dupes = sorted({o for o in got_list if got_list.count(o) > 1})
        problems.append(f"duplicate options {dupes}")
    if got_set != want_set:
        got_points = {k: p for k, p in got_set}
        want_points = dict(want_set)
        extra = sorted(k for k in got_points.keys() - want_points.keys())
        missing = sorted(k for k in want_points.keys() - got_points.keys())
        wrong = sorted(
            (k, got_points[k], want_points[k])
            for k in got_points.keys() & want_points.keys()
            if got_points[k] != want_points[k]
        )
        if extra:
            problems.append(f"engine has keeps the oracle rejects: {[(k, got_points[k]) for k in extra]}")
        if missing:
            problems.append(f"engine lacks keeps: {[(k, want_points[k]) for k in missing]}")
        if wrong:
            problems.append(
                "points differ (keep, engine, oracle): " + ", ".join(f"{k} {g} vs {w}" for k, g, w in wrong)
            )
        if len(got_set) != len(got_points):
            problems.append(f"a keep appears with two point values: {sorted(got_set)}")
    elif got_list != list(want.options):
        problems.append(f"option order differs: engine {got_list} vs oracle {list(want.options)}")
    for o in got.options:
        if _keep(o) != tuple(sorted(_keep(o))):
            problems.append(f"keep not sorted ascending: {_keep(o)}")
    got_best = None if got.best is None else (_keep(got.best), got.best.points)
    if got_best != want.best:
        problems.append(f"best: engine {got_best} vs oracle {want.best}")
    if got.options and not got.wins and got_best != got_list[0]:
        problems.append(f"best {got_best} is not options[0] {got_list[0]}")
    if bool(got.farkle) != want.farkle:
        problems.append(f"farkle: engine {got.farkle} vs oracle {want.farkle}")
    if bool(got.wins) != want.wins:
        problems.append(f"wins: engine {got.wins} vs oracle {want.wins}")
    return [f"[{name}] roll {roll}: {p}" for p in problems]


@pytest.mark.parametrize(("rule_set", "variants"), RULE_SETS)
def test_engine_matches_oracle_on_every_roll(rule_set: str, variants: tuple[str, ...]) -> None:
    rules = _load(rule_set, variants)
    name = _name(rule_set, variants)
    failures: list[str] = []
    failing_rolls = 0
    checked = 0
    for roll in ALL_ROLLS:
        want = oracle_score(rule_set, variants, roll)
        got = _score(rules, roll)
        checked += 1
        problems = _compare(name, roll, got, want)
        if problems:
            failing_rolls += 1
            if len(failures) < MAX_REPORTED:
                failures.extend(problems)
    assert checked == 55_986
    assert not failures, (
        f"{name}: {failing_rolls} of {checked} rolls disagree with the oracle; first ones:\n" + "\n".join(failures)
    )


def _compare_marked(name: str, roll: tuple[tuple[int, str], ...], got: Any, want: Any) -> list[str]:
    """Differences between the engine's scoring of a marked roll and the oracle's."""
    problems: list[str] = []
    got_list = [(o.keep.dice, o.points) for o in got.options]
    if got_list != list(want.options):
        got_points, want_points = dict(got_list), dict(want.options)
        extra = sorted(got_points.keys() - want_points.keys())
        missing = sorted(want_points.keys() - got_points.keys())
        wrong = sorted((k, got_points[k], want_points[k]) for k in got_points.keys() & want_points.keys() if got_points[k] != want_points[k])
        if extra:
            problems.append(f"engine has keeps the oracle rejects: {[(k, got_points[k]) for k in extra]}")
        if missing:
            problems.append(f"engine lacks keeps: {[(k, want_points[k]) for k in missing]}")
        if wrong:
            problems.append("points differ (keep, engine, oracle): " + ", ".join(f"{k} {g} vs {w}" for k, g, w in wrong))
        if not (extra or missing or wrong):
            problems.append(f"option order differs: engine {got_list} vs oracle {list(want.options)}")
    got_best = None if got.best is None else (got.best.keep.dice, got.best.points)
    if got_best != want.best:
        problems.append(f"best: engine {got_best} vs oracle {want.best}")
    if (bool(got.farkle), bool(got.wins)) != (want.farkle, want.wins):
        problems.append(f"farkle, wins: engine {got.farkle}, {got.wins} vs oracle {want.farkle}, {want.wins}")
    return [f"[{name}] roll {roll}: {p}" for p in problems]


@pytest.mark.parametrize(("rule_set", "variants"), MARKED_RULE_SETS)
@pytest.mark.slow
def test_engine_matches_oracle_on_every_marked_roll(rule_set: str, variants: tuple[str, ...]) -> None:
    rules = _load(rule_set, variants)
    name = _name(rule_set, variants)
    both = len(variants) == 2
    rolls = marked_rolls(variants, wild_shows=(1,) if both else (1, 2, 3, 4, 5, 6), unmarked=not both)
    failures: list[str] = []
    failing_rolls = 0
    for roll in rolls:
        # the engine is given the dice in the order thrown, the oracle's sorted order reversed
        problems = _compare_marked(name, roll, _score(rules, Dice.from_dice(reversed(roll))), oracle_score_marked(rule_set, variants, roll))
        if problems:
            failing_rolls += 1
            if len(failures) < MAX_REPORTED:
                failures.extend(problems)
    # every roll of plain and red dice with at most one wild die among them, each counted once
    # wild-die: the 923 plain rolls, and 6 faces of the wild die with 0-5 plain dice (462 ways);
    # spicy: 1-6 of twelve kinds of die (6 faces plain or red); both: the wild 1 (plain or red)
    # with 0-5 of those twelve kinds (6,188 ways)
    assert len(rolls) == {("wild-die",): 923 + 6 * 462, ("spicy",): 18_563, ("wild-die", "spicy"): 2 * 6_188}[variants]
    assert not failures, f"{name}: {failing_rolls} of {len(rolls)} rolls disagree with the oracle; first ones:\n" + "\n".join(failures)


# --------------------------------------------------------------------------------------------
# Hand-checked spot tests.  Each expected value is worked out from the charts in shared/rules/.
# Every spot test checks the oracle too, so the exhaustive test above rests on checked ground.
# --------------------------------------------------------------------------------------------

SPOT = [
    # retail, 1 1 1 1: four of a kind is a flat 1,000, but three 1s (1,000) + a single 1 (100)
    # = 1,100 is better.  Smaller keeps: 1 1 1 = 1,000, 1 1 = 200, 1 = 100.
    ("retail", (), (1, 1, 1, 1), ((1, 1, 1, 1), 1100), False, False),
    # retail, 2 3 4 6 6 2: no 1s or 5s, no triple, not three pairs (counts 2,1,1,2) -> Farkle.
    ("retail", (), (2, 3, 4, 6, 6, 2), None, True, False),
    # retail, 2 2 3 3 4 6: pairs of 2 and 3 only, no 1s/5s -> Farkle.
    ("retail", (), (2, 2, 3, 3, 4, 6), None, True, False),
    # retail, straight 1..6: 1,500 (vs 1 + 5 = 150).
    ("retail", (), (6, 5, 4, 3, 2, 1), ((1, 2, 3, 4, 5, 6), 1500), False, False),
    # retail, 2 2 2 3 3 3: two triplets 2,500 (vs 200 + 300 = 500).
    ("retail", (), (3, 2, 3, 2, 3, 2), ((2, 2, 2, 3, 3, 3), 2500), False, False),
    # retail, 4 4 4 4 6 6: four of a kind + a pair 1,500 (also three pairs 1,500) vs four 4s 1,000.
    ("retail", (), (4, 6, 4, 6, 4, 4), ((4, 4, 4, 4, 6, 6), 1500), False, False),
    # retail, six 1s: six of a kind 3,000 beats 111 + 111 = 2,000 and five 1s + 1 = 2,100.
    ("retail", (), (1, 1, 1, 1, 1, 1), ((1, 1, 1, 1, 1, 1), 3000), False, False),
    # retail, six 6s: 3,000; no win outside house-2009.
    ("retail", (), (6, 6, 6, 6, 6, 6), ((6, 6, 6, 6, 6, 6), 3000), False, False),
    # retail, 1 1 5 3 4 6: 1 + 1 + 5 = 250.
    ("retail", (), (1, 1, 5, 3, 4, 6), ((1, 1, 5), 250), False, False),
    # retail, 5 5 5 5 5 5: six of a kind 3,000 (three pairs 1,500; five 5s 2,000 + 5 = 2,050).
    ("retail", (), (5, 5, 5, 5, 5, 5), ((5, 5, 5, 5, 5, 5), 3000), False, False),
    # retail, 2 2 2 2 2 1: five of a kind 2,000 + 1 = 2,100.
    ("retail", (), (2, 1, 2, 2, 2, 2), ((1, 2, 2, 2, 2, 2), 2100), False, False),
    # pocket, 1 1 1: three 1s are only 300 under Pocket Farkel (= 1 + 1 + 1 as singles).
    ("pocket", (), (1, 1, 1), ((1, 1, 1), 300), False, False),
    # pocket, 1 1 1 1: four of a kind flat 1,000 beats 300 + 100 = 400.
    ("pocket", (), (1, 1, 1, 1), ((1, 1, 1, 1), 1000), False, False),
    # pocket, 1 1 1 1 1 1: six of a kind 3,000 (two triplets of 1s would need different faces).
    ("pocket", (), (1, 1, 1, 1, 1, 1), ((1, 1, 1, 1, 1, 1), 3000), False, False),
    # house-2009, 3 3 3 3 4 4: four 3s = 3 x 200 = 600 (4s unusable), three pairs (four of a kind
    # counts as two pairs) = 1,000 -> 1,000.
    ("house-2009", (), (3, 3, 3, 3, 4, 4), ((3, 3, 3, 3, 4, 4), 1000), False, False),
    # house-2009, 4 4 4 4 6 6: no four+pair combination; three pairs 1,000 > four 4s 800.
    ("house-2009", (), (4, 4, 4, 4, 6, 6), ((4, 4, 4, 4, 6, 6), 1000), False, False),
    # house-2009, straight: 1,000.
    ("house-2009", (), (1, 2, 3, 4, 5, 6), ((1, 2, 3, 4, 5, 6), 1000), False, False),
    # house-2009, 2 2 2 3 3 3: no two-triplets combination: 200 + 300 = 500.
    ("house-2009", (), (2, 2, 2, 3, 3, 3), ((2, 2, 2, 3, 3, 3), 500), False, False),
    # house-2009, 2 2 2 2: 4 of a kind = 2 x 200 = 400.
    ("house-2009", (), (2, 2, 2, 2), ((2, 2, 2, 2), 400), False, False),
    # house-2009, 5 5 5 5 5: 5 of a kind = 5 x 300 = 1,500.
    ("house-2009", (), (5, 5, 5, 5, 5), ((5, 5, 5, 5, 5), 1500), False, False),
    # house-2009, six 6s WINS, so the best keep is all six dice, which claims the win.  Their
    # points: all six same 1,000, three pairs 1,000, 666 + 666 = 1,200 -> 1,200 (five 6s alone
    # would score 1,800 but not win).
    ("house-2009", (), (6, 6, 6, 6, 6, 6), ((6, 6, 6, 6, 6, 6), 1200), False, True),
    # house-2009, six 1s WINS.  five 1s 3,000 + a 1 = 3,100 (vs four 1s 2,000 + 200 = 2,200,
    # 111 + 111 = 2,000, six the same 1,000).
    ("house-2009", (), (1, 1, 1, 1, 1, 1), ((1, 1, 1, 1, 1, 1), 3100), False, True),
    # flip plays the retail chart: 1 1 5 3 4 6 -> 250.
    ("flip", (), (1, 1, 5, 3, 4, 6), ((1, 1, 5), 250), False, False),
    # flip, 2 2 4 4 6 6: three pairs 1,500.
    ("flip", (), (2, 2, 4, 4, 6, 6), ((2, 2, 4, 4, 6, 6), 1500), False, False),
    # retail + doubling, 2 2 2 2 2: five of a kind = 4 x 200 = 800.
    ("retail", ("doubling",), (2, 2, 2, 2, 2), ((2, 2, 2, 2, 2), 800), False, False),
    # retail + doubling, 1 1 1 1: four of a kind = 2 x 1,000 = 2,000 (vs 1,000 + 100).
    ("retail", ("doubling",), (1, 1, 1, 1), ((1, 1, 1, 1), 2000), False, False),
    # retail + doubling, six 1s: 8 x 1,000 = 8,000, and still no instant win.
    ("retail", ("doubling",), (1, 1, 1, 1, 1, 1), ((1, 1, 1, 1, 1, 1), 8000), False, False),
    # retail + doubling, 3 3 3 3 2 2: four 3s = 600 < four + pair 1,500.
    ("retail", ("doubling",), (3, 3, 3, 3, 2, 2), ((2, 2, 3, 3, 3, 3), 1500), False, False),
]

SPOT_IDS = [f"{_name(r, v)}-{''.join(map(str, roll))}" for r, v, roll, *_ in SPOT]


@pytest.mark.parametrize(("rule_set", "variants", "roll", "best", "farkle", "wins"), SPOT, ids=SPOT_IDS)
def test_oracle_spot(
    rule_set: str,
    variants: tuple[str, ...],
    roll: tuple[int, ...],
    best: tuple[tuple[int, ...], int] | None,
    farkle: bool,
    wins: bool,
) -> None:
    result = oracle_score(rule_set, variants, roll)
    assert (result.best, result.farkle, result.wins) == (best, farkle, wins)


@pytest.mark.parametrize(("rule_set", "variants", "roll", "best", "farkle", "wins"), SPOT, ids=SPOT_IDS)
def test_engine_spot(
    rule_set: str,
    variants: tuple[str, ...],
    roll: tuple[int, ...],
    best: tuple[tuple[int, ...], int] | None,
    farkle: bool,
    wins: bool,
) -> None:
    s = _score(_load(rule_set, variants), roll)
    got_best = None if s.best is None else (_keep(s.best), s.best.points)
    assert (got_best, bool(s.farkle), bool(s.wins)) == (best, farkle, wins), f"[{_name(rule_set, variants)}] {roll}"


def _full_option_cases() -> list[tuple[str, tuple[str, ...], tuple[int, ...], tuple[tuple[tuple[int, ...], int], ...]]]:
    """Whole option lists, in the agreed order, for three small rolls."""
    # retail 1 1 1 1: 1111 = 1,100; 111 = 1,000; 11 = 200; 1 = 100.
    retail_1111 = (((1, 1, 1, 1), 1100), ((1, 1, 1), 1000), ((1, 1), 200), ((1,), 100))
    # pocket 1 1 5: 115 = 250; 11 = 200; 15 = 150; 1 = 100; 5 = 50.
    pocket_115 = (((1, 1, 5), 250), ((1, 1), 200), ((1, 5), 150), ((1,), 100), ((5,), 50))
    # retail 5 5 5 5 5: 55555 = 2,000 (vs 5555 + 5 = 1,050, 555 + 5 + 5 = 600);
    # 5555 = 1,000 (vs 555 + 5 = 550); 555 = 500; 55 = 100; 5 = 50.
    retail_55555 = (
        ((5, 5, 5, 5, 5), 2000),
        ((5, 5, 5, 5), 1000),
        ((5, 5, 5), 500),
        ((5, 5), 100),
        ((5,), 50),
    )
    cases = [
        ("retail", (), (1, 1, 1, 1), retail_1111),
        ("pocket", (), (5, 1, 1), pocket_115),
        ("retail", (), (5, 5, 5, 5, 5), retail_55555),
    ]
    return cases


def test_oracle_full_option_lists_by_hand() -> None:
    for rule_set, variants, roll, expected in _full_option_cases():
        assert oracle_score(rule_set, variants, roll).options == expected


def test_engine_full_option_lists_by_hand() -> None:
    for rule_set, variants, roll, expected in _full_option_cases():
        s = _score(_load(rule_set, variants), roll)
        assert tuple((_keep(o), o.points) for o in s.options) == expected, f"[{rule_set}] {roll}"


def test_each_keep_names_the_combinations_it_is_made_of() -> None:
    # What the window's keep buttons and the score sheet show: the combinations of the best keep,
    # worked out from the retail chart.
    rules = load_rules("retail")
    cases = {
        "1 1 1 5 2 3": ["three of a kind 1 1 1 (1000)", "single 5 (50)"],
        "2 2 2 2 2 1": ["single 1 (100)", "five of a kind 2 2 2 2 2 (2000)"],
        "6 5 4 3 2 1": ["straight 1 2 3 4 5 6 (1500)"],
        "2 2 4 4 6 6": ["three pairs 2 2 4 4 6 6 (1500)"],
        "3 3 3 6 6 6": ["two triplets 3 3 3 6 6 6 (2500)"],
    }
    for roll, split in cases.items():
        best = _score(rules, Dice.from_str(roll)).best
        assert best is not None and [str(part) for part in best.split] == split, roll


def test_four_of_a_kind_and_a_pair_stands_alone_where_four_of_a_kind_is_not_two_pairs() -> None:
    # A house chart with the retail points but four of a kind NOT counting as two pairs: 4 4 4 4 6 6
    # is four of a kind and a pair (1,500), not three pairs; 2 2 4 4 6 6 is still three pairs (1,500);
    # 4 4 4 4 6 6 with four-and-a-pair worth 2,000 is 2,000, not the three pairs' 1,500.
    retail = load_rules("retail")
    own = replace(retail, scoring=replace(retail.scoring, four_of_a_kind_as_two_pairs=False))
    best = _score(own, Dice.from_str("4 6 4 6 4 4")).best
    assert best is not None and [str(part) for part in best.split] == ["four of a kind and a pair 4 4 4 4 6 6 (1500)"]
    best = _score(own, Dice.from_str("2 2 4 4 6 6")).best
    assert best is not None and [str(part) for part in best.split] == ["three pairs 2 2 4 4 6 6 (1500)"]
    richer = replace(retail, scoring=replace(retail.scoring, four_of_a_kind_and_pair=2000))
    best = _score(richer, Dice.from_str("4 6 4 6 4 4")).best
    assert best is not None and (best.points, [str(part) for part in best.split]) == (2000, ["four of a kind and a pair 4 4 4 4 6 6 (2000)"])


@pytest.mark.parametrize(
    "given, message",
    [
        ([], "a roll needs at least one die"),
        ([1, 7], "die 7 in [1, 7] is not a face of a die (1-6)"),
        ([0, 2], "die 0 in [0, 2] is not a face of a die (1-6)"),
        ([True, 2], "die True in [True, 2] is not a face of a die (1-6)"),
        ([1, 2.0], "die 2.0 in [1, 2.0] is not a face of a die (1-6)"),
        ([1, 2, 3, 4, 5, 6, 1], "'1 2 3 4 5 6 1' has 7 dice; Farkle is played with six"),
    ],
)
def test_a_roll_that_is_not_dice_is_refused_quoting_it(given: list[Any], message: str) -> None:
    with pytest.raises(IllegalRoll) as refused:
        _score(load_rules("retail"), given)
    assert str(refused.value) == message


def test_the_score_keeps_the_roll_sorted() -> None:
    assert _score(load_rules("retail"), (5, 1, 3)).roll == Dice.from_str("1 3 5")


def test_typed_dice_may_have_spaces_and_commas_and_anything_else_is_refused_quoting_it() -> None:
    assert Dice.from_str(" 1,1, 5 ") == Dice([1, 1, 5])
    for text, bad in [("1 X 5", "X"), ("1 7 5", "7"), ("1 0", "0")]:
        with pytest.raises(IllegalRoll) as refused:
            Dice.from_str(text)
        assert str(refused.value) == f"die {bad} in {text!r} is not a face of a die (1-6)"


MARKED_SPOT = [
    # wild die: 1w 2 2 3 4 6: the wild 1 as a 2 makes three 2s (200), more than a single 1 (100).
    ("retail", ("wild-die",), "1w 2 2 3 4 6", ("1w 2 2", 200), False),
    # wild die: 1w 1 2 3 4 5: the wild 1 as the 6 makes the straight (1,500).
    ("retail", ("wild-die",), "1w 1 2 3 4 5", ("1 1w 2 3 4 5", 1500), False),
    # wild die: 2w 2 3 4 6 6: showing 2 it is a 2; a pair of 2s and of 6s score nothing: Farkle.
    ("retail", ("wild-die",), "2w 2 3 4 6 6", None, False),
    # house-2009 + wild die: 1w 4 4 4 4 4 is six 4s and wins; all six 4s as three pairs 1,000, six
    # of a kind 1,000, five 4s 1,200 + the wild as a 1 100 = 1,300: the most.
    ("house-2009", ("wild-die",), "1w 4 4 4 4 4", ("1w 4 4 4 4 4", 1300), True),
    # spicy: 1 1 1 1r: three 1s holding the red one (2,000) + a 1 (100) = 2,100.
    ("retail", ("spicy",), "1 1 1 1r 2 3", ("1 1 1 1r", 2100), False),
    # spicy: 5r 5r 5: three 5s doubled once: 1,000 (as three red-or-not singles: 100 + 100 + 50).
    ("retail", ("spicy",), "5r 5r 5 2 3 4", ("5 5r 5r", 1000), False),
    # spicy: a red 2 scoring nothing: 1 + 5 = 150.
    ("retail", ("spicy",), "2r 1 5 3 4 4", ("1 5", 150), False),
    # both, pocket: 1wr 6 6 4 4 4: the red wild 1 as a 6: two triplets 2,500 doubled = 5,000.
    ("pocket", ("wild-die", "spicy"), "1wr 6 6 4 4 4", ("1wr 4 4 4 6 6", 5000), False),
]
MARKED_SPOT_IDS = [f"{_name(r, v)}-{roll.replace(' ', '')}" for r, v, roll, *_ in MARKED_SPOT]


def _marked(text: str) -> tuple[tuple[int, str], ...]:
    return Dice.from_str(text).dice


@pytest.mark.parametrize(("rule_set", "variants", "roll", "best", "wins"), MARKED_SPOT, ids=MARKED_SPOT_IDS)
def test_marked_spot_by_hand(rule_set: str, variants: tuple[str, ...], roll: str, best: tuple[str, int] | None, wins: bool) -> None:
    want = None if best is None else (_marked(best[0]), best[1])
    oracle = oracle_score_marked(rule_set, variants, _marked(roll))
    assert (oracle.best, oracle.wins) == (want, wins)
    engine = _score(_load(rule_set, variants), Dice.from_str(roll))
    assert (None if engine.best is None else (engine.best.keep.dice, engine.best.points), engine.wins) == (want, wins)
