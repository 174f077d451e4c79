"""The table that learns, on the shared real test splits as players meet it: per split and group,
the first K photos of each of 5 seeded orders teach the table (the die size its first 5 read best
at and, where the safety rule allows, its head), the rest are read told their count. The floors are what the committed
reader measured (``benchmarks/table_learning.py``); the issue's targets it does not meet yet are
marked expected to fail (strictly), so meeting one is noticed (issue 59's: wrong with nothing
asked at most 0.5% at every K; byler 93% at K = 10 and 96% at K = 20; fisheye 85%, the white table
70% and dice3 55% at K = 20)."""

from __future__ import annotations

import pytest

from conftest import shared_data_folder
from scorekeeper.evaluation.assessment import groups_in
from scorekeeper.evaluation.dataset import load_dataset, with_label_fixes
from scorekeeper.evaluation.learning import LearnedScore, TablePhotos, learn_and_score, tables_of
from scorekeeper.vision.reader import OnnxDiceReader

SPLITS = [("byler_d6", ""), ("dice3", "phone"), ("rune55", "colour-trays"), ("rune55", "fisheye-grey"), ("rune55", "white-table-grey")]
SEEDS = 5
Outcomes = dict[tuple[str, str], dict[int, LearnedScore]]


@pytest.fixture(scope="module")
def outcomes() -> Outcomes:
    reader = OnnxDiceReader()
    found: Outcomes = {}
    for source in sorted({source for source, _ in SPLITS}):
        folder = shared_data_folder(source, "split.csv", "images", "labels")
        items = with_label_fixes(load_dataset(folder, split="test"), folder)[0]
        for group, photos in tables_of(items, groups_in(folder / "split.csv")).items():
            table = TablePhotos(reader, photos, True)
            found[(source, group)] = {k: learn_and_score(reader, table, k, SEEDS) for k in (0, 10, 20) if k < len(photos)}
    return found


def right(outcomes: Outcomes, key: tuple[str, str], k: int) -> float:
    assert key in outcomes, f"no {key[1] or 'photos'} in {key[0]}'s test split"
    return outcomes[key][k].mean("right_unasked_share")


def wrong(outcomes: Outcomes, key: tuple[str, str], k: int) -> float:
    return outcomes[key][k].mean("wrong_unasked_share")


def split_id(key: tuple[str, str]) -> str:
    return "/".join(part for part in key if part)


@pytest.mark.slow
@pytest.mark.parametrize("key", SPLITS, ids=split_id)
def test_learning_reads_no_split_worse_than_cold(outcomes: Outcomes, key: tuple[str, str]) -> None:
    for k in outcomes[key]:
        assert right(outcomes, key, k) >= right(outcomes, key, 0), f"K = {k}"


@pytest.mark.slow
def test_the_development_tray_as_measured(outcomes: Outcomes) -> None:
    tray = ("byler_d6", "")
    # measured: 84.3% cold, 87.3% at K = 10, 86.5% at K = 20, none read wrong with nothing asked
    assert right(outcomes, tray, 0) >= 0.84
    assert right(outcomes, tray, 10) >= 0.86 and right(outcomes, tray, 20) >= 0.86
    assert all(wrong(outcomes, tray, k) <= 0.005 for k in outcomes[tray])


@pytest.mark.slow
def test_the_fisheye_table_is_found_once_its_die_size_is_known(outcomes: Outcomes) -> None:
    fisheye = ("rune55", "fisheye-grey")
    # measured: 7.1% cold (its 150-200 px dice boxed by one pip), 69.1% at K = 20 (the die size measured
    # from the first 5 confirmed rolls)
    assert right(outcomes, fisheye, 20) >= right(outcomes, fisheye, 0) + 0.5


def not_met(reason: str) -> pytest.MarkDecorator:
    return pytest.mark.xfail(strict=True, raises=AssertionError, reason=f"issue 59: {reason}")


@pytest.mark.slow
@not_met("87.3% at K = 10 on the development tray")
def test_target_the_development_tray_at_k10(outcomes: Outcomes) -> None:
    assert right(outcomes, ("byler_d6", ""), 10) >= 0.93


@pytest.mark.slow
@not_met("86.5% at K = 20 on the development tray: a die the model's views disagree on is asked about")
def test_target_the_development_tray_at_k20(outcomes: Outcomes) -> None:
    assert right(outcomes, ("byler_d6", ""), 20) >= 0.96


@pytest.mark.slow
@pytest.mark.parametrize(
    "key",
    [pytest.param(key, marks=not_met("0.6% read wrong with nothing asked at K = 10 (one photo, in one order)")) if key[1] == "white-table-grey" else key for key in SPLITS],
    ids=split_id,
)
def test_target_wrong_with_nothing_asked_at_most_half_a_percent(outcomes: Outcomes, key: tuple[str, str]) -> None:
    assert all(wrong(outcomes, key, k) <= 0.005 for k in outcomes[key])


@pytest.mark.slow
@pytest.mark.parametrize(
    ("key", "target"),
    [
        pytest.param(("rune55", "fisheye-grey"), 0.85, marks=not_met("69.1% at K = 20")),
        pytest.param(("rune55", "white-table-grey"), 0.70, marks=not_met("40.9% at K = 20")),
        pytest.param(("dice3", "phone"), 0.55, marks=not_met("27.0% at K = 20")),
    ],
    ids=lambda value: split_id(value) if isinstance(value, tuple) else str(value),
)
def test_target_at_k20(outcomes: Outcomes, key: tuple[str, str], target: float) -> None:
    assert right(outcomes, key, 20) >= target
