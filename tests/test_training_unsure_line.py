"""The unsure line chosen by training (``training/unsure_line.py``): the step that writes a model
folder's ``unsure_line.json`` from the ONNX files (no torch), the committed models' line, and the
reader reading its line from that file alone."""

from __future__ import annotations

import ast
import json
import shutil
from pathlib import Path

import pytest

from scorekeeper.cli import main
from scorekeeper.training.unsure_line import CHOICE_SEED, QUICK_SCENES, SCENES, TARGET, LineRow, choose, choose_unsure_line, read_unsure_line
from scorekeeper.vision.reader import MANIFEST_FILE, UNSURE_LINE_FILE, ModelError, ModelFiles, OnnxDiceReader, default_model_dir

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "scorekeeper"


def rows(*counts: tuple[float, int, int, int]) -> list[LineRow]:
    return [LineRow(*row) for row in counts]


@pytest.fixture
def models(tmp_path: Path) -> Path:
    """A copy of the committed models without their unsure line."""
    folder = tmp_path / "models"
    shutil.copytree(default_model_dir(), folder)
    (folder / UNSURE_LINE_FILE).unlink()
    return folder


def test_the_committed_line_is_the_one_training_chose_on_these_models() -> None:
    manifest = json.loads((REPO / "models" / MANIFEST_FILE).read_text(encoding="utf-8"))
    record = json.loads((REPO / "models" / UNSURE_LINE_FILE).read_text(encoding="utf-8"))
    assert record["models"] == {key: manifest[key]["sha256"] for key in ("finder", "pips")}, (
        "the unsure line was chosen on other models: run `scorekeeper train --choose-unsure-line`"
    )
    assert record["data"]["scenes"] >= 1600, "fewer scenes cannot tell 99.9% right from 100%"
    assert record["data"]["seed"] == CHOICE_SEED and record["data"]["scenes"] == SCENES and record["target"] == TARGET
    # the line worked out again from the record's counts: the lowest line with 99.9% of its sure dice right
    meeting = [row["line"] for row in record["rows"] if row["sure"] and (row["sure"] - row["wrong_and_sure"]) / row["sure"] >= 0.999]
    assert record["met_target"] and record["line"] == min(meeting) == 0.85
    assert OnnxDiceReader().unsure_below == ModelFiles.load().unsure_below == record["line"]


def test_the_manifest_and_the_training_recipe_carry_no_line_of_their_own() -> None:
    manifest = json.loads((REPO / "models" / MANIFEST_FILE).read_text(encoding="utf-8"))
    assert "unsure_below" not in manifest and "unsure_below" not in manifest["config"]
    assert "unsure_below" not in (PACKAGE / "training" / "train.py").read_text(encoding="utf-8"), "the line is chosen, not copied into TrainConfig"


def test_only_the_reader_names_the_line_file_and_only_the_step_writes_it() -> None:
    naming, writing = [], []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if any(isinstance(node, ast.Constant) and node.value == UNSURE_LINE_FILE for node in ast.walk(tree)):
            naming.append(path.relative_to(PACKAGE).as_posix())
        if any(
            isinstance(node, ast.Call) and ast.unparse(node.func).endswith("write_atomically") and "UNSURE_LINE_FILE" in ast.unparse(node.args[0])
            for node in ast.walk(tree)
        ):
            writing.append(path.relative_to(PACKAGE).as_posix())
    assert naming == ["vision/reader.py"]
    assert writing == ["training/unsure_line.py"]


def test_the_rule_takes_the_lowest_line_with_the_target_right_and_else_the_strictest() -> None:
    measured = rows((0.5, 100, 2, 0), (0.8, 1000, 1, 10), (0.9, 900, 0, 110), (0.95, 0, 0, 1010))
    chosen = choose(measured, CHOICE_SEED, 5, {"finder": "f", "pips": "p"})
    assert (chosen.line, chosen.met_target, chosen.chosen_row.sure) == (0.8, True, 1000)
    weak = choose(rows((0.5, 100, 9, 0), (0.9, 50, 1, 50)), CHOICE_SEED, 5, {"finder": "f", "pips": "p"})
    assert (weak.line, weak.met_target) == (0.9, False)


def test_the_step_chooses_from_the_onnx_files_and_the_reader_reads_what_it_wrote(models: Path) -> None:
    said: list[str] = []
    chosen = choose_unsure_line(models, scenes=6, threads=1, report=said.append)
    record = json.loads((models / UNSURE_LINE_FILE).read_text(encoding="utf-8"))
    manifest = json.loads((models / MANIFEST_FILE).read_text(encoding="utf-8"))
    assert record["line"] == chosen.line and record["rule"] and record["data"] == {"rolls": record["data"]["rolls"], "seed": CHOICE_SEED, "scenes": 6}
    assert record["models"] == {key: manifest[key]["sha256"] for key in ("finder", "pips")}
    assert [row["line"] for row in record["rows"]] == sorted(row["line"] for row in record["rows"])
    assert all(row["sure"] + row["unsure"] > 0 for row in record["rows"])
    assert read_unsure_line(models) == chosen
    assert OnnxDiceReader(models).unsure_below == chosen.line
    assert len(said) == 1 and said[0].startswith(f"unsure line {chosen.line}")


def test_the_train_command_chooses_the_line_alone(models: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["train", "--choose-unsure-line", "--quick", "--threads", "1", "--out", str(models)]) == 0
    assert read_unsure_line(models).scenes == QUICK_SCENES
    assert f"unsure line written to {models / UNSURE_LINE_FILE}" in capsys.readouterr().err
    assert main(["train", "--choose-unsure-line", "--out", str(models), str(models)]) == 2
    assert "give it no FOLDER" in capsys.readouterr().err
    assert main(["train", "--choose-unsure-line", "--quick", "--out", str(models.parent / "none")]) == 2
    assert "no dice model at" in capsys.readouterr().err


def test_a_model_folder_without_its_line_is_refused_saying_how_to_choose_it(models: Path) -> None:
    with pytest.raises(ModelError, match=r"has no unsure line: unsure_line.json is missing; choose it with `scorekeeper train --choose-unsure-line"):
        OnnxDiceReader(models)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("{", "damaged unsure line"),
        ('{"rows": []}', r"damaged unsure line .*KeyError\('line'\)"),
        ('{"line": "high"}', "damaged unsure line .*could not convert"),
        ('{"line": 1.5}', "the line 1.5 is not a share from 0 to 1"),
        ("[0.85]", "damaged unsure line"),
    ],
)
def test_a_damaged_line_file_is_refused_saying_what_is_wrong(models: Path, text: str, says: str) -> None:
    (models / UNSURE_LINE_FILE).write_text(text, encoding="utf-8")
    with pytest.raises(ModelError, match=says):
        ModelFiles.load(models)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (None, "has no unsure line: unsure_line.json is missing; choose it with"),
        ('{"line": 1.5}', "the line 1.5 is not a share from 0 to 1"),
        ('{"line": 0.85}', r"damaged unsure line .*KeyError\('rows'\)"),
    ],
)
def test_training_reads_the_line_from_the_record_the_reader_checks(models: Path, text: str | None, says: str) -> None:
    if text is not None:
        (models / UNSURE_LINE_FILE).write_text(text, encoding="utf-8")
    with pytest.raises(ModelError, match=says):
        read_unsure_line(models)


def test_a_line_file_that_is_a_folder_is_called_one(models: Path) -> None:
    (models / UNSURE_LINE_FILE).mkdir()
    with pytest.raises(ModelError, match="is a folder, not a model's unsure line"):
        ModelFiles.load(models)


def test_a_wheel_installs_the_line_beside_the_models() -> None:
    import tomllib

    shipped = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["data-files"]["share/scorekeeper/models"]
    assert f"models/{UNSURE_LINE_FILE}" in shipped and f"models/{MANIFEST_FILE}" in shipped
