"""The model card: what it reports is measured once (``measure_card``), and the Markdown is written from those measures alone."""

from __future__ import annotations

import json
from pathlib import Path

from scorekeeper.evaluation.score import Score
from scorekeeper.training.card import AtTheTable, CardMeasures, Measured, PhotoSource, card_text

MODELS = Path(__file__).resolve().parent.parent / "models"


def measures(busy: float | None) -> CardMeasures:
    held_out = Score(images=40, labelled=200, found=198, matched=196, right=190, sure=180, sure_right=179, exact=30, right_unasked=28, asked=9, unasked=1)
    return CardMeasures(
        manifest=json.loads((MODELS / "manifest.json").read_text(encoding="utf-8")),
        model_bytes={"finder": 1234, "pips": 5678},
        sources=(PhotoSource("byler_d6", 120, 700, "train split", "CC BY 4.0. By A."),),
        at_the_table=(AtTheTable("byler_d6 (test, held-out split)", held_out, held_out),),
        failures=("- `byler_d6` IMG_1.jpg: 3 5 read as 3 6",),
        data=(Measured("byler_d6 test (held out)", held_out),),
        resized=(Measured("byler_d6 test (held out) x0.5", held_out),),
        conditions=(Measured("light: dim", held_out),),
        fixes={},
        unsure_line=0.77,
        unsure_source=" (not measured on these models)",
        latency_ms={"640x480": 12.34, "1280x720": 23.45},
        busy_elsewhere=busy,
        cpus=8,
        machine="a test machine",
        metrics={},
    )


def test_the_card_is_written_from_its_measures_alone() -> None:
    text = card_text(measures(0.1), "scorekeeper train --seed 1", [Path("byler_d6")], [Path("corrections")])
    assert "| `byler_d6` | 120 | 700 | train split | CC BY 4.0. By A. |" in text
    assert "| byler_d6 test (held out) | 40 | 200 | 98.00% |" in text
    assert "| byler_d6 test (held out) x0.5 | 40 |" in text and "| light: dim | 40 |" in text
    assert "| byler_d6 (test, held-out split) | 40 | 70.0% | 22.5% | 2.5% |" in text
    assert "- `byler_d6` IMG_1.jpg: 3 5 read as 3 6" in text
    assert "on a test machine:\n640x480 12.3 ms, 1280x720 23.4 ms.\nOther processes kept 10% of the machine's 8 CPUs busy meanwhile.\n" in text
    assert "1,234" in text and "5,678" in text
    assert "the value at least 0.77 sure. Dice below 0.77 are reported unsure (not measured on these models)." in text
    assert "The machine was busy" not in text


def test_the_card_says_when_latency_was_measured_on_a_busy_machine() -> None:
    assert "The machine was busy" in card_text(measures(0.9), "scorekeeper train", [], [])
    assert card_text(measures(None), "scorekeeper train", [], []).endswith("640x480 12.3 ms, 1280x720 23.4 ms.\n")
