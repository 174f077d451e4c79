"""The committed reader on real photos as players meet them: per held-out split and group, how
many photos are read right with nothing asked, asked about, and read wrong with nothing asked,
read blind and told each photo's count (``read --dice``). Labels are the project's reviewed ones
where it has them.

The floors are what the committed model measured against the labels, read cold; a change that
reads fewer rolls right, or more wrong without asking, fails. The targets are those of the table
that learns (tests/test_table_learning_real.py).
"""

from __future__ import annotations

import pytest

from conftest import shared_data_folder
from scorekeeper.evaluation.assessment import table_outcomes
from scorekeeper.evaluation.score import Score
from scorekeeper.vision.reader import OnnxDiceReader

MEASURED = {
    # (source, group): (photos read right with nothing asked, photos read wrong with nothing asked), read blind
    ("byler_d6", ""): (43, 0),
    ("dice3", ""): (21, 0),
    ("rune55", "colour-trays"): (0, 0),
    ("rune55", "fisheye-grey"): (3, 0),
    ("rune55", "white-table-grey"): (17, 0),
}


@pytest.fixture(scope="module")
def outcomes() -> dict[tuple[str, str], tuple[Score, Score]]:
    reader = OnnxDiceReader()
    found: dict[tuple[str, str], tuple[Score, Score]] = {}
    for source in sorted({source for source, _ in MEASURED}):
        folder = shared_data_folder(source, "split.csv", "images", "labels")
        blind, counted = table_outcomes(reader, folder, "test")
        for group in blind:
            found[(source, group)] = (blind[group], counted[group])
    return found


def _split(outcomes: dict[tuple[str, str], tuple[Score, Score]], key: tuple[str, str]) -> tuple[Score, Score]:
    assert key in outcomes, f"no {key[1] or 'photos'} in {key[0]}'s test split"
    return outcomes[key]


@pytest.mark.parametrize("key", sorted(MEASURED), ids=lambda key: "/".join(part for part in key if part))
def test_no_more_rolls_misread_without_asking_than_measured(outcomes: dict[tuple[str, str], tuple[Score, Score]], key: tuple[str, str]) -> None:
    blind, counted = _split(outcomes, key)
    assert blind.unasked <= MEASURED[key][1], "\n".join(blind.failures)
    assert counted.unasked <= blind.unasked, "told the count, the reader must not trust it over what it sees:\n" + "\n".join(counted.failures)


@pytest.mark.parametrize("key", sorted(MEASURED), ids=lambda key: "/".join(part for part in key if part))
def test_no_fewer_rolls_read_right_without_asking_than_measured(outcomes: dict[tuple[str, str], tuple[Score, Score]], key: tuple[str, str]) -> None:
    blind, counted = _split(outcomes, key)
    assert blind.right_unasked >= MEASURED[key][0], blind.report()
    assert counted.right_unasked >= blind.right_unasked, counted.report()
