"""The table that learns, on the shared real test splits as players meet it: per split and group,
the first K photos of each of 5 seeded orders teach the table (the die size its first 5 read best
at and, where the safety rule allows, its head), the rest are read told their count. The floors are what the committed
reader measured (``benchmarks/table_learning.py``); the issue's targets it does not meet yet are
marked expected to fail (strictly), so meeting one is noticed."""

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
    # measured: 84.3% cold, 89.8% at K = 10, 96.1% at K = 20, none read wrong with nothing asked
    assert right(outcomes, tray, 0) >= 0.84
    assert right(outcomes, tray, 20) >= 0.95
    assert all(wrong(outcomes, tray, k) <= 0.005 for k in outcomes[tray])


@pytest.mark.slow
def test_the_fisheye_table_is_found_once_its_die_size_is_known(outcomes: Outcomes) -> None:
    fisheye = ("rune55", "fisheye-grey")
    # measured: 7.1% cold (its 150-200 px dice boxed by one pip), 70.0% at K = 20 (the die size measured
    # from the first 5 confirmed rolls)
    assert right(outcomes, fisheye, 20) >= right(outcomes, fisheye, 0) + 0.5


def not_met(reason: str) -> pytest.MarkDecorator:
    return pytest.mark.xfail(strict=True, raises=AssertionError, reason=f"issue 49: {reason}")


@pytest.mark.slow
@not_met("89.8% at K = 10 on the development tray")
def test_target_the_development_tray_at_k10(outcomes: Outcomes) -> None:
    assert right(outcomes, ("byler_d6", ""), 10) >= 0.93


@pytest.mark.slow
@pytest.mark.parametrize(
    "key",
    [pytest.param(key, marks=not_met("0.6-3.5% read wrong with nothing asked after learning")) for key in SPLITS[1:] if key[1] != "colour-trays"]
    + [("rune55", "colour-trays")],
    ids=split_id,
)
def test_target_wrong_with_nothing_asked_at_most_1_percent(outcomes: Outcomes, key: tuple[str, str]) -> None:
    assert all(wrong(outcomes, key, k) <= 0.01 for k in outcomes[key])


@pytest.mark.slow
@pytest.mark.parametrize(
    "key",
    [pytest.param(("dice3", "phone"), marks=not_met("dice3 +10 points at K = 20")), pytest.param(("rune55", "white-table-grey"), marks=not_met("white table +10 points at K = 20")), ("rune55", "fisheye-grey")],
    ids=split_id,
)
def test_target_twenty_points_over_cold_at_k20(outcomes: Outcomes, key: tuple[str, str]) -> None:
    assert right(outcomes, key, 20) >= right(outcomes, key, 0) + 0.20
