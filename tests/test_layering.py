"""The pure packages stay pure: rules and game import no Qt, OpenCV, onnxruntime or numpy;
and only the UI package (and the PDF writer of export, loaded only for a PDF) imports Qt when it is loaded."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"
PURE = ("rules", "game")
FORBIDDEN = ("PySide6", "PyQt5", "PyQt6", "cv2", "onnxruntime", "numpy", "torch")
# The pure packages may lean on each other, never on the parts that see or show.
IMPURE_SIBLINGS = (
    "scorekeeper.vision",
    "scorekeeper.synthetic",
    "scorekeeper.evaluation",
    "scorekeeper.training",
    "scorekeeper.camera",
    "scorekeeper.table_session",
    "scorekeeper.scoreboard",
    "scorekeeper.ui",
    "scorekeeper.cli",
)


def imported_modules(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def pure_files() -> list[Path]:
    return sorted(path for package in PURE for path in (PACKAGE / package).rglob("*.py"))


def test_the_pure_packages_exist() -> None:
    assert len(pure_files()) >= 8


@pytest.mark.parametrize("path", pure_files(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_pure_package_imports_nothing_heavy(path: Path) -> None:
    bad = [
        name
        for name in imported_modules(path)
        if name.split(".")[0] in FORBIDDEN or name.startswith(IMPURE_SIBLINGS)
    ]
    assert not bad, f"{path.relative_to(PACKAGE)} imports {bad}"


def test_the_check_catches_a_forbidden_import(tmp_path: Path) -> None:
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text("import numpy as np\nfrom PySide6.QtCore import QObject\nfrom .x import y\n")
    assert imported_modules(sneaky) == ["numpy", "PySide6.QtCore"]


def module_level_imports(path: Path) -> list[str]:
    """Modules imported when ``path`` is loaded (imports inside functions run only when called)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: list[str] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            if isinstance(child, ast.Import):
                names.extend(alias.name for alias in child.names)
            elif isinstance(child, ast.ImportFrom) and child.module and child.level == 0:
                names.append(child.module)
            visit(child)

    visit(tree)
    return names


QT_PDF_WRITER = PACKAGE / "export" / "pdf.py"
QT_RACE_PAINTER = PACKAGE / "export" / "race_painter.py"
"""The two modules outside the UI that import Qt: export owns every score sheet, and Qt draws the PDF
and paints its race, as the window paints it. Nothing else outside the window imports them when
loaded; the writer picking the format loads the PDF writer when a PDF is asked for."""


def outside_ui() -> list[Path]:
    return sorted(
        path
        for path in PACKAGE.rglob("*.py")
        if "ui" not in path.relative_to(PACKAGE).parts[:1] and path not in (QT_PDF_WRITER, QT_RACE_PAINTER)
    )


@pytest.mark.parametrize("path", outside_ui(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_only_the_ui_imports_qt_when_loaded(path: Path) -> None:
    bad = [
        name
        for name in module_level_imports(path)
        if name.split(".")[0] in ("PySide6", "PyQt5", "PyQt6", "shiboken6") or name.startswith("scorekeeper.ui")
    ]
    assert not bad, f"{path.relative_to(PACKAGE)} imports {bad} when loaded"


def test_the_qt_pdf_writer_is_loaded_only_when_a_pdf_is_asked_for() -> None:
    assert "PySide6.QtGui" in module_level_imports(QT_PDF_WRITER)
    loaders = [
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*.py")
        if "scorekeeper.export.pdf" in module_level_imports(path)
    ]
    assert loaders == []
    users = [path.relative_to(PACKAGE).as_posix() for path in PACKAGE.rglob("*.py") if "scorekeeper.export.pdf" in imported_modules(path)]
    assert users == ["export/write.py"]


def test_the_qt_race_painter_is_loaded_only_by_the_pdf_writer_and_the_window() -> None:
    assert "PySide6.QtGui" in module_level_imports(QT_RACE_PAINTER)
    users = sorted(
        path.relative_to(PACKAGE).as_posix() for path in PACKAGE.rglob("*.py") if "scorekeeper.export.race_painter" in imported_modules(path)
    )
    assert users == ["export/pdf.py", "ui/race_view.py"]


def test_the_command_line_starts_without_qt() -> None:
    code = "import sys, scorekeeper.cli, scorekeeper.export, scorekeeper.export.write; print(sorted(m for m in sys.modules if m.startswith('PySide6')))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_the_import_check_sees_through_functions(tmp_path: Path) -> None:
    lazy = tmp_path / "lazy.py"
    lazy.write_text("import os\ndef f():\n    from PySide6.QtGui import QImage\nif os:\n    import PySide6\n")
    assert module_level_imports(lazy) == ["os", "PySide6"]


VIEWS = ("scorekeeper.ui", "scorekeeper.cli", "PySide6", "PyQt5", "PyQt6", "shiboken6")
ABOVE_THE_READER = ("scorekeeper.camera", "scorekeeper.table_session", "scorekeeper.scoreboard") + VIEWS
TOOLING = ("scorekeeper.synthetic", "scorekeeper.evaluation", "scorekeeper.training", "torch")

LAYERS = {
    "vision": ABOVE_THE_READER + TOOLING,
    "synthetic": ABOVE_THE_READER + ("scorekeeper.evaluation", "scorekeeper.training", "torch"),
    "evaluation": ABOVE_THE_READER + ("scorekeeper.training", "torch"),
    "camera": ("scorekeeper.table_session", "scorekeeper.scoreboard") + VIEWS + ("scorekeeper.evaluation", "scorekeeper.training", "torch"),
    "table_session": ("scorekeeper.scoreboard",) + VIEWS + TOOLING,
    "scoreboard": ("scorekeeper.camera", "scorekeeper.table_session") + VIEWS + TOOLING,
    "serve": VIEWS + TOOLING,
}
"""Data flows one way, frames -> reader (vision) -> camera (roll-taking) -> table session -> views: a package
never imports the ones above it, nor Qt, anywhere (not even inside a function). The phones'
scoreboard (serve) is a view without Qt, which the window and the command line start. The runtime
reader imports no renderer, evaluation or training code; the renderer (the demo table draws with
it) and the evaluation tooling import no training code."""


def layered_files() -> list[Path]:
    return sorted(path for package in LAYERS for path in (PACKAGE / package).rglob("*.py"))


@pytest.mark.parametrize("path", layered_files(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_each_layer_imports_nothing_above_it(path: Path) -> None:
    above = LAYERS[path.relative_to(PACKAGE).parts[0]]
    bad = [name for name in imported_modules(path) if name.startswith(above)]
    assert not bad, f"{path.relative_to(PACKAGE)} imports {bad}"


def test_the_layered_packages_are_there() -> None:
    assert {"session.py", "tap_pictures.py", "camera_game.py"} <= {path.name for path in (PACKAGE / "table_session").glob("*.py")}
    assert (PACKAGE / "game" / "controller.py").is_file(), "the game controller is plain Python, under game/"
    assert {path.name for path in (PACKAGE / "synthetic").glob("*.py")} == {
        "__init__.py", "scene.py", "layout.py", "table.py", "die.py", "hand.py", "light.py", "camera_effects.py", "perspective.py", "canvas.py", "render.py"
    }, "synthetic/ keeps one module per thing drawn, and render.py the picture and its labels"
    assert {"dataset.py", "assessment.py", "score.py", "samples.py", "classical.py"} <= {path.name for path in (PACKAGE / "evaluation").glob("*.py")}
    assert {path.name for path in (PACKAGE / "vision").glob("*.py")} == {
        "__init__.py", "detections.py", "reader.py", "processing.py", "images.py", "corrections.py", "table_head.py", "table_memory.py", "die_colours.py"
    }, "vision/ keeps what reads a frame (the players' corrections kept for training, what a table taught the reader, and the die colours it taught)"


FILE_HELPERS = ("safe_input.py", "safe_output.py")
"""Reading and writing users' files within bounds and whole: every package leans on them, so they
lean on nothing of the program's and nothing beyond the standard library."""


@pytest.mark.parametrize("name", FILE_HELPERS)
def test_the_file_helpers_import_only_the_standard_library(name: str) -> None:
    imported = imported_modules(PACKAGE / name)
    assert imported, f"{name} is there and imports something"
    bad = [module for module in imported if module.split(".")[0] not in sys.stdlib_module_names]
    assert not bad, f"{name} imports {bad}"
