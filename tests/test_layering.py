"""The pure packages stay pure: rules and game import no Qt, OpenCV, onnxruntime or numpy;
and only the UI package imports Qt when it is loaded."""

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
IMPURE_SIBLINGS = ("scorekeeper.vision", "scorekeeper.ui", "scorekeeper.cli")


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


def outside_ui() -> list[Path]:
    return sorted(path for path in PACKAGE.rglob("*.py") if "ui" not in path.relative_to(PACKAGE).parts[:1])


@pytest.mark.parametrize("path", outside_ui(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_only_the_ui_imports_qt_when_loaded(path: Path) -> None:
    bad = [
        name
        for name in module_level_imports(path)
        if name.split(".")[0] in ("PySide6", "PyQt5", "PyQt6", "shiboken6") or name.startswith("scorekeeper.ui")
    ]
    assert not bad, f"{path.relative_to(PACKAGE)} imports {bad} when loaded"


def test_the_command_line_starts_without_qt() -> None:
    code = "import sys, scorekeeper.cli, scorekeeper.export; print(sorted(m for m in sys.modules if m.startswith('PySide6')))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_the_import_check_sees_through_functions(tmp_path: Path) -> None:
    lazy = tmp_path / "lazy.py"
    lazy.write_text("import os\ndef f():\n    from PySide6.QtGui import QImage\nif os:\n    import PySide6\n")
    assert module_level_imports(lazy) == ["os", "PySide6"]


LAYERS = {
    "pipeline": ("scorekeeper.table", "scorekeeper.ui", "scorekeeper.cli", "PySide6"),
    "table": ("scorekeeper.ui", "scorekeeper.cli", "PySide6", "PyQt5", "PyQt6", "shiboken6"),
    "serve": ("scorekeeper.ui", "scorekeeper.cli", "PySide6", "PyQt5", "PyQt6", "shiboken6"),
}
"""Data flows one way, frames -> pipeline -> table session -> views: a package never imports the
ones above it, nor Qt, anywhere (not even inside a function). The phones' scoreboard is a view
without Qt, which the window and the command line start."""


def layered_files() -> list[Path]:
    return sorted(path for package in LAYERS for path in (PACKAGE / package).rglob("*.py"))


@pytest.mark.parametrize("path", layered_files(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_pipeline_and_the_table_session_import_nothing_above_them(path: Path) -> None:
    above = LAYERS[path.relative_to(PACKAGE).parts[0]]
    bad = [name for name in imported_modules(path) if name.startswith(above)]
    assert not bad, f"{path.relative_to(PACKAGE)} imports {bad}"


def test_the_table_session_package_is_there() -> None:
    assert {"session.py", "pictures.py", "camera_game.py"} <= {path.name for path in (PACKAGE / "table").glob("*.py")}
