"""The table that learns: the pip reader's embedding output, the head fitted on a table's confirmed
dice, the safety rule, the table file, the learner beside the table session, and the commands
that measure and use it."""

from __future__ import annotations

import json
from dataclasses import replace
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import pytest

from conftest import shared_data_folder
from scorekeeper.evaluation.dataset import LabelledImage, load_dataset, with_label_fixes
from scorekeeper.evaluation.assessment import groups_in
from scorekeeper.evaluation.learning import TablePhotos, learn_and_score, tables_of
from scorekeeper.evaluation.score import Score
from scorekeeper.vision.detections import Detections
from scorekeeper.table_session.learner import TableLearner
from scorekeeper.training.embedding import add_embedding_output
from scorekeeper.vision.reader import EMBEDDING_OUTPUT, MANIFEST_FILE, PIPS_FILE, OnnxDiceReader, default_model_dir
from scorekeeper.vision.processing import Finds, cut_by_edge
from scorekeeper.vision.table_head import Verdict, fit_head, held_back, read_with_head
from scorekeeper.vision import table_memory
from scorekeeper.vision.table_memory import TableFileError, TableMemory, learned_reader, table_file_for


@pytest.fixture(scope="module")
def reader() -> OnnxDiceReader:
    return OnnxDiceReader(threads=1)


@pytest.fixture(scope="module")
def byler_test() -> list[LabelledImage]:
    folder = shared_data_folder("byler_d6", "split.csv", "images", "labels")
    return with_label_fixes(load_dataset(folder, split="test"), folder)[0]


def model_without_embedding(folder: Path) -> None:
    """The committed models with the pip reader's embedding output taken off (a model exported
    before the table learned)."""
    shutil.copytree(default_model_dir(), folder)
    model = onnx.load(str(folder / PIPS_FILE))
    kept = [output for output in model.graph.output if output.name != EMBEDDING_OUTPUT]
    del model.graph.output[:]
    model.graph.output.extend(kept)
    nodes = [node for node in model.graph.node if EMBEDDING_OUTPUT not in node.output]
    del model.graph.node[:]
    model.graph.node.extend(nodes)
    onnx.save(model, str(folder / PIPS_FILE))
    manifest = json.loads((folder / MANIFEST_FILE).read_text(encoding="utf-8"))
    from scorekeeper.vision.reader import sha256_of

    manifest["pips"]["sha256"] = sha256_of(folder / PIPS_FILE)
    (folder / MANIFEST_FILE).write_text(json.dumps(manifest), encoding="utf-8")


def test_the_committed_pip_reader_gives_its_144_value_embedding(reader: OnnxDiceReader, byler_test: list[LabelledImage]) -> None:
    finds = reader.finds(byler_test[0].load())
    assert reader.can_learn
    assert finds.embeddings.shape == (4, len(finds), 144)


def test_the_embedding_output_is_added_without_changing_a_read(tmp_path: Path, byler_test: list[LabelledImage]) -> None:
    folder = tmp_path / "models"
    model_without_embedding(folder)
    before = OnnxDiceReader(folder, threads=1)
    assert not before.can_learn
    frame = byler_test[1].load()
    read_before = before.read(frame)
    assert add_embedding_output(folder) == 144
    assert add_embedding_output(folder) == 144, "a second call leaves the file as it is"
    after = OnnxDiceReader(folder, threads=1)
    read_after = after.read(frame)
    assert after.can_learn
    assert read_after.roll() == read_before.roll()
    np.testing.assert_array_equal(read_after.confidences, read_before.confidences)


def test_a_model_without_embedding_reads_as_before_and_cannot_learn(tmp_path: Path, byler_test: list[LabelledImage]) -> None:
    folder = tmp_path / "models"
    model_without_embedding(folder)
    cold = OnnxDiceReader(folder, threads=1)
    memory = TableMemory(cold)
    item = byler_test[0]
    memory.learn(item.load(), item.labels.boxes, item.labels.values.tolist(), np.zeros((0, 4)))
    assert memory.head().in_use is None


def test_a_head_learns_classes_apart_and_leaves_unseen_ones_to_the_model() -> None:
    rng = np.random.default_rng(1)
    values = np.array([2, 5] * 30)
    embeddings = rng.normal(0, 1, (60, 4, 16)).astype(np.float32)
    embeddings[:, :, 3] += np.where(values == 5, 4.0, -4.0)[:, None]
    head = fit_head(embeddings, values)
    assert head.classes.tolist() == [2, 5]
    log_probs = head.log_probs(embeddings[:1])
    # the head has never seen a 1, a 3, a 4, a 6 or "not a die": it leaves the model's say on them as it is
    assert log_probs[0, 0, [0, 1, 3, 4, 6]].tolist() == [0.0] * 5
    # the model torn between 2 and 5: the table's head settles it
    model = np.tile(np.array([0.02, 0.02, 0.45, 0.02, 0.02, 0.45, 0.02], np.float32), (4, 1, 1))
    adjusted = head.adjust(model, embeddings[:1].transpose(1, 0, 2))
    # by hand: the 0.9 the model gives 2 and 5 goes all but whole to 2; the unseen classes keep their 0.02
    assert 0.85 < adjusted[0, 2] <= 0.9 and adjusted[0, 5] < 0.05
    np.testing.assert_allclose(adjusted[0, [0, 1, 3, 4, 6]], 0.02, rtol=1e-5)
    with pytest.raises(ValueError, match="classes must be 0"):
        fit_head(embeddings[:2], np.array([7, 1]))


def test_learning_a_table_reads_more_rolls_right_and_none_more_wrong(reader: OnnxDiceReader, byler_test: list[LabelledImage]) -> None:
    photos = TablePhotos(reader, byler_test, True)
    cold = learn_and_score(reader, photos, 0, 1)
    taught = learn_and_score(reader, photos, 10, 3)
    assert taught.head_used >= 2
    # measured: 84.3% cold; taught by 10 rolls, 87.3% over 5 orders, none read wrong unasked
    assert taught.mean("right_unasked_share") >= cold.mean("right_unasked_share") + 0.02
    assert taught.mean("wrong_unasked_share") == 0.0


def test_a_table_the_cold_reader_reads_perfectly_keeps_the_model_alone(reader: OnnxDiceReader, byler_test: list[LabelledImage]) -> None:
    cold = TablePhotos(reader, byler_test, True)
    perfect = []
    for i, item in enumerate(byler_test):
        photo = cold.read(i, 0.0)
        found = reader.decide(photo.confirmed.finds, len(item.labels))
        if found.roll() == item.labels.roll() and not found.unsure.any() and not cut_by_edge(found.boxes, *photo.size).any():
            perfect.append(item)
    assert len(perfect) >= 30
    table = TablePhotos(reader, perfect, True)
    for k in (3, 10, 20):
        taught = learn_and_score(reader, table, k, 4)
        # learning never costs: the model alone reads every confirmed roll right with nothing
        # asked, so the head is never used and no roll is asked about
        assert taught.head_used == 0, k
        assert [score.right_unasked_share for score in taught.seeds] == [1.0] * 4, k


def test_a_die_the_model_doubts_is_made_sure_by_the_head_only_where_every_view_agrees() -> None:
    views = np.zeros((4, 3, 7), np.float32)
    views[:, 0, 2] = 0.7  # every view reads 2, the model at 0.7: under its line of 0.85
    views[:, 0, 3] = 0.3
    views[:3, 1, 2], views[:3, 1, 3] = 0.8, 0.2  # three views read 2, the fourth 3
    views[3, 1, 2], views[3, 1, 3] = 0.3, 0.7
    views[:, 2, 2], views[:, 2, 5] = 0.45, 0.55  # the model thinks it more likely a 5
    assert held_back(views, np.array([2, 2, 2]), 0.85).tolist() == [False, True, True]
    # the model sure of its own value: nothing to hold back
    assert held_back(views, np.array([2, 2, 2]), 0.6).tolist() == [False, False, True]
    finds = Finds(np.array([[0, 0, 40, 40], [50, 0, 90, 40], [100, 0, 140, 40]], np.float32), np.full(3, 0.9, np.float32), views, np.zeros((4, 3, 0), np.float32))
    head_says = np.zeros((3, 7), np.float32)
    head_says[:, 2] = 0.97
    head_says[:, 3] = 0.03
    found = read_with_head(finds, head_says, 0.3, 0.85, 0.6, 3)
    assert found.values.tolist() == [2, 2, 2]
    assert found.unsure.tolist() == [False, True, True]
    # a die held back keeps the model's own confidence measured against the model's line
    assert found.confidences[1] == pytest.approx(views[:, 1, 2].mean() * 0.6 / 0.85)


def test_a_die_the_table_confirmed_that_its_head_reads_otherwise_keeps_the_line_above_that_reading(
    reader: OnnxDiceReader, byler_test: list[LabelledImage]
) -> None:
    memory = TableMemory(reader)
    for number, item in enumerate(byler_test[:8]):
        values = item.labels.values.tolist()
        if number == 3:
            values[0] = values[0] % 6 + 1  # a die confirmed as another face than it shows
        memory.learn(item.load(), item.labels.boxes, values, np.zeros((0, 4)))
    learned = memory.head()
    assert learned.verdict is not None
    # held out, the head fitted on the other rolls reads that die as the face it shows, sure of
    # it: no line at or under that confidence is taken
    head = memory.examples[memory.examples.rolls != 3].fit()
    assert head is not None
    odd = memory.examples[(memory.examples.rolls == 3)]
    probs = head.adjust(odd.probs[:1].transpose(1, 0, 2), odd.embeddings[:1].transpose(1, 0, 2))
    assert int(probs[0, 1:].argmax()) + 1 == byler_test[3].labels.values[0]
    assert learned.verdict.unsure_below > float(probs[0, 1:].max()) - 0.02


@pytest.mark.parametrize(
    ("head_right", "head_wrong", "model_right", "model_wrong", "line", "used"),
    [
        (9, 0, 10, 0, 0.85, False),  # fewer held-out rolls right than the model alone
        (12, 1, 10, 0, 0.6, False),  # more right, but one read wrong with nothing asked
        (10, 0, 10, 0, 0.6, False),  # as many right: no gain, so the model reads alone
        (10, 0, 10, 0, 0.85, False),  # as many right at the model's own line: still no gain
        (11, 0, 10, 0, 0.6, True),  # more right, none wrong, fewer asked
        (11, 0, 10, 2, 0.6, False),  # more right and fewer wrong, but more asked (1 where the model asked none)
        (12, 0, 12, 0, 0.85, False),  # the model alone reads every held-out roll right: it stays alone
        (0, 0, 0, 0, 0.85, False),  # nothing judged (no rolls)
    ],
)
def test_the_safety_rule(head_right: int, head_wrong: int, model_right: int, model_wrong: int, line: float, used: bool) -> None:
    rolls = 0 if head_right == model_right == 0 else 12
    verdict = Verdict(head_right, head_wrong, model_right, model_wrong, rolls, 0.85, line)
    assert verdict.use_head is used
    if used:
        assert verdict.head_asked <= verdict.model_asked and verdict.head_wrong <= verdict.model_wrong


def test_a_table_whose_head_reads_worse_than_the_model_reads_with_the_model(reader: OnnxDiceReader, byler_test: list[LabelledImage]) -> None:
    memory = TableMemory(reader)
    rng = np.random.default_rng(7)
    for item in byler_test[:6]:
        # values confirmed at random: what the head learns reads no held-out roll as confirmed,
        # and the model (which agrees with none of them either) keeps reading alone
        noise = rng.integers(1, 7, len(item.labels)).tolist()
        memory.learn(item.load(), item.labels.boxes, noise, np.zeros((0, 4)))
    learned = memory.head()
    assert learned.verdict is not None and learned.verdict.head_right == 0
    assert learned.in_use is None or learned.verdict.unsure_below >= reader.unsure_below


def test_the_table_file_keeps_what_was_learned_and_refuses_what_is_not_one(reader: OnnxDiceReader, byler_test: list[LabelledImage], tmp_path: Path) -> None:
    memory = TableMemory(reader)
    for item in byler_test[:4]:
        memory.learn(item.load(), item.labels.boxes, item.labels.values.tolist(), item.labels.boxes[:0])
    path = table_file_for(tmp_path / "last-calibration.toml")
    memory.save(path)
    again = TableMemory.load(path, reader)
    assert again.counts() == memory.counts() and sum(again.counts().values()) == sum(len(item.labels) for item in byler_test[:4])
    assert [roll.roll for roll in again.rolls] == [tuple(item.labels.roll()) for item in byler_test[:4]]
    assert again.confirmed == 4
    np.testing.assert_array_equal(again.crops, memory.crops)

    damaged = tmp_path / "damaged.table.npz"
    damaged.write_bytes(path.read_bytes()[:500])
    with pytest.raises(TableFileError, match="damaged.table.npz' is damaged or not a table file"):
        TableMemory.load(damaged, reader)
    foreign = tmp_path / "foreign.table.npz"
    np.savez(foreign, format=np.array(2))
    with pytest.raises(TableFileError, match="is of format 2; this scorekeeper reads format 1"):
        TableMemory.load(foreign, reader)
    other = tmp_path / "other.table.npz"
    np.savez(other, format=np.array(1), crops=np.zeros((1, 32, 32, 3), np.uint8))
    with pytest.raises(TableFileError, match="lacks 'values': it is not a table file"):
        TableMemory.load(other, reader)


def test_a_table_keeps_at_most_its_cap_dropping_the_oldest(reader: OnnxDiceReader, byler_test: list[LabelledImage], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table_memory, "MAX_DICE", 10)
    memory = TableMemory(reader)
    first, second = byler_test[0], byler_test[1]
    memory.learn(first.load(), first.labels.boxes, first.labels.values.tolist(), first.labels.boxes[:0])
    memory.learn(second.load(), second.labels.boxes, second.labels.values.tolist(), second.labels.boxes[:0])
    assert len(memory) == 10 and len(memory.crops) == 10
    assert memory.examples.rolls.tolist() == [1] * 10, "the newest roll's dice are the ones kept"


def test_the_learner_refits_off_the_caller_saves_and_forgets(byler_test: list[LabelledImage], tmp_path: Path) -> None:
    reader = OnnxDiceReader(threads=1)
    path = tmp_path / "table.table.npz"
    summaries = []
    learner = TableLearner(reader, path, summaries.append)
    try:
        for item in byler_test[:8]:
            learner.confirm(item.load(), [tuple(map(float, box)) for box in item.labels.boxes], item.labels.values.tolist(), [])
        learner.wait()
        summary = learner.summary()
        assert summary.rolls == 8 and summary.dice == sum(len(item.labels) for item in byler_test[:8])
        assert path.is_file()
        assert summary.in_use == (reader.learned is not None)
        assert "Table learned: " in summary.line() and "from 8 rolls" in summary.line()
        learner.forget()
        learner.wait()
        assert not path.exists() and reader.learned is None and learner.summary().dice == 0
    finally:
        learner.close()


def test_a_damaged_table_file_leaves_the_reader_cold_and_is_kept(tmp_path: Path, byler_test: list[LabelledImage]) -> None:
    reader = OnnxDiceReader(threads=1)
    path = tmp_path / "table.table.npz"
    path.write_bytes(b"not a table")
    learner = TableLearner(reader, path)
    try:
        item = byler_test[0]
        learner.confirm(item.load(), [tuple(map(float, box)) for box in item.labels.boxes], item.labels.values.tolist(), [])
        learner.wait()
        assert "is damaged or not a table file" in learner.summary().line()
        assert path.read_bytes() == b"not a table", "the refused file is not written over"
    finally:
        learner.close()


def _scorekeeper(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "scorekeeper", *args], capture_output=True, text=True, timeout=300)


def test_evaluate_learn_gives_the_shares_per_order_as_json() -> None:
    folder = shared_data_folder("byler_d6", "split.csv", "images", "labels")
    result = _scorekeeper("evaluate", str(folder), "--split", str(folder / "split.csv"), "test", "--learn", "3", "--seeds", "2", "--dice", "--json")
    assert result.returncode == 0, result.stderr
    record = json.loads(result.stdout)
    assert record["learn"] == 3 and record["orders"] == 2 and record["dice_told"] is True
    assert len(record["seeds"]) == 2 and all(seed["photos"] == 48 for seed in record["seeds"])
    for name in ("right_unasked_share", "asked_share", "wrong_unasked_share"):
        assert record[name] == pytest.approx(sum(seed[name] for seed in record["seeds"]) / 2, abs=1e-3)
    assert record["right_unasked_share"] + record["asked_share"] + record["wrong_unasked_share"] <= 1.0 + 1e-6
    # why the photos were asked about: every photo asked has a reason, totals are the orders' sums
    assert record["asked"] == sum(seed["asked"] for seed in record["seeds"]) > 0
    for seed in record["seeds"]:
        assert seed["asked"] == round(seed["asked_share"] * seed["photos"])
        assert sum(seed["asked_why"].values()) >= seed["asked"] >= max(seed["asked_why"].values())
    assert record["asked_why"] == {reason: sum(seed["asked_why"][reason] for seed in record["seeds"]) for reason in ("count", "under_line", "cut_by_edge", "head_held_back")}


def test_a_photo_asked_about_is_tallied_by_each_reason_it_was_asked() -> None:
    truth = Detections(np.array([[10, 10, 40, 40], [60, 10, 90, 40], [110, 10, 140, 40]]), np.array([1, 5, 3]), np.ones(3))
    score = Score()
    # two of three dice found, one cut by the frame's left edge
    score.add(truth, Detections(np.array([[0, 10, 12, 40], [60, 10, 90, 40]]), np.array([1, 5]), np.ones(2)), size=(200, 100))
    # all three found, one under the line
    score.add(truth, Detections(truth.boxes, truth.values, np.array([1, 0.5, 1]), 0.85), size=(200, 100))
    # all three found, one under the line because the learned head held it back
    score.add(truth, Detections(truth.boxes, truth.values, np.array([1, 1, 0.5]), 0.85), size=(200, 100), held=np.array([False, False, True]))
    # read right with nothing asked: no reason
    score.add(truth, truth, size=(200, 100))
    assert score.asked == 3
    assert score.why == {"count": 1, "under_line": 1, "cut_by_edge": 1, "head_held_back": 1}


def test_evaluate_learn_refuses_more_photos_than_a_table_has() -> None:
    folder = shared_data_folder("byler_d6", "split.csv", "images", "labels")
    result = _scorekeeper("evaluate", str(folder), "--split", str(folder / "split.csv"), "test", "--learn", "51")
    assert result.returncode == 2
    assert "has 51 photos; --learn 51 leaves none to score" in result.stderr


def test_read_with_a_profile_that_learned_nothing_says_so(tmp_path: Path) -> None:
    result = _scorekeeper("read", "--profile", str(tmp_path / "kitchen.toml"), str(tmp_path / "x.png"))
    assert result.returncode == 2
    assert f"table file '{tmp_path / 'kitchen.table.npz'}' does not exist" in result.stderr


def test_the_table_command_shows_and_forgets_what_a_table_learned(reader: OnnxDiceReader, byler_test: list[LabelledImage], tmp_path: Path) -> None:
    profile = tmp_path / "kitchen.toml"
    memory = TableMemory(reader)
    for item in byler_test[:6]:
        memory.learn(item.load(), item.labels.boxes, item.labels.values.tolist(), item.labels.boxes[:0])
    memory.save(table_file_for(profile))
    shown = _scorekeeper("table", str(profile), "--json")
    assert shown.returncode == 0, shown.stderr
    record = json.loads(shown.stdout)
    assert record["dice"] == sum(len(item.labels) for item in byler_test[:6]) and record["rolls"] == 6
    assert sum(record["counts"].values()) == record["dice"] and record["held_out"]["rolls"] == 6
    told = _scorekeeper("table", str(profile))
    assert f"{record['dice']} dice learned from 6 rolls" in told.stdout and "held out one at a time" in told.stdout
    # how sure the table is: each held-out roll right, asked or wrong, with it and by the model alone
    held = record["held_out"]
    assert held["right_with_it"] + held["asked_with_it"] + held["wrong_with_it"] == 6
    assert held["right_by_the_model"] + held["asked_by_the_model"] + held["wrong_by_the_model"] == 6
    assert held["model_unsure_below"] == reader.unsure_below
    assert f"{held['right_by_the_model']}, {held['asked_by_the_model']} and {held['wrong_by_the_model']} by the model alone (sure from 85%)" in told.stdout

    forgot = _scorekeeper("table", str(profile), "--forget")
    assert forgot.returncode == 0 and "Forgot what the table learned" in forgot.stdout
    assert not table_file_for(profile).exists()
    again = _scorekeeper("table", str(profile), "--forget")
    assert again.returncode == 0 and "holds nothing to forget" in again.stderr

    table_file_for(profile).write_bytes(b"PK\x03\x04 not really")
    damaged = _scorekeeper("table", str(profile))
    assert damaged.returncode == 2 and "is damaged or not a table file" in damaged.stderr


def test_the_die_size_is_measured_from_the_first_confirmed_rolls_where_the_calibration_has_none(tmp_path: Path) -> None:
    folder = shared_data_folder("rune55", "split.csv", "images", "labels")
    from scorekeeper.evaluation.assessment import groups_in

    groups = groups_in(folder / "split.csv")
    fisheye = [item for item in with_label_fixes(load_dataset(folder, split="test"), folder)[0] if groups.get(item.path.stem) == "fisheye-grey"]
    reader = OnnxDiceReader(threads=1)
    profile = tmp_path / "fisheye.toml"
    learner = TableLearner(reader, table_file_for(profile))
    try:
        learner.calibrated(0.0)
        for item in fisheye[:5]:
            learner.confirm(item.load(), [tuple(map(float, box)) for box in item.labels.boxes], item.labels.values.tolist(), [])
        learner.wait()
        # the fisheye dice are 125-240 px across: read at the model's own scale they are boxed by a pip
        assert reader.die_size >= 96, learner.memory.size_votes.tolist()
        learner.calibrated(40.0)
        learner.wait()
        assert not learner.measures_die_size
    finally:
        learner.close()
    # reading with the saved table (read --profile) reads at the size it measured too
    later = OnnxDiceReader(threads=1)
    learned_reader(later, profile)
    assert later.die_size == learner.memory.die_size() >= 96


def test_the_die_size_stays_the_models_own_where_no_size_reads_clearly_better() -> None:
    from scorekeeper.vision.table_memory import best_die_size

    assert best_die_size(np.array([3, 3, 3, 3, 2, 0, 0, 0, 0])) == 0.0
    assert best_die_size(np.array([1, 1, 2, 2, 2, 1, 2, 2, 1])) == 0.0, "one roll more is chance"
    assert best_die_size(np.array([0, 0, 0, 0, 0, 0, 0, 0, 0])) == 0.0
    assert best_die_size(np.array([0, 0, 1, 2, 2, 2, 0, 0, 0])) == 96.0


def test_the_measure_takes_a_tables_die_size_from_the_model_alone_whatever_head_the_reader_holds(reader: OnnxDiceReader) -> None:
    folder = shared_data_folder("rune55", "split.csv", "images", "labels")
    items = with_label_fixes(load_dataset(folder, split="test"), folder)[0]
    fisheye = tables_of(items, groups_in(folder / "split.csv"))["fisheye-grey"][:5]
    cold = TablePhotos(reader, fisheye, True).die_size(range(5))
    assert cold > 0  # the fisheye table's big dice are found at a size of their own
    # a head left on the reader by an earlier order (here one that learned noise): in a game no
    # head reads before the die size is measured, so the measure must not use it either
    rng = np.random.default_rng(3)
    noise = fit_head(rng.normal(0, 1, (60, 4, 144)).astype(np.float32), rng.integers(1, 7, 60))
    reader.learned = replace(noise, unsure_below=0.5)
    try:
        assert TablePhotos(reader, fisheye, True).die_size(range(5)) == cold
        assert reader.learned is not None
    finally:
        reader.learned = None
